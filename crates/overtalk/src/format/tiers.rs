//! Which tiers of a multi-tier transcript (Praat TextGrid, ELAN EAF) are speakers.
//!
//! Tier-based formats hold more than one tier per speaker: forced aligners add `words` and
//! `phones` tiers, ELAN users add `marker` or `noise` tiers with no participant. Read as
//! speakers they would be people who overlap the real speaker 100 % of the time. So, by default:
//!
//! | tier | left out | why |
//! |---|---|---|
//! | TextGrid `phone(s)`, `phon(s)`, `phoneme(s)`, `segment(s)`, `syllable(s)`, `syl`, `mau`, `kan`, `kan-mau` (WebMAUS), `mas` (WebMAUS, in a grid that also has `mau` or a `xxx-mau` tier whose `xxx` is three letters or digits: elsewhere a speaker's initials), `phonalign`, `phonetization`, `syllalign` (SPPAS) (also `X - phones`, as the Montreal Forced Aligner writes, and `X - phone`, as FAVE does) | always | phone- or syllable-level alignment |
//! | TextGrid `activity`, `activityduration`, `metainformation` (SPPAS) | always | an aligner's annotation of the signal, not speech |
//! | TextGrid `word(s)`, `wrd`, `ort`, `ort-mau` (WebMAUS), `tokensalign` (SPPAS), `X - words`, `X - word` | when at least half of its words' time lies in tiers that are neither phone- nor word-level and are themselves at least a third under its words | word-level alignment of a speaker already there |
//! | EAF top-level tier without `PARTICIPANT` | when another tier names its participant | a marker, noise or comment tier |
//! | TextGrid tier whose name says notes, a translation, glosses, morphemes or parts of speech (`Gloss`, `notes`, `translation`, `morph`, `pos`) | when at least half of its intervals are intervals of another speaker tier, start and end each within 20 ms (one gloss per word, drawn again or rounded) | an annotation of the speech, not a speaker |
//! | TextGrid tier whose name is nothing but words of the note list, one of them a remark's: notes, comments, remarks, errors, `misc` (`Errors`, `Comments`, `notes`, `misc`, `Remarks 2`; not `notes@home`, `Ann notes`, `Gloss`, `FT`) | when another tier with speech is read | remarks on the recording, not a speaker's speech |
//! | TextGrid tier of at most 3 labelled intervals covering at least 90 % of the grid with fewer than one word per 2 s, its labels not its own name (`hum`, `door slams` over the whole grid) | when another tier read has at least 10 labelled intervals | remarks on the recording: read as speech it would be a speaker talking over everyone all the time |
//!
//! A tier of labels over the whole grid (a quality-control tier, `.` everywhere) covers the
//! words but is mostly not under them, so the words stay a speaker. In phone- and word-level
//! tiers the aligners' pause labels (`sil`, `sp`, `<p:>`, `pau`, …) are silence; SPPAS's `#`
//! is silence in every tier. When word tiers are kept, an MFA tier `X - words` (FAVE: `X -
//! word`) is the speaker `X`.
//! The note list ([`names_notes`]) is one for the tiered readers: notes, comments, remarks,
//! errors, `misc`, `metadata`, a translation, gestures, glosses, morphemes, parts of speech. A
//! remark tier is kept when it is the only tier with speech (a grid of one `Comments` tier is
//! that speaker).
//! Names are compared case-insensitively. `--tiers` (only these) and `--ignore-tiers` (not these)
//! take names or glob patterns (`*`, `?`) and override the defaults: with `--tiers`, exactly the
//! matching tiers are read. Readers report the tiers they left out in one
//! [`WarningKind::Note`], with the reason for each.

use crate::error::{Warning, WarningKind};

/// The tiers to read, from `--tiers` and `--ignore-tiers`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TierSelection {
    /// Read only the tiers matching one of these names or glob patterns (empty: the defaults).
    pub only: Vec<String>,
    /// Never read the tiers matching one of these names or glob patterns.
    pub ignore: Vec<String>,
}

/// How fine a forced-alignment tier is, judged by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Phones, phonemes, segments, syllables.
    Phone,
    /// Words.
    Word,
    /// An aligner's annotation of the signal (SPPAS `Activity`, `MetaInformation`): not speech.
    Annotation,
}

/// What a word of [`NOTE_WORDS`] says a tier holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoteKind {
    /// Remarks on the recording (notes, comments, remarks, errors, `misc`, `metadata`): never
    /// speech.
    Remark,
    /// An annotation of the speech (a translation, gestures, glosses, morphemes, parts of
    /// speech): not a speaker when it annotates one's intervals.
    Annotation,
}

/// The words that name a tier of what is not speech (compared in lower case), and what each
/// says it holds: the one list the tiered readers share ([`names_notes`],
/// [`names_only_notes`]).
const NOTE_WORDS: &[(&str, NoteKind)] = &[
    ("note", NoteKind::Remark),
    ("notes", NoteKind::Remark),
    ("comment", NoteKind::Remark),
    ("comments", NoteKind::Remark),
    ("remark", NoteKind::Remark),
    ("remarks", NoteKind::Remark),
    ("error", NoteKind::Remark),
    ("errors", NoteKind::Remark),
    ("misc", NoteKind::Remark),
    ("metadata", NoteKind::Remark),
    ("translation", NoteKind::Annotation),
    ("translations", NoteKind::Annotation),
    ("transl", NoteKind::Annotation),
    ("ft", NoteKind::Annotation),
    ("gesture", NoteKind::Annotation),
    ("gestures", NoteKind::Annotation),
    ("gest", NoteKind::Annotation),
    ("gloss", NoteKind::Annotation),
    ("glosses", NoteKind::Annotation),
    ("morph", NoteKind::Annotation),
    ("morphs", NoteKind::Annotation),
    ("morpheme", NoteKind::Annotation),
    ("morphemes", NoteKind::Annotation),
    ("pos", NoteKind::Annotation),
];

/// What the word `w` of a tier's name says the tier holds, if it is one of [`NOTE_WORDS`].
fn note_word(w: &str) -> Option<NoteKind> {
    let lower = w.to_lowercase();
    NOTE_WORDS.iter().find(|(word, _)| *word == lower).map(|&(_, kind)| kind)
}

/// Whether a tier's id (or linguistic type) names what is not speech by a word of its own
/// (the note list): notes, comments, remarks, errors or a translation (`notes`, `Comments`,
/// `MA-translation`, `ft`), gestures, glosses, morphemes or parts of speech (`gestures`,
/// `gest_included`, `gloss`, `morph`, `words-pos`); not a word inside another (`Translator`,
/// `Notetaker`, `Suggestion`).
pub fn names_notes(id: &str) -> bool {
    id.split(|c: char| !c.is_alphanumeric()).any(|w| note_word(w).is_some())
}

/// Whether a tier's name is nothing but words of the note list (and numbers), one of them a
/// remark's (notes, comments, remarks, errors, `misc`): `Errors`, `Comments`, `notes`, `misc`,
/// `Notes 2`, `gloss-notes`. Such a tier holds remarks on the recording, never a speaker's
/// speech. A name with another word is not (`notes@home`, `Ann notes`: a participant may be
/// named so), nor one of annotation words only (`Gloss`, `FT`, `POS`: a gloss tier is left out
/// when it glosses a speaker's intervals, and `FT` may be someone's initials).
pub fn names_only_notes(name: &str) -> bool {
    let kinds: Vec<Option<NoteKind>> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
        .map(note_word)
        .collect();
    kinds.iter().all(Option::is_some) && kinds.contains(&Some(NoteKind::Remark))
}

/// Whether a TextGrid is WebMAUS output, judged by its tiers' names: it has a tier the BAS
/// services name and no speaker would be (`ORT-MAU`, `KAN-MAU`, any `XXX-MAU` whose `XXX` is
/// three letters or digits as the BAS Partitur tier names are, or the phone tier `MAU`). A
/// speaker's name such as `Anne-Mau` does not make a grid WebMAUS output.
pub fn webmaus_grid<'a>(names: impl IntoIterator<Item = &'a str>) -> bool {
    names.into_iter().any(|name| {
        let lower = name.trim().to_lowercase();
        lower == "mau"
            || lower.strip_suffix("-mau").is_some_and(|tier| {
                tier.len() == 3 && tier.chars().all(|c| c.is_ascii_alphanumeric())
            })
    })
}

/// The alignment level a TextGrid tier's name says it has, if any (`phones`, `A - words`).
/// `webmaus` says whether the grid is WebMAUS output ([`webmaus_grid`]): only then is a tier
/// named `MAS` its syllable alignment; elsewhere `MAS` is a name like any other (a speaker's
/// initials).
pub fn alignment_level(name: &str, webmaus: bool) -> Option<Level> {
    let lower = name.trim().to_lowercase();
    // MFA writes `speaker - words` and `speaker - phones`.
    let base = lower.rsplit_once(" - ").map_or(lower.as_str(), |(_, b)| b).trim();
    // WebMAUS (BAS Web Services) names the tiers of its TextGrid after the BAS Partitur tier
    // and the service that timed it: `ORT-MAU` (words), `KAN-MAU` (each word's canonical
    // pronunciation), beside `MAU` (phones) and `MAS` (syllables).
    let base = base.strip_suffix("-mau").filter(|b| !b.is_empty()).unwrap_or(base);
    match base {
        "mas" if !webmaus => None,
        "phone" | "phones" | "phon" | "phons" | "phoneme" | "phonemes" | "segment" | "segments"
        | "syllable" | "syllables" | "syl" | "mau" | "mas" | "kan" | "phonalign"
        | "phonetization" | "syllalign" => Some(Level::Phone),
        "word" | "words" | "wrd" | "ort" | "tokensalign" => Some(Level::Word),
        "activity" | "activityduration" | "metainformation" => Some(Level::Annotation),
        _ => None,
    }
}

/// The speaker a kept word tier stands for: `X` for MFA's `X - words` and FAVE's `X - word`,
/// else the name itself.
pub fn word_tier_speaker(name: &str) -> &str {
    match name.rsplit_once(" - ") {
        Some((speaker, level))
            if level.trim().eq_ignore_ascii_case("words")
                || level.trim().eq_ignore_ascii_case("word") =>
        {
            speaker.trim()
        }
        _ => name,
    }
}

/// Whether `name` matches the glob `pattern` (`*` any run, `?` one character), ignoring case.
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.to_lowercase().chars().collect();
    let n: Vec<char> = name.to_lowercase().chars().collect();
    // Iterative matcher with one backtrack point: linear in practice, never exponential.
    let (mut i, mut j) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

impl TierSelection {
    /// Why the tier `name` is left out, or `None` to read it. `default` is the reason the
    /// documented rules give (see the module doc), which `--tiers` and `--ignore-tiers`
    /// override.
    pub fn left_out(&self, name: &str, default: Option<&str>) -> Option<String> {
        if !self.only.is_empty() {
            return (!self.only.iter().any(|p| glob_matches(p, name)))
                .then(|| "not chosen by --tiers".to_owned());
        }
        if self.ignore.iter().any(|p| glob_matches(p, name)) {
            return Some("matched by --ignore-tiers".to_owned());
        }
        default.map(str::to_owned)
    }
}

/// The one note that lists the tiers left out, `(name, reason)`, at `line`:`column` of the first.
pub fn left_out_note(left: &[(String, String)], at: (usize, usize)) -> Option<Warning> {
    if left.is_empty() {
        return None;
    }
    let list: Vec<String> = left.iter().map(|(n, why)| format!("{n:?} ({why})")).collect();
    let message = format!(
        "{} tier(s) left out as not speakers: {}; choose with --tiers or --ignore-tiers",
        left.len(),
        list.join(", ")
    );
    Some(if at.0 > 0 {
        Warning::at(WarningKind::Note, at.0, (at.1 > 0).then_some(at.1), message)
    } else {
        Warning::new(WarningKind::Note, message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_names_ignoring_case() {
        assert!(glob_matches("*phones", "Bob - phones"));
        assert!(glob_matches("spk?", "SPK1"));
        assert!(glob_matches("marker", "Marker"));
        assert!(!glob_matches("spk?", "spk10"));
        assert!(glob_matches("a*b*c", "axxbyyc"));
        assert!(!glob_matches("a*b*c", "axxbyy"));
        assert!(glob_matches("*", ""));
        // A pathological pattern stays fast.
        let long = "a".repeat(2000);
        assert!(!glob_matches(&format!("{}b", "*a".repeat(50)), &long));
    }

    #[test]
    fn only_note_words_name_a_tier_of_remarks() {
        for name in ["Errors", "Comments", "notes", "misc", "Notes 2", "gloss-notes", "REMARKS"] {
            assert!(names_only_notes(name), "{name}");
        }
        for name in ["notes@home", "gloss@NAL", "Ann notes", "FT", "POS", "Gloss", "", "2", "Ana"] {
            assert!(!names_only_notes(name), "{name}");
        }
        // The shared list: the EAF reader's words find the new ones too.
        assert!(names_notes("errors-A") && names_notes("misc") && !names_notes("Errorless"));
        // An ELAN user's empty `Other Metadata` tier (drdrphd/transcripter's test.eaf).
        assert!(names_notes("Other Metadata") && names_only_notes("Metadata"));
    }

    #[test]
    fn levels_and_selection() {
        assert_eq!(alignment_level("phones", false), Some(Level::Phone));
        assert_eq!(alignment_level("Ana - words", false), Some(Level::Word));
        assert_eq!(alignment_level("Ana", false), None);
        // praatIO's damon_set_test.TextGrid names its phone tier `phons`.
        assert_eq!(alignment_level("phons", false), Some(Level::Phone));
        assert_eq!(alignment_level("Phon", false), Some(Level::Phone));
        assert_eq!(word_tier_speaker("Ana - words"), "Ana");
        // FAVE, SPPAS and WebMAUS tiers.
        assert_eq!(word_tier_speaker("Gary Salvi - word"), "Gary Salvi");
        assert_eq!(alignment_level("Gary Salvi - phone", false), Some(Level::Phone));
        assert_eq!(alignment_level("KAN", false), Some(Level::Phone));
        // WebMAUS's own names: the Partitur tier, then the service that timed it.
        assert_eq!(alignment_level("ORT-MAU", false), Some(Level::Word));
        assert_eq!(alignment_level("KAN-MAU", false), Some(Level::Phone));
        assert_eq!(alignment_level("MAS", true), Some(Level::Phone));
        assert_eq!(alignment_level("MAS", false), None);
        assert_eq!(alignment_level("mas", true), Some(Level::Phone));
        assert!(webmaus_grid(["ORT-MAU", "MAS"]));
        assert!(webmaus_grid(["MAU", "MAS"]));
        assert!(webmaus_grid(["trn-mau"]));
        assert!(!webmaus_grid(["MAS", "JOE", "KAN", "-MAU"]));
        assert!(!webmaus_grid(["MAS", "Anne-Mau"]));
        assert!(!webmaus_grid(["MAS", "Ann Lee-Mau"]));
        assert_eq!(alignment_level("-MAU", false), None);
        assert_eq!(alignment_level("Anne-Mau", false), None);
        assert_eq!(alignment_level("PhonAlign", false), Some(Level::Phone));
        assert_eq!(alignment_level("TokensAlign", false), Some(Level::Word));
        assert_eq!(alignment_level("MetaInformation", false), Some(Level::Annotation));
        assert_eq!(word_tier_speaker("words"), "words");
        let only = TierSelection { only: vec!["a*".into()], ignore: vec![] };
        assert_eq!(only.left_out("ann", Some("phone tier")), None);
        assert!(only.left_out("bob", None).is_some());
        let ignore = TierSelection { only: vec![], ignore: vec!["noise".into()] };
        assert!(ignore.left_out("Noise", None).is_some());
        assert_eq!(ignore.left_out("x", Some("why")), Some("why".to_owned()));
    }
}

//! A cut as a front end asks for it, from the selection to the files to write: the output
//! kind ([`CutFormat`]), the sequence name, the media each track of the edit plays, the
//! exporter's text (one EDL per media when there are several), and who spoke when in the cut.
//!
//! ```text
//! selection ──► plan ──► CutList ─┬─► edit_media ──► Edit ──► export ──► otio | edl… | fcp7 | fcpxml | mlt | csv
//!                                 │                                      (wav: overtalk_audio::render)
//!                                 └─► remapped ──► who spoke when in the cut
//! ```

use std::path::{Path, PathBuf};

use super::{edl, CutList, Edit, Media, Selection};
use crate::error::{Error, Result};
use crate::model::{Annotation, Corpus, Region, Transcript};

/// What a cut is written as: an editor's cut list, or the audio itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CutFormat {
    /// OpenTimelineIO JSON (`.otio`).
    Otio,
    /// CMX3600 EDL (`.edl`).
    Edl,
    /// FCP7 XML, xmeml (`.xml`).
    Fcp7,
    /// FCPXML 1.8 (`.fcpxml`).
    Fcpxml,
    /// MLT XML (`.mlt`).
    Mlt,
    /// CSV cut list (`.csv`).
    Csv,
    /// Rendered audio, 32-bit float WAV (`.wav`).
    Wav,
}

impl CutFormat {
    /// Every value, in documentation order.
    pub const ALL: [CutFormat; 7] = [
        CutFormat::Otio,
        CutFormat::Edl,
        CutFormat::Fcp7,
        CutFormat::Fcpxml,
        CutFormat::Mlt,
        CutFormat::Csv,
        CutFormat::Wav,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            CutFormat::Otio => "otio",
            CutFormat::Edl => "edl",
            CutFormat::Fcp7 => "fcp7",
            CutFormat::Fcpxml => "fcpxml",
            CutFormat::Mlt => "mlt",
            CutFormat::Csv => "csv",
            CutFormat::Wav => "wav",
        }
    }
}

crate::named::named_enum!(CutFormat, "cut format");

impl CutFormat {
    /// The output kind an output path's extension names.
    pub fn from_path(path: &Path) -> Result<CutFormat> {
        let ext =
            path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        Ok(match ext.as_str() {
            "otio" => CutFormat::Otio,
            "edl" => CutFormat::Edl,
            "xml" => CutFormat::Fcp7,
            "fcpxml" => CutFormat::Fcpxml,
            "mlt" => CutFormat::Mlt,
            "csv" => CutFormat::Csv,
            "wav" => CutFormat::Wav,
            _ => {
                return Err(Error::invalid(format!(
                    "{}: cannot tell the output from the extension (.otio, .edl, .xml, .fcpxml, .mlt, .csv, .wav); use --format",
                    path.display()
                )))
            }
        })
    }
}

/// The selection in words (`without Host`, `Guest muted`, `events by Alice`, …).
pub fn describe_selection(selection: &Selection) -> String {
    match selection {
        Selection::Without(v) => format!("without {}", v.join(", ")),
        Selection::Only(v) => format!("only {}", v.join(", ")),
        Selection::Mute(v) => format!("{} muted", v.join(", ")),
        Selection::Events { by, .. } => match by {
            Some(b) => format!("events by {b}"),
            None => "events".to_owned(),
        },
        Selection::FollowSpeaker => "following the speaker".to_owned(),
    }
}

/// The sequence name of the cut of `label`: `label (selection in words)`.
pub fn sequence_name(label: &str, selection: &Selection) -> String {
    format!("{label} ({})", describe_selection(selection))
}

/// The speakers whose own track is dropped from a multitrack render or edit: the removed or
/// muted speakers, or for `Only` every speaker not kept.
pub fn dropped_speakers(selection: &Selection, annotation: &Annotation) -> Vec<String> {
    match selection {
        Selection::Without(v) | Selection::Mute(v) => v.clone(),
        Selection::Only(keep) => annotation
            .speakers()
            .iter()
            .map(|(_, n)| n.to_owned())
            .filter(|n| !keep.contains(n))
            .collect(),
        _ => Vec::new(),
    }
}

/// The named speakers' solo speech: where the other speakers' tracks carry only their bleed.
///
/// ```text
/// Host     [██████)    [████)
/// Guest        [████████)
/// solo(Host) [██)         [█)
/// ```
pub fn solo_speech(annotation: &Annotation, names: &[String]) -> Region {
    let mut theirs = Region::new();
    let mut others = Region::new();
    for (id, n) in annotation.speakers().iter() {
        let r = annotation.speaker_region(id);
        if names.iter().any(|x| x == n) {
            theirs = theirs.union(&r);
        } else {
            others = others.union(&r);
        }
    }
    theirs.difference(&others)
}

/// Where the edit's media comes from, as the user gave it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MediaChoice {
    /// The media path to record in the edit, overriding the others.
    pub media: Option<String>,
    /// The one recording the edit plays.
    pub audio: Option<String>,
    /// One `(speaker, path)` per speaker's own track.
    pub tracks: Vec<(String, String)>,
    /// The decoded recording's sample rate, and its channel count when it is one mixed
    /// recording (`None` for one track per speaker), when the recording was decoded.
    pub decoded: Option<(u32, Option<u32>)>,
}

/// The media each track of the edit plays: the `media` override, else the recording, else the
/// speakers' tracks less the dropped ones; with the decoded rate and channels. Only a CSV cut
/// list may name no media.
pub fn edit_media(
    source: &MediaChoice,
    selection: &Selection,
    annotation: &Annotation,
    format: CutFormat,
) -> Result<Vec<Media>> {
    let mut media: Vec<Media> = Vec::new();
    if let Some(m) = &source.media {
        media.push(Media::from_path(m));
    } else if let Some(a) = &source.audio {
        media.push(Media::from_path(a));
    } else if !source.tracks.is_empty() {
        let drop = dropped_speakers(selection, annotation);
        for (name, path) in &source.tracks {
            if !drop.contains(name) {
                media.push(Media::from_path(path));
            }
        }
    }
    if media.is_empty() && format != CutFormat::Csv {
        return Err(Error::invalid(
            "a cut list names the media it plays: give --audio FILE, --media PATH or --track NAME=FILE",
        ));
    }
    if let Some((rate, channels)) = source.decoded {
        for m in &mut media {
            m.sample_rate = rate;
            if let Some(c) = channels {
                m.channels = c;
            }
        }
    }
    Ok(media)
}

/// `--camera NAME=FILE` values as `(speaker, file)`, each speaker once.
pub fn camera_specs(values: &[String]) -> Result<Vec<(String, String)>> {
    let mut out: Vec<(String, String)> = Vec::new();
    for v in values {
        let Some((name, file)) = v.split_once('=') else {
            return Err(Error::invalid(format!("--camera {v:?}: expected NAME=FILE")));
        };
        if name.trim().is_empty() || file.is_empty() {
            return Err(Error::invalid(format!(
                "--camera {v:?}: expected NAME=FILE with a non-empty name and file"
            )));
        }
        if out.iter().any(|(n, _)| n == name) {
            return Err(Error::invalid(format!("--camera {v:?}: {name} already has a camera")));
        }
        out.push((name.to_owned(), file.to_owned()));
    }
    Ok(out)
}

/// The media and angles of a multicam cut ([`Edit::angles`]): one media per camera
/// `(speaker, file)`, at the decoded recording's sample rate when there is one, and for each
/// clip of `cut` the camera of its speaker. Errors name a camera whose speaker is not in the
/// conversation, a clip whose speaker has no camera, and a rendered output (a rendered
/// `--follow-speaker` keeps every track).
pub fn multicam(
    cameras: &[(String, String)],
    annotation: &Annotation,
    cut: &CutList,
    decoded: Option<(u32, Option<u32>)>,
    format: CutFormat,
) -> Result<(Vec<Media>, Vec<usize>)> {
    if format == CutFormat::Wav {
        return Err(Error::invalid(
            "--camera makes a cut list; a rendered --follow-speaker keeps every track",
        ));
    }
    for (n, _) in cameras {
        if annotation.speakers().get(n).is_none() {
            let known: Vec<&str> = annotation.speakers().iter().map(|(_, n)| n).collect();
            return Err(Error::invalid(format!(
                "--camera {n}=…: no speaker {n:?} (speakers: {})",
                known.join(", ")
            )));
        }
    }
    let mut media: Vec<Media> = cameras.iter().map(|(_, f)| Media::from_path(f)).collect();
    if let Some((rate, _)) = decoded {
        for m in &mut media {
            m.sample_rate = rate;
        }
    }
    let by_speaker: Vec<(String, usize)> =
        cameras.iter().enumerate().map(|(i, (n, _))| (n.clone(), i)).collect();
    Ok((media, super::angles_by_speaker(cut, &by_speaker)?))
}

/// One file of an exported cut list: its text, and for one of several EDLs (CMX3600 gives an
/// event one source and one track) the stem of the media it plays, which names the file
/// ([`sibling_path`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutListFile {
    /// `None`: the one output file; `Some(stem)`: one of several, for this media.
    pub media_stem: Option<String>,
    /// The file's contents.
    pub text: String,
}

/// The cut list of `edit` in `format` (every format but [`CutFormat::Wav`], which is audio
/// and rendered by `overtalk_audio::render`; asked for it, this gives the CSV list): one file,
/// or one EDL per media.
pub fn export(edit: &Edit<'_>, format: CutFormat, edl_style: edl::Style) -> Vec<CutListFile> {
    let one = |text: String| vec![CutListFile { media_stem: None, text }];
    match format {
        CutFormat::Edl => {
            let all = edl::write_all(edit, edl_style);
            if all.len() == 1 {
                return all
                    .into_iter()
                    .map(|(_, text)| CutListFile { media_stem: None, text })
                    .collect();
            }
            all.into_iter()
                .map(|(m, text)| {
                    let name = &edit.media[m].name;
                    let stem = name.rsplit_once('.').map_or(name.as_str(), |(s, _)| s);
                    CutListFile { media_stem: Some(stem.to_owned()), text }
                })
                .collect()
        }
        CutFormat::Otio => one(super::otio::write(edit)),
        CutFormat::Fcp7 => one(super::fcp7::write(edit)),
        CutFormat::Fcpxml => one(super::fcpxml::write(edit)),
        CutFormat::Mlt => one(super::mlt::write(edit)),
        CutFormat::Csv | CutFormat::Wav => one(super::csv::write(edit)),
    }
}

/// `out` with `.NAME` before its extension (`show.edl` → `show.Guest.edl`), the name's
/// characters other than letters, digits, `-` and `_` replaced by `_`.
pub fn sibling_path(out: &Path, name: &str) -> PathBuf {
    let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = out.extension().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let safe: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    out.with_file_name(format!("{stem}.{safe}.{ext}"))
}

/// Who spoke when in the cut, times remapped onto the cut's record positions, as a corpus of
/// one recording named `label`.
pub fn remapped_corpus(label: &str, cut: &CutList, annotation: &Annotation) -> Corpus {
    let mut corpus = Corpus::new();
    corpus.insert(label.to_owned(), Transcript::from_annotation(cut.remap(annotation)));
    corpus
}

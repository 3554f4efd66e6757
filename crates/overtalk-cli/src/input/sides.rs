//! Inputs in, recordings to score out: the reference and hypothesis files (both sides read in
//! parallel by `overtalk::score::pairing::read_sides`, taken in command-line order), hypotheses detected from recordings, the UEM files merged, and
//! the two sides paired by recording id. `score` starts here.

use anyhow::{bail, Result};
use overtalk::format::uem;
pub(crate) use overtalk::score::pairing::SideRecordings as Side;
use overtalk::score::{pairing, RecordingInput, Side as Which};

use crate::app::Globals;
use crate::input::recordings::{AudioArgs, Detected};
use crate::input::{self, ReadArgs, Source};

/// Reads both sides. Files are read in parallel and then taken in command-line order, so
/// warnings, errors and results are the same as reading them one after the other.
pub(crate) fn read_sides(
    reference: &[String],
    hypothesis: &[String],
    read: &ReadArgs,
    globals: Globals,
    all_sources: &mut Vec<Source>,
) -> Result<(Side, Side)> {
    let ref_sources = input::expand(reference)?;
    let rename = read.rename_map()?;
    // A bad hypothesis argument is reported after the reference files' errors, as when the
    // sides are read one after the other.
    let hyp_expanded = input::expand(hypothesis);
    let hyp_sources = hyp_expanded.as_ref().map(Vec::clone).unwrap_or_default();
    let (ref_outputs, hyp_outputs) =
        pairing::read_sides(&ref_sources, &hyp_sources, |s| input::read(s, read, &rename));
    let mut sides = [Side::default(), Side::default()];
    // Without hypothesis sources (a bad argument) only the reference files were read.
    let jobs = [
        (Which::Reference, &ref_sources, ref_outputs),
        (Which::Hypothesis, &hyp_sources, hyp_outputs),
    ];
    for (side, sources, outputs) in jobs {
        for (source, out) in sources.iter().zip(outputs) {
            let out = out?;
            input::require_times(source, &out, "score")?;
            input::print_warnings(source, &out, globals.quiet);
            let target = &mut sides[usize::from(side == Which::Hypothesis)];
            if let Err(id) = target.add(side, out) {
                bail!("{}: recording {id:?} appears in more than one input", source.display());
            }
        }
    }
    let hyp_sources = hyp_expanded?;
    all_sources.extend(ref_sources);
    all_sources.extend(hyp_sources);
    let [r, h] = sides;
    Ok((r, h))
}

/// Detects who spoke when in the hypothesis recordings (`-s AUDIO`, `--track`, `--channels`)
/// and adds them to the hypothesis side. A detected recording takes `--recording-id`, else the
/// reference's id when the reference holds exactly one recording and one recording is
/// detected, else its file name. Returns `id: method` for each detected recording (also
/// written to standard error unless `--quiet`: a score is only as good as what made the
/// hypothesis).
pub(crate) fn detect_hypothesis(
    audio: &AudioArgs,
    recording_id: Option<&str>,
    recordings: &[String],
    reference: &Side,
    hypothesis: &mut Side,
    sources: &mut Vec<Source>,
    globals: Globals,
) -> Result<Vec<String>> {
    let recordings: Vec<&str> = recordings.iter().map(String::as_str).collect();
    let detected = audio.detect_recordings(&recordings, globals)?;
    let single_reference = match (reference.recordings.len(), detected.len()) {
        (1, 1) => reference.recordings.keys().next().cloned(),
        _ => None,
    };
    let mut methods = Vec::new();
    for Detected { sources: srcs, corpus, provenance: method, .. } in detected {
        for (id, t) in corpus.into_recordings() {
            let id =
                recording_id.map(str::to_owned).or_else(|| single_reference.clone()).unwrap_or(id);
            if hypothesis.recordings.contains_key(&id) {
                bail!("recording {id:?} appears in more than one hypothesis input");
            }
            if !globals.quiet {
                eprintln!("overtalk: hypothesis {id:?} detected from the recording: {method}");
            }
            methods.push(format!("{id}: {method}"));
            hypothesis.recordings.insert(id, t.annotation().clone());
        }
        sources.extend(srcs);
    }
    Ok(methods)
}

/// Reads the UEM files and directories of `args` and merges them: the regions of a recording
/// named in several files are united. Reader warnings go to stderr unless `quiet`.
pub(crate) fn read_uems(args: &[String], read: &ReadArgs, quiet: bool) -> Result<uem::Uem> {
    let mut uems = uem::Uem::new();
    for s in input::expand_uem(args)? {
        let options = read.options();
        let bytes = overtalk::format::read_file(&s, &options.limits)?;
        let (u, w) = uem::read_bytes(&bytes, &options).map_err(|e| e.with_path(&s))?;
        if !quiet {
            for w in w {
                eprintln!("overtalk: warning: {}: {w}", s.display());
            }
        }
        overtalk::score::pairing::merge_uem(&mut uems, u);
    }
    Ok(uems)
}

/// The recordings of both sides paired by id, in id order, each with its zero-length turns. A
/// recording on one side only is kept (all miss or all false alarm), with a warning unless
/// `quiet`; when each side holds one recording and their ids differ, a note says how to give
/// them one id ([`different_ids_note`]).
pub(crate) fn pair(reference: Side, hypothesis: Side, quiet: bool) -> Vec<RecordingInput> {
    let note = different_ids_note(&reference, &hypothesis);
    let (pairs, one_sided) = pairing::pair_sides(reference, hypothesis);
    if !quiet {
        for o in one_sided {
            eprintln!("overtalk: warning: {o}");
        }
        if let Some(note) = note {
            eprintln!("overtalk: note: {note}");
        }
    }
    pairs
}

/// When the reference and the hypothesis each hold one recording under different ids (a
/// reference written by hand as `conv`, a hypothesis that `detect` named after its file), the
/// two are scored apart, all miss and all false alarm (a DER of 100 % or more), though they
/// are most likely the same recording: says so, with the ways to give them one id. `None`
/// otherwise.
fn different_ids_note(reference: &Side, hypothesis: &Side) -> Option<String> {
    let (1, 1) = (reference.recordings.len(), hypothesis.recordings.len()) else { return None };
    let r = reference.recordings.keys().next()?;
    let h = hypothesis.recordings.keys().next()?;
    (r != h).then(|| {
        // One word of a shell command line: an id with spaces or quotes is single-quoted.
        let safe = |c: char| c.is_ascii_alphanumeric() || "_-.+:/@".contains(c);
        let id = if !r.is_empty() && r.chars().all(safe) {
            r.clone()
        } else {
            format!("'{}'", r.replace('\'', r"'\''"))
        };
        format!(
            "the reference holds one recording, {r:?}, and the hypothesis one, {h:?}: recordings \
             are paired by id, so they were scored apart; if they are the same recording, give \
             them one id (`overtalk detect --recording-id {id}` names a detected hypothesis so; \
             `score -s AUDIO` detects it with the reference's id)"
        )
    })
}

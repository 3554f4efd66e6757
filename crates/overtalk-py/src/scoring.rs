//! Scoring one corpus against another: the options of `overtalk score` and its JSON output
//! (`overtalk::output::score::json`), and the event scoring of `overtalk score --events`
//! (`overtalk::events`), so the numbers are the command line's.
//!
//! The pairing of recordings by id (a recording on one side only is all miss or all false
//! alarm) is the command line's `input::sides::pair`; it moves here until the library offers
//! corpus-level scoring, and then this file calls that instead.

use overtalk::format::{uem, ReadOptions};
use overtalk::output::score::{json::ScoreJson, Scored};
use overtalk::output::Exporter;
use overtalk::score::{
    self, pairing, pairing::SideRecordings, DefaultRegion, JerDefinition, MappingMethod,
    RecordingInput, ScoreOptions, ScoringPreset, Side, ZeroLengthTurn,
};
use overtalk::Delta;
use pyo3::prelude::*;

use crate::corpus::Corpus;
use crate::{other, parallel, python_words, to_py, warn, OvertalkError};

fn bad(message: String) -> PyErr {
    OvertalkError::new_err(message)
}

/// The options of `overtalk score --preset P --collar C [--skip-overlap] …`.
fn options(
    preset: &str,
    collar: f64,
    skip_overlap: bool,
    mapping: Option<&str>,
    region: Option<&str>,
    jer: Option<&str>,
) -> PyResult<ScoreOptions> {
    let preset = match preset {
        "overtalk" => ScoringPreset::Overtalk,
        "md-eval" | "md_eval" => ScoringPreset::MdEval,
        "dscore" => ScoringPreset::Dscore,
        "pyannote" => ScoringPreset::Pyannote,
        "spyder" => ScoringPreset::Spyder,
        p => {
            return Err(bad(format!(
                "unknown preset {p:?} (expected overtalk, md-eval, dscore, pyannote or spyder)"
            )))
        }
    };
    let mut o = ScoreOptions::preset(preset);
    if !(collar.is_finite() && collar >= 0.0) {
        return Err(bad(format!("collar must be a non-negative number of seconds, got {collar}")));
    }
    o.collar = Delta::from_secs_f64(collar).ok_or_else(|| {
        bad(format!(
            "collar {collar:?} s is out of range: at most {} hours",
            overtalk::time::MAX_MICROS / 3_600_000_000
        ))
    })?;
    o = o.with_skip_overlap(skip_overlap);
    match mapping {
        None => {}
        Some("hungarian") => o.mapping = MappingMethod::Hungarian,
        Some("greedy") => o.mapping = MappingMethod::Greedy,
        Some(m) => return Err(bad(format!("unknown mapping {m:?} (hungarian or greedy)"))),
    }
    match region {
        None => {}
        Some("union") => o.default_region = DefaultRegion::Union,
        Some("reference") => o.default_region = DefaultRegion::Reference,
        Some(r) => return Err(bad(format!("unknown region {r:?} (union or reference)"))),
    }
    match jer {
        None => {}
        Some("frames") => o.jer = JerDefinition::Frames,
        Some("continuous") => o.jer = JerDefinition::Continuous,
        Some(j) => return Err(bad(format!("unknown JER definition {j:?} (frames or continuous)"))),
    }
    Ok(o)
}

/// The recordings of both sides paired by id, in id order, as `overtalk score` pairs them;
/// and the warnings about the recordings found on one side only (kept in the pairs).
fn pair(reference: &Corpus, hypothesis: &Corpus) -> (Vec<RecordingInput>, Vec<String>) {
    let side = |c: &Corpus, side: Side| SideRecordings {
        recordings: c.inner.iter().map(|(id, t)| (id.to_owned(), t.annotation().clone())).collect(),
        // The zero-length turns the reader dropped, for the presets that treat them.
        zero: c
            .zero_length
            .iter()
            .map(|z| {
                let turn = ZeroLengthTurn { side, speaker: z.speaker.clone(), at: z.at };
                (z.recording.clone(), turn)
            })
            .collect(),
    };
    let (pairs, one_sided) =
        pairing::pair_sides(side(reference, Side::Reference), side(hypothesis, Side::Hypothesis));
    (pairs, one_sided.iter().map(ToString::to_string).collect())
}

/// What both scorers take: the recordings paired by id and the UEM regions; an error when
/// no recording is on both sides. The warnings are those `overtalk score` prints before it
/// scores, in its order: the UEM reader's (named by `uem_source`), the recordings on one side
/// only, the recordings the UEM does not name.
fn scored_inputs(
    reference: &Corpus,
    hypothesis: &Corpus,
    uem: &UemInput<'_>,
) -> PyResult<(Vec<RecordingInput>, Option<uem::Uem>, Vec<String>)> {
    // A transcript without times scores as nothing at all: refused, as `overtalk score` does.
    for (side, c) in [("reference", reference), ("hypothesis", hypothesis)] {
        if let Some((id, t)) = c.inner.iter().find(|(_, t)| t.is_untimed()) {
            return Err(bad(format!(
                "{side}: recording {id:?} is an untimed transcript ({} utterances in order, no \
                 times); score needs times: use a file with times (captions, a transcript with \
                 start times, CHAT with media bullets, or one aligned with a forced aligner); \
                 overtalk.turn_order(conversation) gives what the order of its turns says",
                t.untimed().len()
            )));
        }
    }
    let (uems, mut warnings) = match uem {
        UemInput::None => (None, Vec::new()),
        UemInput::One(bytes, source) => {
            let (u, w) = read_uem(bytes, source)?;
            (Some(u), w)
        }
        UemInput::Files(files) => {
            let (u, w) = read_uem_files(files)?;
            (Some(u), w)
        }
    };
    let (inputs, one_sided) = pair(reference, hypothesis);
    warnings.extend(one_sided);
    if inputs.is_empty() {
        return Err(bad("no recordings in the reference or the hypothesis".into()));
    }
    if let Some(u) = &uems {
        warnings.extend(
            pairing::not_in_uem(&inputs, u)
                .into_iter()
                .map(|id| format!("recording {id:?} is not in the UEM")),
        );
    }
    Ok((inputs, uems, warnings))
}

/// The UEM regions of the bytes of a UEM file (or of UEM text), and the reader's warnings, each starting with
/// `source` as the command line starts them with the file's path.
fn read_uem(b: &[u8], source: &str) -> PyResult<(uem::Uem, Vec<String>)> {
    // A UEM file's error names the file, as the command line's does (`f.uem:1:14: uem: …`);
    // UEM text given in memory has no file to name. The file's bytes as they are, read as the
    // command line reads them: a byte-order mark names UTF-16 or UTF-32, and text that is not
    // UTF-8 is an error at its line and column.
    let (u, w) = uem::read_bytes(b, &ReadOptions::default())
        .map_err(|e| to_py(if source == "uem" { e } else { e.with_path(source) }))?;
    Ok((u, w.iter().map(|w| python_words(&format!("{source}: {w}"))).collect()))
}

/// The UEM a scorer is given: none, the bytes of one file or of UEM text (with the name its
/// warnings and errors start with), or the files of a directory (`score(uem=DIR)`, as `--uem
/// DIR` reads every `.uem` file under it), each its bytes and path.
enum UemInput<'a> {
    None,
    One(&'a [u8], &'a str),
    Files(&'a [(Vec<u8>, String)]),
}

impl<'a> UemInput<'a> {
    fn of(
        bytes: Option<&'a [u8]>,
        source: Option<&'a str>,
        files: Option<&'a [(Vec<u8>, String)]>,
    ) -> UemInput<'a> {
        match (files, bytes) {
            (Some(files), _) => UemInput::Files(files),
            (None, Some(b)) => UemInput::One(b, source.unwrap_or("uem")),
            (None, None) => UemInput::None,
        }
    }
}

/// The UEM regions of several UEM files (a directory's, in path order), merged as `overtalk
/// score --uem DIR` merges them (the regions of a recording named in several files united),
/// and each file's warnings starting with its path. None at all is an error, as the command
/// line's `DIR: no UEM file` is: the caller, which lists the directory, says so.
fn read_uem_files(files: &[(Vec<u8>, String)]) -> PyResult<(uem::Uem, Vec<String>)> {
    let mut merged = uem::Uem::new();
    let mut warnings = Vec::new();
    for (bytes, path) in files {
        let (u, w) = read_uem(bytes, path)?;
        warnings.extend(w);
        pairing::merge_uem(&mut merged, u);
    }
    Ok((merged, warnings))
}

/// Scores `hypothesis` against `reference`; returns the JSON of `overtalk score --format
/// json` (every metric, or the DER alone with `der_only`). `uem` is the bytes of a UEM file
/// (`uem_source` its name in warnings). What the command line warns about (recordings on one
/// side only or not in the UEM, the UEM's repairs, recordings a preset leaves out) is given as
/// Python warnings.
#[pyfunction]
#[pyo3(signature = (reference, hypothesis, collar=0.0, skip_overlap=false, preset="overtalk", uem=None, mapping=None, region=None, jer=None, der_only=false, uem_source=None, uem_files=None))]
#[allow(clippy::too_many_arguments)]
fn score_json(
    py: Python<'_>,
    reference: PyRef<'_, Corpus>,
    hypothesis: PyRef<'_, Corpus>,
    collar: f64,
    skip_overlap: bool,
    preset: &str,
    uem: Option<&[u8]>,
    mapping: Option<&str>,
    region: Option<&str>,
    jer: Option<&str>,
    der_only: bool,
    uem_source: Option<&str>,
    uem_files: Option<Vec<(Vec<u8>, String)>>,
) -> PyResult<String> {
    let opts = options(preset, collar, skip_overlap, mapping, region, jer)?;
    let (r, h) = (&*reference, &*hypothesis);
    let uem = UemInput::of(uem, uem_source, uem_files.as_deref());
    let (json, warnings) =
        py.detach(|| parallel::install(|| render_score(r, h, &uem, &opts, der_only))?)?;
    warn(py, warnings)?;
    Ok(json)
}

/// The score of `r` against `h` as the command line's JSON, and the command line's warnings.
fn render_score(
    r: &Corpus,
    h: &Corpus,
    uem: &UemInput<'_>,
    opts: &ScoreOptions,
    der_only: bool,
) -> PyResult<(String, Vec<String>)> {
    let (inputs, uems, mut warnings) = scored_inputs(r, h, uem)?;
    let metrics = if der_only { score::Metrics::DER_ONLY } else { score::Metrics::ALL };
    let report = score::score_with(&inputs, uems.as_ref(), opts, metrics).map_err(to_py)?;
    let mut out = Vec::new();
    ScoreJson
        .export(&Scored { report: &report, timelines: None }, &mut out)
        .map_err(|e| other("rendering the score", e))?;
    let skipped = report.skipped();
    if !skipped.is_empty() {
        warnings.push(format!(
            "{} recording(s) not scored under preset {}: {}",
            skipped.len(),
            opts.preset.name(),
            skipped.join(", ")
        ));
    }
    let json = String::from_utf8(out).map_err(|e| other("rendering the score", e))?;
    Ok((json, warnings))
}

/// Scores the dynamics of `hypothesis` against `reference`, as `overtalk score --events`:
/// both sides analysed with the default analysis parameters, speakers mapped by the DER
/// mapping (under the scoring options), onsets, interruptions, backchannels, floor transfers,
/// turns and monologues matched one to one within `tolerance` seconds. Returns the JSON of
/// `overtalk score --events --format json`; warns as [`score_json`] does.
#[pyfunction]
#[pyo3(signature = (reference, hypothesis, collar=0.0, skip_overlap=false, preset="overtalk", uem=None, mapping=None, region=None, jer=None, tolerance=0.2, uem_source=None, uem_files=None))]
#[allow(clippy::too_many_arguments)]
fn score_events_json(
    py: Python<'_>,
    reference: PyRef<'_, Corpus>,
    hypothesis: PyRef<'_, Corpus>,
    collar: f64,
    skip_overlap: bool,
    preset: &str,
    uem: Option<&[u8]>,
    mapping: Option<&str>,
    region: Option<&str>,
    jer: Option<&str>,
    tolerance: f64,
    uem_source: Option<&str>,
    uem_files: Option<Vec<(Vec<u8>, String)>>,
) -> PyResult<String> {
    use overtalk::events::{self, EventOptions};
    let opts = options(preset, collar, skip_overlap, mapping, region, jer)?;
    if !(tolerance.is_finite() && tolerance >= 0.0) {
        return Err(bad(format!(
            "tolerance must be a non-negative number of seconds, got {tolerance}"
        )));
    }
    // The command line's rounding of `--tolerance` to whole milliseconds.
    let ev =
        EventOptions { tolerance: (tolerance * 1000.0).round() as i64, ..EventOptions::default() };
    let (r, h) = (&*reference, &*hypothesis);
    let uem = UemInput::of(uem, uem_source, uem_files.as_deref());
    let (json, warnings) = py.detach(|| {
        parallel::install(|| {
            let (inputs, uems, warnings) = scored_inputs(r, h, &uem)?;
            let params = overtalk::analysis::Params::default();
            let report =
                events::score_events(&inputs, uems.as_ref(), &opts, &params, &ev).map_err(to_py)?;
            let json = serde_json::to_string_pretty(&report)
                .map_err(|e| other("rendering the event score", e))?;
            Ok::<_, PyErr>((json + "\n", warnings))
        })?
    })?;
    warn(py, warnings)?;
    Ok(json)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(score_json, m)?)?;
    m.add_function(wrap_pyfunction!(score_events_json, m)?)?;
    Ok(())
}

//! Inputs in, conversations out: the transcripts, diarizations and recordings named on the
//! command line (files, directories, globs, `-`), speech detected in the recordings, `--words`
//! captions laid on their speakers, `--speakers` names, each conversation analysed. `analyze`
//! and `report` start here.

use overtalk_audio::provenance::Provenance;
use std::path::PathBuf;

use anyhow::{bail, Result};
use overtalk::analysis::turn_order::{self, TurnOrder};
use overtalk::analysis::{self, Analysis, AnalysisWarning};
use overtalk::corpus_analysis::{self, CorpusEntry, CorpusOptions};
use overtalk::output::Conversation;
use overtalk::report::{self, ConversationView, ReportOptions};
use overtalk::Transcript;

use crate::app::Globals;
use crate::input::params::AnalysisArgs;
use crate::input::recordings::AudioArgs;
use crate::input::words::FromTracks;
use crate::input::{self, is_audio, ReadArgs};

/// One conversation read from the inputs, with its analysis.
pub(crate) struct Analyzed {
    /// The recording id, with the file name added when the id repeats across inputs.
    pub(crate) label: String,
    /// What was analysed (without words under `--timing-only`).
    pub(crate) transcript: Transcript,
    /// The result.
    pub(crate) analysis: Analysis,
    /// For a recording: how speech was detected (method and parameters).
    pub(crate) detection: Option<Provenance>,
}

impl Analyzed {
    /// The conversation as the outputs show it.
    pub(crate) fn conversation(&self) -> Conversation<'_> {
        Conversation::new(
            &self.label,
            self.detection.as_ref().map(|p| p.description.as_str()),
            &self.analysis,
        )
    }
}

/// A transcript without times, with its turn-order analysis.
pub(crate) struct UntimedAnalyzed {
    /// The recording id, with the file name added when the id repeats across inputs.
    pub(crate) label: String,
    /// The result.
    pub(crate) order: TurnOrder,
}

/// Reads every input and analyses each recording in it. Each input file is its own set of
/// conversations; a recording id met in several files (the same conversation as WebVTT and as
/// RTTM, say) is analysed once per file and labelled `id (file name)`. Results come in
/// recording-id order, whatever the order of the inputs. A transcript without times is an
/// error of `command` ([`input::require_times`]): see [`read_and_analyze_untimed_too`].
pub(crate) fn read_and_analyze(
    command: &str,
    inputs: &[String],
    read_args: &ReadArgs,
    how: &AnalysisArgs,
    audio: &AudioArgs,
    globals: Globals,
) -> Result<(Vec<input::Source>, Vec<Analyzed>)> {
    read_inputs(inputs, read_args, how, audio, globals, Err(command))
}

/// [`read_and_analyze`], with the transcripts without times given their turn-order analysis
/// ([`turn_order`]) instead of refused, in the order read.
pub(crate) fn read_and_analyze_untimed_too(
    inputs: &[String],
    read_args: &ReadArgs,
    how: &AnalysisArgs,
    audio: &AudioArgs,
    globals: Globals,
) -> Result<(Vec<input::Source>, Vec<Analyzed>, Vec<UntimedAnalyzed>)> {
    let mut untimed = Vec::new();
    let (sources, analyzed) =
        read_inputs(inputs, read_args, how, audio, globals, Ok(&mut untimed))?;
    // The same id in two files: each labelled with its file, as the timed ones are; an id that
    // also labels a timed conversation is labelled with its file too.
    let mut ids: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (label, _, _) in &untimed {
        *ids.entry(label.clone()).or_default() += 1;
    }
    let timed: std::collections::HashSet<&str> =
        analyzed.iter().map(|a| a.label.as_str()).collect();
    let untimed = untimed
        .into_iter()
        .map(|(id, file, order)| {
            let label = if ids[&id] > 1 || timed.contains(id.as_str()) {
                format!("{id} ({file})")
            } else {
                id
            };
            UntimedAnalyzed { label, order }
        })
        .collect();
    Ok((sources, analyzed, untimed))
}

/// Reads and analyses; transcripts without times go to `untimed` (id, file, analysis), or are
/// an error of the command named instead.
fn read_inputs(
    inputs: &[String],
    read_args: &ReadArgs,
    how: &AnalysisArgs,
    audio: &AudioArgs,
    globals: Globals,
    mut untimed: std::result::Result<&mut Vec<(String, String, TurnOrder)>, &str>,
) -> Result<(Vec<input::Source>, Vec<Analyzed>)> {
    let params = how.params()?;
    // Directories and globs are expanded first, so the recordings they hold are detected too.
    let expanded =
        if inputs.is_empty() { Vec::new() } else { input::expand_with_recordings(inputs)? };
    let (recordings, transcript_sources): (Vec<input::Source>, Vec<input::Source>) =
        expanded.into_iter().partition(|s| matches!(s, input::Source::File(p) if is_audio(p)));
    let recordings: Vec<PathBuf> = recordings
        .into_iter()
        .filter_map(|s| match s {
            input::Source::File(p) => Some(p),
            input::Source::Stdin => None,
        })
        .collect();
    let mut read: Vec<CorpusEntry<Option<Provenance>>> = Vec::new();
    let mut sources = Vec::new();
    // Recordings first: detection turns each into who-spoke-when.
    let rename = read_args.rename_map()?;
    how.words.check(&audio.track_names())?;
    let mut speakers = std::collections::BTreeSet::new();
    // The tracks' levels of the last detection (`--words` takes one recording).
    let mut levels = None;
    for detected in audio.detect_recordings(&recordings, globals)? {
        let file = detected.sources.first().map(input::Source::display).unwrap_or_default();
        input::note_speakers(&detected.corpus, &mut speakers);
        let corpus = input::rename_corpus(detected.corpus, &rename);
        levels = detected.levels.map(|mut l| {
            l.rename(|n| input::renamed(&rename, n));
            l
        });
        for (id, t) in corpus.into_recordings() {
            let one_per_frame = detected.provenance.one_speaker_per_frame_in(t.annotation());
            read.push(CorpusEntry {
                recording_id: id,
                file: file.clone(),
                transcript: t,
                chat_markers: None,
                one_speaker_per_frame: one_per_frame,
                speakers_not_separated: detected.provenance.voice_activity_only(),
                recording_notes: detected.notes.clone(),
                extra: Some(detected.provenance.clone()),
            });
        }
        sources.extend(detected.sources);
    }
    for source in &transcript_sources {
        let out = input::read_noting_speakers(source, read_args, &rename, &mut speakers)?;
        input::require_speech(source, &out, globals.quiet)?;
        if let Err(command) = untimed {
            input::require_times(source, &out, command)?;
        }
        input::print_warnings(source, &out, globals.quiet);
        let file = match source {
            input::Source::Stdin => "stdin".to_owned(),
            input::Source::File(p) => {
                p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
            }
        };
        // CHAT with bullets: the transcriber's markers against the timing, as read.
        let chat = out.format == Some(overtalk::format::Format::Chat);
        for (id, t) in out.corpus.into_recordings() {
            if let Ok(untimed) = untimed.as_deref_mut() {
                if let Some(order) = turn_order::analyze(&t, &params) {
                    untimed.push((id, file.clone(), order));
                    continue;
                }
            }
            let chat_markers = if chat { analysis::markers::compare(&t) } else { None };
            read.push(CorpusEntry {
                recording_id: id,
                file: file.clone(),
                transcript: t,
                chat_markers,
                one_speaker_per_frame: false,
                speakers_not_separated: false,
                recording_notes: Vec::new(),
                extra: None,
            });
        }
    }
    sources.extend(transcript_sources);
    input::warn_if_no_name_matches(
        read_args.speakers.as_deref(),
        &rename,
        &speakers,
        globals.quiet,
    );
    if how.words.given() {
        if read.len() != 1 {
            let flag = if how.words.words.is_some() { "--words" } else { "--track-words" };
            bail!(
                "{flag} lays the words of one recording on its speakers; the inputs hold {} recordings",
                read.len()
            );
        }
        let entry = &mut read[0];
        let (id, t) = (&entry.recording_id, &entry.transcript);
        // The levels belong to the entry only when it is the detection.
        let levels = levels.as_ref().filter(|_| entry.extra.is_some());
        let options = read_args.options();
        let offsets = audio.offsets()?;
        if let Some(laid) = how.words.lay_on(
            t,
            id,
            &options,
            globals.quiet,
            FromTracks { levels, offsets: &offsets },
            &rename,
        )? {
            entry.transcript = laid.transcript;
            if let Some(provenance) = &mut entry.extra {
                provenance.description.push_str(&laid.note);
            }
        }
    }
    let options = CorpusOptions { params: &params, timing_only: how.timing_only };
    let results = corpus_analysis::analyze_entries(read, &options, &mut |a| {
        if !globals.quiet {
            // The recording's own notes were printed when it was detected.
            let fresh = a.analysis.diagnostics.warnings.iter();
            for w in fresh.filter(|w| !matches!(w, AnalysisWarning::Recording(_))) {
                eprintln!("overtalk: warning: {}: {w}", a.label);
            }
        }
    })?
    .into_iter()
    .map(|a| Analyzed {
        label: a.label,
        transcript: a.transcript,
        analysis: a.analysis,
        detection: a.extra,
    })
    .collect();
    Ok((sources, results))
}

/// The HTML page of analysed conversations.
pub(crate) fn html(analyzed: &[Analyzed], options: &ReportOptions) -> Result<String> {
    let views: Vec<ConversationView<'_>> = analyzed
        .iter()
        .map(|a| ConversationView {
            recording: &a.label,
            analysis: &a.analysis,
            transcript: Some(&a.transcript),
        })
        .collect();
    Ok(report::conversation_report(&views, options)?)
}

/// One line per detected recording, `label: method`, for the report's record of its inputs.
pub(crate) fn detections(analyzed: &[Analyzed]) -> Vec<String> {
    let mut lines: Vec<String> = analyzed
        .iter()
        .filter_map(|a| a.detection.as_ref().map(|m| format!("{}: {m}", a.label)))
        .collect();
    if analyzed.iter().any(|a| a.detection.as_ref().is_some_and(Provenance::is_ge2e)) {
        lines.push(DIARIZED_ACCURACY.to_owned());
    }
    lines
}

/// The accuracy note of a report whose speakers a diarizer detected in a mixed track: the
/// method, and the DER range measured on the real recordings of docs/diarization.md.
pub(crate) const DIARIZED_ACCURACY: &str = "accuracy: these speakers were detected by machine \
     (GE2E diarization of one mixed track, method above); on the real recordings of \
     docs/diarization.md its DER is 12–138 % per file at a collar of 0.25 s (17–19 % pooled; \
     `bash bench/diar_bench.sh real`), so who spoke when is an \
     estimate";

#[cfg(test)]
mod tests {
    use overtalk::{Segment, TranscriptBuilder};
    use overtalk_audio::provenance::Method;

    use super::*;

    #[test]
    fn a_second_speaker_found_nowhere_leaves_one_speaker_per_frame() {
        // The methods as the diarizer writes them.
        struct Stub;
        impl overtalk_audio::diarize::WindowEmbedder for Stub {
            fn name(&self) -> String {
                "stub".into()
            }
            fn front_end(&self) -> Box<dyn overtalk_audio::diarize::FrontEnd> {
                Box::new(overtalk_audio::diarize::embed::MelStream::new())
            }
            fn window_frames(&self) -> usize {
                160
            }
            fn embed(&self, w: &[&[f32]]) -> overtalk::Result<Vec<Vec<f32>>> {
                Ok(vec![vec![1.0]; w.len()])
            }
        }
        use overtalk_audio::diarize::{DiarizeOptions, Diarizer, Ge2eDiarizer};
        // The provenance as the diarizer records it (a silent second: no speech, same kind).
        let method = |overlap_margin| {
            let o = DiarizeOptions { overlap_margin, ..DiarizeOptions::default() };
            Ge2eDiarizer::with_embedder(Box::new(Stub), o)
                .diarize(&[0.0; 16_000])
                .unwrap()
                .provenance()
        };
        let (off, on) = (method(None), method(Some(0.05)));
        let ms = |a, z| Segment::from_millis(a, z).unwrap();
        let mut apart = TranscriptBuilder::new();
        apart.add(ms(0, 1000), "SPK00", None).add(ms(1000, 2000), "SPK01", None);
        let apart = apart.build();
        let mut over = TranscriptBuilder::new();
        over.add(ms(0, 1000), "SPK00", None).add(ms(900, 2000), "SPK01", None);
        let over = over.build();
        assert!(off.one_speaker_per_frame_in(apart.annotation()));
        assert!(off.one_speaker_per_frame_in(over.annotation()));
        assert!(on.one_speaker_per_frame_in(apart.annotation()), "the margin found no overlap");
        assert!(!on.one_speaker_per_frame_in(over.annotation()));
        let tracks = Provenance::new(Method::Tracks { count: 2 }, "2 tracks");
        assert!(!tracks.one_speaker_per_frame_in(apart.annotation()));
    }
}

//! The orchestration the front ends share: a corpus run's order and labels, pairing the sides
//! of a comparison, UEM merging, and the output kind and file names of a cut.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::Path;

use overtalk::analysis::Params;
use overtalk::corpus_analysis::{analyze_entries, CorpusEntry, CorpusOptions};
use overtalk::cut::request::{self, CutFormat};
use overtalk::cut::Selection;
use overtalk::score::pairing::{merge_uem, pair_sides, SideRecordings};
use overtalk::{Annotation, AnnotationBuilder, Region, Segment, Time, Transcript};

fn seg(a: i64, b: i64) -> Segment {
    Segment::new(Time::from_micros(a * 1000), Time::from_micros(b * 1000)).unwrap()
}

fn ann(tracks: &[(i64, i64, &str)]) -> Annotation {
    let mut b = AnnotationBuilder::new();
    for &(s, e, who) in tracks {
        b.add(seg(s, e), who);
    }
    b.build()
}

fn entry(id: &str, file: &str) -> CorpusEntry<usize> {
    CorpusEntry {
        recording_id: id.to_owned(),
        file: file.to_owned(),
        transcript: Transcript::from_annotation(ann(&[(0, 1000, "A"), (800, 2000, "B")])),
        chat_markers: None,
        one_speaker_per_frame: id == "diarized",
        speakers_not_separated: false,
        recording_notes: Vec::new(),
        extra: file.len(),
    }
}

#[test]
fn a_corpus_run_sorts_by_id_then_file_and_labels_repeated_ids() {
    let params = Params::default();
    let options = CorpusOptions { params: &params, timing_only: false };
    let entries = vec![entry("b", "b.rttm"), entry("a", "x.rttm"), entry("a", "a.vtt")];
    let mut heard = Vec::new();
    let out = analyze_entries(entries, &options, &mut |a| heard.push(a.label.clone())).unwrap();
    let labels: Vec<&str> = out.iter().map(|a| a.label.as_str()).collect();
    assert_eq!(labels, ["a (a.vtt)", "a (x.rttm)", "b"]);
    assert_eq!(heard, labels);
    assert_eq!(out.iter().map(|a| a.extra).collect::<Vec<_>>(), [5, 6, 6]);
}

#[test]
fn one_speaker_per_frame_makes_overlap_not_measurable() {
    let params = Params::default();
    let options = CorpusOptions { params: &params, timing_only: false };
    let out = analyze_entries(vec![entry("diarized", "d.wav")], &options, &mut |_| {}).unwrap();
    assert_eq!(
        out[0].analysis.diagnostics.warnings[0],
        overtalk::analysis::AnalysisWarning::OverlapNotMeasurable
    );
    assert_eq!(
        out[0].analysis.diagnostics.warnings[0].to_string(),
        overtalk::output::OVERLAP_NOT_MEASURABLE
    );
    assert_eq!(out[0].analysis.overlap_unmeasurable(), Some("one speaker per frame"));
    // What needs overlap is unknown (null), not zero; interruptions in pauses stay counted.
    let a = &out[0].analysis;
    let k = &a.conversation.counts.events;
    assert_eq!(
        (a.conversation.overlap, k.talk_over_events, k.terminal_overlaps, k.simultaneous_starts),
        (None, None, None, None)
    );
    assert!(k.interruptions.is_some());
    assert!(a.pairs.iter().all(|p| p.talk_over_events.is_none()));
    // The overlap intervals, the changes without a gap (where hidden overlaps land) and the
    // statistics their absence would bias: unknown too; the gaps and pauses are measured.
    use overtalk::analysis::intervals::{HeKind, Layer};
    let c = &a.conversation;
    assert_eq!((c.overlap_between_share, c.ngno_share, c.between_median), (None, None, None));
    for layer in [Layer::Acoustic, Layer::Floor] {
        for kind in HeKind::ALL {
            let (n, stats) = (c.he_counts[&layer][&kind], &c.he_durations[&layer][&kind]);
            let unknown = kind.is_overlap_dependent();
            assert_eq!(n.is_none(), unknown, "{layer:?} {kind:?}");
            assert_eq!(stats.is_none(), unknown, "{layer:?} {kind:?}");
        }
    }
    // Per speaker: the solo time (it would equal the talk), the offsets of the transfers into
    // the speaker (none could be negative) and the backchannels in overlap; the talk is
    // measured.
    for s in a.speakers.values() {
        assert_eq!(
            (s.solo, s.median_fto_in, s.fto_in_iqr, s.fto_in_negative_share),
            (None, None, None, None)
        );
        assert_eq!((s.question_fto_median, s.bc_in_overlap_share), (None, None));
        assert!(s.talk.get() > 0);
    }
    // One speaker found by such a method: the same (it may be two voices merged).
    let mut solo = entry("diarized", "solo.wav");
    solo.transcript = Transcript::from_annotation(ann(&[(0, 1000, "A"), (1500, 2000, "A")]));
    let out = analyze_entries(vec![solo], &options, &mut |_| {}).unwrap();
    assert_eq!(out[0].analysis.speakers.len(), 1);
    assert_eq!(
        out[0].analysis.diagnostics.warnings[0],
        overtalk::analysis::AnalysisWarning::OverlapNotMeasurable
    );
    let out = analyze_entries(vec![entry("tracks", "t.wav")], &options, &mut |_| {}).unwrap();
    assert_eq!(out[0].analysis.overlap_unmeasurable(), None);
    assert!(!out[0]
        .analysis
        .diagnostics
        .warnings
        .iter()
        .any(|w| w == overtalk::output::OVERLAP_NOT_MEASURABLE));
}

#[test]
fn pairing_keeps_one_sided_recordings_and_names_them() {
    let side = |ids: &[&str]| SideRecordings {
        recordings: ids.iter().map(|id| ((*id).to_owned(), ann(&[(0, 500, "A")]))).collect(),
        zero: Vec::new(),
    };
    let (pairs, one_sided) = pair_sides(side(&["c", "a", "b"]), side(&["a", "d", "b"]));
    let ids: Vec<&str> = pairs.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["a", "b", "c", "d"]);
    assert!(pairs[2].hypothesis.is_none() && pairs[3].reference.is_none());
    let lines: Vec<String> = one_sided.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "recording \"c\" is only in the reference: all of its speech is missed",
            "recording \"d\" is only in the hypothesis: all of its speech is false alarm \
             (md-eval and dscore ignore it)",
        ]
    );
}

#[test]
fn uem_regions_of_one_recording_are_united() {
    let mut into = BTreeMap::new();
    merge_uem(
        &mut into,
        [("r".to_owned(), Region::from_segments([seg(0, 500), seg(900, 1000)]))].into(),
    );
    merge_uem(
        &mut into,
        [
            ("r".to_owned(), Region::from_segments([seg(300, 700)])),
            ("s".to_owned(), Region::from_segments([seg(0, 1)])),
        ]
        .into(),
    );
    assert_eq!(into["r"], Region::from_segments([seg(0, 700), seg(900, 1000)]));
    assert_eq!(into.len(), 2);
}

#[test]
fn a_cut_is_named_and_written_by_its_extension() {
    assert_eq!(CutFormat::from_path(Path::new("a/show.FCPXML")).unwrap(), CutFormat::Fcpxml);
    assert_eq!(CutFormat::from_path(Path::new("x.xml")).unwrap(), CutFormat::Fcp7);
    let e = CutFormat::from_path(Path::new("x.mp3")).unwrap_err().to_string();
    assert!(e.starts_with("x.mp3: cannot tell the output from the extension"), "{e}");
    assert_eq!(
        request::sibling_path(Path::new("out/show.edl"), "Guest 2/b"),
        Path::new("out/show.Guest_2_b.edl")
    );
    let s = Selection::Mute(vec!["Host".into(), "Guest".into()]);
    assert_eq!(request::sequence_name("ep1", &s), "ep1 (Host, Guest muted)");
    let a = ann(&[(0, 1000, "Host"), (500, 1500, "Guest"), (2000, 2500, "Third")]);
    assert_eq!(
        request::dropped_speakers(&Selection::Only(vec!["Guest".into()]), &a),
        ["Host", "Third"]
    );
    assert_eq!(
        request::solo_speech(&a, &["Host".to_owned()]),
        Region::from_segments([seg(0, 500)])
    );
}

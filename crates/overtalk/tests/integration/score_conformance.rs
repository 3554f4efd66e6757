//! Conformance of `overtalk::score` with md-eval-22, dscore, pyannote.metrics and spyder:
//! every fixture row of `computed_results.tsv`, every published number of the fixture README,
//! and the published VBx scores on AMI.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use overtalk::format::{self, Format, ReadOptions};
use overtalk::score::{
    score, RecordingInput, ScoreOptions, ScoreReport, ScoredRegions, ScoringPreset, Side,
    ZeroLengthTurn,
};
use overtalk::time::parse_seconds;
use overtalk::{Annotation, Delta, Region};

fn fixtures() -> PathBuf {
    overtalk_testkit::fixtures().join("scoring-fixtures")
}

fn read_rttm(path: &Path) -> (BTreeMap<String, Annotation>, Vec<(String, ZeroLengthTurn)>) {
    let out = format::read_path(path, Some(Format::Rttm), &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let map = out
        .corpus
        .into_recordings()
        .into_iter()
        .map(|(k, t)| (k, t.annotation().clone()))
        .collect();
    // Zero-length turns, which the model cannot hold, straight from the lines.
    let text = std::fs::read_to_string(path).unwrap();
    let zero = text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() >= 9 && f[0] == "SPEAKER" && parse_seconds(f[4]).ok()?.micros() == 0).then(
                || {
                    let at = parse_seconds(f[3]).unwrap();
                    (
                        f[1].to_owned(),
                        ZeroLengthTurn { side: Side::Reference, speaker: f[7].to_owned(), at },
                    )
                },
            )
        })
        .collect();
    (map, zero)
}

fn read_uem(path: &Path) -> BTreeMap<String, Region> {
    let bytes = std::fs::read(path).unwrap();
    format::uem::read_bytes(&bytes, &ReadOptions::default()).unwrap().0
}

/// Inputs for a reference file and a hypothesis file, recordings matched by id.
fn inputs(reference: &Path, hypothesis: &Path) -> Vec<RecordingInput> {
    let (r, rz) = read_rttm(reference);
    let (h, hz) = read_rttm(hypothesis);
    let mut ids: Vec<String> = r.keys().chain(h.keys()).cloned().collect();
    ids.sort();
    ids.dedup();
    ids.into_iter()
        .map(|id| {
            let mut zero: Vec<ZeroLengthTurn> =
                rz.iter().filter(|(k, _)| *k == id).map(|(_, z)| z.clone()).collect();
            zero.extend(
                hz.iter()
                    .filter(|(k, _)| *k == id)
                    .map(|(_, z)| ZeroLengthTurn { side: Side::Hypothesis, ..z.clone() }),
            );
            RecordingInput {
                id: id.clone(),
                reference: r.get(&id).cloned(),
                hypothesis: h.get(&id).cloned(),
                zero_length: zero,
            }
        })
        .collect()
}

/// (reference, hypothesis, UEM) of a fixture case named in `computed_results.tsv`.
fn case_files(case: &str) -> (PathBuf, PathBuf, Option<PathBuf>) {
    let f = fixtures();
    let p = |a: &str| f.join(a);
    match case {
        "dscore-tests(no uem)" => (p("dscore-tests/ref.rttm"), p("dscore-tests/sys.rttm"), None),
        "spyder-tests(ref.uem)" => (
            p("spyder-tests/ref.rttm"),
            p("spyder-tests/hyp.rttm"),
            Some(p("spyder-tests/ref.uem")),
        ),
        "vbx-example-ES2005a" => {
            (p("vbx-example/ES2005a.ref.rttm"), p("vbx-example/ES2005a.sys.rttm"), None)
        }
        "pyannote-tests-file1" => {
            (p("pyannote-tests/reference.rttm"), p("pyannote-tests/hypothesis.rttm"), None)
        }
        "pyannote-tests-file1-overlap" => (
            p("pyannote-tests/reference_with_overlap.rttm"),
            p("pyannote-tests/hypothesis.rttm"),
            None,
        ),
        "pyannote-tests-bug16" => (
            p("pyannote-tests/bug16_reference.rttm"),
            p("pyannote-tests/bug16_hypothesis.rttm"),
            None,
        ),
        "pyannote-docs-file2" => (
            p("pyannote-tests/docs_file2_reference.rttm"),
            p("pyannote-tests/docs_file2_hypothesis.rttm"),
            None,
        ),
        "pyannote-docs-file1-uem" => (
            p("pyannote-tests/reference.rttm"),
            p("pyannote-tests/hypothesis.rttm"),
            Some(p("pyannote-tests/docs_uem_file1.uem")),
        ),
        "spyder-readme-uttr0" => {
            (p("spyder-readme/uttr0_ref.rttm"), p("spyder-readme/uttr0_hyp.rttm"), None)
        }
        "spyder-readme-uttr0-uem" => (
            p("spyder-readme/uttr0_ref.rttm"),
            p("spyder-readme/uttr0_hyp.rttm"),
            Some(p("spyder-readme/uttr0_uem_0.5_5.0.uem")),
        ),
        "spyder-readme-uttr2" => {
            (p("spyder-readme/uttr2_ref.rttm"), p("spyder-readme/uttr2_hyp.rttm"), None)
        }
        "meeteval-S1" => (
            p("meeteval-doctests/S1_ref.rttm"),
            p("meeteval-doctests/S1_hyp.rttm"),
            Some(p("meeteval-doctests/S1.uem")),
        ),
        "meeteval-rec" => {
            (p("meeteval-doctests/rec_ref.rttm"), p("meeteval-doctests/rec_hyp.rttm"), None)
        }
        "meeteval-rec.a-uem" => (
            p("meeteval-doctests/rec.a_ref.rttm"),
            p("meeteval-doctests/rec.a_hyp.rttm"),
            Some(p("meeteval-doctests/rec.a.uem")),
        ),
        e if e.starts_with('E') => {
            let d = f.join("edge-cases").join(e);
            let uem = d.join("f1.uem");
            (d.join("ref.rttm"), d.join("hyp.rttm"), uem.exists().then_some(uem))
        }
        other => panic!("unknown fixture case {other:?}"),
    }
}

fn run(
    reference: &Path,
    hypothesis: &Path,
    uem: Option<&Path>,
    opts: &ScoreOptions,
) -> overtalk::Result<ScoreReport> {
    let uem = uem.map(read_uem);
    score(&inputs(reference, hypothesis), uem.as_ref(), opts)
}

fn preset_of(tool: &str) -> ScoringPreset {
    if tool.starts_with("md-eval") {
        ScoringPreset::MdEval
    } else if tool.starts_with("dscore") {
        ScoringPreset::Dscore
    } else if tool.starts_with("pyannote") {
        ScoringPreset::Pyannote
    } else if tool.starts_with("spyder") {
        ScoringPreset::Spyder
    } else {
        panic!("unknown tool {tool:?}")
    }
}

fn options_of(preset: ScoringPreset, protocol: &str) -> ScoreOptions {
    let o = ScoreOptions::preset(preset);
    match protocol {
        "collar0" => o,
        "collar0.25" => o.with_collar(Delta::from_millis(250)),
        "collar0.25+no-overlap" => o.with_collar(Delta::from_millis(250)).with_skip_overlap(true),
        other => panic!("unknown protocol {other:?}"),
    }
}

fn field(result: &str, name: &str) -> Option<f64> {
    result.split_whitespace().find_map(|kv| {
        let v = kv.strip_prefix(name)?.strip_prefix('=')?;
        v.trim_end_matches('%').parse().ok()
    })
}

fn secs(d: Delta) -> f64 {
    d.micros() as f64 / 1e6
}

#[test]
fn every_fixture_row_matches_its_tool() {
    let tsv = std::fs::read_to_string(fixtures().join("computed_results.tsv")).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in tsv.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (case, protocol, tool, result) = (cols[0], cols[1], cols[2], cols[3]);
        let (r, h, u) = case_files(case);
        let opts = options_of(preset_of(tool), protocol);
        let got = run(&r, &h, u.as_deref(), &opts);
        let expected_der = field(result, "DER");
        match (expected_der, got) {
            (None, Ok(report)) => {
                // The tool crashed or printed nothing: our answer must be "undefined".
                if report.der().is_some() {
                    failures
                        .push(format!("{line}\n   got DER {:?}, expected undefined", report.der()));
                }
            }
            (None, Err(_)) => {}
            (Some(_), Err(e)) => failures.push(format!("{line}\n   got error {e}")),
            (Some(der), Ok(report)) => {
                let mut bad = Vec::new();
                let ours = report.der().map(|d| d * 100.0);
                if ours.is_none_or(|o| (o - der).abs() > 1e-4) {
                    bad.push(format!("DER {ours:?} vs {der}"));
                }
                let t = &report.total;
                for (name, value) in [
                    ("scored", t.scored),
                    ("miss", t.miss),
                    ("fa", t.false_alarm),
                    ("conf", t.confusion),
                ] {
                    if let Some(exp) = field(result, name) {
                        if (secs(value) - exp).abs() > 0.0005 {
                            bad.push(format!("{name} {} vs {exp}", secs(value)));
                        }
                    }
                }
                if let Some(jer) = field(result, "JER") {
                    let ours = report.jer.map(|j| j * 100.0);
                    if ours.is_none_or(|o| (o - jer).abs() > 1e-4) {
                        bad.push(format!("JER {ours:?} vs {jer}"));
                    }
                }
                if !bad.is_empty() {
                    failures.push(format!("{line}\n   {}", bad.join("; ")));
                }
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 336);
    assert!(
        failures.is_empty(),
        "{} of {checked} rows differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn pct(x: Option<f64>) -> f64 {
    x.expect("defined") * 100.0
}

fn close(got: f64, expected: f64, tol: f64) {
    assert!((got - expected).abs() <= tol, "got {got}, expected {expected} (± {tol})");
}

fn uem_of(id: &str, start_ms: i64, end_ms: i64) -> BTreeMap<String, Region> {
    let seg = overtalk::Segment::from_millis(start_ms, end_ms).unwrap();
    [(id.to_owned(), Region::from_segment(seg))].into_iter().collect()
}

#[test]
fn published_dscore_test_values() {
    // nryant/dscore scorelib/tests: DER 26.39309 and JER 33.24631 with UEM FILE1 0–43.
    let f = fixtures().join("dscore-tests");
    let ins = inputs(&f.join("ref.rttm"), &f.join("sys.rttm"));
    let uem = uem_of("FILE1", 0, 43_000);
    let r = score(&ins, Some(&uem), &ScoreOptions::preset(ScoringPreset::Dscore)).unwrap();
    close(pct(r.der()), 26.39309, 5e-6);
    close(pct(r.jer), 33.24631, 5e-6);
    // Clustering metrics (dscore tests compare at 3 decimals; 5 here).
    let c = r.cluster.unwrap();
    for (got, want) in [
        (c.bcubed_precision, 0.71880),
        (c.bcubed_recall, 0.72958),
        (c.bcubed_f1, 0.72415),
        (c.tau_ref_sys, 0.60075),
        (c.tau_sys_ref, 0.58534),
        (c.h_ref_given_sys, 0.80471),
        (c.h_sys_given_ref, 0.72543),
        (c.mutual_information, 0.96810),
        (c.normalized_mutual_information, 0.55872),
    ] {
        close(got, want, 5e-6);
    }
    // der() without a UEM: 26.3931; the CLI then prints JER 33.23 and B3 0.71/0.72/0.71
    // (its automatic UEM ends at 41.046 s).
    let r = score(&ins, None, &ScoreOptions::preset(ScoringPreset::Dscore)).unwrap();
    close(pct(r.der()), 26.3931, 5e-5);
    assert_eq!(format!("{:.2}", pct(r.jer)), "33.23");
    let c = r.cluster.unwrap();
    let b3 = format!("{:.2}/{:.2}/{:.2}", c.bcubed_precision, c.bcubed_recall, c.bcubed_f1);
    assert_eq!(b3, "0.71/0.72/0.71");
    // test_load.uem: FILE1 [(0, 15), (25, 30.4)], FILE2 [(4.5, 13.24)].
    let u = read_uem(&f.join("test_load.uem"));
    let ms = |id: &str| -> Vec<(i64, i64)> {
        u[id].iter().map(|s| (s.start().micros() / 1000, s.end().micros() / 1000)).collect()
    };
    assert_eq!(ms("FILE1"), vec![(0, 15_000), (25_000, 30_400)]);
    assert_eq!(ms("FILE2"), vec![(4_500, 13_240)]);
}

#[test]
fn published_spyder_test_values() {
    // desh2608/spyder test/test_der.py (relative tolerance 1e-2 there; 5e-5 here).
    let f = fixtures().join("spyder-tests");
    let ins = inputs(&f.join("ref.rttm"), &f.join("hyp.rttm"));
    let sp = ScoreOptions::preset(ScoringPreset::Spyder);
    let with = |regions, collar_ms| ScoreOptions {
        regions,
        collar: Delta::from_millis(collar_ms),
        ..sp.clone()
    };
    for (regions, collar, expected) in [
        (ScoredRegions::All, 0, 0.2639),
        (ScoredRegions::Single, 0, 0.1907),
        (ScoredRegions::Overlap, 0, 0.3727),
        (ScoredRegions::All, 200, 0.2426),
        (ScoredRegions::Single, 200, 0.1935),
    ] {
        let r = score(&ins, None, &with(regions, collar)).unwrap();
        close(r.der().unwrap(), expected, 5e-5);
    }
    let r = score(&ins, Some(&read_uem(&f.join("ref.uem"))), &sp).unwrap();
    close(secs(r.total.scored), 13.79, 0.005);
    close(r.der().unwrap(), 0.0967, 5e-5);
}

#[test]
fn published_vbx_example_values() {
    // VBx README: dscore --collar 0.25 --ignore_overlaps → DER 7.06, JER 29.99.
    let f = fixtures().join("vbx-example");
    let ins = inputs(&f.join("ES2005a.ref.rttm"), &f.join("ES2005a.sys.rttm"));
    let o = ScoreOptions::preset(ScoringPreset::Dscore)
        .with_collar(Delta::from_millis(250))
        .with_skip_overlap(true);
    let r = score(&ins, None, &o).unwrap();
    assert_eq!(format!("{:.2}", pct(r.der())), "7.06");
    assert_eq!(format!("{:.2}", pct(r.jer)), "29.99");
    let c = r.cluster.unwrap();
    let got: Vec<String> = [
        c.bcubed_precision,
        c.bcubed_recall,
        c.bcubed_f1,
        c.tau_ref_sys,
        c.tau_sys_ref,
        c.h_ref_given_sys,
        c.h_sys_given_ref,
        c.mutual_information,
        c.normalized_mutual_information,
    ]
    .iter()
    .map(|x| format!("{x:.2}"))
    .collect();
    assert_eq!(got, ["0.65", "0.78", "0.71", "0.71", "0.56", "1.14", "0.59", "1.72", "0.67"]);
}

#[test]
fn published_pyannote_test_values() {
    let f = fixtures().join("pyannote-tests");
    let py = ScoreOptions::preset(ScoringPreset::Pyannote);
    let ins = inputs(&f.join("reference.rttm"), &f.join("hypothesis.rttm"));
    let r = score(&ins, None, &py).unwrap();
    assert_eq!(r.der(), Some(0.5161290322580645));
    let t = r.total;
    let s = Delta::from_secs;
    assert_eq!(
        (t.scored, t.correct, t.confusion, t.false_alarm, t.miss),
        (s(31), s(22), s(7), s(7), s(2))
    );
    let mut mapping = r.files[0].mapping.clone();
    mapping.sort();
    let pairs: Vec<(&str, &str)> = mapping.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(pairs, vec![("A", "a"), ("B", "b"), ("C", "c")]);
    // Purity 0.6666, coverage 0.7096 (truncated in the published test).
    assert_eq!(format!("{:.4}", r.purity), "0.6667");
    assert_eq!(format!("{:.4}", r.coverage), "0.7097");
    // Overlapping reference: total 32 with skip_overlap, 34 without.
    let ins = inputs(&f.join("reference_with_overlap.rttm"), &f.join("hypothesis.rttm"));
    let r = score(&ins, None, &py.clone().with_skip_overlap(true)).unwrap();
    assert_eq!(r.total.scored, s(32));
    let r = score(&ins, None, &py).unwrap();
    assert_eq!(r.total.scored, s(34));
    // Bug 16: pyannote collar=1 (total width) = 0.5 s per side → total 9; collar 0 → 10.
    let ins = inputs(&f.join("bug16_reference.rttm"), &f.join("bug16_hypothesis.rttm"));
    let r = score(&ins, None, &py.clone().with_collar(Delta::from_millis(500))).unwrap();
    assert_eq!(r.total.scored, s(9));
    let r = score(&ins, None, &py).unwrap();
    assert_eq!(r.total.scored, s(10));
}

/// miss, FA, confusion and DER in percent at two decimals, and scored seconds.
fn spyder_line(r: &ScoreReport) -> (String, String) {
    let t = &r.total;
    let p = |d: Delta| format!("{:.2}", 100.0 * secs(d) / secs(t.scored));
    (
        format!("{:.2}", secs(t.scored)),
        format!("{}/{}/{}/{:.2}", p(t.miss), p(t.false_alarm), p(t.confusion), pct(r.der())),
    )
}

#[test]
fn published_spyder_readme_values() {
    let f = fixtures().join("spyder-readme");
    let sp = ScoreOptions::preset(ScoringPreset::Spyder);
    let uttr0 = inputs(&f.join("uttr0_ref.rttm"), &f.join("uttr0_hyp.rttm"));
    let r = score(&uttr0, None, &sp).unwrap();
    assert_eq!(spyder_line(&r), ("5.10".into(), "9.80/21.57/25.49/56.86".into()));
    let mut mapping = r.files[0].mapping.clone();
    mapping.sort();
    assert_eq!(mapping, vec![("A".to_owned(), "1".to_owned()), ("B".to_owned(), "3".to_owned())]);
    // The README's `regions="single"` predates spyder's split of "single" (exactly one
    // reference speaker) and "nonoverlap" (at most one): its numbers are today's "nonoverlap".
    let single = ScoreOptions { regions: ScoredRegions::NonOverlap, ..sp.clone() };
    let r = score(&uttr0, None, &single).unwrap();
    assert_eq!(spyder_line(&r), ("4.10".into(), "0.00/26.83/19.51/46.34".into()));
    let uem = read_uem(&f.join("uttr0_uem_0.5_5.0.uem"));
    let r = score(&uttr0, Some(&uem), &sp).unwrap();
    assert_eq!(spyder_line(&r), ("4.50".into(), "11.11/22.22/26.67/60.00".into()));
    let r = score(&uttr0, None, &sp.clone().with_collar(Delta::from_millis(200))).unwrap();
    assert_eq!(spyder_line(&r), ("3.10".into(), "3.23/12.90/19.35/35.48".into()));
    // uttr0 + uttr2 together.
    let mut both = uttr0.clone();
    both.extend(inputs(&f.join("uttr2_ref.rttm"), &f.join("uttr2_hyp.rttm")));
    let r = score(&both, None, &sp).unwrap();
    assert_eq!(spyder_line(&r), ("18.00".into(), "17.22/8.33/7.22/32.78".into()));
    let uttr2 = &r.files[1];
    assert_eq!(uttr2.id, "uttr2");
    let one = ScoreReport { files: vec![uttr2.clone()], total: uttr2.der, ..r.clone() };
    assert_eq!(spyder_line(&one), ("12.90".into(), "20.16/3.10/0.00/23.26".into()));
}

#[test]
fn published_meeteval_values() {
    let f = fixtures().join("meeteval-doctests");
    let s1 = inputs(&f.join("S1_ref.rttm"), &f.join("S1_hyp.rttm"));
    let uem = read_uem(&f.join("S1.uem"));
    for p in [ScoringPreset::Overtalk, ScoringPreset::Dscore, ScoringPreset::MdEval] {
        close(
            score(&s1, Some(&uem), &ScoreOptions::preset(p)).unwrap().der().unwrap(),
            1.0 / 3.0,
            1e-12,
        );
    }
    let rec = inputs(&f.join("rec_ref.rttm"), &f.join("rec_hyp.rttm"));
    let der = |p| score(&rec, None, &ScoreOptions::preset(p)).unwrap().der().unwrap();
    close(der(ScoringPreset::Dscore), 1.0 / 3.0, 1e-12);
    close(der(ScoringPreset::Overtalk), 1.0 / 3.0, 1e-12);
    assert_eq!(der(ScoringPreset::MdEval), 0.0);
    // rec.a with its UEM: 0.50 when the dotted id is honoured; md-eval drops the UEM line.
    let reca = inputs(&f.join("rec.a_ref.rttm"), &f.join("rec.a_hyp.rttm"));
    let uem = read_uem(&f.join("rec.a.uem"));
    let der = |p| score(&reca, Some(&uem), &ScoreOptions::preset(p)).unwrap().der();
    assert_eq!(der(ScoringPreset::Overtalk), Some(0.5));
    assert_eq!(der(ScoringPreset::MdEval), Some(0.0));
    assert_eq!(der(ScoringPreset::Dscore), None);
}

fn read_dir_rttm(dir: &Path) -> BTreeMap<String, Annotation> {
    let mut out = BTreeMap::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rttm"))
        .collect();
    paths.sort();
    for p in paths {
        out.extend(read_rttm(&p).0);
    }
    out
}

#[test]
fn vbx_ami_published_scores() {
    let Some(shared) = overtalk_testkit::shared_data("vbx_ami_published_scores") else { return };
    let refs = shared.join("corpora/ami/only_words/rttms");
    let sys = shared.join("system-outputs/vbx-ami");
    // (setup, split, forgiving, fair, full, JER) from the VBx README and the system-outputs README.
    let published = [
        ("AMI_Mix-Headset", "dev", "1.56", "9.68", "16.33", "20.57"),
        ("AMI_Mix-Headset", "test", "2.10", "12.53", "18.99", "24.57"),
        ("AMI_beamformed", "dev", "2.80", "10.81", "17.66", "22.26"),
        ("AMI_beamformed", "test", "3.90", "14.23", "20.84", "26.92"),
    ];
    for (setup, split, forgiving, fair, full, jer) in published {
        let r = read_dir_rttm(&refs.join(split));
        let h = read_dir_rttm(&sys.join(setup).join(split));
        assert!(!h.is_empty() && !r.is_empty());
        let ins: Vec<RecordingInput> = h
            .keys()
            .map(|id| RecordingInput::new(id.clone(), r.get(id).cloned(), h.get(id).cloned()))
            .collect();
        let c = Delta::from_millis(250);
        for preset in [
            ScoringPreset::Dscore,
            ScoringPreset::Overtalk,
            ScoringPreset::MdEval,
            ScoringPreset::Spyder,
        ] {
            let base = ScoreOptions::preset(preset);
            for (opts, expected) in [
                (base.clone().with_collar(c).with_skip_overlap(true), forgiving),
                (base.clone().with_collar(c), fair),
                (base.clone(), full),
            ] {
                let report = score(&ins, None, &opts).unwrap();
                assert_eq!(
                    format!("{:.2}", pct(report.der())),
                    expected,
                    "{setup} {split} {preset:?} collar {} skip {:?}",
                    opts.collar,
                    opts.regions
                );
                if preset == ScoringPreset::Dscore {
                    assert_eq!(format!("{:.2}", pct(report.jer)), jer, "{setup} {split} JER");
                }
            }
        }
        // JER to four decimals where the scoring notes record them (dscore frames; pyannote
        // continuous, collar 0).
        let four = |p: ScoringPreset| {
            let report = score(&ins, None, &ScoreOptions::preset(p)).unwrap();
            format!("{:.4}", pct(report.jer))
        };
        let pyannote = match (setup, split) {
            ("AMI_Mix-Headset", "dev") => "20.5632",
            ("AMI_Mix-Headset", "test") => "24.5688",
            ("AMI_beamformed", "dev") => "22.2568",
            _ => "26.9117",
        };
        assert_eq!(four(ScoringPreset::Pyannote), pyannote, "{setup} {split} pyannote JER");
        match (setup, split) {
            ("AMI_Mix-Headset", "test") => assert_eq!(four(ScoringPreset::Dscore), "24.5738"),
            ("AMI_beamformed", "test") => assert_eq!(four(ScoringPreset::Dscore), "26.9157"),
            _ => {}
        }
    }
}

/// The perturbed hypothesis of the scoring notes (§9), made with the shared perturbation tool.
fn perturbed(shared: &Path, input: &Path, name: &str) -> Option<PathBuf> {
    let out = std::env::temp_dir().join(format!("overtalk-{}-{name}.rttm", std::process::id()));
    let status = std::process::Command::new("python3")
        .arg(shared.join("../tools/perturb_rttm.py"))
        .arg(input)
        .arg("-o")
        .arg(&out)
        .args(["--shift", "0.2", "--swap-prob", "0.05", "--drop-prob", "0.02"])
        .args(["--fa-prob", "0.02", "--rename", "--seed", "1"])
        .stderr(std::process::Stdio::null())
        .status();
    match status {
        Ok(s) if s.success() => Some(out),
        _ => {
            assert!(
                std::env::var_os("OVERTALK_REQUIRE_SHARED_DATA").is_none(),
                "python3 and the shared perturbation tool are needed"
            );
            eprintln!("skipping: python3 or the shared perturbation tool is not available");
            None
        }
    }
}

#[test]
fn agreement_table_on_perturbed_corpora() {
    let Some(shared) = overtalk_testkit::shared_data("agreement_table_on_perturbed_corpora") else {
        return;
    };
    let corpora = shared.join("corpora");
    // (case, reference dir, UEM dir) and per protocol (full, fair, forgiving) the DER of
    // md-eval-22 without -u, dscore, pyannote.metrics and spyder (scoring notes §9).
    type Row = (&'static str, [[&'static str; 4]; 3]);
    let table: [(&str, &str, Option<&str>, Row); 3] = [
        (
            "ami_test",
            "ami/only_words/rttms/test",
            Some("ami/uems/test"),
            (
                "ami",
                [
                    ["12.0069", "12.0069", "12.0069", "12.0069"],
                    ["7.6320", "7.6320", "7.6320", "7.6320"],
                    ["7.6773", "7.6773", "7.6773", "7.6773"],
                ],
            ),
        ),
        (
            "vox_dev",
            "voxconverse/dev",
            None,
            (
                "vox_dev",
                [
                    ["9.2466", "9.2804", "9.2804", "9.2804"],
                    ["7.1527", "7.1571", "7.1571", "7.1571"],
                    ["7.1118", "7.1164", "7.0984", "7.1164"],
                ],
            ),
        ),
        (
            "vox_test",
            "voxconverse/test",
            None,
            (
                "vox_test",
                [
                    ["9.2503", "9.2648", "9.2667", "9.2648"],
                    ["6.6826", "6.6832", "6.6828", "6.6831"],
                    ["6.6471", "6.6474", "6.6465", "6.6473"],
                ],
            ),
        ),
    ];
    for (name, refdir, uemdir, (_, expected)) in table {
        let refdir = corpora.join(refdir);
        let Some(sys) = perturbed(&shared, &refdir, name) else { return };
        let r = read_dir_rttm(&refdir);
        let h = read_rttm(&sys).0;
        let _ = std::fs::remove_file(&sys);
        let uem = uemdir.map(|d| {
            let mut all = BTreeMap::new();
            for e in std::fs::read_dir(corpora.join(d)).unwrap() {
                all.extend(read_uem(&e.unwrap().path()));
            }
            all
        });
        let ids: Vec<&String> = r.keys().collect();
        let ins: Vec<RecordingInput> = ids
            .iter()
            .map(|id| RecordingInput::new(id.as_str(), r.get(*id).cloned(), h.get(*id).cloned()))
            .collect();
        let presets = [
            ScoringPreset::MdEval,
            ScoringPreset::Dscore,
            ScoringPreset::Pyannote,
            ScoringPreset::Spyder,
        ];
        let c = Delta::from_millis(250);
        for (k, row) in expected.iter().enumerate() {
            for (preset, want) in presets.iter().zip(row) {
                let base = ScoreOptions::preset(*preset);
                let opts = match k {
                    0 => base,
                    1 => base.with_collar(c),
                    _ => base.with_collar(c).with_skip_overlap(true),
                };
                let got = score(&ins, uem.as_ref(), &opts).unwrap();
                assert_eq!(
                    &format!("{:.4}", pct(got.der())),
                    want,
                    "{name} protocol {k} {preset:?}"
                );
            }
        }
    }
}

#[test]
fn published_dscore_uem_writing() {
    // dscore test_uem.py: FILE1 [(0, 5), (4, 10.6)] + FILE2 [(4.5, 13.24)] writes test_write.uem
    // (overlapping regions merged, 3 decimals).
    let seg = |a, b| overtalk::Segment::from_millis(a, b).unwrap();
    let mut uem = BTreeMap::new();
    uem.insert("FILE1".to_owned(), Region::from_segments([seg(0, 5_000), seg(4_000, 10_600)]));
    uem.insert("FILE2".to_owned(), Region::from_segment(seg(4_500, 13_240)));
    let mut out = Vec::new();
    format::uem::write(&uem, &mut out).unwrap();
    let expected = std::fs::read(fixtures().join("dscore-tests/test_write.uem")).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), String::from_utf8(expected).unwrap());
}

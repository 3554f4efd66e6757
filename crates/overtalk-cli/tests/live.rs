//! `overtalk live`: without the feature it says how to get it; with it, a replay of the AMI
//! ES2004a headsets records an RTTM whose `analyze --classifier calibrated
//! --decision-horizon 250` (the live default) is the recorded analysis, byte for byte, and the
//! events are JSON lines.

use crate::util::Dir;

#[cfg(not(feature = "live"))]
#[test]
fn live_without_the_feature_says_how_to_build_it() {
    let r = Dir::new().run(&["live", "--track", "A=a.wav"]);
    assert_eq!(r.code(), 2);
    assert!(r.stderr().contains("--features live"), "{}", r.stderr());
}

/// `--track=S{i}=…/source{i}.wav` for the first `n` AMI ES2004a headsets in `ami`.
#[cfg(feature = "live")]
fn headsets(ami: &std::path::Path, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("--track=S{i}={}", ami.join(format!("source{i}.wav")).display()))
        .collect()
}

#[cfg(feature = "live")]
#[test]
fn live_replay_of_ami_headsets_records_what_analyze_gives() {
    let Some(data) =
        crate::util::shared_data("live_replay_of_ami_headsets_records_what_analyze_gives")
    else {
        return;
    };
    let ami = data.join("real-audio/ami-es2004a-multitrack");
    let dir = Dir::new();
    let record = dir.path().join("rec");
    let tracks = headsets(&ami, 4);
    let mut args: Vec<&str> =
        vec!["live", "--unpaced", "--redecide", "3", "--events", "-", "--record"];
    let record_s = record.display().to_string();
    args.push(&record_s);
    args.extend(tracks.iter().map(String::as_str));
    let out = dir.run(&args).ok();
    let lines: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(lines.iter().any(|e| e["type"] == "floor_change" && e["state"] == "committed"));
    // The session's events are numbered from 0 in order. No actuator acts here, so there is
    // no action event, not even the watchdog's when the unpaced debug detector holds the
    // clock back (it reports only a release of something muted).
    let session: Vec<&serde_json::Value> = lines.iter().filter(|e| e["type"] != "action").collect();
    for (i, e) in session.iter().enumerate() {
        assert_eq!(e["id"], i as u64);
    }
    assert_eq!(lines.iter().filter(|e| e["type"] == "action").count(), 0);
    let rttm = record.join("live.rttm").display().to_string();
    let analyzed = dir
        .run(&[
            "analyze",
            "--classifier",
            "calibrated",
            "--decision-horizon",
            "250",
            "--format",
            "json",
            &rttm,
        ])
        .ok();
    assert_eq!(analyzed, std::fs::read_to_string(record.join("live.analysis.json")).unwrap());
    assert!(record.join("live.html").exists());
    // Committed onsets on the wire are the analysis's onsets.
    let json: serde_json::Value = serde_json::from_str(&analyzed).unwrap();
    let offline = json["conversations"][0]["onsets"].as_array().unwrap().len();
    let live = lines
        .iter()
        .filter(|e| {
            e["state"] == "committed" && (e["type"] == "onset" || e["type"] == "interruption")
        })
        .count();
    assert_eq!(live, offline);
    // Each committed interruption and backchannel carries the classifier's probability.
    let classified: Vec<_> = lines
        .iter()
        .filter(|e| {
            e["state"] == "committed" && (e["type"] == "interruption" || e["type"] == "backchannel")
        })
        .collect();
    assert!(!classified.is_empty());
    for e in classified {
        let p = e["probability"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{e}");
    }
}

/// `--window`, `--lookahead` and `--redecide` reach the detector chosen: a look-ahead
/// detector whose window is not longer than its look-ahead is refused before any audio.
#[cfg(feature = "live")]
#[test]
fn live_lookahead_options_reach_the_detector() {
    let Some(data) = crate::util::shared_data("live_lookahead_options_reach_the_detector") else {
        return;
    };
    let ami = data.join("real-audio/ami-es2004a-multitrack");
    let dir = Dir::new();
    let tracks = headsets(&ami, 2);
    let mut args = vec!["live", "--unpaced", "--detector", "lookahead", "--window", "2"];
    args.extend(tracks.iter().map(String::as_str));
    let r = dir.run(&args);
    assert_eq!(r.code(), 2, "{}", r.stderr());
    assert!(r.stderr().contains("the window must be longer than the lookahead"), "{}", r.stderr());
}

/// `--early-start` reports provisional starts on half-periodic frames but commits the same
/// speech: on the AMI headsets the record's RTTM is the default's byte for byte, while more
/// provisional starts are reported, the first no later than the default's; the windowed
/// detector, which has no causal provisional starts, refuses it.
#[cfg(feature = "live")]
#[test]
fn live_early_start_commits_the_same_speech() {
    let Some(data) = crate::util::shared_data("live_early_start_commits_the_same_speech") else {
        return;
    };
    let ami = data.join("real-audio/ami-es2004a-multitrack");
    let dir = Dir::new();
    let tracks = headsets(&ami, 4);
    let session = |name: &str, extra: &[&str]| {
        let record = dir.path().join(name).display().to_string();
        let mut args = vec!["live", "--unpaced", "--events", "-", "--record", &record];
        args.extend(extra);
        args.extend(tracks.iter().map(String::as_str));
        let events = dir.run(&args).ok();
        let starts: Vec<f64> = events
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|e| e["type"] == "speech_start" && e["state"] == "provisional")
            .map(|e| e["decided_s"].as_f64().unwrap())
            .collect();
        (std::fs::read_to_string(dir.path().join(name).join("live.rttm")).unwrap(), starts)
    };
    let (rttm, starts) = session("default", &[]);
    let (early_rttm, early_starts) = session("early", &["--early-start"]);
    assert!(!rttm.is_empty());
    assert_eq!(early_rttm, rttm);
    // Breath noise on MEE014's headset is half periodic: reported early, then retracted.
    assert!(early_starts.len() > starts.len(), "{} <= {}", early_starts.len(), starts.len());
    assert!(early_starts[0] <= starts[0], "{} > {}", early_starts[0], starts[0]);
    let mut args = vec!["live", "--unpaced", "--detector", "windowed", "--early-start"];
    args.extend(tracks.iter().map(String::as_str));
    let r = dir.run(&args);
    assert_ne!(r.code(), 0);
    assert!(r.stderr().contains("--early-start needs the causal rule"), "{}", r.stderr());
}

/// The AMI headsets raised to a normal level (the loudest second at −12 dBFS, peaks clipped),
/// written as float WAVs in `dir`: the offline detector raises a quieter recording to its
/// level before it listens ([`overtalk_audio::vad::LevelGain`]), which a live session, deciding
/// as it hears, cannot.
#[cfg(feature = "live")]
fn loud_headsets(ami: &std::path::Path, dir: &Dir, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let mut r = hound::WavReader::open(ami.join(format!("source{i}.wav"))).unwrap();
            let spec = r.spec();
            let full = f32::from(1u16 << (spec.bits_per_sample - 1).min(15));
            let x: Vec<f32> = r.samples::<i16>().map(|s| f32::from(s.unwrap()) / full).collect();
            let second = spec.sample_rate as usize;
            let loudest = x
                .chunks(second)
                .map(|c| c.iter().map(|v| v * v).sum::<f32>() / c.len() as f32)
                .fold(0.0f32, f32::max);
            let gain = (10f32.powf(-1.2) / loudest.max(1e-12)).sqrt().max(1.0);
            let path = dir.path().join(format!("loud{i}.wav"));
            let out = hound::WavSpec {
                bits_per_sample: 32,
                sample_format: hound::SampleFormat::Float,
                ..spec
            };
            let mut w = hound::WavWriter::create(&path, out).unwrap();
            for v in &x {
                w.write_sample((v * gain).clamp(-1.0, 1.0)).unwrap();
            }
            w.finalize().unwrap();
            format!("--track=S{i}={}", path.display())
        })
        .collect()
}

/// `--revise`: the default (causal) session on the AMI headsets commits the causal rule's
/// speech while it runs and leaves offline `overtalk detect`'s: the record's RTTM is
/// `detect`'s byte for byte, the corrections are events marked `"revised": true`, and the
/// run says what it revised. The headsets are raised to a normal level first: offline
/// `detect` raises quieter recordings before it listens, which a session cannot
/// (docs/live.md).
#[cfg(feature = "live")]
#[test]
fn live_revise_leaves_what_detect_finds() {
    let Some(data) = crate::util::shared_data("live_revise_leaves_what_detect_finds") else {
        return;
    };
    let ami = data.join("real-audio/ami-es2004a-multitrack");
    let dir = Dir::new();
    let tracks = loud_headsets(&ami, &dir, 4);
    let record = dir.path().join("rec").display().to_string();
    let mut args = vec!["live", "--unpaced", "--revise", "--events", "-", "--record", &record];
    args.extend(tracks.iter().map(String::as_str));
    let r = dir.run(&args);
    assert_eq!(r.code(), 0, "{}", r.stderr());
    assert!(r.stderr().contains("decided again on the whole session"), "{}", r.stderr());
    let events: Vec<serde_json::Value> =
        r.stdout().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let revised: Vec<&serde_json::Value> = events.iter().filter(|e| e["revised"] == true).collect();
    assert!(revised.iter().any(|e| e["state"] == "retracted"));
    assert!(revised.iter().any(|e| e["state"] == "committed"));
    // Only revision events carry the field.
    assert!(events.iter().all(|e| e.get("revised").is_none() || e["revised"] == true));
    let mut args = vec!["detect", "--recording-id", "live", "--to", "rttm"];
    args.extend(tracks.iter().map(String::as_str));
    let detected = dir.run(&args).ok();
    let recorded = std::fs::read_to_string(dir.path().join("rec").join("live.rttm")).unwrap();
    assert_eq!(recorded, detected);
}

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

/// `--track-offset` on a replay: the recordings of separate devices (Host's started 1 s
/// before the common zero, Guest's 0.25 s after it) are put on the session clock as `overtalk
/// detect --track-offset` puts them on its timeline. The events are those of the two mics of
/// one recorder, at the same times; the record's RTTM is `detect`'s of the same files and
/// offsets, byte for byte, and its analysis is `analyze` of that RTTM.
#[cfg(feature = "live")]
#[test]
fn live_track_offsets_put_separate_devices_on_the_session_clock_as_detect_does() {
    let dir = Dir::new();
    crate::detect::write_separate_devices(&dir);
    let devices = ["--track", "Host=host-dev.wav", "--track", "Guest=guest-dev.wav"];
    let offsets = ["--track-offset", "Host=-1", "--track-offset", "Guest=0.25"];
    let live = |tracks: &[&str], record: &str| {
        let args = [
            &["live", "--unpaced", "--detector", "lookahead", "--events", "-", "--record", record]
                [..],
            tracks,
        ]
        .concat();
        let r = dir.run(&args);
        assert_eq!(r.code(), 0, "{}", r.stderr());
        r.stdout()
    };
    let one = live(&["--track", "Host=a.wav", "--track", "Guest=b.wav"], "one");
    let two = live(&[&devices[..], &offsets].concat(), "two");
    assert_eq!(two, one);
    // The session's events on the session clock: Host's speech from 0.5 s (0.49 s once
    // revised at the end), Guest's from 4 s.
    let starts: Vec<(String, f64, bool)> = two
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["type"] == "speech_start" && e["state"] == "committed")
        .map(|e| {
            let speaker = e["speaker"].as_str().unwrap().to_owned();
            (speaker, e["t_s"].as_f64().unwrap(), e["revised"] == true)
        })
        .collect();
    assert_eq!(
        starts,
        [
            ("Host".to_owned(), 0.5, false),
            ("Guest".to_owned(), 4.0, false),
            ("Host".to_owned(), 0.49, true)
        ]
    );
    let detected = dir
        .run(
            &[&["detect"][..], &devices, &offsets, &["--recording-id", "live", "-o", "d.rttm"]]
                .concat(),
        )
        .ok();
    assert_eq!(detected, "");
    assert_eq!(dir.read("two/live.rttm"), dir.read("d.rttm"));
    assert_eq!(
        dir.read("d.rttm"),
        "SPEAKER live 1 0.490 3.190 <NA> <NA> Host <NA> <NA>\n\
         SPEAKER live 1 4.000 3.180 <NA> <NA> Guest <NA> <NA>\n"
    );
    let analyzed = dir
        .run(&[
            "analyze",
            "--classifier",
            "calibrated",
            "--decision-horizon",
            "250",
            "--format",
            "json",
            "d.rttm",
        ])
        .ok();
    assert_eq!(analyzed, dir.read("two/live.analysis.json"));
    // The report says how the tracks were placed, as `detect` says it.
    assert!(dir.read("two/live.html").contains("; offsets Host -1.000 s, Guest +0.250 s"));
}

/// `--track-offset` of `live` is read as `detect` reads it: the same refusals, word for word,
/// before any recording is opened; an offset that leaves nothing of a recording is refused
/// before the session starts.
#[cfg(feature = "live")]
#[test]
fn live_track_offsets_are_refused_as_detect_refuses_them() {
    use crate::detect::{two_mics, write_two_mics};
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    let tracks = ["--track", "Host=a.wav", "--track", "Guest=b.wav"];
    let refused = |cmd: &str, extra: &[&str]| {
        let mut args = vec![cmd];
        if cmd == "live" {
            args.push("--unpaced");
        }
        let r = dir.run(&[&args[..], &tracks, extra].concat());
        assert_eq!(r.code(), 2, "{}", r.stderr());
        r.stderr()
    };
    for bad in [
        &["--track-offset", "Hots=1"][..],
        &["--track-offset", "Host"],
        &["--track-offset", "Host=soon"],
        &["--track-offset", "Host=inf"],
        &["--track-offset", "Host=1e10"],
        &["--track-offset", "Host=1", "--track-offset", "Host=2"],
    ] {
        assert_eq!(refused("live", bad), refused("detect", bad));
    }
    assert_eq!(
        refused("live", &["--track-offset", "Hots=1"]),
        "overtalk: error: --track-offset Hots=1: \"Hots\" is not a --track name (the tracks are \
         \"Host\", \"Guest\")\n"
    );
    assert_eq!(
        refused("live", &["--track-offset", "Guest=-9"]),
        "overtalk: error: b.wav: the offset -9.000 s of \"Guest\" puts the whole of its recording \
         (9.000 s) before the common start of the tracks\n"
    );
    let r = dir.run(&["live", "--device", "default", "--channels", "A", "--track-offset", "A=1"]);
    assert_eq!(r.code(), 2);
    assert_eq!(
        r.stderr(),
        "overtalk: error: --track-offset places a --track file on the common timeline; give the \
         tracks with --track NAME=FILE (the channels of one recording share its clock)\n"
    );
}

/// `--early-commits` commits the same classes on the AMI headsets, each no later than without
/// it; an event so committed may lack its probability, and none lacks it without the flag.
#[cfg(feature = "live")]
#[test]
fn live_early_commits_commit_the_same_classes_no_later() {
    let Some(data) =
        crate::util::shared_data("live_early_commits_commit_the_same_classes_no_later")
    else {
        return;
    };
    let ami = data.join("real-audio/ami-es2004a-multitrack");
    let dir = Dir::new();
    let tracks = headsets(&ami, 4);
    let session = |extra: &[&str]| {
        let mut args = vec!["live", "--unpaced", "--events", "-"];
        args.extend(extra);
        args.extend(tracks.iter().map(String::as_str));
        let events = dir.run(&args).ok();
        let mut classified: Vec<(String, String, String, f64, bool)> = events
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|e| {
                e["state"] == "committed"
                    && (e["type"] == "interruption" || e["type"] == "backchannel")
            })
            .map(|e| {
                (
                    e["type"].as_str().unwrap().to_owned(),
                    e["speaker"].as_str().unwrap_or_default().to_owned(),
                    format!("{:.3}", e["t_s"].as_f64().unwrap()),
                    e["decided_s"].as_f64().unwrap(),
                    e["probability"].is_f64(),
                )
            })
            .collect();
        classified.sort_by(|a, b| (&a.0, &a.1, &a.2).cmp(&(&b.0, &b.1, &b.2)));
        classified
    };
    let plain = session(&[]);
    let early = session(&["--early-commits"]);
    assert!(!plain.is_empty());
    assert!(plain.iter().all(|e| e.4), "{plain:?}");
    let key = |v: &[(String, String, String, f64, bool)]| -> Vec<(String, String, String)> {
        v.iter().map(|e| (e.0.clone(), e.1.clone(), e.2.clone())).collect()
    };
    assert_eq!(key(&early), key(&plain));
    for (e, p) in early.iter().zip(&plain) {
        assert!(e.3 <= p.3 + 1e-9, "{e:?} {p:?}");
    }
}

/// A recording with one audio track per microphone (as OBS writes it) is replayed as `overtalk
/// detect --audio-tracks` reads it: each audio track a speaker's own, the record's RTTM
/// `detect`'s; a file replayed with audio tracks left unread is warned of as `detect` warns of
/// it; the flag is refused as `detect` refuses it, word for word.
#[cfg(feature = "live")]
#[test]
fn live_replays_the_audio_tracks_of_one_file_as_detect_reads_them() {
    let dir = Dir::new();
    let fixture =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../overtalk-audio/tests/data/speech.2tracks.mkv");
    std::fs::copy(fixture, dir.path().join("show.mkv")).unwrap();
    let live = ["live", "--unpaced", "--detector", "lookahead", "--events", "-"];
    let r = dir.run(
        &[&live[..], &["--replay", "show.mkv", "--audio-tracks", "Host,Guest", "--record", "rec"]]
            .concat(),
    );
    assert_eq!(r.code(), 0, "{}", r.stderr());
    assert!(!r.stderr().contains("warning"), "{}", r.stderr());
    let starts: Vec<(String, f64)> = r
        .stdout()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["type"] == "speech_start" && e["state"] == "provisional")
        .map(|e| (e["speaker"].as_str().unwrap().to_owned(), e["t_s"].as_f64().unwrap()))
        .collect();
    assert_eq!(starts, [("Host".to_owned(), 0.98), ("Guest".to_owned(), 4.98)]);
    let detected = dir
        .run(&["detect", "show.mkv", "--audio-tracks", "Host,Guest", "--recording-id", "live"])
        .ok();
    assert_eq!(dir.read("rec/live.rttm"), detected);
    // The default audio track of a file given as a speaker's track: the other is said unread,
    // as `detect` says it, and carried into the record's analysis.
    let (a, _) = crate::detect::two_mics();
    crate::detect::wav(&dir, "a.wav", 1, 16_000, &a);
    let tracks = ["--track", "Guest=show.mkv", "--track", "Host=a.wav"];
    let unread = "overtalk: warning: show.mkv: it holds 2 audio tracks and only its default one \
                  was read; if each holds one microphone (as OBS records them), `--audio-tracks \
                  NAME,NAME` reads each as a speaker's own track\n";
    let r = dir.run(&[&["detect"][..], &tracks, &["-o", "d.rttm"]].concat());
    assert_eq!(r.stderr(), unread);
    let r = dir.run(&[&live[..], &tracks, &["--record", "rec2"]].concat());
    assert_eq!(r.code(), 0, "{}", r.stderr());
    assert!(r.stderr().starts_with(unread), "{}", r.stderr());
    assert_eq!(r.stderr().matches("warning").count(), 1, "{}", r.stderr());
    let json: serde_json::Value =
        serde_json::from_str(&dir.read("rec2/live.analysis.json")).unwrap();
    let text = unread.strip_prefix("overtalk: warning: ").map(str::trim_end).unwrap();
    assert_eq!(
        json["conversations"][0]["diagnostics"]["warnings"],
        serde_json::json!([format!("recording: {text}")])
    );
    // Refused as `detect` refuses them.
    for bad in [
        &["show.mkv", "--audio-tracks", "A,B,C"][..],
        &["show.mkv", "--audio-tracks", "_,_"],
        &["show.mkv", "--audio-tracks", "A,"],
        &["--audio-tracks", "A,B"],
        &["--audio-tracks", "A,B", "--track", "A=show.mkv"],
    ] {
        let l = dir.run(&[&["live", "--unpaced"][..], bad].concat());
        let d = dir.run(&[&["detect"][..], bad].concat());
        assert_eq!((l.code(), d.code()), (2, 2), "{bad:?}: {} {}", l.stderr(), d.stderr());
        assert_eq!(l.stderr(), d.stderr().replace("detecting speech: ", ""), "{bad:?}");
    }
    assert_eq!(
        dir.run(&["live", "--unpaced", "show.mkv", "--audio-tracks", "A,B,C"]).stderr(),
        "overtalk: error: show.mkv: audio track 3 requested, but the recording has 2 audio \
         tracks\n"
    );
    let r = dir.run(&["live", "--device", "default", "--channels", "A", "--audio-tracks", "A,B"]);
    assert_eq!(
        (r.code(), r.stderr()),
        (
            2,
            "overtalk: error: --audio-tracks names the audio tracks of a replayed recording; it \
             does not go with --device\n"
                .to_owned()
        )
    );
}

/// A replay of one file needs one track per speaker: a file given alone (whatever the
/// detector, with or without `--replay`), or one `--track`, is refused before it is read, with
/// the flags that give the tracks.
#[cfg(feature = "live")]
#[test]
fn live_refuses_a_file_without_a_track_per_speaker() {
    let dir = Dir::new();
    let fixture =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../overtalk-audio/tests/data/speech.2tracks.mkv");
    std::fs::copy(fixture, dir.path().join("show.mkv")).unwrap();
    let needs = |file: &str| {
        format!(
            "overtalk: error: live needs one track per speaker (two or more): name {file}'s \
             audio tracks with --audio-tracks NAME,NAME, give --channels NAME,NAME for a file \
             with one speaker per channel, or give --track NAME=FILE per speaker\n"
        )
    };
    for (args, file) in [
        (&["show.mkv"][..], "show.mkv"),
        (&["--replay", "show.mkv"], "show.mkv"),
        (&["show.mkv", "--detector", "lookahead"], "show.mkv"),
        (&["show.mkv", "--channels", "A"], "show.mkv"),
        (&["--track", "A=show.mkv"], "FILE"),
    ] {
        let r = dir.run(&[&["live", "--unpaced"][..], args].concat());
        assert_eq!((r.code(), r.stderr()), (2, needs(file)), "{args:?}");
    }
}

/// `--channels` on a replayed file reads one speaker per channel, as `detect --channels`
/// does: the record's RTTM is `detect`'s, byte for byte.
#[cfg(feature = "live")]
#[test]
fn live_replays_the_channels_of_one_file_as_detect_reads_them() {
    let dir = Dir::new();
    let (a, b) = crate::detect::two_mics();
    let both: Vec<i16> = a.iter().zip(&b).flat_map(|(x, y)| [*x, *y]).collect();
    crate::detect::wav(&dir, "rec.wav", 2, 16_000, &both);
    let r = dir.run(&[
        "live",
        "rec.wav",
        "--channels",
        "A,B",
        "--replay",
        "--unpaced",
        "--detector",
        "lookahead",
        "--record",
        "out",
    ]);
    assert_eq!(r.code(), 0, "{}", r.stderr());
    let detected =
        dir.run(&["detect", "rec.wav", "--channels", "A,B", "--recording-id", "live"]).ok();
    assert!(detected.contains(" A ") && detected.contains(" B "), "{detected}");
    assert_eq!(dir.read("out/live.rttm"), detected);
}

/// A track that opens with a jingle and then talks: the meter names it while the speech so far
/// is mostly the jingle (a provisional `warning`), the verdict on its whole speech does not,
/// and the warning is retracted at the end, on stderr too, and left out of the record.
#[cfg(feature = "live")]
#[test]
fn live_retracts_a_music_warning_the_whole_speech_does_not_confirm() {
    let dir = Dir::new();
    let talk: Vec<i16> = overtalk_testkit::talk(40).iter().map(|v| (v * 32_767.0) as i16).collect();
    let mut b = crate::detect::plucks(12);
    b.extend(&talk);
    let mut a = vec![0i16; 12 * 16_000];
    a.extend(talk.iter().rev());
    crate::detect::wav(&dir, "a.wav", 1, 16_000, &a);
    crate::detect::wav(&dir, "b.wav", 1, 16_000, &b);
    let r = dir.run(&[
        "live",
        "--unpaced",
        "--events",
        "-",
        "--track",
        "A=a.wav",
        "--track",
        "B=b.wav",
        "--record",
        "rec",
    ]);
    assert_eq!(r.code(), 0, "{}", r.stderr());
    let warnings: Vec<serde_json::Value> = r
        .stdout()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["type"] == "warning")
        .collect();
    let brief: Vec<_> = warnings
        .iter()
        .map(|w| {
            (
                w["speaker"].as_str().unwrap(),
                w["state"].as_str().unwrap(),
                w["id"].as_u64(),
                w["refers_to"].as_u64(),
                w["t_s"].as_f64().unwrap(),
                w["decided_s"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        brief,
        [
            ("B", "provisional", Some(43), None, 6.0075, 8.02),
            ("B", "retracted", Some(935), Some(43), 52.0, 52.0)
        ]
    );
    let found = "b.wav: track B (5.6 s of speech) sounds like music, not a voice: 0 % of it holds \
                 its level and its partials with no pauses between syllables, 100 % has a steady \
                 beat (a music bed, a jingle or a music channel on a track of its own?); it is \
                 kept as a speaker talking, and `--ignore-label B` (or the name `--speakers` \
                 gives it) leaves it out of the analysis";
    let withdrawn = "track B's whole speech does not sound like music";
    assert_eq!(
        [&warnings[0]["warning"]["message"], &warnings[1]["warning"]["message"]],
        [found, withdrawn]
    );
    let stderr = r.stderr();
    let said: Vec<&str> = stderr.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(
        said,
        [
            format!("overtalk: warning: {found}"),
            format!("overtalk: warning withdrawn: {withdrawn}")
        ]
    );
    let json: serde_json::Value =
        serde_json::from_str(&dir.read("rec/live.analysis.json")).unwrap();
    assert_eq!(json["conversations"][0]["diagnostics"]["warnings"], serde_json::json!([]));
}

/// A speaker's own track that offline `detect` names as music (a jingle of plucked notes) is
/// named by a replay too: once on stderr in `detect`'s words, as a provisional `warning`
/// event committed at the end, and in the record's analysis with the verdict on the whole
/// session's committed speech, worded as `detect`'s. The voices' tracks are named by neither.
#[cfg(feature = "live")]
#[test]
fn live_names_the_track_detect_names_as_music() {
    let dir = Dir::new();
    // 12 s: long enough for the meter's 6 s beat windows to judge 5 s of the jingle before
    // the replay ends.
    let (mut a, mut b) = crate::detect::two_mics();
    a.resize(12 * 16_000, 0);
    b.resize(12 * 16_000, 0);
    crate::detect::write_two_mics(&dir, &a, &b);
    crate::detect::wav(&dir, "jingle.wav", 1, 16_000, &crate::detect::plucks(12));
    let live = ["live", "--unpaced", "--events", "-"];
    let jingle = ["--track", "Host=a.wav", "--track", "Jingle=jingle.wav"];
    let offline = dir.run(&[&["detect"][..], &jingle, &["-o", "j.rttm"]].concat());
    assert_eq!(offline.code(), 0);
    let said = offline.stderr();
    assert!(said.starts_with("overtalk: warning: jingle.wav: track Jingle ("), "{said}");
    let r = dir.run(&[&live[..], &jingle, &["--record", "rec"]].concat());
    assert_eq!(r.code(), 0, "{}", r.stderr());
    let warnings: Vec<serde_json::Value> = r
        .stdout()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["type"] == "warning")
        .collect();
    // Provisional when a judgement first finds it, committed at the end by the verdict on the
    // whole speech (which refers to it).
    let states: Vec<(&str, &str, &str, Option<u64>)> = warnings
        .iter()
        .map(|w| {
            (
                w["speaker"].as_str().unwrap(),
                w["state"].as_str().unwrap(),
                w["warning"]["kind"].as_str().unwrap(),
                w["refers_to"].as_u64(),
            )
        })
        .collect();
    let first = warnings[0]["id"].as_u64().unwrap();
    assert_eq!(
        states,
        [("Jingle", "provisional", "music", None), ("Jingle", "committed", "music", Some(first))]
    );
    let w = &warnings[0];
    let message = w["warning"]["message"].as_str().unwrap();
    assert_eq!(
        message,
        "jingle.wav: track Jingle (5.9 s of speech) sounds like music, not a voice: 0 % of it \
         holds its level and its partials with no pauses between syllables, 100 % has a steady \
         beat (a music bed, a jingle or a music channel on a track of its own?); it is kept as a \
         speaker talking, and `--ignore-label Jingle` (or the name `--speakers` gives it) leaves \
         it out of the analysis"
    );
    // Judged on the speech up to the centre of the last 6 s beat window measured (the 7th,
    // 4.0–10.0 s), in the batch of the block whose committed clock called the judgement.
    assert_eq!((&w["t_s"], &w["decided_s"]), (&7.0075.into(), &9.81.into()), "{w}");
    let stderr = r.stderr();
    let printed: Vec<&str> = stderr.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(printed, [format!("overtalk: warning: {message}")]);
    // The record and the committed warning: the verdict on the whole session's speech as
    // committed, worded as `detect` words its own verdict on the same track, with the seconds
    // of speech the record's RTTM gives the track (the causal detector's speech, not
    // offline's: `detect` says 11.7 s).
    let seconds: f64 = dir
        .read("rec/live.rttm")
        .lines()
        .filter(|l| l.split_whitespace().nth(7) == Some("Jingle"))
        .map(|l| l.split_whitespace().nth(4).unwrap().parse::<f64>().unwrap())
        .sum();
    let offline_seconds = said.split(" (").nth(1).unwrap().split(' ').next().unwrap();
    assert_eq!((offline_seconds, format!("{seconds:.1}").as_str()), ("11.7", "10.8"));
    let whole = said.strip_prefix("overtalk: warning: ").unwrap().trim_end().replace(
        &format!("({offline_seconds} s of speech)"),
        &format!("({seconds:.1} s of speech)"),
    );
    assert_eq!(warnings[1]["warning"]["message"], whole);
    let json: serde_json::Value =
        serde_json::from_str(&dir.read("rec/live.analysis.json")).unwrap();
    assert_eq!(
        json["conversations"][0]["diagnostics"]["warnings"],
        serde_json::json!([format!("recording: {whole}")])
    );
    assert!(dir.read("rec/live.html").contains("track Jingle ("));
    // `--no-music`: no meter, no warning.
    let r = dir.run(&[&live[..], &jingle, &["--no-music", "--record", "quiet"]].concat());
    assert_eq!(r.code(), 0, "{}", r.stderr());
    assert!(!r.stderr().contains("warning"), "{}", r.stderr());
    assert!(!r.stdout().contains("\"warning\""), "{}", r.stdout());
    let json: serde_json::Value =
        serde_json::from_str(&dir.read("quiet/live.analysis.json")).unwrap();
    assert_eq!(json["conversations"][0]["diagnostics"]["warnings"], serde_json::json!([]));
    // Voices: offline names neither track, nor does the replay.
    let voices = ["--track", "Host=a.wav", "--track", "Guest=b.wav"];
    let offline = dir.run(&[&["detect"][..], &voices, &["-o", "v.rttm"]].concat());
    assert_eq!((offline.code(), offline.stderr()), (0, String::new()));
    let r = dir.run(&[&live[..], &voices].concat());
    assert_eq!(r.code(), 0, "{}", r.stderr());
    assert!(!r.stderr().contains("warning"), "{}", r.stderr());
    assert!(!r.stdout().contains("\"warning\""), "{}", r.stdout());
}

/// `live` replaying the two microphones of `detect::two_mics` (`a.wav`, `b.wav`) as fast as the
/// detector goes: the arguments before those a test adds.
#[cfg(feature = "live")]
const LIVE_TWO_MICS: [&str; 6] =
    ["live", "--track", "Host=a.wav", "--track", "Guest=b.wav", "--unpaced"];

/// `--serve 127.0.0.1:0` takes a port the system chooses; the session says which, once the page
/// is served, so the page can be opened.
#[cfg(feature = "live")]
#[test]
fn live_says_where_the_page_is_served() {
    use crate::detect::{two_mics, write_two_mics};
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    let r = dir.run(&[&LIVE_TWO_MICS[..], &["--serve", "127.0.0.1:0"]].concat());
    assert_eq!(r.code(), 0, "{}", r.stderr());
    let stderr = r.stderr();
    let line = stderr.lines().next().unwrap();
    let port = line
        .strip_prefix("overtalk live: the live page is at http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert_ne!(port.parse::<u16>().unwrap(), 0, "{stderr}");
    // `--quiet` says nothing.
    let r = dir.run(&[&["--quiet"][..], &LIVE_TWO_MICS, &["--serve", "127.0.0.1:0"]].concat());
    assert_eq!((r.code(), r.stderr()), (0, String::new()));
}

/// A `--record` that cannot be written is refused before any audio is replayed, not after the
/// session, whose record would then be lost.
#[cfg(feature = "live")]
#[test]
fn live_refuses_a_record_it_cannot_write_before_the_session() {
    use crate::detect::{two_mics, write_two_mics};
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    dir.create("notes.txt", "mine\n");
    for (record, message) in [
        (
            "notes.txt",
            "overtalk: error: --record notes.txt: not a directory (the record is three files \
             written into it)\n",
        ),
        (
            "notes.txt/out",
            "overtalk: error: --record notes.txt/out: creating it: a component of the path is not a \
             directory\n",
        ),
    ] {
        let r = dir.run(&[&LIVE_TWO_MICS[..], &["--events", "events.jsonl", "--record", record]].concat());
        assert_eq!((r.code(), r.stdout(), r.stderr()), (2, String::new(), message.to_owned()));
        // Refused before `--events` is created: nothing is left behind.
        assert!(!dir.path().join("events.jsonl").exists(), "{record}");
    }
    assert_eq!(dir.read("notes.txt"), "mine\n");
    // An existing directory takes the record beside what it holds, and no probe file is left.
    dir.create("out/keep.txt", "kept\n");
    let r = dir.run(&[&LIVE_TWO_MICS[..], &["--record", "out"]].concat());
    assert_eq!(r.code(), 0, "{}", r.stderr());
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["keep.txt", "live.analysis.json", "live.html", "live.rttm"]);
}

/// Flags that only a replay (or only a device, or only an actuator) reads are refused with the
/// flag they need, not ignored.
#[cfg(feature = "live")]
#[test]
fn live_refuses_flags_without_what_they_go_with() {
    let dir = Dir::new();
    for (args, message) in [
        (
            &["--device", "d", "--replay"][..],
            "the argument '--device <NAME>' cannot be used with '--replay'",
        ),
        (
            &["--device", "d", "--speed", "8"],
            "the argument '--device <NAME>' cannot be used with '--speed <K>'",
        ),
        (
            &["--device", "d", "--unpaced"],
            "the argument '--device <NAME>' cannot be used with '--unpaced'",
        ),
        (
            &["--track", "A=a.wav", "--osc-map", "A=1"],
            "the following required arguments were not provided:\n  --osc <HOST:PORT>",
        ),
        (
            &["--track", "A=a.wav", "--obs-map", "A=Mic"],
            "the following required arguments were not provided:\n  --obs <ws://HOST:PORT>",
        ),
        (
            &["--track", "A=a.wav", "--token", "t"],
            "the following required arguments were not provided:\n  --serve [<ADDR>]",
        ),
        (
            &["--track", "A=a.wav", "--recording", ""],
            "a value is required for '--recording <ID>' but none was supplied",
        ),
        (
            &["--track", "A=a.wav", "--preset", "nope"],
            "invalid value 'nope' for '--preset <PRESET>'\n  [possible values: default, he2010, \
             pure-jf]",
        ),
    ] {
        let r = dir.run(&[&["live"][..], args].concat());
        assert_eq!(r.code(), 2, "{args:?}: {}", r.stderr());
        assert!(r.stderr().starts_with(&format!("error: {message}\n")), "{args:?}: {}", r.stderr());
    }
}

/// SIGTERM (`kill`, systemd, `docker stop`) ends a session as Ctrl-C does: every mute the rule
/// set is released and the record written, and the process exits 0.
#[cfg(all(feature = "live", unix))]
#[test]
fn live_on_sigterm_releases_every_mute_and_writes_the_record() {
    use crate::detect::{two_mics, write_two_mics};
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    let osc = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let target = osc.local_addr().unwrap().to_string();
    let (child, lines) = spawn_live(
        &dir,
        "",
        &[
            "--track",
            "Host=a.wav",
            "--track",
            "Guest=b.wav",
            "--speed",
            "1",
            "--rule",
            "debate-mute",
            "--osc",
            &target,
            "--record",
            "out",
        ],
    );
    // Host talks from 0.5 s: once the rule has muted Guest, the process is told to stop.
    osc_mutes(&osc, &["/overtalk/Guest/mute"]);
    send("TERM", child.id());
    lines_until(&lines, "overtalk live: stopping on SIGTERM (the record is written before exit)");
    let out = child.wait_with_output().unwrap();
    let rest: Vec<String> = lines.iter().collect();
    assert_eq!(out.status.code(), Some(0), "{rest:?}");
    let mut buf = [0u8; 512];
    let mut last = None;
    while let Ok(n) = osc.recv(&mut buf) {
        last = Some(osc_message(&buf[..n]));
        if last == Some(("/overtalk/Guest/mute".to_owned(), 0)) {
            break;
        }
    }
    assert_eq!(last, Some(("/overtalk/Guest/mute".to_owned(), 0)), "{rest:?}");
    assert!(dir.read("out/live.rttm").contains(" Host "), "{rest:?}");
}

/// Waits (5 s at most) for the mute messages (value 1) of `addresses` at the OSC receiver,
/// in any order, and checks that nothing else came first.
#[cfg(all(feature = "live", unix))]
fn osc_mutes(osc: &std::net::UdpSocket, addresses: &[&str]) {
    osc.set_read_timeout(Some(std::time::Duration::from_secs(5))).unwrap();
    let mut muted = Vec::new();
    let mut buf = [0u8; 512];
    while muted.len() < addresses.len() {
        let n = osc.recv(&mut buf).unwrap_or_else(|e| panic!("{e}: no mute of {addresses:?}"));
        let (address, value) = osc_message(&buf[..n]);
        assert_eq!(value, 1, "{address}");
        muted.push(address);
    }
    muted.sort();
    assert_eq!(muted, addresses);
}

/// The address and the one `,i` argument of an OSC message.
#[cfg(all(feature = "live", unix))]
fn osc_message(bytes: &[u8]) -> (String, i32) {
    let end = bytes.iter().position(|&b| b == 0).unwrap();
    let address = String::from_utf8(bytes[..end].to_vec()).unwrap();
    // The address, its NUL and the padding to a multiple of 4 bytes; then the type tags.
    let tags = (end / 4 + 1) * 4;
    assert_eq!(&bytes[tags..tags + 3], b",i\0", "{bytes:?}");
    let at = tags + 4;
    (address, i32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()))
}

/// A session in which no speech is found says so, in `detect`'s words, on stderr and in the
/// record's analysis: its empty RTTM is not a result about people.
#[cfg(feature = "live")]
#[test]
fn live_says_when_no_speech_was_found_as_detect_does() {
    let dir = Dir::new();
    let silence = vec![0i16; 16_000];
    crate::detect::wav(&dir, "a.wav", 1, 16_000, &silence);
    crate::detect::wav(&dir, "b.wav", 1, 16_000, &silence);
    let tracks = ["--track", "A=a.wav", "--track", "B=b.wav"];
    let warning = "overtalk: warning: a.wav, b.wav: no speech found in 1.00 s of audio: the \
                   recording is silent or below the detector's threshold, so the result has no \
                   speakers";
    let detected = dir.run(&[&["detect"][..], &tracks].concat());
    assert_eq!(detected.code(), 0);
    assert!(detected.stderr().lines().any(|l| l == warning), "{}", detected.stderr());
    let r = dir.run(&[&["live", "--unpaced", "--record", "out"][..], &tracks].concat());
    assert_eq!(r.code(), 0, "{}", r.stderr());
    assert_eq!(r.stderr().lines().filter(|l| *l == warning).count(), 1, "{}", r.stderr());
    assert_eq!(dir.read("out/live.rttm"), "");
    let json: serde_json::Value =
        serde_json::from_str(&dir.read("out/live.analysis.json")).unwrap();
    let warnings = &json["conversations"][0]["diagnostics"]["warnings"];
    let expected = warning.strip_prefix("overtalk: warning: ").unwrap();
    assert!(
        warnings.as_array().unwrap().iter().any(|w| w.to_string().contains(expected)),
        "{warnings}"
    );
}

/// `overtalk live` replaying Host=a.wav, Guest=b.wav and Other=c.wav (silent) at real speed
/// under `debate-mute` with OSC to a receiver on 127.0.0.1, started through `sh -c` with
/// `prefix` before it (`trap '' HUP;` to start it with SIGHUP ignored, as `nohup` does); once
/// Host holds the floor and both others are muted, returns the child, the receiver and a
/// reader of its stderr lines.
#[cfg(all(feature = "live", unix))]
fn live_with_two_mutes(
    dir: &Dir,
    prefix: &str,
) -> (std::process::Child, std::net::UdpSocket, std::sync::mpsc::Receiver<String>) {
    let osc = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let target = osc.local_addr().unwrap().to_string();
    let (child, lines) = live_debate(dir, prefix, &["--osc", &target]);
    osc_mutes(&osc, &["/overtalk/Guest/mute", "/overtalk/Other/mute"]);
    (child, osc, lines)
}

/// `overtalk live` replaying Host=a.wav, Guest=b.wav and Other=c.wav (silent) at real speed
/// under `debate-mute` with `actuator` (flags), started through `sh -c` with `prefix` before
/// it; the child and a reader of its stderr lines.
#[cfg(all(feature = "live", unix))]
fn live_debate(
    dir: &Dir,
    prefix: &str,
    actuator: &[&str],
) -> (std::process::Child, std::sync::mpsc::Receiver<String>) {
    use crate::detect::{two_mics, wav, write_two_mics};
    let (a, b) = two_mics();
    write_two_mics(dir, &a, &b);
    wav(dir, "c.wav", 1, 16_000, &vec![0i16; a.len()]);
    let tracks = ["--track", "Host=a.wav", "--track", "Guest=b.wav", "--track", "Other=c.wav"];
    let rule = ["--speed", "1", "--rule", "debate-mute"];
    let outputs = ["--record", "out", "--events", "events.jsonl"];
    spawn_live(dir, prefix, &[&tracks[..], &rule, actuator, &outputs].concat())
}

/// `overtalk live ARGS` in `dir`, started through `sh -c` with `prefix` before it (`trap ''
/// HUP;` starts it with SIGHUP ignored, as `nohup` does), stdin closed and stdout piped: the
/// child and a reader of its stderr lines as they come.
#[cfg(all(feature = "live", unix))]
fn spawn_live(
    dir: &Dir,
    prefix: &str,
    args: &[&str],
) -> (std::process::Child, std::sync::mpsc::Receiver<String>) {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("{prefix} exec \"$0\" live \"$@\""))
        .arg(env!("CARGO_BIN_EXE_overtalk"))
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, lines)
}

/// Sends `signal` (`TERM`, `HUP`, `INT`) to `pid`.
#[cfg(all(feature = "live", unix))]
fn send(signal: &str, pid: u32) {
    let sent = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// The stderr lines up to and including `wanted` (failing after 5 s without it).
#[cfg(all(feature = "live", unix))]
fn lines_until(lines: &std::sync::mpsc::Receiver<String>, wanted: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        match lines.recv_timeout(std::time::Duration::from_secs(5)) {
            Ok(line) => {
                let found = line == wanted;
                seen.push(line);
                if found {
                    return seen;
                }
            }
            Err(e) => panic!("{e}: no {wanted:?} in {seen:?}"),
        }
    }
}

/// The OSC messages that arrive within the receiver's timeout, sorted.
#[cfg(all(feature = "live", unix))]
fn osc_messages(osc: &std::net::UdpSocket) -> Vec<(String, i32)> {
    osc.set_read_timeout(Some(std::time::Duration::from_millis(500))).unwrap();
    let mut buf = [0u8; 512];
    let mut out = Vec::new();
    while let Ok(n) = osc.recv(&mut buf) {
        out.push(osc_message(&buf[..n]));
    }
    out.sort();
    out
}

/// The addresses of the unmute messages that arrive within the receiver's timeout, sorted.
#[cfg(all(feature = "live", unix))]
fn unmutes(osc: &std::net::UdpSocket) -> Vec<String> {
    osc_messages(osc).into_iter().filter(|m| m.1 == 0).map(|m| m.0).collect()
}

/// Sends SIGTERM, waits for the session to say it stops, sends it again: checks that the
/// process exits as the signal would have (143) within a second of the second, and returns
/// the stderr lines after the first.
#[cfg(all(feature = "live", unix))]
fn sigterm_twice(
    child: std::process::Child,
    lines: &std::sync::mpsc::Receiver<String>,
) -> Vec<String> {
    send("TERM", child.id());
    lines_until(lines, "overtalk live: stopping on SIGTERM (the record is written before exit)");
    let second = std::time::Instant::now();
    send("TERM", child.id());
    let out = child.wait_with_output().unwrap();
    let took = second.elapsed();
    let rest: Vec<String> = lines.iter().collect();
    assert_eq!(out.status.code(), Some(143), "{rest:?}");
    assert!(took < std::time::Duration::from_millis(1000), "{took:?}");
    rest
}

/// A second SIGTERM while the session finishes ends the process at once, as the signal would
/// have (143), but not before every channel still muted is opened: the unmute datagrams of
/// both muted channels arrive, and the process is gone within a second of the signal.
#[cfg(all(feature = "live", unix))]
#[test]
fn live_on_a_second_sigterm_releases_every_mute_before_it_exits() {
    let dir = Dir::new();
    let (child, osc, lines) = live_with_two_mutes(&dir, "");
    let rest = sigterm_twice(child, &lines);
    assert!(
        rest.iter().any(|l| l
            == "overtalk live: SIGTERM again: releasing every mute and exiting without \
                finishing the session"),
        "{rest:?}"
    );
    // Each channel opened at least once (by the outputs' own release, or the exit's).
    let mut opened = unmutes(&osc);
    opened.dedup();
    assert_eq!(opened, ["/overtalk/Guest/mute", "/overtalk/Other/mute"]);
}

/// SIGHUP (the terminal closed, the SSH connection dropped) ends a session as SIGTERM does:
/// every mute released, the record written, status 0.
#[cfg(all(feature = "live", unix))]
#[test]
fn live_on_sighup_releases_every_mute_and_writes_the_record() {
    // A test run started under `nohup` passes SIGHUP on ignored, and the session keeps a signal
    // ignored at start so by design (the next test). Caught here, it is at its default again in
    // the child after `exec`, as in a terminal.
    let caught = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    signal_hook::flag::register(signal_hook::consts::SIGHUP, caught).unwrap();
    let dir = Dir::new();
    let (child, osc, lines) = live_with_two_mutes(&dir, "");
    send("HUP", child.id());
    lines_until(&lines, "overtalk live: stopping on SIGHUP (the record is written before exit)");
    let out = child.wait_with_output().unwrap();
    let rest: Vec<String> = lines.iter().collect();
    assert_eq!(out.status.code(), Some(0), "{rest:?}");
    assert_eq!(unmutes(&osc), ["/overtalk/Guest/mute", "/overtalk/Other/mute"]);
    assert!(dir.read("out/live.rttm").contains(" Host "), "{rest:?}");
}

/// A session started with SIGHUP and SIGINT ignored (`nohup`, a script's `cmd &`) keeps them
/// ignored: the terminal closing does not stop it; SIGTERM still does.
#[cfg(all(feature = "live", unix))]
#[test]
fn live_started_with_sighup_ignored_outlives_its_terminal() {
    let dir = Dir::new();
    let (child, osc, lines) = live_with_two_mutes(&dir, "trap '' HUP INT;");
    send("HUP", child.id());
    send("INT", child.id());
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(lines.try_iter().collect::<Vec<_>>(), Vec::<String>::new());
    send("TERM", child.id());
    lines_until(&lines, "overtalk live: stopping on SIGTERM (the record is written before exit)");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(unmutes(&osc), ["/overtalk/Guest/mute", "/overtalk/Other/mute"]);
}

/// A session whose detector cannot be set up leaves no `--events` file suggesting it ran: the
/// file is created only once the session starts, and an existing one is left as it was.
#[cfg(feature = "live")]
#[test]
fn live_that_cannot_start_leaves_no_events_file() {
    let dir = Dir::new();
    let silence = vec![0i16; 16_000];
    crate::detect::wav(&dir, "a.wav", 1, 16_000, &silence);
    crate::detect::wav(&dir, "b.wav", 1, 16_000, &silence);
    let args = [
        "live",
        "--track",
        "A=a.wav",
        "--track",
        "B=b.wav",
        "--unpaced",
        "--detector",
        "windowed",
        "--window",
        "1",
        "--lookahead",
        "2",
        "--events",
        "events.jsonl",
    ];
    let message = "overtalk: error: online detection: the window must be longer than the \
                   lookahead, and redecide positive\n";
    let r = dir.run(&args);
    assert_eq!((r.code(), r.stdout(), r.stderr()), (2, String::new(), message.to_owned()));
    assert!(!dir.path().join("events.jsonl").exists());
    dir.create("events.jsonl", "an earlier session\n");
    let r = dir.run(&args);
    assert_eq!((r.code(), r.stderr()), (2, message.to_owned()));
    assert_eq!(dir.read("events.jsonl"), "an earlier session\n");
}

/// What decoding a replayed recording finds (here a track at full scale throughout) is said
/// on stderr in `detect`'s words, once, and put among the record's analysis warnings.
#[cfg(feature = "live")]
#[test]
fn live_replay_warns_of_what_decoding_found_as_detect_does() {
    let dir = Dir::new();
    let square: Vec<i16> =
        (0..32_000).map(|i| if (i / 40) % 2 == 0 { i16::MAX } else { i16::MIN }).collect();
    crate::detect::wav(&dir, "clip.wav", 1, 16_000, &square);
    crate::detect::wav(&dir, "b.wav", 1, 16_000, &vec![0i16; 32_000]);
    let tracks = ["--track", "A=clip.wav", "--track", "B=b.wav"];
    let warning = "overtalk: warning: clip.wav: 100.0 % of the samples are at full scale: the \
                   recording is clipped throughout or is not audio (noise, data), so the speech \
                   found in it may not be speech";
    let detected = dir.run(&[&["detect"][..], &tracks].concat());
    assert_eq!(detected.code(), 0, "{}", detected.stderr());
    assert_eq!(
        detected.stderr().lines().filter(|l| *l == warning).count(),
        1,
        "{}",
        detected.stderr()
    );
    let r = dir.run(&[&["live", "--unpaced", "--record", "out"][..], &tracks].concat());
    assert_eq!(r.code(), 0, "{}", r.stderr());
    assert_eq!(r.stderr().lines().filter(|l| *l == warning).count(), 1, "{}", r.stderr());
    let json: serde_json::Value =
        serde_json::from_str(&dir.read("out/live.analysis.json")).unwrap();
    let warnings = &json["conversations"][0]["diagnostics"]["warnings"];
    let expected = warning.strip_prefix("overtalk: warning: ").unwrap();
    assert_eq!(
        warnings.as_array().unwrap().iter().filter(|w| w.to_string().contains(expected)).count(),
        1,
        "{warnings}"
    );
}

/// The same through OBS (the obs-websocket stand-in): a second SIGTERM opens both muted
/// inputs with a blocking websocket session before the process exits, within a second.
#[cfg(all(feature = "live", unix))]
#[test]
fn live_on_a_second_sigterm_opens_the_obs_inputs_before_it_exits() {
    use overtalk_live::obs_mock;
    use std::time::{Duration, Instant};
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mock = runtime.block_on(obs_mock::spawn("127.0.0.1:0", None, &["Host", "Guest", "Other"]));
    let mock = mock.unwrap();
    let dir = Dir::new();
    let (child, lines) = live_debate(&dir, "", &["--obs", &mock.url()]);
    let muted = |name: &str| mock.log.lock().unwrap().inputs[name].muted;
    let start = Instant::now();
    while !(muted("Guest") && muted("Other")) {
        assert!(start.elapsed() < Duration::from_secs(5), "the rule mutes Guest and Other");
        std::thread::sleep(Duration::from_millis(10));
    }
    let rest = sigterm_twice(child, &lines);
    // The blocking session's requests are answered before its socket closes.
    std::thread::sleep(Duration::from_millis(100));
    let log = mock.log.lock().unwrap();
    let states: Vec<(&str, bool)> =
        log.inputs.iter().map(|(name, input)| (name.as_str(), input.muted)).collect();
    assert_eq!(states, [("Guest", false), ("Host", false), ("Other", false)], "{rest:?}");
}

/// A `--serve` port already taken stops the session before it starts, and leaves no
/// `--events` file behind.
#[cfg(all(feature = "live", target_os = "linux"))]
#[test]
fn live_with_its_port_taken_leaves_no_events_file() {
    let dir = Dir::new();
    let silence = vec![0i16; 16_000];
    crate::detect::wav(&dir, "a.wav", 1, 16_000, &silence);
    crate::detect::wav(&dir, "b.wav", 1, 16_000, &silence);
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let r = dir.run(&[
        "live",
        "--track",
        "A=a.wav",
        "--track",
        "B=b.wav",
        "--unpaced",
        "--serve",
        &addr,
        "--events",
        "events.jsonl",
    ]);
    let message =
        format!("overtalk: error: --serve {addr}: Address already in use (os error 98)\n");
    assert_eq!((r.code(), r.stderr()), (2, message));
    assert!(!dir.path().join("events.jsonl").exists());
}

/// A hook slow to mute (400 ms): a second SIGTERM that comes while a mute is still being sent
/// opens that channel after the mute has landed, not before it, so the channel ends open.
#[cfg(all(feature = "live", unix))]
#[test]
fn live_on_a_second_sigterm_opens_a_channel_whose_mute_was_still_being_sent() {
    use std::time::{Duration, Instant};
    let dir = Dir::new();
    let hook = "case $OVERTALK_ACTION in \
                mute) echo \"start mute $OVERTALK_CHANNEL\" >> hook.log; sleep 0.4; \
                      echo \"mute $OVERTALK_CHANNEL\" >> hook.log;; \
                unmute) echo \"unmute $OVERTALK_CHANNEL\" >> hook.log;; \
                esac";
    let (child, lines) = live_debate(&dir, "", &["--hook", hook]);
    let log = dir.path().join("hook.log");
    let start = Instant::now();
    while !std::fs::read_to_string(&log).is_ok_and(|l| l.starts_with("start mute ")) {
        assert!(start.elapsed() < Duration::from_secs(5), "the rule mutes Guest or Other");
        std::thread::sleep(Duration::from_millis(5));
    }
    sigterm_twice(child, &lines);
    // Any hook command still running ends well within this.
    std::thread::sleep(Duration::from_millis(600));
    let log = dir.read("hook.log");
    let mut lines = log.lines();
    let first = lines.next().unwrap();
    let channel = first.strip_prefix("start mute ").unwrap();
    // The mute in flight landed, and its channel was opened after it.
    let after: Vec<&str> = lines.filter(|l| l.ends_with(&format!(" {channel}"))).collect();
    assert_eq!(after.first().copied(), Some(format!("mute {channel}").as_str()), "{log}");
    assert_eq!(after.last().copied(), Some(format!("unmute {channel}").as_str()), "{log}");
    // No mute was begun once the exit had: every channel muted was opened last.
    for other in ["Guest", "Other"] {
        let last = log.lines().rfind(|l| l.ends_with(&format!(" {other}")));
        assert!(last.is_none_or(|l| l == format!("unmute {other}")), "{log}");
    }
}

/// An events output that fails (`/dev/full`: no space left) is said once and closed; the
/// session goes on to its end, its record is the one written without `--events`, and the
/// command exits 1 (finished, an output incomplete).
#[cfg(all(feature = "live", target_os = "linux"))]
#[test]
fn live_with_an_events_output_that_fails_still_writes_the_record() {
    use crate::detect::{two_mics, write_two_mics};
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    let r = dir.run(&[&LIVE_TWO_MICS[..], &["--events", "/dev/full", "--record", "full"]].concat());
    assert_eq!(r.code(), 1, "{}", r.stderr());
    let stderr = r.stderr();
    let failed: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("overtalk live: the events output failed"))
        .collect();
    assert_eq!(failed.len(), 1, "{stderr}");
    assert!(
        failed[0].ends_with(
            "s of audio: No space left on device (os error 28); it is closed, and detection, the \
             actuators and the record go on"
        ),
        "{stderr}"
    );
    let plain = dir.run(&[&LIVE_TWO_MICS[..], &["--record", "plain"]].concat());
    assert_eq!(plain.code(), 0, "{}", plain.stderr());
    assert!(dir.read("plain/live.rttm").contains(" Host "));
    assert_eq!(dir.read("full/live.rttm"), dir.read("plain/live.rttm"));
    assert_eq!(dir.read("full/live.analysis.json"), dir.read("plain/live.analysis.json"));
}

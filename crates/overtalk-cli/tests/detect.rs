//! `overtalk detect`: recordings in, who spoke when out.

use crate::util::{Dir, Run};

/// The 16-bit samples of the audio crate's committed speech clip (16 kHz mono).
fn speech() -> Vec<i16> {
    let path = crate::util::audio_fixture("speech.wav");
    let bytes = std::fs::read(path).expect("speech clip");
    let at = bytes.windows(4).position(|w| w == b"data").expect("data chunk") + 8;
    bytes[at..].chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect()
}

/// A 16 kHz 16-bit WAV with `channels` interleaved channels.
pub(crate) fn wav(dir: &Dir, name: &str, channels: u16, rate: u32, samples: &[i16]) {
    let mut out = Vec::with_capacity(44 + samples.len() * 2);
    let data_len = (samples.len() * 2) as u32;
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&channels.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2 * u32::from(channels)).to_le_bytes());
    out.extend_from_slice(&(2 * channels).to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    std::fs::write(dir.path().join(name), out).expect("write wav");
}

/// The test clip's voice without its leading and trailing digital silence.
pub(crate) fn voice() -> Vec<i16> {
    let s = speech();
    let first = s.iter().position(|v| *v != 0).unwrap_or(0);
    let last = s.iter().rposition(|v| *v != 0).map_or(0, |i| i + 1);
    s[first..last].to_vec()
}

/// Two mics, 9 s: A speaks from 0.5 s, B from 4.0 s; each hears the other 20 dB down.
pub(crate) fn two_mics() -> (Vec<i16>, Vec<i16>) {
    let voice = voice();
    let n = 9 * 16_000;
    let mut a = vec![0f32; n];
    let mut b = vec![0f32; n];
    for (i, &v) in voice.iter().enumerate() {
        let v = f32::from(v);
        a[8_000 + i] += v;
        b[8_000 + i] += v * 0.1;
        b[64_000 + i] += v * 0.5;
        a[64_000 + i] += v * 0.05;
    }
    let q = |x: Vec<f32>| x.into_iter().map(|v| v.clamp(-32768.0, 32767.0) as i16).collect();
    (q(a), q(b))
}

/// The `--track` flags of the two mics as [`write_two_mics`] writes them.
const TRACKS: [&str; 4] = ["--track", "Host=a.wav", "--track", "Guest=b.wav"];

/// Writes two mics as `a.wav` (Host) and `b.wav` (Guest).
pub(crate) fn write_two_mics(dir: &Dir, a: &[i16], b: &[i16]) {
    wav(dir, "a.wav", 1, 16_000, a);
    wav(dir, "b.wav", 1, 16_000, b);
}

/// `overtalk detect` on the two mics of [`write_two_mics`], with `args` after the tracks.
fn detect_two_mics(dir: &Dir, args: &[&str]) -> Run {
    dir.run(&[&["detect"][..], &TRACKS, args].concat())
}

/// (speaker, start, end) of each RTTM line.
fn turns(rttm: &str) -> Vec<(String, f64, f64)> {
    rttm.lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let start: f64 = f[3].parse().unwrap_or(-1.0);
            let dur: f64 = f[4].parse().unwrap_or(-1.0);
            (f[7].to_owned(), start, start + dur)
        })
        .collect()
}

#[test]
fn two_tracks_give_each_speaker_their_turns() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    let run = detect_two_mics(&dir, &["-o", "out.rttm"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(run.stderr(), "", "no progress bar or chatter when stderr is not a terminal");
    let out = dir.read("out.rttm");
    // The recording is both tracks', not the first track's.
    assert!(out.lines().all(|l| l.starts_with("SPEAKER a+b 1 ")), "{out}");
    let t = turns(&out);
    let host: Vec<_> = t.iter().filter(|x| x.0 == "Host").collect();
    let guest: Vec<_> = t.iter().filter(|x| x.0 == "Guest").collect();
    assert!((host[0].1 - 0.5).abs() < 0.15, "{out}");
    assert!((guest[0].1 - 4.0).abs() < 0.15, "{out}");
    assert!(host.iter().all(|x| x.2 < 4.5), "bleed of the guest is not the host: {out}");
    assert!(guest.iter().all(|x| x.1 > 3.5), "bleed of the host is not the guest: {out}");
}

#[test]
fn channels_of_one_file_match_separate_files() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    let both: Vec<i16> = a.iter().zip(&b).flat_map(|(x, y)| [*x, *y]).collect();
    wav(&dir, "call.wav", 2, 16_000, &both);
    let rttm = dir.run(&["detect", "call.wav", "--channels", "Host,Guest"]).ok();
    let t = turns(&rttm);
    assert!(t.iter().any(|x| x.0 == "Host") && t.iter().any(|x| x.0 == "Guest"), "{rttm}");
    // The same turns as separate files.
    write_two_mics(&dir, &a, &b);
    let separate = detect_two_mics(&dir, &["--recording-id", "call"]).ok();
    assert_eq!(rttm, separate);
    // Skipping a channel with `_`; the output format comes from the extension.
    dir.run(&["detect", "call.wav", "--channels", "_,Guest", "-o", "guest.rttm"]).ok();
    let guest_only = dir.read("guest.rttm");
    // With one track left there is nothing to measure bleed against: the result is that
    // channel's voice activity, the host's bleed included.
    let t = turns(&guest_only);
    assert!(!t.is_empty() && t.iter().all(|x| x.0 == "Guest"), "{guest_only}");
    assert!(t[0].1 < 1.0, "{guest_only}");
    // A channel left unnamed is said to be left out; one skipped with `_` is not.
    let run = dir.run(&["detect", "call.wav", "--channels", "Host", "-o", "host.rttm"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(
        run.stderr().contains(
            "call.wav: it has 2 channels and --channels names 1; channel 2 is left out (name it, or `_` to skip one on purpose)"
        ),
        "{}",
        run.stderr()
    );
    let run = dir.run(&["detect", "call.wav", "--channels", "Host,_", "-o", "host2.rttm"]);
    assert!(!run.stderr().contains("left out"), "{}", run.stderr());
}

#[test]
fn mismatched_tracks_and_bad_inputs_are_clear_errors() {
    let dir = Dir::new();
    let (a, _) = two_mics();
    wav(&dir, "a.wav", 1, 16_000, &a);
    wav(&dir, "short.wav", 1, 16_000, &a[..16_000]);
    wav(&dir, "fast.wav", 1, 8_000, &a[..72_000]);
    let run = dir.run(&["detect", "--track", "A=a.wav", "--track", "B=short.wav"]);
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: detecting speech: tracks have different lengths: A (a.wav) lasts 9.000 s, \
         B (short.wav) lasts 1.000 s; they must cover the same stretch of time \
         (tolerance 1.000 s, --max-length-diff)\n"
    );
    let run = dir.run(&["detect", "--track", "A=a.wav", "--track", "B=fast.wav"]);
    assert_eq!(run.code(), 2);
    assert!(
        run.stderr().contains(
            "tracks have different sample rates: A (a.wav) is 16000 Hz, B (fast.wav) is 8000 Hz"
        ),
        "{}",
        run.stderr()
    );
    dir.create(
        "notes.wav",
        "this is not audio at all, just some text that is long enough to probe",
    );
    let run = dir.run(&["detect", "notes.wav"]);
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: detecting speech: notes.wav: unsupported: the file is text, not a recording (it begins \"this is not audio at all, just some text…\"); give the audio file itself\n"
    );
    let run = dir.run(&["detect", "--track", "A"]);
    assert_eq!(run.code(), 2);
    assert_eq!(run.stderr(), "overtalk: error: --track \"A\": expected NAME=FILE\n");
    let run = dir.run(&["detect", "--track", "A=a.wav", "-o", "a.wav", "--to", "rttm"]);
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("refusing to overwrite an input file"), "{}", run.stderr());
}

/// `analyze --track …` is one command for detect-then-analyze, with the same numbers.
#[test]
fn analyze_and_report_take_recordings_directly() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    detect_two_mics(&dir, &["-o", "a.rttm"]).ok();
    let two_steps = dir.run(&["analyze", "a.rttm", "--format", "json"]).ok();
    let one_step = dir.run(&[&["analyze"][..], &TRACKS, &["--format", "json"]].concat()).ok();
    let x: serde_json::Value = serde_json::from_str(&two_steps).unwrap();
    let y: serde_json::Value = serde_json::from_str(&one_step).unwrap();
    let (x, y) = (&x["conversations"][0], &y["conversations"][0]);
    assert_eq!(x["speakers"], y["speakers"]);
    assert_eq!(x["conversation"]["counts"], y["conversation"]["counts"]);
    assert_eq!(y["recording"], "a+b");
    // A stereo call with one channel per speaker, straight into the HTML report.
    let both: Vec<i16> = a.iter().zip(&b).flat_map(|(x, y)| [*x, *y]).collect();
    wav(&dir, "call.wav", 2, 16_000, &both);
    dir.run(&["report", "call.wav", "--channels", "Host,Guest", "-o", "call.html"]).ok();
    let page = dir.read("call.html");
    assert!(page.contains("Host") && page.contains("Guest"));
    // --channels needs exactly one recording.
    let run = dir.run(&["analyze", "a.rttm", "--channels", "Host,Guest"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
}

/// One mixed recording is diarized by default. Without a speaker model that gives one
/// speaker, with a warning saying how to install one; `--no-diarize` asks for voice activity
/// only, without the warning. `analyze` records how the speech was detected.
#[test]
fn one_recording_is_diarized_unless_asked_not_to() {
    let dir = Dir::new();
    wav(&dir, "clip.wav", 1, 16_000, &voice());
    let models = dir.path().join("no-models");
    std::fs::create_dir_all(&models).unwrap();
    let env = [("OVERTALK_MODEL_DIR", models.as_path())];
    let run = dir.run_env(&["detect", "clip.wav", "-o", "auto.rttm"], &env);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.stderr().contains("(run `overtalk models install`)"), "{}", run.stderr());
    assert!(run.stderr().contains("all speech is one speaker"), "{}", run.stderr());
    let run = dir.run_env(&["detect", "clip.wav", "--no-diarize", "-o", "plain.rttm"], &env);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(run.stderr(), "");
    let (auto, plain) = (turns(&dir.read("auto.rttm")), turns(&dir.read("plain.rttm")));
    assert!(!plain.is_empty());
    assert!(plain.iter().all(|t| t.0 == "clip"), "{plain:?}");
    let times = |t: &[(String, f64, f64)]| t.iter().map(|x| (x.1, x.2)).collect::<Vec<_>>();
    assert_eq!(times(&auto), times(&plain), "the fallback finds the same speech");
    let json = dir.run_env(&["analyze", "clip.wav", "--no-diarize", "--format", "json"], &env).ok();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let method = v["conversations"][0]["detection"]["method"].as_str().unwrap();
    assert!(
        method.starts_with("one track, one speaker (voice activity only); vad earshot"),
        "{method}"
    );
    let table = dir.run_env(&["analyze", "clip.wav", "--no-diarize"], &env).ok();
    assert!(table.contains(&format!("speech detected from the recording: {method}")), "{table}");
    assert!(!table.contains("not told apart"), "{table}");
    // The fallback says, in the output itself, that the speakers were not told apart.
    let table = dir.run_env(&["analyze", "clip.wav"], &env).ok();
    assert!(table.contains("speakers not told apart: no speaker model is installed"), "{table}");
    assert!(table.contains("The speakers were not told apart"), "{table}");
    assert!(!table.contains("found by diarizing"), "{table}");
    assert!(!table.contains("held the floor") && !table.contains("changed hands"), "{table}");
    let json = dir.run_env(&["analyze", "clip.wav", "--format", "json", "-q"], &env).ok();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let warnings = v["conversations"][0]["diagnostics"]["warnings"].to_string();
    assert!(warnings.contains("speakers not told apart"), "{warnings}");
    // A mixed recording whose WAV header was written before its length was known (a pipe, a
    // recorder that did not finish) is read to its end and says so, as a track does.
    let mut piped = std::fs::read(dir.path().join("clip.wav")).unwrap();
    piped[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    piped[40..44].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(dir.path().join("piped.wav"), piped).unwrap();
    let run = dir.run_env(&["detect", "piped.wav", "-o", "piped.rttm"], &env);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.stderr().contains("piped.wav: the WAV header gives no length"), "{}", run.stderr());
    assert_eq!(turns(&dir.read("piped.rttm")).len(), auto.len());
    // A transcript has no detection.
    let json = dir.run(&["analyze", "plain.rttm", "--format", "json"]).ok();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v.get("detection").is_none());
    // Diarization flags contradict --no-diarize; they do not apply to tracks.
    let run = dir.run(&["detect", "clip.wav", "--no-diarize", "--num-speakers", "2"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    let run = dir.run(&["detect", "--track", "A=clip.wav", "--diarize"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(run.stderr().contains("apply to one mixed recording"), "{}", run.stderr());
}

/// A GE2E model file with deterministic pseudo-random weights: the right tensors and shapes,
/// so the whole diarization path runs without the real model.
pub(crate) fn synthetic_ge2e(dir: &Dir, name: &str) {
    use overtalk_audio::diarize::models::{write_safetensors, Tensor};
    let mut state = 0x2545_f491_u32;
    let mut tensor = |name: String, shape: Vec<usize>| {
        let data = (0..shape.iter().product::<usize>())
            .map(|_| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (f64::from(state >> 8) / f64::from(1u32 << 24) - 0.5) as f32 * 0.2
            })
            .collect();
        Tensor { name, shape, data }
    };
    let mut tensors = Vec::new();
    for l in 0..3 {
        let input = if l == 0 { 40 } else { 256 };
        tensors.push(tensor(format!("lstm.weight_ih_l{l}"), vec![1024, input]));
        tensors.push(tensor(format!("lstm.weight_hh_l{l}"), vec![1024, 256]));
        tensors.push(tensor(format!("lstm.bias_ih_l{l}"), vec![1024]));
        tensors.push(tensor(format!("lstm.bias_hh_l{l}"), vec![1024]));
    }
    tensors.push(tensor("linear.weight".into(), vec![256, 256]));
    tensors.push(tensor("linear.bias".into(), vec![256]));
    std::fs::write(dir.path().join(name), write_safetensors(&tensors, &[]).unwrap()).unwrap();
}

/// A speaker model given on the command line runs the whole pipeline, deterministically, with
/// the options asked for, and the method says so; out-of-range options are refused by name.
#[test]
fn a_speaker_model_on_the_command_line_diarizes_with_the_options_given() {
    let dir = Dir::new();
    let v = voice();
    let gap = vec![0i16; 4_800];
    let quieter: Vec<i16> = v[..32_000].iter().map(|x| x / 2).collect();
    wav(&dir, "clip.wav", 1, 16_000, &[&v[..], &gap, &quieter].concat());
    synthetic_ge2e(&dir, "ge2e.safetensors");
    let model = ["--embedding-model", "ge2e.safetensors"];
    let detect = |out: &str, extra: &[&str]| {
        let args = [&["detect", "clip.wav", "-o", out][..], &model, extra].concat();
        let run = dir.run(&args);
        let rttm = dir.read(out);
        // Nothing on stderr but the note that one speaker was found, when it was.
        let one = turns(&rttm)
            .iter()
            .map(|t| t.0.clone())
            .collect::<std::collections::BTreeSet<_>>()
            .len()
            == 1;
        let note = "overtalk: note: clip: the diarizer found one speaker; if more people speak, \
                    `--num-speakers N` (or `--min-speakers 2`) makes it look for them \
                    (docs/diarization.md)\n";
        let want = if one && !args.contains(&"--num-speakers") { note } else { "" };
        assert_eq!((run.code(), run.stderr().as_str()), (0, want), "{args:?}");
        rttm
    };
    let a = detect("a.rttm", &["--overlap-margin", "0.05"]);
    assert!(!turns(&a).is_empty(), "{a}");
    assert_eq!(a, detect("b.rttm", &["--overlap-margin", "0.05"]), "deterministic");
    let flags = ["--overlap-margin", "0.05", "--max-speakers", "3"];
    // The model is named by its file name, not by where it sits on this machine.
    let absolute = dir.path().join("ge2e.safetensors").display().to_string();
    let model = ["--embedding-model", absolute.as_str()];
    let json =
        dir.run(&[&["analyze", "clip.wav", "--format", "json"][..], &model, &flags].concat());
    let v: serde_json::Value = serde_json::from_str(&json.ok()).unwrap();
    let method = v["conversations"][0]["detection"]["method"].as_str().unwrap();
    assert!(method.starts_with("ge2e (model ge2e.safetensors"), "{method}");
    assert!(method.contains("speakers 1..3; overlap margin 0.05;"), "{method}");
    // More speakers asked for than a 3-second clip can give: the count found is said.
    let run = dir.run(&[&["detect", "clip.wav", "--num-speakers", "40"][..], &model].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.stderr().contains(": 40 speakers asked for, "), "{}", run.stderr());
    for (flags, message) in [
        (
            &["--overlap-margin", "1.5"][..],
            "--overlap-margin 1.5: expected a cosine margin from 0 to 1",
        ),
        (&["--num-speakers", "0"], "--num-speakers/--min-speakers: expected at least 1"),
        (
            &["--min-speakers", "3", "--max-speakers", "2"],
            "--min-speakers 3 is larger than --max-speakers 2",
        ),
    ] {
        let run = dir.run(&[&["detect", "clip.wav"][..], &model, flags].concat());
        assert_ne!(run.code(), 0, "{flags:?}");
        assert!(run.stderr().contains(message), "{flags:?}: {}", run.stderr());
    }
    let run = dir.run(&["detect", "clip.wav", "--no-diarize", "--overlap-margin", "0.05"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
}

/// A report made from one recording links it, so every event can be played.
#[test]
fn a_report_from_a_recording_links_it() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    let both: Vec<i16> = a.iter().zip(&b).flat_map(|(x, y)| [*x, *y]).collect();
    wav(&dir, "call.wav", 2, 16_000, &both);
    dir.run(&["report", "call.wav", "--channels", "Host,Guest", "-o", "call.html"]).ok();
    assert!(dir.read("call.html").contains("call.wav"));
    dir.run(&["report", "call.wav", "--channels", "Host,Guest", "--embed-audio", "-o", "e.html"])
        .ok();
    assert!(dir.read("e.html").contains("data:audio/wav;base64,"));
}

/// Offsets of 0 move nothing and change neither `cut` nor the report's player; an offset that
/// moves a track moves it in the cut too (docs/cut.md, and `cut::tracks_of_separate_devices_…`).
#[test]
fn offsets_of_zero_leave_report_and_cut_as_without_them() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    let zero = ["--track-offset", "Host=0", "--track-offset", "Guest=-0"];
    let report = dir.run(&[&["report", "-o", "z.html"][..], &TRACKS, &zero].concat());
    assert_eq!(report.code(), 0, "{}", report.stderr());
    let plain = dir.run(&[&["report", "-o", "p.html"][..], &TRACKS].concat());
    assert_eq!(plain.code(), 0, "{}", plain.stderr());
    assert_eq!(dir.read("z.html").matches("<audio ").count(), 2);
    let players = |html: &str| -> Vec<String> {
        html.match_indices("<audio ")
            .map(|(i, _)| html[i..].split('>').next().unwrap().to_owned())
            .collect()
    };
    assert!(players(&dir.read("z.html")).iter().all(|p| !p.contains("data-offset")));
    assert_eq!(players(&dir.read("z.html")), players(&dir.read("p.html")));
    let cut = |name: &str, offsets: &[&str]| {
        let run = dir.run(
            &[
                &["cut", "--mute", "Host", "--max-length-diff", "1", "-o", name][..],
                &TRACKS,
                offsets,
            ]
            .concat(),
        );
        assert_eq!(run.code(), 0, "{}", run.stderr());
        std::fs::read(dir.path().join(name)).unwrap()
    };
    let zeroed = cut("z.wav", &zero);
    assert_eq!(zeroed, cut("p.wav", &[]));
    // Guest 0.5 s late: the session, and the muted cut that keeps its timing, 0.5 s longer.
    let moved = cut("m.wav", &["--track-offset", "Guest=0.5"]);
    assert_eq!(moved.len(), zeroed.len() + 8_000 * 4);
}

/// A report made from separate tracks plays them together: the longest track's player drives
/// the others (linked beside the report, or all embedded), each with a mute box.
#[test]
fn a_report_from_tracks_plays_them_together() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    // The guest's track is 1 s longer, so it is the transport.
    let mut b = b;
    b.extend(std::iter::repeat_n(0i16, 16_000));
    write_two_mics(&dir, &a, &b);
    dir.create("out/.keep", "");
    dir.run(&[&["report", "-o", "out/r.html"][..], &TRACKS].concat()).ok();
    let html = dir.read("out/r.html");
    let players: Vec<&str> = html.match_indices("<audio ").map(|(i, _)| &html[i..]).collect();
    assert_eq!(players.len(), 2, "{html}");
    assert!(
        players[0].starts_with(
            "<audio id=\"overtalk-audio\" controls preload=\"auto\" data-track=\"Guest\" src=\"../b.wav\">"
        ),
        "{}",
        &players[0][..120]
    );
    assert!(players[1].starts_with(
        "<audio class=\"overtalk-follower\" preload=\"auto\" data-track=\"Host\" src=\"../a.wav\">"
    ));
    assert!(html.contains("2 tracks played together (Guest, Host)"));
    assert_eq!(html.matches("class=\"overtalk-mute\"").count(), 2);
    assert!(html.contains("; media-src &#39;self&#39; file: blob:\""));

    dir.run(&[&["report", "--embed-audio", "-o", "e.html"][..], &TRACKS].concat()).ok();
    let html = dir.read("e.html");
    assert_eq!(html.matches("src=\"data:audio/wav;base64,").count(), 2);
    assert!(html.contains("; media-src data:\""));
    // An explicit --audio still names one recording.
    dir.run(&[&["report", "--audio", "a.wav", "-o", "one.html"][..], &TRACKS].concat()).ok();
    let html = dir.read("one.html");
    assert_eq!(html.matches("<audio ").count(), 1);
    assert!(!html.contains("class=\"overtalk-follower\""));
}

/// A report from tracks of separate devices plays each at its `--track-offset`: the track
/// that starts first on the timeline drives the others, and each player carries its offset,
/// exact, for the script (which plays timeline time t at the file's t − offset); linked or
/// embedded alike.
#[test]
fn a_report_from_tracks_with_offsets_plays_each_at_its_offset() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    let players = |html: &str| -> Vec<String> {
        html.match_indices("<audio ")
            .map(|(i, _)| html[i..].split("></audio>").next().unwrap().to_owned())
            .collect()
    };
    // Guest 0.5 s late: Host starts first and drives.
    let late = ["--track-offset", "Guest=0.5"];
    let run = dir.run(&[&["report", "-o", "late.html"][..], &TRACKS, &late].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(run.stderr(), "");
    let html = dir.read("late.html");
    assert_eq!(
        players(&html),
        [
            "<audio id=\"overtalk-audio\" controls preload=\"auto\" data-track=\"Host\" src=\"a.wav\"",
            "<audio class=\"overtalk-follower\" preload=\"auto\" data-track=\"Guest\" data-offset=\"0.500\" src=\"b.wav\""
        ]
    );
    assert!(html.contains("2 tracks played together (Host, Guest from +0.500 s)"), "{html}");
    assert!(html.contains("Each track plays from its offset on the timeline (--track-offset)"));
    // Host 1.25 s early and Guest 0.25 s late: Host (from 0, its first 1.25 s dropped) drives;
    // both embedded.
    let both = ["--track-offset", "Host=-1.25", "--track-offset", "Guest=0.25"];
    let run = dir.run(
        &[
            &["report", "--embed-audio", "--max-length-diff", "2", "-o", "both.html"][..],
            &TRACKS,
            &both,
        ]
        .concat(),
    );
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let html = dir.read("both.html");
    let tags: Vec<String> =
        players(&html).iter().map(|p| p.split(" src=").next().unwrap().to_owned()).collect();
    assert_eq!(
        tags,
        [
            "<audio id=\"overtalk-audio\" controls preload=\"auto\" data-track=\"Host\" data-offset=\"-1.250\"",
            "<audio class=\"overtalk-follower\" preload=\"auto\" data-track=\"Guest\" data-offset=\"0.250\""
        ]
    );
    assert_eq!(html.matches("src=\"data:audio/wav;base64,").count(), 2);
    // A track that starts before the others drives them, whatever the order given.
    let run = dir.run(&[
        "report",
        "-o",
        "first.html",
        "--track",
        "Guest=b.wav",
        "--track",
        "Host=a.wav",
        "--track-offset",
        "Host=0.5",
        "--max-length-diff",
        "2",
    ]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let html = dir.read("first.html");
    assert!(players(&html)[0].contains("data-track=\"Guest\" src=\"b.wav\""), "{html}");
    assert!(players(&html)[1].contains("data-track=\"Host\" data-offset=\"0.500\""));
}

/// An ONNX speaker model in a build without the `onnx` feature: a clear error saying how to
/// get a build that reads it, before any decoding.
#[cfg(not(feature = "onnx"))]
#[test]
fn an_onnx_speaker_model_needs_the_onnx_feature() {
    let dir = Dir::new();
    wav(&dir, "clip.wav", 1, 16_000, &speech());
    dir.create("speaker.onnx", "not read");
    let run = dir.run(&["detect", "clip.wav", "--embedding-model", "speaker.onnx"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(
        run.stderr()
            .contains("speaker.onnx: ONNX speaker models need a build with the `onnx` feature"),
        "{}",
        run.stderr()
    );
}

/// `score` takes recordings as the hypothesis: detection first, then the DER against the
/// reference, whose single recording id the detection takes.
#[test]
fn score_detects_the_hypothesis_from_tracks() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    let detected = detect_two_mics(&dir, &["--recording-id", "show"]).ok();
    dir.create("ref.rttm", &detected);
    let run = dir.run(&[&["score", "-r", "ref.rttm", "--format", "json"][..], &TRACKS].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    // What made the hypothesis is said, on stderr and in the HTML report.
    assert!(
        run.stderr().starts_with(
            "overtalk: hypothesis \"show\" detected from the recording: 2 tracks, one per speaker"
        ),
        "{}",
        run.stderr()
    );
    let json: serde_json::Value = serde_json::from_str(&run.stdout()).unwrap();
    assert_eq!(json["total"]["der"], 0.0, "{json}");
    let html =
        [&["score", "-q", "-r", "ref.rttm", "--format", "html", "-o", "s.html"][..], &TRACKS];
    let run = dir.run(&html.concat());
    assert_eq!((run.code(), run.stderr().as_str()), (0, ""));
    assert!(dir.read("s.html").contains("<p>Detected: show: 2 tracks, one per speaker"));
    assert_eq!(json["files"][0]["recording"], "show", "{json}");
    // A shifted reference gives a positive DER, from the same detection.
    let shifted: String = turns(&detected)
        .iter()
        .map(|(who, s, e)| {
            format!("SPEAKER show 1 {:.3} {:.3} <NA> <NA> {who} <NA> <NA>\n", s + 0.5, e - s)
        })
        .collect();
    dir.create("shifted.rttm", &shifted);
    let run =
        dir.run(&[&["score", "-r", "shifted.rttm", "--format", "json"][..], &TRACKS].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let json: serde_json::Value = serde_json::from_str(&run.stdout()).unwrap();
    assert!(json["total"]["der"].as_f64().unwrap() > 0.05, "{json}");
    // A recording given with -s works the same way, and --recording-id overrides the id.
    wav(&dir, "a_only.wav", 1, 16_000, &a);
    let run = dir.run(&["score", "-r", "ref.rttm", "-s", "a_only.wav", "--recording-id", "other"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.stdout().contains("other"), "{}", run.stdout());
    // --channels names the channels of exactly one recording.
    for args in [
        &["score", "-r", "ref.rttm", "--channels", "A,B", "--track", "Host=a.wav"][..],
        &["analyze", "a.wav", "b.wav", "--channels", "A,B"][..],
    ] {
        let run = dir.run(args);
        assert_eq!(run.code(), 2, "{}", run.stderr());
        assert_eq!(
            run.stderr(),
            "overtalk: error: --channels names the channels of one recording; give exactly one\n"
        );
    }
}

/// Without detector flags the command line detects exactly what the library's defaults do
/// (each stage keeps its own pause closing: 0.4 s for tracks).
#[test]
fn the_command_line_keeps_the_library_defaults() {
    use overtalk_audio::pipeline::{detect, DetectOptions, TrackSpec};
    let dir = Dir::new();
    let (a, b) = two_mics();
    // The host speaks twice with a 0.32 s pause between: closed at 0.4 s, kept at 0.25 s.
    let voice = voice();
    let mut a2 = a.clone();
    let again = 8_000 + voice.len() + 5_120;
    for (i, &v) in voice.iter().enumerate() {
        if let Some(x) = a2.get_mut(again + i) {
            *x = x.saturating_add(v);
        }
    }
    let a = a2;
    write_two_mics(&dir, &a, &b);
    let cli = detect_two_mics(&dir, &[]).ok();
    let spec = |name: &str, file: &str| TrackSpec::file(name.to_owned(), dir.path().join(file));
    let lib = detect(
        &[spec("Host", "a.wav"), spec("Guest", "b.wav")],
        &DetectOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    let ann = &lib.annotation;
    let mut expected: Vec<(String, f64, f64)> = ann
        .tracks()
        .iter()
        .map(|t| {
            let (s, e) = (t.segment.start().as_secs_f64(), t.segment.end().as_secs_f64());
            (ann.speaker_name(t.speaker).to_owned(), (s * 1000.0).round(), (e * 1000.0).round())
        })
        .collect();
    let mut got: Vec<(String, f64, f64)> = turns(&cli)
        .into_iter()
        .map(|(w, s, e)| (w, (s * 1000.0).round(), (e * 1000.0).round()))
        .collect();
    expected.sort_by(|x, y| x.partial_cmp(y).unwrap());
    got.sort_by(|x, y| x.partial_cmp(y).unwrap());
    assert_eq!(got, expected, "{cli}");
}

/// `--speakers` renames the speakers detected in recordings in `detect`, `analyze` and
/// `report`, as it renames the speakers of a transcript; a names file that renames nobody is
/// said so.
#[test]
fn speakers_file_renames_detected_speakers() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    dir.create("names.toml", "Host = \"Alice\"\n");
    let names = ["--speakers", "names.toml"];
    let rttm = detect_two_mics(&dir, &names).ok();
    let who: std::collections::BTreeSet<String> = turns(&rttm).into_iter().map(|t| t.0).collect();
    assert_eq!(who.into_iter().collect::<Vec<_>>(), ["Alice", "Guest"], "{rttm}");
    let run = dir.run(&[&["analyze", "--format", "json"][..], &TRACKS, &names].concat());
    let json: serde_json::Value = serde_json::from_str(&run.ok()).unwrap();
    let speakers: Vec<&str> = json["conversations"][0]["speakers"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(speakers, ["Alice", "Guest"]);
    assert_eq!(run.stderr(), "");
    dir.run(&[&["report", "-o", "r.html"][..], &TRACKS, &names].concat()).ok();
    let html = dir.read("r.html");
    assert!(html.contains("Alice") && !html.contains("\"Host\""), "report keeps the old name");

    dir.create("other.toml", "SPEAKER_07 = \"Bob\"\n");
    let run = detect_two_mics(&dir, &["--speakers", "other.toml"]);
    assert_eq!(run.code(), 0);
    assert_eq!(
        run.stderr(),
        "overtalk: warning: other.toml: renames no speaker of the inputs (it names \
         \"SPEAKER_07\"; the inputs have \"Guest\", \"Host\")\n"
    );
    let run = dir.run(&[&["analyze"][..], &TRACKS, &["--speakers", "other.toml"]].concat());
    assert!(run.stderr().contains("other.toml: renames no speaker"), "{}", run.stderr());
}

/// A directory's recordings are analysed with its transcripts, and a quoted glob of recordings
/// is expanded (not opened as a file named `*.wav`).
#[test]
fn analyze_takes_the_recordings_of_a_directory_and_of_a_glob() {
    let dir = Dir::new();
    dir.create("rec/notes.rttm", "SPEAKER notes 1 0.000 1.000 <NA> <NA> A <NA> <NA>\n");
    wav(&dir, "rec/call.wav", 1, 16_000, &speech());
    let run = dir.run(&["analyze", "rec", "--no-diarize", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&run.ok()).unwrap();
    let ids: Vec<&str> = json["conversations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["recording"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["call", "notes"]);
    assert!(json["conversations"][0]["detection"]["method"].is_string());

    let run = dir.run(&["analyze", "rec/*.wav", "--no-diarize", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&run.ok()).unwrap();
    assert_eq!(json["conversations"][0]["recording"], "call");

    let run = dir.run(&["analyze", "rec/*.flac"]);
    assert_eq!(run.code(), 2);
    assert_eq!(run.stderr(), "overtalk: error: rec/*.flac: the pattern matches no files\n");
}

/// A recording given to a command that reads only transcripts says what it is and which
/// commands take it, whatever its name, instead of a text decoding error.
#[test]
fn a_recording_given_to_info_convert_or_validate_is_named_as_one() {
    let dir = Dir::new();
    wav(&dir, "a.wav", 1, 16_000, &[0; 160]);
    wav(&dir, "a.dat", 1, 16_000, &[0; 160]);
    let says = "a.wav: this is a recording (WAV), not a transcript or diarization; `overtalk \
                analyze`, `report` and `detect` take recordings (and `score -s` as the hypothesis)";
    for args in
        [&["info", "a.wav"][..], &["convert", "a.wav", "-o", "a.rttm"], &["validate", "a.wav"]]
    {
        let run = dir.run(args);
        assert_eq!(
            (run.code(), run.stderr()),
            (2, format!("overtalk: error: {says}\n")),
            "{args:?}"
        );
    }
    let run = dir.run(&["info", "a.dat"]);
    assert!(run.stderr().contains("a.dat: this is a recording (WAV)"), "{}", run.stderr());
    assert!(run.stderr().contains("rename it to .wav"), "{}", run.stderr());
    let bytes = std::fs::read(dir.path().join("a.wav")).unwrap();
    let run = dir.run_bytes(&["validate", "-"], &bytes);
    assert!(run.stderr().contains("<stdin>: this is a recording (WAV)"), "{}", run.stderr());
    assert!(!dir.path().join("a.rttm").exists());
}

/// A recording in a format the decoder does not read (a phone's AMR file, Windows Media) is
/// named as one with the way out, by its first bytes, whatever its name: to the commands that
/// read transcripts, to `analyze` (which takes it for a transcript by its extension), and to
/// `detect`.
#[test]
fn a_recording_in_a_format_without_a_decoder_is_named_with_the_way_out() {
    let dir = Dir::new();
    let mut amr = b"#!AMR\n".to_vec();
    amr.extend((0..2000u32).map(|i| (i * 7919 % 251) as u8));
    std::fs::write(dir.path().join("call.amr"), &amr).unwrap();
    let says = "overtalk: error: call.amr: this is a recording in the AMR format, not a \
                transcript or diarization; `overtalk analyze`, `report` and `detect` take \
                recordings, but not in this format: convert it first: ffmpeg -i 'call.amr' -ac 1 \
                -ar 16000 'call.wav'\n";
    for args in [&["analyze", "call.amr"][..], &["info", "call.amr"], &["validate", "call.amr"]] {
        let run = dir.run(args);
        assert_eq!((run.code(), run.stderr()), (2, says.to_owned()), "{args:?}");
    }
    let run = dir.run_bytes(&["validate", "-"], &amr);
    assert!(
        run.stderr().contains("<stdin>: this is a recording in the AMR format"),
        "{}",
        run.stderr()
    );
    std::fs::write(dir.path().join("call.wav"), &amr).unwrap();
    let run = dir.run(&["detect", "call.wav", "--no-diarize"]);
    assert_eq!(run.code(), 2);
    assert!(
        run.stderr().ends_with(
            "call.wav: unsupported: the file is in the AMR format, which this decoder does not \
             read; convert it first: ffmpeg -i 'call.wav' -ac 1 -ar 16000 'call.pcm.wav'\n"
        ),
        "{}",
        run.stderr()
    );
}

/// A recording with one audio track per microphone (as OBS writes it): without a flag the
/// default track is read with a warning that names the others and the flag; `--audio-tracks`
/// reads each as a speaker's own track (`_` skips one), and refuses what it cannot place.
#[test]
fn audio_tracks_of_one_file_are_speakers_of_their_own() {
    let dir = Dir::new();
    let fixture =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../overtalk-audio/tests/data/speech.2tracks.mkv");
    std::fs::copy(fixture, dir.path().join("show.mkv")).unwrap();
    let run = dir.run(&["detect", "show.mkv", "--audio-tracks", "Host,Guest"]);
    assert_eq!(
        (run.code(), run.stdout(), run.stderr()),
        (
            0,
            "SPEAKER show 1 0.980 3.210 <NA> <NA> Host <NA> <NA>\n\
             SPEAKER show 1 4.980 3.210 <NA> <NA> Guest <NA> <NA>\n"
                .to_owned(),
            String::new()
        )
    );
    let run = dir.run(&["detect", "show.mkv", "--audio-tracks", "_,Guest"]);
    assert_eq!(
        (run.stdout(), run.stderr()),
        ("SPEAKER show 1 5.008 3.248 <NA> <NA> Guest <NA> <NA>\n".to_owned(), String::new())
    );
    // Fewer names than tracks: the others are said to be unread.
    let run = dir.run(&["detect", "show.mkv", "--audio-tracks", "Host"]);
    assert_eq!(
        (run.stdout(), run.stderr()),
        (
            "SPEAKER show 1 1.008 3.248 <NA> <NA> Host <NA> <NA>\n".to_owned(),
            "overtalk: warning: show.mkv: it holds 2 audio tracks and `--audio-tracks` names the \
             first 1; the other 1 was not read (name it too, or `_` to skip it)\n"
                .to_owned()
        )
    );
    // The channels of one track share its notes: each said once, the file named once.
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../overtalk-audio/tests/data/burst.stereo2tracks.mkv"
    );
    std::fs::copy(fixture, dir.path().join("tones.mkv")).unwrap();
    let run = dir.run(&["detect", "tones.mkv", "--channels", "L,R", "--vad", "energy"]);
    assert_eq!(
        run.stderr(),
        "overtalk: warning: tones.mkv: it holds 2 audio tracks and only its default one was read; \
         if each holds one microphone (as OBS records them), `--audio-tracks NAME,NAME` reads \
         each as a speaker's own track\n\
         overtalk: warning: tones.mkv: no speech found in 1.02 s of audio: the recording is \
         silent or below the detector's threshold, so the result has no speakers\n"
    );
    let run = dir.run(&["detect", "show.mkv", "--no-diarize"]);
    assert_eq!(
        (run.code(), run.stdout(), run.stderr()),
        (
            0,
            "SPEAKER show 1 1.008 3.248 <NA> <NA> show <NA> <NA>\n".to_owned(),
            "overtalk: warning: show.mkv: it holds 2 audio tracks and only its default one was \
             read; if each holds one microphone (as OBS records them), `--audio-tracks \
             NAME,NAME` reads each as a speaker's own track\n"
                .to_owned()
        )
    );
    // The analysis takes the same flag.
    let run = dir.run(&["analyze", "show.mkv", "--audio-tracks", "Host,Guest", "-q"]);
    assert!(run.stdout().contains("Host held the floor 55 %"), "{}", run.stdout());
    for (args, says) in [
        (
            &["detect", "show.mkv", "--audio-tracks", "A,B,C"][..],
            "overtalk: error: detecting speech: show.mkv: audio track 3 requested, but the \
             recording has 2 audio tracks\n",
        ),
        (
            &["detect", "show.mkv", "--audio-tracks", "A,B", "--channels", "A,B"],
            "overtalk: error: --audio-tracks and --channels each name one speaker per microphone \
             of one recording; give one of them\n",
        ),
        (
            &["detect", "--audio-tracks", "A,B", "--track", "A=show.mkv"],
            "overtalk: error: --audio-tracks names the audio tracks of one recording; it does not \
             go with --track\n",
        ),
        (
            &["detect", "show.mkv", "--audio-tracks", "_,_"],
            "overtalk: error: --audio-tracks names no speaker (every audio track is `_`)\n",
        ),
        (
            &["detect", "show.mkv", "--audio-tracks", "A,B", "--num-speakers", "2"],
            "overtalk: error: --diarize and --num-speakers apply to one mixed recording, not to \
             --track, --channels or --audio-tracks\n",
        ),
    ] {
        let run = dir.run(args);
        assert_eq!((run.code(), run.stderr()), (2, says.to_owned()), "{args:?}");
    }
}

/// Silence is said to be silence, not reported as a conversation of 0 speakers.
#[test]
fn a_silent_recording_says_no_speech_was_found() {
    let dir = Dir::new();
    wav(&dir, "quiet.wav", 1, 16_000, &vec![0; 32_000]);
    let warning = "overtalk: warning: quiet.wav: no speech found in 2.00 s of audio: the \
                   recording is silent or below the detector's threshold, so the result has no \
                   speakers\n";
    let run = dir.run(&["detect", "quiet.wav", "--no-diarize"]);
    assert_eq!((run.code(), run.stdout(), run.stderr()), (0, String::new(), warning.to_owned()));
    let run = dir.run(&["analyze", "quiet.wav", "--no-diarize"]);
    assert!(run.stderr().contains(warning), "{}", run.stderr());
    let first = run.stdout().lines().next().unwrap_or_default().to_owned();
    assert!(first.starts_with("quiet: no speech found in the recording, 0 speakers"), "{first}");
}

/// A cut of one mixed recording given as INPUT renders from that recording (no `--audio`).
#[test]
fn a_cut_of_a_recording_renders_from_the_recording() {
    let dir = Dir::new();
    let v = voice();
    wav(&dir, "clip.wav", 1, 16_000, &v);
    let models = dir.path().join("no-models");
    std::fs::create_dir_all(&models).unwrap();
    let env = [("OVERTALK_MODEL_DIR", models.as_path())];
    let run = dir.run_env(&["cut", "clip.wav", "--only", "SPK00", "-o", "spk.wav", "-q"], &env);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let out = std::fs::read(dir.path().join("spk.wav")).unwrap();
    assert!(out.starts_with(b"RIFF") && out.len() > 44 + 16_000, "{} bytes", out.len());
}

/// A participant whose track holds no speech is said to be left out, not dropped silently.
#[test]
fn a_silent_track_is_said_to_be_left_out() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    wav(&dir, "host.wav", 1, 16_000, &a);
    wav(&dir, "guest.wav", 1, 16_000, &b);
    wav(&dir, "third.wav", 1, 16_000, &vec![0; a.len()]);
    let tracks =
        ["--track", "Host=host.wav", "--track", "Guest=guest.wav", "--track", "Third=third.wav"];
    let run = dir.run(&[&["analyze"][..], &tracks].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(
        run.stderr().contains("overtalk: warning: no speech found for \"Third\" (silent, or below the detector's threshold): the analysis lists the speakers who spoke, without \"Third\"\n"),
        "{}",
        run.stderr()
    );
    assert!(run.stdout().contains("2 speakers"), "{}", run.stdout());
    let run = dir.run(&[&["analyze"][..], &tracks[..4]].concat());
    assert!(!run.stderr().contains("no speech found"), "{}", run.stderr());
}

/// One file per speaker makes a recording named by what the file names share, so `score`
/// finds it in a reference of many recordings.
#[test]
fn tracks_of_one_show_are_named_after_the_show() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    wav(&dir, "show-host.wav", 1, 16_000, &a);
    wav(&dir, "show-guest.wav", 1, 16_000, &b);
    let tracks = ["--track", "Host=show-host.wav", "--track", "Guest=show-guest.wav"];
    let rttm = dir.run(&[&["detect"][..], &tracks].concat()).ok();
    assert!(rttm.lines().all(|l| l.starts_with("SPEAKER show 1 ")), "{rttm}");
    let other = "SPEAKER other 1 0.000 2.000 <NA> <NA> X <NA> <NA>\n";
    dir.create("refs.rttm", &format!("{rttm}{other}"));
    let run =
        dir.run(&[&["score", "-r", "refs.rttm", "--format", "json", "-q"][..], &tracks].concat());
    let json: serde_json::Value = serde_json::from_str(&run.stdout()).unwrap();
    let show = json["files"].as_array().unwrap().iter().find(|f| f["recording"] == "show");
    assert_eq!(show.map(|f| f["der"].clone()), Some(serde_json::json!(0.0)), "{json}");
}

/// A 40 s mixed clip diarized one speaker per frame: overlap is not measurable, and the table,
/// the JSON diagnostics and the HTML report say so (the library's own note waits for 5 minutes
/// of speech); the HTML report also carries the accuracy note of machine-detected speakers.
#[test]
fn a_short_mixed_clip_says_overlap_was_not_measurable_everywhere() {
    let dir = Dir::new();
    let v = voice();
    let gap = vec![0i16; 4_800];
    let quieter: Vec<i16> = v.iter().map(|x| x / 2).collect();
    let mut clip = Vec::new();
    while clip.len() < 40 * 16_000 {
        clip.extend_from_slice(&v);
        clip.extend_from_slice(&gap);
        clip.extend_from_slice(&quieter);
        clip.extend_from_slice(&gap);
    }
    clip.truncate(40 * 16_000);
    wav(&dir, "clip.wav", 1, 16_000, &clip);
    synthetic_ge2e(&dir, "ge2e.safetensors");
    let model = ["--embedding-model", "ge2e.safetensors", "--num-speakers", "2"];
    let note = "overlap not measurable: the speakers were detected by diarizing one mixed track";
    let table = dir.run(&[&["analyze", "clip.wav"][..], &model].concat()).ok();
    assert!(table.contains(note), "{table}");
    let json = dir.run(&[&["analyze", "clip.wav", "--format", "json"][..], &model].concat()).ok();
    let all: serde_json::Value = serde_json::from_str(&json).unwrap();
    let first = all["conversations"][0]["diagnostics"]["warnings"][0].as_str().unwrap_or_default();
    assert!(first.starts_with(note), "{json}");
    // The summary says so too, and states no overlap or interruption count.
    let summary = &all["conversations"][0]["summary"];
    let keys: Vec<&str> =
        summary.as_array().unwrap().iter().filter_map(|s| s["key"].as_str()).collect();
    assert!(keys.contains(&"not_measurable_one_track"), "{summary}");
    assert!(!keys.iter().any(|k| ["overlap", "interruptions", "pair"].contains(k)), "{summary}");
    assert!(
        table.contains(
            "Overlap could not be measured: the speakers were found by diarizing one mixed track"
        ),
        "{table}"
    );
    dir.run(&[&["report", "clip.wav", "-o", "r.html"][..], &model].concat()).ok();
    let html = dir.read("r.html");
    assert!(html.contains(note), "no overlap note in the report");
    assert!(html.contains("accuracy: these speakers were detected by machine"), "no accuracy note");
    // The headlines state no overlap figure.
    let unmeasured = "overlap not measurable (one speaker per frame)";
    // Speech is all but the eleven 0.3 s gaps of digital silence between the sentences.
    assert!(table.starts_with("clip: 2 speakers, span 39.95 s, speech 36.97 s, "), "{table}");
    assert!(table.lines().next().is_some_and(|l| l.ends_with(unmeasured)), "{table}");
    assert!(html.contains(&format!(" · {unmeasured} · ")), "no headline note in the report");
    // The interval counts say which they cannot give.
    let md = dir.run(&[&["analyze", "clip.wav", "--format", "md"][..], &model].concat()).ok();
    let he = md.lines().find(|l| l.starts_with("- acoustic H&E: ")).unwrap_or_default();
    assert!(
        he.contains(", overlaps between not measurable, overlaps within not measurable, "),
        "{he}"
    );
    assert!(
        he.ends_with("; the overlaps' share of between-speaker intervals not measurable"),
        "{he}"
    );
    // One speaker found (one voice, the loud part of the clip): the same notes, whatever the
    // count, and a hint that the count is the diarizer's estimate.
    wav(&dir, "solo.wav", 1, 16_000, &[&v[..], &gap, &v, &gap, &v].concat());
    let one = dir.run(&["analyze", "solo.wav", "--embedding-model", "ge2e.safetensors"]);
    assert_eq!(one.code(), 0, "{}", one.stderr());
    let first = one.stdout().lines().next().unwrap_or_default().to_owned();
    assert!(first.starts_with("solo: 1 speaker, ") && first.ends_with(unmeasured), "{first}");
    assert!(one.stdout().contains(note), "{}", one.stdout());
    assert!(one.stderr().contains("solo: the diarizer found one speaker"), "{}", one.stderr());
    // Two tracks, one per speaker, measure overlap: no such note.
    wav(&dir, "a.wav", 1, 16_000, &clip);
    wav(&dir, "b.wav", 1, 16_000, &vec![0i16; clip.len()]);
    let tracks = dir.run(&["analyze", "--track", "A=a.wav", "--track", "B=b.wav"]).ok();
    assert!(!tracks.contains("overlap not measurable"), "{tracks}");
}

/// A two-channel call given without `--channels` gets a note suggesting it; the same speech on
/// both channels (a plain stereo mix) does not.
#[test]
fn a_call_on_two_channels_without_channels_gets_a_note() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    let call: Vec<i16> = a.iter().zip(&b).flat_map(|(x, y)| [*x, *y]).collect();
    wav(&dir, "call.wav", 2, 16_000, &call);
    let run = dir.run(&["detect", "call.wav", "--no-diarize"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.stderr().contains("call.wav: its 2 channels differ"), "{}", run.stderr());
    assert!(run.stderr().contains("`--channels NAME,NAME`"), "{}", run.stderr());
    let mix: Vec<i16> =
        a.iter().zip(&b).flat_map(|(x, y)| [x / 2 + y / 2, x / 2 + y / 2]).collect();
    wav(&dir, "mix.wav", 2, 16_000, &mix);
    let run = dir.run(&["detect", "mix.wav", "--no-diarize"]);
    assert!(!run.stderr().contains("channels differ"), "{}", run.stderr());
    let run = dir.run(&["detect", "call.wav", "--channels", "Host,Guest"]);
    assert!(!run.stderr().contains("channels differ"), "{}", run.stderr());
    // Given as one speaker's track, alone or beside another, the call gets the note too,
    // naming the track whose speaker both channels are mixed into; the plain mix does not.
    wav(&dir, "guest.wav", 1, 16_000, &b);
    for args in [
        &["detect", "--track", "Host=call.wav"][..],
        &["detect", "--track", "Host=call.wav", "--track", "Guest=guest.wav"][..],
    ] {
        let run = dir.run(args);
        assert_eq!(run.code(), 0, "{}", run.stderr());
        let note = "overtalk: note: call.wav (--track Host): its 2 channels differ";
        assert!(run.stderr().contains(note), "{}", run.stderr());
        assert!(
            run.stderr().contains("mixed down into the one speaker \"Host\""),
            "{}",
            run.stderr()
        );
    }
    let run = dir.run(&["detect", "--track", "Host=mix.wav", "--track", "Guest=guest.wav"]);
    assert!(!run.stderr().contains("channels differ"), "{}", run.stderr());
    let run = dir.run(&["detect", "--track", "Host=call.wav", "-q"]);
    assert!(!run.stderr().contains("channels differ"), "{}", run.stderr());
}

/// A recording cut short (an interrupted download) is read as far as it goes, with a warning
/// naming the file and how much of the declared length was read; `--strict` refuses it.
#[test]
fn a_truncated_recording_is_read_with_a_warning_and_refused_under_strict() {
    let dir = Dir::new();
    wav(&dir, "cut.wav", 1, 16_000, &speech());
    let path = dir.path().join("cut.wav");
    let bytes = std::fs::read(&path).unwrap();
    // The header and the first 2 s of samples.
    std::fs::write(&path, &bytes[..44 + 2 * 32_000]).unwrap();
    let run = dir.run(&["detect", "--no-diarize", "cut.wav"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(
        run.stderr(),
        "overtalk: warning: cut.wav: the file is truncated: 2.000 s of audio read of the 5.169 s \
         its header declares; the rest is missing (--strict refuses it)\n"
    );
    let run = dir.run(&["detect", "--no-diarize", "--strict", "cut.wav"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert_eq!(
        run.stderr(),
        "overtalk: error: detecting speech: cut.wav: the file is truncated: the audio stops at \
         2.000 s\n"
    );
    // The analysis carries the note beside its numbers (JSON diagnostics, the report's
    // warnings), and stderr says it once.
    let note = "recording: cut.wav: the file is truncated: 2.000 s of audio read of the 5.169 s \
                its header declares; the rest is missing (--strict refuses it)";
    let run = dir.run(&["analyze", "--no-diarize", "cut.wav", "--format", "json"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let json: serde_json::Value = serde_json::from_str(&run.stdout()).unwrap();
    let warnings = &json["conversations"][0]["diagnostics"]["warnings"];
    let warnings: Vec<&str> =
        warnings.as_array().unwrap().iter().filter_map(|w| w.as_str()).collect();
    assert!(warnings.contains(&note), "{warnings:?}");
    assert_eq!(run.stderr().matches("the file is truncated").count(), 1, "{}", run.stderr());
    let run = dir.run(&["report", "--no-diarize", "cut.wav", "-o", "cut.html"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(dir
        .read("cut.html")
        .contains("<li>recording: cut.wav: the file is truncated: 2.000 s"));
}

/// The mics of [`two_mics`] as one recorder wrote them ([`write_two_mics`]), and as separate
/// devices did: `host-dev.wav` with 1 s more in front (its recorder started 1 s before the
/// common zero), `guest-dev.wav` without the first 0.25 s (started 0.25 s after it).
pub(crate) fn write_separate_devices(dir: &Dir) {
    let (a, b) = two_mics();
    // What the late device never heard: silence on Guest's mic (Host starts at 0.5 s).
    assert!(b[..4_000].iter().all(|&v| v == 0));
    write_two_mics(dir, &a, &b);
    let early: Vec<i16> = voice()[..16_000].iter().chain(&a).copied().collect();
    wav(dir, "host-dev.wav", 1, 16_000, &early);
    wav(dir, "guest-dev.wav", 1, 16_000, &b[4_000..]);
}

/// Recordings of separate devices: Host's started 1 s before the common zero (its file has
/// 1 s more in front), Guest's 0.25 s after it (its file lacks the first 0.25 s). With
/// `--track-offset` they find what the two mics of one recorder find, on the same timeline.
#[test]
fn track_offsets_put_the_files_of_separate_devices_on_one_timeline() {
    let dir = Dir::new();
    write_separate_devices(&dir);
    let one = detect_two_mics(&dir, &["--recording-id", "show", "-o", "one.rttm"]);
    assert_eq!(one.code(), 0, "{}", one.stderr());
    let devices = ["--track", "Host=host-dev.wav", "--track", "Guest=guest-dev.wav"];
    let offsets = ["--track-offset", "Host=-1", "--track-offset", "Guest=0.25"];
    let run = |extra: &[&str]| {
        dir.run(&[&["detect"][..], &devices, extra, &["--recording-id", "show"]].concat())
    };
    let shifted = run(&[&offsets[..], &["-o", "two.rttm"]].concat());
    assert_eq!(shifted.code(), 0, "{}", shifted.stderr());
    assert_eq!(dir.read("two.rttm"), dir.read("one.rttm"));
    assert_eq!(turns(&dir.read("two.rttm")).len(), 2, "{}", dir.read("two.rttm"));
    // Without the offsets the files are 1.25 s apart in length: refused.
    let plain = run(&["-o", "three.rttm"]);
    assert_eq!(plain.code(), 2);
    assert_eq!(
        plain.stderr(),
        "overtalk: error: detecting speech: tracks have different lengths: Host (host-dev.wav) \
         lasts 10.000 s, Guest (guest-dev.wav) lasts 8.750 s; they must cover the same stretch \
         of time (tolerance 1.000 s, --max-length-diff)\n"
    );
    // Each track's own transcript is on its file's timeline: moved by its offset too. Host's
    // first word lies before the common zero (dropped with its audio); the others land in
    // their speaker's speech.
    dir.create(
        "host.json",
        &crate::words::whisper_of(&[("before", 200, 400), ("hello", 1700, 2000)]),
    );
    dir.create("guest.json", &crate::words::whisper_of(&[("hi", 3950, 4350)]));
    let words = ["--track-words", "Host=host.json", "--track-words", "Guest=guest.json"];
    let laid = run(&[&offsets[..], &words, &["--to", "webvtt", "-o", "-"]].concat());
    assert_eq!(laid.code(), 0, "{}", laid.stderr());
    assert_eq!(
        laid.stdout(),
        "WEBVTT\n\n00:00:00.490 --> 00:00:03.680\n<v Host><00:00:00.700>hello</v>\n\n\
         00:00:04.000 --> 00:00:07.180\n<v Guest><00:00:04.200>hi</v>\n"
    );
    assert_eq!(
        laid.stderr().lines().next(),
        Some(
            "overtalk: note: host.json (--track-words Host): 1 of 2 words lie before the common \
             start (--track-offset Host=-1.000) and are dropped with that audio"
        )
    );
    // The file's count holds the words before the common start, and the note says where
    // the missing one went.
    assert!(
        laid.stderr().contains(
            "overtalk: note: host.json: 1 words laid on \"Host\" of show: 1 in their speech, 0 \
             within 0.5 s of it, 0 dropped (0 as bleed); 1 before the common start, dropped with \
             that audio\n"
        ),
        "{}",
        laid.stderr()
    );
}

#[test]
fn track_offsets_that_name_no_track_or_no_number_are_refused() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    let refused = |args: &[&str]| {
        let run = detect_two_mics(&dir, args);
        assert_eq!(run.code(), 2, "{}", run.stderr());
        run.stderr()
    };
    assert_eq!(
        refused(&["--track-offset", "Hots=1"]),
        "overtalk: error: --track-offset Hots=1: \"Hots\" is not a --track name (the tracks are \
         \"Host\", \"Guest\")\n"
    );
    assert_eq!(
        refused(&["--track-offset", "Host"]),
        "overtalk: error: --track-offset \"Host\": expected NAME=TIME\n"
    );
    assert_eq!(
        refused(&["--track-offset", "Host=soon"]),
        "overtalk: error: --track-offset Host=soon: \"soon\" is no time: give seconds \
         (`62.5`, `62.5s`), milliseconds (`500ms`), m:ss or h:mm:ss (`1:02.5`, `1:02:03.5`)\n"
    );
    for v in ["inf", "NaN", "-inf"] {
        assert_eq!(
            refused(&["--track-offset", &format!("Host={v}")]),
            format!(
                "overtalk: error: --track-offset Host={v}: {v:?} is no time: give seconds \
                 (`62.5`, `62.5s`), milliseconds (`500ms`), m:ss or h:mm:ss (`1:02.5`, \
                 `1:02:03.5`)\n"
            )
        );
    }
    for v in ["1e10", "-360000001", "1e300"] {
        assert_eq!(
            refused(&["--track-offset", &format!("Host={v}")]),
            format!(
                "overtalk: error: --track-offset Host={v}: {v:?}: too large (a time is at most \
                 100000 hours)\n"
            )
        );
    }
    assert_eq!(
        refused(&["--track-offset", "Host=1", "--track-offset", "Host=2"]),
        "overtalk: error: --track-offset Host=…: the offset of \"Host\" is given twice\n"
    );
    assert_eq!(
        refused(&["--track-offset", "Guest=-9"]),
        "overtalk: error: detecting speech: b.wav: the offset -9.000 s of \"Guest\" puts the \
         whole of its recording (9.000 s) before the common start of the tracks\n"
    );
    let run = dir.run(&["detect", "a.wav", "--channels", "A", "--track-offset", "A=1"]);
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: --track-offset places a --track file on the common timeline; give the \
         tracks with --track NAME=FILE (the channels of one recording share its clock)\n"
    );
}

/// One speaker on two microphones: one name for both tracks is refused with the way to do it,
/// and that way (two names renamed to one by `--speakers`) gives one speaker.
#[test]
fn one_name_for_two_tracks_says_how_to_give_one_speaker_two_microphones() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    let run = dir.run(&["detect", "--track", "Host=a.wav", "--track", "Host=b.wav"]);
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: --track Host=…: the name \"Host\" is given to two tracks; each \
         microphone takes a name of its own (a speaker on two microphones: two names, such as \
         Host-1 and Host-2, and a --speakers file that renames both to \"Host\", so the \
         detection keeps the microphones apart and the analysis counts them as one speaker)\n"
    );
    dir.create("names.toml", "[speakers]\nHost-1 = \"Host\"\nHost-2 = \"Host\"\n");
    let tracks = ["--track", "Host-1=a.wav", "--track", "Host-2=b.wav"];
    let run =
        dir.run(&[&["detect"][..], &tracks, &["--speakers", "names.toml", "-o", "-"]].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let speakers: std::collections::BTreeSet<String> =
        turns(&run.stdout()).into_iter().map(|t| t.0).collect();
    assert_eq!(speakers.into_iter().collect::<Vec<_>>(), ["Host"]);
    // One speaker's words are laid once: a transcript for each of the two microphones is
    // refused with the reason.
    dir.create("w.json", &crate::words::whisper_of(&[("hello", 600, 900)]));
    let words = ["--track-words", "Host-1=w.json", "--track-words", "Host-2=w.json"];
    let run = dir.run(
        &[&["detect"][..], &tracks, &["--speakers", "names.toml", "-o", "-"], &words].concat(),
    );
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr().lines().last(),
        Some(
            "overtalk: error: --track-words Host-1= and --track-words Host-2=: both tracks are \
             the speaker \"Host\" after --speakers, and a speaker's words are laid once (the \
             microphones of one speaker hear the same words); give the transcript of one of them"
        )
    );
    let one = ["--track-words", "Host-1=w.json", "--to", "webvtt"];
    let run = dir
        .run(&[&["detect"][..], &tracks, &["--speakers", "names.toml", "-o", "-"], &one].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.stdout().contains("<v Host><00:00:00.600>hello</v>"), "{}", run.stdout());
}

/// Held chords ([`overtalk_testkit::chords`]), `seconds` long at 16 kHz.
pub(crate) fn chords(seconds: usize) -> Vec<i16> {
    let x = overtalk_testkit::chords(seconds * 16_000);
    x.into_iter().map(|v| (v * 0.05 * 32_767.0) as i16).collect()
}

/// Music taken for a speaker of a mixed recording is named in a warning, on stderr and in the
/// analysis's warnings, and kept; speech is not.
#[test]
fn music_taken_for_a_speaker_is_named_in_a_warning() {
    let dir = Dir::new();
    wav(&dir, "jingle.wav", 1, 16_000, &chords(12));
    let mut talk = Vec::new();
    while talk.len() < 12 * 16_000 {
        talk.extend_from_slice(&voice());
        talk.extend(std::iter::repeat_n(0i16, 4_800));
    }
    wav(&dir, "talk.wav", 1, 16_000, &talk);
    let models = dir.path().join("no-models");
    std::fs::create_dir_all(&models).unwrap();
    let env = [("OVERTALK_MODEL_DIR", models.as_path())];
    let run = dir.run_env(&["detect", "jingle.wav", "-o", "jingle.rttm"], &env);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let warning = "overtalk: warning: jingle.wav: speaker SPK00 (12.0 s) sounds like music, not a \
                   voice: 100 % of it holds its level and its partials with no pauses between \
                   syllables, 0 % has a steady beat (an intro, a jingle or a music bed taken for \
                   a speaker?); it is kept, and `--ignore-label SPK00` (or the name \
                   `--speakers` gives it) leaves it out of the analysis\n";
    assert!(run.stderr().contains(warning), "{}", run.stderr());
    assert_eq!(turns(&dir.read("jingle.rttm")).len(), 1, "kept");
    let json = dir.run_env(&["analyze", "jingle.wav", "--format", "json", "-q"], &env).ok();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let warnings = v["conversations"][0]["diagnostics"]["warnings"].to_string();
    assert!(warnings.contains("speaker SPK00 (12.0 s) sounds like music"), "{warnings}");
    let run = dir.run_env(&["detect", "talk.wav", "-o", "talk.rttm"], &env);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(!run.stderr().contains("music"), "{}", run.stderr());
    assert!(!turns(&dir.read("talk.rttm")).is_empty());
}

/// Plucked notes: a decaying tone every 400 ms (150 beats a minute), silent between,
/// `seconds` long.
pub(crate) fn plucks(seconds: usize) -> Vec<i16> {
    (0..seconds * 16_000)
        .map(|i| {
            let (k, n) = (i / 6_400, i % 6_400);
            let f = [262.0, 330.0, 392.0, 523.0][k % 4];
            let t = n as f32 / 16_000.0;
            let v = 0.25 * (-t * 12.0).exp() * (2.0 * std::f32::consts::PI * f * t).sin();
            (v * 32_767.0) as i16
        })
        .collect()
}

/// A speaker's own track that is music (a jingle on a track of its own), and a recording
/// detected without diarizing that is music (a bed), are named in a warning with the flag that
/// leaves them out, and kept: on stderr, in the JSON's warnings and in the HTML report's. The
/// voices' tracks are not named.
#[test]
fn music_on_a_track_of_its_own_is_named_in_a_warning() {
    let dir = Dir::new();
    let (a, b) = two_mics();
    write_two_mics(&dir, &a, &b);
    wav(&dir, "jingle.wav", 1, 16_000, &plucks(9));
    wav(&dir, "bed.wav", 1, 16_000, &chords(12));
    let tracks = ["--track", "Host=a.wav", "--track", "Jingle=jingle.wav"];
    let run = dir.run(&[&["detect"][..], &tracks, &["-o", "j.rttm"]].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let warning = "overtalk: warning: jingle.wav: track Jingle (9.0 s of speech) sounds like \
                   music, not a voice: 0 % of it holds its level and its partials with no pauses \
                   between syllables, 100 % has a steady beat (a music bed, a jingle or a music \
                   channel on a track of its own?); it is kept as a speaker talking, and \
                   `--ignore-label Jingle` (or the name `--speakers` gives it) leaves it out of \
                   the analysis\n";
    assert_eq!(run.stderr(), warning);
    assert!(turns(&dir.read("j.rttm")).iter().any(|t| t.0 == "Jingle"), "kept");
    let json = dir.run(&[&["analyze"][..], &tracks, &["--format", "json", "-q"]].concat()).ok();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let warnings = &v["conversations"][0]["diagnostics"]["warnings"];
    assert_eq!(warnings.as_array().map(Vec::len), Some(1), "{warnings}");
    // Prefixed by the recording's id, as every warning of the JSON is.
    let text = warning.strip_prefix("overtalk: warning: ").map(str::trim_end).unwrap();
    assert_eq!(warnings[0].as_str(), Some(format!("recording: {text}").as_str()));
    let html = dir.run(&[&["report"][..], &tracks, &["-o", "j.html", "-q"]].concat());
    assert_eq!(html.code(), 0, "{}", html.stderr());
    assert!(dir.read("j.html").contains("track Jingle ("), "{}", dir.read("j.html"));
    // Leaving it out as the warning says.
    let json = dir
        .run(
            &[&["analyze"][..], &tracks, &["--ignore-label", "Jingle", "--format", "json", "-q"]]
                .concat(),
        )
        .ok();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let speakers = v["conversations"][0]["speakers"].as_object().unwrap();
    assert_eq!(speakers.keys().collect::<Vec<_>>(), ["Host"], "{json}");
    // One recording detected without diarizing: the bed under the recording's name.
    let run = dir.run(&["detect", "bed.wav", "--no-diarize", "-o", "bed.rttm"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(
        run.stderr(),
        "overtalk: warning: bed.wav: track bed (12.0 s of speech) sounds like music, not a voice: \
         100 % of it holds its level and its partials with no pauses between syllables, 0 % has \
         a steady beat (a music bed, a jingle or a music channel on a track of its own?); it is \
         kept as a speaker talking\n"
    );
    // Voices: neither the two mics nor one of them alone is named.
    let run = dir.run(&[&["detect"][..], &TRACKS, &["-o", "v.rttm"]].concat());
    assert_eq!((run.code(), run.stderr()), (0, String::new()));
    let run = dir.run(&["detect", "a.wav", "--no-diarize", "-o", "a.rttm"]);
    assert_eq!((run.code(), run.stderr()), (0, String::new()));
    assert!(!turns(&dir.read("a.rttm")).is_empty());
}

//! Multitrack detection on conversations built here from the speech clip: bleed with delay,
//! unequal levels, noise, a cough on one microphone, a silent track; and on the real AMI
//! ES2004a headset excerpt (shared data).

// Helpers outside `#[test]` functions unwrap too: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use crate::frame_score::score;
use overtalk::format::{read_path, ReadOptions};
use overtalk::{Annotation, AnnotationBuilder, Delta, Segment};
use overtalk_audio::decode::{decode_all, DecodeOptions};
use overtalk_audio::multitrack::{LostBecause, TrackWarning};
use overtalk_audio::pipeline::{detect, DetectOptions, TrackSpec};

const RATE: usize = 16_000;

/// The clip's speech (without its silent padding).
fn voice() -> Vec<f32> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/speech.wav");
    let (_, ch) = decode_all(&path, &DecodeOptions::default()).unwrap();
    let x = &ch[0];
    let first = x.iter().position(|v| *v != 0.0).unwrap();
    let last = x.iter().rposition(|v| *v != 0.0).unwrap() + 1;
    x[first..last].to_vec()
}

/// A second and third voice: the clip played faster (higher pitch) and slower (lower).
fn varispeed(x: &[f32], factor: f64) -> Vec<f32> {
    let n = (x.len() as f64 / factor) as usize;
    (0..n)
        .map(|i| {
            let p = i as f64 * factor;
            let k = p as usize;
            let f = (p - k as f64) as f32;
            x[k] * (1.0 - f) + x.get(k + 1).copied().unwrap_or(0.0) * f
        })
        .collect()
}

fn noise(n: usize, rms: f32, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0) * rms * 3f32.sqrt()
        })
        .collect()
}

fn db(x: f32) -> f32 {
    10f32.powf(x / 20.0)
}

pub(crate) struct Conversation {
    pub(crate) mics: Vec<Vec<f32>>,
    pub(crate) reference: Annotation,
    pub(crate) names: Vec<&'static str>,
}

/// Speakers take turns with overlaps; each mic hears its speaker at `levels_db` and every other
/// speaker `bleed_db` lower, 3 ms later, plus noise at −55 dBFS.
pub(crate) fn conversation(
    bleed_db: f32,
    levels_db: &[f32],
    silent_track: bool,
    cough: bool,
) -> Conversation {
    conversation_in_room(bleed_db, levels_db, silent_track, cough, false)
}

/// A room: the direct path plus an exponentially decaying tail of echoes every 0.5 ms
/// (reverberation time about 0.3 s), unit energy; sparse so the tests stay fast.
fn room_response() -> Vec<(usize, f32)> {
    let n = RATE * 3 / 10;
    let step = 8;
    let signs = noise(n / step, 1.0, 4242);
    let mut h: Vec<(usize, f32)> = vec![(0, 1.0)];
    for (m, x) in signs.iter().enumerate().skip(1) {
        let t = m * step;
        h.push((t, x * 0.8 * (-6.9 * t as f32 / n as f32).exp()));
    }
    let e = h.iter().map(|(_, v)| v * v).sum::<f32>().sqrt();
    h.iter_mut().for_each(|(_, v)| *v /= e);
    h
}

fn convolve(x: &[f32], h: &[(usize, f32)]) -> Vec<f32> {
    let mut y = vec![0.0f32; x.len()];
    for &(k, g) in h {
        for (o, &v) in y[k..].iter_mut().zip(x) {
            *o += v * g;
        }
    }
    y
}

/// [`conversation`], optionally with the bleed passed through a reverberant room.
fn conversation_in_room(
    bleed_db: f32,
    levels_db: &[f32],
    silent_track: bool,
    cough: bool,
    reverb: bool,
) -> Conversation {
    let v = voice();
    let voices = [v.clone(), varispeed(&v, 1.25), varispeed(&v, 0.85)];
    let names = ["A", "B", "C", "D"];
    let k = levels_db.len();
    // (speaker, start in seconds): overlaps at 2.5 s (A/B), 9.0 s (C/A) and 14.5 s (B/C).
    let turns: &[(usize, f64)] = &[(0, 0.5), (1, 2.5), (2, 6.0), (0, 9.0), (1, 13.0), (2, 14.5)];
    let len = 20 * RATE;
    let mut own = vec![vec![0.0f32; len]; k];
    let mut b = overtalk::AnnotationBuilder::new();
    for n in names.iter().take(k) {
        b.speaker(n);
    }
    for &(spk, start) in turns {
        if spk >= k || (silent_track && spk == k - 1) {
            continue;
        }
        let s = (start * RATE as f64) as usize;
        let voice = &voices[spk % 3];
        for (i, &x) in voice.iter().enumerate() {
            own[spk][s + i] += x * db(levels_db[spk]);
        }
        let seg = Segment::from_micros(
            (s * 1_000_000 / RATE) as i64,
            ((s + voice.len()) * 1_000_000 / RATE) as i64,
        )
        .unwrap();
        b.add(seg, names[spk]);
    }
    let delay = 48;
    let far: Vec<Vec<f32>> = if reverb {
        let h = room_response();
        own.iter().map(|x| convolve(x, &h)).collect()
    } else {
        own.clone()
    };
    let mut mics = Vec::with_capacity(k);
    for i in 0..k {
        let mut m = noise(len, db(-55.0), i as u64 + 1);
        for (j, src) in own.iter().enumerate() {
            let src = if i == j { src } else { &far[j] };
            let g = if i == j { 1.0 } else { db(bleed_db) };
            let d = if i == j { 0 } else { delay };
            for t in d..len {
                m[t] += g * src[t - d];
            }
        }
        mics.push(m);
    }
    if cough {
        // A cough: 150 ms of loud noise on B's mic only, at 18 s, while nobody speaks.
        let burst = noise(2400, 0.2, 99);
        for (t, x) in burst.iter().enumerate() {
            let env = (std::f32::consts::PI * t as f32 / 2400.0).sin();
            mics[1][18 * RATE + t] += x * env;
        }
    }
    Conversation { mics, reference: b.build(), names: names[..k].to_vec() }
}

fn write_mono(path: &Path, x: &[f32]) {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: RATE as u32,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(path, spec).unwrap();
    for &s in x {
        w.write_sample((s.clamp(-1.0, 1.0) * 32767.0) as i16).unwrap();
    }
    w.finalize().unwrap();
}

pub(crate) fn run(c: &Conversation, dir: &Path) -> overtalk_audio::Detection {
    run_with(c, dir, &DetectOptions::default())
}

fn run_with(c: &Conversation, dir: &Path, options: &DetectOptions) -> overtalk_audio::Detection {
    let specs: Vec<TrackSpec> = c
        .names
        .iter()
        .zip(&c.mics)
        .map(|(n, m)| {
            let path = dir.join(format!("{n}.wav"));
            write_mono(&path, m);
            TrackSpec::file(*n, path)
        })
        .collect();
    detect(&specs, options, &mut |_| {}).unwrap()
}

#[test]
fn a_quiet_speaker_talking_over_louder_bleed_is_heard() {
    // B is 12 dB quieter than A and each mic hears the other 6 dB down: on B's mic, A's bleed
    // is 6 dB louder than B's own voice. B talks over A at 2.5 s and at 13 s.
    let dir = tempfile::tempdir().unwrap();
    let c = conversation(-6.0, &[0.0, -12.0], false, false);
    let found = run(&c, dir.path());
    let s = score(&c.reference, &found.annotation, found.duration, Delta::ZERO);
    let mut broadband = DetectOptions::default();
    broadband.multitrack.bands = false;
    let old = run_with(&c, dir.path(), &broadband);
    let o = score(&c.reference, &old.annotation, old.duration, Delta::ZERO);
    println!(
        "bands: DER {:.4} overlap R {:.3} P {:.3}; broadband: DER {:.4} overlap R {:.3} P {:.3}",
        s.der(),
        s.overlap_recall(),
        s.overlap_precision(),
        o.der(),
        o.overlap_recall(),
        o.overlap_precision()
    );
    assert!(s.der() < 0.05, "DER {}", s.der());
    assert!(s.overlap_recall() > 0.9 && s.overlap_precision() > 0.9, "{s:?}");
    assert!(s.overlap_recall() > o.overlap_recall(), "{s:?} {o:?}");
}

#[test]
fn three_speakers_with_strong_bleed_and_unequal_levels() {
    let dir = tempfile::tempdir().unwrap();
    let c = conversation(-10.0, &[0.0, -6.0, -12.0], false, false);
    let found = run(&c, dir.path());
    let s = score(&c.reference, &found.annotation, found.duration, Delta::ZERO);
    let s25 = score(&c.reference, &found.annotation, found.duration, Delta::from_micros(250_000));
    println!(
        "DER {:.4} (c0.25 {:.4}) overlap R {:.3} P {:.3}",
        s.der(),
        s25.der(),
        s.overlap_recall(),
        s.overlap_precision()
    );
    assert!(s.der() < 0.10, "DER {}", s.der());
    assert!(s25.der() < 0.05, "DER at collar 0.25 {}", s25.der());
    assert!(s.overlap_recall() > 0.8 && s.overlap_precision() > 0.8, "{s:?}");
    // Synthetic voices on their own tracks, under strong bleed: none is taken for music.
    assert_eq!(found.music, []);
    // The couplings were estimated from the recording: 10 dB of bleed, within 1.5 dB, also
    // those of the quietest speaker, who never stands 20 dB above the noise.
    let report = found.multitrack.unwrap();
    for (i, row) in report.coupling_db.iter().enumerate() {
        for (j, c) in row.iter().enumerate() {
            if i != j {
                let c = c.unwrap_or_else(|| panic!("c[{i}][{j}] not estimated"));
                assert!((c + 10.0).abs() < 1.5, "c[{i}][{j}] = {c}");
            }
        }
    }
}

#[test]
fn a_silent_track_stays_silent_and_a_cough_is_not_speech() {
    let dir = tempfile::tempdir().unwrap();
    let c = conversation(-15.0, &[0.0, 0.0, -3.0], true, true);
    let found = run(&c, dir.path());
    let ann = &found.annotation;
    let c_id = ann.speakers().get("C").unwrap();
    // Bleed-only: a few word onsets of the loudest speaker may slip through, nothing more.
    assert!(
        ann.speaker_region(c_id).duration() < Delta::from_micros(500_000),
        "{:?}",
        ann.speaker_region(c_id)
    );
    let b_id = ann.speakers().get("B").unwrap();
    let cough = Segment::from_micros(17_900_000, 18_300_000).unwrap();
    assert_eq!(ann.speaker_region(b_id).crop_segment(cough).duration(), Delta::ZERO);
    let s = score(&c.reference, ann, found.duration, Delta::ZERO);
    assert!(s.der() < 0.10, "DER {}", s.der());
}

#[test]
fn one_multichannel_file_gives_the_same_result_as_separate_files() {
    let dir = tempfile::tempdir().unwrap();
    let c = conversation(-12.0, &[0.0, -6.0], false, false);
    let separate = run(&c, dir.path());
    let path = dir.path().join("both.wav");
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate: RATE as u32,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(&path, spec).unwrap();
    for t in 0..c.mics[0].len() {
        for m in &c.mics {
            w.write_sample((m[t].clamp(-1.0, 1.0) * 32767.0) as i16).unwrap();
        }
    }
    w.finalize().unwrap();
    let specs = [
        TrackSpec {
            name: "A".into(),
            path: path.clone(),
            channel: Some(0),
            audio_track: None,
            offset: overtalk::Delta::ZERO,
        },
        TrackSpec {
            name: "B".into(),
            path: path.clone(),
            channel: Some(1),
            audio_track: None,
            offset: overtalk::Delta::ZERO,
        },
    ];
    let joint = detect(&specs, &DetectOptions::default(), &mut |_| {}).unwrap();
    assert_eq!(joint.annotation, separate.annotation);
    let bad = [TrackSpec {
        name: "C".into(),
        path,
        channel: Some(2),
        audio_track: None,
        offset: overtalk::Delta::ZERO,
    }];
    let e = detect(&bad, &DetectOptions::default(), &mut |_| {}).unwrap_err();
    assert!(
        e.to_string().contains("channel 3 requested for \"C\", but the recording has 2 channels"),
        "{e}"
    );
}

#[test]
fn ami_es2004a_headsets_against_the_word_reference() {
    let Some(data) =
        overtalk_testkit::shared_data("ami_es2004a_headsets_against_the_word_reference")
    else {
        return;
    };
    let dir = data.join("real-audio/ami-es2004a-multitrack");
    let specs: Vec<TrackSpec> = overtalk_testkit::ami_es2004a_headsets(&dir)
        .into_iter()
        .map(|(name, path)| TrackSpec::file(name, path))
        .collect();
    let found = detect(&specs, &DetectOptions::default(), &mut |_| {}).unwrap();
    let read = read_path(&dir.join("mixture.ref.rttm"), None, &ReadOptions::default()).unwrap();
    let reference = read.corpus.get("mixture").unwrap().annotation().clone();
    assert_eq!(found.duration, Delta::from_micros(60_000_000));
    let s0 = score(&reference, &found.annotation, found.duration, Delta::ZERO);
    let s25 = score(&reference, &found.annotation, found.duration, Delta::from_micros(250_000));
    println!("AMI ES2004a 750-810 s: DER collar 0 {:.4}, collar 0.25 {:.4}", s0.der(), s25.der());
    assert!(s0.der() < 0.19 && s25.der() < 0.13, "{}", s25.der());
    // Four voices on their own headsets: none is taken for music.
    assert_eq!(found.music, []);
    // The confident bar is never above the fixed one; three of the four wideband headsets keep
    // it (the quiet one gets less, with the same DER as under the fixed bar).
    let bars = &found.multitrack.as_ref().unwrap().vad_peak;
    assert!(
        bars.iter().all(|&b| b <= 0.85) && bars.iter().filter(|&&b| b == 0.85).count() == 3,
        "{bars:?}"
    );
}

/// `x` at 16 kHz brought to 8 kHz, as a telephone line carries it: a windowed-sinc low-pass
/// at 3.6 kHz (127 taps, Blackman), then every second sample.
fn to_8khz(x: &[f32]) -> Vec<f32> {
    const TAPS: usize = 127;
    let fc = 3600.0 / 16_000.0;
    let mid = (TAPS / 2) as f32;
    let h: Vec<f32> = (0..TAPS)
        .map(|i| {
            let t = i as f32 - mid;
            let sinc = if t == 0.0 {
                2.0 * fc
            } else {
                (2.0 * std::f32::consts::PI * fc * t).sin() / (std::f32::consts::PI * t)
            };
            let w = 0.42 - 0.5 * (2.0 * std::f32::consts::PI * i as f32 / (TAPS - 1) as f32).cos()
                + 0.08 * (4.0 * std::f32::consts::PI * i as f32 / (TAPS - 1) as f32).cos();
            sinc * w
        })
        .collect();
    (0..x.len() / 2)
        .map(|k| {
            let n = 2 * k;
            h.iter()
                .enumerate()
                .filter_map(|(i, c)| {
                    (n + TAPS / 2).checked_sub(i).and_then(|j| x.get(j)).map(|v| v * c)
                })
                .sum()
        })
        .collect()
}

/// The same headsets carried at 8 kHz (a telephone bridge): the voice activity detector is
/// less sure of narrowband speech (its 90th percentile on each speaker's clear speech is about
/// 0.90, not 0.95), so a fixed confident bar of 0.85 dropped short turns and backchannels
/// (DER 24.1 % at collar 0, 15.8 % at 0.25 s with sox's resampling; overlap recall 0.22). The
/// bar follows the detector's confidence on each track (`MultitrackOptions::vad_peak_share`):
/// 16.7 % and 10.5 % (17.2 % and 11.8 % with this test's own low-pass), against 15.1 % and
/// 10.1 % at 16 kHz.
#[test]
fn ami_es2004a_headsets_at_8_khz() {
    let Some(data) = overtalk_testkit::shared_data("ami_es2004a_headsets_at_8_khz") else {
        return;
    };
    let dir = data.join("real-audio/ami-es2004a-multitrack");
    let out = tempfile::tempdir().unwrap();
    let specs: Vec<TrackSpec> = overtalk_testkit::ami_es2004a_headsets(&dir)
        .into_iter()
        .map(|(name, path)| {
            let (info, channels) = decode_all(&path, &DecodeOptions::default()).unwrap();
            assert_eq!(info.sample_rate, 16_000);
            let narrow = to_8khz(&channels[0]);
            let to = out.path().join(format!("{name}.wav"));
            let spec = hound::WavSpec {
                channels: 1,
                sample_rate: 8_000,
                bits_per_sample: 16,
                sample_format: hound::SampleFormat::Int,
            };
            let mut w = hound::WavWriter::create(&to, spec).unwrap();
            for &v in &narrow {
                w.write_sample((v.clamp(-1.0, 1.0) * 32767.0).round() as i16).unwrap();
            }
            w.finalize().unwrap();
            TrackSpec::file(name, to)
        })
        .collect();
    let found = detect(&specs, &DetectOptions::default(), &mut |_| {}).unwrap();
    let read = read_path(&dir.join("mixture.ref.rttm"), None, &ReadOptions::default()).unwrap();
    let reference = read.corpus.get("mixture").unwrap().annotation().clone();
    let s0 = score(&reference, &found.annotation, found.duration, Delta::ZERO);
    let s25 = score(&reference, &found.annotation, found.duration, Delta::from_micros(250_000));
    println!("AMI ES2004a at 8 kHz: DER collar 0 {:.4}, collar 0.25 {:.4}", s0.der(), s25.der());
    let bars = &found.multitrack.as_ref().unwrap().vad_peak;
    println!("confident bars: {bars:?}");
    assert!(bars.iter().all(|&b| (0.75..0.85).contains(&b)), "{bars:?}");
    assert!(s0.der() < 0.19 && s25.der() < 0.13, "{} {}", s0.der(), s25.der());
}

#[test]
fn reverberant_bleed_is_rejected() {
    // The bleed reaches each mic through a room (0.3 s reverberation), not as a clean copy.
    let dir = tempfile::tempdir().unwrap();
    let c = conversation_in_room(-12.0, &[0.0, -6.0, -3.0], false, false, true);
    let found = run(&c, dir.path());
    let s = score(&c.reference, &found.annotation, found.duration, Delta::ZERO);
    println!("reverberant: DER {:.4} FA {} miss {}", s.der(), s.fa, s.miss);
    // A harsh room (direct-to-reverberant ratio about −15 dB). Without the bleed-decay rule the
    // reverberation tails are taken for the listeners' speech: false alarm of 83 % of the speech.
    assert!(s.der() < 0.12, "DER {}", s.der());
    assert!((s.fa as f64) < 0.10 * s.total as f64, "{s:?}");
}

#[test]
fn a_gain_change_mid_recording_is_survived() {
    // Someone turns B's microphone up by 8 dB at 10 s: B's own voice and the bleed it picks up
    // both rise, so the couplings of the first and second half differ.
    let dir = tempfile::tempdir().unwrap();
    let mut c = conversation(-12.0, &[0.0, -6.0, -3.0], false, false);
    for v in c.mics[1][10 * RATE..].iter_mut() {
        *v *= db(8.0);
    }
    let found = run(&c, dir.path());
    let s = score(&c.reference, &found.annotation, found.duration, Delta::ZERO);
    println!("gain change: DER {:.4} FA {} miss {}", s.der(), s.fa, s.miss);
    assert!(s.der() < 0.12, "DER {}", s.der());
}

#[test]
fn band_energies_moved_to_a_temporary_file_give_the_same_detection() {
    use overtalk_audio::features::{TrackAnalyzer, TrackFeatures, BAND_CHUNK_FRAMES};
    use overtalk_audio::frames::BANDS;
    use overtalk_audio::multitrack::{self, MultitrackOptions};
    // Five repeats of a 20 s two-speaker conversation: about 2.4 chunks of 10 ms frames, so the
    // store writes whole chunks while the audio streams in and the last part at the end.
    let c = conversation(-6.0, &[0.0, -12.0], false, false);
    let analyse = |spill: Option<usize>| -> Vec<TrackFeatures> {
        c.names
            .iter()
            .zip(&c.mics)
            .map(|(n, m)| {
                let mut a = TrackAnalyzer::new(n, RATE as u32, None).unwrap();
                if let Some(bytes) = spill {
                    a.set_band_spill(bytes);
                }
                for _ in 0..5 {
                    for piece in m.chunks(1234) {
                        a.push(piece.iter().copied()).unwrap();
                    }
                }
                a.finish().unwrap()
            })
            .collect()
    };
    let in_ram = analyse(None);
    let on_disk = analyse(Some(0));
    let frames = in_ram[0].frames();
    assert_eq!(frames, 5 * c.mics[0].len() / 160);
    assert!(frames > 2 * BAND_CHUNK_FRAMES && frames < 3 * BAND_CHUNK_FRAMES, "{frames}");
    for (a, b) in in_ram.iter().zip(&on_disk) {
        assert!(!a.bands.is_spilled() && b.bands.is_spilled());
        assert_eq!(a.bands.frames(), b.bands.frames());
        assert_eq!(a.energy_cdb, b.energy_cdb);
        let (mut ra, mut rb) = (a.bands.reader(), b.bands.reader());
        for t in 0..frames {
            ra.load(t).unwrap();
            rb.load(t).unwrap();
            assert_eq!(ra.frame(t).len(), BANDS);
            assert_eq!(ra.frame(t), rb.frame(t), "frame {t}");
        }
        // Out of order: back to the first chunk after the last.
        rb.load(0).unwrap();
        ra.load(0).unwrap();
        assert_eq!(ra.frame(0), rb.frame(0));
        assert!(rb.frame(frames).is_empty());
    }
    let options = MultitrackOptions::default();
    let (want, _) = multitrack::detect(&in_ram, &options).unwrap();
    let (got, _) = multitrack::detect(&on_disk, &options).unwrap();
    assert_eq!(got, want);
    let a = want.speakers().get("A").unwrap();
    assert!(want.speaker_region(a).duration() > Delta::from_micros(10_000_000));
}

/// Sum of equal tones at `hz` (phases from a fixed seed), `rms` overall, under a raised-cosine
/// envelope with `ramp` samples of fade at each end, syllables at 4 Hz when `syllables`.
fn tones(len: usize, hz: &[f32], rms: f32, ramp: usize, syllables: bool) -> Vec<f32> {
    let phases = noise(hz.len(), 3.0, 7);
    let g = rms * (2.0 / hz.len() as f32).sqrt();
    (0..len)
        .map(|t| {
            let edge = (t.min(len - 1 - t) as f32 / ramp.max(1) as f32).min(1.0);
            let mut env = (std::f32::consts::FRAC_PI_2 * edge).sin().powi(2);
            if syllables {
                env *=
                    0.55 - 0.45 * (2.0 * std::f32::consts::PI * 4.0 * t as f32 / RATE as f32).cos();
            }
            let v: f32 = hz
                .iter()
                .zip(&phases)
                .map(|(f, p)| (2.0 * std::f32::consts::PI * f * t as f32 / RATE as f32 + p).sin())
                .sum();
            v * g * env
        })
        .collect()
}

#[test]
fn a_recording_repeated_gives_the_same_estimates_and_detection_in_every_copy() {
    use overtalk_audio::features::{TrackAnalyzer, TrackFeatures};
    use overtalk_audio::frames::BANDS;
    use overtalk_audio::multitrack::{self, MultitrackOptions};
    // 20 s, two mics, each hearing the other 6 dB down 3 ms later, noise at −55 dBFS. A speaks
    // (the clip) at 0.5 s and 16 s; B talks from 4 s to 15.5 s with a low voice (tones below
    // 1.5 kHz), so B's own voice never reaches the bands above 5 kHz. Once, at 10.1 s, A hisses
    // for 60 ms (tones at 5–7.4 kHz) while B still dominates: for those few frames the top bands
    // of A's mic are 6 dB above B's mic, the opposite of bleed.
    //
    //   A   ▇▇▇▇▇▇▇                  ▇▇▇▇▇▇▇
    //   B            ████████████████           (4 copies: 80 s)
    //                      ^ hiss
    //
    // A fixed 20-frame acceptance estimated those bands' couplings from these frames alone once
    // the recording was repeated 4 times (4 × 6 frames): +6 dB instead of −6, so A's hiss-like
    // sounds passed for B's own voice and B got false alarms inside A's turns, in every copy.
    // One copy (6 frames) fell back to the broadband coupling.
    let len = 20 * RATE;
    let v = voice();
    let mut own = vec![vec![0.0f32; len]; 2];
    for start in [RATE / 2, 16 * RATE] {
        for (o, x) in own[0][start..].iter_mut().zip(&v) {
            *o += x;
        }
    }
    let low: Vec<f32> = (0..8).map(|m| 180.0 + 170.0 * m as f32).collect();
    let b = tones(23 * RATE / 2, &low, db(-22.0), 800, true);
    for (o, x) in own[1][4 * RATE..].iter_mut().zip(&b) {
        *o += x;
    }
    // At a loud syllable of B (the 4 Hz envelope peaks 125 ms after each quarter second).
    let high: Vec<f32> = (0..13).map(|m| 5000.0 + 200.0 * m as f32).collect();
    let hiss = tones(960, &high, db(-30.0), 160, false);
    for (o, x) in own[0][10 * RATE + 1520..].iter_mut().zip(&hiss) {
        *o += x;
    }
    let mics: Vec<Vec<f32>> = (0..2)
        .map(|i| {
            let mut m = noise(len, db(-55.0), i as u64 + 1);
            for (j, src) in own.iter().enumerate() {
                let (g, d) = if i == j { (1.0, 0) } else { (db(-6.0), 48) };
                for t in d..len {
                    m[t] += g * src[t - d];
                }
            }
            m
        })
        .collect();
    let analyse = |copies: usize| -> Vec<TrackFeatures> {
        ["A", "B"]
            .iter()
            .zip(&mics)
            .map(|(n, m)| {
                let mut a = TrackAnalyzer::new(n, RATE as u32, None).unwrap();
                for _ in 0..copies {
                    a.push(m.iter().copied()).unwrap();
                }
                a.finish().unwrap()
            })
            .collect()
    };
    let copies = 4;
    let (one, many) = (analyse(1), analyse(copies));
    // Each copy of the repeated recording is detected as the recording alone.
    let same_in_every_copy = |one: &[overtalk::Region], many: &[overtalk::Region]| {
        let copy = 20_000_000i64;
        for (i, (a, b)) in one.iter().zip(many).enumerate() {
            let want: Vec<(i64, i64)> =
                a.iter().map(|s| (s.start().micros(), s.end().micros())).collect();
            assert!(!want.is_empty());
            for c in 0..copies as i64 {
                let part = Segment::from_micros(copy * c, copy * (c + 1)).unwrap();
                let got: Vec<(i64, i64)> = b
                    .crop_segment(part)
                    .iter()
                    .map(|s| (s.start().micros() - copy * c, s.end().micros() - copy * c))
                    .collect();
                assert_eq!(got, want, "track {i}, copy {c}");
            }
        }
    };
    let options = MultitrackOptions::default();
    let (regions_one, report_one) = multitrack::detect_regions(&one, &options).unwrap();
    let (regions_many, report_many) = multitrack::detect_regions(&many, &options).unwrap();
    same_in_every_copy(&regions_one, &regions_many);
    // B speaks 11.5 s; A's hiss is 0.06 s.
    let b_speech = regions_one[1].duration();
    assert!(
        b_speech > Delta::from_micros(11_000_000) && b_speech < Delta::from_micros(12_000_000),
        "{b_speech:?}"
    );
    // B's bleed on A in the hiss bands: the broadband coupling, with one copy and with four.
    let broadband = report_one.coupling_db[0][1].unwrap();
    assert_eq!(broadband, -6.0);
    for report in [&report_one, &report_many] {
        assert_eq!(report.band_coupling_db[0][1].len(), BANDS);
        assert_eq!(report.band_coupling_db[0][1][20..], [broadband; BANDS - 20]);
    }
    // Once every speaker dominates enough frames for the share, not the 20-frame minimum, to
    // decide (here 5 % of a 20 s recording, as 1 % from 20 s of each speaker dominating), every
    // estimate is the same for the recording and for the recording repeated.
    let options = MultitrackOptions { coupling_min_share: 0.05, ..MultitrackOptions::default() };
    let (regions_one, report_one) = multitrack::detect_regions(&one, &options).unwrap();
    let (regions_many, report_many) = multitrack::detect_regions(&many, &options).unwrap();
    assert_eq!(report_many, report_one);
    same_in_every_copy(&regions_one, &regions_many);
}

/// Two clean one-mic-per-speaker tracks, no bleed: each voice placed on exact digital silence
/// (or on noise at `noise_dbfs`), with 2.35 s of overlap in all (the espeak-ng reproducer of silent tracks, with the
/// test clip instead of espeak-ng). The reference is each clip's extent.
fn clean_tracks(noise_dbfs: Option<f32>) -> Conversation {
    let a = voice();
    let b = varispeed(&a, 1.25);
    let n = 14 * RATE;
    let mut b_ = AnnotationBuilder::new();
    let mut mics = Vec::new();
    for (k, (name, clip, starts)) in
        [("Host", &a, [0.5, 7.0]), ("Guest", &b, [3.0, 8.5])].into_iter().enumerate()
    {
        let mut m = match noise_dbfs {
            Some(d) => noise(n, db(d), 11 + k as u64),
            None => vec![0.0; n],
        };
        let id = b_.speaker(name);
        for s in starts {
            let at = (s * RATE as f64) as usize;
            for (o, v) in m[at..].iter_mut().zip(clip.iter()) {
                *o += v;
            }
            let seg = Segment::from_micros(
                (at * 1_000_000 / RATE) as i64,
                ((at + clip.len()) * 1_000_000 / RATE) as i64,
            )
            .unwrap();
            b_.push(seg, id);
        }
        mics.push(m);
    }
    Conversation { mics, reference: b_.build(), names: vec!["Host", "Guest"] }
}

#[test]
fn clean_tracks_on_digital_silence_give_both_speakers_and_their_overlap() {
    // Before the floor skipped digital silence and the bleed-alone quantile skipped the
    // listener's own speech, this gave no speaker at all (digital zero) or lost one (−90 dBFS).
    for noise_dbfs in [None, Some(-70.0)] {
        let dir = tempfile::tempdir().unwrap();
        let c = clean_tracks(noise_dbfs);
        let found = run(&c, dir.path());
        let ann = &found.annotation;
        for name in ["Host", "Guest"] {
            let id = ann.speakers().get(name).unwrap();
            let got = ann.speaker_region(id).duration();
            let want = c.reference.speaker_region(c.reference.speakers().get(name).unwrap());
            assert!(
                (got.micros() - want.duration().micros()).abs() < 250_000,
                "{noise_dbfs:?} {name}: {got} of {}",
                want.duration()
            );
        }
        let truth = c.reference.overlap().duration();
        assert!(truth > Delta::from_micros(2_000_000), "{truth}");
        let overlap = ann.overlap().duration();
        assert!(
            (overlap.micros() - truth.micros()).abs() < 100_000,
            "{noise_dbfs:?}: overlap {overlap}"
        );
        let s = score(&c.reference, ann, found.duration, Delta::ZERO);
        assert!(s.der() < 0.02, "{noise_dbfs:?}: DER {}", s.der());
    }
}

#[test]
fn a_shorter_track_is_silent_after_its_end_and_the_others_are_not_cut() {
    // Host's track stops at 10.5 s (accepted with a tolerance of 4 s), 0.5 s before Guest's
    // last words end (11.04 s): Guest's speech is analysed to the end of the longest track.
    let dir = tempfile::tempdir().unwrap();
    let mut c = clean_tracks(None);
    c.mics[0].truncate(RATE * 21 / 2);
    let options = DetectOptions {
        max_length_diff: Delta::from_micros(4_000_000),
        ..DetectOptions::default()
    };
    let found = run_with(&c, dir.path(), &options);
    assert_eq!(found.duration, Delta::from_micros(14_000_000));
    let ann = &found.annotation;
    let guest = ann.speaker_region(ann.speakers().get("Guest").unwrap());
    let want = c.reference.speaker_region(c.reference.speakers().get("Guest").unwrap());
    assert!(guest.duration() >= want.duration(), "{} of {}", guest.duration(), want.duration());
    assert!(guest.iter().last().unwrap().end() >= want.iter().last().unwrap().end());
    assert!(found.multitrack.unwrap().warnings.is_empty());
}

#[test]
fn a_track_whose_speech_is_rejected_says_which_and_why() {
    // The same recording given twice: each track's speech is the other's bleed at 0 dB, so the
    // rule cannot give it to both; whichever track loses it says so.
    let dir = tempfile::tempdir().unwrap();
    let mut c = clean_tracks(Some(-70.0));
    c.mics[1] = c.mics[0].clone();
    let found = run(&c, dir.path());
    let ann = &found.annotation;
    let report = found.multitrack.unwrap();
    for name in ["Host", "Guest"] {
        let speech = ann.speaker_region(ann.speakers().get(name).unwrap()).duration();
        let warned =
            report.warnings.iter().any(|w| w.to_string().starts_with(&format!("track {name}:")));
        assert_eq!(
            speech < Delta::from_micros(1_500_000),
            warned,
            "{name}: {speech}; {:?}",
            report.warnings
        );
    }
    assert!(!report.warnings.is_empty(), "{:?}", ann.tracks());
    for w in &report.warnings {
        // The typed value says which track lost its speech to which one's bleed; the sentence
        // is made of the same figures.
        let TrackWarning::SpeechMostlyRejected { track, heard, kept, why } = w else {
            panic!("{w:?}")
        };
        let LostBecause::Bleed { seconds, louder, coupling_db } = why else { panic!("{w:?}") };
        let other = if track == "Host" { "Guest" } else { "Host" };
        assert_eq!(louder, other);
        assert!(kept * 4.0 < *heard && *seconds <= heard - kept, "{w:?}");
        let coupling = coupling_db.map_or_else(|| "unknown".to_owned(), |c| format!("{c:.0} dB"));
        assert_eq!(
            w.to_string(),
            format!(
                "track {track}: the voice detector hears {heard:.1} s of speech on it but only \
                 {kept:.1} s of it was kept as {track}'s speech: most of the rest ({seconds:.1} \
                 s) comes while {other} is louder and is taken for {other}'s bleed into this \
                 track (coupling {coupling}); if both tracks really carry this speech, they may \
                 share one microphone or be copies of one recording"
            )
        );
    }
    assert!(report.warnings.iter().all(|w| !w.to_string().contains("  ")), "{:?}", report.warnings);
}

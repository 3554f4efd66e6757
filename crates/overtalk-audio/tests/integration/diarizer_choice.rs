//! Which diarizer a request gets (`pipeline::build_diarizer`): the names, the checks of the
//! settings, the refusals in the order the command line gives them, and the fallback to voice
//! activity only, with its warning, when no speaker model is installed.

use overtalk_audio::diarize::models::ge2e_path;
use overtalk_audio::pipeline::{
    build_diarizer, DetectOptions, DiarizerChoice, DiarizerRefusal, DiarizerRequest,
    DiarizerWarning,
};
use overtalk_audio::vad::VadKind;

/// A request with its models looked for in `dir` (an empty folder: nothing is installed).
fn request(dir: &tempfile::TempDir) -> DiarizerRequest {
    DiarizerRequest { model_dir: Some(dir.path().to_path_buf()), ..DiarizerRequest::default() }
}

/// The refusal's sentence, or the diarizer's description when it is not refused.
fn refusal(r: &DiarizerRequest) -> String {
    match build_diarizer(r, &DetectOptions::default()) {
        Ok(chosen) => panic!("not refused: {chosen:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_diarizer_names_round_trip() {
    for c in DiarizerChoice::ALL {
        assert_eq!(c.name().parse::<DiarizerChoice>(), Ok(c));
        assert_eq!(c.to_string(), c.name());
    }
    assert_eq!(
        "vbx".parse::<DiarizerChoice>().unwrap_err().to_string(),
        "unknown diarizer \"vbx\" (known: pyannote, ge2e)"
    );
}

#[test]
fn no_speaker_model_falls_back_to_voice_activity_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let r = DiarizerRequest { vad_chosen: true, ..request(&dir) };
    let options = DetectOptions { vad: Some(VadKind::Energy), ..DetectOptions::default() };
    let chosen = build_diarizer(&r, &options).unwrap();
    assert_eq!(
        chosen.diarizer.describe(),
        "vad-only fallback (energy; one speaker; no speaker model)"
    );
    let path = ge2e_path(dir.path());
    assert_eq!(chosen.warnings, [DiarizerWarning::NoSpeakerModel { path: path.clone() }]);
    assert_eq!(
        chosen.warnings[0].to_string(),
        format!(
            "no speaker model at {} (run `overtalk models install`); falling back to voice \
             activity only: all speech is one speaker",
            path.display()
        )
    );
    // Naming GE2E changes nothing: it is what the fallback stands in for.
    let ge2e = DiarizerRequest { choice: Some(DiarizerChoice::Ge2e), ..r };
    assert_eq!(build_diarizer(&ge2e, &options).unwrap().warnings.len(), 1);
}

#[test]
fn settings_are_checked_before_the_diarizer_is_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let pyannote = DiarizerRequest { choice: Some(DiarizerChoice::Pyannote), ..request(&dir) };
    let cases = [
        (
            DiarizerRequest { num_speakers: Some(0), ..pyannote.clone() },
            "--num-speakers/--min-speakers: expected at least 1",
        ),
        (
            DiarizerRequest { min_speakers: Some(0), ..request(&dir) },
            "--num-speakers/--min-speakers: expected at least 1",
        ),
        (
            DiarizerRequest { min_speakers: Some(5), max_speakers: Some(3), ..request(&dir) },
            "--min-speakers 5 is larger than --max-speakers 3",
        ),
        (
            DiarizerRequest { num_speakers: Some(2), max_speakers: Some(3), ..request(&dir) },
            "--num-speakers goes with neither --min-speakers nor --max-speakers",
        ),
        (
            DiarizerRequest { overlap_margin: Some(1.5), ..pyannote.clone() },
            "--overlap-margin 1.5: expected a cosine margin from 0 to 1",
        ),
        (
            DiarizerRequest { num_speakers: Some(2), ..pyannote.clone() },
            "--diarizer pyannote takes none of --vad, --vad-model, --num-speakers, \
             --min-speakers, --max-speakers, --embedding-model, --overlap-margin (speakrs finds \
             speech, overlap and the number of speakers itself); they apply to --diarizer ge2e",
        ),
        (
            DiarizerRequest { vad_chosen: true, ..pyannote.clone() },
            "--diarizer pyannote takes none of --vad, --vad-model, --num-speakers, \
             --min-speakers, --max-speakers, --embedding-model, --overlap-margin (speakrs finds \
             speech, overlap and the number of speakers itself); they apply to --diarizer ge2e",
        ),
    ];
    for (r, want) in cases {
        assert_eq!(refusal(&r), want, "{r:?}");
    }
}

#[test]
fn a_missing_embedding_model_is_the_loading_error_itself() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("absent.safetensors");
    let r = DiarizerRequest { embedding_model: Some(path.clone()), ..request(&dir) };
    let e = build_diarizer(&r, &DetectOptions::default()).unwrap_err();
    let DiarizerRefusal::Load(inner) = &e else { panic!("{e:?}") };
    assert_eq!(e.to_string(), inner.to_string());
    assert!(e.to_string().starts_with(&path.display().to_string()), "{e}");
}

#[cfg(not(feature = "pyannote"))]
#[test]
fn pyannote_in_a_build_without_it_says_which_build_has_it() {
    let dir = tempfile::tempdir().unwrap();
    let r = DiarizerRequest { choice: Some(DiarizerChoice::Pyannote), ..request(&dir) };
    assert_eq!(
        refusal(&r),
        "--diarizer pyannote needs a build with the `pyannote` feature (cargo install --path \
         crates/overtalk-cli --features pyannote); or use --diarizer ge2e"
    );
}

#[cfg(not(feature = "onnx"))]
#[test]
fn an_onnx_speaker_model_in_a_build_without_onnx_says_which_build_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = std::path::PathBuf::from("speaker.ONNX");
    let r = DiarizerRequest { embedding_model: Some(path), ..request(&dir) };
    assert_eq!(
        refusal(&r),
        "speaker.ONNX: ONNX speaker models need a build with the `onnx` feature (cargo install \
         --path crates/overtalk-cli --features onnx); or give a GE2E safetensors file \
         (`overtalk models install` writes one)"
    );
}

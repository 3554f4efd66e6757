//! Writes the feature rows the calibrated classifier is fitted on (conversation-metrics.md
//! §5.8), one JSON object per input file, for `scripts/calibrate/train.py`.
//!
//! `cargo run --release --example calibration_rows -- [--horizon MS|unbounded] [--classifier rules|calibrated|joint] [--analysis-out DIR] [--model FILE] FILE…`
//!
//! Each object has `file`, `speakers`, `spurts` (`[speaker, start, end, rules_or_model_bc,
//! has_words, features]`) and `onsets` (`[speaker, time, class, outcome, has_words,
//! features]`). With `--classifier calibrated` (or its old spelling `--calibrated-bc`) or
//! `joint`, that classifier's talkspurt model already in the model file decides the
//! backchannels (and so the floor and the onsets); the onsets keep the rule classes. With
//! `--analysis-out DIR` each file's analysis under `--classifier` is written to
//! `DIR/<stem>.json` instead, for `check_mrda.py --from-json`. `--model FILE` uses that model
//! file instead of the compiled-in one (fitting applies the model it has just written).

use overtalk::analysis::calibrated::feature_names;
use overtalk::analysis::{analyze, calibration_rows, Classifier, Millis, Params};
use overtalk::format::{read_bytes, ReadOptions};

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut params = Params::default();
    if let Some(i) = args.iter().position(|a| a == "--horizon") {
        let v = args.get(i + 1).ok_or("--horizon needs a value")?;
        params.decision_horizon =
            if v == "unbounded" { None } else { Some(Millis::new(v.parse()?)) };
        args.drain(i..i + 2);
    }
    if let Some(i) = args.iter().position(|a| a == "--calibrated-bc") {
        params.classifier = Classifier::Calibrated;
        args.remove(i);
    }
    let mut analysis_out = None;
    if let Some(i) = args.iter().position(|a| a == "--analysis-out") {
        analysis_out = Some(std::path::PathBuf::from(args.get(i + 1).ok_or("needs a DIR")?));
        args.drain(i..i + 2);
    }
    if let Some(i) = args.iter().position(|a| a == "--classifier") {
        params.classifier = match args.get(i + 1).map(String::as_str) {
            Some("rules") => Classifier::Rules,
            Some("calibrated") => Classifier::Calibrated,
            Some("joint") => Classifier::Joint,
            _ => return Err("--classifier rules|calibrated|joint".into()),
        };
        args.drain(i..i + 2);
    }
    if let Some(i) = args.iter().position(|a| a == "--model") {
        let path = args.get(i + 1).ok_or("--model needs a FILE")?;
        overtalk::analysis::calibrated::use_model_file(&std::fs::read_to_string(path)?)?;
        args.drain(i..i + 2);
    }
    let options = ReadOptions::default();
    for path in &args {
        let data = std::fs::read(path)?;
        let out = read_bytes(&data, Some(path), None, &options)?;
        for (_, t) in out.corpus.iter() {
            if let Some(dir) = &analysis_out {
                let stem = std::path::Path::new(path)
                    .file_name()
                    .and_then(|n| n.to_str())
                    .and_then(|n| n.split('.').next())
                    .ok_or("bad file name")?;
                let a = analyze(t, &params)?;
                std::fs::write(dir.join(format!("{stem}.json")), serde_json::to_string(&a)?)?;
                continue;
            }
            let rows = calibration_rows(t, &params)?;
            let spurts: Vec<_> = rows
                .spurts
                .iter()
                .map(|(s, a, z, bc, w, x)| serde_json::json!([s, a, z, bc, w, x]))
                .collect();
            let onsets: Vec<_> = rows
                .onsets
                .iter()
                .map(|(s, t, c, o, w, x)| serde_json::json!([s, t, c, o, w, x]))
                .collect();
            let obj = serde_json::json!({
                "file": path,
                "speakers": rows.speakers,
                "spurts": spurts,
                "onsets": onsets,
                "feature_names": {
                    "backchannel/timing": feature_names(false, false),
                    "backchannel/text": feature_names(false, true),
                    "onset/timing": feature_names(true, false),
                    "onset/text": feature_names(true, true),
                },
            });
            println!("{obj}");
        }
    }
    Ok(())
}

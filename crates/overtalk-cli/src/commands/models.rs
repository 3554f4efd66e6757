//! `overtalk models`: install, list and locate the model files used for diarization.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use overtalk_audio::diarize::embed::Ge2eWeights;
use overtalk_audio::diarize::models::{
    self, ge2e_path, install_ge2e_from_wheel, sha256_hex, PRETRAINED_SHA256, RESEMBLYZER_PACKAGE,
    RESEMBLYZER_VERSION, RESEMBLYZER_WHEEL_SHA256,
};

use crate::{Globals, Outcome};

/// Install, list and locate the speaker-embedding model used to tell voices apart.
///
/// The model is the GE2E speaker encoder shipped inside the Resemblyzer 0.1.4 wheel on PyPI
/// (Apache-2.0). `install` fetches that exact wheel with `pip download --no-deps` (or takes a
/// wheel you downloaded), checks SHA-256 hashes, converts the weights in Rust (no Python or torch
/// is used to read them, and none is needed afterwards) and stores `ge2e.safetensors` in the
/// model directory: `$OVERTALK_MODEL_DIR`, else the user data directory
/// (`~/.local/share/overtalk/models` on Linux).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  overtalk models install\n  overtalk models install --wheel Resemblyzer-0.1.4-py3-none-any.whl\n  overtalk models list"
)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Fetch (or take), verify, convert and store the model.
    Install {
        /// Use this Resemblyzer 0.1.4 wheel instead of running `pip download`.
        #[arg(long, value_name = "WHEEL")]
        wheel: Option<PathBuf>,
        /// Store the model here instead of the model directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Show which models are installed and whether they load.
    List {
        /// Look here instead of the model directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Print the model directory.
    Path,
}

/// Runs the subcommand.
pub fn run(args: Args, globals: Globals) -> Result<Outcome> {
    match args.action {
        Action::Path => {
            println!("{}", models::model_dir()?.display());
            Ok(Outcome::Ok)
        }
        Action::List { dir } => {
            let dir = match dir {
                Some(d) => d,
                None => models::model_dir()?,
            };
            let p = ge2e_path(&dir);
            if !p.exists() {
                println!("ge2e\tmissing\t{}\t(run `overtalk models install`)", p.display());
                return Ok(Outcome::Partial);
            }
            match Ge2eWeights::load(&p) {
                Ok(_) => {
                    println!("ge2e\tok\t{}", p.display());
                    Ok(Outcome::Ok)
                }
                Err(e) => {
                    println!(
                        "ge2e\tbroken\t{}\t({e}; run `overtalk models install` again)",
                        p.display()
                    );
                    Ok(Outcome::Partial)
                }
            }
        }
        Action::Install { wheel, dir } => {
            let dir = match dir {
                Some(d) => d,
                None => models::model_dir()?,
            };
            let out = match wheel {
                Some(w) => install_ge2e_from_wheel(&w, &dir)?,
                None => {
                    let tmp = std::env::temp_dir()
                        .join(format!("overtalk-models-{}", std::process::id()));
                    std::fs::create_dir_all(&tmp)
                        .with_context(|| format!("creating {}", tmp.display()))?;
                    let result = download_and_install(&tmp, &dir, globals);
                    let _ = std::fs::remove_dir_all(&tmp);
                    result?
                }
            };
            if !globals.quiet {
                eprintln!(
                    "overtalk: installed {} (from {RESEMBLYZER_PACKAGE} {RESEMBLYZER_VERSION}, \
                     pretrained.pt SHA-256 {PRETRAINED_SHA256})",
                    out.display()
                );
            }
            println!("{}", out.display());
            Ok(Outcome::Ok)
        }
    }
}

fn download_and_install(tmp: &Path, dir: &Path, globals: Globals) -> Result<PathBuf> {
    let spec = format!("{RESEMBLYZER_PACKAGE}=={RESEMBLYZER_VERSION}");
    let mut last_err = String::new();
    let mut ok = false;
    for (prog, pre) in [("pip", vec![]), ("pip3", vec![]), ("python3", vec!["-m", "pip"])] {
        if !globals.quiet {
            let shown: Vec<&str> = std::iter::once(prog).chain(pre.iter().copied()).collect();
            eprintln!("overtalk: {} download --no-deps {spec}", shown.join(" "));
        }
        let status = Command::new(prog)
            .args(&pre)
            .args([
                "download",
                "--no-deps",
                "--only-binary=:all:",
                "--disable-pip-version-check",
                "-q",
            ])
            .arg(&spec)
            .arg("-d")
            .arg(tmp)
            .status();
        match status {
            Ok(s) if s.success() => {
                ok = true;
                break;
            }
            Ok(s) => last_err = format!("{prog} exited with {s}"),
            Err(e) => last_err = format!("{prog}: {e}"),
        }
    }
    if !ok {
        bail!(
            "could not download {spec} ({last_err}); download the wheel yourself and run \
             `overtalk models install --wheel FILE.whl`"
        );
    }
    let wheel = std::fs::read_dir(tmp)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .with_context(|| format!("pip downloaded no wheel into {}", tmp.display()))?;
    let bytes = std::fs::read(&wheel).with_context(|| format!("reading {}", wheel.display()))?;
    let got = sha256_hex(&bytes);
    if got != RESEMBLYZER_WHEEL_SHA256 {
        bail!(
            "{}: SHA-256 {got} differs from the pinned {RESEMBLYZER_WHEEL_SHA256}; refusing it",
            wheel.display()
        );
    }
    Ok(install_ge2e_from_wheel(&wheel, dir)?)
}

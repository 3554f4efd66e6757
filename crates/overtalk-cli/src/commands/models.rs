//! `overtalk models`: install, list and locate the model files (speaker encoder, neural voice
//! activity detector).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use overtalk_audio::diarize::embed::Ge2eWeights;
use overtalk_audio::diarize::models::{
    self, ge2e_path, install_ge2e_from_wheel, install_silero_from_wheel, sha256_hex, silero_path,
    PRETRAINED_SHA256, RESEMBLYZER_PACKAGE, RESEMBLYZER_VERSION, RESEMBLYZER_WHEEL_SHA256,
    SILERO_ONNX_SHA256, SILERO_PACKAGE, SILERO_VERSION, SILERO_WHEEL_SHA256,
};
use overtalk_audio::diarize::pyannote::{self, PYANNOTE_REPOSITORY, PYANNOTE_REVISION};

use crate::app::{Globals, Outcome};

/// Install, list and locate the models: the speaker encoder that tells voices apart, and the
/// Silero voice activity detector (`--vad silero`).
///
/// `ge2e` is the GE2E speaker encoder shipped inside the Resemblyzer 0.1.4 wheel on PyPI
/// (Apache-2.0); `install` converts its weights in Rust (no Python or torch is used to read
/// them, and none is needed afterwards) into `ge2e.safetensors`. `silero` is
/// `silero_vad_16k_sequence.onnx` from the silero-vad 6.2.3 wheel on PyPI (MIT), stored as
/// shipped; running it needs overtalk built with the `onnx` feature. Each wheel is fetched with
/// `pip download --no-deps` (or taken from `--wheel`), and the wheel and the model file are
/// checked against pinned SHA-256 hashes. `pyannote` is the nine files the speakrs pipeline
/// loads (segmentation-3.0, WeSpeaker ResNet34, PLDA; from avencera/speakrs-models on Hugging
/// Face at a pinned revision), downloaded with curl or taken from `--from DIR`, checked and
/// stored in `pyannote/`; it is installed only when named, and running it needs overtalk built
/// with the `pyannote` feature. Models are stored in the model directory:
/// `$OVERTALK_MODEL_DIR`, else the user data directory (`~/.local/share/overtalk/models` on
/// Linux).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  overtalk models install\n  overtalk models install silero\n  overtalk models install pyannote\n  overtalk models install pyannote --from DIR\n  overtalk models install --wheel Resemblyzer-0.1.4-py3-none-any.whl\n  overtalk models install silero --wheel silero_vad-6.2.3-py3-none-any.whl\n  overtalk models list"
)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

/// A model `overtalk models` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Model {
    /// The GE2E speaker encoder (Resemblyzer 0.1.4), for `--diarize`.
    Ge2e,
    /// The Silero VAD v6 sequence model (silero-vad 6.2.3), for `--vad silero`.
    Silero,
    /// The files of the speakrs pyannote pipeline (avencera/speakrs-models), for
    /// `--diarizer pyannote`.
    Pyannote,
}

impl Model {
    /// What `install` without a name installs.
    const ALL: [Model; 2] = [Model::Ge2e, Model::Silero];
    /// What `list` shows.
    const LISTED: [Model; 3] = [Model::Ge2e, Model::Silero, Model::Pyannote];

    fn name(self) -> &'static str {
        match self {
            Model::Ge2e => "ge2e",
            Model::Silero => "silero",
            Model::Pyannote => "pyannote",
        }
    }

    /// `package==version` for pip.
    fn spec(self) -> String {
        match self {
            Model::Ge2e => format!("{RESEMBLYZER_PACKAGE}=={RESEMBLYZER_VERSION}"),
            Model::Silero => format!("{SILERO_PACKAGE}=={SILERO_VERSION}"),
            Model::Pyannote => format!("{PYANNOTE_REPOSITORY}@{PYANNOTE_REVISION}"),
        }
    }

    fn wheel_sha256(self) -> &'static str {
        match self {
            Model::Ge2e => RESEMBLYZER_WHEEL_SHA256,
            Model::Silero => SILERO_WHEEL_SHA256,
            Model::Pyannote => "",
        }
    }

    fn path(self, dir: &Path) -> PathBuf {
        match self {
            Model::Ge2e => ge2e_path(dir),
            Model::Silero => silero_path(dir),
            Model::Pyannote => pyannote::installed_dir(dir).join(pyannote::MANIFEST_FILE),
        }
    }

    fn install_from_wheel(self, wheel: &Path, dir: &Path) -> Result<PathBuf> {
        Ok(match self {
            Model::Ge2e => install_ge2e_from_wheel(wheel, dir)?,
            Model::Silero => install_silero_from_wheel(wheel, dir)?,
            Model::Pyannote => bail!(
                "pyannote is not shipped as a wheel; use `overtalk models install pyannote` or `--from DIR`"
            ),
        })
    }

    /// What the installed file was checked against, for the message after installing.
    fn provenance(self) -> String {
        match self {
            Model::Ge2e => format!(
                "from {RESEMBLYZER_PACKAGE} {RESEMBLYZER_VERSION}, pretrained.pt SHA-256 {PRETRAINED_SHA256}"
            ),
            Model::Silero => {
                format!("from {SILERO_PACKAGE} {SILERO_VERSION}, SHA-256 {SILERO_ONNX_SHA256}")
            }
            Model::Pyannote => format!(
                "{} files of {PYANNOTE_REPOSITORY} at {PYANNOTE_REVISION}, SHA-256 in {}",
                pyannote::PYANNOTE_FILES.len(),
                pyannote::MANIFEST_FILE
            ),
        }
    }

    /// The model a wheel carries, told by the wheel's file name.
    fn of_wheel(wheel: &Path) -> Option<Model> {
        let name = wheel.file_name()?.to_str()?.to_ascii_lowercase();
        if name.starts_with("resemblyzer-") {
            Some(Model::Ge2e)
        } else if name.starts_with("silero_vad-") || name.starts_with("silero-vad-") {
            Some(Model::Silero)
        } else {
            None
        }
    }

    /// `Ok(None)` when the installed file loads, else why not.
    fn check(self, path: &Path) -> Result<Option<String>> {
        match self {
            Model::Ge2e => Ok(Ge2eWeights::load(path).err().map(|e| e.to_string())),
            Model::Silero => check_silero(path),
            Model::Pyannote => Ok(path
                .parent()
                .and_then(|d| pyannote::verify_installed(d).err())
                .map(|e| e.to_string())),
        }
    }
}

#[cfg(feature = "onnx")]
fn check_silero(path: &Path) -> Result<Option<String>> {
    Ok(overtalk_audio::vad::silero::SileroModel::load(path).err().map(|e| e.to_string()))
}

#[cfg(not(feature = "onnx"))]
fn check_silero(path: &Path) -> Result<Option<String>> {
    Ok(match models::silero_file_is_pinned(path) {
        Ok(true) => None,
        Ok(false) => Some(format!("SHA-256 differs from the pinned {SILERO_ONNX_SHA256}")),
        Err(e) => Some(e.to_string()),
    })
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Fetch (or take), verify, convert and store models (default: all of them).
    Install {
        /// The models to install.
        #[arg(value_name = "MODEL")]
        models: Vec<Model>,
        /// Use this wheel instead of running `pip download` (Resemblyzer 0.1.4 for ge2e,
        /// silero-vad 6.2.3 for silero; the model is told by the file name if not named).
        #[arg(long, value_name = "WHEEL")]
        wheel: Option<PathBuf>,
        /// Store the models here instead of the model directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// pyannote only: take the files from this directory (fetched by hand) instead of
        /// downloading them.
        #[arg(long, value_name = "DIR", conflicts_with = "wheel")]
        from: Option<PathBuf>,
    },
    /// Show which models are installed and whether they load; exit 1 when one that `models
    /// install` installs (ge2e, silero) is missing or broken, or when pyannote is broken.
    List {
        /// Look here instead of the model directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Print the model directory.
    Path,
}

/// `println!` that returns a write error instead of panicking, so a closed pipe
/// (`overtalk models list | head -1`) ends quietly with exit 0 like every other output.
macro_rules! outln {
    ($($arg:tt)*) => {
        std::io::Write::write_fmt(&mut std::io::stdout(), format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// Runs the subcommand.
pub fn run(args: Args, globals: Globals) -> Result<Outcome> {
    match args.action {
        Action::Path => {
            outln!("{}", models::model_dir()?.display());
            Ok(Outcome::Ok)
        }
        Action::List { dir } => {
            let dir = match dir {
                Some(d) => d,
                None => models::model_dir()?,
            };
            let mut all_ok = true;
            for m in Model::LISTED {
                let p = m.path(&dir);
                if !p.exists() {
                    outln!(
                        "{}\tmissing\t{}\t(run `overtalk models install {}`)",
                        m.name(),
                        p.display(),
                        m.name()
                    );
                    // pyannote is installed only when named: its absence is no broken setup.
                    all_ok &= m == Model::Pyannote;
                    continue;
                }
                match m.check(&p)? {
                    None => outln!("{}\tok\t{}{}", m.name(), p.display(), usable_note(m)),
                    Some(e) => {
                        outln!(
                            "{}\tbroken\t{}\t({e}; run `overtalk models install {}` again)",
                            m.name(),
                            p.display(),
                            m.name()
                        );
                        all_ok = false;
                    }
                }
            }
            Ok(if all_ok { Outcome::Ok } else { Outcome::Partial })
        }
        Action::Install { models: mut wanted, wheel, dir, from } => {
            let dir = match dir {
                Some(d) => d,
                None => models::model_dir()?,
            };
            if from.is_some() && wanted != [Model::Pyannote] {
                bail!("--from installs the pyannote files: `overtalk models install pyannote --from DIR`");
            }
            if let Some(w) = &wheel {
                let model = match (wanted.as_slice(), Model::of_wheel(w)) {
                    ([m], _) => *m,
                    ([], Some(m)) => m,
                    ([], None) => bail!(
                        "--wheel {}: say which model it carries, e.g. `overtalk models install silero --wheel FILE.whl`",
                        w.display()
                    ),
                    _ => bail!("--wheel installs one model; name only that one"),
                };
                wanted = vec![model];
            } else if wanted.is_empty() {
                wanted = Model::ALL.to_vec();
            }
            let mut once = Vec::new();
            for m in wanted {
                if !once.contains(&m) {
                    once.push(m);
                }
            }
            for m in once {
                let out = match &wheel {
                    _ if m == Model::Pyannote => {
                        super::models_pyannote::install(from.as_deref(), &dir, globals)?
                    }
                    Some(w) => m.install_from_wheel(w, &dir)?,
                    None => {
                        let tmp = std::env::temp_dir().join(format!(
                            "overtalk-models-{}-{}",
                            std::process::id(),
                            m.name()
                        ));
                        std::fs::create_dir_all(&tmp)
                            .with_context(|| format!("creating {}", tmp.display()))?;
                        let result = download_and_install(m, &tmp, &dir, globals);
                        let _ = std::fs::remove_dir_all(&tmp);
                        result?
                    }
                };
                if !globals.quiet {
                    eprintln!("overtalk: installed {} ({})", out.display(), m.provenance());
                }
                outln!("{}", out.display());
            }
            Ok(Outcome::Ok)
        }
    }
}

/// Tells, in `list`, that the Silero model is present but this build cannot run it.
fn usable_note(m: Model) -> &'static str {
    if m == Model::Silero && cfg!(not(feature = "onnx")) {
        "\t(file verified; running it needs a build with the `onnx` feature)"
    } else if m == Model::Pyannote && cfg!(not(feature = "pyannote")) {
        "\t(files verified; running them needs a build with the `pyannote` feature)"
    } else {
        ""
    }
}

fn download_and_install(model: Model, tmp: &Path, dir: &Path, globals: Globals) -> Result<PathBuf> {
    let spec = model.spec();
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
             `overtalk models install {} --wheel FILE.whl`",
            model.name()
        );
    }
    let wheel = std::fs::read_dir(tmp)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .with_context(|| format!("pip downloaded no wheel into {}", tmp.display()))?;
    let bytes = std::fs::read(&wheel).with_context(|| format!("reading {}", wheel.display()))?;
    let got = sha256_hex(&bytes);
    let pinned = model.wheel_sha256();
    if got != pinned {
        bail!("{}: SHA-256 {got} differs from the pinned {pinned}; refusing it", wheel.display());
    }
    model.install_from_wheel(&wheel, dir)
}

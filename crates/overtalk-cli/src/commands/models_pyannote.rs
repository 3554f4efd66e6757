//! `overtalk models install pyannote`: the nine files speakrs loads, downloaded at the pinned
//! revision with `curl` (or `wget`), or taken from a directory (`--from DIR`), then checked
//! and installed by `overtalk_audio::diarize::pyannote` (hashes, structure, manifest).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use overtalk_audio::diarize::pyannote::{
    file_url, host, how_to_install, install_from_dir, published_hashes, tree_url, PYANNOTE_FILES,
    PYANNOTE_REPOSITORY, PYANNOTE_REVISION,
};

use crate::app::Globals;

/// Installs the pyannote model files into `<model_dir>/pyannote`; returns that directory.
pub fn install(from: Option<&Path>, model_dir: &Path, globals: Globals) -> Result<PathBuf> {
    if let Some(src) = from {
        return Ok(install_from_dir(src, model_dir, &PYANNOTE_FILES, &BTreeMap::new())?);
    }
    let tmp = std::env::temp_dir().join(format!("overtalk-models-{}-pyannote", std::process::id()));
    std::fs::create_dir_all(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    let result = download_and_install(&tmp, model_dir, globals);
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

fn download_and_install(tmp: &Path, model_dir: &Path, globals: Globals) -> Result<PathBuf> {
    let host = host();
    let listing = tmp.join("tree.json");
    fetch(&tree_url(&host), &listing, 16 << 20, model_dir, globals)?;
    let bytes =
        std::fs::read(&listing).with_context(|| format!("reading {}", listing.display()))?;
    let published = published_hashes(&bytes).with_context(|| {
        format!("reading the listing of {PYANNOTE_REPOSITORY} at {PYANNOTE_REVISION}")
    })?;
    for f in &PYANNOTE_FILES {
        fetch(&file_url(&host, f.name), &tmp.join(f.name), f.max_bytes, model_dir, globals)?;
    }
    let dir = install_from_dir(tmp, model_dir, &PYANNOTE_FILES, &published)?;
    if !globals.quiet && PYANNOTE_FILES.iter().all(|f| f.sha256.is_none()) {
        eprintln!(
            "overtalk: note: no SHA-256 is pinned in this release for these files; they were \
             checked against the {} hashes the server publishes for revision {PYANNOTE_REVISION}, \
             and the accepted hashes are recorded in {}",
            published.len(),
            dir.join(overtalk_audio::diarize::pyannote::MANIFEST_FILE).display()
        );
    }
    Ok(dir)
}

/// Downloads `url` to `out` (at most `max` bytes) with curl, else wget. A failure says what
/// to download by hand and where to put it.
fn fetch(url: &str, out: &Path, max: u64, model_dir: &Path, globals: Globals) -> Result<()> {
    if !globals.quiet {
        eprintln!("overtalk: downloading {url}");
    }
    let attempts: [(&str, Vec<String>); 2] = [
        (
            "curl",
            [
                "--fail",
                "--location",
                "--silent",
                "--show-error",
                "--retry",
                "2",
                "--connect-timeout",
                "20",
                "--max-filesize",
                &max.to_string(),
                "-o",
            ]
            .iter()
            .map(|s| s.to_string())
            .chain([out.display().to_string(), url.to_owned()])
            .collect(),
        ),
        (
            "wget",
            ["-q", "--tries=2", "--timeout=20", "-O"]
                .iter()
                .map(|s| s.to_string())
                .chain([out.display().to_string(), url.to_owned()])
                .collect(),
        ),
    ];
    let mut why = Vec::new();
    for (prog, args) in &attempts {
        match Command::new(prog).args(args).output() {
            Ok(o) if o.status.success() => return Ok(()),
            Ok(o) => {
                let err = String::from_utf8_lossy(&o.stderr).trim().to_owned();
                why.push(format!(
                    "{prog}: {}",
                    if err.is_empty() { o.status.to_string() } else { err }
                ));
            }
            Err(e) => why.push(format!("{prog}: {e}")),
        }
    }
    bail!("could not download {url} ({}); {}", why.join("; "), how_to_install(model_dir))
}

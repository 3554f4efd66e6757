//! pyannote `community-1`-style diarization through the `speakrs` crate: the model files it
//! needs, their installation and checks (every build), and the `PyannoteDiarizer` itself
//! (builds with the `pyannote` feature).
//!
//! speakrs 0.7 runs, on its native CPU backend (pure Rust, no ONNX Runtime, no system
//! library on Linux): pyannote `segmentation-3.0` (SincNet + 4 BiLSTM, powerset of 3 local
//! speakers, at most 2 at once) on 10 s windows every 1 s, overlap-add, binarization,
//! WeSpeaker ResNet34 embeddings per window and local speaker, PLDA and VBx clustering. It
//! reads nine files from one directory, published in the Hugging Face repository
//! [`PYANNOTE_REPOSITORY`] at [`PYANNOTE_REVISION`] (the revision speakrs 0.7.0 pins):
//!
//! ```text
//! segmentation-3.0.safetensors            SincNet, LSTM and linear weights (F32)
//! wespeaker-multimask-tail.safetensors    ResNet34 with folded batch norms, embedding head (F32)
//! plda_{lda,tr,mu,psi,mean1,mean2}.npy    x-vector LDA and PLDA (f64)
//! wespeaker-voxceleb-resnet34.min_num_samples.txt
//! ```
//!
//! overtalk never lets speakrs download (its `online` feature is off): `overtalk models install
//! pyannote` fetches the files, or takes them from a directory (`--from`), checks each one
//! ([`check_file`]: size bound, SHA-256 against [`PYANNOTE_FILES`]' pinned value when there is
//! one and against the value the server publishes for the pinned revision, and the file's own
//! structure, so a truncated file is caught), and writes them with a [`MANIFEST_FILE`] of
//! their hashes into `<model dir>/pyannote/`. Loading ([`verify_installed`]) checks every file
//! against that manifest again before speakrs reads it.
//!
//! ```text
//! files (download or --from DIR) ──check_file──► <model dir>/pyannote/{9 files, SHA256SUMS}
//!        ──verify_installed──► speakrs::OwnedDiarizationPipeline::from_dir (CPU) ──► Diarization
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use overtalk::error::ModelProblem;
use overtalk::{Error, Result};

use super::models::sha256_hex;

/// The Hugging Face repository that publishes the files speakrs loads.
pub const PYANNOTE_REPOSITORY: &str = "avencera/speakrs-models";
/// The revision of [`PYANNOTE_REPOSITORY`] that speakrs 0.7.0 loads
/// (`speakrs::models::MODEL_REVISION`; a test checks they agree).
pub const PYANNOTE_REVISION: &str = "67f963b6a1d94fcd4678948237b3cc8bd69bf1d8";
/// The speakrs version the backend is built against.
pub const SPEAKRS_VERSION: &str = "0.7.0";
/// The subdirectory of the model directory that holds the files.
pub const PYANNOTE_DIR: &str = "pyannote";
/// The list of installed files and their SHA-256 (`sha256sum` format), written last by an
/// install, so its presence means a complete installation.
pub const MANIFEST_FILE: &str = "SHA256SUMS";
/// Where the files are downloaded from unless `OVERTALK_PYANNOTE_MIRROR` names another host
/// (one that serves the same `/{repo}/resolve/{revision}/{file}` and
/// `/api/models/{repo}/tree/{revision}` paths).
pub const DEFAULT_HOST: &str = "https://huggingface.co";

/// What a model file holds, which decides how its structure is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A safetensors file: 8-byte header length, JSON header, tensor data.
    Safetensors,
    /// A NumPy `.npy` array of little-endian floats.
    Npy,
    /// A positive integer as text.
    Count,
}

/// One file speakrs loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelFile {
    /// Its name, in the repository and in the model directory.
    pub name: &'static str,
    /// What it holds.
    pub kind: FileKind,
    /// Its SHA-256 at [`PYANNOTE_REVISION`], when pinned in this source.
    pub sha256: Option<&'static str>,
    /// The largest size accepted (bytes): a bound on what is read into memory.
    pub max_bytes: u64,
}

const MB: u64 = 1 << 20;

/// The nine files of speakrs's CPU mode (`speakrs::models::required_model_files(Cpu)`; a test
/// checks they agree).
///
/// No SHA-256 is pinned yet: speakrs's source and documentation publish none, and the
/// repository could not be reached from where this was written. Until they are filled in, an
/// install checks each downloaded file against the SHA-256 that the server publishes for it at
/// the pinned revision (Git LFS object id) and against its own structure, and records the
/// hashes it accepted in [`MANIFEST_FILE`]; files given with `--from` are checked for
/// structure only.
pub const PYANNOTE_FILES: [ModelFile; 9] = [
    ModelFile {
        name: "segmentation-3.0.safetensors",
        kind: FileKind::Safetensors,
        sha256: None,
        max_bytes: 64 * MB,
    },
    ModelFile {
        name: "wespeaker-multimask-tail.safetensors",
        kind: FileKind::Safetensors,
        sha256: None,
        max_bytes: 128 * MB,
    },
    ModelFile { name: "plda_lda.npy", kind: FileKind::Npy, sha256: None, max_bytes: 4 * MB },
    ModelFile { name: "plda_tr.npy", kind: FileKind::Npy, sha256: None, max_bytes: 4 * MB },
    ModelFile { name: "plda_mu.npy", kind: FileKind::Npy, sha256: None, max_bytes: MB },
    ModelFile { name: "plda_psi.npy", kind: FileKind::Npy, sha256: None, max_bytes: MB },
    ModelFile { name: "plda_mean1.npy", kind: FileKind::Npy, sha256: None, max_bytes: MB },
    ModelFile { name: "plda_mean2.npy", kind: FileKind::Npy, sha256: None, max_bytes: MB },
    ModelFile {
        name: "wespeaker-voxceleb-resnet34.min_num_samples.txt",
        kind: FileKind::Count,
        sha256: None,
        max_bytes: 64,
    },
];

/// Where the installed files are (or would be) in the model directory `model_dir`.
pub fn installed_dir(model_dir: &Path) -> PathBuf {
    model_dir.join(PYANNOTE_DIR)
}

/// Whether an installation is complete in `model_dir` (its manifest exists); whether it loads
/// is [`verify_installed`]'s question.
pub fn is_installed(model_dir: &Path) -> bool {
    installed_dir(model_dir).join(MANIFEST_FILE).is_file()
}

/// The download host: `$OVERTALK_PYANNOTE_MIRROR` if set, else [`DEFAULT_HOST`].
pub fn host() -> String {
    std::env::var("OVERTALK_PYANNOTE_MIRROR")
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| DEFAULT_HOST.to_owned())
        .trim_end_matches('/')
        .to_owned()
}

/// The URL of `name` at the pinned revision on `host`.
pub fn file_url(host: &str, name: &str) -> String {
    format!("{host}/{PYANNOTE_REPOSITORY}/resolve/{PYANNOTE_REVISION}/{name}")
}

/// The URL of the listing (names, sizes, LFS SHA-256) of the pinned revision on `host`.
pub fn tree_url(host: &str) -> String {
    format!("{host}/api/models/{PYANNOTE_REPOSITORY}/tree/{PYANNOTE_REVISION}")
}

/// What to download and where to put it: the text every failure ends with.
pub fn how_to_install(model_dir: &Path) -> String {
    let files: Vec<String> =
        PYANNOTE_FILES.iter().map(|f| format!("  {}", file_url(DEFAULT_HOST, f.name))).collect();
    format!(
        "run `overtalk models install pyannote` on a machine with internet access, or download \
         these {} files by hand:\n{}\ninto one directory DIR and run `overtalk models install \
         pyannote --from DIR` (they are installed into {})",
        PYANNOTE_FILES.len(),
        files.join("\n"),
        installed_dir(model_dir).display()
    )
}

/// The published SHA-256 and size of each LFS file in a repository listing (the JSON of
/// [`tree_url`]: `[{"path": …, "size": …, "lfs": {"oid": …, "size": …}}, …]`).
pub fn published_hashes(listing: &[u8]) -> Result<BTreeMap<String, (String, u64)>> {
    let v: serde_json::Value = serde_json::from_slice(listing).map_err(|e| {
        Error::invalid(format!("the repository listing is not JSON: {e}")).with_source(e)
    })?;
    let items =
        v.as_array().ok_or_else(|| Error::invalid("the repository listing is not a JSON array"))?;
    let mut out = BTreeMap::new();
    for item in items {
        let (Some(path), Some(lfs)) = (item.get("path").and_then(|p| p.as_str()), item.get("lfs"))
        else {
            continue;
        };
        let oid = lfs.get("oid").and_then(|o| o.as_str()).unwrap_or_default();
        let size = lfs.get("size").and_then(|s| s.as_u64()).unwrap_or(0);
        if oid.len() == 64 && oid.bytes().all(|b| b.is_ascii_hexdigit()) {
            out.insert(path.to_owned(), (oid.to_ascii_lowercase(), size));
        }
    }
    Ok(out)
}

/// Checks the bytes of `file`: size within its bound, SHA-256 equal to its pinned value (if
/// any) and to `published` (if given), and a well-formed structure for its kind — a truncated
/// or cut-short file fails here even where no hash is known. Returns the SHA-256.
pub fn check_file(file: &ModelFile, bytes: &[u8], published: Option<&str>) -> Result<String> {
    if bytes.len() as u64 > file.max_bytes {
        return Err(Error::limit(format!(
            "{} is {} bytes, more than the {} accepted",
            file.name,
            bytes.len(),
            file.max_bytes
        )));
    }
    let got = sha256_hex(bytes);
    for (expected, whose) in
        [(file.sha256, "pinned in overtalk"), (published, "published for the pinned revision")]
    {
        if let Some(expected) = expected {
            if !got.eq_ignore_ascii_case(expected) {
                return Err(Error::model(
                    ModelProblem::Hash,
                    format!(
                        "{} has SHA-256 {got}, expected {expected} ({whose}: \
                         {PYANNOTE_REPOSITORY} at {PYANNOTE_REVISION}); download it again",
                        file.name
                    ),
                ));
            }
        }
    }
    let structure = match file.kind {
        FileKind::Safetensors => check_safetensors(bytes),
        FileKind::Npy => check_npy(bytes),
        FileKind::Count => check_count(bytes),
    };
    structure.map_err(|why| {
        Error::model(
            ModelProblem::Malformed,
            format!("{} is not usable ({why}); download it again", file.name),
        )
    })?;
    Ok(got)
}

fn check_safetensors(b: &[u8]) -> std::result::Result<(), String> {
    let head: [u8; 8] = b
        .get(..8)
        .and_then(|s| s.try_into().ok())
        .ok_or("truncated: shorter than a safetensors header")?;
    let n = u64::from_le_bytes(head);
    if n > 100 * MB || 8 + n > b.len() as u64 {
        return Err("truncated or not safetensors: its header runs past the end".into());
    }
    let header: serde_json::Value = serde_json::from_slice(&b[8..8 + n as usize])
        .map_err(|e| format!("not safetensors: header is not JSON ({e})"))?;
    let map = header.as_object().ok_or("not safetensors: header is not an object")?;
    let mut end = 0u64;
    for (name, info) in map {
        if name == "__metadata__" {
            continue;
        }
        let offsets = info
            .get("data_offsets")
            .and_then(|o| o.as_array())
            .filter(|o| o.len() == 2)
            .ok_or_else(|| format!("not safetensors: tensor {name} has no data_offsets"))?;
        let stop = offsets[1].as_u64().ok_or("not safetensors: bad data_offsets")?;
        end = end.max(stop);
    }
    let data = b.len() as u64 - 8 - n;
    if data < end {
        return Err(format!("truncated: tensor data ends at byte {data} of {end}"));
    }
    if data > end {
        return Err(format!("{} bytes after the last tensor", data - end));
    }
    Ok(())
}

fn check_npy(b: &[u8]) -> std::result::Result<(), String> {
    if b.len() < 10 || &b[..6] != b"\x93NUMPY" {
        return Err("truncated or not a .npy array".into());
    }
    let (len, start): (usize, usize) = match b[6] {
        1 => (u16::from_le_bytes([b[8], b[9]]) as usize, 10),
        2 | 3 if b.len() >= 12 => (u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize, 12),
        v => return Err(format!("unsupported .npy version {v}")),
    };
    let header = b
        .get(start..start.saturating_add(len))
        .ok_or("truncated: the .npy header runs past the end")?;
    let header = std::str::from_utf8(header).map_err(|_| "the .npy header is not text")?;
    let item = if header.contains("'<f8'") {
        8
    } else if header.contains("'<f4'") {
        4
    } else {
        return Err("not a little-endian float array".into());
    };
    let shape = header
        .split("'shape':")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .ok_or("the .npy header has no shape")?;
    let mut count = 1u64;
    for dim in shape.trim().trim_start_matches('(').split(',').map(str::trim) {
        if dim.is_empty() {
            continue;
        }
        let d: u64 = dim.parse().map_err(|_| format!("bad .npy dimension {dim:?}"))?;
        count = count.checked_mul(d).ok_or(".npy shape overflows")?;
    }
    let want = count.checked_mul(item).ok_or(".npy shape overflows")?;
    let data = (b.len() - start - len) as u64;
    if data != want {
        return Err(format!("truncated: {data} bytes of array data, expected {want}"));
    }
    Ok(())
}

fn check_count(b: &[u8]) -> std::result::Result<(), String> {
    let text = std::str::from_utf8(b).map_err(|_| "not text")?;
    match text.trim().parse::<u64>() {
        Ok(n) if n > 0 => Ok(()),
        _ => Err(format!("expected a positive whole number, found {:?}", text.trim())),
    }
}

/// Reads `path` if it is no larger than `max` bytes.
fn read_at_most(path: &Path, max: u64) -> Result<Vec<u8>> {
    let meta = std::fs::metadata(path).map_err(|e| Error::from(e).with_path(path))?;
    if meta.len() > max {
        return Err(Error::limit(format!("{} bytes, more than the {max} accepted", meta.len()))
            .with_path(path));
    }
    std::fs::read(path).map_err(|e| Error::from(e).with_path(path))
}

/// Installs the files of `files` found in `src` into `<model_dir>/pyannote/`: each is checked
/// with [`check_file`] (`published`: SHA-256 by name, e.g. from [`published_hashes`]) before
/// anything is written; files are written atomically and the manifest last. A missing file is
/// an error that lists every missing file with where to download it. Returns the directory.
///
/// `files` is [`PYANNOTE_FILES`] outside tests.
pub fn install_from_dir(
    src: &Path,
    model_dir: &Path,
    files: &[ModelFile],
    published: &BTreeMap<String, (String, u64)>,
) -> Result<PathBuf> {
    let missing: Vec<&ModelFile> = files.iter().filter(|f| !src.join(f.name).is_file()).collect();
    if !missing.is_empty() {
        let list: Vec<String> = missing
            .iter()
            .map(|f| format!("  {} (from {})", f.name, file_url(DEFAULT_HOST, f.name)))
            .collect();
        return Err(Error::model(
            ModelProblem::Missing,
            format!(
                "{} of the {} pyannote model files missing in {}:\n{}\ndownload them into that \
             directory and run `overtalk models install pyannote --from {}` again",
                missing.len(),
                files.len(),
                src.display(),
                list.join("\n"),
                src.display()
            ),
        ));
    }
    let mut checked = Vec::with_capacity(files.len());
    for f in files {
        let path = src.join(f.name);
        let bytes = read_at_most(&path, f.max_bytes)?;
        let published = published.get(f.name).map(|p| p.0.as_str());
        let sha = check_file(f, &bytes, published).map_err(|e| e.with_path(&path))?;
        checked.push((f.name, bytes, sha));
    }
    let dir = installed_dir(model_dir);
    std::fs::create_dir_all(&dir).map_err(|e| Error::from(e).with_path(&dir))?;
    // A reinstall starts by removing the old manifest: an interrupted one leaves no manifest.
    // (Another install at the same time may have removed it first.)
    let manifest = dir.join(MANIFEST_FILE);
    match std::fs::remove_file(&manifest) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(Error::from(e).with_path(&manifest));
        }
        _ => {}
    }
    let mut sums = String::new();
    for (name, bytes, sha) in &checked {
        overtalk::atomic::write(dir.join(name), bytes)?;
        sums.push_str(&format!("{sha}  {name}\n"));
    }
    overtalk::atomic::write(&manifest, sums.as_bytes())?;
    Ok(dir)
}

/// Checks an installation in `dir` (`<model dir>/pyannote`): the manifest lists every file of
/// [`PYANNOTE_FILES`], each file exists, is within its size bound, has the SHA-256 recorded at
/// install (and the pinned one, if any). Every failure says what to download and where to put
/// it.
pub fn verify_installed(dir: &Path) -> Result<()> {
    verify_installed_with(dir, &PYANNOTE_FILES)
}

/// [`verify_installed`] against another file table (tests).
pub fn verify_installed_with(dir: &Path, files: &[ModelFile]) -> Result<()> {
    let model_dir = dir.parent().unwrap_or(dir);
    let manifest = dir.join(MANIFEST_FILE);
    let text = match std::fs::read_to_string(&manifest) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::model(
                ModelProblem::Missing,
                format!(
                    "the pyannote model is not installed (no {}); {}",
                    manifest.display(),
                    how_to_install(model_dir)
                ),
            ));
        }
        Err(e) => return Err(Error::from(e).with_path(&manifest)),
    };
    let recorded: BTreeMap<&str, &str> = text
        .lines()
        .filter_map(|l| l.split_once("  ").map(|(sha, name)| (name.trim(), sha.trim())))
        .collect();
    for f in files {
        let path = dir.join(f.name);
        let fail = |problem: ModelProblem, why: String| {
            Error::model(
                problem,
                format!(
                    "{why}; download {} into {} again (or {})",
                    file_url(DEFAULT_HOST, f.name),
                    dir.display(),
                    how_to_install(model_dir)
                ),
            )
        };
        let Some(want) = recorded.get(f.name) else {
            return Err(fail(
                ModelProblem::Malformed,
                format!("{} does not list {}", manifest.display(), f.name),
            ));
        };
        if !path.is_file() {
            return Err(fail(
                ModelProblem::Missing,
                format!("the pyannote model file {} is missing", path.display()),
            ));
        }
        let bytes = read_at_most(&path, f.max_bytes)
            .map_err(|e| fail(ModelProblem::Missing, e.to_string()).with_source(e))?;
        let got = sha256_hex(&bytes);
        if !got.eq_ignore_ascii_case(want) {
            return Err(fail(
                ModelProblem::Hash,
                format!(
                    "{} has SHA-256 {got}, but {want} was installed (changed or truncated since)",
                    path.display()
                ),
            ));
        }
        if let Some(pin) = f.sha256 {
            if !got.eq_ignore_ascii_case(pin) {
                return Err(fail(
                    ModelProblem::Hash,
                    format!("{} has SHA-256 {got}, expected the pinned {pin}", path.display()),
                ));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// A model directory with every tensor at its shape, for tests and speed measurements.

/// Every tensor of `segmentation-3.0.safetensors` as speakrs 0.7 reads it: name and shape
/// (generated ONNX names numbered in graph order: LSTM B, W, R per layer, then the three
/// MatMul weights, then SincNet's `n / 2`).
pub fn segmentation_tensors() -> Vec<(String, Vec<usize>)> {
    let mut t: Vec<(String, Vec<usize>)> = vec![
        ("sincnet.wav_norm1d.weight".into(), vec![1]),
        ("sincnet.wav_norm1d.bias".into(), vec![1]),
        ("sincnet.conv1d.0.filterbank.low_hz_".into(), vec![40, 1]),
        ("sincnet.conv1d.0.filterbank.band_hz_".into(), vec![40, 1]),
        ("sincnet.conv1d.0.filterbank.window_".into(), vec![125]),
        ("sincnet.conv1d.0.filterbank.n_".into(), vec![1, 125]),
        ("sincnet.conv1d.1.weight".into(), vec![60, 80, 5]),
        ("sincnet.conv1d.1.bias".into(), vec![60]),
        ("sincnet.conv1d.2.weight".into(), vec![60, 60, 5]),
        ("sincnet.conv1d.2.bias".into(), vec![60]),
        ("sincnet.norm1d.0.weight".into(), vec![80]),
        ("sincnet.norm1d.0.bias".into(), vec![80]),
        ("sincnet.norm1d.1.weight".into(), vec![60]),
        ("sincnet.norm1d.1.bias".into(), vec![60]),
        ("sincnet.norm1d.2.weight".into(), vec![60]),
        ("sincnet.norm1d.2.bias".into(), vec![60]),
        ("linear.0.bias".into(), vec![128]),
        ("linear.1.bias".into(), vec![128]),
        ("classifier.bias".into(), vec![7]),
    ];
    let mut n = 800;
    for layer in 0..4 {
        let input = if layer == 0 { 60 } else { 256 };
        for shape in [vec![2, 1024], vec![2, 512, input], vec![2, 512, 128]] {
            t.push((format!("onnx::LSTM_{n}"), shape));
            n += 1;
        }
    }
    for shape in [vec![256, 128], vec![128, 128], vec![128, 7]] {
        t.push((format!("onnx::MatMul_{n}"), shape));
        n += 1;
    }
    t.push((format!("onnx::Div_{n}"), vec![1, 125]));
    t
}

/// Every tensor of `wespeaker-multimask-tail.safetensors` as speakrs 0.7 reads it (exactly
/// these 74: the loader refuses missing or extra names).
pub fn embedding_tensors() -> Vec<(String, Vec<usize>)> {
    let mut t = vec![
        ("resnet.conv1.weight".to_owned(), vec![32, 1, 3, 3]),
        ("resnet.conv1.weight_bias".to_owned(), vec![32]),
    ];
    let mut input = 32;
    for (stage, (channels, count)) in [(32, 3), (64, 4), (128, 6), (256, 3)].into_iter().enumerate()
    {
        for index in 0..count {
            let p = format!("resnet.layer{}.{index}", stage + 1);
            t.push((format!("{p}.conv1.weight"), vec![channels, input, 3, 3]));
            t.push((format!("{p}.conv1.weight_bias"), vec![channels]));
            t.push((format!("{p}.conv2.weight"), vec![channels, channels, 3, 3]));
            t.push((format!("{p}.conv2.weight_bias"), vec![channels]));
            if stage > 0 && index == 0 {
                t.push((format!("{p}.shortcut.0.weight"), vec![channels, input, 1, 1]));
                t.push((format!("{p}.shortcut.0.weight_bias"), vec![channels]));
            }
            input = channels;
        }
    }
    t.push(("resnet.seg_1.weight".into(), vec![256, 5120]));
    t.push(("resnet.seg_1.bias".into(), vec![256]));
    t
}

/// What the segmentation of a [`write_test_model`] directory says everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestSegmentation {
    /// Powerset class 1: local speaker 1 alone, in every frame.
    OneSpeaker,
    /// Powerset class 0: nobody speaks.
    Silence,
}

/// A deterministic value in [−scale, scale] for element `i` of tensor number `t`.
fn test_value(t: usize, i: usize, scale: f32) -> f32 {
    let mut x = (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i as u64);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    ((x >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
}

/// The bytes of a safetensors file of F32 tensors; `value(name, index)` gives each element.
pub fn safetensors_bytes(
    tensors: &[(String, Vec<usize>)],
    value: &dyn Fn(usize, &str, usize) -> f32,
) -> Vec<u8> {
    let mut header = serde_json::Map::new();
    let mut data = Vec::new();
    for (k, (name, shape)) in tensors.iter().enumerate() {
        let n: usize = shape.iter().product();
        let start = data.len();
        for i in 0..n {
            data.extend_from_slice(&value(k, name, i).to_le_bytes());
        }
        header.insert(
            name.clone(),
            serde_json::json!({"dtype": "F32", "shape": shape, "data_offsets": [start, data.len()]}),
        );
    }
    let mut h = serde_json::Value::Object(header).to_string().into_bytes();
    while !h.len().is_multiple_of(8) {
        h.push(b' ');
    }
    let mut out = (h.len() as u64).to_le_bytes().to_vec();
    out.extend(h);
    out.extend(data);
    out
}

/// The bytes of a `.npy` file of little-endian f64 values, C order.
pub fn npy_bytes(shape: &[usize], values: &[f64]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape =
        if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header = format!("{{'descr': '<f8', 'fortran_order': False, 'shape': {shape}, }}");
    while !(10 + header.len() + 1).is_multiple_of(64) {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

/// The nine files of a model with every tensor speakrs 0.7 loads at its shape and
/// deterministic values — not trained weights: for tests of the whole path and for speed and
/// memory measurements (the compute does not depend on the values). The classifier is set so
/// that `segmentation` holds in every frame, and every speaker embedding is the same vector,
/// so the expected diarization is known: one speaker throughout, or none.
pub fn test_model_files(segmentation: TestSegmentation) -> Vec<(&'static str, Vec<u8>)> {
    let class = match segmentation {
        TestSegmentation::OneSpeaker => 1,
        TestSegmentation::Silence => 0,
    };
    let seg = segmentation_tensors();
    let classifier = seg
        .iter()
        .find(|(n, s)| n.starts_with("onnx::MatMul_") && s[..] == [128, 7])
        .map(|(n, _)| n.clone())
        .unwrap_or_default();
    let seg_value = |k: usize, name: &str, i: usize| -> f32 {
        match name {
            "classifier.bias" => {
                if i == class {
                    10.0
                } else {
                    0.0
                }
            }
            // SincNet band edges, window and time axis of a plausible filterbank.
            "sincnet.conv1d.0.filterbank.low_hz_" => 30.0 + 180.0 * i as f32,
            "sincnet.conv1d.0.filterbank.band_hz_" => 60.0 + 20.0 * i as f32,
            "sincnet.conv1d.0.filterbank.window_" => {
                0.54 - 0.46 * (std::f32::consts::PI * i as f32 / 124.0).cos()
            }
            "sincnet.conv1d.0.filterbank.n_" => {
                2.0 * std::f32::consts::PI * (i as f32 - 125.0) / 16_000.0
            }
            n if n.starts_with("onnx::Div_") => {
                std::f32::consts::PI * (i as f32 - 125.0) / 16_000.0
            }
            n if n.contains("norm1d") && n.ends_with(".weight") => 1.0,
            // The classifier weight: the bias alone decides the class.
            n if n == classifier => 0.0,
            _ => test_value(k, i, 0.05),
        }
    };
    let emb = embedding_tensors();
    let emb_value = |k: usize, name: &str, i: usize| -> f32 {
        match name {
            "resnet.seg_1.weight" => 0.0,
            "resnet.seg_1.bias" => test_value(k, i, 1.0),
            _ => test_value(k, i, 0.05),
        }
    };
    // LDA 256 → 128, PLDA on 128 dimensions: well-conditioned, distinct eigenvalues.
    let lda: Vec<f64> = (0..256 * 128)
        .map(|i| f64::from(test_value(1000, i, 0.1)) + if i / 128 == i % 128 { 1.0 } else { 0.0 })
        .collect();
    let tr: Vec<f64> = (0..128 * 128)
        .map(|i| if i / 128 == i % 128 { 1.0 + (i / 128) as f64 / 128.0 } else { 0.0 })
        .collect();
    let psi: Vec<f64> = (0..128).map(|i| 1.0 + i as f64 / 64.0).collect();
    let mean1: Vec<f64> = (0..256).map(|i| f64::from(test_value(1001, i, 0.01))).collect();
    let small: Vec<f64> = (0..128).map(|i| f64::from(test_value(1002, i, 0.01))).collect();
    vec![
        ("segmentation-3.0.safetensors", safetensors_bytes(&seg, &seg_value)),
        ("wespeaker-multimask-tail.safetensors", safetensors_bytes(&emb, &emb_value)),
        ("plda_lda.npy", npy_bytes(&[256, 128], &lda)),
        ("plda_tr.npy", npy_bytes(&[128, 128], &tr)),
        ("plda_mu.npy", npy_bytes(&[128], &small)),
        ("plda_psi.npy", npy_bytes(&[128], &psi)),
        ("plda_mean1.npy", npy_bytes(&[256], &mean1)),
        ("plda_mean2.npy", npy_bytes(&[128], &small)),
        ("wespeaker-voxceleb-resnet34.min_num_samples.txt", b"400\n".to_vec()),
    ]
}

/// Writes [`test_model_files`] into `dir` (created if needed) as files fetched by hand would
/// be: ready for `overtalk models install pyannote --from DIR` or [`install_from_dir`].
pub fn write_test_model(dir: &Path, segmentation: TestSegmentation) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::from(e).with_path(dir))?;
    for (name, bytes) in test_model_files(segmentation) {
        let p = dir.join(name);
        std::fs::write(&p, bytes).map_err(|e| Error::from(e).with_path(&p))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The diarizer.

#[cfg(feature = "pyannote")]
pub use backend::PyannoteDiarizer;

#[cfg(feature = "pyannote")]
mod backend {
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;

    use overtalk::error::ModelProblem;
    use overtalk::{AnnotationBuilder, Error, Result, Segment, Time};
    use speakrs::{ExecutionMode, OwnedDiarizationPipeline};

    use super::super::diarization::{Diarization, Diarizer, DiarizerKind};
    use super::super::features::{FeatureStream, Features, FrontEnd};
    use super::{verify_installed, PYANNOTE_REPOSITORY, PYANNOTE_REVISION, SPEAKRS_VERSION};
    use crate::vad::VadKind;

    /// The speakrs pipeline (pyannote community-1 style) on the CPU, from an installed model
    /// directory. Overlapping speech is modelled (the segmentation model gives up to two
    /// speakers per frame); the number of speakers is found by VBx (speakrs 0.7 takes no
    /// count).
    pub struct PyannoteDiarizer {
        pipeline: Mutex<OwnedDiarizationPipeline>,
        dir: PathBuf,
    }

    impl std::fmt::Debug for PyannoteDiarizer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("PyannoteDiarizer").field("dir", &self.dir).finish()
        }
    }

    impl PyannoteDiarizer {
        /// Checks the installation in `dir` (`<model dir>/pyannote`, see
        /// [`verify_installed`](super::verify_installed)) and loads it.
        pub fn load(dir: &Path) -> Result<PyannoteDiarizer> {
            verify_installed(dir)?;
            let pipeline =
                OwnedDiarizationPipeline::from_dir(dir, ExecutionMode::Cpu).map_err(|e| {
                    Error::model(
                        ModelProblem::Malformed,
                        format!(
                            "speakrs could not load the pyannote model in {}: {e}; {}",
                            dir.display(),
                            super::how_to_install(dir.parent().unwrap_or(dir))
                        ),
                    )
                    .with_source(e)
                })?;
            Ok(PyannoteDiarizer { pipeline: Mutex::new(pipeline), dir: dir.to_owned() })
        }
    }

    /// Keeps the 16 kHz samples themselves: speakrs needs the whole signal. One "frame" is
    /// 160 samples (10 ms), so [`Features::data`] is the signal, zero-padded to whole frames.
    struct Samples;

    impl FrontEnd for Samples {
        fn dim(&self) -> usize {
            crate::frames::HOP
        }
        fn push(&mut self, samples: &[f32], out: &mut Vec<f32>) {
            out.extend(samples.iter().map(|x| if x.is_finite() { *x } else { 0.0 }));
        }
        fn finish(&mut self, _out: &mut Vec<f32>) {}
    }

    impl Diarizer for PyannoteDiarizer {
        fn describe(&self) -> String {
            format!(
                "pyannote (speakrs {SPEAKRS_VERSION}, native CPU: segmentation-3.0 powerset on 10 s \
                 windows every 1 s, WeSpeaker ResNet34 embeddings, PLDA + VBx clustering; models \
                 {PYANNOTE_REPOSITORY} at {}; voice activity from the segmentation model; \
                 overlap modelled, up to 2 speakers per frame)",
                &PYANNOTE_REVISION[..12]
            )
        }

        fn stream(&self) -> FeatureStream {
            // The VAD is not used (the segmentation model finds speech); energy is the cheapest.
            FeatureStream::new(Some(Box::new(Samples)), VadKind::Energy)
        }

        fn finish(&self, features: Features) -> Result<Diarization> {
            let n = (features.samples as usize).min(features.data.len());
            let samples = &features.data[..n];
            let duration = features.duration();
            let method = self.describe();
            if samples.is_empty() {
                return Ok(Diarization::within(
                    Default::default(),
                    duration,
                    method,
                    DiarizerKind::Pyannote,
                ));
            }
            let mut pipeline = self
                .pipeline
                .lock()
                .map_err(|_| Error::invalid("the pyannote pipeline failed in an earlier run"))?;
            let run =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pipeline.run(samples)));
            let result = match run {
                Ok(Ok(r)) => r,
                Ok(Err(e)) => return Err(Error::invalid(format!("speakrs: {e}")).with_source(e)),
                Err(_) => return Err(Error::invalid("speakrs stopped with an internal error")),
            };
            // Speakers named by first appearance, as the other diarizers do.
            let mut segs = result.segments;
            segs.sort_by(|a, b| a.start.total_cmp(&b.start).then(a.end.total_cmp(&b.end)));
            let mut names: Vec<String> = Vec::new();
            let mut b = AnnotationBuilder::new();
            for s in &segs {
                let pos = names.iter().position(|n| *n == s.speaker).unwrap_or_else(|| {
                    names.push(s.speaker.clone());
                    names.len() - 1
                });
                let us = |t: f64| Time::from_micros((t * 1e6).round() as i64);
                if let Some(seg) = Segment::new(us(s.start), us(s.end)) {
                    b.add(seg, &format!("SPK{pos:02}"));
                }
            }
            Ok(Diarization::within(b.build(), duration, method, DiarizerKind::Pyannote))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_model_files_pass_their_own_checks() {
        for (name, bytes) in test_model_files(TestSegmentation::OneSpeaker) {
            let f = PYANNOTE_FILES.iter().find(|f| f.name == name).expect("listed");
            assert_eq!(check_file(f, &bytes, None).expect("valid"), sha256_hex(&bytes));
        }
    }

    #[test]
    fn tensor_tables_have_the_loader_counts() {
        assert_eq!(embedding_tensors().len(), 74);
        assert_eq!(segmentation_tensors().len(), 19 + 12 + 3 + 1);
    }

    #[test]
    fn truncation_is_caught_by_structure() {
        for (name, bytes) in test_model_files(TestSegmentation::Silence) {
            let f = PYANNOTE_FILES.iter().find(|f| f.name == name).expect("listed");
            if f.kind == FileKind::Count {
                assert!(check_file(f, b"", None).is_err());
                continue;
            }
            for cut in [0, 7, 9, bytes.len() / 2, bytes.len() - 1] {
                let e = check_file(f, &bytes[..cut], None).expect_err("truncated");
                assert!(e.to_string().contains("download it again"), "{name} {cut}: {e}");
            }
        }
    }

    #[test]
    fn published_listing_is_read() {
        let listing = br#"[{"type":"file","path":"plda_tr.npy","size":131200,"lfs":{"oid":"ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789","size":131200}},{"type":"file","path":"x.txt","size":4}]"#;
        let m = published_hashes(listing).expect("json");
        assert_eq!(m.len(), 1);
        assert_eq!(
            m["plda_tr.npy"],
            ("abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789".into(), 131200)
        );
        assert!(published_hashes(b"<html>").is_err());
    }
}

//! Model files: where they live, how they are obtained from the packages that ship them, and
//! how they are checked and converted — all in Rust, with no Python or torch at run time.
//!
//! The speaker encoder is the GE2E network shipped as `resemblyzer/pretrained.pt` inside the
//! Resemblyzer 0.1.4 wheel on PyPI (Apache-2.0). That file is a legacy (pre-zip) `torch.save`
//! pickle. [`install_ge2e_from_wheel`] reads the wheel (a zip), checks the SHA-256 of the
//! embedded file against the pinned value, runs a restricted pickle interpreter that only knows
//! the handful of opcodes and two constructors such a file uses (`OrderedDict` and
//! `_rebuild_tensor_v2`; anything else is refused), keeps the model weights (dropping the
//! optimizer state) and writes them as `ge2e.safetensors` into the model directory.
//!
//! ```text
//! Resemblyzer-0.1.4-py3-none-any.whl ──zip──► pretrained.pt (SHA-256 pinned)
//!        ──restricted unpickler──► 12 weight tensors ──► <model dir>/ge2e.safetensors
//! ```
//!
//! Third-party weights are never part of this repository: they are fetched by the user's own
//! `pip download` (or given as a wheel path) at install time.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use overtalk::error::ModelProblem;
use overtalk::{Error, Result};
use sha2::{Digest, Sha256};

use super::embed::Ge2eWeights;
use super::tensors::{read_bounded, MAX_FILE_BYTES};
pub use super::tensors::{read_safetensors, read_safetensors_file, write_safetensors, Tensor};

/// The PyPI package that ships the speaker encoder.
pub const RESEMBLYZER_PACKAGE: &str = "resemblyzer";
/// The pinned version of [`RESEMBLYZER_PACKAGE`].
pub const RESEMBLYZER_VERSION: &str = "0.1.4";
/// SHA-256 of the pinned wheel as published on PyPI.
pub const RESEMBLYZER_WHEEL_SHA256: &str =
    "8f12eb2f1a9982d32e8db7856de754709b59c93a77bcf0ff536584b619a9dd1f";
/// The member of the wheel that holds the encoder.
pub const PRETRAINED_MEMBER: &str = "resemblyzer/pretrained.pt";
/// SHA-256 of [`PRETRAINED_MEMBER`] in the pinned wheel (what is actually verified: a
/// re-packed wheel with the same weights is accepted).
pub const PRETRAINED_SHA256: &str =
    "39373b86598fa3da9fcddee6142382efe09777e8d37dc9c0561f41f0070f134e";
/// File name of the converted encoder in the model directory.
pub const GE2E_FILE: &str = "ge2e.safetensors";

/// The PyPI package that ships the Silero voice activity model.
pub const SILERO_PACKAGE: &str = "silero-vad";
/// The pinned version of [`SILERO_PACKAGE`].
pub const SILERO_VERSION: &str = "6.2.3";
/// SHA-256 of the pinned wheel (`silero_vad-6.2.3-py3-none-any.whl`) as published on PyPI.
pub const SILERO_WHEEL_SHA256: &str =
    "7b7f5436cfcb02fae583a05b512ea96467fd449fe54cb49a5e4f06c51a1e43b8";
/// The member of the wheel that holds the tract-loadable (If-free, batched) model.
pub const SILERO_MEMBER: &str = "silero_vad/data/silero_vad_16k_sequence.onnx";
/// SHA-256 of [`SILERO_MEMBER`] in the pinned wheel (what is actually verified).
pub const SILERO_ONNX_SHA256: &str =
    "9ccdacc4719d8aa7e45a77536bfabec45a03ba1f2fad5e241ab4060b24238a85";
/// File name of the Silero model in the model directory.
pub const SILERO_FILE: &str = "silero_vad_16k_sequence.onnx";

/// The model directory: `$OVERTALK_MODEL_DIR` if set, else `<user data dir>/overtalk/models`
/// (e.g. `~/.local/share/overtalk/models` on Linux).
pub fn model_dir() -> Result<PathBuf> {
    if let Some(d) = std::env::var_os("OVERTALK_MODEL_DIR") {
        return Ok(PathBuf::from(d));
    }
    dirs::data_dir()
        .map(|d| d.join("overtalk").join("models"))
        .ok_or_else(|| Error::invalid("no user data directory; set OVERTALK_MODEL_DIR"))
}

/// Where the converted GE2E encoder is (or would be) in `dir`.
pub fn ge2e_path(dir: &Path) -> PathBuf {
    dir.join(GE2E_FILE)
}

/// Where the Silero voice activity model is (or would be) in `dir`.
pub fn silero_path(dir: &Path) -> PathBuf {
    dir.join(SILERO_FILE)
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// Extracts the GE2E encoder from a Resemblyzer wheel, verifies it, converts it and writes
/// [`GE2E_FILE`] into `dir` (created if needed; written atomically). Returns the path written.
pub fn install_ge2e_from_wheel(wheel: &Path, dir: &Path) -> Result<PathBuf> {
    let bytes = read_bounded(wheel)?;
    let pt = zip_member(&bytes, PRETRAINED_MEMBER).map_err(|e| e.with_path(wheel))?;
    let got = sha256_hex(&pt);
    if got != PRETRAINED_SHA256 {
        return Err(Error::model(
            ModelProblem::Hash,
            format!(
                "{PRETRAINED_MEMBER} has SHA-256 {got}, expected {PRETRAINED_SHA256} \
             (only {RESEMBLYZER_PACKAGE} {RESEMBLYZER_VERSION} is supported)"
            ),
        )
        .with_path(wheel));
    }
    let tensors = read_legacy_torch(&pt).map_err(|e| e.with_path(wheel))?;
    let keep: Vec<Tensor> = tensors
        .into_iter()
        .filter(|t| t.name.starts_with("lstm.") || t.name.starts_with("linear."))
        .collect();
    // Validates names and shapes before anything is written.
    Ge2eWeights::from_tensors(&keep)?;
    std::fs::create_dir_all(dir).map_err(|e| Error::from(e).with_path(dir))?;
    let out = ge2e_path(dir);
    let meta = [
        ("source", format!("{RESEMBLYZER_PACKAGE}=={RESEMBLYZER_VERSION} {PRETRAINED_MEMBER}")),
        ("source_sha256", PRETRAINED_SHA256.to_string()),
        ("licence", "Apache-2.0".to_string()),
    ];
    overtalk::atomic::write(&out, &write_safetensors(&keep, &meta)?)?;
    Ok(out)
}

/// Extracts the Silero voice activity model ([`SILERO_MEMBER`]) from a `silero-vad` 6.2.3
/// wheel, verifies its SHA-256 and writes [`SILERO_FILE`] into `dir` (created if needed;
/// written atomically). The file is stored as shipped (MIT licence); loading it needs the
/// `onnx` feature. Returns the path written.
///
/// ```text
/// silero_vad-6.2.3-py3-none-any.whl ──zip──► silero_vad_16k_sequence.onnx (SHA-256 pinned)
///        ──► <model dir>/silero_vad_16k_sequence.onnx
/// ```
pub fn install_silero_from_wheel(wheel: &Path, dir: &Path) -> Result<PathBuf> {
    let bytes = read_bounded(wheel)?;
    match zip_member(&bytes, "silero_vad/__init__.py") {
        Ok(_) => {}
        Err(e) if e.to_string().contains("is not in the archive") => {
            return Err(Error::model(
                ModelProblem::Malformed,
                format!("not the {SILERO_PACKAGE} wheel (it has no silero_vad package)"),
            )
            .with_path(wheel));
        }
        Err(e) => return Err(e.with_path(wheel)),
    }
    let onnx = zip_member(&bytes, SILERO_MEMBER).map_err(|e| e.with_path(wheel))?;
    let got = sha256_hex(&onnx);
    if got != SILERO_ONNX_SHA256 {
        return Err(Error::model(
            ModelProblem::Hash,
            format!(
                "{SILERO_MEMBER} has SHA-256 {got}, expected {SILERO_ONNX_SHA256} \
             (only {SILERO_PACKAGE} {SILERO_VERSION} is supported)"
            ),
        )
        .with_path(wheel));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::from(e).with_path(dir))?;
    let out = silero_path(dir);
    overtalk::atomic::write(&out, &onnx)?;
    // The model's licence (MIT) travels with it.
    if let Ok(licence) = zip_member(&bytes, SILERO_LICENCE_MEMBER) {
        overtalk::atomic::write(dir.join(SILERO_LICENCE_FILE), &licence)?;
    }
    Ok(out)
}

/// The licence file inside the pinned `silero-vad` wheel.
const SILERO_LICENCE_MEMBER: &str = "silero_vad-6.2.3.dist-info/licenses/LICENSE";
/// Where the licence of the Silero model is written beside it.
pub const SILERO_LICENCE_FILE: &str = "silero_vad.LICENSE";

/// Whether the installed Silero model file is intact: `Ok(true)` when its SHA-256 is the pinned
/// one, `Ok(false)` when it differs, an error when it cannot be read.
pub fn silero_file_is_pinned(path: &Path) -> Result<bool> {
    Ok(sha256_hex(&read_bounded(path)?) == SILERO_ONNX_SHA256)
}

// ---------------------------------------------------------------------------------------------
// zip

/// The uncompressed bytes of member `name` of a zip archive (the `zip` crate reads the archive
/// and checks each member's CRC; a member larger than the file limit is a limit error before
/// and while it is inflated, so a zip bomb stops at the cap).
pub fn zip_member(zip: &[u8], name: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).map_err(|e| {
        Error::model(ModelProblem::Malformed, format!("not a zip archive (wheel): {e}"))
            .with_source(e)
    })?;
    let mut file = match archive.by_name(name) {
        Ok(file) => file,
        Err(zip::result::ZipError::FileNotFound) => {
            return Err(Error::model(
                ModelProblem::Missing,
                format!("{name} is not in the archive (is this the {RESEMBLYZER_PACKAGE} wheel?)"),
            ))
        }
        Err(zip::result::ZipError::UnsupportedArchive(m)) => {
            return Err(Error::unsupported(format!("zip archive: {m}")))
        }
        Err(e) => {
            return Err(Error::model(
                ModelProblem::Malformed,
                format!("corrupt zip archive: {name}: {e}"),
            )
            .with_source(e))
        }
    };
    if file.size() > MAX_FILE_BYTES {
        return Err(Error::limit("zip member too large"));
    }
    let mut out = Vec::new();
    (&mut file).take(MAX_FILE_BYTES + 1).read_to_end(&mut out).map_err(|e| {
        Error::model(ModelProblem::Malformed, format!("corrupt deflate data in {name}: {e}"))
            .with_source(e)
    })?;
    if out.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::limit("zip member too large"));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// restricted pickle

#[derive(Clone, Debug)]
enum V {
    None,
    Bool,
    Int(i64),
    Float,
    Str(String),
    Tuple(Vec<V>),
    List(Vec<V>),
    Dict(Vec<(V, V)>),
    Global(String, String),
    Storage { key: String, dtype: String },
    Tensor { key: String, dtype: String, offset: usize, size: Vec<usize>, stride: Vec<usize> },
    Mark,
}

struct Pickle<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Pickle<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let s = self
            .b
            .get(self.at..self.at.saturating_add(n))
            .ok_or_else(|| bad("truncated pickle"))?;
        self.at += n;
        Ok(s)
    }
    fn line(&mut self) -> Result<String> {
        let rest = &self.b[self.at.min(self.b.len())..];
        let n = rest.iter().position(|&c| c == b'\n').ok_or_else(|| bad("truncated pickle"))?;
        let s = String::from_utf8_lossy(&rest[..n]).into_owned();
        self.at += n + 1;
        Ok(s)
    }

    /// Runs one pickle up to its STOP and returns the object.
    fn load(&mut self) -> Result<V> {
        let mut stack: Vec<V> = Vec::new();
        let mut memo: HashMap<u32, V> = HashMap::new();
        let mut budget = self.b.len().saturating_mul(4).max(1024);
        loop {
            budget = budget.checked_sub(1).ok_or_else(|| bad("pickle too complex"))?;
            if stack.len() > 1_000_000 || memo.len() > 1_000_000 {
                return Err(Error::limit("pickle too large"));
            }
            let op = self.take(1)?[0];
            match op {
                0x80 => {
                    self.take(1)?;
                }
                b'}' => stack.push(V::Dict(Vec::new())),
                b']' => stack.push(V::List(Vec::new())),
                b')' => stack.push(V::Tuple(Vec::new())),
                b'(' => stack.push(V::Mark),
                b'N' => stack.push(V::None),
                0x88 | 0x89 => stack.push(V::Bool),
                b'q' => {
                    let k = u32::from(self.take(1)?[0]);
                    memo.insert(k, top(&stack)?.clone());
                }
                b'r' => {
                    let s = self.take(4)?;
                    let k = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
                    memo.insert(k, top(&stack)?.clone());
                }
                b'h' | b'j' => {
                    let k = if op == b'h' {
                        u32::from(self.take(1)?[0])
                    } else {
                        let s = self.take(4)?;
                        u32::from_le_bytes([s[0], s[1], s[2], s[3]])
                    };
                    let v = memo.get(&k).ok_or_else(|| bad("pickle memo miss"))?;
                    // Copies cost their size, so repeated references cannot blow up memory.
                    budget =
                        budget.checked_sub(weight(v)).ok_or_else(|| bad("pickle too complex"))?;
                    stack.push(v.clone());
                }
                b'X' => {
                    let s = self.take(4)?;
                    let n = u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as usize;
                    stack.push(V::Str(String::from_utf8_lossy(self.take(n)?).into_owned()));
                }
                0x8c => {
                    let n = self.take(1)?[0] as usize;
                    stack.push(V::Str(String::from_utf8_lossy(self.take(n)?).into_owned()));
                }
                b'J' => {
                    let s = self.take(4)?;
                    stack.push(V::Int(i64::from(i32::from_le_bytes([s[0], s[1], s[2], s[3]]))));
                }
                b'K' => stack.push(V::Int(i64::from(self.take(1)?[0]))),
                b'M' => {
                    let s = self.take(2)?;
                    stack.push(V::Int(i64::from(u16::from_le_bytes([s[0], s[1]]))));
                }
                0x8a => {
                    let n = self.take(1)?[0] as usize;
                    let s = self.take(n)?;
                    let v = if n <= 8 && n > 0 {
                        let mut buf = if s[n - 1] & 0x80 != 0 { [0xff; 8] } else { [0; 8] };
                        buf[..n].copy_from_slice(s);
                        V::Int(i64::from_le_bytes(buf))
                    } else {
                        V::None // big integers (the legacy magic number) are not needed
                    };
                    stack.push(v);
                }
                b'G' => {
                    self.take(8)?;
                    stack.push(V::Float);
                }
                b'c' => {
                    let m = self.line()?;
                    let n = self.line()?;
                    let allowed = matches!(
                        (m.as_str(), n.as_str()),
                        ("collections", "OrderedDict") | ("torch._utils", "_rebuild_tensor_v2")
                    ) || (m == "torch" && n.ends_with("Storage"));
                    if !allowed {
                        return Err(bad(&format!("refusing to load {m}.{n}")));
                    }
                    stack.push(V::Global(m, n));
                }
                b't' => {
                    let items = pop_mark(&mut stack)?;
                    stack.push(V::Tuple(items));
                }
                0x85..=0x87 => {
                    let n = (op - 0x84) as usize;
                    if stack.len() < n {
                        return Err(bad("pickle stack underflow"));
                    }
                    let items = stack.split_off(stack.len() - n);
                    stack.push(V::Tuple(items));
                }
                b'Q' => {
                    let pid = pop(&mut stack)?;
                    stack.push(storage_from_pid(pid)?);
                }
                b'R' => {
                    let args = pop(&mut stack)?;
                    let f = pop(&mut stack)?;
                    stack.push(reduce(f, args)?);
                }
                b'b' => {
                    pop(&mut stack)?; // BUILD state (tensor hooks): not needed
                }
                b's' => {
                    let v = pop(&mut stack)?;
                    let k = pop(&mut stack)?;
                    match stack.last_mut() {
                        Some(V::Dict(d)) => d.push((k, v)),
                        _ => return Err(bad("SETITEM on a non-dict")),
                    }
                }
                b'u' => {
                    let items = pop_mark(&mut stack)?;
                    match stack.last_mut() {
                        Some(V::Dict(d)) => {
                            let mut it = items.into_iter();
                            while let (Some(k), Some(v)) = (it.next(), it.next()) {
                                d.push((k, v));
                            }
                        }
                        _ => return Err(bad("SETITEMS on a non-dict")),
                    }
                }
                b'a' => {
                    let v = pop(&mut stack)?;
                    match stack.last_mut() {
                        Some(V::List(l)) => l.push(v),
                        _ => return Err(bad("APPEND on a non-list")),
                    }
                }
                b'e' => {
                    let items = pop_mark(&mut stack)?;
                    match stack.last_mut() {
                        Some(V::List(l)) => l.extend(items),
                        _ => return Err(bad("APPENDS on a non-list")),
                    }
                }
                b'.' => return pop(&mut stack),
                other => return Err(bad(&format!("unsupported pickle opcode 0x{other:02x}"))),
            }
        }
    }
}

/// Number of values inside `v` (itself included).
fn weight(v: &V) -> usize {
    match v {
        V::Tuple(x) | V::List(x) => 1 + x.iter().map(weight).sum::<usize>(),
        V::Dict(x) => 1 + x.iter().map(|(k, v)| weight(k) + weight(v)).sum::<usize>(),
        V::Tensor { size, stride, .. } => 1 + size.len() + stride.len(),
        _ => 1,
    }
}

fn bad(m: &str) -> Error {
    Error::model(ModelProblem::Malformed, format!("not a readable legacy torch file: {m}"))
}

fn top(stack: &[V]) -> Result<&V> {
    stack.last().ok_or_else(|| bad("pickle stack underflow"))
}

fn pop(stack: &mut Vec<V>) -> Result<V> {
    match stack.pop() {
        Some(V::Mark) | None => Err(bad("pickle stack underflow")),
        Some(v) => Ok(v),
    }
}

fn pop_mark(stack: &mut Vec<V>) -> Result<Vec<V>> {
    let m = stack.iter().rposition(|v| matches!(v, V::Mark)).ok_or_else(|| bad("no MARK"))?;
    let items = stack.split_off(m + 1);
    stack.pop();
    Ok(items)
}

fn storage_from_pid(pid: V) -> Result<V> {
    match pid {
        V::Tuple(t) if t.len() >= 3 => match (&t[0], &t[1], &t[2]) {
            (V::Str(s), V::Global(_, dtype), V::Str(key)) if s == "storage" => {
                Ok(V::Storage { key: key.clone(), dtype: dtype.clone() })
            }
            _ => Err(bad("unexpected persistent id")),
        },
        _ => Err(bad("unexpected persistent id")),
    }
}

fn ints(v: &V) -> Result<Vec<usize>> {
    match v {
        V::Tuple(t) => t
            .iter()
            .map(|x| match x {
                V::Int(i) if *i >= 0 && *i < (1 << 31) => Ok(*i as usize),
                _ => Err(bad("bad tensor size")),
            })
            .collect(),
        _ => Err(bad("bad tensor size")),
    }
}

fn reduce(f: V, args: V) -> Result<V> {
    match f {
        V::Global(m, n) if m == "collections" && n == "OrderedDict" => Ok(V::Dict(Vec::new())),
        V::Global(m, n) if m == "torch._utils" && n == "_rebuild_tensor_v2" => {
            let V::Tuple(a) = args else { return Err(bad("bad tensor arguments")) };
            match (a.first(), a.get(1), a.get(2), a.get(3)) {
                (Some(V::Storage { key, dtype }), Some(V::Int(off)), Some(size), Some(stride))
                    if *off >= 0 =>
                {
                    Ok(V::Tensor {
                        key: key.clone(),
                        dtype: dtype.clone(),
                        offset: *off as usize,
                        size: ints(size)?,
                        stride: ints(stride)?,
                    })
                }
                _ => Err(bad("bad tensor arguments")),
            }
        }
        V::Global(m, n) => Err(bad(&format!("refusing to call {m}.{n}"))),
        _ => Err(bad("REDUCE on a non-callable")),
    }
}

/// The float tensors of a legacy (pre-zip) `torch.save` file holding a state dict, or a dict
/// with a `model_state` state dict. Only float32 storages are read.
pub fn read_legacy_torch(bytes: &[u8]) -> Result<Vec<Tensor>> {
    let mut p = Pickle { b: bytes, at: 0 };
    for _ in 0..3 {
        p.load()?; // magic number, protocol version, system info
    }
    let obj = p.load()?;
    let V::List(keys) = p.load()? else { return Err(bad("no storage key list")) };
    // Each storage: u64 element count, then its little-endian elements.
    let mut storages: HashMap<String, (usize, usize)> = HashMap::new();
    for k in keys {
        let V::Str(k) = k else { return Err(bad("bad storage key")) };
        let s = p.take(8)?;
        let n = u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]);
        let n = usize::try_from(n).map_err(|_| bad("storage too large"))?;
        let start = p.at;
        p.take(n.checked_mul(4).ok_or_else(|| bad("storage too large"))?)?;
        storages.insert(k, (start, n));
    }
    let V::Dict(mut state) = obj else { return Err(bad("top level is not a dict")) };
    if let Some(pos) = state.iter().position(|(k, _)| matches!(k, V::Str(s) if s == "model_state"))
    {
        match state.swap_remove(pos).1 {
            V::Dict(d) => state = d,
            _ => return Err(bad("model_state is not a dict")),
        }
    }
    let mut out = Vec::new();
    for (k, v) in state {
        let (V::Str(name), V::Tensor { key, dtype, offset, size, stride }) = (k, v) else {
            continue;
        };
        if dtype != "FloatStorage" {
            continue;
        }
        let &(start, n) = storages.get(&key).ok_or_else(|| bad("missing storage"))?;
        let count: usize = size.iter().product();
        if size.len() != stride.len() {
            return Err(bad("size and stride differ in rank"));
        }
        let mut data = Vec::with_capacity(count);
        let mut idx = vec![0usize; size.len()];
        for _ in 0..count {
            let e = offset + idx.iter().zip(&stride).map(|(i, s)| i * s).sum::<usize>();
            if e >= n {
                return Err(bad("tensor outside its storage"));
            }
            let b = &bytes[start + 4 * e..start + 4 * e + 4];
            data.push(f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            for d in (0..idx.len()).rev() {
                idx[d] += 1;
                if idx[d] < size[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
        out.push(Tensor { name, shape: size, data });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zip_errors_are_clean() {
        assert!(zip_member(b"", "x").is_err());
        assert!(zip_member(b"PK\x05\x06", "x").is_err());
        assert!(zip_member(&[0u8; 100], "x").is_err());
    }

    #[test]
    fn pickle_refuses_arbitrary_globals() {
        // PROTO 2, GLOBAL os system, STOP
        let p = b"\x80\x02cos\nsystem\n.";
        let e = Pickle { b: p, at: 0 }.load().unwrap_err();
        assert!(e.to_string().contains("refusing to load os.system"), "{e}");
        assert!(read_legacy_torch(b"\x80").is_err());
    }

    #[test]
    fn pickle_reference_bombs_are_refused() {
        // A list of 200 items memoised, then fetched 10 000 times.
        let mut p = b"\x80\x02](".to_vec();
        p.extend(std::iter::repeat_n(&b"K\x01"[..], 200).flatten());
        p.extend_from_slice(b"eq\x00(");
        p.extend(std::iter::repeat_n(&b"h\x00"[..], 10_000).flatten());
        p.extend_from_slice(b"t.");
        let e = Pickle { b: &p, at: 0 }.load().unwrap_err();
        assert!(e.to_string().contains("too complex"), "{e}");
    }

    #[test]
    fn sha256_of_empty() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}

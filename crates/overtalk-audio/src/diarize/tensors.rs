//! Named float tensors and the safetensors files they are kept in: the converted GE2E encoder
//! (`ge2e.safetensors`) is written by `overtalk models install` and read by every diarization.
//!
//! Reading goes through the `safetensors` crate (header bounds, offsets that tile the data
//! exactly, shapes that match their byte sizes); only F32 tensors are accepted.

use std::path::Path;

use overtalk::error::ModelProblem;
use overtalk::{Error, Result};

/// Largest wheel or model file read (bytes).
pub(super) const MAX_FILE_BYTES: u64 = 256 << 20;

/// The bytes of a file of at most [`MAX_FILE_BYTES`] (a larger one is a limit error, before
/// anything is read).
pub(super) fn read_bounded(path: &Path) -> Result<Vec<u8>> {
    let meta = std::fs::metadata(path).map_err(|e| Error::from(e).with_path(path))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(
            Error::limit(format!("file larger than {MAX_FILE_BYTES} bytes")).with_path(path)
        );
    }
    std::fs::read(path).map_err(|e| Error::from(e).with_path(path))
}

/// A named float tensor, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    /// The tensor's name (`lstm.weight_ih_l0`, …).
    pub name: String,
    /// Dimensions, outermost first.
    pub shape: Vec<usize>,
    /// Row-major values.
    pub data: Vec<f32>,
}

/// Serializes float tensors in the safetensors format (8-byte header length, JSON header,
/// little-endian data), with string metadata.
///
/// Not `safetensors::serialize`: it takes the metadata as a `HashMap` (random key order) and
/// reorders the tensors, so the installed file would change bytes from one install to the next.
pub fn write_safetensors(tensors: &[Tensor], metadata: &[(&str, String)]) -> Result<Vec<u8>> {
    let mut header = serde_json::Map::new();
    let meta: serde_json::Map<String, serde_json::Value> =
        metadata.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(v.clone()))).collect();
    header.insert("__metadata__".into(), serde_json::Value::Object(meta));
    let mut offset = 0usize;
    for t in tensors {
        let end = offset + 4 * t.data.len();
        header.insert(
            t.name.clone(),
            serde_json::json!({"dtype": "F32", "shape": t.shape, "data_offsets": [offset, end]}),
        );
        offset = end;
    }
    let mut h = serde_json::to_vec(&serde_json::Value::Object(header))
        .map_err(|e| Error::invalid(e.to_string()))?;
    while h.len() % 8 != 0 {
        h.push(b' ');
    }
    let mut out = Vec::with_capacity(8 + h.len() + offset);
    out.extend_from_slice(&(h.len() as u64).to_le_bytes());
    out.extend_from_slice(&h);
    for t in tensors {
        for v in &t.data {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    Ok(out)
}

/// Reads the F32 tensors of a safetensors file (other dtypes are an error), sorted by name.
pub fn read_safetensors(bytes: &[u8]) -> Result<Vec<Tensor>> {
    use safetensors::{Dtype, SafeTensorError, SafeTensors};
    let fail =
        |problem, m: &str| Error::model(problem, format!("not a readable safetensors file: {m}"));
    let bad = |m: &str| fail(ModelProblem::Malformed, m);
    let file = SafeTensors::deserialize(bytes).map_err(|e| match e {
        SafeTensorError::HeaderTooSmall => bad("shorter than 8 bytes"),
        SafeTensorError::InvalidHeaderLength => fail(ModelProblem::Truncated, "truncated header"),
        SafeTensorError::HeaderTooLarge => bad("header too large"),
        SafeTensorError::MetadataIncompleteBuffer => {
            fail(ModelProblem::Truncated, "truncated data")
        }
        e => bad(&e.to_string()),
    })?;
    let mut out = Vec::new();
    for (name, view) in file.tensors() {
        if view.dtype() != Dtype::F32 {
            return Err(bad(&format!("{name}: only F32 tensors are supported")));
        }
        let data =
            view.data().chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        out.push(Tensor { shape: view.shape().to_vec(), data: data.collect(), name });
    }
    out.sort_by(|x, y| x.name.cmp(&y.name));
    Ok(out)
}

/// Reads a safetensors file from disk (bounded size).
pub fn read_safetensors_file(path: &Path) -> Result<Vec<Tensor>> {
    read_safetensors(&read_bounded(path)?).map_err(|e| e.with_path(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shape whose byte size overflows is refused, not wrapped around to match the offsets.
    #[test]
    fn safetensors_shape_overflow_is_an_error() {
        let h = format!(
            r#"{{"a":{{"dtype":"F32","shape":[{}],"data_offsets":[0,0]}}}}"#,
            1usize << (usize::BITS - 2)
        );
        let mut bytes = (h.len() as u64).to_le_bytes().to_vec();
        bytes.extend_from_slice(h.as_bytes());
        let e = read_safetensors(&bytes).unwrap_err().to_string();
        assert!(e.contains("not a readable safetensors file"), "{e}");
    }

    #[test]
    fn safetensors_round_trip() {
        let t = vec![
            Tensor { name: "a".into(), shape: vec![2, 2], data: vec![1.0, -2.0, 3.5, 0.0] },
            Tensor { name: "b".into(), shape: vec![1], data: vec![7.0] },
        ];
        let bytes = write_safetensors(&t, &[("k", "v".into())]).unwrap();
        assert_eq!(read_safetensors(&bytes).unwrap(), t);
        assert!(read_safetensors(&bytes[..bytes.len() - 1]).is_err());
        assert!(read_safetensors(b"\xff\xff\xff\xff\xff\xff\xff\x7f").is_err());
    }

    /// Tensors written out of name order (the state dict's order) read back sorted by name.
    #[test]
    fn tensors_in_any_order_read_back_by_name() {
        let t = vec![
            Tensor { name: "z".into(), shape: vec![1], data: vec![1.0] },
            Tensor { name: "a".into(), shape: vec![2], data: vec![2.0, 3.0] },
        ];
        let got = read_safetensors(&write_safetensors(&t, &[]).unwrap()).unwrap();
        assert_eq!(got, vec![t[1].clone(), t[0].clone()]);
    }
}

//! A minimal ONNX (protobuf) writer for tests: small models written byte by byte, so the
//! user-model paths and their error messages are tested without any model download.
#![allow(dead_code)]

fn varint(mut v: u64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}
fn int(field: u64, v: i64, out: &mut Vec<u8>) {
    varint(field << 3, out);
    varint(v as u64, out);
}
fn bytes(field: u64, b: &[u8], out: &mut Vec<u8>) {
    varint((field << 3) | 2, out);
    varint(b.len() as u64, out);
    out.extend_from_slice(b);
}

/// A dimension: a fixed size or a named free one.
#[derive(Clone, Copy)]
pub enum D {
    N(i64),
    P(&'static str),
}

/// ValueInfoProto of a float32 tensor.
pub fn value(name: &str, dims: &[D]) -> Vec<u8> {
    let mut shape = Vec::new();
    for d in dims {
        let mut dim = Vec::new();
        match d {
            D::N(n) => int(1, *n, &mut dim),
            D::P(p) => bytes(2, p.as_bytes(), &mut dim),
        }
        bytes(1, &dim, &mut shape);
    }
    let mut tensor = Vec::new();
    int(1, 1, &mut tensor); // FLOAT
    bytes(2, &shape, &mut tensor);
    let mut ty = Vec::new();
    bytes(1, &tensor, &mut ty);
    let mut v = Vec::new();
    bytes(1, name.as_bytes(), &mut v);
    bytes(2, &ty, &mut v);
    v
}

/// NodeProto, with an optional `axes` INTS attribute.
pub fn node(op: &str, inputs: &[&str], outputs: &[&str], axes: Option<&[i64]>) -> Vec<u8> {
    node_keep(op, inputs, outputs, axes, None)
}

/// NodeProto, with optional `axes` (INTS) and `keepdims` (INT) attributes.
pub fn node_keep(
    op: &str,
    inputs: &[&str],
    outputs: &[&str],
    axes: Option<&[i64]>,
    keepdims: Option<i64>,
) -> Vec<u8> {
    let mut n = Vec::new();
    for i in inputs {
        bytes(1, i.as_bytes(), &mut n);
    }
    for o in outputs {
        bytes(2, o.as_bytes(), &mut n);
    }
    bytes(4, op.as_bytes(), &mut n);
    if let Some(axes) = axes {
        let mut a = Vec::new();
        bytes(1, b"axes", &mut a);
        for x in axes {
            int(8, *x, &mut a);
        }
        int(20, 7, &mut a); // INTS
        bytes(5, &a, &mut n);
    }
    if let Some(k) = keepdims {
        let mut a = Vec::new();
        bytes(1, b"keepdims", &mut a);
        int(3, k, &mut a);
        int(20, 2, &mut a); // INT
        bytes(5, &a, &mut n);
    }
    n
}

/// A float32 scalar initializer.
pub fn scalar(name: &str, v: f32) -> Vec<u8> {
    let mut t = Vec::new();
    int(2, 1, &mut t);
    bytes(8, name.as_bytes(), &mut t);
    bytes(9, &v.to_le_bytes(), &mut t);
    t
}

/// ModelProto (opset 13) of one graph.
pub fn model(
    inputs: &[Vec<u8>],
    outputs: &[Vec<u8>],
    nodes: &[Vec<u8>],
    init: &[Vec<u8>],
) -> Vec<u8> {
    let mut g = Vec::new();
    for n in nodes {
        bytes(1, n, &mut g);
    }
    bytes(2, b"g", &mut g);
    for i in init {
        bytes(5, i, &mut g);
    }
    for i in inputs {
        bytes(11, i, &mut g);
    }
    for o in outputs {
        bytes(12, o, &mut g);
    }
    let mut opset = Vec::new();
    bytes(1, b"", &mut opset);
    int(2, 13, &mut opset);
    let mut m = Vec::new();
    int(1, 7, &mut m);
    bytes(8, &opset, &mut m);
    bytes(7, &g, &mut m);
    m
}

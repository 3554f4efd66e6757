//! Event lists as columns: the Arrow buffers of each field (validity bitmap, values, string
//! offsets), built here from the analysis' own values and handed to pyarrow as bytes, which
//! it wraps without copying (`pa.Array.from_buffers`). No JSON text is written or parsed, and
//! no Python object is made per value.
//!
//! ```text
//! rows (serde values of OnsetOut, TurnOut, …)       columns
//! {speaker: "A", time: 120, p: 0.8}         ─►  speaker  utf8     offsets [0,1,2]  data "AB"
//! {speaker: "B", time: 400, p: null}            time     int64    [120, 400]
//!                                               p        float64  [0.8, ·]  validity 0b01
//! ```
//!
//! Each column has the type its field declares in the output's schema
//! ([`overtalk::output::schema::row_fields`]): int64 (integers), float64 (numbers), bool, utf8;
//! nested values (a speaker's counts, say) are their JSON text. So a column of nulls only, or
//! a table without rows, has the same columns and types as any other: tables of many
//! conversations concatenate. A field the schema does not declare takes the narrowest type
//! that holds its values (nulls only: the null type), and a value of another kind than
//! declared widens the column (an integer column meeting a fraction becomes float64; mixed
//! kinds become JSON text) rather than being lost.
//!
//! The Arrow C data interface itself would need raw pointers (`unsafe`) or the arrow crates,
//! whose build the Python CI step cannot afford; the buffers are the same bytes.

use serde_json::Value;

pub(crate) use overtalk::output::schema::FieldType;

/// One column as Arrow buffers.
pub(crate) struct Column {
    /// The field name.
    pub(crate) name: String,
    /// `null`, `int64`, `double`, `bool`, `string` or `large_string` (the pyarrow type).
    pub(crate) kind: &'static str,
    /// Number of values.
    pub(crate) len: usize,
    /// Number of nulls.
    pub(crate) nulls: usize,
    /// The validity bitmap (bit i set: value i present), absent without nulls.
    pub(crate) validity: Option<Vec<u8>>,
    /// The buffers after the validity: values (fixed width or a bitmap), or string offsets
    /// then string data.
    pub(crate) buffers: Vec<Vec<u8>>,
}

/// What a column can hold, from its values.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Null,
    Int,
    Float,
    Bool,
    Str,
    /// Nested or mixed: the JSON text of each value.
    Json,
}

fn kind_of(v: &Value) -> Kind {
    match v {
        Value::Null => Kind::Null,
        Value::Bool(_) => Kind::Bool,
        Value::Number(n) if n.is_i64() => Kind::Int,
        // u64 beyond i64 and fractions.
        Value::Number(_) => Kind::Float,
        Value::String(_) => Kind::Str,
        Value::Array(_) | Value::Object(_) => Kind::Json,
    }
}

/// The kind of a column whose values so far are `a`, given a value of kind `b`.
fn widen(a: Kind, b: Kind) -> Kind {
    match (a, b) {
        (k, Kind::Null) | (Kind::Null, k) => k,
        (x, y) if x == y => x,
        (Kind::Int, Kind::Float) | (Kind::Float, Kind::Int) => Kind::Float,
        _ => Kind::Json,
    }
}

/// Bit `i` of an LSB-first bitmap set.
fn set_bit(bitmap: &mut [u8], i: usize) {
    bitmap[i / 8] |= 1 << (i % 8);
}

/// What becomes of a column of nested values.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Nested {
    /// Kept, as the JSON text of each value.
    Json,
    /// Left out.
    Drop,
}

/// The column kind a declared field type starts from.
fn declared_kind(ty: FieldType) -> Kind {
    match ty {
        FieldType::Integer => Kind::Int,
        FieldType::Number => Kind::Float,
        FieldType::Boolean => Kind::Bool,
        FieldType::String => Kind::Str,
        FieldType::Nested => Kind::Json,
    }
}

/// The columns of `rows` (objects): the `declared` fields first, in that order and of their
/// declared types (present even without rows), then any others in the order met, typed by
/// their values.
pub(crate) fn columns(
    rows: &[Value],
    declared: &[(String, FieldType)],
    nested: Nested,
) -> Vec<Column> {
    let mut names: Vec<(&str, Kind)> =
        declared.iter().map(|(name, ty)| (name.as_str(), declared_kind(*ty))).collect();
    for r in rows {
        if let Value::Object(m) = r {
            for k in m.keys() {
                if !names.iter().any(|(name, _)| name == k) {
                    names.push((k, Kind::Null));
                }
            }
        }
    }
    let n = rows.len();
    let mut out = Vec::with_capacity(names.len());
    for (name, start) in names {
        let values: Vec<&Value> =
            rows.iter().map(|r| r.get(name).unwrap_or(&Value::Null)).collect();
        let kind = values.iter().fold(start, |k, v| widen(k, kind_of(v)));
        if kind == Kind::Json && nested == Nested::Drop {
            continue;
        }
        let mut validity = vec![0u8; n.div_ceil(8)];
        let mut nulls = 0;
        for (i, v) in values.iter().enumerate() {
            if v.is_null() {
                nulls += 1;
            } else {
                set_bit(&mut validity, i);
            }
        }
        let (kind_name, buffers) = match kind {
            Kind::Null => ("null", Vec::new()),
            Kind::Int => {
                let data = values.iter().flat_map(|v| v.as_i64().unwrap_or(0).to_le_bytes());
                ("int64", vec![data.collect()])
            }
            Kind::Float => {
                let data = values.iter().flat_map(|v| v.as_f64().unwrap_or(0.0).to_le_bytes());
                ("double", vec![data.collect()])
            }
            Kind::Bool => {
                let mut bits = vec![0u8; n.div_ceil(8)];
                for (i, v) in values.iter().enumerate() {
                    if v.as_bool() == Some(true) {
                        set_bit(&mut bits, i);
                    }
                }
                ("bool", vec![bits])
            }
            Kind::Str | Kind::Json => strings(&values, kind == Kind::Json),
        };
        out.push(Column {
            name: name.to_owned(),
            kind: kind_name,
            len: n,
            nulls: if kind == Kind::Null { n } else { nulls },
            validity: (nulls > 0 && kind != Kind::Null).then_some(validity),
            buffers,
        });
    }
    out
}

/// Offsets and data of a utf8 column: 32-bit offsets while the data fits, else 64-bit
/// (`large_string`). `json`: every value as its JSON text (strings included, so a column that
/// mixes kinds reads back unambiguously).
fn strings(values: &[&Value], json: bool) -> (&'static str, Vec<Vec<u8>>) {
    let mut data = Vec::new();
    let mut ends = Vec::with_capacity(values.len());
    for v in values {
        match v {
            Value::Null => {}
            Value::String(s) if !json => data.extend_from_slice(s.as_bytes()),
            other => data.extend_from_slice(other.to_string().as_bytes()),
        }
        ends.push(data.len());
    }
    let starts = std::iter::once(0).chain(ends);
    if let Ok(last) = i32::try_from(data.len()) {
        // Every offset is at most the last.
        let offsets = starts.flat_map(|e| i32::try_from(e).unwrap_or(last).to_le_bytes());
        ("string", vec![offsets.collect(), data])
    } else {
        let offsets = starts.flat_map(|e| i64::try_from(e).unwrap_or(i64::MAX).to_le_bytes());
        ("large_string", vec![offsets.collect(), data])
    }
}

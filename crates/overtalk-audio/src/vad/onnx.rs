//! Loading and running ONNX files with tract (pure Rust), with the checks a user-supplied file
//! needs: a size cap, declared input types and shapes compared with the interface the caller
//! documents, a trial run whose outputs are checked, and every tract failure (or panic) turned
//! into an [`Error`] that names the file.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;

use overtalk::error::ModelProblem;
use overtalk::{Error, Result};
use tract_onnx::prelude::*;
use tract_onnx::tract_hir::infer::{GenericFactoid, InferenceFact};

/// Largest model file read (bytes).
pub(crate) const MAX_MODEL_BYTES: u64 = 512 << 20;

/// One dimension of a documented input: a fixed size or a free one (named in messages).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Dim {
    /// Exactly this size.
    Fixed(usize),
    /// Any size, chosen at each call (a batch or time axis); the name is used in messages.
    Free(&'static str),
}

/// The documented float32 input a model must accept.
#[derive(Clone, Debug)]
pub(crate) struct InputSpec {
    /// The input's role, used in messages (`input`, `h`, …).
    pub(crate) name: &'static str,
    /// Its shape.
    pub(crate) dims: Vec<Dim>,
}

impl InputSpec {
    fn shape_text(&self) -> String {
        let d: Vec<String> = self
            .dims
            .iter()
            .map(|d| match d {
                Dim::Fixed(n) => n.to_string(),
                Dim::Free(s) => (*s).to_string(),
            })
            .collect();
        format!("{} [{}]", self.name, d.join(", "))
    }
}

/// A loaded, optimised model ready to run; cheap to share between threads.
#[derive(Clone)]
pub(crate) struct OnnxPlan {
    plan: Arc<TypedSimplePlan>,
}

impl std::fmt::Debug for OnnxPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnnxPlan")
    }
}

/// A float32 tensor returned by a model: its shape and row-major values.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Output {
    pub(crate) shape: Vec<usize>,
    pub(crate) data: Vec<f32>,
}

/// Reads a model file, refusing files over [`MAX_MODEL_BYTES`].
pub(crate) fn read_model(path: &Path) -> Result<Vec<u8>> {
    let meta = std::fs::metadata(path).map_err(|e| Error::from(e).with_path(path))?;
    if !meta.is_file() {
        return Err(Error::model(ModelProblem::Missing, "not a file").with_path(path));
    }
    if meta.len() > MAX_MODEL_BYTES {
        return Err(
            Error::limit(format!("model file larger than {MAX_MODEL_BYTES} bytes")).with_path(path)
        );
    }
    std::fs::read(path).map_err(|e| Error::from(e).with_path(path))
}

/// Why tract failed: its error (kept as the cause of the error reported) or a panic inside it.
#[derive(Debug)]
enum TractFailure {
    /// tract returned an error.
    Error(TractError),
    /// tract panicked (caught, so a bad model file cannot bring the program down).
    Panic,
}

impl TractFailure {
    /// The failure in one readable line, for the message of the error reported.
    fn message(&self) -> String {
        match self {
            TractFailure::Error(e) => short(&format!("{e:#}")),
            TractFailure::Panic => "the ONNX runtime failed on this model (internal panic)".into(),
        }
    }

    /// `error` with tract's error as its [`source`](std::error::Error::source), when there is
    /// one.
    fn cause_of(self, error: Error) -> Error {
        match self {
            TractFailure::Error(e) => error.with_source(e),
            TractFailure::Panic => error,
        }
    }
}

/// Runs `f`, catching a tract error or a panic inside tract.
fn guarded<T>(f: impl FnOnce() -> TractResult<T>) -> std::result::Result<T, TractFailure> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(TractFailure::Error(e)),
        Err(_) => Err(TractFailure::Panic),
    }
}

/// An error saying `what` failed (`"not a readable ONNX model"`, …), with tract's message
/// and, as its source, tract's error.
fn failed(what: &str, failure: TractFailure) -> Error {
    let message = format!("{what}: {}", failure.message());
    failure.cause_of(Error::model(ModelProblem::Malformed, message))
}

/// `1 input`, `2 inputs`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Keeps messages from tract to one readable line.
fn short(s: &str) -> String {
    let one = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > 400 {
        let cut: String = one.chars().take(400).collect();
        format!("{cut}…")
    } else {
        one
    }
}

/// Parses ONNX bytes and checks the declared inputs against `inputs` (count, element type,
/// rank, fixed sizes) and the number of outputs, then optimises the model for those shapes.
/// `what` describes the expected interface in error messages.
pub(crate) fn load(
    bytes: &[u8],
    inputs: &[InputSpec],
    outputs: usize,
    what: &str,
) -> Result<OnnxPlan> {
    let expected: Vec<String> = inputs.iter().map(InputSpec::shape_text).collect();
    let expected = expected.join(", ");
    let bad = |problem: ModelProblem, m: String| {
        Error::model(problem, format!("not a usable {what}: {m} (expected inputs {expected})"))
    };
    // A tract error, its message in the text and the error itself kept as the cause.
    let bad_tract = |e: TractError| bad(ModelProblem::Malformed, e.to_string()).with_source(e);
    let mut model = guarded(|| tract_onnx::onnx().model_for_read(&mut &bytes[..]))
        .map_err(|f| failed("not a readable ONNX model", f))?;
    let n_in = model.input_outlets().map_err(bad_tract)?.len();
    let n_out = model.output_outlets().map_err(bad_tract)?.len();
    if n_in != inputs.len() {
        return Err(bad(
            ModelProblem::Shape,
            format!("it has {} where {} are expected", count(n_in, "input"), inputs.len()),
        ));
    }
    if n_out != outputs {
        return Err(bad(
            ModelProblem::Shape,
            format!("it has {} where {outputs} are expected", count(n_out, "output")),
        ));
    }
    for (i, spec) in inputs.iter().enumerate() {
        let declared = model.input_fact(i).map_err(bad_tract)?.clone();
        check_declared(&declared, spec)
            .map_err(|m| bad(ModelProblem::Shape, format!("input {i} ({}): {m}", spec.name)))?;
        let dims: Vec<TDim> = spec
            .dims
            .iter()
            .map(|d| match d {
                Dim::Fixed(n) => TDim::from(*n),
                Dim::Free(name) => TDim::from(model.sym(name)),
            })
            .collect();
        let fact: InferenceFact = f32::fact(dims).into();
        model.set_input_fact(i, fact).map_err(bad_tract)?;
    }
    let plan = guarded(|| model.into_optimized()?.into_runnable()).map_err(|f| {
        let message = f.message();
        f.cause_of(bad(ModelProblem::Malformed, message))
    })?;
    Ok(OnnxPlan { plan })
}

/// Compares what the file declares for an input with the documented shape: a declared fixed
/// size must match, a declared free (named) size is accepted anywhere.
fn check_declared(fact: &InferenceFact, spec: &InputSpec) -> std::result::Result<(), String> {
    if let GenericFactoid::Only(dt) = fact.datum_type {
        if dt != DatumType::F32 {
            return Err(format!("element type {dt:?}, expected float32"));
        }
    }
    if fact.shape.is_open() {
        return Ok(());
    }
    let dims: Vec<&GenericFactoid<TDim>> = fact.shape.dims().collect();
    let declared: Vec<Option<i64>> = dims
        .iter()
        .map(|d| match d {
            GenericFactoid::Only(t) => t.as_i64(),
            GenericFactoid::Any => None,
        })
        .collect();
    let shown: Vec<String> = dims
        .iter()
        .map(|d| match d {
            GenericFactoid::Only(t) => t.to_string(),
            GenericFactoid::Any => "?".to_string(),
        })
        .collect();
    let shown = format!("[{}]", shown.join(", "));
    if declared.len() != spec.dims.len() {
        return Err(format!(
            "declared shape {shown} has rank {}, expected {}",
            declared.len(),
            spec.dims.len()
        ));
    }
    for (d, want) in declared.iter().zip(&spec.dims) {
        if let (Some(got), Dim::Fixed(n)) = (d, want) {
            if *got != *n as i64 {
                return Err(format!("declared shape {shown}, expected {}", spec.shape_text()));
            }
        }
    }
    Ok(())
}

impl OnnxPlan {
    /// Runs the model on float32 inputs given as (shape, row-major values); returns every
    /// output as float32.
    pub(crate) fn run(&self, inputs: &[(&[usize], &[f32])]) -> Result<Vec<Output>> {
        let plan = &self.plan;
        let outs = guarded(|| {
            let tensors: TVec<TValue> = inputs
                .iter()
                .map(|(shape, data)| Tensor::from_shape(shape, data).map(|t| t.into_tvalue()))
                .collect::<TractResult<_>>()?;
            let outs = plan.run(tensors)?;
            outs.iter()
                .map(|o| {
                    let o = o.cast_to::<f32>()?;
                    let view = o.to_plain_array_view::<f32>()?;
                    Ok(Output { shape: o.shape().to_vec(), data: view.iter().copied().collect() })
                })
                .collect::<TractResult<Vec<Output>>>()
        })
        .map_err(|f| failed("running the ONNX model failed", f))?;
        Ok(outs)
    }
}

/// The declared rank and last dimension of input 0 (`None` where the file leaves them open), so
/// a caller can tell which of its documented interfaces a file follows before loading it.
pub(crate) fn first_input_shape(bytes: &[u8]) -> Result<(Option<usize>, Option<i64>)> {
    let model = guarded(|| tract_onnx::onnx().model_for_read(&mut &bytes[..]))
        .map_err(|f| failed("not a readable ONNX model", f))?;
    let fact = match model.input_fact(0) {
        Ok(f) => f.clone(),
        Err(e) => {
            return Err(Error::model(
                ModelProblem::Malformed,
                "not a usable model: it has no inputs",
            )
            .with_source(e))
        }
    };
    if fact.shape.is_open() {
        return Ok((None, None));
    }
    let dims: Vec<&GenericFactoid<TDim>> = fact.shape.dims().collect();
    let last = match dims.last() {
        Some(GenericFactoid::Only(t)) => t.as_i64(),
        _ => None,
    };
    Ok((Some(dims.len()), last))
}

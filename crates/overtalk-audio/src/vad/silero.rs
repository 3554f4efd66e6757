//! Silero VAD v6 through tract (pure Rust), and any model with the same interface.
//!
//! The model file is `silero_vad_16k_sequence.onnx` from the `silero-vad` 6.2.3 wheel on PyPI
//! (MIT), installed by `overtalk models install silero` (never part of this repository). It is
//! the variant of Silero that tract can load: the main `silero_vad.onnx` contains `If` nodes
//! tract does not support, this one does not, and it scores a whole batch of consecutive chunks
//! in one call, which is what makes it fast (≈590× real time on one core).
//!
//! # The model interface (also for `--vad-model FILE.onnx`)
//!
//! | | name in Silero | type and shape | meaning |
//! | --- | --- | --- | --- |
//! | input 0 | `input` | float32 `[N, 576]` | `N` consecutive 32 ms chunks of 16 kHz audio in `[-1, 1]`; each row is the previous chunk's last 64 samples (zeros before the first) followed by the chunk's 512 samples |
//! | input 1 | `h` | float32 `[1, 1, 128]` | recurrent state (zeros at the start of a signal) |
//! | input 2 | `c` | float32 `[1, 1, 128]` | recurrent state (zeros at the start of a signal) |
//! | output 0 | `speech_probs` | float32 `[N]` or `[N, 1]` | speech probability of each chunk, in `[0, 1]` |
//! | output 1 | `hn` | float32 `[1, 1, 128]` | the state after the last chunk, fed back as `h` |
//! | output 2 | `cn` | float32 `[1, 1, 128]` | the state after the last chunk, fed back as `c` |
//!
//! Inputs and outputs are taken by position. `N` must be free (any batch size works); the chunks
//! of one batch are consecutive in time, so the model runs its recurrence over them in order.
//! A file that does not fit (another number of inputs or outputs, a declared shape that differs,
//! outputs of the wrong shape or outside `[0, 1]` on a trial run) is refused when it is loaded,
//! with a message saying what differs.
//!
//! ```text
//! signal  |<-- 512 -->|<-- 512 -->|<-- 512 -->| …
//! row 0   [64 zeros | chunk 0]
//! row 1        [last 64 of chunk 0 | chunk 1]
//! row 2                    [last 64 of chunk 1 | chunk 2]
//!          └── up to 32 rows per call; h, c and the 64-sample context carry over ──┘
//! ```

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use overtalk::error::ModelProblem;
use overtalk::{Error, Result};

use super::onnx::{self, Dim, InputSpec, OnnxPlan};
use super::Vad;

/// New samples per chunk (32 ms at 16 kHz).
pub const CHUNK: usize = 512;
/// Samples of the previous chunk prepended to each row.
pub const CONTEXT: usize = 64;
/// Length of one input row: [`CONTEXT`] + [`CHUNK`].
pub const ROW: usize = CONTEXT + CHUNK;
/// Size of each recurrent state tensor (`[1, 1, STATE]`).
pub const STATE: usize = 128;
/// Chunks scored per model call when a whole stream is available (about one second).
pub const BATCH: usize = 32;
/// Most chunks passed to the model in one call (bounds memory for any caller).
const MAX_BATCH: usize = 1024;

fn interface() -> Vec<InputSpec> {
    vec![
        InputSpec { name: "input", dims: vec![Dim::Free("N"), Dim::Fixed(ROW)] },
        InputSpec { name: "h", dims: vec![Dim::Fixed(1), Dim::Fixed(1), Dim::Fixed(STATE)] },
        InputSpec { name: "c", dims: vec![Dim::Fixed(1), Dim::Fixed(1), Dim::Fixed(STATE)] },
    ]
}

/// A loaded model with the Silero sequence interface (see the module docs), shared by any
/// number of [`SileroVad`]s.
pub struct SileroModel {
    plan: OnnxPlan,
    source: PathBuf,
}

impl std::fmt::Debug for SileroModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SileroModel").field("source", &self.source).finish()
    }
}

impl SileroModel {
    /// Loads and checks a model file.
    pub fn load(path: &Path) -> Result<SileroModel> {
        let bytes = onnx::read_model(path)?;
        let mut m = SileroModel::from_bytes(&bytes).map_err(|e| e.with_path(path))?;
        m.source = path.to_path_buf();
        Ok(m)
    }

    /// Loads and checks a model held in memory.
    pub fn from_bytes(bytes: &[u8]) -> Result<SileroModel> {
        let plan = onnx::load(bytes, &interface(), 3, "voice activity model")?;
        let m = SileroModel { plan, source: PathBuf::new() };
        m.trial()?;
        Ok(m)
    }

    /// The Silero model installed by `overtalk models install silero` in the model directory.
    pub fn installed() -> Result<SileroModel> {
        let path = crate::diarize::models::silero_path(&crate::diarize::models::model_dir()?);
        if !path.exists() {
            return Err(Error::model(
                ModelProblem::Missing,
                format!(
                    "the Silero voice activity model is not installed (looked for {}); run \
                 `overtalk models install silero`, or give a model file with --vad-model FILE.onnx",
                    path.display()
                ),
            ));
        }
        SileroModel::load(&path)
    }

    /// The file the model came from (empty when loaded from memory).
    pub fn source(&self) -> &Path {
        &self.source
    }

    /// Runs a few chunks of silence and a loud tone from a fresh state and checks the output
    /// shapes and ranges, so a model that does not fit the interface is refused at load time.
    fn trial(&self) -> Result<()> {
        let mut rows = vec![0.0f32; 3 * ROW];
        for (i, v) in rows[2 * ROW..].iter_mut().enumerate() {
            *v = 0.5 * (i as f32 * 0.13).sin();
        }
        let mut h = vec![0.0; STATE];
        let mut c = vec![0.0; STATE];
        let p = self.run(&rows, 3, &mut h, &mut c)?;
        if let Some(bad) = p.iter().find(|v| !(0.0..=1.0).contains(*v)) {
            return Err(Error::model(
                ModelProblem::Malformed,
                format!(
                    "not a usable voice activity model: output 0 gave {bad}, not a probability in \
                 [0, 1] (a model that returns logits needs a Sigmoid at the end)"
                ),
            ));
        }
        Ok(())
    }

    /// Scores `n` rows of [`ROW`] samples, updating the state in place.
    fn run(&self, rows: &[f32], n: usize, h: &mut [f32], c: &mut [f32]) -> Result<Vec<f32>> {
        let state = [1, 1, STATE];
        let outs = self.plan.run(&[(&[n, ROW][..], rows), (&state[..], &*h), (&state[..], &*c)])?;
        let bad = |m: String| {
            Error::model(ModelProblem::Shape, format!("not a usable voice activity model: {m}"))
        };
        let [p, hn, cn] = outs.as_slice() else {
            return Err(bad(format!("it returned {} outputs, not 3", outs.len())));
        };
        if !(p.shape == [n, 1] || p.shape == [n]) {
            return Err(bad(format!(
                "output 0 has shape {:?} for {n} chunks, expected [{n}, 1] or [{n}]",
                p.shape
            )));
        }
        for (i, s) in [(1, hn), (2, cn)] {
            if s.shape != state {
                return Err(bad(format!(
                    "output {i} has shape {:?}, expected [1, 1, {STATE}]",
                    s.shape
                )));
            }
        }
        h.copy_from_slice(&hn.data);
        c.copy_from_slice(&cn.data);
        Ok(p.data.clone())
    }
}

/// The model every [`VadKind::Silero`](super::VadKind::Silero) detector uses, when one was
/// chosen (or loaded once from the model directory).
static SHARED: Mutex<Option<Arc<SileroModel>>> = Mutex::new(None);

/// Makes `model` the one [`VadKind::Silero`](super::VadKind::Silero) builds with (for the whole
/// process), instead of the installed Silero model. This is what `--vad-model FILE.onnx` does.
pub fn use_model(model: SileroModel) -> Arc<SileroModel> {
    let m = Arc::new(model);
    *SHARED.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::clone(&m));
    m
}

/// The model chosen with [`use_model`], or else the installed Silero model (loaded on first use
/// and kept).
pub fn shared_model() -> Result<Arc<SileroModel>> {
    let mut slot = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(m) = slot.as_ref() {
        return Ok(Arc::clone(m));
    }
    let m = Arc::new(SileroModel::installed()?);
    *slot = Some(Arc::clone(&m));
    Ok(m)
}

/// Silero VAD v6 (or a model with its interface): 512-sample (32 ms) frames at 16 kHz, scored in
/// batches of [`BATCH`] with the recurrent state and the 64-sample context carried between
/// calls, so a stream gives the same probabilities however it is split.
pub struct SileroVad {
    model: Option<Arc<SileroModel>>,
    h: Vec<f32>,
    c: Vec<f32>,
    context: [f32; CONTEXT],
    rows: Vec<f32>,
}

impl std::fmt::Debug for SileroVad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SileroVad").field("model", &self.model).finish()
    }
}

impl SileroVad {
    /// A detector at the start of a signal.
    pub fn new(model: Arc<SileroModel>) -> SileroVad {
        SileroVad::with(Some(model))
    }

    /// A detector using [`shared_model`]. If no model can be loaded it finds no speech; use
    /// [`shared_model`] directly to get the reason.
    pub fn shared() -> SileroVad {
        SileroVad::with(shared_model().ok())
    }

    fn with(model: Option<Arc<SileroModel>>) -> SileroVad {
        SileroVad {
            model,
            h: vec![0.0; STATE],
            c: vec![0.0; STATE],
            context: [0.0; CONTEXT],
            rows: Vec::new(),
        }
    }

    /// Scores up to [`MAX_BATCH`] whole chunks.
    fn score(&mut self, chunks: &[f32], out: &mut Vec<f32>) {
        let n = chunks.len() / CHUNK;
        self.rows.clear();
        for chunk in chunks.chunks_exact(CHUNK) {
            self.rows.extend_from_slice(&self.context);
            let start = self.rows.len();
            // The model expects finite samples in [-1, 1].
            self.rows.extend(chunk.iter().map(|&s| {
                if s.is_finite() {
                    s.clamp(-1.0, 1.0)
                } else {
                    0.0
                }
            }));
            self.context.copy_from_slice(&self.rows[start + CHUNK - CONTEXT..]);
        }
        let scored = match &self.model {
            Some(m) => m.run(&self.rows, n, &mut self.h, &mut self.c).ok(),
            None => None,
        };
        match scored {
            Some(p) => {
                out.extend(
                    p.into_iter().map(|v| if v.is_finite() { v.clamp(0.0, 1.0) } else { 0.0 }),
                )
            }
            None => out.extend(std::iter::repeat_n(0.0, n)),
        }
    }
}

impl Vad for SileroVad {
    fn name(&self) -> &'static str {
        "silero"
    }

    fn frame_samples(&self) -> usize {
        CHUNK
    }

    fn predict(&mut self, frame: &[f32]) -> f32 {
        let mut chunk = [0.0f32; CHUNK];
        for (d, s) in chunk.iter_mut().zip(frame) {
            *d = *s;
        }
        let mut out = Vec::with_capacity(1);
        self.score(&chunk, &mut out);
        out.first().copied().unwrap_or(0.0)
    }

    fn reset(&mut self) {
        self.h.fill(0.0);
        self.c.fill(0.0);
        self.context = [0.0; CONTEXT];
    }

    fn batch_frames(&self) -> usize {
        BATCH
    }

    fn predict_many(&mut self, frames: &[f32], out: &mut Vec<f32>) {
        let whole = frames.len() / CHUNK * CHUNK;
        for group in frames[..whole].chunks(MAX_BATCH * CHUNK) {
            self.score(group, out);
        }
    }
}

//! Test helpers shared by the overtalk crates (a dev-dependency only, never published):
//!
//! - [`shared_data`]: the corpora of real data beside the repository, or a printed skip;
//! - [`fixtures`], [`audio_fixture`], [`repo_root`]: the repository's own small test files;
//! - [`ami_es2004a_headsets`]: the four headset tracks of the shared AMI ES2004a excerpt;
//! - [`Scratch`]: a temporary directory with helpers to write and read its files;
//! - [`chords`], [`talk`]: held chords and a voice-like signal at 16 kHz, the music and the
//!   speech of the music meter's tests;
//! - [`strategies`]: proptest strategies for model values.

use std::path::{Path, PathBuf};

pub mod strategies;

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir.ancestors().nth(2).unwrap_or(crate_dir).to_path_buf()
}

/// The shared data folder (`$OVERTALK_SHARED_DATA`, else `../shared/data` beside the
/// repository), or `None` with a printed reason naming `test`. When
/// `OVERTALK_REQUIRE_SHARED_DATA` is set (CI sets it), absence is a test failure instead of a
/// skip.
pub fn shared_data(test: &str) -> Option<PathBuf> {
    let path = std::env::var_os("OVERTALK_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared/data"));
    if path.is_dir() {
        return Some(path);
    }
    assert!(
        std::env::var_os("OVERTALK_REQUIRE_SHARED_DATA").is_none(),
        "{test}: shared data not found at {} and OVERTALK_REQUIRE_SHARED_DATA is set",
        path.display()
    );
    eprintln!(
        "skipping {test}: shared data not found at {} (set OVERTALK_SHARED_DATA)",
        path.display()
    );
    None
}

/// The library's small fixtures (`crates/overtalk/tests/data`), each with its provenance in
/// its folder's README.
pub fn fixtures() -> PathBuf {
    repo_root().join("crates/overtalk/tests/data")
}

/// The headset tracks of the AMI ES2004a excerpt in `dir` (the shared data's
/// `real-audio/ami-es2004a-multitrack`): each speaker's name, as `mixture.ref.rttm` names it,
/// and mic file (`source0.wav` … `source3.wav`).
pub fn ami_es2004a_headsets(dir: &Path) -> Vec<(String, PathBuf)> {
    ["MEO015", "FEE013", "MEE014", "FEE016"]
        .iter()
        .enumerate()
        .map(|(i, name)| ((*name).to_owned(), dir.join(format!("source{i}.wav"))))
        .collect()
}

/// One file of the audio crate's fixtures (`crates/overtalk-audio/tests/data/NAME`).
pub fn audio_fixture(name: &str) -> PathBuf {
    repo_root().join("crates/overtalk-audio/tests/data").join(name)
}

/// A scratch directory, removed when dropped.
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// A new empty directory.
    ///
    /// # Panics
    /// When no temporary directory can be made (a broken test machine).
    pub fn new() -> Scratch {
        Scratch { dir: tempfile::tempdir().expect("temporary directory") }
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file (creating its parents) and returns its path.
    ///
    /// # Panics
    /// When the file cannot be written.
    pub fn create(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("scratch folder");
        }
        std::fs::write(&path, contents).expect("scratch file written");
        path
    }

    /// Reads a file of the directory as text.
    ///
    /// # Panics
    /// When the file is missing or not UTF-8.
    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).expect("scratch file read")
    }
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch::new()
    }
}

/// Held chords at 16 kHz, `samples` long: three notes with their first four partials (partial
/// h at 1/h), 4 s per chord, cycling through three chords; unscaled (peaks near ±4), for each
/// test to scale to its level. The music of the music meter's tests: 100 % of it holds its
/// level and its partials with no pauses.
pub fn chords(samples: usize) -> Vec<f32> {
    let notes = [[220.0, 277.2, 329.6], [196.0, 246.9, 293.7], [174.6, 220.0, 261.6]];
    (0..samples)
        .map(|i| {
            let t = i as f32 / 16_000.0;
            let mut v = 0.0;
            for f in notes[(i / 64_000) % 3] {
                for h in 1..=4 {
                    v += (2.0 * std::f32::consts::PI * f * h as f32 * t).sin() / h as f32;
                }
            }
            v
        })
        .collect()
}

/// A voice-like signal: syllables of 120–250 ms with gliding pitch and a formant that
/// moves, 40–150 ms of silence between them and 400 ms between phrases of five; the
/// lengths vary from syllable to syllable, as a voice's do; `seconds` long at 16 kHz. The
/// speech of the music meter's tests: it does not sound like music.
pub fn talk(seconds: usize) -> Vec<f32> {
    const RATE: usize = 16_000;
    let mut out = Vec::with_capacity(seconds * RATE);
    let mut k = 0usize;
    while out.len() < seconds * RATE {
        let f0 = 110.0 + 15.0 * ((k * 7) % 5) as f32;
        let formant = 500.0 + 300.0 * ((k * 3) % 4) as f32;
        let n = RATE * (120 + (k * 37) % 131) / 1000;
        let mut phase = 0.0f32;
        for i in 0..n {
            let t = i as f32 / RATE as f32;
            let f = f0 * (1.0 + 0.3 * t);
            phase += 2.0 * std::f32::consts::PI * f / RATE as f32;
            let env = (std::f32::consts::PI * i as f32 / n as f32).sin();
            let mut v = 0.0;
            for h in 1..=30 {
                let fh = f * h as f32;
                let gain = 1.0 / (1.0 + ((fh - formant) / 150.0).powi(2));
                v += gain * (phase * h as f32).sin();
            }
            out.push(0.1 * env * v);
        }
        let gap = if k % 5 == 4 { 400 } else { 40 + (k * 53) % 111 };
        out.extend(std::iter::repeat_n(0.0, RATE * gap / 1000));
        k += 1;
    }
    out.truncate(seconds * RATE);
    out
}

//! Replay of recordings (`--track NAME=FILE`) through the source callback path, paced by the
//! audio clock: block `n` (from 0) is delivered when the wall clock reaches
//! `(n + 1) · block / speed` after the start, when its last sample would have been captured (as
//! a capture device delivers it), or at once when unpaced (tests, measurements).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use overtalk_audio::decode::{DecodeOptions, Decoder};

use crate::source::{BlockCutter, BlockSink, JoinOnStop, Running, Source, SourceEnd};

/// How fast a replay runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pacing {
    /// `K` seconds of audio per second of wall clock (1 = real time).
    Speed(f64),
    /// As fast as the session takes it.
    Unpaced,
}

/// One recording per speaker, replayed in blocks.
#[derive(Debug)]
pub struct Replay {
    names: Vec<String>,
    paths: Vec<PathBuf>,
    rate: u32,
    block_frames: usize,
    pacing: Pacing,
}

impl Replay {
    /// Opens the recordings (one mono track per speaker; a multichannel file is mixed to mono)
    /// and checks they share a sample rate.
    pub fn open(
        tracks: &[(String, PathBuf)],
        block_frames: usize,
        pacing: Pacing,
    ) -> Result<Replay> {
        if tracks.is_empty() {
            bail!("no tracks to replay");
        }
        if let Pacing::Speed(k) = pacing {
            if !(k.is_finite() && k > 0.0) {
                bail!("--speed must be a positive number, not {k}");
            }
        }
        if block_frames == 0 {
            bail!("the block size must be at least one sample");
        }
        let mut rate = None;
        for (i, (name, path)) in tracks.iter().enumerate() {
            if tracks[..i].iter().any(|(n, _)| n == name) {
                bail!("the speaker name {name:?} is given twice");
            }
            let d = Decoder::open(path, &DecodeOptions::default())
                .with_context(|| format!("opening {}", path.display()))?;
            let r = d.info().sample_rate;
            match rate {
                None => rate = Some(r),
                Some(first) if first != r => bail!(
                    "{} is {r} Hz but the first track is {first} Hz; replayed tracks share one clock",
                    path.display()
                ),
                _ => {}
            }
        }
        Ok(Replay {
            names: tracks.iter().map(|(n, _)| n.clone()).collect(),
            paths: tracks.iter().map(|(_, p)| p.clone()).collect(),
            rate: rate.unwrap_or(16_000),
            block_frames,
            pacing,
        })
    }
}

impl Source for Replay {
    fn names(&self) -> &[String] {
        &self.names
    }

    fn rate(&self) -> u32 {
        self.rate
    }

    fn block_frames(&self) -> usize {
        self.block_frames
    }

    fn lossless(&self) -> bool {
        true
    }

    fn start(self: Box<Self>, sink: BlockSink) -> Result<Box<dyn Running>> {
        let mut decoders = self
            .paths
            .iter()
            .map(|p| {
                Decoder::open(p, &DecodeOptions::default()).with_context(|| p.display().to_string())
            })
            .collect::<Result<Vec<_>>>()?;
        let handle =
            std::thread::Builder::new().name("overtalk-replay".into()).spawn(move || {
                let why = replay(&mut decoders, &self, &sink);
                sink.end(why);
            })?;
        Ok(Box::new(JoinOnStop(Some(handle))))
    }
}

/// Reads every track block by block and delivers them; tracks that end early are silent
/// until the longest ends.
fn replay(decoders: &mut [Decoder], r: &Replay, sink: &BlockSink) -> SourceEnd {
    let k = decoders.len();
    let n = r.block_frames;
    let mut cutter = BlockCutter::new(k, n);
    let mut ended = vec![false; k];
    let start = Instant::now();
    let mut delivered = 0u64;
    loop {
        for (i, d) in decoders.iter_mut().enumerate() {
            while !ended[i] && !cutter.has_block(i) {
                match d.next_block() {
                    Ok(Some(b)) => cutter.channel(i).extend(b.mono()),
                    Ok(None) => ended[i] = true,
                    Err(e) => return SourceEnd::Vanished(format!("{}: {e}", r.paths[i].display())),
                }
            }
        }
        if ended.iter().all(|&e| e) && cutter.is_empty() {
            return SourceEnd::Finished;
        }
        if let Pacing::Speed(speed) = r.pacing {
            // A block is complete when its last sample has been played.
            let due = (delivered + 1) as f64 * n as f64 / f64::from(r.rate) / speed;
            let now = start.elapsed().as_secs_f64();
            if due > now {
                std::thread::sleep(Duration::from_secs_f64(due - now));
            }
        }
        // Every channel holds a block or has ended (tracks that end early are padded).
        let Some(slices) = cutter.next_block(true) else { return SourceEnd::Finished };
        if !sink.push(&slices) {
            return SourceEnd::Stopped;
        }
        delivered += 1;
    }
}

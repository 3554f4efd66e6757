//! Where the audio comes from: a [`Source`] delivers fixed-size blocks of samples, one slice
//! per channel (speaker), to a [`BlockSink`] — from a capture device's callback or from a
//! replay thread reading recordings, through the same path.
//!
//! ```text
//! device callback ─┐                     bounded queue
//! replay thread  ──┴─► BlockSink::push ─► [blk][blk][blk] ─► session: detector → analysis
//!                      (copies; a full queue drops the block when the source is live,
//!                       waits when it is a replay)
//! ```

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::Arc;

use anyhow::Result;

/// One block: the same number of samples for every channel.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Samples per channel, in channel order.
    pub channels: Vec<Vec<f32>>,
}

/// Why a source stopped delivering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceEnd {
    /// The recordings ended.
    Finished,
    /// The session asked it to stop (Ctrl-C, [`crate::session::StopHandle::stop`]).
    Stopped,
    /// The device disappeared or failed: the reason.
    Vanished(String),
}

/// What travels from the source to the session.
#[derive(Debug)]
pub(crate) enum SourceMessage {
    Block(Block),
    /// What reading the input found to warn of (a replay's decoding: corrupt packets, clipping,
    /// a joined WAV file…), sent before its end.
    Warnings(Vec<overtalk_audio::multitrack::TrackWarning>),
    End(SourceEnd),
}

/// The source's end of the queue to the session. Cloneable, `Send`; pushing never allocates
/// more than one block.
#[derive(Clone, Debug)]
pub struct BlockSink {
    tx: SyncSender<SourceMessage>,
    /// Wait for room (a replay) instead of dropping the block (a live device).
    lossless: bool,
    dropped: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl BlockSink {
    /// A sink and the session's end of its queue, holding at most `capacity` blocks.
    pub(crate) fn new(
        capacity: usize,
        lossless: bool,
        stop: Arc<AtomicBool>,
    ) -> (BlockSink, Receiver<SourceMessage>, Arc<AtomicU64>) {
        let (tx, rx) = sync_channel(capacity.max(1));
        let dropped = Arc::new(AtomicU64::new(0));
        (BlockSink { tx, lossless, dropped: dropped.clone(), stop }, rx, dropped)
    }

    /// Delivers one block (one slice per channel, equal lengths). Returns false once the
    /// session is stopping or gone: the source should end.
    pub fn push(&self, channels: &[&[f32]]) -> bool {
        if self.stopped() {
            return false;
        }
        let block = Block { channels: channels.iter().map(|c| c.to_vec()).collect() };
        if self.lossless {
            return self.tx.send(SourceMessage::Block(block)).is_ok();
        }
        match self.tx.try_send(SourceMessage::Block(block)) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
                true
            }
            Err(TrySendError::Disconnected(_)) => false,
        }
    }

    /// Passes on what reading the input found to warn of, as `overtalk detect` warns of it
    /// (waits for room: never dropped); the session prints it and puts it in the record.
    pub fn warn(&self, warnings: Vec<overtalk_audio::multitrack::TrackWarning>) {
        if !warnings.is_empty() {
            let _ = self.tx.send(SourceMessage::Warnings(warnings));
        }
    }

    /// Says the source has ended (waits for room: the end is never dropped).
    pub fn end(&self, why: SourceEnd) {
        let _ = self.tx.send(SourceMessage::End(why));
    }

    /// Whether the session asked the source to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Cuts the samples of every channel, as they come, into blocks of one size, for the device's
/// callback and the replay thread alike; the block's buffers are reused.
///
/// ```text
/// channel 0  ▒▒▒▒▒▒▒▒▒▒▒▒▒▒  +▒▒▒▒  ─► [n][n][n]  rest kept for the next call
/// channel 1  ▒▒▒▒▒▒▒▒▒▒      +▒▒▒▒  ─► [n][n][n·0] padded with silence when asked
/// ```
#[derive(Debug)]
pub(crate) struct BlockCutter {
    n: usize,
    pending: Vec<Vec<f32>>,
    block: Vec<Vec<f32>>,
}

impl BlockCutter {
    /// A cutter of `channels` channels into blocks of `n` samples.
    pub(crate) fn new(channels: usize, n: usize) -> BlockCutter {
        let n = n.max(1);
        BlockCutter {
            n,
            pending: vec![Vec::with_capacity(2 * n); channels],
            block: vec![Vec::with_capacity(n); channels],
        }
    }

    /// Channel `c`'s samples not yet in a block (to extend).
    pub(crate) fn channel(&mut self, c: usize) -> &mut Vec<f32> {
        &mut self.pending[c]
    }

    /// Whether channel `c` holds a whole block.
    pub(crate) fn has_block(&self, c: usize) -> bool {
        self.pending[c].len() >= self.n
    }

    /// Whether no sample is waiting.
    pub(crate) fn is_empty(&self) -> bool {
        self.pending.iter().all(Vec::is_empty)
    }

    /// The next block, when every channel holds one; with `pad`, as soon as any channel holds
    /// a sample, the shorter channels padded with silence (a last block shorter than `n` is
    /// as long as the longest channel's rest, never padded beyond it).
    pub(crate) fn next_block(&mut self, pad: bool) -> Option<Vec<&[f32]>> {
        let ready =
            if pad { !self.is_empty() } else { (0..self.pending.len()).all(|c| self.has_block(c)) };
        if !ready || self.pending.is_empty() {
            return None;
        }
        // A whole block; at the end, as long as the longest channel's rest, so the audio
        // delivered is exactly the recording's length.
        let len = self.pending.iter().map(Vec::len).max().unwrap_or(0).min(self.n);
        for (p, b) in self.pending.iter_mut().zip(&mut self.block) {
            b.clear();
            let take = p.len().min(len);
            b.extend(p.drain(..take));
            b.resize(len, 0.0);
        }
        Some(self.block.iter().map(Vec::as_slice).collect())
    }
}

/// A running source; dropping or stopping it ends delivery.
pub trait Running: Send {
    /// Stops delivering and waits for the source's thread.
    fn stop(&mut self);
}

/// An audio source: named channels at one rate, delivered in blocks of `block_frames`.
pub trait Source: Send {
    /// One speaker name per channel.
    fn names(&self) -> &[String];
    /// Samples per second of every channel.
    fn rate(&self) -> u32;
    /// Samples per channel in each block.
    fn block_frames(&self) -> usize;
    /// Whether blocks must never be dropped (a replay waits for the session; a device
    /// cannot).
    fn lossless(&self) -> bool;
    /// Where each channel's audio starts on the session clock, in channel order (a replay's
    /// `--track-offset`); empty when every channel starts at 0, as a device's do.
    fn offsets(&self) -> Vec<overtalk::Delta> {
        Vec::new()
    }
    /// The file each channel is read from, in channel order (a replay's recordings, named
    /// in the warnings about them); empty for a device.
    fn files(&self) -> Vec<std::path::PathBuf> {
        Vec::new()
    }
    /// Starts delivering to `sink`, on a thread of its own (or the device's callback).
    fn start(self: Box<Self>, sink: BlockSink) -> Result<Box<dyn Running>>;
}

/// A [`Running`] that is a thread to join.
pub(crate) struct JoinOnStop(pub(crate) Option<std::thread::JoinHandle<()>>);

impl Running for JoinOnStop {
    fn stop(&mut self) {
        if let Some(h) = self.0.take() {
            let _ = h.join();
        }
    }
}

impl Drop for JoinOnStop {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_cut_whole_and_padded_only_when_asked() {
        let mut cut = BlockCutter::new(2, 3);
        cut.channel(0).extend([1.0, 2.0, 3.0, 4.0]);
        cut.channel(1).extend([5.0, 6.0]);
        assert_eq!(cut.next_block(false), None);
        cut.channel(1).extend([7.0, 8.0]);
        assert_eq!(cut.next_block(false), Some(vec![&[1.0, 2.0, 3.0][..], &[5.0, 6.0, 7.0][..]]));
        assert_eq!(cut.next_block(false), None);
        // The last block is as long as the longest rest: the audio keeps its length.
        assert_eq!(cut.next_block(true), Some(vec![&[4.0][..], &[8.0][..]]));
        assert!(cut.is_empty());
        assert_eq!(cut.next_block(true), None);
        // A channel that ended early is padded with silence to the others' block.
        cut.channel(0).extend([1.0, 2.0, 3.0, 4.0, 5.0]);
        cut.channel(1).extend([6.0]);
        assert_eq!(cut.next_block(true), Some(vec![&[1.0, 2.0, 3.0][..], &[6.0, 0.0, 0.0][..]]));
        assert_eq!(cut.next_block(true), Some(vec![&[4.0, 5.0][..], &[0.0, 0.0][..]]));
        assert_eq!(cut.next_block(true), None);
    }
}

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

    /// Says the source has ended (waits for room: the end is never dropped).
    pub fn end(&self, why: SourceEnd) {
        let _ = self.tx.send(SourceMessage::End(why));
    }

    /// Whether the session asked the source to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
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

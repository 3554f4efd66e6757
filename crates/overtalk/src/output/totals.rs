//! Totals over a corpus of conversations: the `corpus` object of the JSON envelope and the
//! last table of the human outputs.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Conversation;
use crate::analysis::intervals::{HeKind, Layer};
use crate::analysis::result::EventCounts;

/// Sums over every conversation (times in milliseconds).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CorpusTotals {
    /// Conversations.
    pub recordings: usize,
    /// Speakers, counted once per conversation.
    pub speakers: usize,
    /// Summed spans.
    pub span: i64,
    /// Summed speech.
    pub speech: i64,
    /// Summed silence.
    pub silence: i64,
    /// Summed overlap; `None` when a conversation's overlap is not measurable (a total with
    /// an unknown part is unknown).
    pub overlap: Option<i64>,
    /// `overlap / speech`; `None` without speech or overlap.
    pub overlap_ratio: Option<f64>,
    /// The counted events, summed.
    #[serde(flatten)]
    pub counts: EventCounts,
    /// Heldner & Edlund interval counts per layer and kind; a kind is `None` when a
    /// conversation's count of it is unknown (overlaps not measurable).
    pub he_counts: BTreeMap<Layer, BTreeMap<HeKind, Option<usize>>>,
}

impl CorpusTotals {
    /// The totals of `conversations`.
    pub fn of(conversations: &[Conversation<'_>]) -> CorpusTotals {
        let mut t = CorpusTotals {
            recordings: conversations.len(),
            overlap: Some(0),
            ..CorpusTotals::default()
        };
        for r in conversations.iter().map(|c| c.analysis) {
            let c = &r.conversation;
            t.speakers += r.speakers.len();
            t.span += c.span.get();
            t.speech += c.speech.get();
            t.silence += c.silence.get();
            t.overlap = t.overlap.zip(c.overlap).map(|(t, o)| t + o.get());
            t.counts.add(&c.counts.events);
            for (layer, kinds) in &c.he_counts {
                let e = t.he_counts.entry(*layer).or_default();
                for (k, n) in kinds {
                    let sum = e.entry(*k).or_insert(Some(0));
                    *sum = sum.zip(*n).map(|(s, n)| s + n);
                }
            }
        }
        t.overlap_ratio = t.overlap.filter(|_| t.speech > 0).map(|o| o as f64 / t.speech as f64);
        t
    }
}

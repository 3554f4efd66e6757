//! Speakers: opaque labels interned as small ids.

use rustc_hash::FxHashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// The id of a speaker within one [`SpeakerTable`] (and so within one annotation).
///
/// Ids of a built annotation follow the byte order of the labels, so iteration by id is
/// deterministic and alphabetical.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SpeakerId(u32);

impl SpeakerId {
    /// The id numbered `id` (ids are handed out by a [`SpeakerTable`]; this is for tables and
    /// tests that number speakers themselves).
    pub const fn new(id: u32) -> SpeakerId {
        SpeakerId(id)
    }

    /// The number of the id.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// The id as an index into per-speaker vectors.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for SpeakerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Interned speaker labels: `SpeakerId` ↔ label.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpeakerTable {
    names: Vec<String>,
    /// Label → id, with a fast non-cryptographic hash (labels are not attacker-chosen keys
    /// of a long-lived table; reading stays linear).
    index: FxHashMap<String, SpeakerId>,
}

impl SpeakerTable {
    /// An empty table.
    pub fn new() -> SpeakerTable {
        SpeakerTable::default()
    }

    /// The id of `name`, adding it if new.
    pub fn intern(&mut self, name: &str) -> SpeakerId {
        if let Some(&id) = self.index.get(name) {
            return id;
        }
        let id = SpeakerId(self.names.len() as u32);
        self.names.push(name.to_owned());
        self.index.insert(name.to_owned(), id);
        id
    }

    /// The id of `name`, if present.
    pub fn get(&self, name: &str) -> Option<SpeakerId> {
        self.index.get(name).copied()
    }

    /// The label of `id`.
    ///
    /// # Panics
    /// If `id` does not come from this table.
    pub fn name(&self, id: SpeakerId) -> &str {
        &self.names[id.index()]
    }

    /// Number of speakers.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no speakers.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// `(id, label)` pairs in id order.
    pub fn iter(&self) -> impl Iterator<Item = (SpeakerId, &str)> + '_ {
        self.names.iter().enumerate().map(|(i, n)| (SpeakerId(i as u32), n.as_str()))
    }

    /// All ids in order.
    pub fn ids(&self) -> impl Iterator<Item = SpeakerId> {
        (0..self.names.len() as u32).map(SpeakerId)
    }

    /// The labels sorted by bytes, and for each old id its new id in that order.
    pub(crate) fn sorted(&self) -> (SpeakerTable, Vec<SpeakerId>) {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| self.names[a].as_bytes().cmp(self.names[b].as_bytes()));
        let mut table = SpeakerTable::new();
        let mut remap = vec![SpeakerId(0); self.names.len()];
        for old in order {
            remap[old] = table.intern(&self.names[old]);
        }
        (table, remap)
    }
}

//! [`Corpus`]: recordings by id, as files such as RTTM hold them.

use std::collections::BTreeMap;

use crate::model::Transcript;

/// Transcripts keyed by recording id (`EN2002a.Mix-Headset` stays whole, dots included), in id
/// order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Corpus {
    recordings: BTreeMap<String, Transcript>,
}

impl Corpus {
    /// An empty corpus.
    pub fn new() -> Corpus {
        Corpus::default()
    }

    /// A corpus of one recording.
    pub fn single(id: impl Into<String>, transcript: Transcript) -> Corpus {
        let mut c = Corpus::new();
        c.insert(id, transcript);
        c
    }

    /// Adds or replaces a recording.
    pub fn insert(&mut self, id: impl Into<String>, transcript: Transcript) {
        self.recordings.insert(id.into(), transcript);
    }

    /// A recording by id.
    pub fn get(&self, id: &str) -> Option<&Transcript> {
        self.recordings.get(id)
    }

    /// Recordings in id order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Transcript)> + '_ {
        self.recordings.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Recording ids in order.
    pub fn ids(&self) -> impl Iterator<Item = &str> + '_ {
        self.recordings.keys().map(String::as_str)
    }

    /// Number of recordings.
    pub fn len(&self) -> usize {
        self.recordings.len()
    }

    /// Whether there are no recordings.
    pub fn is_empty(&self) -> bool {
        self.recordings.is_empty()
    }

    /// Moves every recording of `other` in; a recording present in both is replaced and its id
    /// returned.
    pub fn merge(&mut self, other: Corpus) -> Vec<String> {
        let mut replaced = Vec::new();
        for (k, v) in other.recordings {
            if self.recordings.insert(k.clone(), v).is_some() {
                replaced.push(k);
            }
        }
        replaced
    }

    /// Consumes the corpus into `(id, transcript)` pairs.
    pub fn into_recordings(self) -> BTreeMap<String, Transcript> {
        self.recordings
    }

    /// Applies `f` to every transcript.
    pub fn map(self, mut f: impl FnMut(&str, Transcript) -> Transcript) -> Corpus {
        Corpus {
            recordings: self
                .recordings
                .into_iter()
                .map(|(k, v)| {
                    let t = f(&k, v);
                    (k, t)
                })
                .collect(),
        }
    }
}

impl FromIterator<(String, Transcript)> for Corpus {
    fn from_iter<I: IntoIterator<Item = (String, Transcript)>>(iter: I) -> Corpus {
        Corpus { recordings: iter.into_iter().collect() }
    }
}

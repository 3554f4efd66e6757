//! [`Annotation`]: who spoke when — segments labelled with speakers.

use std::collections::HashMap;

use crate::model::{CropMode, Region, Segment, SpeakerId, SpeakerTable, Timeline};
use crate::time::{Delta, Time};

/// One labelled segment: `speaker` was active during `segment`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Track {
    /// When.
    pub segment: Segment,
    /// Who.
    pub speaker: SpeakerId,
}

/// Who spoke when: tracks sorted by `(start, end, speaker label)`, built by an
/// [`AnnotationBuilder`] and immutable afterwards.
///
/// ```text
/// Alice  [██████)        [████)
/// Bob         [█████)            [██)
/// ```
///
/// A speaker may have overlapping tracks of their own ("self-overlap", common in merged
/// transcripts); [`speaker_region`](Annotation::speaker_region) and
/// [`merge_self_overlap`](Annotation::merge_self_overlap) give the union per speaker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    speakers: SpeakerTable,
    tracks: Vec<Track>,
}

/// Collects tracks in any order, then sorts them into an [`Annotation`].
#[derive(Clone, Debug, Default)]
pub struct AnnotationBuilder {
    speakers: SpeakerTable,
    tracks: Vec<Track>,
}

impl AnnotationBuilder {
    /// An empty builder.
    pub fn new() -> AnnotationBuilder {
        AnnotationBuilder::default()
    }

    /// Declares a speaker (speakers without tracks are kept, e.g. an empty TextGrid tier).
    pub fn speaker(&mut self, name: &str) -> SpeakerId {
        self.speakers.intern(name)
    }

    /// The label of an id returned by [`speaker`](AnnotationBuilder::speaker) (ids are
    /// renumbered when the annotation is built; labels stay).
    pub fn speaker_name(&self, id: SpeakerId) -> &str {
        self.speakers.name(id)
    }

    /// Adds a track for an id returned by [`speaker`](AnnotationBuilder::speaker).
    pub fn push(&mut self, segment: Segment, speaker: SpeakerId) -> &mut Self {
        self.tracks.push(Track { segment, speaker });
        self
    }

    /// Adds a track for a speaker by label.
    pub fn add(&mut self, segment: Segment, speaker: &str) -> &mut Self {
        let id = self.speakers.intern(speaker);
        self.push(segment, id)
    }

    /// Number of tracks added so far.
    pub fn len(&self) -> usize {
        self.tracks.len()
    }

    /// Whether no track was added.
    pub fn is_empty(&self) -> bool {
        self.tracks.is_empty()
    }

    /// Sorts and freezes. Also returns, for each track of the result, its position in the order
    /// tracks were added (so callers can carry per-track payloads along).
    pub fn build_with_order(self) -> (Annotation, Vec<usize>) {
        let (speakers, remap) = self.speakers.sorted();
        let mut indexed: Vec<(usize, Track)> = self
            .tracks
            .into_iter()
            .map(|t| Track { segment: t.segment, speaker: remap[t.speaker.index()] })
            .enumerate()
            .collect();
        // Keys are unique (the insertion index breaks ties), so an unstable sort is exact.
        indexed.sort_unstable_by_key(|(i, t)| (t.segment, t.speaker, *i));
        let order = indexed.iter().map(|(i, _)| *i).collect();
        let tracks = indexed.into_iter().map(|(_, t)| t).collect();
        (Annotation { speakers, tracks }, order)
    }

    /// Sorts and freezes.
    pub fn build(self) -> Annotation {
        let (speakers, remap) = self.speakers.sorted();
        let mut tracks = self.tracks;
        for t in &mut tracks {
            t.speaker = remap[t.speaker.index()];
        }
        // Tracks with equal keys are equal, so an unstable sort gives the same list as a
        // stable one; input that is already in order is only checked.
        if !tracks.is_sorted_by_key(|t| (t.segment, t.speaker)) {
            tracks.sort_unstable_by_key(|t| (t.segment, t.speaker));
        }
        Annotation { speakers, tracks }
    }

    /// Makes room for `additional` more tracks.
    pub fn reserve(&mut self, additional: usize) -> &mut Self {
        self.tracks.reserve(additional);
        self
    }
}

impl Annotation {
    /// An annotation from `(segment, label)` pairs.
    pub fn from_labelled<'a>(tracks: impl IntoIterator<Item = (Segment, &'a str)>) -> Annotation {
        let mut b = AnnotationBuilder::new();
        for (s, name) in tracks {
            b.add(s, name);
        }
        b.build()
    }

    /// The speaker table (ids in label order).
    pub fn speakers(&self) -> &SpeakerTable {
        &self.speakers
    }

    /// The label of a speaker id.
    pub fn speaker_name(&self, id: SpeakerId) -> &str {
        self.speakers.name(id)
    }

    /// All tracks, sorted by `(start, end, speaker)`.
    pub fn tracks(&self) -> &[Track] {
        &self.tracks
    }

    /// Number of tracks.
    pub fn len(&self) -> usize {
        self.tracks.len()
    }

    /// Whether there are no tracks.
    pub fn is_empty(&self) -> bool {
        self.tracks.is_empty()
    }

    /// Every segment, unlabelled.
    pub fn timeline(&self) -> Timeline {
        Timeline::from_segments(self.tracks.iter().map(|t| t.segment))
    }

    /// From the first start to the last end.
    pub fn extent(&self) -> Option<Segment> {
        self.timeline().extent()
    }

    /// One speaker's segments.
    pub fn speaker_timeline(&self, id: SpeakerId) -> Timeline {
        Timeline::from_segments(self.tracks.iter().filter(|t| t.speaker == id).map(|t| t.segment))
    }

    /// The time a speaker is active (self-overlap counted once).
    pub fn speaker_region(&self, id: SpeakerId) -> Region {
        self.speaker_timeline(id).support()
    }

    /// One region per speaker, indexed by id.
    pub fn speaker_regions(&self) -> Vec<Region> {
        let mut per: Vec<Vec<Segment>> = vec![Vec::new(); self.speakers.len()];
        for t in &self.tracks {
            per[t.speaker.index()].push(t.segment);
        }
        per.into_iter().map(|v| Region::from_sorted(v.into_iter(), Delta::ZERO)).collect()
    }

    /// Time each speaker is active (self-overlap counted once), indexed by id.
    pub fn speaker_durations(&self) -> Vec<Delta> {
        self.speaker_regions().iter().map(Region::duration).collect()
    }

    /// Time when anyone speaks.
    ///
    /// ```text
    /// A       [████)    [██)
    /// B          [████)
    /// speech  [███████) [██)
    /// ```
    pub fn speech(&self) -> Region {
        Region::from_sorted(self.tracks.iter().map(|t| t.segment), Delta::ZERO)
    }

    /// Time when two or more *different* speakers speak (a speaker overlapping themselves does
    /// not count).
    ///
    /// ```text
    /// A        [██████)
    /// A           [██)         (self-overlap: ignored)
    /// B            [██████)
    /// overlap      [██)
    /// ```
    pub fn overlap(&self) -> Region {
        let supports: Timeline =
            self.speaker_regions().iter().flat_map(|r| r.iter().copied()).collect();
        supports.overlap()
    }

    /// The elementary pieces of the annotation, each with the distinct speakers active in it
    /// (in id order); pieces where nobody speaks are left out.
    ///
    /// ```text
    /// A      [██████)
    /// B          [██████)
    /// pieces [██)[██)[██)
    ///         A   AB   B
    /// ```
    pub fn segmentation(&self) -> Vec<(Segment, Vec<SpeakerId>)> {
        // Sweep over boundary events with per-speaker counters (self-overlap counted once).
        let mut events: Vec<(Time, i32, SpeakerId)> = Vec::with_capacity(self.tracks.len() * 2);
        for t in &self.tracks {
            events.push((t.segment.start(), 1, t.speaker));
            events.push((t.segment.end(), -1, t.speaker));
        }
        events.sort_unstable_by_key(|e| e.0);
        let mut counts = vec![0i32; self.speakers.len()];
        let mut active: Vec<SpeakerId> = Vec::new();
        let mut out = Vec::new();
        let mut i = 0;
        while i < events.len() {
            let t = events[i].0;
            while i < events.len() && events[i].0 == t {
                let (_, delta, who) = events[i];
                counts[who.index()] += delta;
                i += 1;
            }
            active.clear();
            active.extend(
                counts
                    .iter()
                    .enumerate()
                    .filter(|(_, &c)| c > 0)
                    .map(|(k, _)| SpeakerId::new(k as u32)),
            );
            if let Some(&(next, _, _)) = events.get(i) {
                if !active.is_empty() {
                    if let Some(seg) = Segment::new(t, next) {
                        out.push((seg, active.clone()));
                    }
                }
            }
        }
        out
    }

    /// Pairs of tracks of the same speaker that overlap each other, as `(earlier, later)`.
    pub fn self_overlaps(&self) -> Vec<(Track, Track)> {
        let mut out = Vec::new();
        let mut reach: Vec<Option<Track>> = vec![None; self.speakers.len()];
        for t in &self.tracks {
            let slot = &mut reach[t.speaker.index()];
            if let Some(prev) = *slot {
                if prev.segment.intersects(&t.segment) {
                    out.push((prev, *t));
                }
                if t.segment.end() > prev.segment.end() {
                    *slot = Some(*t);
                }
            } else {
                *slot = Some(*t);
            }
        }
        out
    }

    /// The same annotation with each speaker's overlapping (not merely touching) tracks merged.
    ///
    /// ```text
    /// A   [████)               A   [███████)
    /// A      [████)     →
    /// A            [██)        A         [██)
    /// ```
    pub fn merge_self_overlap(&self) -> Annotation {
        let mut b = AnnotationBuilder { speakers: self.speakers.clone(), tracks: Vec::new() };
        let mut per: Vec<Vec<Segment>> = vec![Vec::new(); self.speakers.len()];
        for t in &self.tracks {
            per[t.speaker.index()].push(t.segment);
        }
        for (k, segs) in per.into_iter().enumerate() {
            let mut merged: Vec<Segment> = Vec::new();
            for s in segs {
                match merged.last_mut() {
                    Some(last) if s.start() < last.end() => *last = last.hull(&s),
                    _ => merged.push(s),
                }
            }
            for s in merged {
                b.push(s, SpeakerId::new(k as u32));
            }
        }
        b.build()
    }

    /// The tracks seen through `focus` (see [`Timeline::crop`] for the modes).
    ///
    /// ```text
    /// focus        [██████████)
    /// A         [████)    [██████)
    /// crop(∩)      [█)    [███)
    /// ```
    pub fn crop(&self, focus: &Region, mode: CropMode) -> Annotation {
        let mut b = AnnotationBuilder { speakers: self.speakers.clone(), tracks: Vec::new() };
        for t in &self.tracks {
            let parts = focus.crop_segment(t.segment);
            match mode {
                CropMode::Strict => {
                    if parts.len() == 1 && parts.segments()[0] == t.segment {
                        b.push(t.segment, t.speaker);
                    }
                }
                CropMode::Loose => {
                    if !parts.is_empty() {
                        b.push(t.segment, t.speaker);
                    }
                }
                CropMode::Intersection => {
                    for p in parts.iter() {
                        b.push(*p, t.speaker);
                    }
                }
            }
        }
        b.build()
    }

    /// The tracks with `removed` taken out (a crop to its complement over the extent).
    ///
    /// ```text
    /// removed        [████)
    /// A         [██████)   [██)
    /// extrude(∩)[████)     [██)
    /// ```
    pub fn extrude(&self, removed: &Region, mode: CropMode) -> Annotation {
        match self.extent() {
            Some(e) => self.crop(&removed.complement(e), mode),
            None => self.clone(),
        }
    }

    /// The annotation with speakers relabelled by `map` (labels not in the map are kept). Two
    /// labels mapped to one name become one speaker.
    pub fn rename(&self, map: &HashMap<String, String>) -> Annotation {
        let mut b = AnnotationBuilder::new();
        let ids: Vec<SpeakerId> = self
            .speakers
            .iter()
            .map(|(_, name)| b.speaker(map.get(name).map_or(name, String::as_str)))
            .collect();
        for t in &self.tracks {
            b.push(t.segment, ids[t.speaker.index()]);
        }
        b.build()
    }

    /// Only the tracks for which `keep` is true (speakers are all kept).
    pub fn filter(&self, mut keep: impl FnMut(&Track) -> bool) -> Annotation {
        Annotation {
            speakers: self.speakers.clone(),
            tracks: self.tracks.iter().filter(|t| keep(t)).copied().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn s(a: i64, b: i64) -> Segment {
        Segment::from_micros(a, b).unwrap()
    }

    fn arb_annotation() -> impl Strategy<Value = Annotation> {
        prop::collection::vec((0i64..55, 1i64..12, 0usize..3), 0..12).prop_map(|v| {
            let names = ["A", "B", "C"];
            Annotation::from_labelled(
                v.into_iter().map(|(a, d, k)| (s(a, (a + d).min(60)), names[k])),
            )
        })
    }

    fn active_at(a: &Annotation, x: i64) -> Vec<SpeakerId> {
        let mut v: Vec<SpeakerId> = a
            .tracks()
            .iter()
            .filter(|t| t.segment.contains(Time::from_micros(x)))
            .map(|t| t.speaker)
            .collect();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn builder_sorts_and_orders_speakers_by_label() {
        let mut b = AnnotationBuilder::new();
        b.add(s(5, 9), "Zoe").add(s(0, 4), "Adam").add(s(0, 4), "Ann");
        let (a, order) = b.build_with_order();
        assert_eq!(a.speaker_name(SpeakerId::new(0)), "Adam");
        assert_eq!(a.speaker_name(SpeakerId::new(2)), "Zoe");
        assert_eq!(order, vec![1, 2, 0]);
        assert_eq!(a.tracks()[2].segment, s(5, 9));
    }

    #[test]
    fn overlap_ignores_self_overlap() {
        let a = Annotation::from_labelled([(s(0, 10), "A"), (s(3, 6), "A"), (s(5, 15), "B")]);
        assert_eq!(a.overlap().segments(), &[s(5, 10)]);
        assert_eq!(a.self_overlaps().len(), 1);
        assert_eq!(a.merge_self_overlap().len(), 2);
        assert_eq!(a.speaker_durations(), vec![Delta::from_micros(10), Delta::from_micros(10)]);
        let renamed = a.rename(&HashMap::from([("B".to_owned(), "A".to_owned())]));
        assert_eq!(renamed.speakers().len(), 1);
        assert!(renamed.overlap().is_empty());
    }

    proptest! {
        #[test]
        fn segmentation_lists_who_is_active(a in arb_annotation()) {
            let pieces = a.segmentation();
            for (seg, who) in &pieces {
                for x in seg.start().micros()..seg.end().micros() {
                    prop_assert_eq!(&active_at(&a, x), who);
                }
            }
            let covered: Region = pieces.iter().map(|p| p.0).collect();
            prop_assert_eq!(covered, a.speech());
            for x in 0..60 {
                prop_assert_eq!(a.overlap().contains(Time::from_micros(x)), active_at(&a, x).len() > 1);
            }
        }

        #[test]
        fn merging_self_overlap_keeps_speaker_time(a in arb_annotation()) {
            let m = a.merge_self_overlap();
            prop_assert!(m.self_overlaps().is_empty());
            prop_assert_eq!(m.speaker_durations(), a.speaker_durations());
            prop_assert_eq!(m.overlap(), a.overlap());
        }
    }
}

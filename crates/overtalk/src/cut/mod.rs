//! Cut lists: who spoke when turned into an edit — a speaker removed, kept alone or muted, an
//! "evidence reel" of one speaker's interruptions, or a timeline that follows whoever holds
//! the floor — and the editors' formats that carry it.
//!
//! ```text
//! annotation ──► plan(selection, options) ──► CutList ──► otio | edl | fcp7 | fcpxml | mlt | csv
//!                                               │
//!                                               └──► remap(annotation): who spoke when in the cut
//! ```
//!
//! # What is kept
//!
//! Every selection first chooses the *kept* time of the source, in microseconds:
//!
//! ```text
//! Wife      [██████)     [████████)
//! Husband       [████)         [████)   [███)
//! --without Husband
//! kept      [██████████) [██████████)         removed: Husband's solo speech only; where he
//!                                             overlaps the Wife her speech is kept
//! --only Wife
//! kept      [██████)     [████████)
//! --mute Husband         same kept time as --without, but in place: the timing is kept and
//!                        the removed stretches are gaps (silence) in the cut
//! --events interruptions --by Wife --context 2s
//! kept          ··[██ onset → end of her talkspurt ██)··   (· = context on each side)
//! --follow-speaker
//! kept      [Wife  ][Husband   ][Wife ][Husband     ]   the whole recording, in place; each
//!                                                        clip names the floor holder
//! ```
//!
//! Then, in this order: each kept piece is widened by `pad` on both sides (a handle of
//! silence or breath around kept speech; within the media); pieces closer than `merge` are
//! joined (a removed stretch shorter than `merge` is kept); pieces shorter than `min_clip`
//! are dropped. `--follow-speaker` is a partition of the recording and takes none of these.
//!
//! # Frames
//!
//! Editors cut on frames. Each piece's start and end go to the nearest frame boundary
//! ([`Rate::frame_at`]: integer arithmetic, a half frame rounds up); a piece that becomes
//! empty is dropped, and a piece that would overlap the previous one after rounding starts
//! where the previous one ends, so no frame is played twice. Record positions are then exact
//! frame counts: consecutive from 0 when the cut ripples (`--without`, `--only`, `--events`),
//! equal to the source position when it keeps the timing (`--mute`, `--follow-speaker`).
//! Sample positions for rendering come from the same frames ([`Rate::sample_of`]), so an
//! editor that imports the list cuts at the same samples as overtalk's own render.

pub mod csv;
pub mod edl;
pub mod fcp7;
pub mod fcpxml;
pub mod mlt;
pub mod otio;
pub mod rate;
pub mod request;

use crate::analysis::onsets::OnsetClass;
use crate::analysis::Analysis;
use crate::analysis::Millis;
use crate::error::{Error, Result};
use crate::model::{Annotation, AnnotationBuilder, Region, Segment};
use crate::time::{Delta, Time};

pub use rate::Rate;

/// Which event family an evidence reel collects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// Onsets classed as interruptions (overlapping or silent) by the analysis.
    Interruptions,
    /// Talkspurts classed as backchannels.
    Backchannels,
    /// Verbal floor claims ("let me finish").
    Claims,
    /// Every floor onset that starts while someone else holds the floor and talks
    /// (interruptions and terminal overlaps).
    Overlaps,
}

impl EventKind {
    /// Parses `interruptions`, `backchannels`, `claims`, `overlaps` (singular accepted).
    pub fn parse(s: &str) -> Option<EventKind> {
        match s.trim().to_ascii_lowercase().trim_end_matches('s') {
            "interruption" => Some(EventKind::Interruptions),
            "backchannel" => Some(EventKind::Backchannels),
            "claim" => Some(EventKind::Claims),
            "overlap" => Some(EventKind::Overlaps),
            _ => None,
        }
    }
}

/// What to cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Remove these speakers' solo speech; the rest ripples up.
    Without(Vec<String>),
    /// Keep only these speakers' speech (overlaps included).
    Only(Vec<String>),
    /// As `Without`, in place: the timing is kept and the removed stretches are gaps.
    Mute(Vec<String>),
    /// An evidence reel: each event of these kinds (by one speaker, or anyone), with
    /// `context` before and after.
    Events {
        /// The event families.
        kinds: Vec<EventKind>,
        /// Whose events (`None`: everyone's).
        by: Option<String>,
        /// Context on each side of each event.
        context: Delta,
    },
    /// The whole recording, in place, as one clip per floor holder's turn (for switching
    /// camera angles or tracks).
    FollowSpeaker,
}

impl Selection {
    /// Whether the cut keeps the timing (record position = source position).
    pub fn in_place(&self) -> bool {
        matches!(self, Selection::Mute(_) | Selection::FollowSpeaker)
    }

    /// The speakers whose own media a renderer drops (`--without`, `--mute`).
    pub fn removed(&self) -> &[String] {
        match self {
            Selection::Without(v) | Selection::Mute(v) => v,
            _ => &[],
        }
    }
}

/// How kept time becomes clips.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CutOptions {
    /// The frame rate of the edit.
    pub rate: Rate,
    /// Widen each kept piece by this on both sides (handles).
    pub pad: Delta,
    /// Join kept pieces closer than this.
    pub merge: Delta,
    /// Drop clips shorter than this.
    pub min_clip: Delta,
    /// The length of the media (default: the end of the last segment).
    pub media_duration: Option<Delta>,
}

impl Default for CutOptions {
    fn default() -> CutOptions {
        CutOptions {
            rate: Rate::new(25, 1, false),
            pad: Delta::ZERO,
            merge: Delta::ZERO,
            min_clip: Delta::ZERO,
            media_duration: None,
        }
    }
}

/// One kept stretch of the source, on frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clip {
    /// First source frame.
    pub source_in: i64,
    /// Length in frames (at least 1).
    pub duration: i64,
    /// Frame of the cut where it starts.
    pub record_in: i64,
    /// The speaker it follows (`--follow-speaker`) or whose event it shows (`--events`).
    pub speaker: Option<String>,
    /// What it shows, for markers and comments (`Wife interrupts Husband`), may be empty.
    pub note: String,
}

impl Clip {
    /// One past the last source frame.
    pub fn source_out(&self) -> i64 {
        self.source_in + self.duration
    }

    /// One past the last record frame.
    pub fn record_out(&self) -> i64 {
        self.record_in + self.duration
    }
}

/// A cut list: clips on frames at one rate, in record order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutList {
    /// The frame rate of every frame count.
    pub rate: Rate,
    /// Whether record positions equal source positions.
    pub in_place: bool,
    /// The length of the source media in frames.
    pub media_frames: i64,
    /// The clips, by record position.
    pub clips: Vec<Clip>,
}

impl CutList {
    /// The length of the cut in frames.
    pub fn record_frames(&self) -> i64 {
        if self.in_place {
            self.media_frames.max(self.clips.last().map_or(0, Clip::record_out))
        } else {
            self.clips.last().map_or(0, Clip::record_out)
        }
    }

    /// Who spoke when in the cut: every segment inside a clip, moved to its record position
    /// (cut at clip edges; what lies outside every clip is gone).
    ///
    /// ```text
    /// source   [A███)  [B███████)      clips  {───1───}     {──2──}
    /// cut      [A█)[B██)                      1 then 2, rippled
    /// ```
    pub fn remap(&self, annotation: &Annotation) -> Annotation {
        let mut b = AnnotationBuilder::new();
        for (_, name) in annotation.speakers().iter() {
            b.speaker(name);
        }
        let r = self.rate;
        for clip in &self.clips {
            let (s0, s1) = (
                Time::from_micros(r.micros_of(clip.source_in)),
                Time::from_micros(r.micros_of(clip.source_out())),
            );
            let Some(window) = Segment::new(s0, s1) else { continue };
            let shift = Delta::from_micros(r.micros_of(clip.record_in) - s0.micros());
            for t in annotation.tracks() {
                if let Some(piece) = t.segment.intersection(&window) {
                    if let Some(moved) = Segment::new(piece.start() + shift, piece.end() + shift) {
                        b.push(moved, t.speaker);
                    }
                }
            }
        }
        b.build()
    }
}

/// One kept piece before frames: where, whose, what.
#[derive(Clone, Debug)]
struct Piece {
    segment: Segment,
    speaker: Option<String>,
    note: String,
}

/// The speech of the named speakers, or an error naming the speakers there are.
fn speech_of(annotation: &Annotation, names: &[String]) -> Result<Region> {
    let mut region = Region::new();
    for name in names {
        let id = annotation.speakers().get(name).ok_or_else(|| {
            let known: Vec<&str> = annotation.speakers().iter().map(|(_, n)| n).collect();
            Error::invalid(format!("no speaker {name:?} (speakers: {})", known.join(", ")))
        })?;
        region = region.union(&annotation.speaker_region(id));
    }
    Ok(region)
}

/// Micro­seconds from the analysis's milliseconds.
fn ms(v: Millis) -> Time {
    Time::from_micros(v.get().saturating_mul(1000))
}

/// The event pieces of an evidence reel, each with its context.
fn events(
    analysis: &Analysis,
    kinds: &[EventKind],
    by: Option<&str>,
    context: Delta,
    media: Segment,
) -> Vec<Piece> {
    let mine = |s: &str| by.is_none_or(|b| b == s);
    let mut out = Vec::new();
    let mut push = |start: Time, end: Time, speaker: &str, note: String| {
        let s = (start - context).max(media.start());
        let e = (end + context).min(media.end());
        if let Some(segment) = Segment::new(s, e) {
            out.push(Piece { segment, speaker: Some(speaker.to_owned()), note });
        }
    };
    // The end of `speaker`'s talkspurt running at `t` (the event's own speech).
    let spurt_end = |speaker: &str, t: Millis| {
        analysis
            .talkspurts
            .iter()
            .filter(|s| &*s.speaker == speaker && s.start <= t && t < s.end)
            .map(|s| s.end)
            .max()
            .unwrap_or(t + Millis::new(1))
    };
    for kind in kinds {
        match kind {
            EventKind::Interruptions | EventKind::Overlaps => {
                for o in analysis.onsets.iter().filter(|o| mine(&o.speaker)) {
                    let hit = match kind {
                        EventKind::Interruptions => matches!(
                            o.class,
                            OnsetClass::Interruption | OnsetClass::SilentInterruption
                        ),
                        // A talk-over: the holder was talking (rule 2), whatever the class.
                        _ => o.holder_remaining.is_some(),
                    };
                    if !hit {
                        continue;
                    }
                    let verb = match o.class {
                        OnsetClass::TerminalOverlap => "overlaps the end of",
                        OnsetClass::SilentInterruption => "silently interrupts",
                        _ => "interrupts",
                    };
                    let holder = o.holder.as_deref().unwrap_or("nobody");
                    let note = format!("{} {verb} {holder}", o.speaker);
                    push(ms(o.time), ms(spurt_end(&o.speaker, o.time)), &o.speaker, note);
                }
            }
            EventKind::Backchannels => {
                for s in analysis.talkspurts.iter().filter(|s| s.is_backchannel && mine(&s.speaker))
                {
                    push(ms(s.start), ms(s.end), &s.speaker, format!("{} backchannel", s.speaker));
                }
            }
            EventKind::Claims => {
                for c in analysis.verbal_claims.iter().filter(|c| mine(&c.speaker)) {
                    let note = format!("{} claims the floor: {:?}", c.speaker, c.phrase);
                    push(ms(c.start), ms(c.end), &c.speaker, note);
                }
            }
        }
    }
    out.sort_by_key(|p| p.segment);
    out
}

/// Plans the cut: the kept time of `selection`, padded, merged, filtered, on frames.
///
/// `analysis` is needed by `Events` and `FollowSpeaker` (onsets, talkspurts, turns) and
/// ignored by the others. Errors name an unknown speaker, or a selection that keeps nothing.
pub fn plan(
    annotation: &Annotation,
    analysis: Option<&Analysis>,
    selection: &Selection,
    options: &CutOptions,
) -> Result<CutList> {
    for d in [options.pad, options.merge, options.min_clip] {
        if d < Delta::ZERO {
            return Err(Error::invalid("pad, merge and minimum clip length cannot be negative"));
        }
    }
    let end = match options.media_duration {
        Some(d) => Time::ZERO + d,
        None => annotation.extent().map_or(Time::ZERO, |e| e.end()),
    };
    let media = Segment::new(Time::ZERO, end)
        .ok_or_else(|| Error::invalid("nothing to cut: the media is empty"))?;
    let need_analysis =
        || analysis.ok_or_else(|| Error::invalid("this selection needs the analysis"));
    let plain = |r: Region| -> Vec<Piece> {
        r.iter().map(|&segment| Piece { segment, speaker: None, note: String::new() }).collect()
    };
    let mut pieces = match selection {
        Selection::Without(names) | Selection::Mute(names) => {
            let mine = speech_of(annotation, names)?;
            let ids: Vec<_> = annotation
                .speakers()
                .iter()
                .filter(|(_, n)| !names.iter().any(|x| x == n))
                .map(|(id, _)| id)
                .collect();
            // Every speaker removed or muted leaves the silences between them alone: no edit
            // anyone asks for, so refused rather than written.
            if ids.is_empty() {
                let flag =
                    if matches!(selection, Selection::Mute(_)) { "--mute" } else { "--without" };
                let all: Vec<&str> = annotation.speakers().iter().map(|(_, n)| n).collect();
                return Err(Error::invalid(format!(
                    "{flag} names every speaker ({}): nothing of the speech would be kept, only the silences between it",
                    all.join(", ")
                )));
            }
            let mut others = Region::new();
            for id in ids {
                others = others.union(&annotation.speaker_region(id));
            }
            let removed = mine.difference(&others);
            plain(removed.complement(media))
        }
        Selection::Only(names) => plain(speech_of(annotation, names)?),
        Selection::Events { kinds, by, context } => {
            if let Some(name) = by {
                speech_of(annotation, std::slice::from_ref(name))?;
            }
            events(need_analysis()?, kinds, by.as_deref(), *context, media)
        }
        Selection::FollowSpeaker => {
            let a = need_analysis()?;
            let mut v: Vec<Piece> = Vec::new();
            let turns = &a.turns;
            for (i, t) in turns.iter().enumerate() {
                // A turn runs until the next one starts (the gap is still its holder's shot).
                let start = if i == 0 { Time::ZERO } else { ms(t.start).max(Time::ZERO) };
                let stop = turns.get(i + 1).map_or(end, |n| ms(n.start)).min(end);
                if let Some(segment) = Segment::new(start, stop) {
                    match v.last_mut() {
                        Some(last) if last.speaker.as_deref() == Some(&*t.speaker) => {
                            last.segment = last.segment.hull(&segment);
                        }
                        _ => v.push(Piece {
                            segment,
                            speaker: Some(t.speaker.to_string()),
                            note: format!("{} holds the floor", t.speaker),
                        }),
                    }
                }
            }
            v
        }
    };
    if *selection != Selection::FollowSpeaker {
        pieces = shape(pieces, options, media);
    }
    if pieces.is_empty() {
        return Err(Error::invalid("the selection keeps nothing"));
    }
    Ok(on_frames(pieces, options.rate, media, selection.in_place()))
}

/// Pad, merge, drop short pieces (pieces sorted by start on entry).
///
/// ```text
/// kept        [██)  [███)          [█)
/// pad 1       [████[█████)        [███)      widened, clamped to the media
/// merge 3     [██████████)        [███)      → joined when closer than 3
/// min_clip 4  [██████████)                   → the short one is dropped
/// ```
fn shape(pieces: Vec<Piece>, options: &CutOptions, media: Segment) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::with_capacity(pieces.len());
    for mut p in pieces {
        let s = p.segment.start().saturating_sub(options.pad).max(media.start());
        let e = p.segment.end().saturating_add(options.pad).min(media.end());
        let Some(seg) = Segment::new(s, e) else { continue };
        p.segment = seg;
        match out.last_mut() {
            Some(last)
                if p.segment.start() - last.segment.end() < options.merge
                    || p.segment.start() <= last.segment.end() =>
            {
                last.segment = last.segment.hull(&p.segment);
                if !p.note.is_empty() && !last.note.contains(&p.note) {
                    if !last.note.is_empty() {
                        last.note.push_str("; ");
                    }
                    last.note.push_str(&p.note);
                }
            }
            _ => out.push(p),
        }
    }
    out.retain(|p| p.segment.duration() >= options.min_clip);
    out
}

/// Puts pieces on frames and gives them record positions.
fn on_frames(pieces: Vec<Piece>, rate: Rate, media: Segment, in_place: bool) -> CutList {
    let media_frames = rate.frame_at(media.end());
    let mut clips: Vec<Clip> = Vec::with_capacity(pieces.len());
    let mut record = 0;
    for p in pieces {
        let mut a = rate.frame_at(p.segment.start());
        let b = rate.frame_at(p.segment.end()).min(media_frames);
        if let Some(last) = clips.last() {
            a = a.max(last.source_out());
        }
        if b <= a {
            continue;
        }
        let record_in = if in_place { a } else { record };
        record = record_in + (b - a);
        clips.push(Clip {
            source_in: a,
            duration: b - a,
            record_in,
            speaker: p.speaker,
            note: p.note,
        });
    }
    CutList { rate, in_place, media_frames, clips }
}

/// Where and what the cut's media is, for the exporters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Media {
    /// The path or URL recorded in the edit (as given; exporters make `file://` URLs where the
    /// format wants one).
    pub path: String,
    /// A display name (the file name).
    pub name: String,
    /// Whether the media has pictures (a video file) or is sound only.
    pub video: bool,
    /// Audio channels (1 when unknown).
    pub channels: u32,
    /// Audio sample rate (48 000 when unknown).
    pub sample_rate: u32,
}

impl Media {
    /// Media for `path`: the name is its file name; video when the extension is a video
    /// container's.
    pub fn from_path(path: &str) -> Media {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path).to_owned();
        let ext = name.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
        let video = matches!(ext.as_str(), "mp4" | "mov" | "mkv" | "webm" | "mxf" | "avi" | "m4v");
        Media { path: path.to_owned(), name, video, channels: 1, sample_rate: 48_000 }
    }

    /// A `file://` URL for the path (absolute paths as they are; relative ones stay
    /// relative; characters outside the unreserved set percent-encoded).
    pub fn url(&self) -> String {
        if self.path.contains("://") {
            return self.path.clone();
        }
        let mut s = String::from("file://");
        for b in self.path.bytes() {
            match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                    s.push(char::from(b))
                }
                _ => s.push_str(&format!("%{b:02X}")),
            }
        }
        s
    }
}

/// One edit to export: the cut list, its name and the media each track plays.
#[derive(Clone, Debug)]
pub struct Edit<'a> {
    /// The sequence name.
    pub name: &'a str,
    /// The clips.
    pub cut: &'a CutList,
    /// One track per media, each playing the same clips (one media per speaker's track, or
    /// the one recording); with `angles`, the sources the one track switches between.
    pub media: &'a [Media],
    /// A multicam (angle) cut: clip `k` plays `media[angles[k]]`, all on one track, so the
    /// picture (or microphone) follows the floor holder. `None`: every media on its own
    /// track, each playing every clip.
    ///
    /// ```text
    /// clips        [ Wife ][ Husband  ][ Wife ][ Husband ]
    /// angles         0       1           0       1
    /// one track    [wife.mp4][husband.mp4][wife.mp4][husband.mp4]
    /// ```
    pub angles: Option<&'a [usize]>,
}

impl Edit<'_> {
    /// The media clip `k` plays on track `track`: its angle in a multicam cut, else the
    /// track's own media.
    pub fn media_of(&self, track: usize, k: usize) -> usize {
        match self.angles {
            Some(a) => a.get(k).copied().unwrap_or(0).min(self.media.len().saturating_sub(1)),
            None => track,
        }
    }

    /// The number of tracks: one in a multicam cut, else one per media.
    pub fn track_count(&self) -> usize {
        if self.angles.is_some() {
            self.media.len().min(1)
        } else {
            self.media.len()
        }
    }
}

/// The angle of each clip of `cut` for a multicam cut: the index in `cameras` of the camera of
/// the clip's speaker (`cameras` = `(speaker, media index)`). Errors name a clip whose speaker
/// has no camera, with the cameras there are.
pub fn angles_by_speaker(cut: &CutList, cameras: &[(String, usize)]) -> Result<Vec<usize>> {
    cut.clips
        .iter()
        .map(|c| {
            let who = c.speaker.as_deref().unwrap_or("");
            cameras.iter().find(|(s, _)| s == who).map(|&(_, m)| m).ok_or_else(|| {
                let known: Vec<&str> = cameras.iter().map(|(s, _)| s.as_str()).collect();
                Error::invalid(format!(
                    "no camera for {who:?}, who holds the floor at frame {} (cameras: {})",
                    c.record_in,
                    known.join(", ")
                ))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;

//! [`Transcript`]: an annotation plus what was said in each track.

use serde::{Deserialize, Serialize};

use crate::model::{Annotation, AnnotationBuilder, Segment, SpeakerId, Track};
use crate::time::Time;

/// One word with its timing when the source gave one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Word {
    /// The word as written in the source, markers included (CHAT's `[<]`, `+/.` stay here).
    pub text: String,
    /// Start, when aligned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Time>,
    /// End, when aligned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<Time>,
    /// Recogniser confidence in `[0, 1]`, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
}

impl Word {
    /// A word without timing.
    pub fn untimed(text: impl Into<String>) -> Word {
        Word { text: text.into(), start: None, end: None, confidence: None }
    }

    /// A word with a start and an end.
    pub fn timed(text: impl Into<String>, start: Time, end: Time) -> Word {
        Word { text: text.into(), start: Some(start), end: Some(end), confidence: None }
    }
}

/// What was said during one track: its text, and its words when the source split them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Content {
    /// The utterance text as written in the source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Words, in order; may be empty when only text is known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<Word>,
}

impl Content {
    /// Content with text only.
    pub fn text(text: impl Into<String>) -> Content {
        Content { text: Some(text.into()), words: Vec::new() }
    }

    /// Whether there is neither text nor words.
    pub fn is_empty(&self) -> bool {
        self.text.as_deref().is_none_or(|t| t.trim().is_empty()) && self.words.is_empty()
    }

    /// The text, or the words joined by spaces when there is no text.
    pub fn display_text(&self) -> String {
        match &self.text {
            Some(t) => t.clone(),
            None => self.words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" "),
        }
    }
}

/// What a bracketed note of a transcriber says happened (`[crosstalk 00:13:22]`, `[inaudible]`,
/// `[laughter]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    /// People talked over each other: the transcriber's judgement of an overlap.
    Crosstalk,
    /// Speech the transcriber could not make out.
    Inaudible,
    /// Laughter.
    Laughter,
    /// Any other bracketed note (`[music]`, `[applause]`).
    Other,
}

/// A transcriber's bracketed note, kept apart from the timed tracks because it is a judgement,
/// not a measurement: `[crosstalk 00:13:22]` says people talked over each other around 13:22,
/// not from when to when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// What kind of note.
    pub kind: MarkKind,
    /// The time written in the note, when it has one.
    pub at: Option<Time>,
    /// The speaker of the paragraph that holds the note.
    pub speaker: Option<String>,
    /// The start of the paragraph that holds the note (where a note without a time is placed).
    pub paragraph_start: Option<Time>,
    /// The note as written, without its brackets (`crosstalk 00:13:22`).
    pub text: String,
}

/// Who spoke when, and what they said: an [`Annotation`] whose tracks may carry [`Content`].
///
/// ```text
/// Wife     [When I'm talking, you're not talking)
/// Husband        [I was just—)
/// ```
///
/// `extent`, when known, is the declared span of the recording (a TextGrid's `xmin`/`xmax`, a
/// media duration), which may be longer than the speech.
///
/// A track's end may be *estimated* rather than read: paragraph transcripts (Rev, Otter, YouTube)
/// give only when each paragraph began, and their readers estimate ends
/// ([`crate::format::paragraphs`]); [`end_estimated`](Transcript::end_estimated) says which.
/// [`marks`](Transcript::marks) are the transcriber's bracketed notes, in file order.
/// A source may also hold utterances without times (a CHAT file without media bullets): they
/// are kept in their order as [`Untimed`] utterances, beside the timed tracks, so their
/// speakers, words and transcriber markers can be read even though no time-based measure can be.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Transcript {
    annotation: Annotation,
    contents: Vec<Option<Content>>,
    extent: Option<Segment>,
    /// Parallel to the tracks; empty when no end is estimated.
    estimated: Vec<bool>,
    marks: Vec<Mark>,
    untimed: Vec<Untimed>,
}

/// An utterance the source gives no time for, in the source's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Untimed {
    /// Who said it.
    pub speaker: SpeakerId,
    /// What was said, markers included.
    pub content: Content,
    /// 1-based line of the source where it starts (0 when unknown).
    pub line: usize,
}

/// Collects tracks with optional content, then sorts them into a [`Transcript`].
#[derive(Clone, Debug, Default)]
pub struct TranscriptBuilder {
    annotation: AnnotationBuilder,
    contents: Vec<Option<Content>>,
    extent: Option<Segment>,
    estimated: Vec<bool>,
    marks: Vec<Mark>,
    /// Untimed utterances by speaker name: ids change when the annotation is built.
    untimed: Vec<(String, Content, usize)>,
}

impl TranscriptBuilder {
    /// An empty builder.
    pub fn new() -> TranscriptBuilder {
        TranscriptBuilder::default()
    }

    /// Declares a speaker (kept even without tracks).
    pub fn speaker(&mut self, name: &str) -> SpeakerId {
        self.annotation.speaker(name)
    }

    /// Adds a track with optional content for a speaker id.
    pub fn push(
        &mut self,
        segment: Segment,
        speaker: SpeakerId,
        content: Option<Content>,
    ) -> &mut Self {
        self.annotation.push(segment, speaker);
        // Contents are kept only from the first track that has one (every earlier track gets
        // `None`): sources without text (RTTM, most diarizations) never fill the list.
        if content.is_some() || !self.contents.is_empty() {
            let before = self.annotation.len() - 1;
            if self.contents.len() < before {
                self.contents.resize_with(before, || None);
            }
            self.contents.push(content);
        }
        self
    }

    /// Makes room for `additional` more tracks (the number of lines of a file, say).
    pub fn reserve(&mut self, additional: usize) -> &mut Self {
        self.annotation.reserve(additional);
        self
    }

    /// Adds a track with optional content for a speaker label.
    pub fn add(&mut self, segment: Segment, speaker: &str, content: Option<Content>) -> &mut Self {
        let id = self.annotation.speaker(speaker);
        self.push(segment, id, content)
    }

    /// Marks the end of the track added last as estimated (not read from the source).
    pub fn end_estimated(&mut self) -> &mut Self {
        let n = self.annotation.len();
        if n > 0 {
            self.estimated.resize(n, false);
            self.estimated[n - 1] = true;
        }
        self
    }

    /// Adds a transcriber's note.
    pub fn mark(&mut self, mark: Mark) -> &mut Self {
        self.marks.push(mark);
        self
    }

    /// Adds an utterance without time, after the untimed ones added before.
    pub fn push_untimed(&mut self, speaker: SpeakerId, content: Content, line: usize) -> &mut Self {
        let name = self.annotation.speaker_name(speaker).to_owned();
        self.untimed.push((name, content, line));
        self
    }

    /// Sets the declared span of the recording.
    pub fn extent(&mut self, extent: Option<Segment>) -> &mut Self {
        self.extent = extent;
        self
    }

    /// Number of tracks added.
    pub fn len(&self) -> usize {
        self.annotation.len()
    }

    /// Whether no track was added.
    pub fn is_empty(&self) -> bool {
        self.annotation.is_empty()
    }

    /// Sorts and freezes.
    pub fn build(self) -> Transcript {
        let mut t = if self.contents.is_empty() && self.estimated.is_empty() {
            // No track has content: nothing to carry through the sort.
            let annotation = self.annotation.build();
            let contents = std::iter::repeat_with(|| None).take(annotation.len()).collect();
            Transcript {
                annotation,
                contents,
                extent: self.extent,
                estimated: Vec::new(),
                marks: self.marks,
                untimed: Vec::new(),
            }
        } else {
            let (annotation, order) = self.annotation.build_with_order();
            let mut contents: Vec<Option<Content>> = self.contents;
            // Tracks added after the last content have none.
            contents.resize_with(order.len(), || None);
            let sorted =
                order.iter().map(|&i| contents.get_mut(i).and_then(Option::take)).collect();
            let estimated = if self.estimated.is_empty() {
                Vec::new()
            } else {
                order.iter().map(|&i| self.estimated.get(i).copied().unwrap_or(false)).collect()
            };
            Transcript {
                annotation,
                contents: sorted,
                extent: self.extent,
                estimated,
                marks: self.marks,
                untimed: Vec::new(),
            }
        };
        let speakers = t.annotation.speakers();
        t.untimed = self
            .untimed
            .into_iter()
            .filter_map(|(name, content, line)| {
                // Every untimed speaker was declared in the builder, so it is in the table.
                speakers.get(&name).map(|speaker| Untimed { speaker, content, line })
            })
            .collect();
        t
    }
}

/// One track of a transcript with its content.
#[derive(Clone, Copy, Debug)]
pub struct Utterance<'a> {
    /// When.
    pub segment: Segment,
    /// Who (an id of the transcript's annotation).
    pub speaker: SpeakerId,
    /// The speaker's label.
    pub speaker_name: &'a str,
    /// What was said, when known.
    pub content: Option<&'a Content>,
}

impl Transcript {
    /// A transcript without any text.
    pub fn from_annotation(annotation: Annotation) -> Transcript {
        let contents = vec![None; annotation.len()];
        Transcript {
            annotation,
            contents,
            extent: None,
            estimated: Vec::new(),
            marks: Vec::new(),
            untimed: Vec::new(),
        }
    }

    /// Who spoke when.
    pub fn annotation(&self) -> &Annotation {
        &self.annotation
    }

    /// The declared span of the recording, when the source gave one.
    pub fn declared_extent(&self) -> Option<Segment> {
        self.extent
    }

    /// The content of each track, parallel to `annotation().tracks()`.
    pub fn contents(&self) -> &[Option<Content>] {
        &self.contents
    }

    /// The tracks with their content, in annotation order.
    pub fn utterances(&self) -> impl Iterator<Item = Utterance<'_>> + '_ {
        self.annotation.tracks().iter().zip(&self.contents).map(|(t, c): (&Track, _)| Utterance {
            segment: t.segment,
            speaker: t.speaker,
            speaker_name: self.annotation.speaker_name(t.speaker),
            content: c.as_ref(),
        })
    }

    /// Whether the end of track `i` (in annotation order) was estimated rather than read.
    pub fn end_estimated(&self, i: usize) -> bool {
        self.estimated.get(i).copied().unwrap_or(false)
    }

    /// How many tracks have an estimated end.
    pub fn estimated_ends(&self) -> usize {
        self.estimated.iter().filter(|&&e| e).count()
    }

    /// The transcriber's bracketed notes, in the order of the source.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// The utterances without time, in the source's order.
    pub fn untimed(&self) -> &[Untimed] {
        &self.untimed
    }

    /// Whether the transcript has utterances but no times at all (nothing to measure in time).
    pub fn is_untimed(&self) -> bool {
        self.annotation.is_empty() && !self.untimed.is_empty()
    }

    /// Whether any track has text or words.
    pub fn has_text(&self) -> bool {
        self.contents.iter().flatten().any(|c| !c.is_empty())
    }

    /// The transcript with speakers relabelled (see [`Annotation::rename`]); content is kept.
    pub fn rename(&self, map: &std::collections::HashMap<String, String>) -> Transcript {
        let mut b = TranscriptBuilder::new();
        for (_, name) in self.annotation.speakers().iter() {
            b.speaker(map.get(name).map_or(name, String::as_str));
        }
        for (i, u) in self.utterances().enumerate() {
            let name = map.get(u.speaker_name).map_or(u.speaker_name, String::as_str);
            b.add(u.segment, name, u.content.cloned());
            if self.end_estimated(i) {
                b.end_estimated();
            }
        }
        for m in &self.marks {
            let mut m = m.clone();
            if let Some(new) = m.speaker.as_ref().and_then(|s| map.get(s)) {
                m.speaker = Some(new.clone());
            }
            b.mark(m);
        }
        for u in &self.untimed {
            let name = self.annotation.speaker_name(u.speaker);
            let id = b.speaker(map.get(name).map_or(name, String::as_str));
            b.push_untimed(id, u.content.clone(), u.line);
        }
        b.extent(self.extent);
        b.build()
    }

    /// The span to analyse: the declared extent joined with the speech extent.
    pub fn span(&self) -> Option<Segment> {
        match (self.extent, self.annotation.extent()) {
            (Some(a), Some(b)) => Some(a.hull(&b)),
            (a, b) => a.or(b),
        }
    }
}

impl From<Annotation> for Transcript {
    fn from(a: Annotation) -> Transcript {
        Transcript::from_annotation(a)
    }
}

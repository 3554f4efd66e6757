//! Google Cloud Speech-to-Text responses (`recognize`, `longrunningrecognize`, v1 and v2 REST
//! JSON), read only.
//!
//! ```json
//! {"results": [
//!   {"alternatives": [{"transcript": "hello there", "confidence": 0.92, "words": [
//!     {"startTime": "0.500s", "endTime": "0.900s", "word": "hello"}, …]}],
//!    "resultEndTime": "2.300s", "languageCode": "en-us"},
//!   {"alternatives": [{"words": [
//!     {"startTime": "0.500s", "endTime": "0.900s", "word": "hello", "speakerTag": 1}, …]}]}]}
//! ```
//!
//! - The response is read as the REST API writes it (`{"results": […]}`), as a bare list of
//!   results (a client's `response.results` saved as it is), or as a list whose first element
//!   is the response (Node's `const [response] = await client.recognize(…)` saved whole), or
//!   as the long-running operation that holds it (`operations.get`: `{"done": true,
//!   "response": {…}}`; a failed one is an error with its message). A v2 batch operation maps
//!   each audio file's URI to its transcript (`inlineResult`); one file is read, several are an
//!   error. Field names are the REST API's camelCase or the protobuf names the Python client's
//!   `to_dict` keeps (`start_time`, `speaker_tag`).
//! - Times are durations as strings of seconds with an `s` (`"1.200s"`, v1 `startTime` /
//!   `endTime`, v2 `startOffset` / `endOffset`), read exactly; numbers are accepted too, and
//!   the `{"seconds": "9", "nanos": 30000000}` objects the client libraries write.
//! - With speaker diarization Google repeats **every word of the audio, with its speaker**, in
//!   the last result that has speakers (`speakerTag` in v1, `speakerLabel` in v2): those words
//!   are read and the others, which repeat them without speakers, are not. The speaker is
//!   `speaker_<tag>`.
//! - Without diarization the words of every result's first alternative are read, each result's
//!   `channelTag` naming the speaker (`channel_<n>`, multichannel audio) or, without it, the
//!   placeholder [`UNKNOWN_SPEAKER`] with one `missing-speaker` warning.
//! - Tracks are built from the words as for Deepgram: a new track at each speaker change or
//!   pause longer than 0.8 s. Words without times are dropped with one `missing-time` warning.
//!
//! overtalk does not write these responses: they are a vendor's output, not an exchange format.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result, WarningKind};
use crate::format::json::Unlabelled;
use crate::format::json::{
    add_word_runs, is_list, label, scan, seconds_value, warn, LabelledWord, Untimed,
    UNKNOWN_SPEAKER,
};
use crate::format::ReadContext;
use crate::model::{Corpus, TranscriptBuilder, Word};
use crate::time::Time;

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::GoogleStt,
    name: "google-stt",
    aliases: &["google", "gcp"],
    extension: "json",
    detected_by: &[],
    read: Ok(read),
    write: None,
    json: true,
    many_recordings: false,
    paragraphs: false,
    sniff: &[],
};

#[derive(Deserialize)]
struct Doc {
    #[serde(default)]
    results: Vec<ResultJ>,
    /// A long-running operation (`operations.get`) holds the response in `response`…
    #[serde(default)]
    response: Option<ResponseJ>,
    /// … or, when the job failed, its `error` (`{"code": 3, "message": "…"}`).
    #[serde(default)]
    error: Option<Value>,
    /// Whether the operation has finished (an operation's `done`; absent in a response).
    #[serde(default)]
    done: Option<Value>,
}

/// The `response` of an operation: v1's results, or v2's `BatchRecognizeResponse`, whose
/// `results` map each audio file's URI to its transcript.
#[derive(Deserialize)]
struct ResponseJ {
    #[serde(default)]
    results: Option<ResultsJ>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ResultsJ {
    List(Vec<ResultJ>),
    Files(std::collections::BTreeMap<String, FileResultJ>),
}

/// One audio file's result in a v2 batch operation: its transcript inline (`inlineResult`, or
/// the older `transcript`), or where it was written (`cloudStorageResult`), or its `error`.
#[derive(Deserialize)]
struct FileResultJ {
    #[serde(default, rename = "inlineResult", alias = "inline_result")]
    inline_result: Option<InlineJ>,
    #[serde(default)]
    transcript: Option<TranscriptJ>,
    #[serde(default, rename = "cloudStorageResult", alias = "cloud_storage_result")]
    cloud_storage_result: Option<Value>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct InlineJ {
    #[serde(default)]
    transcript: Option<TranscriptJ>,
}

#[derive(Deserialize)]
struct TranscriptJ {
    #[serde(default)]
    results: Vec<ResultJ>,
}

/// The message of a `google.rpc.Status` (`{"code": 3, "message": "…"}`), else the whole value.
fn status_message(error: &Value) -> String {
    error.get("message").and_then(Value::as_str).map_or_else(|| error.to_string(), str::to_owned)
}

/// The results of an operation's response and the tracked path of their positions (none for
/// v2's map of files). A v2 batch of several files is an error: one file is one recording.
fn response_results(response: ResponseJ) -> Result<(Vec<ResultJ>, usize)> {
    match response.results {
        None => Ok((Vec::new(), 2)),
        Some(ResultsJ::List(results)) => Ok((results, 2)),
        Some(ResultsJ::Files(files)) => {
            if files.len() > 1 {
                let names: Vec<&str> = files.keys().map(String::as_str).collect();
                return Err(Error::invalid(format!(
                    "the operation holds the transcripts of {} audio files ({}); read one at a time: save each file's `transcript` apart",
                    files.len(),
                    names.join(", ")
                )));
            }
            let Some((uri, file)) = files.into_iter().next() else { return Ok((Vec::new(), 2)) };
            if let Some(error) = &file.error {
                return Err(Error::invalid(format!(
                    "Speech-to-Text failed on {uri}: {}",
                    status_message(error)
                )));
            }
            match file.inline_result.and_then(|i| i.transcript).or(file.transcript) {
                Some(t) => Ok((t.results, TRACKED.len())),
                None => {
                    let written = file
                        .cloud_storage_result
                        .as_ref()
                        .and_then(|c| c.get("uri"))
                        .and_then(Value::as_str)
                        .map_or_else(String::new, |u| format!(" to {u}"));
                    Err(Error::invalid(format!(
                        "the operation holds no transcript of {uri}: it was written{written}; read that file"
                    )))
                }
            }
        }
    }
}

impl Doc {
    fn empty() -> Doc {
        Doc { results: Vec::new(), response: None, error: None, done: None }
    }
}

/// Field names are the REST API's camelCase or, as aliases, the protobuf names the Python
/// client's `to_dict` keeps (`channel_tag`).
#[derive(Deserialize)]
struct ResultJ {
    #[serde(default)]
    alternatives: Vec<AlternativeJ>,
    #[serde(default, alias = "channelTag")]
    channel_tag: Option<Value>,
}

#[derive(Deserialize)]
struct AlternativeJ {
    #[serde(default)]
    transcript: Option<String>,
    #[serde(default)]
    words: Vec<WordJ>,
}

/// A word, in camelCase (REST) or with its protobuf names (`to_dict`). v1 writes the older
/// `speakerTag` (a number) and, since `speakerLabel` was added, both; v2 only `speakerLabel`.
#[derive(Deserialize)]
struct WordJ {
    #[serde(default, alias = "startTime", alias = "startOffset", alias = "start_offset")]
    start_time: Option<Value>,
    #[serde(default, alias = "endTime", alias = "endOffset", alias = "end_offset")]
    end_time: Option<Value>,
    #[serde(default)]
    word: Option<String>,
    #[serde(default)]
    confidence: Option<f64>,
    #[serde(default, alias = "speakerTag")]
    speaker_tag: Option<Value>,
    #[serde(default, alias = "speakerLabel")]
    speaker_label: Option<Value>,
}

/// The results of a response (`results` of the object, or of the list's first element), of
/// a bare list of results (the top-level list), and of an operation's response.
const TRACKED: [&str; 3] = ["results", "", "response/results"];

/// A protobuf duration: `"1.200s"` (its JSON mapping), a number of seconds, or the object
/// `{"seconds": "9", "nanos": 30000000}` of the client libraries (either part may be absent;
/// seconds as a string or an integer), read exactly.
fn offset(v: &Option<Value>) -> Option<Time> {
    match v {
        Some(Value::String(s)) => {
            seconds_value(&Value::String(s.trim().trim_end_matches('s').to_owned()))
        }
        Some(Value::Object(o)) => {
            let whole = |v: &Value| match v {
                Value::String(s) => s.trim().parse::<i64>().ok(),
                other => other.as_i64(),
            };
            let seconds = o.get("seconds").map_or(Some(0), whole)?;
            let nanos = o.get("nanos").map_or(Some(0), whole)?;
            if !(0..1_000_000_000).contains(&nanos) && !(-999_999_999..0).contains(&nanos) {
                return None;
            }
            let micros = seconds.checked_mul(1_000_000)?.checked_add(nanos / 1_000)?;
            (micros >= 0).then(|| Time::from_micros(micros))
        }
        Some(other) => seconds_value(other),
        None => None,
    }
}

/// Whether result `d` repeats the words of all the others (v1 diarization): it has at least as
/// many words as they have together, and its first word starts no later than theirs.
fn repeats_the_others(results: &[ResultJ], d: usize) -> bool {
    fn words(r: &ResultJ) -> &[WordJ] {
        r.alternatives.first().map_or(&[][..], |a| a.words.as_slice())
    }
    let first_start = |ws: &[WordJ]| ws.iter().filter_map(|w| offset(&w.start_time)).min();
    let mine = words(&results[d]);
    let others: Vec<&WordJ> =
        results.iter().enumerate().filter(|&(k, _)| k != d).flat_map(|(_, r)| words(r)).collect();
    let their_start = others.iter().filter_map(|w| offset(&w.start_time)).min();
    mine.len() >= others.len()
        && match (first_start(mine), their_start) {
            (Some(a), Some(b)) => a <= b,
            _ => true,
        }
}

/// The word's speaker, when it names one: its `speakerLabel`, else its `speakerTag` (v1 uses 0
/// for "none", and `to_dict` writes the defaults 0 and `""` of an undiarized word).
fn speaker_tag(w: &WordJ) -> Option<String> {
    let named = |v: &Option<Value>| label(v).filter(|t| !t.is_empty() && t != "0");
    named(&w.speaker_label).or_else(|| named(&w.speaker_tag))
}

/// A channel tag, when it names a channel (`to_dict` writes the default 0 for mono audio; the
/// channels of multichannel audio are numbered from 1).
fn channel_tag(r: &ResultJ) -> Option<String> {
    label(&r.channel_tag).filter(|t| !t.is_empty() && t != "0")
}

/// Reads a Speech-to-Text response into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    // The three shapes of a saved response (module documentation), told apart by the first
    // character and by whether a list's objects hold `results`; each parsed as its type, so
    // that an error names its line and column.
    let list = is_list(text);
    let (mut doc, mut path) = if !list {
        (scanned.parse::<Doc>(ctx)?, 0)
    } else if scanned.pos(0, 0).is_some() || text.contains("\"results\"") {
        let wrapped: Vec<Option<Doc>> = scanned.parse(ctx)?;
        (wrapped.into_iter().flatten().next().unwrap_or_else(Doc::empty), 0)
    } else {
        (Doc { results: scanned.parse(ctx)?, ..Doc::empty() }, 1)
    };
    if let Some(error) = doc.error.take() {
        let message = status_message(&error);
        return Err(Error::invalid(format!("the Speech-to-Text operation failed: {message}")));
    }
    if let Some(response) = doc.response.take() {
        (doc.results, path) = response_results(response)?;
    } else if doc.done.as_ref().is_some_and(|d| d == &Value::Bool(false)) {
        return Err(Error::invalid(
            "the Speech-to-Text operation is not done (\"done\": false); fetch it again when it is",
        ));
    }
    // v1 repeats every word of the audio, with its speaker, in the last result whose words
    // carry speakers: only that one is read. Results that each carry their own words' speakers
    // (no such repetition) are all read.
    let last_diarized = doc.results.iter().rposition(|r| {
        r.alternatives.first().is_some_and(|a| a.words.iter().any(|w| speaker_tag(w).is_some()))
    });
    let repeated = last_diarized.filter(|&d| repeats_the_others(&doc.results, d));
    let diarized = last_diarized.is_some();
    // Transcripts without word times (the request did not ask for them) cannot be placed;
    // said of the results that are read.
    let untimed_transcript = |r: &ResultJ| {
        r.alternatives.first().is_some_and(|a| {
            a.words.is_empty() && a.transcript.as_deref().is_some_and(|t| !t.trim().is_empty())
        })
    };
    if repeated.is_none() {
        let n = doc.results.iter().filter(|r| untimed_transcript(r)).count();
        if n > 0 {
            let first = doc.results.iter().position(untimed_transcript);
            warn(
                ctx,
                WarningKind::MissingTime,
                first.and_then(|k| scanned.pos(path, k)),
                format!("{n} result(s) have a transcript but no word times (the request lacked enableWordTimeOffsets); their words cannot be placed and are left out"),
            )?;
        }
    }
    let mut labelled = Vec::new();
    let mut unlabelled = Unlabelled::default();
    let mut untimed = Untimed::default();
    for (k, r) in doc.results.into_iter().enumerate() {
        if repeated.is_some_and(|d| d != k) {
            continue;
        }
        let pos = scanned.pos(path, k);
        let channel = channel_tag(&r).map(|c| format!("channel_{c}"));
        let Some(alt) = r.alternatives.into_iter().next() else { continue };
        for w in alt.words {
            let speaker = match (diarized, speaker_tag(&w), &channel) {
                (true, Some(tag), _) => format!("speaker_{tag}"),
                (false, _, Some(c)) => c.clone(),
                _ => {
                    unlabelled.add(pos);
                    UNKNOWN_SPEAKER.to_owned()
                }
            };
            let (Some(start), Some(end)) = (offset(&w.start_time), offset(&w.end_time)) else {
                untimed.add(pos);
                continue;
            };
            let word = Word {
                text: w.word.unwrap_or_default(),
                start: Some(start),
                end: Some(end),
                confidence: w.confidence,
            };
            labelled.push(LabelledWord { speaker, word, start, end });
        }
    }
    let total = labelled.len();
    unlabelled.warn(ctx, !diarized, total, "diarization")?;
    untimed.warn(ctx, "")?;
    // One diarized stream stays in time order (a speaker change ends a track); channels, which
    // overlap freely, are taken one at a time, each in time order.
    if diarized {
        labelled.sort_by_key(|w| w.start);
    } else {
        labelled.sort_by(|x, y| (&x.speaker, x.start).cmp(&(&y.speaker, y.start)));
    }
    let mut b = TranscriptBuilder::new();
    add_word_runs(ctx, labelled, &mut b)?;
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_support::tracks_with_text;
    use crate::format::{read_str, ReadOptions};

    fn tracks(out: &crate::format::ReadOutput) -> Vec<(i64, i64, String, String)> {
        tracks_with_text(out, "recording")
    }

    #[test]
    fn the_diarized_last_result_is_read_once() {
        let out = read_str(
            r#"{"results": [
  {"alternatives": [{"transcript": "hello there", "confidence": 0.92, "words": [
    {"startTime": "0.500s", "endTime": "0.900s", "word": "hello"},
    {"startTime": "0.900s", "endTime": "1.300s", "word": "there"}]}], "resultEndTime": "1.300s"},
  {"alternatives": [{"transcript": "hi", "words": [
    {"startTime": "1.200s", "endTime": "1.600s", "word": "hi"}]}], "resultEndTime": "1.600s"},
  {"alternatives": [{"words": [
    {"startTime": "0.500s", "endTime": "0.900s", "word": "hello", "speakerTag": 1},
    {"startTime": "0.900s", "endTime": "1.300s", "word": "there", "speakerTag": 1},
    {"startTime": "1.200s", "endTime": "1.600s", "word": "hi", "speakerTag": 2}]}]}]}"#,
            Format::GoogleStt,
            &ReadOptions::default(),
        )
        .unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks(&out),
            vec![
                (500_000, 1_300_000, "speaker_1".to_owned(), "hello there".to_owned()),
                (1_200_000, 1_600_000, "speaker_2".to_owned(), "hi".to_owned()),
            ]
        );
    }

    #[test]
    fn v2_offsets_channels_and_undiarized_words() {
        let out = read_str(
            r#"{"results": [
  {"channelTag": 1, "alternatives": [{"words": [{"startOffset": "0s", "endOffset": "0.5s", "word": "a"}]}]},
  {"channelTag": 2, "alternatives": [{"words": [{"startOffset": "0.25s", "endOffset": "0.75s", "word": "b"}]}]}]}"#,
            Format::GoogleStt,
            &ReadOptions::default(),
        )
        .unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks(&out),
            vec![
                (0, 500_000, "channel_1".to_owned(), "a".to_owned()),
                (250_000, 750_000, "channel_2".to_owned(), "b".to_owned()),
            ]
        );
        let out = read_str(
            "{\"results\": [\n  {\"alternatives\": [{\"words\": [{\"startTime\": \"1s\", \"endTime\": \"2s\", \"word\": \"x\"}, {\"word\": \"y\"}]}]}]}",
            Format::GoogleStt,
            &ReadOptions::default(),
        )
        .unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::MissingSpeaker, Some(2), Some(3)),
                (WarningKind::MissingTime, Some(2), Some(3))
            ]
        );
        assert_eq!(
            tracks(&out),
            vec![(1_000_000, 2_000_000, "unknown".to_owned(), "x".to_owned())]
        );
        let head = r#"{"results": [{"alternatives": [{"transcript": "x", "words": [{"startTime": "0s"}]}], "resultEndTime": "1s"}]}"#;
        assert_eq!(crate::format::sniff(head), Some(Format::GoogleStt));
    }

    /// What the client libraries save: Node's `[response]` with `{seconds, nanos}` times, a bare
    /// list of results, and results that each carry their own words' speakers (no last result
    /// repeating them all), which are all read.
    #[test]
    fn client_library_shapes_and_per_result_speakers() {
        let read = |text: &str| read_str(text, Format::GoogleStt, &ReadOptions::default()).unwrap();
        let wrapped = r#"[{"results": [{"alternatives": [{"words": [
    {"startTime": {"seconds": "1", "nanos": 500000000}, "endTime": {"seconds": 2}, "word": "hello", "speakerTag": 1},
    {"startTime": {"nanos": 200000000}, "endTime": {"seconds": "1", "nanos": 100000000}, "word": "hi", "speakerTag": 2}]}]}]}, null, null]"#;
        let out = read(wrapped);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks(&out),
            vec![
                (200_000, 1_100_000, "speaker_2".to_owned(), "hi".to_owned()),
                (1_500_000, 2_000_000, "speaker_1".to_owned(), "hello".to_owned())
            ]
        );
        assert_eq!(crate::format::sniff(wrapped), Some(Format::GoogleStt));
        // A bare list of results; one without word times is said to be left out.
        let bare = r#"[
 {"alternatives": [{"transcript": "bonjour", "words": [{"startOffset": "0.5s", "endOffset": "0.9s", "word": "bonjour", "speakerLabel": "1"}]}], "languageCode": "fr-fr"},
 {"alternatives": [{"transcript": "salut", "words": [{"startOffset": "1s", "endOffset": "1.5s", "word": "salut", "speakerLabel": "2"}]}], "languageCode": "fr-fr"},
 {"alternatives": [{"transcript": "sans mots"}], "resultEndTime": {"seconds": "9", "nanos": 30000000}}]"#;
        let out = read(bare);
        assert_eq!(
            tracks(&out),
            vec![
                (500_000, 900_000, "speaker_1".to_owned(), "bonjour".to_owned()),
                (1_000_000, 1_500_000, "speaker_2".to_owned(), "salut".to_owned())
            ]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::MissingTime, Some(4), Some(2))]);
        assert!(out.warnings[0].message.contains("enableWordTimeOffsets"), "{:?}", out.warnings);
        assert_eq!(crate::format::sniff(bare), Some(Format::GoogleStt));
        // Nanoseconds out of range are no time.
        assert_eq!(offset(&Some(serde_json::json!({"seconds": 1, "nanos": 1_000_000_000}))), None);
        assert_eq!(
            offset(&Some(serde_json::json!({"seconds": "2", "nanos": 1_000}))),
            Some(Time::from_micros(2_000_001))
        );
    }

    /// An operation fetched with `operations.get` (v1 words carrying both `speakerTag` and
    /// `speakerLabel`), the Python client's `to_dict` (protobuf names, every default written),
    /// and a v2 response beside its `metadata`: each detected and read.
    #[test]
    fn operations_to_dict_and_v2_metadata_are_read() {
        let operation = r#"{"name": "7612202767953098924",
 "metadata": {"@type": "type.googleapis.com/google.cloud.speech.v1.LongRunningRecognizeMetadata", "progressPercent": 100, "startTime": "2024-01-01T00:00:00Z"},
 "done": true,
 "response": {"@type": "type.googleapis.com/google.cloud.speech.v1.LongRunningRecognizeResponse",
  "results": [
   {"alternatives": [{"transcript": "hello hi", "words": [
     {"startTime": "0.100s", "endTime": "0.500s", "word": "hello"},
     {"startTime": "1.200s", "endTime": "1.500s", "word": "hi"}]}], "resultEndTime": "1.500s"},
   {"alternatives": [{"words": [
     {"startTime": "0.100s", "endTime": "0.500s", "word": "hello", "speakerTag": 1, "speakerLabel": "1"},
     {"startTime": "1.200s", "endTime": "1.500s", "word": "hi", "speakerTag": 2, "speakerLabel": "2"}]}]}],
  "totalBilledTime": "2s"}}"#;
        let to_dict = r#"{"results": [
 {"alternatives": [{"transcript": "hello hi", "confidence": 0.9, "words": [
   {"start_time": "0.100s", "end_time": "0.500s", "word": "hello", "confidence": 0.0, "speaker_tag": 0, "speaker_label": ""},
   {"start_time": "1.200s", "end_time": "1.500s", "word": "hi", "confidence": 0.0, "speaker_tag": 0, "speaker_label": ""}]}],
  "channel_tag": 0, "result_end_time": "1.500s", "language_code": "en-us"},
 {"alternatives": [{"transcript": "", "confidence": 0.0, "words": [
   {"start_time": "0.100s", "end_time": "0.500s", "word": "hello", "confidence": 0.0, "speaker_tag": 1, "speaker_label": ""},
   {"start_time": "1.200s", "end_time": "1.500s", "word": "hi", "confidence": 0.0, "speaker_tag": 2, "speaker_label": ""}]}],
  "channel_tag": 0, "result_end_time": "1.500s", "language_code": "en-us"}],
 "total_billed_time": "2s", "request_id": "0"}"#;
        let v2 = r#"{"results": [{"alternatives": [{"transcript": "hello hi", "words": [
   {"startOffset": "0.100s", "endOffset": "0.500s", "word": "hello", "speakerLabel": "1"},
   {"startOffset": "1.200s", "endOffset": "1.500s", "word": "hi", "speakerLabel": "2"}]}],
  "resultEndOffset": "1.500s", "languageCode": "en-US"}],
 "metadata": {"requestId": "abc", "totalBilledDuration": "2s"}}"#;
        let expected = vec![
            (100_000, 500_000, "speaker_1".to_owned(), "hello".to_owned()),
            (1_200_000, 1_500_000, "speaker_2".to_owned(), "hi".to_owned()),
        ];
        for text in [operation, to_dict, v2] {
            assert_eq!(crate::format::sniff(text), Some(Format::GoogleStt), "{text}");
            let out = read_str(text, Format::GoogleStt, &ReadOptions::default()).unwrap();
            assert!(out.warnings.is_empty(), "{:?}", out.warnings);
            assert_eq!(tracks(&out), expected);
        }
        // Undiarized `to_dict` output (its first result alone): the default channel 0 names no
        // channel.
        let undiarized =
            format!("{}]}}", &to_dict[..to_dict.find("},\n {\"alternatives\"").unwrap() + 1]);
        let out = read_str(&undiarized, Format::GoogleStt, &ReadOptions::default()).unwrap();
        assert_eq!(
            out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect::<Vec<_>>(),
            vec![(WarningKind::MissingSpeaker, Some(2), Some(2))]
        );
        assert_eq!(
            tracks(&out),
            vec![(100_000, 1_500_000, "unknown".to_owned(), "hello hi".to_owned())]
        );
        // A failed operation is an error naming Google's message.
        let failed = r#"{"name": "1", "metadata": {"@type": "type.googleapis.com/google.cloud.speech.v1.LongRunningRecognizeMetadata"}, "done": true, "error": {"code": 3, "message": "Invalid recognition 'config': bad encoding.."}}"#;
        assert_eq!(crate::format::sniff(failed), Some(Format::GoogleStt));
        let e = read_str(failed, Format::GoogleStt, &ReadOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the Speech-to-Text operation failed: Invalid recognition 'config': bad encoding.."
        );
    }

    /// A v2 batch operation with its transcript inline, keyed by the audio file's URI; one
    /// written to Cloud Storage, and one of several files, are errors saying so.
    #[test]
    fn v2_batch_operations_are_read() {
        let inline = r#"{"name": "projects/p/locations/global/operations/1",
 "metadata": {"@type": "type.googleapis.com/google.cloud.speech.v2.OperationMetadata", "progressPercent": 100},
 "done": true,
 "response": {"@type": "type.googleapis.com/google.cloud.speech.v2.BatchRecognizeResponse",
  "results": {"gs://bucket/call.wav": {"inlineResult": {"transcript": {"results": [
    {"alternatives": [{"transcript": "hello hi", "words": [
      {"startOffset": "0.100s", "endOffset": "0.500s", "word": "hello", "speakerLabel": "1"},
      {"startOffset": "1.200s", "endOffset": "1.500s", "word": "hi", "speakerLabel": "2"}]}],
     "resultEndOffset": "1.500s", "languageCode": "en-US"}],
   "metadata": {"totalBilledDuration": "2s"}}}, "metadata": {"totalBilledDuration": "2s"}}},
  "totalBilledDuration": "2s"}}"#;
        assert_eq!(crate::format::sniff(inline), Some(Format::GoogleStt));
        let out = read_str(inline, Format::GoogleStt, &ReadOptions::default()).unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks(&out),
            vec![
                (100_000, 500_000, "speaker_1".to_owned(), "hello".to_owned()),
                (1_200_000, 1_500_000, "speaker_2".to_owned(), "hi".to_owned()),
            ]
        );
        let stored = r#"{"done": true, "response": {"results": {"gs://b/a.wav": {"uri": "gs://b/out/a.json", "cloudStorageResult": {"uri": "gs://b/out/a.json"}}}}}"#;
        let e = read_str(stored, Format::GoogleStt, &ReadOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the operation holds no transcript of gs://b/a.wav: it was written to gs://b/out/a.json; read that file"
        );
        let two =
            r#"{"done": true, "response": {"results": {"gs://b/a.wav": {}, "gs://b/b.wav": {}}}}"#;
        let e = read_str(two, Format::GoogleStt, &ReadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("2 audio files (gs://b/a.wav, gs://b/b.wav)"), "{e}");
    }
}

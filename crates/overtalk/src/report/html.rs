//! The HTML renderer: static tables from the result values, the result embedded once as JSON,
//! and the inline script and style of `assets/` admitted by their CSP hashes.

use crate::analysis::Millis;
use crate::Delta;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{json, Value};

use super::encode::{base64, csp_hash, escape, script_json};
use crate::analysis::onsets::{OnsetClass, Outcome};
use crate::analysis::result::Mode;
use crate::analysis::Analysis;
use crate::error::{Error, Result};
use crate::model::Transcript;
use crate::output::counted;
use crate::score::{FileStatus, MappedRecording, ScoreReport};

const SCRIPT: &str = include_str!("assets/report.js");
/// The reports' style sheet (the untimed report shares it).
pub(super) const STYLE: &str = include_str!("assets/report.css");

/// Where the recording the report listens to comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Audio {
    /// A URL relative to the report (or a path): linked, not copied.
    Linked(String),
    /// The file's bytes, embedded as they are (base64 `data:` URL).
    Embedded {
        /// MIME type, e.g. `audio/mpeg`.
        mime: String,
        /// The encoded audio.
        bytes: Vec<u8>,
    },
    /// One track per speaker, played together in sync: the first track's player is the
    /// transport (play, pause, seek, speed) and the others follow it, re-aligned whenever one
    /// drifts more than 50 ms, so the listener hears the conversation, not one microphone.
    /// Each track can be muted. Every track is `Linked` or `Embedded`. Each plays at its
    /// [`TrackAudio::offset`] on the report's timeline (silent outside its own stretch); the
    /// first should start first and, among those, end last, since playback ends with it.
    Tracks(Vec<TrackAudio>),
}

/// One speaker's track of an [`Audio::Tracks`] set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackAudio {
    /// The track's name (the speaker, as given to `--track NAME=FILE`).
    pub name: String,
    /// Where its audio comes from: `Linked` or `Embedded`.
    pub audio: Audio,
    /// Where the file starts on the report's timeline (`--track-offset`): at timeline time
    /// `t` the track plays its own second `t − offset`; positive, it is silent until then;
    /// negative, its first seconds are never played. Zero for tracks of one recorder.
    pub offset: Delta,
}

impl Audio {
    /// The MIME type for a file name's extension (`None` for an unknown one).
    pub fn mime_for(name: &str) -> Option<&'static str> {
        let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase())?;
        Some(match ext.as_str() {
            "mp3" => "audio/mpeg",
            "wav" => "audio/wav",
            "ogg" | "oga" | "opus" => "audio/ogg",
            "m4a" | "mp4" | "aac" => "audio/mp4",
            "flac" => "audio/flac",
            "webm" => "audio/webm",
            _ => return None,
        })
    }
}

/// Settings of a report.
#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// Page title (default: from the recordings).
    pub title: Option<String>,
    /// The recording to listen to.
    pub audio: Option<Audio>,
    /// Name of the parameter preset the analysis started from (shown with the parameters).
    pub preset: Option<String>,
    /// Names of the input files (shown in the header).
    pub sources: Vec<String>,
    /// How speech was detected in the recordings among the inputs, one line each (method
    /// and parameters; shown in the header).
    pub detection: Vec<String>,
}

/// One conversation to render: its analysis and, for lanes with words, its transcript.
#[derive(Clone, Copy, Debug)]
pub struct ConversationView<'a> {
    /// Recording id.
    pub recording: &'a str,
    /// The analysis result, as `analyze` serialises it.
    pub analysis: &'a Analysis,
    /// The transcript analysed (its text and words feed the transcript and the event details).
    pub transcript: Option<&'a Transcript>,
}

/// A scoring run to render: the report and the inputs it was computed from (for the lanes).
#[derive(Clone, Copy, Debug)]
pub struct ScoreView<'a> {
    /// The score.
    pub report: &'a ScoreReport,
    /// The recordings as scored: prepared, with their speaker mapping, by id
    /// ([`crate::score::score_corpus`] with `keep`).
    pub mapped: &'a BTreeMap<String, MappedRecording>,
}

fn ser<T: serde::Serialize>(v: &T) -> Result<Value> {
    serde_json::to_value(v).map_err(|e| Error::invalid(format!("serialising the report: {e}")))
}

/// The JSON text of a value, as `data-v` carries it (exactly the number of the JSON output).
fn jv<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_owned())
}

fn ms(us: i64) -> f64 {
    us as f64 / 1000.0
}

/// Milliseconds as `m:ss.s` (or `h:mm:ss`).
fn clock(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ds = (ms.unsigned_abs() + 50) / 100;
    let (h, m, s, d) = (ds / 36_000, ds / 600 % 60, ds / 10 % 60, ds % 10);
    if h > 0 {
        format!("{sign}{h}:{m:02}:{s:02}.{d}")
    } else {
        format!("{sign}{m}:{s:02}.{d}")
    }
}

/// Milliseconds as seconds with two decimals, rounded as the terminal table and Markdown round
/// them ([`crate::output::number::secs`]: half away from zero on the integer milliseconds), so
/// that a turn of 1115 ms reads `1.12` on the page as in the table (formatting the `f64`
/// `1.115` would give `1.11`).
fn secs(ms: i64) -> String {
    crate::output::number::secs(ms)
}

/// A share as a percentage with one decimal, `–` when undefined.
pub(super) fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "–".to_owned(), |v| format!("{} %", crate::output::number::percent(v, 1)))
}

fn page(title: &str, csp_media: Option<&str>, body: &str, payload: &str) -> String {
    page_with(title, csp_media, body, Some(payload), &[STYLE], SCRIPT)
}

/// The page around `body`: `styles` and `script` inline, each admitted by its CSP hash, and
/// `payload` (JSON made safe by [`script_json`]) in `<script id="overtalk-data">` when given.
/// The event-score page uses it with the report's style and a script of its own.
pub(super) fn page_with(
    title: &str,
    csp_media: Option<&str>,
    body: &str,
    payload: Option<&str>,
    styles: &[&str],
    script: &str,
) -> String {
    let style_hashes: Vec<String> = styles.iter().map(|s| csp_hash(s)).collect();
    let mut csp = format!(
        "default-src 'none'; script-src {}; style-src {}; img-src data:; base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types 'none'",
        csp_hash(script),
        style_hashes.join(" ")
    );
    if let Some(m) = csp_media {
        csp.push_str("; media-src ");
        csp.push_str(m);
    }
    let style: String = styles.iter().map(|s| format!("<style>{s}</style>")).collect();
    let payload = payload.map_or_else(String::new, |p| {
        format!("<script type=\"application/json\" id=\"overtalk-data\">{p}</script>\n")
    });
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"generator\" content=\"overtalk {version}\">\n\
<title>{title}</title>\n{style}\n</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to the report</a>\n\
{body}\n{payload}<script>{script}</script>\n</body>\n</html>\n",
        csp = escape(&csp),
        version = env!("CARGO_PKG_VERSION"),
        title = escape(title),
    )
}

/// The file name a linked recording's URL ends with, percent-decoded, for people to read
/// (`../rec/caf%C3%A9%20talk.mp3` is shown as `café talk.mp3`).
fn file_name_of_url(url: &str) -> String {
    let last = url.rsplit('/').next().unwrap_or(url);
    let bytes = last.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `src` of one `Linked` or `Embedded` recording, and whether it is embedded.
fn audio_src(audio: &Audio) -> Result<(String, bool)> {
    match audio {
        Audio::Linked(src) => Ok((src.clone(), false)),
        Audio::Embedded { mime, bytes } => {
            Ok((format!("data:{mime};base64,{}", base64(bytes)), true))
        }
        Audio::Tracks(_) => Err(Error::invalid("a track of a track set cannot be a track set")),
    }
}

/// The player(s) of the report and the CSP `media-src` they need.
fn audio_html(audio: Option<&Audio>) -> Result<(String, Option<&'static str>)> {
    Ok(match audio {
        None => (String::new(), None),
        Some(Audio::Linked(src)) => (
            format!(
                "<p><audio id=\"overtalk-audio\" controls preload=\"metadata\" src=\"{}\"></audio><br><span class=\"note\">Linked recording: {}. Click an event, then its play button, to hear it with a little context.</span></p>",
                escape(src),
                escape(&file_name_of_url(src))
            ),
            Some("'self' file: blob:"),
        ),
        Some(Audio::Embedded { mime, bytes }) => (
            format!(
                "<p><audio id=\"overtalk-audio\" controls preload=\"metadata\" src=\"data:{};base64,{}\"></audio><br><span class=\"note\">Embedded recording ({} bytes). Click an event to hear it with a little context.</span></p>",
                escape(mime),
                base64(bytes),
                bytes.len()
            ),
            Some("data:"),
        ),
        Some(Audio::Tracks(tracks)) => {
            if tracks.is_empty() {
                return Err(Error::invalid("a track set needs at least one track"));
            }
            let (mut linked, mut embedded) = (false, false);
            let mut players = String::new();
            let mut mutes = String::new();
            let mut names = Vec::with_capacity(tracks.len());
            for (i, t) in tracks.iter().enumerate() {
                let (src, is_embedded) = audio_src(&t.audio)?;
                embedded |= is_embedded;
                linked |= !is_embedded;
                let name = escape(&t.name);
                // Where the track starts on the timeline, exact to the microsecond (the
                // script reads it; absent, 0).
                let offset = if t.offset == Delta::ZERO {
                    String::new()
                } else {
                    format!(" data-offset=\"{}\"", t.offset)
                };
                if i == 0 {
                    let _ = write!(
                        players,
                        "<audio id=\"overtalk-audio\" controls preload=\"auto\" data-track=\"{name}\"{offset} src=\"{}\"></audio>",
                        escape(&src)
                    );
                } else {
                    let _ = write!(
                        players,
                        "<audio class=\"overtalk-follower\" preload=\"auto\" data-track=\"{name}\"{offset} src=\"{}\"></audio>",
                        escape(&src)
                    );
                }
                let _ = write!(
                    mutes,
                    " <label><input type=\"checkbox\" class=\"overtalk-mute\" data-index=\"{i}\" checked> {name}</label>"
                );
                names.push(if t.offset == Delta::ZERO {
                    name
                } else {
                    let sign = if t.offset > Delta::ZERO { "+" } else { "" };
                    format!("{name} from {sign}{} s", t.offset)
                });
            }
            let media = match (linked, embedded) {
                (true, true) => "'self' file: blob: data:",
                (false, true) => "data:",
                _ => "'self' file: blob:",
            };
            (
                format!(
                    "<p class=\"mix\">{players}<br><span class=\"note\">{} tracks played together ({}): this player drives them all, and a track that drifts more than 50 ms from it is re-aligned.{} Click an event to hear it with a little context; untick a track to mute it.</span><span class=\"mutes\">{mutes}</span></p>",
                    tracks.len(),
                    names.join(", "),
                    if tracks.iter().any(|t| t.offset != Delta::ZERO) {
                        " Each track plays from its offset on the timeline (--track-offset) and is silent outside its own stretch; a track that ends after this player plays on to its end, its own controls (play, pause, seek) shown in this player's place until a seek or a click brings the timeline back within this player's stretch."
                    } else {
                        ""
                    }
                ),
                Some(media),
            )
        }
    })
}

/// The self-contained HTML report of analysed conversations.
///
/// The embedded JSON holds, per conversation, `result` — the object `overtalk analyze
/// --format json` writes for it (`recording` plus the [`Analysis`] fields) — and, when the
/// transcript has text, `utterances`.
pub fn conversation_report(convs: &[ConversationView<'_>], opts: &ReportOptions) -> Result<String> {
    // Serialised straight to text, never as a `serde_json::Value` tree: a tree of a long
    // conversation takes several times the memory of its text.
    #[derive(serde::Serialize)]
    struct Result_<'a> {
        #[serde(flatten)]
        analysis: &'a Analysis,
        recording: &'a str,
        summary: Vec<crate::summary::Sentence>,
    }
    #[derive(serde::Serialize)]
    struct Item<'a> {
        result: Result_<'a>,
        #[serde(skip_serializing_if = "Option::is_none")]
        utterances: Option<Vec<UtteranceData<'a>>>,
    }
    #[derive(serde::Serialize)]
    struct Payload<'a> {
        kind: &'static str,
        schema_version: u32,
        conversations: Vec<Item<'a>>,
    }
    let conversations = convs
        .iter()
        .map(|c| Item {
            result: Result_ {
                analysis: c.analysis,
                recording: c.recording,
                summary: crate::summary::summarise(c.analysis),
            },
            utterances: c.transcript.filter(|t| t.has_text()).map(utterances_data),
        })
        .collect();
    let payload = Payload { kind: "conversation", schema_version: 1, conversations };
    let payload = serde_json::to_string(&payload)
        .map_err(|e| Error::invalid(format!("serialising the report: {e}")))?;
    let payload = script_json(&payload);
    let (audio, media) = audio_html(opts.audio.as_ref())?;
    let ids: Vec<&str> = convs.iter().map(|c| c.recording).collect();
    let title = title(opts, &ids);
    let mut b = String::new();
    let _ = write!(b, "<header class=\"top\"><h1>{}</h1>", escape(&title));
    if !opts.sources.is_empty() {
        let _ = write!(b, "<p>Input: {}</p>", escape(&opts.sources.join(", ")));
    }
    for line in &opts.detection {
        let _ = write!(b, "<p>Detected: {}</p>", escape(line));
    }
    b.push_str("<p>Everything here is computed by <code>overtalk analyze</code>; the numbers are those of its JSON output, embedded in this file. The file is self-contained and makes no network request.</p>");
    b.push_str(&audio);
    toc(&mut b, "Conversations", "conv", &ids);
    b.push_str("</header>\n<main id=\"main\">");
    if convs.is_empty() {
        b.push_str("<p>No recordings.</p>");
    }
    for (k, c) in convs.iter().enumerate() {
        conversation_section(&mut b, k, c, opts)?;
    }
    b.push_str("</main>");
    Ok(page(&title, media, &b, &payload))
}

/// The page's title: the one asked for, else the first three recordings' ids.
pub(super) fn title(opts: &ReportOptions, ids: &[&str]) -> String {
    opts.title.clone().unwrap_or_else(|| {
        let more = if ids.len() > 3 { " …" } else { "" };
        format!("overtalk report: {}{more}", ids[..ids.len().min(3)].join(", "))
    })
}

/// The list of links to each recording's section (`#{anchor}-{k}`), when there are several.
pub(super) fn toc(b: &mut String, label: &str, anchor: &str, ids: &[&str]) {
    if ids.len() < 2 {
        return;
    }
    let _ = write!(b, "<nav class=\"toc\" aria-label=\"{label}\"><ul>");
    for (k, id) in ids.iter().enumerate() {
        let _ = write!(b, "<li><a href=\"#{anchor}-{k}\">{}</a></li>", escape(id));
    }
    b.push_str("</ul></nav>");
}

/// One utterance as the report's script reads it: speaker, start and end (ms), text, and words
/// as `[text, start, end]`.
#[derive(serde::Serialize)]
struct UtteranceData<'a> {
    s: &'a str,
    a: f64,
    b: f64,
    text: String,
    w: Vec<(&'a str, Option<f64>, Option<f64>)>,
}

/// The utterances of `t` in order of start.
fn utterances_data(t: &Transcript) -> Vec<UtteranceData<'_>> {
    let mut us: Vec<UtteranceData<'_>> = t
        .utterances()
        .map(|u| {
            let content = u.content;
            let words = content
                .map(|c| {
                    c.words
                        .iter()
                        .map(|w| {
                            (
                                w.text.as_str(),
                                w.start.map(|x| ms(x.micros())),
                                w.end.map(|x| ms(x.micros())),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            let text = content.and_then(|c| c.text.clone()).unwrap_or_else(|| {
                content
                    .map(|c| c.words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" "))
                    .unwrap_or_default()
            });
            UtteranceData {
                s: u.speaker_name,
                a: ms(u.segment.start().micros()),
                b: ms(u.segment.end().micros()),
                text,
                w: words,
            }
        })
        .collect();
    us.sort_by(|x, y| x.a.total_cmp(&y.a));
    us
}

fn conversation_section(
    b: &mut String,
    k: usize,
    c: &ConversationView<'_>,
    opts: &ReportOptions,
) -> Result<()> {
    let r = c.analysis;
    let cv = &r.conversation;
    let names: Vec<&String> = r.speakers.keys().collect();
    let colour = |name: &str| names.iter().position(|n| n.as_str() == name).unwrap_or(0) % 8;
    let _ = write!(
        b,
        "<section class=\"conv\" id=\"conv-{k}\" data-recording=\"{}\"><h2>{}</h2>",
        escape(c.recording),
        escape(c.recording)
    );
    // The plain-language summary first: each sentence with the JSON paths of its numbers.
    b.push_str("<div class=\"summary\">");
    for sentence in crate::summary::summarise(r) {
        let paths: Vec<&str> = sentence.numbers.iter().map(|n| n.path.as_str()).collect();
        let _ = write!(
            b,
            "<p data-key=\"{}\" data-paths=\"{}\">{}</p>",
            escape(&sentence.key),
            escape(&paths.join(" ")),
            escape(&sentence.text)
        );
    }
    b.push_str("</div>");
    let n = &cv.counts.events;
    // Ends estimated (paragraph transcripts): the times say nothing of who talked over whom,
    // so the counts that rest on overlap are not measurable, not zero.
    let unmeasured = r.estimated_times.is_some();
    let why = r.overlap_unmeasurable().unwrap_or("not measured");
    let onsets = match (n.interruptions, n.successful, n.terminal_overlaps) {
        (Some(attempts), Some(successful), terminal) => format!(
            "<span data-field=\"interruptions\" data-v=\"{attempts}\">{attempts}</span> {} (<span data-field=\"successful\" data-v=\"{successful}\">{successful}</span> successful) · {}",
            if attempts == 1 { "interruption" } else { "interruptions" },
            terminal.map_or_else(
                || format!("terminal overlaps not measurable ({why})"),
                |t| counted(t, "terminal overlap", "terminal overlaps")
            ),
        ),
        _ => format!("interruptions and terminal overlaps not measurable ({why})"),
    };
    let claims = if unmeasured {
        "floor claims in words not measurable (ends estimated)".to_owned()
    } else {
        counted(n.verbal_claims, "floor claim in words", "floor claims in words")
    };
    let _ = write!(
        b,
        "<p class=\"headline\">{} · span {} s · speech {} s · {} · {} · {} · {} · {} · {}</p>",
        counted(r.speakers.len(), "speaker", "speakers"),
        secs(cv.span.get()),
        secs(cv.speech.get()),
        match (cv.overlap, r.overlap_unmeasurable()) {
            (Some(o), None) => {
                format!("overlap {} s ({} of speech)", secs(o.get()), pct(cv.overlap_ratio))
            }
            (_, why) => format!("overlap not measurable ({})", why.unwrap_or("not measured")),
        },
        counted(n.turns, "turn", "turns"),
        counted(n.transfers, "floor transfer", "floor transfers"),
        onsets,
        counted(n.backchannels, "backchannel", "backchannels"),
        claims,
    );
    // The timeline, filled in by the script.
    let _ = write!(
        b,
        "<h3>Conversation</h3><div class=\"timeline\" data-index=\"{k}\" data-speakers=\"{}\"></div>",
        names.len()
    );
    b.push_str("<ul class=\"legend\" aria-label=\"Legend\"><li><span class=\"k speech\"></span>speech (one lane per speaker)</li><li><span class=\"k overlap\"></span>overlap</li><li><span class=\"k bc\"></span>backchannel</li><li><span class=\"k solid\"></span>successful interruption (interrupter → interruptee)</li><li><span class=\"k dashed\"></span>unsuccessful interruption</li><li><span class=\"k floor\"></span>floor holder</li><li><span class=\"k claim\"></span>floor claim in words</li><li>▼ other onsets (terminal overlap, simultaneous start, …)</li></ul>");
    b.push_str("<p class=\"note\">Wheel or +/− to zoom, drag or ←/→ to pan, n/p to step through events; point at, tap or focus an event for its details.</p>");
    b.push_str("<div class=\"details\" role=\"status\" aria-live=\"polite\"><p class=\"note\">Select an event to see its class, times, the words around it and the rule that classified it.</p></div>");

    // Talk and floor.
    b.push_str("<h3>Talk and floor share</h3><table class=\"speakers\"><thead><tr><th scope=\"col\">speaker</th><th scope=\"col\">mode</th><th scope=\"col\">talk s</th><th scope=\"col\">talk share</th><th scope=\"col\">floor s</th><th scope=\"col\">floor share</th><th scope=\"col\">turns</th><th scope=\"col\">backchannels</th><th scope=\"col\">interruptions made (successful)</th><th scope=\"col\">received (successful)</th></tr></thead><tbody>");
    for (name, s) in &r.speakers {
        let mode = match r.mode.get(name) {
            Some(Mode::Text) => "text",
            _ => "timing",
        };
        let sp = escape(name);
        let _ = write!(
            b,
            "<tr data-speaker=\"{sp}\"><th scope=\"row\" class=\"c{}\">{sp}</th><td class=\"l\">{mode}</td>\
<td data-field=\"talk\" data-v=\"{}\">{}</td><td data-field=\"talk_share\" data-v=\"{}\">{}</td>\
<td data-field=\"floor\" data-v=\"{}\">{}</td><td data-field=\"floor_share\" data-v=\"{}\">{}</td>\
<td data-field=\"turns\" data-v=\"{}\">{}</td><td data-field=\"backchannels\" data-v=\"{}\">{}</td>\
{}</tr>",
            colour(name),
            s.talk,
            secs(s.talk.get()),
            jv(&s.talk_share),
            pct(s.talk_share),
            s.floor,
            secs(s.floor.get()),
            jv(&s.floor_share),
            pct(s.floor_share),
            s.turns,
            s.turns,
            s.backchannels,
            s.backchannels,
            match (s.interruptions_made, s.interruptions_received) {
                (Some(made), Some(received)) => format!(
                    "<td data-field=\"interruptions_made\" data-v=\"{0}\" data-successful=\"{1}\">{0} ({1})</td>\
<td data-field=\"interruptions_received\" data-v=\"{2}\" data-successful=\"{3}\">{2} ({3})</td>",
                    made.attempts, made.successful, received.attempts, received.successful,
                ),
                _ => "<td class=\"l\">not measurable</td><td class=\"l\">not measurable</td>"
                    .to_owned(),
            },
        );
    }
    b.push_str("</tbody></table>");

    // Who interrupts whom (not measurable when the ends were estimated).
    if unmeasured {
        b.push_str("<div class=\"grid2\"><div><h3>Who interrupts whom</h3><p class=\"note\">Not measurable: the transcript gives start times only and the ends were estimated, so nothing in it says who talked over whom.</p></div><div>");
    } else if names.len() > crate::output::MAX_MATRIX_SPEAKERS {
        // Too many speakers for a matrix: the pairs with any attempt, most attempts first.
        let _ = write!(b, "<div class=\"grid2\"><div><h3>Who interrupts whom</h3><p class=\"note\">{} speakers: each pair with an attempt or a talk-over event, most attempts first: attempts, successful, and attempts per minute of the holder's floor time.</p><table class=\"pairs\"><thead><tr><th scope=\"col\">interrupter</th><th scope=\"col\">holder</th><th scope=\"col\">attempts / successful</th></tr></thead><tbody>", names.len());
        let pairs = crate::output::listed_pairs(r);
        for p in pairs {
            let rate = p.rate_per_min_of_interruptee_floor;
            let _ = write!(
                b,
                "<tr><th scope=\"row\" class=\"c{}\">{}</th><td class=\"c{}\">{}</td><td>{} / {}<span class=\"sub\">{}</span></td></tr>",
                colour(&p.interrupter),
                escape(&p.interrupter),
                colour(&p.interruptee),
                escape(&p.interruptee),
                p.attempts,
                p.successful,
                rate.map_or_else(|| "–".to_owned(), |v| format!("{v:.2}/min")),
            );
        }
        b.push_str("</tbody></table></div><div>");
    } else {
        let by_pair: std::collections::HashMap<(&str, &str), _> =
            r.pairs.iter().map(|p| ((&*p.interrupter, &*p.interruptee), p)).collect();
        b.push_str("<div class=\"grid2\"><div><h3>Who interrupts whom</h3><p class=\"note\">Row interrupts column (the floor holder): attempts, successful, and attempts per minute of the column's floor time.</p><table class=\"matrix\"><thead><tr><th scope=\"col\">interrupter \\ holder</th>");
        for f in &names {
            let _ = write!(b, "<th scope=\"col\" class=\"c{}\">{}</th>", colour(f), escape(f));
        }
        b.push_str("</tr></thead><tbody>");
        for x in &names {
            let _ = write!(b, "<tr><th scope=\"row\" class=\"c{}\">{}</th>", colour(x), escape(x));
            for f in &names {
                if x == f {
                    b.push_str("<td class=\"self\">–</td>");
                    continue;
                }
                // A pair the result does not list has no attempt: its rate is 0 per minute of
                // the holder's floor, undefined (`–`, null) only when the holder never held the
                // floor (§5.5.10), as for a listed pair; the cell and its `data-rate` agree.
                let (att, suc, rate) = by_pair.get(&(x.as_str(), f.as_str())).map_or_else(
                    || {
                        let floor = r.speakers.get(f.as_str()).map_or(0, |s| s.floor.get());
                        (0, 0, (floor > 0).then_some(0.0))
                    },
                    |p| (p.attempts, p.successful, p.rate_per_min_of_interruptee_floor),
                );
                let _ = write!(
                    b,
                    "<td class=\"cell\" data-interrupter=\"{}\" data-interruptee=\"{}\" data-attempts=\"{att}\" data-successful=\"{suc}\" data-rate=\"{}\">{att} / {suc}<span class=\"sub\">{}</span></td>",
                    escape(x),
                    escape(f),
                    jv(&rate),
                    rate.map_or_else(|| "–".to_owned(), |v| format!("{v:.2}/min")),
                );
            }
            b.push_str("</tr>");
        }
        b.push_str("</tbody></table></div><div>");
    }

    // FTO histogram.
    fto_histogram(b, r);
    // Longest monologues.
    let mut turns: Vec<(usize, &crate::analysis::result::TurnOut)> =
        r.turns.iter().enumerate().collect();
    turns.sort_by(|a, b| (b.1.end - b.1.start).cmp(&(a.1.end - a.1.start)).then(a.0.cmp(&b.0)));
    let _ = write!(
        b,
        "<h3>Longest turns</h3><p class=\"note\">Turns of at least monologue_min ({} ms) count as monologues.</p><table class=\"monologues\"><thead><tr><th scope=\"col\">#</th><th scope=\"col\">speaker</th><th scope=\"col\">start</th><th scope=\"col\">end</th><th scope=\"col\">length s</th><th scope=\"col\">words</th></tr></thead><tbody>",
        r.params.monologue_min
    );
    for (rank, (_, t)) in turns.iter().take(10).enumerate() {
        let _ = write!(
            b,
            "<tr><td>{}</td><th scope=\"row\" class=\"c{}\">{}</th><td><button type=\"button\" class=\"seek\" data-conv=\"{k}\" data-t=\"{}\">{}</button></td><td>{}</td><td data-v=\"{}\">{}</td><td>{}</td></tr>",
            rank + 1,
            colour(&t.speaker),
            escape(&t.speaker),
            t.start,
            clock(t.start.get()),
            clock(t.end.get()),
            t.end - t.start,
            secs((t.end - t.start).get()),
            t.n_tokens
        );
    }
    b.push_str("</tbody></table></div></div>");

    // Transcript.
    if let Some(t) = c.transcript.filter(|t| t.has_text()) {
        transcript_html(b, k, r, t, &colour);
    }

    // Parameters and mode.
    let _ = write!(
        b,
        "<h3>Parameters</h3><p class=\"note\">Preset: {}. Backchannels and interruptions decided by: {}. Mode per speaker: {}.</p><dl class=\"params\">",
        escape(opts.preset.as_deref().unwrap_or("default")),
        match r.params.classifier {
            crate::analysis::Classifier::Rules => "the structural rules (§5.4)",
            crate::analysis::Classifier::Calibrated => "the calibrated classifier (§5.8)",
            crate::analysis::Classifier::Joint => {
                "the calibrated classifier with the three-way talkspurt decision (§5.8)"
            }
        },
        escape(
            &r.mode
                .iter()
                .map(|(s, m)| format!("{s} {}", if *m == Mode::Text { "text" } else { "timing" }))
                .collect::<Vec<_>>()
                .join(", ")
        )
    );
    if let Value::Object(params) = ser(&r.params)? {
        for (key, v) in params {
            let shown = match &v {
                Value::Array(a) => {
                    a.iter().map(|x| x.as_str().unwrap_or("")).collect::<Vec<_>>().join(", ")
                }
                other => other.to_string(),
            };
            let _ = write!(
                b,
                "<div><dt>{}</dt><dd data-param=\"{}\">{}</dd></div>",
                escape(&key),
                escape(&key),
                escape(&shown)
            );
        }
    }
    b.push_str("</dl>");
    if !r.diagnostics.warnings.is_empty() {
        b.push_str("<h3>Warnings</h3><ul>");
        for w in &r.diagnostics.warnings {
            let _ = write!(b, "<li>{}</li>", escape(&w.to_string()));
        }
        b.push_str("</ul>");
    }
    b.push_str("</section>\n");
    Ok(())
}

/// Bins of the floor-transfer offsets: 250 ms wide from −2 s to +2 s, plus one bin on each
/// side for everything beyond.
fn fto_histogram(b: &mut String, r: &Analysis) {
    const W: i64 = 250;
    const LO: i64 = -2000;
    const N: usize = 16;
    let mut bins = [0usize; N + 2];
    let mut total = 0usize;
    for t in &r.transfers {
        let Some(f) = t.fto.map(Millis::get) else { continue };
        total += 1;
        let i = if f < LO {
            0
        } else if f >= LO + W * N as i64 {
            N + 1
        } else {
            1 + ((f - LO) / W) as usize
        };
        bins[i] += 1;
    }
    let max = bins.iter().copied().max().unwrap_or(0).max(1);
    let (bw, h, left, top) = (22usize, 110usize, 30usize, 10usize);
    let width = left + bw * (N + 2) + 10;
    let _ = write!(
        b,
        "<h3>Floor-transfer offsets</h3><p class=\"note\">Gaps positive, overlaps negative; {total} transfers with an offset, 250 ms bins, outer bins beyond ±2 s.</p><svg class=\"hist\" role=\"img\" aria-label=\"Histogram of {total} floor-transfer offsets\" width=\"{width}\" height=\"{}\" viewBox=\"0 0 {width} {}\" data-total=\"{total}\">",
        h + top + 34,
        h + top + 34
    );
    for (i, &count) in bins.iter().enumerate() {
        let bh = count * h / max;
        let x = left + i * bw;
        let (lo, hi) = match i {
            0 => ("−∞".to_owned(), format!("{LO}")),
            i if i == N + 1 => (format!("{}", LO + W * N as i64), "+∞".to_owned()),
            i => (format!("{}", LO + W * (i as i64 - 1)), format!("{}", LO + W * i as i64)),
        };
        let neg = i == 0 || ((1..=N).contains(&i) && LO + W * (i as i64) <= 0);
        let _ = write!(
            b,
            "<rect class=\"bar{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{bh}\" data-count=\"{count}\"><title>[{lo}, {hi}) ms: {count}</title></rect>",
            if neg { " neg" } else { "" },
            x + 1,
            top + h - bh,
            bw - 2
        );
    }
    let axis_y = top + h;
    let _ = write!(
        b,
        "<line x1=\"{left}\" y1=\"{axis_y}\" x2=\"{}\" y2=\"{axis_y}\" stroke=\"#333\"/>",
        left + bw * (N + 2)
    );
    for (label, i) in [("−2 s", 1usize), ("−1 s", 5), ("0", 9), ("+1 s", 13), ("+2 s", 17)] {
        let x = left + i * bw;
        let _ = write!(
            b,
            "<line x1=\"{x}\" y1=\"{axis_y}\" x2=\"{x}\" y2=\"{}\" stroke=\"#333\"/><text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{label}</text>",
            axis_y + 4,
            axis_y + 16
        );
    }
    let _ = write!(
        b,
        "<text x=\"{left}\" y=\"{}\">overlap ← offset → gap</text><text x=\"2\" y=\"{}\">{max}</text></svg>",
        axis_y + 30,
        top + 8
    );
}

fn transcript_html(
    b: &mut String,
    k: usize,
    r: &Analysis,
    t: &Transcript,
    colour: &dyn Fn(&str) -> usize,
) {
    let mut utts: Vec<(i64, i64, &str, String)> = t
        .utterances()
        .map(|u| {
            let text = u
                .content
                .map(|c| {
                    c.text.clone().unwrap_or_else(|| {
                        c.words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ")
                    })
                })
                .unwrap_or_default();
            (
                crate::analysis::normalise::to_ms(u.segment.start().micros()).get(),
                crate::analysis::normalise::to_ms(u.segment.end().micros()).get(),
                u.speaker_name,
                text,
            )
        })
        .collect();
    utts.sort_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
    // Events inline: onsets worth a look and verbal floor claims, placed before the utterance
    // of their speaker that contains (or first follows) their time.
    let mut inline: Vec<Vec<(String, &'static str, String)>> = vec![Vec::new(); utts.len()];
    // Per speaker, the indices of their utterances in time order (utterances are sorted).
    let mut by_speaker: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, u) in utts.iter().enumerate() {
        by_speaker.entry(u.2).or_default().push(i);
    }
    let place = |speaker: &str, time: i64| -> Option<usize> {
        let list = by_speaker.get(speaker)?;
        // The last utterance starting at or before `time`, if it is still running; else the
        // first one starting after it.
        let k = list.partition_point(|&i| utts[i].0 <= time);
        if k > 0 && time < utts[list[k - 1]].1 {
            return Some(list[k - 1]);
        }
        list.get(k).copied()
    };
    for (i, o) in r.onsets.iter().enumerate() {
        if matches!(o.class, OnsetClass::Opening | OnsetClass::SmoothSwitch) {
            continue;
        }
        if let Some(u) = place(&o.speaker, o.time.get()) {
            let attempt =
                matches!(o.class, OnsetClass::Interruption | OnsetClass::SilentInterruption);
            let label = format!(
                "{}{}",
                o.class.name().replace('_', " "),
                if attempt {
                    if o.outcome == Outcome::FloorTaken {
                        " (successful)"
                    } else {
                        " (unsuccessful)"
                    }
                } else {
                    ""
                }
            );
            inline[u].push((format!("o{i}"), o.class.name(), label));
        }
    }
    for (i, v) in r.verbal_claims.iter().enumerate() {
        if let Some(u) = place(&v.speaker, v.start.get()) {
            inline[u].push((format!("v{i}"), "claim", format!("floor claim: “{}”", v.phrase)));
        }
    }
    b.push_str(
        "<h3>Transcript</h3><div class=\"transcript\" tabindex=\"0\" aria-label=\"Transcript\">",
    );
    for (i, (start, _end, speaker, text)) in utts.iter().enumerate() {
        let _ = write!(
            b,
            "<p class=\"utt\"><button type=\"button\" class=\"seek\" data-conv=\"{k}\" data-t=\"{start}\" aria-label=\"Go to {}\">{}</button><span class=\"spk c{}\">{}</span>",
            clock(*start),
            clock(*start),
            colour(speaker),
            escape(speaker)
        );
        for (key, cls, label) in &inline[i] {
            let _ = write!(
                b,
                "<button type=\"button\" class=\"ev-link {cls}\" data-conv=\"{k}\" data-ev=\"{key}\">{}</button>",
                escape(label)
            );
        }
        let _ = write!(b, "<span class=\"text\">{}</span></p>", escape(text));
    }
    b.push_str("</div>");
}

/// The self-contained HTML report of a scoring run: per recording, lanes for the reference, the
/// hypothesis (with the speaker each maps to) and the error timeline; per-file and total tables.
///
/// The embedded JSON holds `report` (the [`ScoreReport`] as serialised) and, per recording,
/// the lanes (`files`, times in milliseconds).
pub fn score_report(view: &ScoreView<'_>, opts: &ReportOptions) -> Result<String> {
    let report = view.report;
    let o = &report.options;
    let mut files = Vec::new();
    for (id, m) in view.mapped {
        let (p, mapping) = (&m.prepared, &m.mapping);
        let lanes = |tokens: &[(crate::model::Segment, u32)], names: &[String]| {
            let mut per: Vec<Vec<Value>> = vec![Vec::new(); names.len()];
            for (seg, k) in tokens {
                if let Some(v) = per.get_mut(*k as usize) {
                    v.push(json!([ms(seg.start().micros()), ms(seg.end().micros())]));
                }
            }
            per
        };
        let reference: Vec<Value> = lanes(&p.reference, &p.reference_names)
            .into_iter()
            .zip(&p.reference_names)
            .map(|(segs, name)| json!({"speaker": name, "segments": segs}))
            .collect();
        let hypothesis: Vec<Value> = lanes(&p.hypothesis, &p.hypothesis_names)
            .into_iter()
            .enumerate()
            .map(|(h, segs)| {
                let mapped = mapping
                    .iter()
                    .position(|m| *m == Some(h))
                    .and_then(|r| p.reference_names.get(r).cloned());
                json!({"speaker": p.hypothesis_names.get(h), "mapped": mapped, "segments": segs})
            })
            .collect();
        let errors: Vec<Value> = m
            .error_timeline(o)
            .into_iter()
            .map(|e| {
                json!({
                    "start": ms(e.segment.start().micros()),
                    "end": ms(e.segment.end().micros()),
                    "kind": e.kind,
                    "reference": e.reference,
                    "hypothesis": e.hypothesis,
                })
            })
            .collect();
        files.push((
            id.clone(),
            json!({"recording": id, "reference": reference, "hypothesis": hypothesis, "errors": errors}),
        ));
    }
    let payload = json!({
        "kind": "score",
        "schema_version": 1,
        "report": ser(report)?,
        "files": files.iter().map(|f| f.1.clone()).collect::<Vec<_>>(),
    });
    let payload = script_json(&payload.to_string());
    let title = opts.title.clone().unwrap_or_else(|| "overtalk score report".to_owned());
    let mut b = String::new();
    let _ = write!(b, "<header class=\"top\"><h1>{}</h1>", escape(&title));
    if !opts.sources.is_empty() {
        let _ = write!(b, "<p>Input: {}</p>", escape(&opts.sources.join(", ")));
    }
    for line in &opts.detection {
        let _ = write!(b, "<p>Detected: {}</p>", escape(line));
    }
    let conventions: Vec<String> =
        o.describe().into_iter().map(|(k, v)| format!("{k}: {v}")).collect();
    let _ = write!(
        b,
        "<p>Computed by <code>overtalk score</code>. Collar {:.3} s per side ({:.3} s total width). Conventions: {}.</p></header><main id=\"main\">",
        o.collar.as_secs_f64(),
        o.collar_total_width().as_secs_f64(),
        escape(&conventions.join("; "))
    );
    // Tables.
    b.push_str("<h2>Per recording and total</h2><table class=\"score\"><thead><tr><th scope=\"col\">recording</th><th scope=\"col\">status</th><th scope=\"col\">scored s</th><th scope=\"col\">correct s</th><th scope=\"col\">miss s</th><th scope=\"col\">false alarm s</th><th scope=\"col\">confusion s</th><th scope=\"col\">DER</th><th scope=\"col\">JER</th><th scope=\"col\">mapping</th></tr></thead><tbody>");
    let cell = |field: &str, v: f64| {
        format!("<td data-field=\"{field}\" data-v=\"{}\">{v:.3}</td>", jv(&v))
    };
    let rate = |field: &str, v: Option<f64>| {
        format!(
            "<td data-field=\"{field}\" data-v=\"{}\">{}</td>",
            jv(&v),
            v.map_or_else(
                || "n/a".to_owned(),
                |x| format!("{} %", crate::output::number::percent(x, 2))
            )
        )
    };
    for f in &report.files {
        let status = match f.status {
            FileStatus::Scored => "scored",
            FileStatus::MissingHypothesis => "no hypothesis",
            FileStatus::MissingReference => "no reference",
            FileStatus::Skipped => "skipped",
        };
        let d = &f.der;
        let _ = write!(
            b,
            "<tr data-recording=\"{}\"><th scope=\"row\">{}</th><td class=\"l\">{status}</td>{}{}{}{}{}{}{}<td class=\"l\">{}</td></tr>",
            escape(&f.id),
            escape(&f.id),
            cell("scored_s", d.scored.as_secs_f64()),
            cell("correct_s", d.correct.as_secs_f64()),
            cell("miss_s", d.miss.as_secs_f64()),
            cell("false_alarm_s", d.false_alarm.as_secs_f64()),
            cell("confusion_s", d.confusion.as_secs_f64()),
            rate("der", f.der_value(o)),
            rate("jer", f.jer.as_ref().and_then(|j| j.value)),
            escape(
                &f.mapping.iter().map(|(r, h)| format!("{r} = {h}")).collect::<Vec<_>>().join(", ")
            ),
        );
    }
    let t = &report.total;
    let _ = write!(
        b,
        "<tr class=\"total\" data-recording=\"\"><th scope=\"row\">TOTAL</th><td class=\"l\">{} recordings</td>{}{}{}{}{}{}{}<td class=\"l\">macro DER {}</td></tr></tbody></table>",
        report.files.len(),
        cell("scored_s", t.scored.as_secs_f64()),
        cell("correct_s", t.correct.as_secs_f64()),
        cell("miss_s", t.miss.as_secs_f64()),
        cell("false_alarm_s", t.false_alarm.as_secs_f64()),
        cell("confusion_s", t.confusion.as_secs_f64()),
        rate("der", report.der()),
        rate("jer", report.jer),
        report.macro_der().map_or_else(|| "n/a".to_owned(), |x| format!("{} %", crate::output::number::percent(x, 2))),
    );
    for (k, (id, _)) in files.iter().enumerate() {
        let _ = write!(
            b,
            "<section class=\"file\" id=\"file-{k}\" data-recording=\"{}\"><h2>{}</h2><div class=\"timeline\" data-index=\"{k}\"></div>\
<ul class=\"legend\" aria-label=\"Legend\"><li>ref: reference speakers; hyp: hypothesis speakers (→ the reference speaker each maps to, same colour)</li><li><span class=\"k miss\"></span>miss</li><li><span class=\"k fa\"></span>false alarm</li><li><span class=\"k conf\"></span>confusion</li><li><span class=\"k correct\"></span>correct</li></ul>\
<div class=\"details\" role=\"status\" aria-live=\"polite\"><p class=\"note\">Point at or tap a piece of the error lane for its kind, times and speakers.</p></div></section>",
            escape(id),
            escape(id)
        );
    }
    b.push_str("</main>");
    Ok(page(&title, None, &b, &payload))
}

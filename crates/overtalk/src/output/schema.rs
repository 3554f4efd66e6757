//! The JSON Schema (draft 2020-12) of the [`super::json`] output.
//!
//! The output is `{schema_version, conversations: [...], corpus: {...}}`, for one conversation
//! as for many (since schema version 2); each conversation is an object with `recording`,
//! `schema_version` and the §5.7 fields. [`super::jsonl`] writes one conversation object per
//! line (`#/$defs/conversation`). Written by hand from the result types (field names of
//! conversation-metrics.md §5.7); a test checks real output against it, so the two cannot
//! drift apart silently.

use crate::analysis::intervals::HeKind;
use serde_json::{json, Map, Value};

use crate::analysis::{Params, SCHEMA_VERSION};

fn t(ty: &str) -> Value {
    json!({ "type": ty })
}

fn nullable(ty: &str) -> Value {
    json!({ "type": [ty, "null"] })
}

fn en(values: &[&str]) -> Value {
    json!({ "enum": values })
}

fn en_null(values: &[&str]) -> Value {
    let mut v: Vec<Value> = values.iter().map(|s| json!(s)).collect();
    v.push(Value::Null);
    json!({ "enum": v })
}

fn arr(items: Value) -> Value {
    json!({ "type": "array", "items": items })
}

fn map_of(values: Value) -> Value {
    json!({ "type": "object", "additionalProperties": values })
}

fn obj(props: Vec<(&str, Value)>) -> Value {
    let required: Vec<&str> = props.iter().map(|(k, _)| *k).collect();
    let mut p = Map::new();
    for (k, v) in props {
        p.insert(k.to_owned(), v);
    }
    json!({ "type": "object", "properties": p, "required": required, "additionalProperties": false })
}

const KINDS: &[&str] = &[
    "pause",
    "gap",
    "overlap_within",
    "overlap_between",
    "ngno",
    "unbounded_silence",
    "unbounded_overlap",
];
const CLASSES: &[&str] = &[
    "opening",
    "smooth_switch",
    "silent_interruption",
    "pause_competition",
    "simultaneous_start",
    "terminal_overlap",
    "interruption",
];
const LAYERS: &[&str] = &["acoustic", "floor"];

/// The value of each H&E kind: `value`, or for the overlap kinds and NGNO `value` or `null`
/// (overlap not measurable from the input).
fn per_kind(value: &Value) -> Value {
    let kinds = obj(KINDS
        .iter()
        .map(|k| {
            let overlap = HeKind::ALL.iter().any(|h| h.name() == *k && h.is_overlap_dependent());
            let v = if overlap {
                json!({ "anyOf": [value, { "type": "null" }] })
            } else {
                value.clone()
            };
            (*k, v)
        })
        .collect());
    obj(LAYERS.iter().map(|l| (*l, kinds.clone())).collect())
}

fn he_counts() -> Value {
    per_kind(&t("integer"))
}

fn params() -> Value {
    let defaults = serde_json::to_value(Params::default()).unwrap_or(Value::Null);
    let mut props = Vec::new();
    if let Value::Object(m) = &defaults {
        for (k, v) in m {
            let ty = match v {
                Value::Bool(_) => t("boolean"),
                Value::Number(n) if n.is_i64() || n.is_u64() => t("integer"),
                Value::Number(_) => t("number"),
                Value::Array(_) => arr(t("string")),
                // `decision_horizon`: ms, or null for unbounded.
                Value::Null => nullable("integer"),
                _ => t("string"),
            };
            props.push((k.as_str(), ty));
        }
    }
    let mut v = obj(props);
    if let Some(o) = v.as_object_mut() {
        o.insert(
            "description".into(),
            json!("The parameters used (conversation-metrics.md §5.2); durations in ms."),
        );
    }
    v
}

/// Interruptions made or received; `null` when the ends were estimated (not measurable).
fn counts() -> Value {
    let mut v = obj(vec![("attempts", t("integer")), ("successful", t("integer"))]);
    v["type"] = json!(["object", "null"]);
    v
}

/// The §5.7 fields of one conversation plus `recording`, and `detection` (optional: present
/// only when the conversation was detected from a recording).
fn conversation() -> Value {
    let ms = || t("integer");
    let mut v = obj(vec![
        ("recording", t("string")),
        ("schema_version", json!({ "const": SCHEMA_VERSION })),
        ("params", params()),
        ("mode", map_of(en(&["text", "timing"]))),
        (
            "diagnostics",
            obj(vec![
                ("dropped_segments", t("integer")),
                ("same_speaker_overlaps", t("integer")),
                ("talk_time_unbridged", map_of(ms())),
                ("clamped_words", t("integer")),
                ("warnings", arr(t("string"))),
            ]),
        ),
        (
            "talkspurts",
            arr(obj(vec![
                ("speaker", t("string")),
                ("start", ms()),
                ("end", ms()),
                ("n_tokens", t("integer")),
                ("is_backchannel", t("boolean")),
                ("p_backchannel", nullable("number")),
            ])),
        ),
        ("joint", arr(obj(vec![("start", ms()), ("end", ms()), ("active", arr(t("string")))]))),
        (
            "he",
            arr(obj(vec![
                ("layer", en(LAYERS)),
                ("kind", en(KINDS)),
                ("start", ms()),
                ("end", ms()),
                ("prev", nullable("string")),
                ("next", nullable("string")),
            ])),
        ),
        (
            "transfers",
            arr(obj(vec![
                ("time", ms()),
                ("from", t("string")),
                ("to", t("string")),
                ("fto", nullable("integer")),
            ])),
        ),
        (
            "turns",
            arr(obj(vec![
                ("speaker", t("string")),
                ("start", ms()),
                ("end", ms()),
                ("claim", ms()),
                ("n_talkspurts", t("integer")),
                ("n_tokens", t("integer")),
            ])),
        ),
        (
            "onsets",
            arr(obj(vec![
                ("speaker", t("string")),
                ("time", ms()),
                ("holder", nullable("string")),
                ("class", en(CLASSES)),
                ("outcome", en(&["floor_taken", "floor_kept", "floor_to_third"])),
                ("ferguson", en_null(&["smooth", "silent", "overlap", "simple", "butting_in"])),
                ("partner", nullable("string")),
                ("dist_to_completion", nullable("integer")),
                ("holder_remaining", nullable("integer")),
                ("p_interruption", nullable("number")),
                ("p_failed_attempt", nullable("number")),
            ])),
        ),
        (
            "speakers",
            map_of(obj(vec![
                ("talk", ms()),
                ("talk_share", nullable("number")),
                ("solo", nullable("integer")),
                ("floor", ms()),
                ("floor_share", nullable("number")),
                ("turns", t("integer")),
                ("longest_turn", nullable("integer")),
                ("wpm", nullable("number")),
                ("backchannels", t("integer")),
                ("interruptions_made", counts()),
                ("interruptions_received", counts()),
                ("median_fto_in", nullable("number")),
                ("words", t("integer")),
                ("monologues", t("integer")),
                ("non_floor_contributions", t("integer")),
                ("longest_unbroken", nullable("integer")),
                ("fto_in_iqr", nullable("number")),
                ("fto_in_negative_share", nullable("number")),
                ("fto_in_long_share", nullable("number")),
                ("question_fto_median", nullable("number")),
                ("bc_rate_per_min_of_others_floor", nullable("number")),
                ("bc_in_overlap_share", nullable("number")),
            ])),
        ),
        (
            "pairs",
            arr(obj(vec![
                ("interrupter", t("string")),
                ("interruptee", t("string")),
                ("attempts", t("integer")),
                ("successful", t("integer")),
                ("talk_over_events", nullable("integer")),
                ("rate_per_min_of_interruptee_floor", nullable("number")),
            ])),
        ),
        (
            "conversation",
            obj(vec![
                ("span", ms()),
                ("speech", ms()),
                ("silence", ms()),
                ("overlap", nullable("integer")),
                ("overlap_ratio", nullable("number")),
                ("transfers_per_min", nullable("number")),
                ("he_counts", he_counts()),
                ("long_silences", t("integer")),
                ("start", nullable("integer")),
                (
                    "counts",
                    obj([("speakers", t("integer")), ("talkspurts", t("integer"))]
                        .into_iter()
                        .chain(event_counts())
                        .collect()),
                ),
                ("overlap_between_share", nullable("number")),
                ("ngno_share", nullable("number")),
                (
                    "balance",
                    obj(vec![
                        ("max_share", nullable("number")),
                        ("entropy", nullable("number")),
                        ("gini", nullable("number")),
                        ("primary", nullable("string")),
                        ("balance_type", en_null(&["high_balance", "mid_balance", "low_balance"])),
                        ("windows", arr(json!({ "enum": [-1, 0, 1] }))),
                        (
                            "pattern",
                            en_null(&[
                                "dominating_throughout",
                                "back_and_forth",
                                "alter_dominance",
                                "no_label",
                            ]),
                        ),
                    ]),
                ),
                ("turn_median", nullable("number")),
                ("words_per_turn", nullable("number")),
                ("between_median", nullable("number")),
                ("he_durations", {
                    let stats = obj(vec![
                        ("n", t("integer")),
                        ("total", t("integer")),
                        ("median", nullable("number")),
                        ("iqr", nullable("number")),
                        ("micro", t("integer")),
                        ("long", t("integer")),
                    ]);
                    per_kind(&stats)
                }),
            ]),
        ),
        (
            "verbal_claims",
            arr(obj(vec![
                ("speaker", t("string")),
                ("phrase", t("string")),
                ("start", ms()),
                ("end", ms()),
                ("answers", nullable("integer")),
                ("answers_speaker", nullable("string")),
                ("answers_time", nullable("integer")),
                ("answers_class", en_null(CLASSES)),
            ])),
        ),
    ]);
    if let Some(props) = v.get_mut("properties").and_then(Value::as_object_mut) {
        props.insert("detection".to_owned(), obj(vec![("method", t("string"))]));
        // The plain-language summary (`overtalk::summary`): each sentence with the JSON
        // Pointers, into this conversation object, of the numbers it states.
        let cited = obj(vec![
            ("path", t("string")),
            ("value", t("number")),
            ("unit", en(&["count", "share_percent", "ms_seconds", "ms_minutes"])),
            ("shown", t("string")),
        ]);
        props.insert(
            "summary".to_owned(),
            arr(obj(vec![("key", t("string")), ("text", t("string")), ("numbers", arr(cited))])),
        );
    }
    if let Some(required) = v.get_mut("required").and_then(Value::as_array_mut) {
        required.push(json!("summary"));
    }
    if let Some(props) = v.get_mut("properties").and_then(Value::as_object_mut) {
        // CHAT with time bullets only: the transcriber's markers against the timing.
        let agreement = obj(vec![
            ("both", t("integer")),
            ("marker_only", t("integer")),
            ("timing_only", t("integer")),
            ("neither", t("integer")),
            ("agreement", nullable("number")),
        ]);
        props.insert(
            "chat_markers_vs_timing".to_owned(),
            obj(vec![
                ("utterances", t("integer")),
                ("untimed", t("integer")),
                ("markers", map_of(t("integer"))),
                ("overlap", agreement.clone()),
                ("interruption", agreement.clone()),
                ("interruption_before_end", agreement),
            ]),
        );
        // Paragraph transcripts only (ends estimated): what rests on the estimates.
        props.insert(
            "estimated_times".to_owned(),
            obj(vec![
                ("tracks", t("integer")),
                ("estimated_ends", t("integer")),
                ("words_per_second", t("integer")),
                ("rest_on_estimated_ends", arr(t("string"))),
                ("from_start_times", arr(t("string"))),
                ("overlap", t("string")),
                (
                    "marked_overlaps",
                    arr(obj(vec![
                        ("time", t("integer")),
                        ("time_from", en(&["note", "paragraph start"])),
                        ("speaker", nullable("string")),
                        ("text", t("string")),
                    ])),
                ),
                (
                    "rules",
                    arr(obj(vec![
                        ("rule", en(&["crosstalk", "cut_off", "no_sentence_end", "timing"])),
                        ("description", t("string")),
                        ("count", nullable("integer")),
                        ("by_speaker", map_of(t("integer"))),
                        ("basis", t("string")),
                    ])),
                ),
            ]),
        );
    }
    v
}

/// The counted events of a conversation and of a corpus (`EventCounts`); those that need
/// overlap or timed ends are `null` when the input cannot measure them.
fn event_counts() -> Vec<(&'static str, Value)> {
    vec![
        ("turns", t("integer")),
        ("transfers", t("integer")),
        ("interruptions", nullable("integer")),
        ("successful", nullable("integer")),
        ("unsuccessful", nullable("integer")),
        ("talk_over_events", nullable("integer")),
        ("terminal_overlaps", nullable("integer")),
        ("simultaneous_starts", nullable("integer")),
        ("backchannels", t("integer")),
        ("verbal_claims", t("integer")),
    ]
}

/// One transcript without times and its turn-order analysis (`analysis::turn_order`), as
/// the envelope's `untimed` list and JSON Lines hold it.
fn untimed() -> Value {
    let i = || t("integer");
    let rule = obj(vec![
        ("rule", en(&["crosstalk", "cut_off", "no_sentence_end", "timing"])),
        ("description", t("string")),
        ("count", nullable("integer")),
        ("by_speaker", map_of(t("integer"))),
        ("basis", t("string")),
    ]);
    obj(vec![
        ("recording", t("string")),
        ("schema_version", json!({ "const": SCHEMA_VERSION })),
        ("untimed", json!({ "const": true })),
        ("basis", t("string")),
        ("not_measurable", arr(t("string"))),
        ("turns", i()),
        ("speaker_changes", i()),
        ("words", i()),
        (
            "speakers",
            map_of(obj(vec![
                ("turns", i()),
                ("words", i()),
                ("word_share", nullable("number")),
                ("turn_share", nullable("number")),
                ("longest_turn_words", i()),
                ("median_turn_words", nullable("number")),
                ("questions", i()),
                ("cut_off_made", i()),
                ("cut_off_received", i()),
                ("no_sentence_end_made", i()),
                ("no_sentence_end_received", i()),
                ("crosstalk_notes", i()),
                ("verbal_claims", i()),
            ])),
        ),
        ("rules", arr(rule)),
        (
            "pairs",
            arr(obj(vec![
                ("interrupter", t("string")),
                ("interruptee", t("string")),
                ("cut_off", i()),
                ("no_sentence_end", i()),
            ])),
        ),
        (
            "marked_overlaps",
            arr(obj(vec![("turn", i()), ("speaker", t("string")), ("text", t("string"))])),
        ),
        (
            "verbal_claims",
            arr(obj(vec![
                ("turn", i()),
                ("speaker", t("string")),
                ("phrase", t("string")),
                ("after", nullable("string")),
                ("reclaims", t("boolean")),
            ])),
        ),
        (
            "turn_list",
            arr(obj(vec![
                ("turn", i()),
                ("speaker", t("string")),
                ("line", i()),
                ("words", i()),
                ("ends", en(&["sentence", "cut_off", "open", "empty"])),
                ("text", t("string")),
            ])),
        ),
    ])
}

fn corpus() -> Value {
    let i = || t("integer");
    obj(vec![
        ("recordings", i()),
        ("speakers", i()),
        ("span", i()),
        ("speech", i()),
        ("silence", i()),
        ("overlap", nullable("integer")),
        ("overlap_ratio", nullable("number")),
    ]
    .into_iter()
    .chain(event_counts())
    .chain([("he_counts", map_of(map_of(nullable("integer"))))])
    .collect())
}

/// The declared type of one field of an event row (an onset, a turn, a speaker…): what a
/// table of those rows holds in that column whatever the rows at hand, so that a column of
/// nulls only, or a table without rows, keeps its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    /// An integer (milliseconds, counts).
    Integer,
    /// A number with a fraction (shares, probabilities).
    Number,
    /// `true` or `false`.
    Boolean,
    /// Text, or one of named values.
    String,
    /// An object or an array (a speaker's interruption counts, the active speakers).
    Nested,
}

impl FieldType {
    /// The type a schema fragment declares (`null` aside): `None` when it declares none this
    /// module writes.
    fn of(fragment: &Value) -> Option<FieldType> {
        let named = |ty: &str| match ty {
            "integer" => Some(FieldType::Integer),
            "number" => Some(FieldType::Number),
            "boolean" => Some(FieldType::Boolean),
            "string" => Some(FieldType::String),
            "object" | "array" => Some(FieldType::Nested),
            _ => None,
        };
        match fragment.get("type") {
            Some(Value::String(ty)) => named(ty),
            Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).find_map(named),
            _ => {
                let values = fragment.get("enum")?.as_array()?;
                let mut present = values.iter().filter(|v| !v.is_null());
                if present.clone().all(Value::is_string) {
                    Some(FieldType::String)
                } else if present.all(Value::is_i64) {
                    Some(FieldType::Integer)
                } else {
                    None
                }
            }
        }
    }
}

/// The fields of the rows of one list of a conversation's output (`talkspurts`, `he`,
/// `transfers`, `turns`, `onsets`, `pairs`, `verbal_claims`; `speakers`, one row per speaker
/// without its name), in the order the JSON writes them, with their declared types: the
/// columns of a table of those rows. `None` for any other name.
pub fn row_fields(list: &str) -> Option<Vec<(String, FieldType)>> {
    let conversation = conversation();
    let field = conversation.get("properties")?.get(list)?;
    let row = match field.get("type")?.as_str()? {
        "array" => field.get("items")?,
        "object" => field.get("additionalProperties")?,
        _ => return None,
    };
    let props = row.get("properties")?;
    row.get("required")?
        .as_array()?
        .iter()
        .map(|name| {
            let name = name.as_str()?;
            Some((name.to_owned(), FieldType::of(props.get(name)?)?))
        })
        .collect()
}

/// The schema as a JSON value.
pub fn schema() -> Value {
    let mut root = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://github.com/overtalk/overtalk/schema/analyze.json",
        "title": "overtalk analyze output",
        "description": "Conversation dynamics per conversation-metrics.md §5.7: times in integer milliseconds, shares as fractions, undefined values null.",
        "$defs": { "conversation": conversation(), "corpus": corpus(), "untimed": untimed() },
        "type": "object",
        "properties": {
            "schema_version": { "const": SCHEMA_VERSION },
            "conversations": { "type": "array", "items": { "$ref": "#/$defs/conversation" } },
            "corpus": { "$ref": "#/$defs/corpus" },
            "untimed": { "type": "array", "items": { "$ref": "#/$defs/untimed" } }
        },
        "required": ["schema_version", "conversations", "corpus"],
        "additionalProperties": false
    });
    if let Some(o) = root.as_object_mut() {
        o.insert("x-schema-version".into(), json!(SCHEMA_VERSION));
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small validator for the subset of JSON Schema used above.
    fn check(v: &Value, s: &Value, root: &Value, path: &str) -> Result<(), String> {
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let name = r.trim_start_matches("#/$defs/");
            return check(v, &root["$defs"][name], root, path);
        }
        if let Some(alts) = s.get("oneOf").and_then(Value::as_array) {
            let ok = alts.iter().filter(|a| check(v, a, root, path).is_ok()).count();
            return if ok == 1 {
                Ok(())
            } else {
                Err(format!("{path}: {ok} oneOf branches match"))
            };
        }
        if let Some(c) = s.get("const") {
            return if v == c { Ok(()) } else { Err(format!("{path}: expected {c}")) };
        }
        if let Some(e) = s.get("enum").and_then(Value::as_array) {
            return if e.contains(v) { Ok(()) } else { Err(format!("{path}: {v} not in enum")) };
        }
        if let Some(ty) = s.get("type") {
            let types: Vec<&str> = match ty {
                Value::String(t) => vec![t.as_str()],
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                _ => vec![],
            };
            let ok = types.iter().any(|t| match *t {
                "integer" => v.is_i64() || v.is_u64(),
                "number" => v.is_number(),
                "string" => v.is_string(),
                "boolean" => v.is_boolean(),
                "null" => v.is_null(),
                "array" => v.is_array(),
                "object" => v.is_object(),
                _ => false,
            });
            if !ok {
                return Err(format!("{path}: {v} is not {types:?}"));
            }
        }
        if let (Some(items), Some(a)) = (s.get("items"), v.as_array()) {
            for (i, x) in a.iter().enumerate() {
                check(x, items, root, &format!("{path}[{i}]"))?;
            }
        }
        if let Some(o) = v.as_object() {
            let props = s.get("properties").and_then(Value::as_object);
            if let Some(req) = s.get("required").and_then(Value::as_array) {
                for k in req.iter().filter_map(Value::as_str) {
                    if !o.contains_key(k) {
                        return Err(format!("{path}: missing {k}"));
                    }
                }
            }
            for (k, x) in o {
                match (props.and_then(|p| p.get(k)), s.get("additionalProperties")) {
                    (Some(ps), _) => check(x, ps, root, &format!("{path}.{k}"))?,
                    (None, Some(Value::Bool(false))) => {
                        return Err(format!("{path}: unexpected {k}"))
                    }
                    (None, Some(ap)) if ap.is_object() => {
                        check(x, ap, root, &format!("{path}.{k}"))?
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    fn red_carpet() -> crate::Transcript {
        let path =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/red-carpet/red-carpet.rttm");
        let read = crate::format::read_path(
            std::path::Path::new(path),
            None,
            &crate::format::ReadOptions::default(),
        )
        .unwrap();
        read.corpus.get("red-carpet").unwrap().clone()
    }

    #[test]
    fn analyze_output_follows_the_schema() {
        use crate::output::json::Envelope;
        use crate::output::Conversation;
        let s = schema();
        let t = red_carpet();
        let a = crate::analysis::analyze(&t, &Params::default()).unwrap();
        let empty =
            crate::analysis::analyze(&crate::Transcript::default(), &Params::default()).unwrap();
        let conversation = &s["$defs"]["conversation"];
        let with_summary = |c: Conversation<'_>| {
            serde_json::to_value(crate::summary::Summarised::new(&c)).unwrap()
        };
        let one = with_summary(Conversation::new("red-carpet", None, &a));
        check(&one, conversation, &s, "$").unwrap();
        assert!(one.get("detection").is_none());
        // Without its summary a conversation object is incomplete.
        let bare = serde_json::to_value(Conversation::new("red-carpet", None, &a)).unwrap();
        assert!(check(&bare, conversation, &s, "$").is_err());
        // A lone conversation is not the whole output (schema version 1 allowed it).
        assert!(check(&one, &s, &s, "$").is_err());
        // A conversation detected from a recording says how.
        let detected = with_summary(Conversation::new("red-carpet", Some("ge2e (…)"), &a));
        check(&detected, conversation, &s, "$").unwrap();
        assert_eq!(detected["detection"]["method"], "ge2e (…)");
        // A CHAT conversation with bullets carries its markers against the timing.
        let mut chat = a.clone();
        chat.chat_markers_vs_timing = crate::analysis::markers::compare(&t);
        let chat = with_summary(Conversation::new("red-carpet", None, &chat));
        check(&chat, conversation, &s, "$").unwrap();
        assert_eq!(chat["chat_markers_vs_timing"]["utterances"], 18);
        let both =
            [Conversation::new("red-carpet", None, &a), Conversation::new("empty", None, &empty)];
        let many = Envelope::new(&both);
        assert_eq!(many.schema_version, SCHEMA_VERSION);
        let v = serde_json::to_value(&many).unwrap();
        check(&v, &s, &s, "$").unwrap();
        assert_eq!(v["corpus"]["turns"], 11);
        // Transcripts without times: their turn-order analyses in `untimed`.
        let text = "ANA: Hello there --\nBO: Hi. (CROSSTALK)\nANA: Let me finish.\n";
        let read = crate::format::read_str(
            text,
            crate::format::Format::Paragraphs,
            &crate::format::ReadOptions::default(),
        )
        .unwrap();
        let order = crate::analysis::turn_order::analyze(
            read.corpus.iter().next().unwrap().1,
            &Params::default(),
        )
        .unwrap();
        let untimed = [crate::output::untimed::UntimedRecording::new("debate", &order)];
        let v = serde_json::to_value(Envelope::new(&both).with_untimed(&untimed)).unwrap();
        check(&v, &s, &s, "$").unwrap();
        assert_eq!(v["untimed"][0]["rules"][1]["count"], 1);
        assert!(serde_json::to_value(Envelope::new(&both)).unwrap().get("untimed").is_none());
        // The analysis round-trips through JSON.
        let back: crate::analysis::Analysis =
            serde_json::from_value(serde_json::to_value(&a).unwrap()).unwrap();
        assert_eq!(back.turns, a.turns);
    }

    #[test]
    fn row_fields_are_the_rows_fields_in_output_order() {
        let a = crate::analysis::analyze(&red_carpet(), &Params::default()).unwrap();
        // The first row of each list as serde writes it: keys in the struct's field order.
        let first = |list: &str| -> String {
            match list {
                "talkspurts" => serde_json::to_string(&a.talkspurts[0]),
                "he" => serde_json::to_string(&a.he[0]),
                "transfers" => serde_json::to_string(&a.transfers[0]),
                "turns" => serde_json::to_string(&a.turns[0]),
                "onsets" => serde_json::to_string(&a.onsets[0]),
                "pairs" => serde_json::to_string(&a.pairs[0]),
                _ => serde_json::to_string(a.speakers.values().next().unwrap()),
            }
            .unwrap()
        };
        for list in ["talkspurts", "he", "transfers", "turns", "onsets", "pairs", "speakers"] {
            let fields = row_fields(list).unwrap();
            let text = first(list);
            let row: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(row.as_object().unwrap().len(), fields.len(), "{list}: {text}");
            let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
            let mut at: Vec<(usize, &str)> =
                names.iter().map(|n| (text.find(&format!("\"{n}\":")).unwrap(), *n)).collect();
            at.sort();
            assert_eq!(at.iter().map(|(_, n)| *n).collect::<Vec<_>>(), names, "{list}");
            for (name, ty) in &fields {
                let value = &row[name];
                let fits = match ty {
                    FieldType::Integer => value.is_i64() || value.is_null(),
                    FieldType::Number => value.is_number() || value.is_null(),
                    FieldType::Boolean => value.is_boolean(),
                    FieldType::String => value.is_string() || value.is_null(),
                    FieldType::Nested => value.is_object() || value.is_array() || value.is_null(),
                };
                assert!(fits, "{list}.{name}: {value} is not {ty:?}");
            }
        }
        let onsets = row_fields("onsets").unwrap();
        assert_eq!(onsets[0], ("speaker".to_owned(), FieldType::String));
        assert!(onsets.contains(&("class".to_owned(), FieldType::String)));
        assert!(onsets.contains(&("p_interruption".to_owned(), FieldType::Number)));
        let speakers = row_fields("speakers").unwrap();
        assert!(speakers.contains(&("interruptions_made".to_owned(), FieldType::Nested)));
        assert_eq!(row_fields("conversation"), None);
        assert_eq!(row_fields("nothing"), None);
    }

    #[test]
    fn the_validator_rejects_wrong_output() {
        let s = schema();
        assert!(check(&json!({"recording": "x"}), &s, &s, "$").is_err());
        assert!(check(&json!(3), &s, &s, "$").is_err());
    }
}

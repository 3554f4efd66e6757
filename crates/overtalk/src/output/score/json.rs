//! The JSON report of a score: every metric, in keys sorted as the schema has always printed
//! them, and the error timelines when they were computed.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde_json::json;

use super::Scored;
use crate::output::Exporter;
use crate::score::{self, ErrorSegment, FileStatus, ScoreReport};
use crate::Delta;

/// Pretty-printed JSON followed by a newline.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScoreJson;

impl<'a> Exporter<Scored<'a>> for ScoreJson {
    fn export(&self, scored: &Scored<'a>, out: &mut dyn Write) -> io::Result<()> {
        let conventions = scored.report.options.describe();
        let value = JsonReport::new(scored.report, &conventions, scored.timelines);
        serde_json::to_writer_pretty(&mut *out, &value)?;
        writeln!(out)
    }
}

// The JSON report, serialised straight from these structs. Every object's keys are declared in
// alphabetical order: the schema has always printed them sorted.

#[derive(serde::Serialize)]
struct JsonReport<'a> {
    collar_per_side_s: f64,
    collar_total_width_s: f64,
    conventions: serde_json::Map<String, serde_json::Value>,
    files: Vec<JsonFile<'a>>,
    options: serde_json::Value,
    schema_version: u32,
    total: JsonTotal<'a>,
}

#[derive(serde::Serialize)]
struct JsonFile<'a> {
    clustering: Option<JsonCluster<'a>>,
    confusion_s: f64,
    correct_s: f64,
    der: Option<f64>,
    detection: Option<JsonDetection>,
    errors: Option<Vec<JsonError<'a>>>,
    evaluated_s: f64,
    false_alarm_s: f64,
    jer: Option<f64>,
    jer_speakers: Option<Vec<JsonSpeakerJer<'a>>>,
    mapping: &'a [(String, String)],
    miss_s: f64,
    recording: &'a str,
    scored_s: f64,
    status: FileStatus,
}

#[derive(serde::Serialize)]
struct JsonDetection {
    false_alarm: Delta,
    miss: Delta,
    total: Delta,
}

#[derive(serde::Serialize)]
struct JsonSpeakerJer<'a> {
    hypothesis: Option<&'a str>,
    jer: f64,
    reference: &'a str,
}

#[derive(serde::Serialize)]
struct JsonError<'a> {
    end: f64,
    hypothesis: Option<&'a str>,
    kind: score::ErrorType,
    reference: Option<&'a str>,
    start: f64,
}

struct JsonCluster<'a>(&'a score::cluster::ClusterMetrics);

impl serde::Serialize for JsonCluster<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let m = self.0;
        let mut st = s.serialize_struct("ClusterMetrics", 9)?;
        st.serialize_field("bcubed_f1", &m.bcubed_f1)?;
        st.serialize_field("bcubed_precision", &m.bcubed_precision)?;
        st.serialize_field("bcubed_recall", &m.bcubed_recall)?;
        st.serialize_field("h_ref_given_sys", &m.h_ref_given_sys)?;
        st.serialize_field("h_sys_given_ref", &m.h_sys_given_ref)?;
        st.serialize_field("mutual_information", &m.mutual_information)?;
        st.serialize_field("normalized_mutual_information", &m.normalized_mutual_information)?;
        st.serialize_field("tau_ref_sys", &m.tau_ref_sys)?;
        st.serialize_field("tau_sys_ref", &m.tau_sys_ref)?;
        st.end()
    }
}

#[derive(serde::Serialize)]
struct JsonTotal<'a> {
    clustering: Option<JsonCluster<'a>>,
    confusion_s: f64,
    correct_s: f64,
    coverage: Option<f64>,
    der: Option<f64>,
    detection_error_rate: Option<f64>,
    false_alarm_s: f64,
    jer: Option<f64>,
    macro_der: Option<f64>,
    miss_s: f64,
    purity: Option<f64>,
    scored_s: f64,
}

impl<'a> JsonReport<'a> {
    fn new(
        report: &'a ScoreReport,
        conventions: &[(&str, String)],
        timelines: Option<&'a BTreeMap<String, Vec<ErrorSegment>>>,
    ) -> JsonReport<'a> {
        let o = &report.options;
        let files = report
            .files
            .iter()
            .map(|f| JsonFile {
                clustering: f.cluster.as_ref().map(JsonCluster),
                confusion_s: f.der.confusion.as_secs_f64(),
                correct_s: f.der.correct.as_secs_f64(),
                der: f.der_value(o),
                detection: report.computed.detection.then_some(JsonDetection {
                    false_alarm: f.detection.false_alarm,
                    miss: f.detection.miss,
                    total: f.detection.total,
                }),
                errors: timelines.and_then(|t| t.get(&f.id)).map(|v| {
                    v.iter()
                        .map(|e| JsonError {
                            end: e.segment.end().as_secs_f64(),
                            hypothesis: e.hypothesis.as_deref(),
                            kind: e.kind,
                            reference: e.reference.as_deref(),
                            start: e.segment.start().as_secs_f64(),
                        })
                        .collect()
                }),
                evaluated_s: f.evaluated.as_secs_f64(),
                false_alarm_s: f.der.false_alarm.as_secs_f64(),
                jer: f.jer.as_ref().and_then(|j| j.value),
                jer_speakers: f.jer.as_ref().map(|j| {
                    j.speakers
                        .iter()
                        .map(|s| JsonSpeakerJer {
                            hypothesis: s.hypothesis.as_deref(),
                            jer: s.jer,
                            reference: &s.reference,
                        })
                        .collect()
                }),
                mapping: &f.mapping,
                miss_s: f.der.miss.as_secs_f64(),
                recording: &f.id,
                scored_s: f.der.scored.as_secs_f64(),
                status: f.status,
            })
            .collect();
        let t = &report.total;
        let clustering = report.computed.clustering;
        JsonReport {
            collar_per_side_s: o.collar.as_secs_f64(),
            collar_total_width_s: o.collar_total_width().as_secs_f64(),
            conventions: conventions.iter().map(|(k, v)| (k.to_string(), json!(v))).collect(),
            files,
            options: json!(o),
            schema_version: 1,
            total: JsonTotal {
                clustering: report.cluster.as_ref().map(JsonCluster),
                confusion_s: t.confusion.as_secs_f64(),
                correct_s: t.correct.as_secs_f64(),
                coverage: clustering.then_some(report.coverage),
                der: report.der(),
                detection_error_rate: report
                    .detection
                    .error_rate()
                    .filter(|_| report.computed.detection),
                false_alarm_s: t.false_alarm.as_secs_f64(),
                jer: report.jer,
                macro_der: report.macro_der(),
                miss_s: t.miss.as_secs_f64(),
                purity: clustering.then_some(report.purity),
                scored_s: t.scored.as_secs_f64(),
            },
        }
    }
}

#![allow(clippy::unwrap_used)]

use super::*;

#[test]
fn english_templates_parse_and_missing_ones_are_named() {
    let en = Templates::english();
    assert_eq!(en.language, "en");
    let without = ENGLISH.replace("[sentences.pair]", "[sentences.pear]");
    let e = Templates::from_toml(&without).unwrap_err().to_string();
    assert!(e.contains("no [sentences.pair]"), "{e}");
    let e = Templates::from_toml("language = 3").unwrap_err().to_string();
    assert!(e.contains("summary templates"), "{e}");
}

#[test]
fn placeholders_plurals_and_pointers() {
    let en = Templates::english();
    assert_eq!(en.form("pair", Some(1)), en.sentences["pair"].one.as_deref().unwrap());
    assert_eq!(en.form("pair", Some(2)), en.sentences["pair"].other);
    assert_eq!(en.form("turns", Some(0)), en.sentences["turns"].zero.as_deref().unwrap());
    assert_eq!(pointer(&["speakers", "a/b~c", "floor"]), "/speakers/a~1b~0c/floor");
    assert_eq!(en.list(&["a".into(), "b".into(), "c".into()]), "a, b and c");
    let w = Writer { templates: &en, sentences: Vec::new() };
    let (text, cited) = fill(
        "{x} of {y} {unknown}",
        vec![("x", w.count(&["n"], 2)), ("y", w.duration(&["d"], 754_321))],
    );
    assert_eq!(text, "2 of 12.6 min {unknown}");
    assert_eq!(cited.iter().map(|c| c.path.as_str()).collect::<Vec<_>>(), ["/n", "/d"]);
    assert_eq!(en.show(&Value::from(0.6749), Unit::SharePercent), "67 %");
    assert_eq!(en.show(&Value::from(31_440), Unit::MsSeconds), "31.4 s");
}

#[test]
fn another_language_needs_only_a_template_file() {
    // French-style numbers and plural: 0 and 1 singular, a decimal comma.
    let fr = ENGLISH
        .replace("plural_rule = \"one_is_singular\"", "plural_rule = \"zero_and_one_singular\"")
        .replace("decimal_separator = \".\"", "decimal_separator = \",\"")
        .replace("language = \"en\"", "language = \"fr\"");
    let fr = Templates::from_toml(&fr).unwrap();
    assert_eq!(fr.show(&Value::from(31_440), Unit::MsSeconds), "31,4 s");
    // The zero form wins where there is one; else 0 is singular.
    assert_eq!(fr.form("pair", Some(0)), fr.sentences["pair"].one.as_deref().unwrap());
}

#[test]
fn durations_round_half_away_from_zero_on_the_milliseconds() {
    // MRDA Bmr003: 431250 ms of overlap is 431.25 s in the table, so 431.3 s in the sentence
    // (`{:.1}` on the f64 431.25 gave 431.2).
    let en = Templates::english();
    assert_eq!(en.show(&Value::from(431_250), Unit::MsSeconds), "431.3 s");
    assert_eq!(en.show(&Value::from(2_650), Unit::MsSeconds), "2.7 s");
    assert_eq!(en.show(&Value::from(2_649), Unit::MsSeconds), "2.6 s");
    assert_eq!(en.show(&Value::from(0), Unit::MsSeconds), "0.0 s");
    // Minutes: 627000 ms is 10.45 min, so 10.5 min.
    assert_eq!(en.show(&Value::from(627_000), Unit::MsMinutes), "10.5 min");
    assert_eq!(en.show(&Value::from(754_321), Unit::MsMinutes), "12.6 min");
}

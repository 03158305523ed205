//! `json`'s tests: decoding, paths in errors, quoting; `stored` holds texts as earlier builds
//! stored them.

use super::*;
use serde_json::json;

#[derive(Debug, PartialEq, Default, Deserialize)]
struct Inner {
    id: String,
    #[serde(default, deserialize_with = "or_default")]
    n: u32,
}

#[derive(Debug, PartialEq, Deserialize)]
struct Outer {
    name: Option<String>,
    items: Vec<Inner>,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Reply {
    Invalid,
    Limited { retry_after_seconds: u64 },
}

#[test]
fn reads_nested_values_and_ignores_unknown_fields() {
    let outer: Outer = decode(r#"{"items":[{"id":"a","n":2,"extra":true},{"id":"b"}],"x":1}"#)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        outer,
        Outer {
            name: None,
            items: vec![
                Inner {
                    id: "a".into(),
                    n: 2
                },
                Inner {
                    id: "b".into(),
                    n: 0
                }
            ],
        }
    );
}

#[test]
fn errors_show_the_text_before_the_problem() {
    let error = |text: &str| decode::<Outer>(text).err().map(|e| e.to_string());
    let read_error = |value: Value| read::<Outer>(&value).err().map(|e| e.to_string());
    assert_eq!(
        error(r#"{"items":[{"id":"a"},{"n":1}]}"#).as_deref(),
        Some(
            "missing field `id` at line 1 column 28, after `{\"items\":[{\"id\":\"a\"},{\"n\":1}`"
        )
    );
    assert_eq!(
        error(r#"{"items":[{"id":"a","n":-1}]}"#).as_deref(),
        Some("invalid value: integer `-1`, expected u32 at line 1 column 26, after `{\"items\":[{\"id\":\"a\",\"n\":-1`")
    );
    assert_eq!(
        error(r#"{"name":3,"items":[]}"#).as_deref(),
        Some(
            "invalid type: integer `3`, expected a string at line 1 column 9, after `{\"name\":3`"
        )
    );
    // Long texts show only the last 40 characters before the position.
    let long = format!(
        r#"{{"name":"{}","items":[{{"id":"a","n":true}}]}}"#,
        "x".repeat(100)
    );
    assert_eq!(
        error(&long).as_deref(),
        Some("invalid type: boolean `true`, expected u32 at line 1 column 138, after `xxxxxxxxxxx\",\"items\":[{\"id\":\"a\",\"n\":true`")
    );
    // The position is on its own line, in bytes: multi-byte text before it is cut on a
    // character boundary.
    assert_eq!(
        error("{\"name\":\"ééééééééééééééééééééééééééééééé\",\n\"items\":7}").as_deref(),
        Some("invalid type: integer `7`, expected a sequence at line 2 column 9, after `\"items\":7`")
    );
    assert_eq!(
        error(r#""x""#).as_deref(),
        Some("invalid type: string \"x\", expected struct Outer at line 1 column 3, after `\"x\"`")
    );
    assert!(error("{").is_some_and(|e| e.starts_with("not JSON (EOF")));
    assert!(error(r#"{"items":[]} x"#).is_some_and(|e| e.starts_with("not JSON (trailing")));
    assert_eq!(
        read_error(json!({"items": [{"id": "a"}, {"id": 2}]})).as_deref(),
        Some("invalid type: integer `2`, expected a string at line 1 column 28, after `{\"items\":[{\"id\":\"a\"},{\"id\":2`")
    );
}

#[test]
fn text_before_stays_on_character_boundaries() {
    assert_eq!(text_before("aé", 1, 2), "aé");
    assert_eq!(text_before("abc", 1, 99), "abc");
    assert_eq!(text_before("abc", 5, 1), "");
    assert_eq!(text_before("", 1, 1), "");
    assert_eq!(text_before(&"é".repeat(50), 1, 100).chars().count(), 40);
}

#[test]
fn null_is_absent_for_optional_and_default_fields() {
    let outer: Outer = read(&json!({"name": null, "items": [{"id": "a", "n": null}]}))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outer.name, None);
    assert_eq!(outer.items[0].n, 0);
}

#[test]
fn variants_are_externally_tagged() {
    assert_eq!(decode::<Reply>(r#""invalid""#), Ok(Reply::Invalid));
    assert_eq!(
        decode::<Reply>(r#"{"limited":{"retry_after_seconds":3}}"#),
        Ok(Reply::Limited {
            retry_after_seconds: 3
        })
    );
    assert!(decode::<Reply>(r#"{"invalid":null,"limited":{}}"#).is_err());
    assert!(decode::<Reply>("3").is_err());
    assert_eq!(
        decode::<Reply>(r#""no""#)
            .err()
            .map(|e| e.to_string())
            .as_deref(),
        Some("unknown variant `no`, expected `invalid` or `limited` at line 1 column 4, after `\"no\"`")
    );
}

#[test]
fn strings_quote_as_json() {
    assert_eq!(string("a \"b\"\n\\ é\u{1}"), r#""a \"b\"\n\\ é\u0001""#);
    assert_eq!(string_inside("x\"y"), r#"x\"y"#);
    assert_eq!(string_inside(""), "");
    let (before, middle, after) = ("{\"a\":\"x\n\",\"files\":", "[{\"p\":\"é\\\"\"}]", "}");
    let joined = string_joined(before, &string_inside(middle), after);
    assert_eq!(joined, string(&format!("{before}{middle}{after}")));
}

#[test]
fn long_values_are_cut() {
    let long = Value::String("x".repeat(500));
    assert!(describe(&long).chars().count() <= 60);
}

mod stored;

#[test]
fn a_body_is_json_only_when_it_is_utf8_throughout() {
    assert_eq!(
        value(br#"{"a":"\u00e9","b":[1,2.5]}"#),
        Some(json!({"a": "é", "b": [1, 2.5]}))
    );
    assert_eq!(value("{\"a\":\"é\"}".as_bytes()), Some(json!({"a": "é"})));
    assert_eq!(
        value(b"{\"a\":\"\xff\"}"),
        None,
        "not UTF-8 inside a string"
    );
    assert_eq!(value(b"{\"a\":1}\xff"), None, "not UTF-8 after the value");
    assert_eq!(value(b"{\"a\":1} x"), None);
    assert_eq!(value(b""), None);
}

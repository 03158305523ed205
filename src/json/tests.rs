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
fn errors_name_the_path() {
    let error = |text: &str| decode::<Outer>(text).err().map(|e| e.to_string());
    let read_error = |value: Value| read::<Outer>(&value).err().map(|e| e.to_string());
    assert_eq!(
        error(r#"{"items":[{"id":"a"},{"n":1}]}"#).as_deref(),
        Some("items[1].id: missing at line 1 column 28")
    );
    assert_eq!(
        error(r#"{"items":[{"id":"a","n":-1}]}"#).as_deref(),
        Some("items[0].n: invalid value: integer `-1`, expected u32 at line 1 column 26")
    );
    assert_eq!(
        error(r#"{"items":[{"id":"a","n":4294967296}]}"#).as_deref(),
        Some("items[0].n: invalid value: integer `4294967296`, expected u32 at line 1 column 34")
    );
    assert_eq!(
        error(r#"{"name":3,"items":[]}"#).as_deref(),
        Some("name: invalid type: integer `3`, expected a string at line 1 column 9")
    );
    assert_eq!(
        error(r#""x""#).as_deref(),
        Some("invalid type: string \"x\", expected struct Outer at line 1 column 3")
    );
    assert!(error("{").is_some_and(|e| e.starts_with("not JSON (EOF")));
    assert!(error(r#"{"items":[]} x"#).is_some_and(|e| e.starts_with("not JSON (trailing")));
    assert_eq!(
        read_error(json!({"items": [{"id": "a"}, {"id": 2}]})).as_deref(),
        Some("items[1].id: invalid type: integer `2`, expected a string")
    );
    let nested: Result<Vec<Vec<u64>>, _> = read(&json!([[1], [2, "x"]]));
    assert_eq!(
        nested.err().map(|e| e.to_string()).as_deref(),
        Some("[1][1]: invalid type: string \"x\", expected u64")
    );
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
        Some("unknown variant `no`, expected `invalid` or `limited` at line 1 column 4")
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

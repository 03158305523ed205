//! Typed JSON reading without serde's `Deserialize` derive.
//!
//! Why: the Worker must stay under DESIGN.md §7's 400 KiB gzip budget, and serde's derived
//! decoders were its largest single cost: about 3 KB of wasm per type (a map form and an array
//! form of every struct, a field-name visitor, and the deserializer's generic code inlined into
//! each), ~177 KB for ~60 types. Here a type reads a parsed [`Value`] through a few shared,
//! non-generic helpers, so each field costs one call. Writing stays on serde's `Serialize`, which
//! is small.
//!
//! Rules match serde's defaults as this crate used them: a missing or `null` field is `None` for
//! [`Fields::optional`] and the default for [`Fields::or_default`]; unknown fields are ignored;
//! enums are externally tagged (`"unit"` or `{"variant": {...}}`). Errors name the JSON path.

use serde_json::{Map, Value};

pub mod compact;

/// Why a value could not be read: where, and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// A JSON path like `apps[2].grant_id` (empty for the top level).
    pub path: String,
    pub problem: String,
}

impl DecodeError {
    pub fn new(problem: impl Into<String>) -> DecodeError {
        DecodeError {
            path: String::new(),
            problem: problem.into(),
        }
    }

    /// The same error seen from the enclosing object's field `name`.
    fn in_field(mut self, name: &str) -> DecodeError {
        self.path = match self.path.is_empty() {
            true => name.to_string(),
            false if self.path.starts_with('[') => format!("{name}{}", self.path),
            false => format!("{name}.{}", self.path),
        };
        self
    }

    /// The same error seen from the enclosing array's item `index`.
    fn in_item(mut self, index: usize) -> DecodeError {
        self.path = match self.path.is_empty() {
            true => format!("[{index}]"),
            false if self.path.starts_with('[') => format!("[{index}]{}", self.path),
            false => format!("[{index}].{}", self.path),
        };
        self
    }
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.path.is_empty() {
            true => write!(f, "{}", self.problem),
            false => write!(f, "{}: {}", self.path, self.problem),
        }
    }
}

impl std::error::Error for DecodeError {}

#[cfg(target_arch = "wasm32")]
impl From<DecodeError> for worker::Error {
    fn from(error: DecodeError) -> worker::Error {
        worker::Error::RustError(format!("unreadable JSON: {error}"))
    }
}

/// A type read from a parsed JSON value (taken by value, so strings move rather than copy).
pub trait FromJson: Sized {
    fn from_json(value: Value) -> Result<Self, DecodeError>;
}

/// Parses `text` as JSON and reads it as `T`.
pub fn decode<T: FromJson>(text: &str) -> Result<T, DecodeError> {
    T::from_json(parse(text)?)
}

/// Parses `text` as a JSON value. Kept out of line: `decode` has a copy per type, and with the
/// parse inlined into each the wasm carried ~12 KB of copies (its size budget).
#[inline(never)]
pub fn parse(text: &str) -> Result<Value, DecodeError> {
    serde_json::from_str::<Value>(text).map_err(|e| DecodeError::new(format!("not JSON ({e})")))
}

/// A constant JSON document with this server's origin in place of every `{origin}`: for the
/// fixed documents (OAuth metadata), which `json!` would compile into a call per key. The origin
/// is escaped as a JSON string's content; a template that doesn't parse gives `null`, which the
/// documents' unit tests would catch.
pub fn with_origin(template: &str, origin: &str) -> Value {
    let quoted = serde_json::to_string(origin).unwrap_or_default();
    let escaped = quoted
        .get(1..quoted.len().saturating_sub(1))
        .unwrap_or_default();
    literal(&template.replace("{origin}", escaped))
}

/// A constant JSON document written as text (`json!` compiles to a call per key); `null` if it
/// doesn't parse, which the unit tests of each document would catch.
pub fn literal(text: &str) -> Value {
    parse(text).unwrap_or(Value::Null)
}

/// A short, safe rendering of a value the agent sent, for error messages: the tools' argument
/// problems (`tools::arguments`) and a `tools/call` whose arguments are not an object
/// (`mcp::dispatch`), which is why it lives below both.
pub fn describe(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// Parses a UTF-8 body as JSON; `None` when it is not UTF-8 or not JSON.
pub fn value(body: &[u8]) -> Option<Value> {
    serde_json::from_str(std::str::from_utf8(body).ok()?).ok()
}

fn expected(what: &str, got: &Value) -> DecodeError {
    let got = match got {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    DecodeError::new(format!("expected {what}, got {got}"))
}

impl FromJson for Value {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        Ok(value)
    }
}

impl FromJson for String {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        match value {
            Value::String(text) => Ok(text),
            other => Err(expected("a string", &other)),
        }
    }
}

impl FromJson for bool {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        value.as_bool().ok_or_else(|| expected("a boolean", &value))
    }
}

impl FromJson for u64 {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        value
            .as_u64()
            .ok_or_else(|| expected("a whole number of 0 or more", &value))
    }
}

impl FromJson for i64 {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        value
            .as_i64()
            .ok_or_else(|| expected("a whole number", &value))
    }
}

impl FromJson for f64 {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        value.as_f64().ok_or_else(|| expected("a number", &value))
    }
}

/// Narrower unsigned integers read as `u64`, then range-checked.
macro_rules! narrow_unsigned {
    ($($ty:ty),*) => {$(
        impl FromJson for $ty {
            fn from_json(value: Value) -> Result<Self, DecodeError> {
                let wide = u64::from_json(value)?;
                <$ty>::try_from(wide)
                    .map_err(|_| DecodeError::new(format!("{wide} is out of range")))
            }
        }
    )*};
}
narrow_unsigned!(u32, u16, u8, usize);

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        match value {
            Value::Null => Ok(None),
            other => T::from_json(other).map(Some),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let Value::Array(items) = value else {
            return Err(expected("an array", &value));
        };
        items
            .into_iter()
            .enumerate()
            .map(|(index, item)| T::from_json(item).map_err(|e| e.in_item(index)))
            .collect()
    }
}

impl<T: FromJson> FromJson for Box<T> {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        T::from_json(value).map(Box::new)
    }
}

impl<T: FromJson> FromJson for std::collections::BTreeMap<String, T> {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let Value::Object(map) = value else {
            return Err(expected("an object", &value));
        };
        // Inserted one by one: collecting sorts the pairs first (another copy of the sort).
        let mut out = std::collections::BTreeMap::new();
        for (key, item) in map {
            let item = T::from_json(item).map_err(|e| e.in_field(&key))?;
            out.insert(key, item);
        }
        Ok(out)
    }
}

/// An object's fields, taken one by one by the type being read.
pub struct Fields(Map<String, Value>);

impl Fields {
    /// The fields of `value`, which must be an object.
    pub fn of(value: Value) -> Result<Fields, DecodeError> {
        match value {
            Value::Object(map) => Ok(Fields(map)),
            other => Err(expected("an object", &other)),
        }
    }

    /// A field that must be present (it may be `null` only if `T` accepts `null`).
    pub fn required<T: FromJson>(&mut self, name: &str) -> Result<T, DecodeError> {
        match self.0.remove(name) {
            Some(value) => T::from_json(value).map_err(|e| e.in_field(name)),
            None => Err(DecodeError::new("missing").in_field(name)),
        }
    }

    /// A field that may be missing or `null`.
    pub fn optional<T: FromJson>(&mut self, name: &str) -> Result<Option<T>, DecodeError> {
        match self.0.remove(name) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => T::from_json(value).map(Some).map_err(|e| e.in_field(name)),
        }
    }

    /// A field that takes `T`'s default when missing or `null`.
    pub fn or_default<T: FromJson + Default>(&mut self, name: &str) -> Result<T, DecodeError> {
        Ok(self.optional(name)?.unwrap_or_default())
    }
}

/// An externally tagged enum value: `"name"` for a unit variant, `{"name": content}` otherwise.
/// Returns the variant's name and its content (`null` for a unit variant).
pub fn variant(value: Value) -> Result<(String, Value), DecodeError> {
    match value {
        Value::String(name) => Ok((name, Value::Null)),
        Value::Object(map) if map.len() == 1 => {
            let Some((name, content)) = map.into_iter().next() else {
                return Err(DecodeError::new("expected one variant"));
            };
            Ok((name, content))
        }
        other => Err(expected("a variant name or a one-key object", &other)),
    }
}

/// The error for a variant name a type does not have.
pub fn unknown_variant(name: &str) -> DecodeError {
    DecodeError::new(format!("unknown variant {name:?}"))
}

/// Reads a field-less enum from its variant name with `parse`, naming the bad value on failure.
pub fn from_name<T>(value: Value, parse: impl Fn(&str) -> Option<T>) -> Result<T, DecodeError> {
    let name = String::from_json(value)?;
    parse(&name).ok_or_else(|| unknown_variant(&name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, PartialEq, Default)]
    struct Inner {
        id: String,
        n: u32,
    }

    impl FromJson for Inner {
        fn from_json(value: Value) -> Result<Self, DecodeError> {
            let mut f = Fields::of(value)?;
            Ok(Inner {
                id: f.required("id")?,
                n: f.or_default("n")?,
            })
        }
    }

    #[derive(Debug, PartialEq)]
    struct Outer {
        name: Option<String>,
        items: Vec<Inner>,
    }

    impl FromJson for Outer {
        fn from_json(value: Value) -> Result<Self, DecodeError> {
            let mut f = Fields::of(value)?;
            Ok(Outer {
                name: f.optional("name")?,
                items: f.required("items")?,
            })
        }
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
        assert_eq!(
            error(r#"{"items":[{"id":"a"},{"n":1}]}"#).as_deref(),
            Some("items[1].id: missing")
        );
        assert_eq!(
            error(r#"{"items":[{"id":"a","n":-1}]}"#).as_deref(),
            Some("items[0].n: expected a whole number of 0 or more, got a number")
        );
        assert_eq!(
            error(r#"{"items":[{"id":"a","n":4294967296}]}"#).as_deref(),
            Some("items[0].n: 4294967296 is out of range")
        );
        assert_eq!(
            error(r#"{"name":3,"items":[]}"#).as_deref(),
            Some("name: expected a string, got a number")
        );
        assert_eq!(
            error("[1]").as_deref(),
            Some("expected an object, got an array")
        );
        assert!(error("{").is_some_and(|e| e.starts_with("not JSON")));
        let nested: Result<Vec<Vec<u64>>, _> = FromJson::from_json(json!([[1], [2, "x"]]));
        assert_eq!(
            nested.err().map(|e| e.to_string()).as_deref(),
            Some("[1][1]: expected a whole number of 0 or more, got a string")
        );
    }

    #[test]
    fn null_is_absent_for_optional_and_default_fields() {
        let outer: Outer =
            FromJson::from_json(json!({"name": null, "items": [{"id": "a", "n": null}]}))
                .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outer.name, None);
        assert_eq!(outer.items[0].n, 0);
    }

    #[test]
    fn variants_are_externally_tagged() {
        assert_eq!(
            variant(json!("invalid")),
            Ok(("invalid".into(), Value::Null))
        );
        assert_eq!(
            variant(json!({"limited": {"retry_after_seconds": 3}})),
            Ok(("limited".into(), json!({"retry_after_seconds": 3})))
        );
        assert!(variant(json!({"a": 1, "b": 2})).is_err());
        assert!(variant(json!(3)).is_err());
        let parse = |name: &str| (name == "yes").then_some(true);
        assert_eq!(from_name(json!("yes"), parse), Ok(true));
        assert_eq!(
            from_name(json!("no"), parse)
                .err()
                .map(|e| e.to_string())
                .as_deref(),
            Some("unknown variant \"no\"")
        );
    }

    #[test]
    fn long_values_are_cut() {
        let long = Value::String("x".repeat(500));
        assert!(describe(&long).chars().count() <= 60);
    }
}

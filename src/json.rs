//! Typed JSON reading through serde's `Deserialize` derive, with errors that name the JSON path.
//!
//! Every type read from outside (GitHub's answers, the Durable Objects' messages, stored records)
//! derives `Deserialize` and is read by [`decode`] straight from the text, or by [`read`] from a
//! value already parsed. The rules are serde's defaults: unknown fields are ignored, a missing
//! `Option` is `None`, enums are externally tagged (`"unit"` or `{"variant": {...}}`) unless a
//! type says otherwise. A field that should also take its default when it is `null` (GitHub
//! sends `null` for some) uses [`or_default`].
//!
//! Errors: serde_json's own message names the problem and the position but not the field, so a
//! failed decode is run again through `serde_path_to_error`, which names it (`files[2].status:
//! invalid type: null, expected a string`). Only the failure pays for the path: a successful
//! decode is plain serde_json.
//!
//! What not: tool arguments an agent sends are read by `tools::arguments` and
//! `review::order::parse`, which collect every problem with the reference's messages, rather
//! than stopping at the first.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// Why a value could not be read: where, and what was wrong there.
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

    /// The error serde gave, at the path `serde_path_to_error` kept. A missing field is named
    /// in the path too (`base.ref: missing`), where serde names it in its message to the
    /// enclosing object (`base: missing field `ref``).
    fn at(error: serde_path_to_error::Error<serde_json::Error>) -> DecodeError {
        let mut path = error.path().to_string();
        // `serde_path_to_error` writes the top level as `.`.
        if path == "." {
            path.clear();
        }
        let mut problem = error.into_inner().to_string();
        let missing = problem
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split_once('`'))
            .map(|(name, rest)| (name.to_string(), format!("missing{rest}")));
        if let Some((name, rest)) = missing {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(&name);
            problem = rest;
        }
        DecodeError { path, problem }
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

/// Reads `text` as JSON into `T`.
pub fn decode<T: DeserializeOwned>(text: &str) -> Result<T, DecodeError> {
    serde_json::from_str(text).map_err(|error| {
        if error.is_syntax() || error.is_eof() {
            return DecodeError::new(format!("not JSON ({error})"));
        }
        // The same text again, with the path kept: the same error, now named.
        let mut reader = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize::<_, T>(&mut reader)
            .err()
            .map_or_else(|| DecodeError::new(error.to_string()), DecodeError::at)
    })
}

/// Reads a parsed value into `T` (for documents kept as a `Value`, like a saved order's body).
pub fn read<T: DeserializeOwned>(value: &Value) -> Result<T, DecodeError> {
    T::deserialize(value).map_err(|error| {
        serde_path_to_error::deserialize::<_, T>(value)
            .err()
            .map_or_else(|| DecodeError::new(error.to_string()), DecodeError::at)
    })
}

/// For `#[serde(default, deserialize_with = "or_default")]`: a field that takes its type's
/// default when it is `null`, as when it is missing (serde's `default` alone refuses `null`).
pub fn or_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// Parses `text` as a JSON value.
pub fn parse(text: &str) -> Result<Value, DecodeError> {
    serde_json::from_str::<Value>(text).map_err(|e| DecodeError::new(format!("not JSON ({e})")))
}

/// A constant JSON document with this server's origin in place of every `{origin}`: for the
/// fixed documents (OAuth metadata). The origin is escaped as a JSON string's content; a
/// template that doesn't parse gives `null`, which the documents' unit tests would catch.
pub fn with_origin(template: &str, origin: &str) -> Value {
    let quoted = serde_json::to_string(origin).unwrap_or_default();
    let escaped = quoted
        .get(1..quoted.len().saturating_sub(1))
        .unwrap_or_default();
    literal(&template.replace("{origin}", escaped))
}

/// A constant JSON document written as text; `null` if it doesn't parse, which the unit tests
/// of each document would catch.
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
    serde_json::from_slice(body).ok()
}

/// `text` as a JSON string literal (quoted and escaped).
pub fn string(text: &str) -> String {
    // Room for the quotes and a few escapes, so a long text is not copied as it grows.
    let mut out = Vec::with_capacity(text.len() + text.len() / 8 + 2);
    // Writing to a `Vec` cannot fail, and serde_json writes UTF-8.
    let _ = serde_json::to_writer(&mut out, text);
    String::from_utf8(out).unwrap_or_default()
}

/// The inside of `text`'s JSON string literal (escaped, without the quotes).
pub fn string_inside(text: &str) -> String {
    let mut quoted = string(text);
    quoted.pop();
    quoted.remove(0);
    quoted
}

/// The JSON string literal of `before`, a text whose literal's inside is `quoted_middle`
/// (already escaped, quotes left off), and `after`, joined: what [`string`] of the three joined
/// gives, with the middle's escaping done ahead of time (a cached listing keeps its file list
/// escaped, so a repeat `get_pull_request` escapes only the result's head).
pub fn string_joined(before: &str, quoted_middle: &str, after: &str) -> String {
    let before = string(before);
    let after = string(after);
    let mut out = String::with_capacity(before.len() + quoted_middle.len() + after.len());
    out.push_str(before.strip_suffix('"').unwrap_or(&before));
    out.push_str(quoted_middle);
    out.push_str(after.strip_prefix('"').unwrap_or(&after));
    out
}

#[cfg(test)]
mod tests;

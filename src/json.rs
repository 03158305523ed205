//! Typed JSON reading through serde's `Deserialize` derive, with errors that show where they happened.
//!
//! Every type read from outside (GitHub's answers, the Durable Objects' messages, stored records)
//! derives `Deserialize` and is read by [`decode`] straight from the text, or by [`read`] from a
//! value already parsed. The rules are serde's defaults: unknown fields are ignored, a missing
//! `Option` is `None`, enums are externally tagged (`"unit"` or `{"variant": {...}}`) unless a
//! type says otherwise. A field that should also take its default when it is `null` (GitHub
//! sends `null` for some) uses [`or_default`].
//!
//! Errors: serde_json's own message names the problem and its position (`invalid type: null,
//! expected a string at line 1 column 1234`, `missing field `ref` …`), and [`decode`] adds the
//! text just before that position, which shows the key being read (`after …"status":null`).
//! Naming the whole path instead (`files[2].status`, by decoding a failed text again through
//! `serde_path_to_error`) compiled a second, path-tracking decoder for every type: about 106 KB
//! of the gzipped wasm (10% of its 1 MiB limit) for a message no one reads unless GitHub changes
//! an answer's shape (issue #30), so the excerpt does that job.
//!
//! What not: tool arguments an agent sends are read by `tools::arguments` and
//! `review::order::parse`, which collect every problem with the reference's messages, rather
//! than stopping at the first.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// Why a value could not be read: serde's message, with where it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub problem: String,
}

impl DecodeError {
    pub fn new(problem: impl Into<String>) -> DecodeError {
        DecodeError {
            problem: problem.into(),
        }
    }

    /// serde_json's error on `text`, with the text just before its position.
    fn in_text(error: &serde_json::Error, text: &str) -> DecodeError {
        let excerpt = text_before(text, error.line(), error.column());
        match excerpt.is_empty() {
            true => DecodeError::new(error.to_string()),
            false => DecodeError::new(format!("{error}, after `{excerpt}`")),
        }
    }
}

/// How much of the text before an error's position its message shows.
const EXCERPT_CHARS: usize = 40;

/// Up to [`EXCERPT_CHARS`] characters of `text` ending at serde_json's `line` and `column` (both
/// counted from 1, the column in bytes), on that line only.
fn text_before(text: &str, line: usize, column: usize) -> &str {
    let Some(line_text) = text.split('\n').nth(line.saturating_sub(1)) else {
        return "";
    };
    let mut end = column.min(line_text.len());
    while !line_text.is_char_boundary(end) {
        end += 1;
    }
    let before = &line_text[..end];
    let start = before
        .char_indices()
        .rev()
        .nth(EXCERPT_CHARS - 1)
        .map_or(0, |(index, _)| index);
    &before[start..]
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.problem)
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
        DecodeError::in_text(&error, text)
    })
}

/// Reads a parsed value into `T` (for documents kept as a `Value`, like a saved order's body).
pub fn read<T: DeserializeOwned>(value: &Value) -> Result<T, DecodeError> {
    // On failure only, the value's text is decoded instead, for the excerpt [`decode`] adds.
    T::deserialize(value).map_err(|error| {
        let text = value.to_string();
        match serde_json::from_str::<T>(&text) {
            Err(in_text) if in_text.is_data() => DecodeError::in_text(&in_text, &text),
            _ => DecodeError::new(error.to_string()),
        }
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
///
/// Text first, then serde_json's `str` reader, as every other reading: its byte reader
/// (`from_slice`) would compile a second JSON parser into the wasm (about 12 KB of code) for the
/// same answer (it too takes only a body that is UTF-8 throughout).
pub fn value(body: &[u8]) -> Option<Value> {
    serde_json::from_str(std::str::from_utf8(body).ok()?).ok()
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

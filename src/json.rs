//! Typed JSON decoding through one deserializer.
//!
//! Why: every `Deserialize` type is compiled once per deserializer it meets. Parsing text to a
//! `serde_json::Value` first (which `/mcp` needs anyway) and converting that value to the type
//! compiles each type's decoder only against the `Value` deserializer, whose per-type code is
//! about half the size of the text deserializer's (no array form of structs, no byte-level
//! reader inlined into each type). Measured on the release wasm: see issue #7's note.

use serde::de::DeserializeOwned;

/// Parses `text` as JSON and decodes it as `T`.
pub fn decode<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    serde_json::from_value(serde_json::from_str::<serde_json::Value>(text)?)
}

/// Parses a UTF-8 body as JSON; `None` when it is not UTF-8 or not JSON.
pub fn value(body: &[u8]) -> Option<serde_json::Value> {
    serde_json::from_str(std::str::from_utf8(body).ok()?).ok()
}

//! A tool's answer as JSON text, which the reply carries as is (`ToolResult::Json`).
//!
//! Why: the wasm already has serde_json's text writer for the field types these answers use
//! (snapshots and saves are written as text), while `serde_json::to_value` instantiates a second
//! writer for them, and a large order would be parsed and written again for nothing.
//! Why a module of its own: the MCP Apps tools (`show_reading_order`, `view_reading_order`,
//! `view_diagram`, `view_change`) write their answers with it and `views` calls them, so it sits
//! below all of them rather than in `views` (no import loop inside `tools/`).

/// The answer as JSON text, or `{}` if it cannot be written.
pub fn to_json<T: serde::Serialize>(answer: &T) -> String {
    serde_json::to_string(answer).unwrap_or_else(|_| "{}".into())
}

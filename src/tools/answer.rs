//! A tool's answer as JSON text, which the reply carries as is (`ToolResult::Json`).
//!
//! Why: written straight to text, an answer skips the `serde_json::Value` tree that
//! `serde_json::to_value` would build and write again (a large order, twice for nothing).
//! Why a module of its own: the MCP Apps tools (`show_reading_order`, `view_reading_order`,
//! `view_diagram`, `view_change`) write their answers with it and `views` calls them, so it sits
//! below all of them rather than in `views` (no import loop inside `tools/`).

/// The answer as JSON text, or `{}` if it cannot be written.
pub fn to_json<T: serde::Serialize>(answer: &T) -> String {
    serde_json::to_string(answer).unwrap_or_else(|_| "{}".into())
}

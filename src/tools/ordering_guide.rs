//! `get_ordering_guide`: the guide as Markdown text, with its URL as structured content.

use serde_json::json;

use crate::mcp::catalog::ordering_guide;
use crate::mcp::dispatch::ToolResult;

/// The tool's answer; it takes no input and reads nothing.
pub fn get_ordering_guide(base_url: &str) -> ToolResult {
    ToolResult::TextAndStructured {
        text: ordering_guide().to_string(),
        structured: json!({
            "guide": ordering_guide(),
            "url": format!("{base_url}/docs/ordering-guide"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_the_guide_and_its_url() {
        let ToolResult::TextAndStructured { text, structured } = get_ordering_guide("https://h")
        else {
            panic!("the guide is a success");
        };
        assert!(text.contains("## Diagrams"));
        assert_eq!(structured["url"], "https://h/docs/ordering-guide");
    }
}

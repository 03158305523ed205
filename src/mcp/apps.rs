//! The MCP Apps extension (`io.modelcontextprotocol/ui`, SEP-1865, stable 2026-01-26): the one
//! `ui://` view of a saved reading order and diagram, and the metadata that links tools to it.
//!
//! Why: hosts that render MCP Apps (Claude, VS Code, ChatGPT, Goose, …) show the view inside the
//! conversation, next to the agent's answer; every other client ignores the metadata and reads the
//! text result, which stays complete. So the capability and the `_meta.ui` fields are always sent,
//! never gated on the client's capabilities (some hosts send none, and 2025-era stateless
//! requests carry none).
//!
//! The view is one self-contained HTML file (inline script and style, no external loads),
//! `apps/reading-order.html`, with the diagram's drawing code, shared with the review page
//! (`src/static/diagram.js`), inlined by `build.rs` and compiled in from there. It declares no
//! CSP domains, so hosts apply the restrictive default (`connect-src 'none'`):
//! the view can't send pull request text anywhere. It gets its data through the host, by calling
//! the app-only tools (`view_reading_order`, `view_diagram`, `view_change`), each authorized with
//! the caller's own GitHub token like any other call.
//!
//! What not: no tool logic (that is `tools::*`), no per-client behaviour.

use serde_json::{json, Value};

/// The extension's identifier in `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The only content type of the extension's first version; hosts ignore plain `text/html`.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The view's resource URI.
pub const VIEW_URI: &str = "ui://reading-order/view";

/// The view itself: the file as `build.rs` composes it, with the diagram's drawing code
/// (`src/static/diagram.js`) inlined. `tests/e2e/mcp-apps-view.test.mjs` drives it in Chromium
/// inside a test host.
pub fn view_html() -> &'static str {
    include_str!(concat!(env!("OUT_DIR"), "/reading-order.html"))
}

/// Who may call a tool, as `_meta.ui.visibility` says it (hosts enforce it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    /// The model only: hosts refuse calls from the view. Every tool that writes.
    Model,
    /// The model and the view.
    Both,
    /// The view only: hosts keep it out of the model's tool list.
    App,
}

impl Visibility {
    /// `_meta.ui.visibility`'s words.
    fn names(self) -> &'static [&'static str] {
        match self {
            Visibility::Model => &["model"],
            Visibility::Both => &["model", "app"],
            Visibility::App => &["app"],
        }
    }
}

/// The server's entry under `capabilities.extensions` (initialize and `server/discover`).
pub fn capability() -> Value {
    json!({ "mimeTypes": [MIME_TYPE] })
}

/// A tool's `_meta`: the view it is shown in and who may call it. The flat `ui/resourceUri` key is
/// the extension's deprecated spelling, still read by hosts built before it moved into `ui`.
pub fn tool_meta(visibility: Visibility) -> Value {
    json!({
        "ui": { "resourceUri": VIEW_URI, "visibility": visibility.names() },
        "ui/resourceUri": VIEW_URI,
    })
}

/// `_meta.ui` of the resource: no CSP domains (nothing is loaded or fetched from anywhere) and a
/// host border. `domain` is left out on purpose: a wrong one stops some hosts rendering at all.
fn resource_meta() -> Value {
    json!({
        "ui": {
            "csp": { "connectDomains": [], "resourceDomains": [] },
            "prefersBorder": true,
        },
    })
}

/// The view as `resources/list` lists it.
pub fn resource_definition() -> Value {
    json!({
        "uri": VIEW_URI,
        "name": "reading-order-view",
        "title": "LogiKFlow reading order",
        "description": "Interactive view of a pull request's saved reading order and flow \
            diagram, for hosts that render MCP Apps.",
        "mimeType": MIME_TYPE,
        "size": view_html().len(),
        "_meta": resource_meta(),
    })
}

/// The `resources/read` result for the view.
pub fn read_view() -> Value {
    json!({
        "contents": [{
            "uri": VIEW_URI,
            "mimeType": MIME_TYPE,
            "text": view_html(),
            "_meta": resource_meta(),
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_is_one_small_self_contained_document() {
        let html = view_html();
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(
            html.len() < 150_000,
            "{} bytes, over the 150 KB the issue allows",
            html.len()
        );
        // The SVG namespace is a name, not an address; nothing else may look like one.
        let lower = html
            .to_ascii_lowercase()
            .replace("http://www.w3.org/2000/svg", "");
        // Nothing loaded from elsewhere: no external script, style, image, font or frame.
        for needle in [
            "<script src",
            "<link",
            "<iframe",
            "<img",
            "@import",
            "http://",
            "fetch(",
            "xmlhttprequest",
            "websocket",
        ] {
            assert!(!lower.contains(needle), "the view contains {needle:?}");
        }
        // A CSS `url(` only names a fragment of the document itself (the diagram's arrowhead);
        // the script's `new URL(…)` parses links, it loads nothing.
        assert!(lower
            .match_indices("url(")
            .all(|(at, _)| { lower[at..].starts_with("url(#") || lower[..at].ends_with("new ") }));
        // Hostile text is set with textContent; the view never parses markup it was given.
        for needle in [
            "innerhtml",
            "outerhtml",
            "insertadjacenthtml",
            "document.write",
        ] {
            assert!(!lower.contains(needle), "the view uses {needle}");
        }
        // The view never speaks for the user in the conversation.
        assert!(!html.contains("ui/message"));
    }

    /// One copy of the drawing code: the view's source names it, the served view carries it.
    #[test]
    fn the_view_carries_the_shared_drawing_code() {
        let source = include_str!("apps/reading-order.html");
        let drawing = include_str!("../static/diagram.js");
        assert!(source.contains("<script>/*@logikflow/diagram.js*/</script>"));
        assert!(
            !source.contains("document.createElementNS("),
            "drawing code in the view's source"
        );
        let html = view_html();
        assert!(!html.contains("/*@logikflow/diagram.js*/"));
        assert_eq!(html.matches(drawing).count(), 1);
        assert!(html.find(drawing) < html.find("window.LogiKFlowDiagram.draw("));
    }

    #[test]
    fn resource_metadata_is_the_same_when_listed_and_read() {
        let listed = resource_definition();
        let read = read_view();
        assert_eq!(listed["mimeType"], MIME_TYPE);
        assert_eq!(read["contents"][0]["mimeType"], MIME_TYPE);
        assert_eq!(listed["_meta"], read["contents"][0]["_meta"]);
        assert_eq!(read["contents"][0]["_meta"]["ui"]["prefersBorder"], true);
        assert!(read["contents"][0]["_meta"]["ui"].get("domain").is_none());
    }

    #[test]
    fn literals_name_the_constants() {
        assert_eq!(capability()["mimeTypes"][0], MIME_TYPE);
        for visibility in [Visibility::Model, Visibility::Both, Visibility::App] {
            let meta = tool_meta(visibility);
            assert_eq!(meta["ui"]["resourceUri"], VIEW_URI);
            assert_eq!(meta["ui/resourceUri"], VIEW_URI);
            assert_eq!(meta["ui"]["visibility"], json!(visibility.names()));
        }
        assert_eq!(resource_definition()["uri"], VIEW_URI);
        assert_eq!(resource_definition()["mimeType"], MIME_TYPE);
        assert_eq!(read_view()["contents"][0]["uri"], VIEW_URI);
        assert_eq!(read_view()["contents"][0]["text"], view_html());
    }

    #[test]
    fn visibility_names() {
        assert_eq!(
            tool_meta(Visibility::Model)["ui"]["visibility"],
            json!(["model"])
        );
        assert_eq!(
            tool_meta(Visibility::App)["ui"]["visibility"],
            json!(["app"])
        );
        assert_eq!(
            tool_meta(Visibility::Both)["ui"]["visibility"],
            json!(["model", "app"])
        );
        assert_eq!(tool_meta(Visibility::Both)["ui/resourceUri"], VIEW_URI);
    }
}

//! Hands text the wasm doesn't carry from the Worker's JavaScript bundle to the core (wasm only):
//! the MCP Apps view's HTML (`mcp::apps`), the ordering guide, the tools' schemas and
//! the catalog's words for agents (`mcp::catalog`).
//!
//! Why: compiled into the wasm, the view would cost about 12 KB of the 400 KiB gzip budget
//! (DESIGN.md section 7), which is nearly all that was left. `src/mcp/apps/view-asset.mjs`
//! imports the HTML file as text (esbuild's text loader, `tests/scripts/build.sh`), and this
//! module calls it once per wasm instance, before the first MCP request is dispatched.

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(module = "/src/mcp/apps/view-asset.mjs")]
extern "C" {
    #[wasm_bindgen(js_name = viewHtml)]
    fn view_html() -> String;
    #[wasm_bindgen(js_name = guideMarkdown)]
    fn guide_markdown() -> String;
    #[wasm_bindgen(js_name = toolSchemas)]
    fn tool_schemas() -> String;
    #[wasm_bindgen(js_name = catalogTextJson)]
    fn catalog_text() -> String;
}

/// Makes sure `mcp::apps` has the view's HTML.
pub fn install() {
    crate::mcp::apps::install_view(view_html);
    crate::mcp::catalog::install_guide(guide_markdown);
    crate::mcp::catalog::install_schemas(tool_schemas);
    crate::mcp::catalog::install_text(catalog_text);
}

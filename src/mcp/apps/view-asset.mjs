// The MCP Apps view's HTML for the Rust code (src/service/view_asset.rs), kept out of the wasm.
// wasm-bindgen copies this file into the bindings; esbuild (tests/scripts/build.sh) resolves the
// alias below to src/mcp/apps/reading-order.html and inlines it as a string.
import html from '@logikflow/view-html';
import guide from '@logikflow/guide-md';

export function viewHtml() {
  return html;
}

// The ordering guide's Markdown (src/mcp/catalog.rs), kept out of the wasm the same way.
export function guideMarkdown() {
  return guide;
}

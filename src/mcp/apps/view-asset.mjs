// Text the Rust code needs but the wasm doesn't carry (its size budget): the MCP Apps view's
// HTML, the ordering guide's Markdown, the tools' schemas and the catalog's words for agents
// (src/service/view_asset.rs).
// wasm-bindgen copies this file into the bindings; esbuild (tests/scripts/build.sh) resolves the
// aliases below to files of the repository and inlines them as strings.
import html from '@logikflow/view-html';
import guide from '@logikflow/guide-md';
import catalogText from '@logikflow/catalog-text';
import getOrderingGuideInput from '@logikflow/schema/get_ordering_guide.input.json';
import getOrderingGuideOutput from '@logikflow/schema/get_ordering_guide.output.json';
import getPullRequestInput from '@logikflow/schema/get_pull_request.input.json';
import getPullRequestOutput from '@logikflow/schema/get_pull_request.output.json';
import saveReadingOrderInput from '@logikflow/schema/save_reading_order.input.json';
import saveReadingOrderOutput from '@logikflow/schema/save_reading_order.output.json';
import saveDiagramInput from '@logikflow/schema/save_diagram.input.json';
import saveDiagramOutput from '@logikflow/schema/save_diagram.output.json';
import showReadingOrderInput from '@logikflow/schema/show_reading_order.input.json';
import showReadingOrderOutput from '@logikflow/schema/show_reading_order.output.json';
import viewReadingOrderInput from '@logikflow/schema/view_reading_order.input.json';
import viewReadingOrderOutput from '@logikflow/schema/view_reading_order.output.json';
import viewDiagramInput from '@logikflow/schema/view_diagram.input.json';
import viewDiagramOutput from '@logikflow/schema/view_diagram.output.json';
import viewChangeInput from '@logikflow/schema/view_change.input.json';
import viewChangeOutput from '@logikflow/schema/view_change.output.json';

export function viewHtml() {
  return html;
}

// The ordering guide's Markdown (src/mcp/catalog.rs).
export function guideMarkdown() {
  return guide;
}

// Tool titles and descriptions, the server's instructions and the prompt (src/mcp/catalog-text.json).
export function catalogTextJson() {
  return catalogText;
}

// Every tool's schemas as one JSON text, `{"<tool>": {"input": …, "output": …}}`
// (src/mcp/catalog.rs parses it once per instance).
export function toolSchemas() {
  const pair = (input, output) => ({ input: JSON.parse(input), output: JSON.parse(output) });
  return JSON.stringify({
    get_ordering_guide: pair(getOrderingGuideInput, getOrderingGuideOutput),
    get_pull_request: pair(getPullRequestInput, getPullRequestOutput),
    save_reading_order: pair(saveReadingOrderInput, saveReadingOrderOutput),
    save_diagram: pair(saveDiagramInput, saveDiagramOutput),
    show_reading_order: pair(showReadingOrderInput, showReadingOrderOutput),
    view_reading_order: pair(viewReadingOrderInput, viewReadingOrderOutput),
    view_diagram: pair(viewDiagramInput, viewDiagramOutput),
    view_change: pair(viewChangeInput, viewChangeOutput),
  });
}

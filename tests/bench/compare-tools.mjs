// The MCP tools' answers from two builds, side by side (issue #30): every answer of a fixed
// sequence of calls (reads, saves, views, and the refusals and errors among them) compared byte
// for byte, timestamps and the origin aside (a save's time and the stack's port differ between two
// runs). For a change that moves where a tool runs but must not change what it answers.
//
//   node tests/bench/compare-tools.mjs BEFORE_BUILD_DIR AFTER_BUILD_DIR
//
// Each build is served by its own stack (its own GitHub stand-in, so both see the same pull
// requests and start with nothing saved). Exits 1 on the first difference, printing both answers;
// SHOW=1 prints every answer of the second build too.
import { startBuildStack } from './side-worker.mjs';
import { fiftySections } from './cpu.mjs';

const [before, after] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: node tests/bench/compare-tools.mjs BEFORE_BUILD_DIR AFTER_BUILD_DIR');
  process.exit(2);
}

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** The body of every call of the sequence on one build: `[[label, text]]`. */
async function answers(dir, name) {
  const stack = await startBuildStack({ name, dir }, { devtools: false });
  const out = [];
  try {
    let id = 0;
    const send = async (label, tool, args, era = 'modern') => {
      id += 1;
      const modern = era === 'modern';
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream',
        ...(modern ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': tool } : { 'mcp-protocol-version': '2025-06-18' }) };
      const params = { name: tool, arguments: args, ...(modern ? { _meta: meta } : {}) };
      const reply = await fetch(stack.mcpUrl, { method: 'POST', headers, signal: AbortSignal.timeout(180_000),
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }) });
      const text = await reply.text();
      out.push([label, `${reply.status} ${text.replaceAll(stack.baseUrl, 'BASE')}`]);
      try {
        return JSON.parse(text).result?.structuredContent;
      } catch {
        return undefined;
      }
    };
    for (const number of [3, 1]) {
      const pull = { owner: 'logikflow', repo: 'big', number };
      const tag = `#${number}`;
      await send(`${tag} view_reading_order, nothing saved`, 'view_reading_order', pull);
      await send(`${tag} show_reading_order, nothing saved`, 'show_reading_order', pull);
      await send(`${tag} view_diagram, nothing saved`, 'view_diagram', pull);
      await send(`${tag} save_reading_order, bad arguments`, 'save_reading_order', { owner: 'logikflow', number: 'x', sections: 3 });
      await send(`${tag} save_diagram, bad arguments`, 'save_diagram', { ...pull, base_version: 0, diagram: { nodes: 'x' }, extra: 1 });
      await send(`${tag} view_change, bad arguments`, 'view_change', { ...pull, path: 7 });
      await send(`${tag} show_reading_order, bad version`, 'show_reading_order', { ...pull, version: -1 });
      await send(`${tag} save_reading_order, unknown pull request`, 'save_reading_order', { owner: 'logikflow', repo: 'big', number: 999, base_version: 0, sections: [{ title: 'A', files: ['a'] }] });
      await send(`${tag} view_reading_order, unknown pull request`, 'view_reading_order', { owner: 'logikflow', repo: 'nothing', number: 1 });
      const read = await send(`${tag} get_pull_request`, 'get_pull_request', pull);
      const paths = read.files.map((f) => f.path);
      const sections = fiftySections(paths).filter((s) => s.files.length > 0);
      const wrong = structuredClone(sections);
      wrong[0].files[0] = { ...wrong[0].files[0], path: 'not/there.rs' };
      await send(`${tag} save_reading_order, a file not in the pull request`, 'save_reading_order', { ...pull, base_version: 0, sections: wrong });
      await send(`${tag} save_reading_order, files missing`, 'save_reading_order', { ...pull, base_version: 0, sections: sections.slice(0, 1) });
      await send(`${tag} save_reading_order, the first`, 'save_reading_order', { ...pull, base_version: read.baseVersion, overview: 'First.', sections });
      await send(`${tag} save_reading_order`, 'save_reading_order', { ...pull, base_version: 1, overview: 'Second.', sections }, 'legacy');
      await send(`${tag} save_reading_order, stale base`, 'save_reading_order', { ...pull, base_version: 1, overview: 'Stale.', sections });
      for (const tool of ['show_reading_order', 'view_reading_order']) {
        await send(`${tag} ${tool}`, tool, pull);
        await send(`${tag} ${tool} version 1`, tool, { ...pull, version: 1 });
        await send(`${tag} ${tool} version 9`, tool, { ...pull, version: 9 });
      }
      const split = read.files.find((f) => f.changes?.length);
      const plain = read.files.find((f) => f !== split);
      if (split) {
        await send(`${tag} view_change`, 'view_change', { ...pull, path: split.path, change: split.changes[0].id });
        await send(`${tag} view_change, unknown change`, 'view_change', { ...pull, path: split.path, change: 'nope' });
      }
      await send(`${tag} view_change, unknown file`, 'view_change', { ...pull, path: 'not/there.rs', change: 'x' });
      const diagram = {
        title: 'A diagram',
        groups: [{ id: 'server', title: 'Server' }],
        nodes: [
          { id: 'agent', title: 'Agent calls save', kind: 'trigger' },
          { id: 'check', title: 'Validate', kind: 'decision', group: 'server', file: split?.path ?? plain.path, ...(split ? { hunk: split.changes[0].id } : {}) },
          { id: 'store', title: 'Store version', kind: 'data', group: 'server', file: plain.path },
        ],
        edges: [{ from: 'agent', to: 'check', label: 'order' }, { from: 'check', to: 'store', dashed: true }],
      };
      await send(`${tag} save_diagram, a file not in the pull request`, 'save_diagram', { ...pull, base_version: 0, diagram: { ...diagram, nodes: diagram.nodes.map((node) => (node.id === 'store' ? { ...node, file: 'not/there.rs' } : node)) } });
      await send(`${tag} save_diagram`, 'save_diagram', { ...pull, base_version: read.diagramBaseVersion, diagram });
      await send(`${tag} save_diagram, stale base`, 'save_diagram', { ...pull, base_version: 0, diagram });
      await send(`${tag} view_diagram`, 'view_diagram', pull);
      await send(`${tag} show_reading_order after the diagram`, 'show_reading_order', pull);
      await send(`${tag} save_reading_order after the diagram`, 'save_reading_order', { ...pull, base_version: 2, overview: 'Third.', sections });
      await send(`${tag} get_pull_request after the saves`, 'get_pull_request', pull);
      await send(`${tag} get_pull_request with patches`, 'get_pull_request', { ...pull, include_patches: true });
    }
  } finally {
    await stack.stop();
  }
  return out;
}

// ISO times (a save's `savedAt`, a conflict's "saved at"): the one thing two runs differ in.
const normal = (text) => text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, 'TIME');

const a = await answers(before, 'before');
const b = await answers(after, 'after');
let same = 0;
for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
  const [label, left] = a[i] ?? ['(none)', ''];
  const right = b[i]?.[1] ?? '';
  if (normal(left) !== normal(right)) {
    console.error(`DIFFERENT: ${label}\n  before: ${left.slice(0, 1500)}\n  after:  ${right.slice(0, 1500)}`);
    process.exit(1);
  }
  same += 1;
}
if (process.env.SHOW) for (const [label, text] of b) console.log(label, "=>", text.slice(0, 260));
const successes = a.filter(([, text]) => text.includes('"isError":false')).length;
console.log(`${same} answers (${successes} successes, ${same - successes} errors), byte for byte the same (timestamps and origin aside): ${a.map(([label]) => label).join('; ')}`);

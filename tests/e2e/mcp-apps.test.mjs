// The MCP Apps extension (io.modelcontextprotocol/ui) through the real Worker: the capability in
// all three protocol eras, the ui:// view as resources/list and resources/read serve it, `_meta.ui`
// on the tools, the same tool list for clients with and without UI support, and
// show_reading_order plus the view's app-only tools on a real stand-in pull request, each result
// validated against schema/. Issue #18. That every view call reads GitHub as the caller first and
// shows nothing GitHub refuses, and bad arguments naming each field, are tested in process, in
// src/app/pull_request/tools/tests/views.rs (issue #37).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { modernRequest, postMcp, startStack } from './harness.mjs';
import { validateToolInput, validateToolOutput } from './schemas.mjs';

const VIEW = 'ui://reading-order/view';
const MIME = 'text/html;profile=mcp-app';
const UI = 'io.modelcontextprotocol/ui';
const pr = { owner: 'logikflow', repo: 'demo', number: 3 };

let stack;
let client;
before(async () => {
  stack = await startStack();
  client = new Client({ name: 'apps-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
});
after(async () => {
  await client?.close();
  await stack?.stop();
});

/** One request in the given era: `modern` (2026-07-28) or a 2025 version with its header. */
async function inEra(era, method, params = {}, name) {
  if (era === 'modern') {
    const { message, headers } = modernRequest(1, method, params, name);
    return postMcp(stack, message, headers);
  }
  return postMcp(stack, { jsonrpc: '2.0', id: 1, method, params }, { 'mcp-protocol-version': era });
}

/** Calls a tool with the SDK client, checks input and output against schema/ and returns it. */
async function call(name, args) {
  validateToolInput(name, args);
  const result = await client.callTool({ name, arguments: args });
  if (!result.isError) validateToolOutput(name, result.structuredContent);
  return result;
}

describe('protocol', () => {
  test('the extension is declared in all three eras, whatever the client says', async () => {
    const discover = await inEra('modern', 'server/discover');
    assert.equal(discover.status, 200);
    const declared = [discover.body.result.capabilities];
    for (const version of ['2025-11-25', '2025-06-18']) {
      for (const capabilities of [{}, { extensions: { [UI]: { mimeTypes: [MIME] } } }]) {
        const init = await postMcp(stack, {
          jsonrpc: '2.0', id: 1, method: 'initialize',
          params: { protocolVersion: version, capabilities, clientInfo: { name: 'plain', version: '1' } },
        });
        assert.equal(init.status, 200);
        assert.equal(init.body.result.protocolVersion, version);
        declared.push(init.body.result.capabilities);
      }
    }
    for (const capabilities of declared) {
      assert.deepEqual(capabilities.extensions?.[UI], { mimeTypes: [MIME] }, JSON.stringify(capabilities));
      assert.ok(capabilities.resources && capabilities.tools);
    }
  });

  test('the view is listed and read with its mime type and _meta.ui in every era', async () => {
    for (const era of ['modern', '2025-11-25', '2025-06-18']) {
      const listed = await inEra(era, 'resources/list');
      const entry = listed.body.result.resources.find((r) => r.uri === VIEW);
      assert.ok(entry, `${era}: ${JSON.stringify(listed.body)}`);
      assert.equal(entry.mimeType, MIME);
      const read = await inEra(era, 'resources/read', { uri: VIEW }, VIEW);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      const [content] = read.body.result.contents;
      assert.equal(content.uri, VIEW);
      assert.equal(content.mimeType, MIME);
      assert.match(content.text, /^<!DOCTYPE html>/);
      assert.ok(Buffer.byteLength(content.text) < 150_000, `${Buffer.byteLength(content.text)} bytes`);
      assert.equal(entry.size, Buffer.byteLength(content.text));
      assert.equal(content._meta.ui.prefersBorder, true);
      assert.deepEqual(content._meta.ui.csp, { connectDomains: [], resourceDomains: [] });
      assert.equal(content._meta.ui.domain, undefined);
    }
    // The SDK client reads it as any resource.
    const read = await client.readResource({ uri: VIEW });
    assert.equal(read.contents[0].mimeType, MIME);
  });

  test('tools carry the view and who may call them; nothing is hidden from tools/list', async () => {
    const expected = {
      get_ordering_guide: undefined,
      get_pull_request: undefined,
      save_reading_order: ['model'],
      save_diagram: ['model'],
      get_review_feedback: undefined,
      show_reading_order: ['model', 'app'],
      view_reading_order: ['app'],
      view_diagram: ['app'],
      view_change: ['app'],
    };
    const lists = [];
    for (const era of ['2025-11-25', '2025-06-18']) {
      const listed = await inEra(era, 'tools/list');
      lists.push(listed.body.result.tools);
    }
    // A 2026-07-28 client that declares UI support gets the same list as the 2025 eras, which
    // declare capabilities only at initialize (issue #30).
    const { message, headers } = modernRequest(1, 'tools/list');
    message.params._meta['io.modelcontextprotocol/clientCapabilities'] = { extensions: { [UI]: { mimeTypes: [MIME] } } };
    const withUi = await postMcp(stack, message, headers);
    assert.deepEqual(withUi.body.result.tools, lists[0]);
    lists.push(withUi.body.result.tools);
    // One that doesn't declare it is not offered the view's own tools; the others are the same.
    const plain = (await inEra('modern', 'tools/list')).body.result.tools;
    assert.deepEqual(plain, lists[0].filter((tool) => !expected[tool.name]?.every((who) => who === 'app')));
    assert.deepEqual(plain.map((t) => t.name), ['get_ordering_guide', 'get_pull_request', 'save_reading_order', 'save_diagram', 'get_review_feedback', 'show_reading_order']);
    for (const tools of lists) {
      assert.deepEqual(tools.map((t) => t.name), Object.keys(expected));
      for (const tool of tools) {
        const visibility = expected[tool.name];
        if (!visibility) {
          assert.equal(tool._meta, undefined, tool.name);
          continue;
        }
        assert.equal(tool._meta.ui.resourceUri, VIEW, tool.name);
        assert.deepEqual(tool._meta.ui.visibility, visibility, tool.name);
        assert.equal(tool._meta['ui/resourceUri'], VIEW, tool.name);
        // Whatever the view may call only reads.
        if (visibility.includes('app')) assert.equal(tool.annotations.readOnlyHint, true, tool.name);
        else assert.equal(tool.annotations.readOnlyHint, false, tool.name);
      }
    }
  });
});

describe('show_reading_order and the view tools on logikflow/demo#3', () => {
  let files;
  let saved;
  let split;

  before(async () => {
    const read = await call('get_pull_request', pr);
    files = read.structuredContent.files;
    split = files.find((f) => f.changes && f.changes.length >= 2);
    const [first, ...rest] = split.changes;
    const order = {
      ...pr,
      base_version: read.structuredContent.baseVersion,
      overview: 'Read the `order` rules first.',
      sections: [
        {
          title: 'Rules', layer: 'logic', note: '<script>window.pwned = 1</script> stays text.',
          checks: ['Ids are stable'],
          files: [{ path: split.path, hunks: [first.id], focus: 'key', note: 'The first change.' }],
        },
        {
          title: 'Everything else', layer: 'tooling',
          files: [
            { path: split.path, hunks: rest.map((c) => c.id) },
            ...files.filter((f) => f.path !== split.path).map((f) => ({ path: f.path })),
          ],
        },
      ],
    };
    const result = await call('save_reading_order', order);
    assert.equal(result.isError, false, result.content[0].text);
    saved = result.structuredContent;
    const diagram = await call('save_diagram', {
      ...pr,
      base_version: read.structuredContent.diagramBaseVersion,
      diagram: {
        title: 'How <b>an order</b> is read',
        groups: [{ id: 'server', title: 'Server' }],
        nodes: [
          { id: 'agent', title: 'Agent saves', kind: 'trigger', lines: [{ label: 'example', text: 'save_reading_order' }] },
          { id: 'rules', title: 'Check the rules', kind: 'decision', group: 'server', file: split.path, hunk: first.id },
        ],
        edges: [{ from: 'agent', to: 'rules', label: 'order', dashed: true }],
      },
    });
    assert.equal(diagram.isError, false, diagram.content[0].text);
  });

  test('save results keep their full text with the review link', async () => {
    assert.equal(saved.saved, true);
    assert.match(saved.reviewUrl, /\/r\/logikflow\/demo\/pull\/3$/);
  });

  test('show_reading_order: a small summary for the model, the full link in the text', async () => {
    const result = await call('show_reading_order', pr);
    assert.equal(result.isError, false, result.content[0].text);
    const shown = result.structuredContent;
    assert.equal(shown.version, saved.version);
    assert.equal(shown.latestVersion, saved.version);
    assert.equal(shown.reviewUrl, saved.reviewUrl);
    assert.equal(shown.sections, 2);
    assert.equal(shown.files, files.length);
    assert.ok(shown.diagramVersion >= 1);
    assert.match(result.content[0].text, /\/r\/logikflow\/demo\/pull\/3/);
    // Notes are not copied into the model's context.
    assert.doesNotMatch(result.content[0].text, /pwned/);
  });

  test('show_reading_order: an earlier version, a missing one, and a pull request without an order', async () => {
    if (saved.version > 1) {
      const earlier = await call('show_reading_order', { ...pr, version: 1 });
      assert.equal(earlier.structuredContent.version, 1);
      assert.match(earlier.structuredContent.reviewUrl, /\?version=1$/);
    }
    const missing = await client.callTool({ name: 'show_reading_order', arguments: { ...pr, version: saved.version + 5 } });
    assert.equal(missing.isError, true);
    assert.match(missing.content[0].text, new RegExp(`has no reading order version ${saved.version + 5}`));
    const none = await client.callTool({ name: 'show_reading_order', arguments: { owner: 'logikflow', repo: 'big', number: 3 } });
    assert.equal(none.isError, true);
    assert.match(none.content[0].text, /^No reading order is saved for logikflow\/big#3 yet/);
  });

  test('view_reading_order: the order as saved, hostile text as data, every file with its facts', async () => {
    const result = await call('view_reading_order', pr);
    assert.equal(result.isError, false, result.content[0].text);
    const view = result.structuredContent;
    assert.equal(view.version, saved.version);
    assert.equal(view.reviewUrl, saved.reviewUrl);
    assert.equal(view.order.overview, 'Read the `order` rules first.');
    assert.equal(view.order.sections[0].note, '<script>window.pwned = 1</script> stays text.');
    assert.equal(view.order.sections[0].layer, 'logic');
    assert.deepEqual(view.order.sections[0].checks, ['Ids are stable']);
    assert.deepEqual(view.order.sections[0].files[0].hunks, [split.changes[0].id]);
    assert.equal(view.order.checklist, undefined);
    assert.deepEqual(view.files.map((f) => f.path), files.map((f) => f.path));
    const facts = view.files.find((f) => f.path === split.path);
    assert.deepEqual(facts.changes.map((c) => c.id), split.changes.map((c) => c.id));
    assert.equal(facts.diff, true);
    const binary = view.files.find((f) => f.path === 'docs/images/review-order.png');
    assert.equal(binary.diff, false);
    assert.deepEqual(binary.changes, []);
  });

  test('view_diagram: the layout as numbers and strings, never markup', async () => {
    const result = await call('view_diagram', pr);
    assert.equal(result.isError, false, result.content[0].text);
    const { layout } = result.structuredContent;
    assert.equal(layout.title, 'How <b>an order</b> is read');
    assert.equal(layout.nodes.length, 2);
    assert.equal(layout.nodes.find((n) => n.id === 'rules').file, split.path);
    assert.ok(layout.edges[0].points.length >= 2);
    assert.doesNotMatch(JSON.stringify(result.structuredContent), /<svg|<path/);
    const none = await call('view_diagram', { owner: 'logikflow', repo: 'big', number: 3 });
    assert.equal(none.structuredContent.version, 0);
    assert.equal(none.structuredContent.layout, null);
  });

  test('view_change: one change at a time, numbered, with clear refusals', async () => {
    const change = split.changes[1];
    const result = await call('view_change', { ...pr, path: split.path, change: change.id });
    assert.equal(result.isError, false, result.content[0].text);
    const page = result.structuredContent;
    assert.equal(page.change, change.id);
    assert.equal(page.index, 2);
    assert.equal(page.changes, split.changes.length);
    assert.equal(page.lines.filter((l) => l.startsWith('+')).length, change.additions);
    assert.equal(page.lines.filter((l) => l.startsWith('-')).length, change.deletions);
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(page.header);
    assert.deepEqual([page.oldStart, page.newStart], [Number(header[1]), Number(header[2])]);
    const unknown = await client.callTool({ name: 'view_change', arguments: { ...pr, path: split.path, change: 'hnope' } });
    assert.equal(unknown.isError, true);
    assert.match(unknown.content[0].text, /has no change hnope/);
    const binary = await client.callTool({ name: 'view_change', arguments: { ...pr, path: 'docs/images/review-order.png' } });
    assert.equal(binary.isError, true);
    assert.match(binary.content[0].text, /^GitHub gives no diff for docs\/images\/review-order.png/);
    const beyond = await client.callTool({ name: 'view_change', arguments: { ...pr, path: split.path, change: change.id, page: 99 } });
    assert.equal(beyond.isError, true);
    assert.match(beyond.content[0].text, /page 99 does not exist/);
  });
});

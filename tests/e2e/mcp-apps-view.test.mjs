// The MCP Apps view (ui://reading-order/view) in headless Chromium, inside a test page that plays
// the host: it loads the HTML the real server serves into a sandboxed iframe under the extension's
// default CSP, speaks JSON-RPC over postMessage (ui/initialize, tool input and result
// notifications, display mode, links), and answers the view's tools/call through the real Worker
// with the MCP SDK client, refusing, as a host must, any tool whose _meta.ui.visibility lacks
// "app". It checks a saved order and diagram of a stand-in pull request render, that hostile
// text stays text, that nothing leaves the frame over the network, light and dark themes, and
// takes screenshots into tests/artifacts/screenshots/. A last test runs the view inside the
// ext-apps project's own host library (AppBridge, npm @modelcontextprotocol/ext-apps 2.0.4),
// which validates every message against the extension's schemas. Issue #18. The last test
// shows each section's open review threads (issue #38) after the stand-in's review demo, counted
// as get_review_feedback places them, in both themes with axe-core, and the order without them
// when GitHub's read fails.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createRequire } from 'node:module';
import { launchChromium, root, standinControl, startStack } from './harness.mjs';
import { validateToolOutput } from './schemas.mjs';

const require = createRequire(import.meta.url);
const shots = join(root, 'tests/artifacts/screenshots');
const VIEW = 'ui://reading-order/view';
const HOST = 'https://host.test/';
const pr = { owner: 'logikflow', repo: 'demo', number: 3 };
const HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> is only text';

let stack;
let client;
let browser;
let html;
let tools;
let saveOrder;
let saveOrderResult;
let saveDiagramArgs;
let saveDiagramResult;
let split;

// The host page: everything a host does for one view, in a few lines. The view's HTML arrives
// through window.__start; tools/call goes to window.callServer (the test's MCP client).
const HOST_PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>test host</title>
<style>body{margin:0;font-family:sans-serif}iframe{border:1px solid #ccc;width:760px;height:200px;display:block}</style></head>
<body><iframe id="view" sandbox="allow-scripts"></iframe><script>
'use strict';
window.__log = [];
window.__links = [];
window.__sizes = [];
window.__refused = [];
let setup;
let mode = 'inline';
const frame = document.getElementById('view');
function send(message) { frame.contentWindow.postMessage(message, '*'); }
window.__start = (options) => {
  setup = options;
  frame.srcdoc = options.html;
};
window.__sendContext = (context) => send({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: context });
window.addEventListener('message', async (event) => {
  if (event.source !== frame.contentWindow) return;
  const message = event.data;
  window.__log.push(message);
  const answer = (result) => send({ jsonrpc: '2.0', id: message.id, result });
  const refuse = (code, text) => send({ jsonrpc: '2.0', id: message.id, error: { code, message: text } });
  switch (message.method) {
    case 'ui/initialize':
      return answer({
        protocolVersion: '2026-01-26',
        hostInfo: { name: 'logikflow-test-host', version: '1.0.0' },
        hostCapabilities: { openLinks: {}, serverTools: {}, serverResources: {} },
        hostContext: {
          theme: setup.theme,
          styles: { variables: setup.variables },
          displayMode: mode,
          availableDisplayModes: ['inline', 'fullscreen'],
          containerDimensions: { width: 760, maxHeight: 8000 },
          locale: 'en-GB',
        },
      });
    case 'ui/notifications/initialized':
      send({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: setup.toolInput } });
      send({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: setup.toolResult });
      return;
    case 'tools/call': {
      const tool = setup.tools.find((t) => t.name === message.params.name);
      const visibility = tool && tool._meta && tool._meta.ui && tool._meta.ui.visibility;
      // A host MUST reject app calls to tools whose visibility lacks "app" (SEP-1865).
      if (!tool || (Array.isArray(visibility) && !visibility.includes('app'))) {
        window.__refused.push(message.params.name);
        return refuse(-32000, 'Tool not available to apps: ' + message.params.name);
      }
      return answer(await window.callServer(message.params.name, message.params.arguments || {}));
    }
    case 'ui/open-link':
      window.__links.push(message.params.url);
      return answer({});
    case 'ui/request-display-mode':
      mode = message.params.mode;
      answer({ mode });
      return window.__sendContext({ displayMode: mode });
    case 'ui/notifications/size-changed':
      window.__sizes.push(message.params);
      if (message.params.height > 0) frame.style.height = message.params.height + 'px';
      return;
    default:
      if (message.id !== undefined) refuse(-32601, 'Method not found');
  }
});
</script></body></html>`;

// The extension's default CSP for a view without declared domains (SEP-1865, "Host Behavior"):
// the srcdoc frame inherits it from the host page.
const DEFAULT_CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

before(async () => {
  mkdirSync(shots, { recursive: true });
  stack = await startStack();
  client = new Client({ name: 'apps-view-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
  browser = await launchChromium();
  html = (await client.readResource({ uri: VIEW })).contents[0].text;
  tools = (await client.listTools()).tools;

  const read = (await client.callTool({ name: 'get_pull_request', arguments: pr })).structuredContent;
  split = read.files.find((f) => f.changes && f.changes.length >= 2);
  const others = read.files.filter((f) => f.path !== split.path);
  saveOrder = {
    ...pr,
    base_version: read.baseVersion,
    overview: 'Start with the `order` rules, then the graph.',
    sections: [
      {
        title: 'Rules <b>first</b>', layer: 'logic', note: HOSTILE, checks: ['Ids stay stable across pushes'],
        files: [{ path: split.path, hunks: [split.changes[0].id], focus: 'key', note: 'Read the `first` change slowly.' }],
      },
      {
        title: 'Everything else', layer: 'tooling',
        files: [{ path: split.path, hunks: split.changes.slice(1).map((c) => c.id) }, ...others.map((f) => ({ path: f.path, ...(f.likelyGenerated ? { focus: 'generated' } : {}) }))],
      },
    ],
  };
  saveOrderResult = await client.callTool({ name: 'save_reading_order', arguments: saveOrder });
  assert.equal(saveOrderResult.isError, false, saveOrderResult.content[0].text);
  saveDiagramArgs = {
    ...pr,
    base_version: read.diagramBaseVersion,
    diagram: {
      title: 'How an order <i>is</i> read',
      groups: [{ id: 'core', title: 'Core' }],
      nodes: [
        { id: 'agent', title: 'Agent saves an order', kind: 'trigger', lines: [{ label: 'tool', text: 'save_reading_order' }] },
        { id: 'rules', title: HOSTILE.slice(0, 60), kind: 'decision', group: 'core', file: split.path, hunk: split.changes[0].id },
        { id: 'store', title: 'Store the version', kind: 'data', group: 'core', file: others[0].path },
      ],
      edges: [
        { from: 'agent', to: 'rules', label: 'order' },
        { from: 'rules', to: 'store', label: 'valid', dashed: true },
      ],
    },
  };
  saveDiagramResult = await client.callTool({ name: 'save_diagram', arguments: saveDiagramArgs });
  assert.equal(saveDiagramResult.isError, false, saveDiagramResult.content[0].text);
});
after(async () => {
  await browser?.close();
  await client?.close();
  await stack?.stop();
});

/** Opens the test host with the view and a tool call's input and result; resolves to handles. */
async function openHost({ theme, variables = {}, toolInput, toolResult, width = 820 }) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const requests = [];
  const serverCalls = [];
  page.on('request', (request) => requests.push(request.url()));
  await context.route('**/*', (route) => {
    if (route.request().url() === HOST) {
      return route.fulfill({ status: 200, contentType: 'text/html', headers: { 'content-security-policy': DEFAULT_CSP }, body: HOST_PAGE });
    }
    return route.abort();
  });
  await page.exposeFunction('callServer', async (name, args) => {
    serverCalls.push(name);
    const result = await client.callTool({ name, arguments: args });
    if (!result.isError) validateToolOutput(name, result.structuredContent);
    return result;
  });
  await page.goto(HOST);
  await page.evaluate((options) => window.__start(options), { html, theme, variables, toolInput, toolResult, tools });
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  return { context, page, frame, requests, serverCalls };
}

test('a saved order renders in light theme: sections, files, hostile text as text, changes on demand', async () => {
  const show = await client.callTool({ name: 'show_reading_order', arguments: pr });
  const { context, page, frame, requests, serverCalls } = await openHost({ theme: 'light', toolInput: pr, toolResult: show });
  try {
    await frame.waitForSelector('.section');
    const titles = await frame.$$eval('.section h2', (nodes) => nodes.map((n) => n.textContent));
    assert.match(titles[0], /^1Rules <b>first<\/b>logic$/);
    assert.match(titles[1], /^2Everything else/);
    // The note is shown character for character, and nothing in it ran or became an element.
    const notes = await frame.$$eval('.section .note', (nodes) => nodes.map((n) => n.textContent));
    assert.ok(notes.includes(HOSTILE), JSON.stringify(notes));
    assert.equal(await frame.evaluate(() => window.__pwned), undefined);
    assert.equal(await frame.$$eval('img', (n) => n.length), 0);
    // The view's own two: the shared drawing code (src/static/diagram.js) and the view's script.
    assert.equal(await frame.$$eval('script', (n) => n.length), 2);
    // Backticks become code, as on the review page.
    assert.deepEqual(await frame.$$eval('.overview code', (n) => n.map((c) => c.textContent)), ['order']);
    // Every file the order places, the split file in two parts, and its key focus.
    const entries = await frame.$$eval('.section .file', (nodes) => nodes.map((n) => n.dataset.path));
    assert.equal(entries.length, saveOrder.sections.reduce((n, s) => n + s.files.length, 0));
    const parts = await frame.$$eval(`.file[data-path="${split.path}"] .badge`, (n) => n.map((b) => b.textContent));
    assert.ok(parts.includes('part 1 of 2') && parts.includes('key'), JSON.stringify(parts));
    assert.equal(await frame.$$eval('.checks input', (n) => n.every((box) => box.disabled)), true);
    await page.screenshot({ path: join(shots, 'mcp-app-order-light.png'), fullPage: true });

    // Open the split file's second change: its lines come from view_change.
    const second = split.changes[1];
    await frame.click(`.change[data-change="${second.id}"] > button`);
    await frame.waitForSelector(`.change[data-change="${second.id}"] .diff .l`);
    const kinds = await frame.$$eval(`.change[data-change="${second.id}"] .diff .l`, (n) => n.map((l) => l.classList[1]));
    assert.equal(kinds.filter((k) => k === 'add').length, second.additions);
    assert.equal(kinds.filter((k) => k === 'del').length, second.deletions);
    assert.ok(serverCalls.includes('view_change'));
    await page.screenshot({ path: join(shots, 'mcp-app-change-light.png'), fullPage: true });

    // Links go through the host, and only to the review page or GitHub.
    await frame.click('text=Open review page');
    await frame.click('text=GitHub');
    await page.waitForFunction(() => window.__links.length === 2);
    assert.deepEqual(await page.evaluate(() => window.__links), [saveOrderResult.structuredContent.reviewUrl, 'https://github.com/logikflow/demo/pull/3']);

    // Auto-resize: the view reported its size and the host followed.
    const sizes = await page.evaluate(() => window.__sizes);
    assert.ok(sizes.length > 0 && sizes.at(-1).height > 300, JSON.stringify(sizes));

    // Fullscreen when the host offers it.
    await frame.click('text=Full screen');
    await frame.waitForSelector('text=Exit full screen');

    // The view never speaks into the conversation and calls only app tools.
    const methods = await page.evaluate(() => window.__log.map((m) => m.method).filter(Boolean));
    assert.ok(!methods.includes('ui/message'));
    assert.ok(methods.includes('ui/initialize') && methods.includes('ui/notifications/initialized'));
    assert.deepEqual([...new Set(serverCalls)].sort(), ['view_change', 'view_reading_order']);
    assert.deepEqual(requests, [HOST], 'nothing but the host page was requested');
  } finally {
    await context.close();
  }
});

test('a write tool called from the view is refused by the host, and nothing is saved', async () => {
  const show = await client.callTool({ name: 'show_reading_order', arguments: pr });
  const { context, page, frame, serverCalls } = await openHost({ theme: 'light', toolInput: pr, toolResult: show });
  try {
    await frame.waitForSelector('.section');
    const before = (await client.callTool({ name: 'show_reading_order', arguments: pr })).structuredContent.version;
    // A compromised view posting a save: the write tools' visibility is ["model"].
    await frame.evaluate((args) => window.parent.postMessage({ jsonrpc: '2.0', id: 9001, method: 'tools/call', params: { name: 'save_reading_order', arguments: args } }, '*'),
      { ...saveOrder, base_version: before });
    await page.waitForFunction(() => window.__refused.length === 1);
    assert.deepEqual(await page.evaluate(() => window.__refused), ['save_reading_order']);
    assert.ok(!serverCalls.includes('save_reading_order'));
    const after = (await client.callTool({ name: 'show_reading_order', arguments: pr })).structuredContent.version;
    assert.equal(after, before);
  } finally {
    await context.close();
  }
});

test('dark theme with host variables; a diagram save opens on the Diagram tab, drawn with DOM nodes', async () => {
  const variables = { '--color-background-primary': 'rgb(30, 30, 30)', '--color-text-primary': 'rgb(235, 235, 235)', '--font-sans': 'monospace' };
  const { context, page, frame, requests, serverCalls } = await openHost({ theme: 'dark', variables, toolInput: saveDiagramArgs, toolResult: saveDiagramResult });
  try {
    await frame.waitForSelector('svg .node');
    assert.equal(await frame.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.equal(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(30, 30, 30)');
    assert.equal(await frame.evaluate(() => getComputedStyle(document.body).color), 'rgb(235, 235, 235)');
    const nodes = await frame.$$eval('svg .node', (n) => n.map((g) => g.dataset.node));
    assert.deepEqual(nodes.sort(), saveDiagramArgs.diagram.nodes.map((n) => n.id).sort());
    // Hostile titles are SVG text, not elements.
    const titles = await frame.$$eval('svg .node title', (n) => n.map((t) => t.textContent));
    assert.ok(titles.some((t) => t.startsWith(HOSTILE.slice(0, 60))), JSON.stringify(titles));
    assert.equal(await frame.$$eval('svg script, svg foreignObject, svg image', (n) => n.length), 0);
    assert.equal(await frame.evaluate(() => window.__pwned), undefined);
    assert.equal(await frame.$$eval('svg .edge', (n) => n.length), 2);
    assert.ok((await frame.$$eval('svg .edge-label text', (n) => n.map((t) => t.textContent))).includes('order'));
    await page.screenshot({ path: join(shots, 'mcp-app-diagram-dark.png'), fullPage: true });

    // A node tied to a file opens it in the reading order.
    await frame.click('svg .node[data-node="rules"]');
    await frame.waitForSelector('.file.focused');
    assert.equal(await frame.$eval('.file.focused', (n) => n.dataset.path), split.path);
    await page.screenshot({ path: join(shots, 'mcp-app-order-dark.png'), fullPage: true });

    // The host switches to light: the view follows without reloading.
    await page.evaluate(() => window.__sendContext({ theme: 'light', styles: { variables: { '--color-background-primary': 'rgb(250, 250, 250)' } } }));
    await frame.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    assert.equal(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(250, 250, 250)');
    assert.deepEqual([...new Set(serverCalls)].sort(), ['view_diagram', 'view_reading_order']);
    assert.deepEqual(requests, [HOST], 'nothing but the host page was requested');
  } finally {
    await context.close();
  }
});

test('without host variables the view falls back to its own palette; a tool error is shown as text', async () => {
  const missing = await client.callTool({ name: 'show_reading_order', arguments: { owner: 'logikflow', repo: 'big', number: 3 } });
  assert.equal(missing.isError, true);
  const { context, page, frame } = await openHost({ theme: 'dark', toolInput: { owner: 'logikflow', repo: 'big', number: 3 }, toolResult: missing, width: 420 });
  try {
    await frame.waitForSelector('.error');
    assert.match(await frame.$eval('.error', (n) => n.textContent), /^No reading order is saved for logikflow\/big#3 yet/);
    assert.equal(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(21, 23, 27)');
    await page.screenshot({ path: join(shots, 'mcp-app-error-dark-narrow.png'), fullPage: true });
  } finally {
    await context.close();
  }
});

test('a diagram saved before any order: the Diagram tab draws it, the order tab says why it is empty', async () => {
  const target = { owner: 'logikflow', repo: 'big', number: 1 };
  const args = { ...target, base_version: 0, diagram: { nodes: [{ id: 'a', title: 'Queue client', kind: 'external' }, { id: 'b', title: 'Services', kind: 'config' }], edges: [{ from: 'a', to: 'b' }] } };
  const saved = await client.callTool({ name: 'save_diagram', arguments: args });
  assert.equal(saved.isError, false, saved.content[0].text);
  const { context, frame } = await openHost({ theme: 'light', toolInput: args, toolResult: saved });
  try {
    await frame.waitForSelector('svg .node');
    assert.equal(await frame.$$eval('svg .node', (n) => n.length), 2);
    await frame.click('[data-tab="order"]');
    await frame.waitForSelector('.empty.error');
    assert.match(await frame.$eval('.empty.error', (n) => n.textContent), /^No reading order is saved for logikflow\/big#1 yet/);
  } finally {
    await context.close();
  }
});

test('the ext-apps reference AppBridge hosts the view: order, a change, the diagram, a link, full screen', async () => {
  // The reference host library, bundled for the browser (it validates messages with zod).
  const bundle = execFileSync(join(root, 'node_modules/@esbuild/linux-x64/bin/esbuild'),
    [join(root, 'tests/e2e/apps-host/reference-host.mjs'), '--bundle', '--format=iife', '--log-level=warning'],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 }).toString();
  const page = `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<iframe id="view" sandbox="allow-scripts" style="width:760px;height:300px;border:1px solid #ccc"></iframe>
<script>${bundle.replace(/<\/script/gi, '<\\/script')}</script></body></html>`;
  const context = await browser.newContext({ viewport: { width: 820, height: 900 } });
  const tab = await context.newPage();
  const requests = [];
  const errors = [];
  tab.on('request', (request) => requests.push(request.url()));
  tab.on('pageerror', (error) => errors.push(String(error)));
  await context.route('**/*', (route) => route.request().url() === HOST
    ? route.fulfill({ status: 200, contentType: 'text/html', headers: { 'content-security-policy': DEFAULT_CSP }, body: page })
    : route.abort());
  await tab.exposeFunction('callServer', async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    if (!result.isError) validateToolOutput(name, result.structuredContent);
    return result;
  });
  try {
    await tab.goto(HOST);
    await tab.evaluate((options) => window.__start(options), { html, theme: 'light', toolInput: saveOrder, toolResult: saveOrderResult });
    const frame = await (await tab.waitForSelector('iframe')).contentFrame();
    await frame.waitForSelector('.section');
    assert.equal(await frame.$$eval('.section .file', (n) => n.length), saveOrder.sections.reduce((n, s) => n + s.files.length, 0));
    assert.equal(await frame.evaluate(() => window.__pwned), undefined);
    await frame.click(`.change[data-change="${split.changes[0].id}"] > button`);
    await frame.waitForSelector('.diff .l');
    await frame.click('[data-tab="diagram"]');
    await frame.waitForSelector('svg .node');
    await frame.click('text=Open review page');
    await frame.click('text=Full screen');
    await tab.waitForFunction(() => window.__links.length === 1 && window.__log.includes('display fullscreen'));
    await frame.waitForSelector('text=Exit full screen');
    await tab.screenshot({ path: join(shots, 'mcp-app-reference-bridge.png'), fullPage: true });
    assert.deepEqual(await tab.evaluate(() => window.__links), [saveOrderResult.structuredContent.reviewUrl]);
    assert.deepEqual(await tab.evaluate(() => window.__log), ['initialized', 'tools/call view_reading_order', 'tools/call view_change', 'tools/call view_diagram', 'display fullscreen']);
    assert.ok((await tab.evaluate(() => window.__sizes)).length > 0);
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, [HOST], 'nothing but the host page was requested');
  } finally {
    await context.close();
  }
});

/** axe-core inside the view's frame (inline, as its CSP allows): serious or critical violations. */
async function axeViolations(frame) {
  await frame.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return frame.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.nodes.map((n) => n.target).join(' '));
  });
}

test('each section shows its open review threads, in both themes; without GitHub the order shows alone', async () => {
  // A reviewer leaves two line comments on the order's files (the stand-in's review demo).
  const demo = await standinControl(stack, 'POST', 'reviews/demo', { repo: `${pr.owner}/${pr.repo}`, number: pr.number, reviewer: 'octo' });
  assert.equal(demo.comments.length, 2, JSON.stringify(demo));
  // The feedback tool places threads in sections; the view's counts are the same placement.
  const feedback = (await client.callTool({ name: 'get_review_feedback', arguments: pr })).structuredContent;
  const expected = saveOrder.sections.map((_, i) => feedback.threads.filter((t) => t.section && t.section.index === i + 1));
  assert.ok(expected.flat().length >= 2, JSON.stringify(feedback.threads.map((t) => [t.path, t.section])));
  const data = (await client.callTool({ name: 'view_reading_order', arguments: pr })).structuredContent;
  validateToolOutput('view_reading_order', data);
  assert.equal(data.reviewThreads.read, true);
  assert.deepEqual(data.reviewThreads.sections.map((s) => s.open), expected.map((t) => t.length));
  assert.deepEqual(data.reviewThreads.sections.map((s) => s.threads.map((t) => t.url)), expected.map((t) => t.map((x) => x.url)));
  assert.equal(data.reviewThreads.elsewhere, feedback.threads.filter((t) => !t.section).length);
  const words = (n) => (n ? `${n} open thread${n === 1 ? '' : 's'}` : '');

  for (const theme of ['light', 'dark']) {
    const show = await client.callTool({ name: 'show_reading_order', arguments: pr });
    const { context, page, frame, requests } = await openHost({ theme, toolInput: pr, toolResult: show });
    try {
      await frame.waitForSelector('.section .badge.threads');
      const badges = await frame.$$eval('.section', (nodes) => nodes.map((n) => n.querySelector('.badge.threads')?.textContent ?? ''));
      assert.deepEqual(badges.slice(0, expected.length), expected.map((t) => words(t.length)));
      // The count lists the section's threads: first line, author, where; each opens on GitHub.
      const first = expected.findIndex((t) => t.length > 0);
      const badge = frame.locator(`.section[data-section="${first + 1}"] .badge.threads`);
      assert.equal(await badge.getAttribute('aria-expanded'), 'false');
      await badge.click();
      await frame.waitForSelector(`.section[data-section="${first + 1}"] .thread-list li`);
      assert.equal(await badge.getAttribute('aria-expanded'), 'true');
      const items = await frame.$$eval(`.section[data-section="${first + 1}"] .thread-list li`, (n) => n.map((li) => li.textContent));
      assert.equal(items.length, expected[first].length);
      const thread = data.reviewThreads.sections[first].threads[0];
      assert.ok(items[0].startsWith(thread.firstLine || 'Comment') && items[0].includes(thread.author), items[0]);
      await frame.click(`.section[data-section="${first + 1}"] .thread-link`);
      await page.waitForFunction(() => window.__links.length === 1);
      assert.deepEqual(await page.evaluate(() => window.__links), [thread.url]);
      assert.match(thread.url, /^https:\/\/github\.com\//);
      assert.equal(await frame.evaluate(() => window.__pwned), undefined);
      await page.screenshot({ path: join(shots, `mcp-app-threads-${theme}.png`), fullPage: true });
      assert.deepEqual(await axeViolations(frame), [], `axe-core in the ${theme} theme`);
      assert.deepEqual(requests, [HOST], 'nothing but the host page was requested');
    } finally {
      await context.close();
    }
  }

  // GitHub's GraphQL read fails (every try): the order still shows, without counts, and says so.
  await standinControl(stack, 'POST', 'faults', { path: '/graphql', method: 'POST', kind: 'status', status: 502, times: 0 });
  try {
    const unread = await client.callTool({ name: 'view_reading_order', arguments: pr });
    assert.equal(unread.isError, false, unread.content?.[0]?.text);
    validateToolOutput('view_reading_order', unread.structuredContent);
    assert.deepEqual(unread.structuredContent.reviewThreads, { read: false, sections: [], elsewhere: 0, truncated: false });
    assert.deepEqual(unread.structuredContent.order, data.order);
    const show = await client.callTool({ name: 'show_reading_order', arguments: pr });
    const { context, page, frame } = await openHost({ theme: 'light', toolInput: pr, toolResult: show });
    try {
      await frame.waitForSelector('.section');
      assert.equal(await frame.$$eval('.badge.threads', (n) => n.length), 0);
      assert.match(await frame.$eval('.threads-note', (n) => n.textContent), /could not be read just now; the order is shown without them/);
      assert.equal(await frame.$$eval('.section', (n) => n.length), saveOrder.sections.length);
      await page.screenshot({ path: join(shots, 'mcp-app-threads-unread.png'), fullPage: true });
    } finally {
      await context.close();
    }
  } finally {
    await standinControl(stack, 'DELETE', 'faults');
  }
});

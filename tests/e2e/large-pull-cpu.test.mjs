// The CPU-time guard of the large pull request (issue #30): every Worker invocation a reviewer or
// an agent makes on a 3,000-file pull request (logikflow/big#2) stays within the Free plan's
// 10 ms, measured as the Worker's own CPU time with its Durable Objects' left out
// (tests/e2e/cpu-guard.mjs says why it is measured and not enforced by local workerd).
//
// Routes: the review page's first view after a push, a cached view, its first, a middle and the
// last window of entries, a diff loaded on demand, a tick, the arrange editor's save,
// get_pull_request's first and repeat read, and the agent's other tools (save_reading_order, show_reading_order, view_reading_order,
// view_change, view_diagram, save_diagram). Each is the median of three measurements of one request, so a slow spell on a
// shared machine has to hit two of three to count; the profile counts only the isolate's own time,
// so other load on the machine does not add to it.
//
// A route known to be over the limit on this build is a `todo` subtest: it runs and reports its
// figure, and fails the run only once it is taken off KNOWN_OVER (when the work that fixes it has
// landed, and then for good).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fiftySections } from '../bench/cpu.mjs';
import { startBuildStack } from '../bench/side-worker.mjs';
import { buildNamed, pageParts, workerCpu } from './cpu-guard.mjs';
import { standinControl } from './harness.mjs';

const LIMIT_MS = 10;
const RUNS = 3;
/**
 * Routes over the limit on this build, and the work that brings them under it (issue #30): a
 * route named here is a `todo`. None now. Before the reviewer routes ran in the pull request's
 * object (main of 2026-12-04, Worker ms, median of 3) the guard failed the first view after a push
 * (54.5), a cached view (23.0), every window (16.7–19.9) and a tick (15.3), and a diff on demand
 * was at 7.4 (a run of 10.6); after it, all of them are 0.8–3.3, get_pull_request 3.2–4.3.
 * Before the other tools ran there too (main of 2026-12-04, routes bench, 3,000 files):
 * save_reading_order 18.7, view_reading_order 16.2, show_reading_order 10.5, view_diagram 10.4,
 * view_change 8.9, save_diagram 5.5.
 */
const KNOWN_OVER = new Map();

const number = 2; // logikflow/big#2: 3,000 files listed
let stack;
let page;
let cookie = '';
let parts;
let sections;
let orderVersion;
let diagramVersion;
let diagram;
let change;
const pull = { owner: 'logikflow', repo: 'big', number };

before(async () => {
  // CPU_GUARD_BUILD: another named build to hold to the guard (e.g. a branch's, before a merge).
  stack = await startBuildStack({ name: 'named', dir: process.env.CPU_GUARD_BUILD ?? buildNamed() });
  page = `${stack.baseUrl}/r/logikflow/big/pull/${number}`;
  // As reviewers find it: an agent has read the pull request and saved a reading order.
  const read = await getPullRequest();
  sections = fiftySections(read.files.map((f) => f.path)).filter((s) => s.files.length > 0);
  const saved = await callTool('save_reading_order', { ...pull, base_version: read.baseVersion, overview: 'The guard\'s order.', sections });
  assert.equal(saved.saved, true);
  orderVersion = saved.version;
  // A change of a file a push leaves alone (each push adds a line to one hunk of one file).
  const file = read.files.filter((f) => f.changes?.length).at(-1);
  assert.ok(file, 'the first read lists files with change ids');
  change = { path: file.path, change: file.changes[0].id };
  diagram = diagramOf(read);
  const drawn = await callTool('save_diagram', { ...pull, base_version: read.diagramBaseVersion, diagram });
  diagramVersion = drawn.version;
  const first = await get(page);
  cookie = first.reply.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  parts = pageParts(first.text);
});

after(async () => {
  await stack?.stop();
});

async function get(url, headers = {}) {
  const reply = await fetch(url, { headers: { cookie, ...headers }, signal: AbortSignal.timeout(120_000) });
  const text = await reply.text();
  assert.equal(reply.status, 200, `${url}: ${text.slice(0, 300)}`);
  return { reply, text };
}

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
async function callTool(name, args) {
  const reply = await fetch(stack.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta } }),
    signal: AbortSignal.timeout(120_000),
  });
  const body = await reply.json();
  assert.equal(body.result?.isError, false, JSON.stringify(body).slice(0, 300));
  return body.result.structuredContent;
}

async function getPullRequest() {
  const read = await callTool('get_pull_request', { owner: 'logikflow', repo: 'big', number });
  assert.equal(read.changedFiles, 3200);
  return read;
}

/** A three-node diagram on two of the pull request's files (no change ids: pushes move them). */
function diagramOf(read) {
  const [first, second] = read.files;
  return {
    title: 'The guard\'s diagram',
    groups: [{ id: 'server', title: 'Server' }],
    nodes: [
      { id: 'agent', title: 'Agent calls save', kind: 'trigger' },
      { id: 'check', title: 'Validate', kind: 'decision', group: 'server', file: first.path },
      { id: 'store', title: 'Store version', kind: 'data', group: 'server', file: second.path },
    ],
    edges: [{ from: 'agent', to: 'check', label: 'order' }, { from: 'check', to: 'store', dashed: true }],
  };
}

const push = () => standinControl(stack, 'POST', 'push', { repo: 'logikflow/big', number });

/** The Worker's median milliseconds for one request of `send` (after a warm-up), and the objects'. */
async function median(send) {
  await send(-1);
  const runs = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await workerCpu(stack, 1, send));
  const middle = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(RUNS / 2)];
  return { worker: middle('worker'), objects: middle('objects'), all: runs.map((r) => r.worker.toFixed(1)).join(', ') };
}

/** One route's subtest: its Worker time within LIMIT_MS (a `todo` while it is in KNOWN_OVER). */
function guard(name, send) {
  test(name, { todo: KNOWN_OVER.get(name) ?? false }, async (t) => {
    const cpu = await median(send());
    t.diagnostic(`Worker ${cpu.worker.toFixed(1)} ms (runs ${cpu.all}), objects ${cpu.objects.toFixed(1)} ms`);
    assert.ok(cpu.worker <= LIMIT_MS,
      `${name}: the Worker used ${cpu.worker.toFixed(1)} ms of CPU (median of ${RUNS}: ${cpu.all}), over the ${LIMIT_MS} ms of the Free plan`);
  });
}

guard('review page, first view after a push', () => async () => { await push(); await get(page); });
guard('review page, cached view', () => () => get(page));
/** The `from` of the page's first, a middle or its last window of entries. */
function windowFrom(which) {
  const { windows } = parts;
  assert.ok(windows.length >= 2, 'a 3,000-file page shows its entries in windows');
  return { first: 1, middle: windows[Math.floor((windows.length - 1) / 2)], last: windows.at(-1) }[which];
}
for (const which of ['first', 'middle', 'last']) {
  guard(`review page, the ${which} window of entries`, () => {
    const url = `${page}?from=${windowFrom(which)}&fragment=1`;
    return () => get(url);
  });
}
guard('diff loaded on demand', () => {
  assert.ok(parts.lazyDiff, 'the first window has a "Load diff" link');
  return () => get(`${stack.baseUrl}${parts.lazyDiff}&fragment=1`);
});
guard('a tick', () => {
  const form = parts.forms.find((f) => f.scope === 'entry');
  assert.ok(form, 'the page has tick forms');
  return async (i) => {
    const body = new URLSearchParams({ csrf: parts.csrf, item: form.item, done: i % 2 ? '1' : '0' });
    const reply = await fetch(`${page}/ticks`, { method: 'POST', body, signal: AbortSignal.timeout(120_000),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.baseUrl, cookie, accept: 'application/json' } });
    assert.equal(reply.status, 200, await reply.text());
  };
});
// The arrange editor's save (issue #37): the Worker checks the JSON's shape and sends the order
// decoded in the route's typed call; the whole order of 3,000 files passes through it.
guard('arrange save (the whole order, 3,000 files)', () => async () => {
  const body = JSON.stringify({ base_version: orderVersion, order: { overview: 'The guard\'s order.', sections } });
  const reply = await fetch(`${page}/arrange`, { method: 'POST', body, signal: AbortSignal.timeout(120_000),
    headers: { 'content-type': 'application/json', origin: stack.baseUrl, cookie, 'x-csrf-token': parts.csrf } });
  const text = await reply.text();
  assert.equal(reply.status, 200, text.slice(0, 300));
  orderVersion = JSON.parse(text).version;
});
guard('get_pull_request, first read after a push', () => async () => { await push(); await getPullRequest(); });
guard('get_pull_request, repeat read', () => getPullRequest);
guard('save_reading_order (a section per file, at most 50)', () => async () => {
  const saved = await callTool('save_reading_order', { ...pull, base_version: orderVersion, overview: 'The guard\'s order.', sections });
  orderVersion = saved.version;
});
guard('show_reading_order', () => () => callTool('show_reading_order', pull));
guard('view_reading_order', () => () => callTool('view_reading_order', pull));
guard('view_change', () => () => callTool('view_change', { ...pull, ...change }));
guard('view_diagram', () => () => callTool('view_diagram', pull));
guard('save_diagram', () => async () => {
  const saved = await callTool('save_diagram', { ...pull, base_version: diagramVersion, diagram });
  diagramVersion = saved.version;
});

// Worker CPU per invocation for every route a reviewer or an agent uses (issue #30), at 30, 320
// and 3,000 files (logikflow/big#3, #1 and #2 on the GitHub stand-in), with the Durable Objects'
// own CPU in a column of its own. Figures only: nothing is asserted on a number.
//
// "Worker" is the isolate's own time per request (V8 CPU profile, tests/bench/cpu.mjs
// `isolateCpu`) without the samples taken in a Durable Object's code. Locally the objects run in the
// Worker's isolate; on Cloudflare each object request is an invocation of its own, with its own CPU
// limit, so the Worker's figure is what the Free plan's 10 ms applies to. Telling the two apart
// needs the wasm's function names: this serves build/named/, the shipped code with its names
// kept, which every build makes (tests/e2e/cpu-guard.mjs `buildNamed`).
//
//   node tests/bench/routes.mjs                       # builds first
//   LOGIKFLOW_BUILD=skip node tests/bench/routes.mjs  # builds only when a source is newer
//
// BENCH_BUILD=DIR serves another named build instead (another checkout's build/named/, e.g. of
// another branch, to compare).
// BENCH_RUNS (default 3) measurements per row, each over a few requests sent one after another;
// the table shows the median of the runs and their range. BENCH_SIZES (default `30,320,3000`)
// picks the sizes. Writes the table to tests/artifacts/routes.md as well.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildNamed, pageParts, tickForms, workerCpu } from '../e2e/cpu-guard.mjs';
import { root, standinControl } from '../e2e/harness.mjs';
import { fiftySections } from './cpu.mjs';
import { startBuildStack } from './side-worker.mjs';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const sizes = (process.env.BENCH_SIZES ?? '30,320,3000').split(',').map(Number);
const PULLS = { 30: 3, 320: 1, 3000: 2 };

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
/** A 2026-07-28 request: the method (and tool name) in headers, the era in `_meta`. */
function modern(method, params = {}, name = undefined) {
  return {
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
  };
}

const sorted = (values) => [...values].sort((a, b) => a - b);
const median = (values) => sorted(values)[Math.floor(values.length / 2)];

/** One size's routes: `[[name, count, send]]`, or `[name, reason]` for a row that can't be measured. */
async function routes(stack, files) {
  const number = PULLS[files];
  const pull = { owner: 'logikflow', repo: 'big', number };
  const page = `${stack.baseUrl}/r/logikflow/big/pull/${number}`;
  const timeout = () => AbortSignal.timeout(180_000);
  const post = async (request) => {
    const reply = await fetch(stack.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...request.headers },
      body: request.body, signal: timeout() });
    const text = await reply.text();
    if (reply.status !== 200) throw new Error(`${reply.status} ${text.slice(0, 300)}`);
    return JSON.parse(text).result;
  };
  const call = async (name, args) => {
    const result = await post(modern('tools/call', { name, arguments: args }, name));
    if (result.isError) throw new Error(`${name}: ${result.content?.[0]?.text?.slice(0, 300)}`);
    return result.structuredContent;
  };
  const get = async (url, headers = {}) => {
    const reply = await fetch(url, { headers, signal: timeout() });
    const text = await reply.text();
    if (reply.status !== 200) throw new Error(`${url}: ${reply.status} ${text.slice(0, 300)}`);
    return { reply, text };
  };
  const push = () => standinControl(stack, 'POST', 'push', { repo: 'logikflow/big', number });
  // Few requests per run for the expensive routes of the large pull requests, more for the rest.
  const few = files >= 3000 ? 2 : files >= 320 ? 4 : 8;
  const many = files >= 3000 ? 4 : 8;

  // The agent's side first, as it happens: a read, then a saved reading order (so the page has
  // its sections and checks) and a diagram.
  const read = await call('get_pull_request', pull);
  const paths = read.files.map((f) => f.path);
  const sections = fiftySections(paths).filter((s) => s.files.length > 0);
  let version = (await call('save_reading_order', { ...pull, base_version: read.baseVersion, overview: 'A benchmark order.', sections })).version;
  const split = read.files.find((f) => f.changes?.length);
  const plain = read.files.find((f) => f !== split);
  const diagram = {
    title: 'A benchmark diagram',
    groups: [{ id: 'server', title: 'Server' }],
    nodes: [
      { id: 'agent', title: 'Agent calls save', kind: 'trigger' },
      { id: 'check', title: 'Validate', kind: 'decision', group: 'server', file: split?.path ?? plain.path, ...(split ? { hunk: split.changes[0].id } : {}) },
      { id: 'store', title: 'Store version', kind: 'data', group: 'server', file: plain.path },
    ],
    edges: [{ from: 'agent', to: 'check', label: 'order' }, { from: 'check', to: 'store', dashed: true }],
  };
  let diagramVersion = (await call('save_diagram', { ...pull, base_version: read.diagramBaseVersion, diagram })).version;

  // The page as the reviewer's browser gets it: its CSRF token and cookie, its tick forms, its
  // windows' links and its deferred diffs' links.
  const first = await get(page);
  const cookie = first.reply.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  const { csrf, windows, forms, lazyDiff: lazy } = pageParts(first.text);
  const view = () => get(page, { cookie });
  const check = forms.find((f) => f.scope === 'check') ?? forms[0];
  const entries = forms.filter((f) => f.scope === 'entry').slice(0, 10);
  // A modified file of the first window whose first hunk starts below line 4: lines 1–3 are context.
  const listed = await (await fetch(`${stack.standinUrl}/repos/logikflow/big/pulls/${number}/files?per_page=100`,
    { headers: { authorization: 'Bearer gho_standin_octo', 'user-agent': 'bench' } })).json();
  const contextFile = listed.find((f) => f.status === 'modified' && Number(/^@@ -\d+(?:,\d+)? \+(\d+)/.exec(f.patch ?? '')?.[1]) > 4);

  // One tick is one `item`/`done` pair; a batch (`batch=1`, as the page's script sends the ticks of
  // the last second) repeats the pairs in one form body.
  const tick = (pairs) => {
    const body = new URLSearchParams({ csrf, ...(pairs.length > 1 ? { batch: '1' } : {}) });
    for (const [item, done] of pairs) { body.append('item', item); body.append('done', done ? '1' : '0'); }
    return fetch(`${page}/ticks`, { method: 'POST', body, signal: timeout(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.baseUrl, cookie, accept: 'application/json' } });
  };
  const sendTick = async (pairs) => {
    const reply = await tick(pairs);
    const text = await reply.text();
    if (reply.status !== 200) throw new Error(`ticks: ${reply.status} ${text.slice(0, 300)}`);
  };
  // A build without batches takes the first pair and ignores the rest (or refuses): the page then
  // shows the others not done.
  const batchSupported = async () => {
    if (entries.length < 2) return false;
    const undo = await tick(entries.map((e) => [e.item, false]));
    await undo.arrayBuffer();
    const reply = await tick(entries.map((e) => [e.item, true]));
    await reply.arrayBuffer();
    if (reply.status !== 200) return false;
    const shown = tickForms((await view()).text);
    return entries.every((e) => shown.find((f) => f.item === e.item)?.done === '0');
  };

  const rows = [];
  rows.push(['review page, first view after a push', few, async () => { await push(); await view(); }]);
  rows.push(['review page, cached view', many, view]);
  if (windows.length === 0) {
    rows.push(['review page window, first (`?from=1`)', 'one window']);
    rows.push(['review page window, a middle one', 'one window']);
    rows.push(['review page window, the last', 'one window']);
  } else {
    const middle = windows[Math.floor((windows.length - 1) / 2)];
    const last = windows.at(-1);
    const fragment = (from) => () => get(`${page}?from=${from}&fragment=1`, { cookie });
    rows.push(['review page window, first (`?from=1`)', many, fragment(1)]);
    rows.push([`review page window, a middle one (\`?from=${middle}\`)`, many, fragment(middle)]);
    rows.push([`review page window, the last (\`?from=${last}\`)`, many, fragment(last)]);
  }
  if (lazy) rows.push(['diff loaded on demand', many, () => get(`${stack.baseUrl}${lazy}&fragment=1`, { cookie })]);
  else rows.push(['diff loaded on demand', 'no deferred diff in the first window']);
  if (contextFile) {
    const to = Math.min(3, Number(/^@@ -\d+(?:,\d+)? \+(\d+)/.exec(contextFile.patch)[1]) - 1);
    const url = `${page}/context?path=${encodeURIComponent(contextFile.filename)}&from=1&to=${to}`;
    rows.push(['expand context', many, () => get(url, { cookie, accept: 'application/json' })]);
  } else {
    rows.push(['expand context', 'no file with lines above its first hunk']);
  }
  if (check) rows.push(['a tick', many, (i) => sendTick([[check.item, i % 2 === 0]])]);
  else rows.push(['a tick', 'no tick form on the page']);
  if (await batchSupported()) {
    rows.push([`a batch of ${entries.length} ticks`, many, (i) => sendTick(entries.map((e) => [e.item, i % 2 !== 0]))]);
  } else {
    rows.push([`a batch of ${Math.max(entries.length, 2)} ticks`, 'not supported by this build']);
  }
  rows.push(['get_pull_request, first read after a push', few, async () => { await push(); await call('get_pull_request', pull); }]);
  rows.push(['get_pull_request, repeat read', many, () => call('get_pull_request', pull)]);
  rows.push(['save_reading_order (a section per file, at most 50)', many, async () => {
    version = (await call('save_reading_order', { ...pull, base_version: version, overview: 'A benchmark order.', sections })).version;
  }]);
  rows.push(['show_reading_order', many, () => call('show_reading_order', pull)]);
  rows.push(['view_reading_order', many, () => call('view_reading_order', pull)]);
  const change = read.files.find((f) => f.changes?.length === 1) ?? split;
  if (change) rows.push(['view_change', many, () => call('view_change', { ...pull, path: change.path, change: change.changes[0].id })]);
  else rows.push(['view_change', 'no change ids in the read (file list trimmed)']);
  rows.push(['view_diagram', many, () => call('view_diagram', pull)]);
  rows.push(['save_diagram', many, async () => {
    diagramVersion = (await call('save_diagram', { ...pull, base_version: diagramVersion, diagram })).version;
  }]);
  return rows;
}

/** Worker and object milliseconds per request of one row: `runs` measurements, after a warm-up. */
async function measure(stack, count, send) {
  await send(-1);
  const worker = [];
  const objects = [];
  for (let run = 0; run < runs; run += 1) {
    const cpu = await workerCpu(stack, count, send);
    worker.push(cpu.worker);
    objects.push(cpu.objects);
  }
  return { worker, objects };
}

const fmt = (values) => {
  const s = sorted(values);
  return `${median(s).toFixed(1)} (${s[0].toFixed(1)}–${s.at(-1).toFixed(1)})`;
};

const build = process.env.BENCH_BUILD ?? (console.error('checking the build (build/named/ has the function names) …'), buildNamed());
const stack = await startBuildStack({ name: 'named', dir: build });
const table = new Map(); // row name -> { size: cell }
const splitCheck = {};
try {
  await standinControl(stack, 'POST', 'config', { unlimitedRate: true });
  // tools/list touches no object in local development (no token, no rate-limit hop): its objects'
  // column shows how much of a request the split wrongly puts in objects.
  const list = modern('tools/list');
  const listing = await measure(stack, 20, () => fetch(stack.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...list.headers }, body: list.body }).then((r) => r.text()));
  table.set('tools/list (any size; touches no object)', { any: listing });
  splitCheck.list = listing;
  for (const files of sizes) {
    for (const [name, count, send] of await routes(stack, files)) {
      if (!table.has(name)) table.set(name, {});
      table.get(name)[files] = typeof count === 'string' ? count : await measure(stack, count, send);
      process.stderr.write(`${files} files: ${name}\n`);
    }
  }
} catch (error) {
  console.error(stack.workerLog().slice(-3000));
  throw error;
} finally {
  await stack.stop();
}

// Rows named with a window's `from` differ by size: print them under one name.
const rows = new Map();
for (const [name, cells] of table) {
  const key = name.replace(/ \(`\?from=\d+`\)$/, '');
  rows.set(key, { ...(rows.get(key) ?? {}), ...cells });
}
const lines = [
  `Worker CPU per invocation, local workerd, build with function names (${relative(root, build) || build}), ${runs} runs per row of a few requests each, sent one after another: median (range of the runs), ms per request.`,
  '"Worker" is the isolate\'s time without the samples taken in Durable Objects\' code (what the Free plan\'s 10 ms applies to); "objects" is that code\'s own time (on Cloudflare an invocation of its own, 30 s by default).',
  `Goal (issue #30): every Worker figure under 10 ms at every size; the objects' under 1 s.`,
  '',
  `| route | ${sizes.map((s) => `${s.toLocaleString('en')} files: Worker | objects`).join(' | ')} |`,
  `|---|${sizes.map(() => '---|---|').join('')}`,
];
for (const [name, cells] of rows) {
  const cell = (c) => (c === undefined ? ' | ' : typeof c === 'string' ? `${c} | ` : `${fmt(c.worker)} | ${fmt(c.objects)}`);
  if (cells.any) lines.push(`| ${name} | ${cell(cells.any)} |${sizes.slice(1).map(() => ' | |').join('')}`);
  else lines.push(`| ${name} | ${sizes.map((s) => cell(cells[s])).join(' | ')} |`);
}
const big = table.get('get_pull_request, first read after a push')?.[sizes.at(-1)];
lines.push('', `Split check: tools/list, which touches no object, puts ${median(splitCheck.list.objects).toFixed(2)} ms in objects` +
  (big && typeof big !== 'string' ? `; get_pull_request's first read at ${sizes.at(-1).toLocaleString('en')} files, which runs in the pull request's object, puts ${median(big.objects).toFixed(1)} of ${(median(big.objects) + median(big.worker)).toFixed(1)} ms there.` : '.'));
const text = lines.join('\n');
console.log(text);
mkdirSync(join(root, 'tests/artifacts'), { recursive: true });
writeFileSync(join(root, 'tests/artifacts/routes.md'), `${text}\n`);

// Server benchmarks on local workerd, side by side in one run (issues #7 and #19, DESIGN.md
// section 7): a trivial JS Worker (the ceiling), LogiKFlow's /mcp tools/list in the 2026-07-28 and
// the 2025-06-18 era (local development, no token) and with a real token, the official TypeScript
// SDK's stateless JSON server with the same tool list (tests/bench/sdk), and get_pull_request at
// a cached head against the GitHub stand-in; then, one request at a time, GitHub subrequests and
// workerd CPU time per request for get_pull_request on 30, 300 and 3,000-file pull requests
// (first and repeat read) and for a 50-section save_reading_order (tests/bench/cpu.mjs).
// Loads only 127.0.0.1, bounded in time. Prints Markdown tables and adds them to
// tests/artifacts/bench.md. Nothing is asserted.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { root, standinControl, startStack, stopProcess } from '../e2e/harness.mjs';
import { OAUTH_VARS, connect } from '../e2e/oauth-flow.mjs';
import { fiftySections, isolateCpu, processCpu, workerdCpu } from './cpu.mjs';
import { startSideWorker } from './side-worker.mjs';

const run = promisify(execFile);
// Short runs, many rounds: each endpoint is measured close in time to the ceiling it is divided by.
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
// On a shared 2-core machine one run swings by ±10% and the machine's speed drifts over minutes,
// so the ratio is taken per round (against the ceiling measured seconds before), and the median of
// the rounds is reported with the spread of the middle 60%.
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
// One wrk thread: on a 2-core machine a second one takes CPU from workerd, the thing measured.
const threads = Number(process.env.BENCH_THREADS ?? 1);
// `BENCH_PART=cpu` skips the requests/s rounds: only subrequests and CPU per request.
const cpuOnly = process.env.BENCH_PART === 'cpu';

function modern(method, params = {}, name) {
  const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) };
  const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } };
  return { headers, body: JSON.stringify(body) };
}

/** A 2025-06-18 request as most clients send it: no `initialize` first, the version in a header. */
function legacy(method, params = {}) {
  const headers = { 'mcp-protocol-version': '2025-06-18', accept: 'application/json, text/event-stream' };
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) };
}

/**
 * Runs wrk against url and returns { rps, p50, p99, errors, cpu }: cpu is the milliseconds of
 * CPU time per request used by the workerd processes of process group `group` meanwhile.
 */
async function wrk(url, { headers = {}, body = '' } = {}, group = undefined) {
  const env = { ...process.env, BODY: body, HEADERS: Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\n') };
  const before = group ? workerdCpu(group) : 0;
  const { stdout } = await run('wrk', [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--latency', '-s', join(root, 'tests/bench/post.lua'), url],
    { env, timeout: (seconds + 30) * 1000 });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0);
  const latency = (p) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(stdout);
    if (!m) return NaN;
    return Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000 })[m[2]];
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  const count = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  const cpu = group && count ? ((workerdCpu(group) - before) * 1000) / count : NaN;
  return { rps, p50: latency(50), p99: latency(99), errors: non2xx, cpu };
}

const rows = [];
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const sorted = (values) => [...values].sort((a, b) => a - b);
/** The median of `values` and the spread of their middle 60%. */
function middle(values) {
  const s = sorted(values);
  const trim = Math.floor(s.length / 5);
  return { median: s[Math.floor(s.length / 2)], low: s[trim], high: s[s.length - 1 - trim] };
}

// Every Worker under load runs without wrangler's DevTools session, as a deployed Worker does
// (harness.mjs `devtoolsEnv`); one reference row shows what that session costs a log line.
const ceiling = await startSideWorker('trivial');
const inspected = await startSideWorker('trivial', undefined, { devtools: true });
// The same trivial Worker behind the plumbing LogiKFlow has locally (static assets in front, one
// log line): what any Worker built like ours pays before its own code runs.
const plumbed = await startSideWorker('trivial', 'wrangler.assets.toml');
// OAuth configured too, so the same Worker serves local development and real tokens; the rate
// limit is raised for the run, the per-person hop is still made on every request.
const stack = await startStack({ devtools: cpuOnly,
  vars: { ...OAUTH_VARS, RATE_LIMIT_PER_MINUTE: '100000000', ADDRESS_RATE_LIMIT_PER_MINUTE: '100000' } });
let sdk;
let sdkPlumbed;
try {
  await standinControl(stack, 'POST', 'config', { unlimitedRate: true });
  const list = modern('tools/list');
  const oldList = legacy('tools/list');
  // The SDK Worker serves LogiKFlow's own tool list, so both send the same definitions.
  const tools = await fetch(stack.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...oldList.headers }, body: oldList.body });
  writeFileSync(join(root, 'tests/bench/sdk/tools.json'), JSON.stringify((await tools.json()).result));
  sdk = await startSideWorker('sdk');
  sdkPlumbed = await startSideWorker('sdk', 'wrangler.assets.toml');
  const { tokens } = await connect(stack);
  const withToken = { ...list, headers: { ...list.headers, authorization: `Bearer ${tokens.access_token}` } };
  const gpr = modern('tools/call', { name: 'get_pull_request', arguments: { owner: 'logikflow', repo: 'demo', number: 3 } }, 'get_pull_request');
  const endpoints = [
    ['trivial JS Worker (ceiling)', ceiling.url, { body: '{}' }, ceiling.child.pid],
    ['trivial JS Worker + one Durable Object fetch (reference)', `${ceiling.url}hop`, { body: '{}' }, ceiling.child.pid],
    ['trivial JS Worker + one console.log line (reference)', `${ceiling.url}log`, { body: '{}' }, ceiling.child.pid],
    ['the same with wrangler\'s DevTools session attached, as `wrangler dev` runs by default (reference)', `${inspected.url}log`, { body: '{}' }, inspected.child.pid],
    ['trivial JS Worker + static assets in front + one console.log line (same plumbing as LogiKFlow)', `${plumbed.url}log`, { body: '{}' }, plumbed.child.pid],
    ['the same + one Durable Object fetch (same plumbing as the token path)', `${plumbed.url}hop/log`, { body: '{}' }, plumbed.child.pid],
    ['/mcp tools/list, 2026-07-28, local development (no token)', stack.mcpUrl, list, stack.workerGroup],
    ['/mcp tools/list, 2025-06-18, local development (no token)', stack.mcpUrl, oldList, stack.workerGroup],
    ['TypeScript SDK stateless JSON server, tools/list, 2025-06-18', sdk.url, oldList, sdk.child.pid],
    ['the same SDK server with the same plumbing as LogiKFlow (static assets in front, one log line)', sdkPlumbed.url, oldList, sdkPlumbed.child.pid],
    ['/mcp tools/list, 2026-07-28, real access token (person-object hop)', stack.mcpUrl, withToken, stack.workerGroup],
    ['/mcp get_pull_request, cached head (stand-in)', stack.mcpUrl, gpr, stack.workerGroup],
  ];
  const row = (start) => endpoints.findIndex(([name]) => name.startsWith(start));
  const sdkRow = row('TypeScript SDK stateless');
  const sdkPlumbedRow = row('the same SDK server');
  // Each LogiKFlow row's reference with the same plumbing: assets in front and a log line, and the
  // hop for the token path.
  const plumbing = row('trivial JS Worker + static assets');
  const plumbingRow = { [row('/mcp tools/list, 2026-07-28, local')]: plumbing, [row('/mcp tools/list, 2025-06-18')]: plumbing,
    [sdkPlumbedRow]: plumbing, [row('/mcp tools/list, 2026-07-28, real')]: row('the same + one Durable Object') };
  // The rows that serve what the SDK server serves (tools/list without a token).
  const sameServerAsSdk = [row('/mcp tools/list, 2026-07-28, local'), row('/mcp tools/list, 2025-06-18')];
  if (cpuOnly) endpoints.length = 0;
  for (const [, url, request] of endpoints) await wrk(url, request); // warm-up
  // Rounds alternate the endpoints, so a slow spell on this machine hits all of them alike; each
  // row is the median round by requests/s.
  const runs = endpoints.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, [, url, request, group]] of endpoints.entries()) runs[i].push(await wrk(url, request, group));
  }
  const median = (results) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)];
  for (const [i, [name]] of endpoints.entries()) {
    const ratio = middle(runs[i].map((r, round) => r.rps / runs[0][round].rps));
    const toSdk = middle(runs[i].map((r, round) => r.rps / runs[sdkRow][round].rps));
    const reference = plumbingRow[i];
    const toPlumbing = reference === undefined ? undefined : middle(runs[i].map((r, round) => r.rps / runs[reference][round].rps));
    const toSdkPlumbed = !sameServerAsSdk.includes(i) ? undefined : middle(runs[i].map((r, round) => r.rps / runs[sdkPlumbedRow][round].rps));
    rows.push([name, median(runs[i]), ratio, toSdk, middle(runs[i].map((r) => r.cpu)), toPlumbing, toSdkPlumbed]);
  }

  const lines = [`Server, local workerd, ${connections} connections, ${threads} wrk threads, ${seconds} s a run, ${rounds} rounds that alternate the endpoints (wrk, 127.0.0.1).`,
    'Every Worker under load runs without wrangler\'s DevTools session, as deployed Workers do; the one row marked so has it (under it V8 hands each console.log to the session too).',
    'Requests/s and latencies: the median round. Ratios: the median of the per-round ratios to the ceiling (or to the SDK) measured in the same round; spread: the middle 60% of them.',
    'CPU: milliseconds of CPU time per request of the serving wrangler\'s workerd processes during the runs (median and middle 60%), less sensitive to other load than requests/s.', '',
    'Ratio to the same plumbing: to the trivial Worker with static assets in front and a log line (and the hop, for the token path), what LogiKFlow\'s own code leaves of the ceiling; ratio to SDK, same plumbing: to the SDK server behind the same assets and log line.', '',
    '| endpoint | requests/s | p50 ms | p99 ms | non-2xx | ratio to ceiling | spread | ratio to SDK | spread | ratio to the same plumbing | spread | ratio to SDK, same plumbing | spread | workerd CPU ms/request | spread |', '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|'];
  const cell = (m) => (m ? `${fmt(m.median, 2)} | ${fmt(m.low, 2)}–${fmt(m.high, 2)}` : ' | ');
  for (const [name, r, ratio, toSdk, cpu, toPlumbing, toSdkPlumbed] of rows) {
    lines.push(`| ${name} | ${fmt(r.rps)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${r.errors} | ${cell(ratio)} | ${cell(toSdk)} | ${cell(toPlumbing)} | ${cell(toSdkPlumbed)} | ${cell(cpu)} |`);
  }
  console.log(lines.join('\n'));
  await stopProcess(sdk.child);
  await stopProcess(sdkPlumbed.child);
  sdk = undefined;
  sdkPlumbed = undefined;
  for (const side of [ceiling, inspected, plumbed]) await stopProcess(side.child);

  // One request at a time from here on: subrequests counted by the stand-in, CPU by workerd. On a
  // fresh workerd (the state is kept): once, after the load above, local workerd's HTTP client
  // was seen spinning in its connection pool and the Worker stopped answering; nothing the load
  // left behind should count here, and a request that hangs fails the run instead of stalling it.
  if (!cpuOnly) {
    // Whether the Worker still answers after the load, printed so a recurrence is on record.
    const probe = await fetch(`${stack.baseUrl}/bench-floor`, { signal: AbortSignal.timeout(10_000) })
      .then((r) => `answered ${r.status}`, (error) => `did not answer in 10 s (${error.name})`);
    console.log(`After the load the Worker ${probe}; restarting it for the one-at-a-time part.`);
    // With the DevTools session: the isolate's CPU profiles come through it.
    await stack.restart({}, { devtools: true });
  }
  const post = (request) => fetch(stack.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...request.headers }, body: request.body, signal: AbortSignal.timeout(120_000) })
    .then(async (r) => { const text = await r.text(); if (r.status !== 200) throw new Error(`${r.status} ${text.slice(0, 200)}`); return text; });
  const call = (name, args) => modern('tools/call', { name, arguments: args }, name);
  lines.push('', 'GitHub subrequests per get_pull_request (counted by the stand-in):', '', '| pull request | files | first read | repeat read | budget ceil(files/100)+4 |', '|---|---|---|---|---|');
  const pulls = [[3, 30], [1, 320], [2, 3000]];
  for (const [number, files] of pulls) {
    const request = call('get_pull_request', { owner: 'logikflow', repo: 'big', number });
    const counts = [];
    for (let i = 0; i < 2; i++) {
      await standinControl(stack, 'DELETE', 'requests');
      await post(request);
      const log = await standinControl(stack, 'GET', 'requests');
      counts.push(log.requests.filter((r) => r.kind === 'rest' && r.path.startsWith('/repos/logikflow/big')).length);
    }
    lines.push(`| logikflow/big#${number} | ${files} | ${counts[0]} | ${counts[1]} | ${Math.ceil(files / 100) + 4} |`);
  }

  // CPU per request. Each case is sent `count` times in a row; a first read moves the pull
  // request's head on the stand-in first (not workerd's CPU), so every read is at a new head.
  // Sent one at a time, every request pays workerd's fixed cost (here several milliseconds on a
  // busy machine: wrangler's proxy Worker, the inspector that carries the log line to wrangler),
  // so the floor, a 404 from the Worker, is measured before each case and subtracted.
  const floor = () => fetch(`${stack.baseUrl}/bench-floor`).then((r) => r.arrayBuffer());
  const cases = [
    ['MCP ping, 2025-06-18', 100, () => post(legacy('ping'))],
    ['tools/list, 2026-07-28', 100, () => post(list)],
    ['tools/list, 2025-06-18', 100, () => post(oldList)],
  ];
  for (const [number, files] of pulls) {
    const request = call('get_pull_request', { owner: 'logikflow', repo: 'big', number });
    const count = Math.max(4, Math.round(100 / Math.sqrt(files)));
    cases.push([`get_pull_request, ${files} files, first read`, count, async () => {
      await standinControl(stack, 'POST', 'push', { repo: 'logikflow/big', number });
      await post(request);
    }]);
    cases.push([`get_pull_request, ${files} files, repeat read`, count * 2, () => post(request)]);
  }
  // 50 sections over big#1's 320 files, each with a note and three checks, as an agent writes them.
  const pull = { owner: 'logikflow', repo: 'big', number: 1 };
  const current = JSON.parse(await post(call('get_pull_request', pull))).result.structuredContent;
  const paths = current.files.map((f) => f.path);
  const sections = fiftySections(paths);
  let version = current.baseVersion;
  cases.push(['save_reading_order, 50 sections, 320 files', 10, async () => {
    const text = await post(call('save_reading_order', { ...pull, base_version: version, overview: 'A benchmark order.', sections }));
    const result = JSON.parse(text).result;
    if (result.isError) throw new Error(result.content[0].text.slice(0, 300));
    version = result.structuredContent.version;
  }]);
  lines.push('', 'CPU time per request inside workerd: user+system CPU of the workerd processes over N requests sent one after another, divided by N (tests/bench/cpu.mjs).',
    'Floor: the same for a 404 from the Worker, measured just before; request − floor is the request\'s own work, an upper bound: locally it includes KV\'s SQLite, the HTTP client and wrangler\'s Workers in front.',
    'Isolate: the Worker isolate\'s own time per request from a V8 CPU profile over another N requests (tests/bench/cpu.mjs `isolateCpu`), what the platform counts against the free plan\'s 10 ms. Locally Durable Objects run in the same isolate; on Cloudflare each object request is an invocation of its own with its own CPU limit (get_pull_request runs in its pull request\'s object, tools/relay.rs). "Worker alone" leaves out the samples taken in objects\' code: it needs a wasm with function names (LOGIKFLOW_NAMES=1 bash tests/scripts/build.sh), else it reads "names stripped".', '',
    '| request | N | workerd CPU ms/request | floor | request − floor | isolate ms/request | Worker alone |', '|---|---|---|---|---|---|---|');
  for (const [name, count, send] of cases) {
    await send(-1); // warm-up, and a first read's snapshot reaches the cache before repeat reads
    await new Promise((r) => setTimeout(r, 300));
    const floorMs = await processCpu(stack.workerGroup, 100, floor);
    const ms = await processCpu(stack.workerGroup, count, send);
    const isolate = await isolateCpu(stack.inspectorPort, count, send);
    const alone = isolate.named ? fmt(isolate.ms - isolate.objectMs, 1) : 'names stripped';
    lines.push(`| ${name} | ${count} | ${fmt(ms, 1)} | ${fmt(floorMs, 1)} | ${fmt(ms - floorMs, 1)} | ${fmt(isolate.ms, 1)} | ${alone} |`);
    console.log(lines.at(-1));
  }
  const text = lines.join('\n');
  console.log(text);
  mkdirSync(join(root, 'tests/artifacts'), { recursive: true });
  const previous = (() => { try { return readFileSync(join(root, 'tests/artifacts/bench.md'), 'utf8'); } catch { return ''; } })();
  writeFileSync(join(root, 'tests/artifacts/bench.md'), `${previous}\n${text}\n`);
} catch (error) {
  console.error(stack.workerLog().slice(-4000));
  throw error;
} finally {
  await stack.stop();
  for (const side of [ceiling, inspected, plumbed]) await stopProcess(side.child);
  if (sdk) await stopProcess(sdk.child);
  if (sdkPlumbed) await stopProcess(sdkPlumbed.child);
}

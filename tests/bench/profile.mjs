// CPU profile of the Worker under load: where the time of one kind of /mcp request goes.
// Starts the stack like the benchmarks, attaches to the Worker's DevTools inspector, records a
// V8 CPU profile while wrk loads one request, and prints the functions with the most self time
// (wasm functions carry their Rust names in a build with LOGIKFLOW_NAMES=1).
//
//   LOGIKFLOW_NAMES=1 bash tests/scripts/build.sh    # names in build/ too, not only build/named/
//   LOGIKFLOW_BUILD=skip node tests/bench/profile.mjs [list|legacy|token|gpr|gpr-big|gpr-huge|first-small|first-big|first-huge|save|page-big|page-huge] [seconds]
//
// `gpr-huge` is a repeat read of the 3,000-file pull request; `first-small`, `first-big` and
// `first-huge` are first reads of the 30-, 320- and 3,000-file ones, sent one at a time, each after a push;
// `save` is the benchmark's 50-section save_reading_order on the 320-file one, one at a time;
// `page-big` and `page-huge` are views of the review page of the 320- and 3,000-file ones at a
// cached head, one at a time (local development, no sign-in).
//
// A diagnostic, not a benchmark: profiling slows the Worker, so read shares, not rates.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { root, standinControl, startStack } from '../e2e/harness.mjs';
import { OAUTH_VARS, connect } from '../e2e/oauth-flow.mjs';
import { attach, fiftySections } from './cpu.mjs';

const run = promisify(execFile);
const sorted = (values) => [...values].sort((a, b) => a - b);
const kind = process.argv[2] ?? 'list';
const seconds = Number(process.argv[3] ?? 6);
const top = Number(process.env.PROFILE_TOP ?? 45);

function modern(method, params = {}, name) {
  const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) };
  const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } };
  return { headers, body: JSON.stringify(body) };
}

/** Self and total time per function name from a V8 CPU profile. */
function summarize(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map();
  const total = new Map();
  const hits = new Map();
  for (const sample of profile.samples) hits.set(sample, (hits.get(sample) ?? 0) + 1);
  const name = (node) => node.callFrame.functionName || `(anonymous ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}:${node.callFrame.columnNumber} #${node.callFrame.scriptId})`;
  let all = 0;
  for (const [id, count] of hits) {
    all += count;
    const node = byId.get(id);
    self.set(name(node), (self.get(name(node)) ?? 0) + count);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const n = name(byId.get(at));
      if (!seen.has(n)) { seen.add(n); total.set(n, (total.get(n) ?? 0) + count); }
    }
  }
  return { self, total, all };
}

/** The logikflow/big pull request a `gpr-huge` or `first-…` kind reads. */
function pullNumber() {
  return { 'first-small': 3, 'first-big': 1 }[kind] ?? 2;
}

const stack = await startStack({ vars: { ...OAUTH_VARS, RATE_LIMIT_PER_MINUTE: '100000000', ADDRESS_RATE_LIMIT_PER_MINUTE: '100000' } });
try {
  await standinControl(stack, 'POST', 'config', { unlimitedRate: true });
  let request = modern('tools/list');
  if (kind === 'legacy') {
    // tools/list in the 2025-06-18 era, as most clients send it: no initialize, version in a header.
    request = { headers: { 'mcp-protocol-version': '2025-06-18', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) };
  } else if (kind === 'token') {
    const { tokens } = await connect(stack);
    request = { ...request, headers: { ...request.headers, authorization: `Bearer ${tokens.access_token}` } };
  } else if (kind === 'gpr') {
    request = modern('tools/call', { name: 'get_pull_request', arguments: { owner: 'logikflow', repo: 'demo', number: 3 } }, 'get_pull_request');
  } else if (kind === 'gpr-big') {
    // A repeat read of a 320-file pull request (the snapshot is cached by the warm-up).
    request = modern('tools/call', { name: 'get_pull_request', arguments: { owner: 'logikflow', repo: 'big', number: 1 } }, 'get_pull_request');
  } else if (['gpr-huge', 'first-small', 'first-big', 'first-huge'].includes(kind)) {
    const number = pullNumber();
    request = modern('tools/call', { name: 'get_pull_request', arguments: { owner: 'logikflow', repo: 'big', number } }, 'get_pull_request');
  }
  const env = { ...process.env, BODY: request.body, HEADERS: Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`).join('\n') };
  const serial = async () => {
    const number = pullNumber();
    const until = Date.now() + seconds * 1000;
    let sent = 0;
    while (Date.now() < until) {
      await standinControl(stack, 'POST', 'push', { repo: 'logikflow/big', number });
      const reply = await fetch(stack.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...request.headers }, body: request.body });
      await reply.arrayBuffer();
      sent += 1;
    }
    return { stdout: `Requests/sec: ${(sent / seconds).toFixed(1)}` };
  };
  // The benchmark's 50-section order over big#1's 320 files (tests/bench/server.mjs).
  const saves = async () => {
    const post = async (message) => {
      const reply = await fetch(stack.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...message.headers }, body: message.body });
      return (await reply.json()).result;
    };
    const pull = { owner: 'logikflow', repo: 'big', number: 1 };
    const current = (await post(modern('tools/call', { name: 'get_pull_request', arguments: pull }, 'get_pull_request'))).structuredContent;
    const paths = current.files.map((f) => f.path);
    const sections = fiftySections(paths);
    let version = current.baseVersion;
    const until = Date.now() + seconds * 1000;
    let sent = 0;
    while (Date.now() < until) {
      const result = await post(modern('tools/call', { name: 'save_reading_order', arguments: { ...pull, base_version: version, sections } }, 'save_reading_order'));
      if (result.isError) throw new Error(result.content[0].text);
      version = result.structuredContent.version;
      sent += 1;
    }
    return { stdout: `Requests/sec: ${(sent / seconds).toFixed(1)}` };
  };
  // The review page, one view at a time (its first view, the warm-up, caches the head).
  const pages = async () => {
    const url = `${stack.baseUrl}/r/logikflow/big/pull/${kind === 'page-big' ? 1 : 2}`;
    const until = Date.now() + seconds * 1000;
    let sent = 0;
    while (Date.now() < until) {
      const reply = await fetch(url);
      if (reply.status !== 200) throw new Error(`${url}: ${reply.status}`);
      await reply.arrayBuffer();
      sent += 1;
    }
    return { stdout: `Requests/sec: ${(sent / seconds).toFixed(1)}` };
  };
  const load = kind.startsWith('page') ? pages : kind === 'save' ? saves : kind.startsWith('first') ? serial : () => run('wrk', ['-t2', '-c16', `-d${seconds}s`, '-s', join(root, 'tests/bench/post.lua'), stack.mcpUrl], { env });
  await load(); // warm-up
  const session = await attach(stack.inspectorPort);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 200 });
  await session.send('Profiler.start');
  const { stdout } = await load();
  const { result } = await session.send('Profiler.stop');
  // Anonymous functions (the JS glue's imports) are named by the first characters of their
  // source, read after profiling so the debugger does not slow what is measured.
  await session.send('Debugger.enable');
  const sources = new Map();
  const source = async (scriptId) => {
    if (!sources.has(scriptId)) sources.set(scriptId, (await session.send('Debugger.getScriptSource', { scriptId })).result?.scriptSource ?? '');
    return sources.get(scriptId);
  };
  const { self, total, all } = summarize(result.profile);
  const label = async (n) => {
    const m = /^\(anonymous .*:(\d+):(\d+) #(\d+)\)$/.exec(n);
    if (!m) return n;
    const lines = (await source(m[3])).split('\n').slice(Number(m[1]), Number(m[1]) + 6);
    lines[0] = lines[0]?.slice(Number(m[2])) ?? '';
    return `${n} ${lines.join(' ').replace(/\s+/g, ' ').slice(0, 160)}`;
  };
  for (const map of [self, total]) {
    for (const [n, c] of [...map]) if (n.startsWith('(anonymous')) { map.delete(n); map.set(await label(n), c); }
  }
  session.close();
  // Samples are taken only while the Worker's isolate runs, so their count times the interval is
  // the isolate's own time: what the platform counts as CPU, without local KV's or the HTTP client's.
  const deltas = sorted(result.profile.timeDeltas);
  const interval = deltas[Math.floor(deltas.length / 2)] / 1000;
  const active = all - (self.get('(idle)') ?? 0);
  const requests = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]) * seconds;
  console.log(`isolate time while profiling: ${active} samples × ${interval.toFixed(3)} ms over ${requests.toFixed(0)} requests = ${((active * interval) / requests).toFixed(2)} ms a request`);
  // Durable Objects run in the same isolate locally but are invocations of their own on
  // Cloudflare: the part under an object's code, and so the Worker's own share.
  const inObject = Math.max(0, ...[...total].filter(([n]) => /PullRequestStore|PersonStore/.test(n)).map(([, c]) => c));
  console.log(`of which in Durable Objects' code: ${((inObject * interval) / requests).toFixed(2)} ms; the Worker alone: ${(((active - inObject) * interval) / requests).toFixed(2)} ms a request`);
  const pct = (n) => `${((100 * n) / all).toFixed(1).padStart(5)}%`;
  console.log(`${kind}: ${/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]} req/s while profiling, ${all} samples`);
  console.log('\nself time:');
  for (const [n, c] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(c)}  ${n.slice(0, 140)}`);
  console.log('\ntotal time:');
  for (const [n, c] of [...total].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(c)}  ${n.slice(0, 140)}`);
} finally {
  await stack.stop();
}

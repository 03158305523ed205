// Startup, measured (issue #28, DESIGN.md section 7): how long V8 takes to compile the release
// wasm when a process first loads it, and what a cold workerd isolate's first request costs
// against a warm one's. Figures only: nothing is asserted. Prints Markdown tables and adds them
// to tests/artifacts/bench.md (`npm run bench` runs it after a release build).
//
//   bash tests/scripts/build.sh && node tests/bench/startup.mjs
//
// First compile: each measurement is a fresh Node 22 process (V8 12, as workerd's is recent V8)
// that reads build/index_bg.wasm and times one compile of it, so nothing is cached: the
// synchronous `new WebAssembly.Module` and the asynchronous `WebAssembly.compile` with V8's
// defaults (lazy compilation: a function is compiled when first called), and eager baseline
// compilation of every function (`--no-wasm-lazy-compilation`) for reference. STARTUP_RUNS
// processes each (default 9): min, median and max.
//
// Cold and warm requests: `wrangler dev` (local workerd, without wrangler's DevTools session, as
// deployed) is started STARTUP_RESTARTS times (default 4); readiness is awaited on a static
// asset, which the Worker never sees, so the first `/mcp` tools/list that follows is the
// isolate's first request to run the wasm (its functions compiled on first call, the per-isolate
// setup). Then 30 warm tools/list requests. Times are the client's, on 127.0.0.1.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devtoolsEnv, freePort, root, stopProcess } from '../e2e/harness.mjs';

const wasm = join(root, 'build/index_bg.wasm');
const runs = Number(process.env.STARTUP_RUNS ?? 9);
const restarts = Number(process.env.STARTUP_RESTARTS ?? 4);
if (!existsSync(wasm)) throw new Error(`${wasm} is missing: run tests/scripts/build.sh first`);

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const sorted = (values) => [...values].sort((a, b) => a - b);
const spread = (values) => {
  const s = sorted(values);
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
};

/** One compile of the wasm in a fresh Node process; milliseconds. */
function compileInFreshProcess(how, flags = []) {
  const script = `
    const bytes = require('fs').readFileSync(${JSON.stringify(wasm)});
    const start = performance.now();
    const done = () => process.stdout.write(String(performance.now() - start));
    ${how === 'async' ? 'WebAssembly.compile(bytes).then(done);' : 'new WebAssembly.Module(bytes); done();'}`;
  return Number(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }));
}

const lines = [];
const raw = readFileSync(wasm).length;
lines.push(`Startup of build/index_bg.wasm (${raw} bytes raw), Node ${process.versions.node} (V8 ${process.versions.v8}), ${runs} fresh processes per row.`, '',
  '| first compile in a fresh process | min ms | median ms | max ms |', '|---|---|---|---|');
const modes = [
  ['`new WebAssembly.Module`, V8 defaults (lazy)', 'sync', []],
  ['`WebAssembly.compile`, V8 defaults (lazy)', 'async', []],
  ['`new WebAssembly.Module`, eager baseline (`--no-wasm-lazy-compilation`, reference)', 'sync', ['--no-wasm-lazy-compilation']],
];
for (const [name, how, flags] of modes) {
  const times = [];
  for (let i = 0; i < runs; i += 1) times.push(compileInFreshProcess(how, flags));
  const { min, median, max } = spread(times);
  lines.push(`| ${name} | ${fmt(min)} | ${fmt(median)} | ${fmt(max)} |`);
}
console.log(lines.join('\n'));

/** Starts `wrangler dev` on the build; resolves once a static asset is served. */
async function startWorker(persistDir) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'dev', '--ip', '127.0.0.1',
    '--port', String(port), '--inspector-port', String(await freePort()), '--persist-to', persistDir,
    '--show-interactive-dev-session=false', '--log-level', 'warn',
    '--var', 'LOCAL_DEV:1', '--var', 'LOCAL_GITHUB_TOKEN:gho_startup', '--var', 'LOCAL_GITHUB_LOGIN:octo'],
  { cwd: root, detached: true, stdio: 'ignore',
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      LOGIKFLOW_BUILD: 'skip', ...devtoolsEnv(false) } });
  const started = performance.now();
  const asset = `http://127.0.0.1:${port}/static/base.css`;
  for (let i = 0; i < 1200; i += 1) {
    const served = await fetch(asset).then((r) => r.arrayBuffer().then(() => r.status === 200), () => false);
    if (served) return { child, port, readyMs: performance.now() - started };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stopProcess(child);
  throw new Error('wrangler dev did not serve a static asset in 2 minutes');
}

const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
async function toolsList(port) {
  const start = performance.now();
  const reply = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', body: list, headers: {
    'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' } });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`tools/list answered ${reply.status}: ${text.slice(0, 200)}`);
  return performance.now() - start;
}

const persistDir = mkdtempSync(join(tmpdir(), 'logikflow-startup-'));
const cold = [];
const warm = [];
const ready = [];
try {
  for (let i = 0; i < restarts; i += 1) {
    const worker = await startWorker(persistDir);
    try {
      ready.push(worker.readyMs);
      cold.push(await toolsList(worker.port));
      const warmTimes = [];
      for (let j = 0; j < 30; j += 1) warmTimes.push(await toolsList(worker.port));
      warm.push(spread(warmTimes).median);
    } finally {
      await stopProcess(worker.child);
    }
  }
} finally {
  rmSync(persistDir, { recursive: true, force: true });
}
const row = (name, values) => {
  const { min, median, max } = spread(values);
  return `| ${name} | ${fmt(min)} | ${fmt(median)} | ${fmt(max)} |`;
};
const workerd = ['', `Local workerd (\`wrangler dev\`, no DevTools session), ${restarts} starts: the first /mcp tools/list of a fresh isolate and the median of the 30 after it, client time on 127.0.0.1.`, '',
  '| request | min ms | median ms | max ms |', '|---|---|---|---|',
  row('wrangler dev start until a static asset is served (reference)', ready),
  row('first tools/list (cold isolate)', cold),
  row('warm tools/list (median of 30 per start)', warm)];
console.log(workerd.join('\n'));
mkdirSync(join(root, 'tests/artifacts'), { recursive: true });
const previous = (() => { try { return readFileSync(join(root, 'tests/artifacts/bench.md'), 'utf8'); } catch { return ''; } })();
writeFileSync(join(root, 'tests/artifacts/bench.md'), `${previous}\n${[...lines, ...workerd].join('\n')}\n`);

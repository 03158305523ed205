// Server benchmarks on local workerd, side by side in one run (issue #7, DESIGN.md section 7):
// a trivial JS Worker (the ceiling), LogiKFlow's /mcp tools/list (local development, no token),
// and get_pull_request at a cached head against the GitHub stand-in; plus GitHub subrequests per
// get_pull_request for 30, 300 and 3,000-file pull requests, counted by the stand-in.
// Loads only 127.0.0.1, bounded in time. Prints a Markdown table and writes it to
// tests/artifacts/bench.md. Nothing is asserted.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, root, standinControl, startStack, stopProcess } from '../e2e/harness.mjs';
import { OAUTH_VARS, connect } from '../e2e/oauth-flow.mjs';

const run = promisify(execFile);
// Short runs, many rounds: each endpoint is measured close in time to the ceiling it is divided by.
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
// On a shared 2-core machine one run swings by ±10% and the machine's speed drifts over minutes,
// so the ratio is taken per round (against the ceiling measured seconds before), and the median of
// ten rounds is reported with the spread of the middle six.
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
// One wrk thread: on a 2-core machine a second one takes CPU from workerd, the thing measured.
const threads = Number(process.env.BENCH_THREADS ?? 1);

function modern(method, params = {}, name) {
  const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) };
  const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } };
  return { headers, body: JSON.stringify(body) };
}

/** Runs wrk against url and returns { rps, p50, p99, errors }. */
async function wrk(url, { headers = {}, body = '' } = {}) {
  const env = { ...process.env, BODY: body, HEADERS: Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\n') };
  const { stdout } = await run('wrk', [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--latency', '-s', join(root, 'tests/bench/post.lua'), url],
    { env, timeout: (seconds + 30) * 1000 });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0);
  const latency = (p) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(stdout);
    if (!m) return NaN;
    return Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000 })[m[2]];
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  return { rps, p50: latency(50), p99: latency(99), errors: non2xx };
}

async function startCeiling() {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'dev', '--ip', '127.0.0.1', '--port', String(port),
    '--inspector-port', String(await freePort()), '--show-interactive-dev-session=false', '--log-level', 'warn'],
  { cwd: join(root, 'tests/bench/trivial'), detached: true, stdio: 'ignore', env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' } });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 300; i++) {
    try { await fetch(url); return { url, child }; } catch { await new Promise((r) => setTimeout(r, 100)); }
  }
  throw new Error('the ceiling Worker did not start');
}

const rows = [];
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

const ceiling = await startCeiling();
// OAuth configured too, so the same Worker serves local development and real tokens; the rate
// limit is raised for the run, the per-person hop is still made on every request.
const stack = await startStack({ vars: { ...OAUTH_VARS, RATE_LIMIT_PER_MINUTE: '100000000', ADDRESS_RATE_LIMIT_PER_MINUTE: '100000' } });
try {
  await standinControl(stack, 'POST', 'config', { unlimitedRate: true });
  const list = modern('tools/list');
  const { tokens } = await connect(stack);
  const withToken = { ...list, headers: { ...list.headers, authorization: `Bearer ${tokens.access_token}` } };
  const gpr = modern('tools/call', { name: 'get_pull_request', arguments: { owner: 'logikflow', repo: 'demo', number: 3 } }, 'get_pull_request');
  const endpoints = [
    ['trivial JS Worker (ceiling)', ceiling.url, { body: '{}' }],
    ['trivial JS Worker + one Durable Object fetch (reference)', `${ceiling.url}hop`, { body: '{}' }],
    ['/mcp tools/list, local development (no token)', stack.mcpUrl, list],
    ['/mcp tools/list, real access token (person-object hop)', stack.mcpUrl, withToken],
    ['/mcp get_pull_request, cached head (stand-in)', stack.mcpUrl, gpr],
  ];
  for (const [, url, request] of endpoints) await wrk(url, request); // warm-up
  // Rounds alternate the endpoints, so a slow spell on this machine hits all of them alike; each
  // row is the median round by requests/s.
  const runs = endpoints.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, [, url, request]] of endpoints.entries()) runs[i].push(await wrk(url, request));
  }
  const median = (results) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)];
  const sorted = (values) => [...values].sort((a, b) => a - b);
  for (const [i, [name]] of endpoints.entries()) {
    const ratios = sorted(runs[i].map((r, round) => r.rps / runs[0][round].rps));
    const trim = Math.floor(ratios.length / 5);
    rows.push([name, median(runs[i]), ratios[Math.floor(ratios.length / 2)], ratios[trim], ratios[ratios.length - 1 - trim]]);
  }

  const lines = [`Server, local workerd, ${connections} connections, ${threads} wrk threads, ${seconds} s a run, ${rounds} rounds that alternate the endpoints (wrk, 127.0.0.1).`,
    'Requests/s and latencies: the median round. Ratio: the median of the per-round ratios to the ceiling measured in the same round; spread: the middle 60% of them.', '',
    '| endpoint | requests/s | p50 ms | p99 ms | non-2xx | ratio to ceiling | spread |', '|---|---|---|---|---|---|---|'];
  for (const [name, r, ratio, low, high] of rows) {
    lines.push(`| ${name} | ${fmt(r.rps)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${r.errors} | ${fmt(ratio, 2)} | ${fmt(low, 2)}–${fmt(high, 2)} |`);
  }

  lines.push('', 'GitHub subrequests per get_pull_request (counted by the stand-in):', '', '| pull request | files | first read | repeat read | budget ceil(files/100)+4 |', '|---|---|---|---|---|');
  for (const [number, files] of [[3, 30], [1, 320], [2, 3000]]) {
    const call = modern('tools/call', { name: 'get_pull_request', arguments: { owner: 'logikflow', repo: 'big', number } }, 'get_pull_request');
    const counts = [];
    // Let calls queued by the load finish first.
    await new Promise((r) => setTimeout(r, 2000));
    for (let i = 0; i < 2; i++) {
      await standinControl(stack, 'DELETE', 'requests');
      await fetch(stack.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...call.headers }, body: call.body }).then((r) => r.text());
      const log = await standinControl(stack, 'GET', 'requests');
      // Only this pull request's requests: calls queued by the load above may still be finishing.
      counts.push(log.requests.filter((r) => r.kind === 'rest' && r.path.startsWith('/repos/logikflow/big')).length);
    }
    lines.push(`| logikflow/big#${number} | ${files} | ${counts[0]} | ${counts[1]} | ${Math.ceil(files / 100) + 4} |`);
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
  await stopProcess(ceiling.child);
}

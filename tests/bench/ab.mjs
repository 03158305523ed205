// A/B of two or more builds of the Worker on local workerd, in one session (issue #19): each build
// runs in its own `wrangler dev`, and every round loads the ceiling (tests/bench/trivial) and then
// each build in turn, alternating the order, so a slow spell on a shared machine hits all alike.
// Reports per build and request kind the median and the middle 60% of the per-round ratios to the
// ceiling, of requests/s, and of workerd CPU milliseconds per request (tests/bench/cpu.mjs).
//
//   cp -r build /tmp/a        # a build to compare, e.g. before a change
//   LOGIKFLOW_BUILD=skip node tests/bench/ab.mjs a=/tmp/a b=build [kinds]
//
// `kinds` is a comma-separated list of `token` (tools/list, 2026-07-28, with a real access token),
// `list` (the same without one, local development) and `legacy` (tools/list, 2025-06-18);
// default `token`. AB_ROUNDS (default 8) and BENCH_SECONDS (default 3) set the length.
// A diagnostic beside `npm run bench`: nothing is asserted, nothing is written.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { root, stopProcess } from '../e2e/harness.mjs';
import { connect } from '../e2e/oauth-flow.mjs';
import { workerdCpu } from './cpu.mjs';
import { buildsFromArgs, startBuildStack, startSideWorker } from './side-worker.mjs';

const run = promisify(execFile);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.AB_ROUNDS ?? 8);
const builds = buildsFromArgs('node tests/bench/ab.mjs NAME=BUILD_DIR [NAME=BUILD_DIR ...] [kinds]');
const kinds = (process.argv.slice(2).find((arg) => !arg.includes('=')) ?? 'token').split(',');

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const list = {
  headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }),
};
const legacy = {
  headers: { 'mcp-protocol-version': '2025-06-18', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
};

/** requests/s and workerd CPU ms per request of one wrk run. */
async function wrk(url, { headers = {}, body = '' }, group) {
  const env = { ...process.env, BODY: body, HEADERS: Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\n') };
  const before = workerdCpu(group);
  const { stdout } = await run('wrk', ['-t1', '-c32', `-d${seconds}s`, '-s', join(root, 'tests/bench/post.lua'), url],
    { env, timeout: (seconds + 30) * 1000 });
  const count = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  if (non2xx) throw new Error(`${non2xx} non-2xx replies from ${url}`);
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0), cpu: ((workerdCpu(group) - before) * 1000) / count };
}

function middle(values) {
  const s = [...values].sort((a, b) => a - b);
  const trim = Math.floor(s.length / 5);
  return `${s[Math.floor(s.length / 2)].toFixed(3)} (${s[trim].toFixed(3)}–${s[s.length - 1 - trim].toFixed(3)})`;
}

const ceiling = await startSideWorker('trivial');
const stacks = [];
try {
  for (const build of builds) {
    const stack = await startBuildStack(build, { devtools: false });
    const { tokens } = await connect(stack);
    const requests = {
      token: { ...list, headers: { ...list.headers, authorization: `Bearer ${tokens.access_token}` } },
      list,
      legacy,
    };
    stacks.push({ ...build, stack, requests });
  }
  const runs = new Map();
  const cases = [['ceiling', ceiling.url, { body: '{}' }, ceiling.child.pid],
    ['hop (JS reference)', `${ceiling.url}hop`, { body: '{}' }, ceiling.child.pid],
    ['log line (JS reference)', `${ceiling.url}log`, { body: '{}' }, ceiling.child.pid]];
  for (const kind of kinds) {
    for (const s of stacks) cases.push([`${kind} ${s.name}`, s.stack.mcpUrl, s.requests[kind], s.stack.workerGroup]);
  }
  for (const [, url, request, group] of cases) await wrk(url, request, group); // warm-up
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 ? [...cases].reverse() : cases;
    for (const [name, url, request, group] of order) {
      if (!runs.has(name)) runs.set(name, []);
      runs.get(name).push(await wrk(url, request, group));
    }
    process.stderr.write(`round ${round + 1}/${rounds}\n`);
  }
  const top = runs.get('ceiling');
  console.log(`A/B, ${rounds} rounds of ${seconds} s, 32 connections: median (middle 60%)`);
  console.log('| case | ratio to ceiling | requests/s | workerd CPU ms/request |\n|---|---|---|---|');
  for (const [name, results] of runs) {
    console.log(`| ${name} | ${middle(results.map((r, i) => r.rps / top[i].rps))} | ${middle(results.map((r) => r.rps))} | ${middle(results.map((r) => r.cpu))} |`);
  }
  if (stacks.length > 1) {
    console.log(`\nPer-round ratio of each build to ${stacks[0].name} (requests/s; CPU per request):`);
    for (const kind of kinds) {
      const a = runs.get(`${kind} ${stacks[0].name}`);
      for (const s of stacks.slice(1)) {
        const b = runs.get(`${kind} ${s.name}`);
        console.log(`${kind} ${s.name}/${stacks[0].name}: rps ${middle(b.map((r, i) => r.rps / a[i].rps))}; cpu ${middle(b.map((r, i) => r.cpu / a[i].cpu))}`);
      }
    }
  }
} finally {
  for (const s of stacks) await s.stack.stop();
  await stopProcess(ceiling.child);
}

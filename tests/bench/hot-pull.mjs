// The hottest case on paper (docs/capacity.md, issue #20), simulated locally: many reviewers of one
// pull request ticking and reading at once, against `wrangler dev` (workerd, local Durable Objects)
// and the GitHub stand-in. Every request lands on the same PullRequestStore object.
//
// First it drives each request kind once and prints what the Worker's own log line says it cost
// (GitHub subrequests, Durable Object requests, cache); then it loads the one pull request with
// `REVIEWERS` concurrent reviewers (signed in on the web as the stand-in's three users), each
// ticking three items for every review page it reads, for `SECONDS` per step, at 1, 8 and
// `REVIEWERS` reviewers. Reports requests per second and latency percentiles per kind, prints
// Markdown and writes it to tests/artifacts/hot-pull.md. Bounded in time; loads 127.0.0.1 only;
// asserts nothing.
//
//   LOGIKFLOW_BUILD=skip node tests/bench/hot-pull.mjs        # SECONDS=8 REVIEWERS=32 by default
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, standinControl, startStack } from '../e2e/harness.mjs';
import { OAUTH_VARS, answerConsent, callTool, connect, cookieFrom, hidden, listTools, signIn, sleep } from '../e2e/oauth-flow.mjs';
import { processCpu } from './cpu.mjs';

const seconds = Number(process.env.SECONDS ?? 8);
const reviewers = Number(process.env.REVIEWERS ?? 32);
const pr = { owner: 'logikflow', repo: 'demo', number: 3 };
const pullPath = `/r/${pr.owner}/${pr.repo}/pull/${pr.number}`;

async function webSession(stack, login) {
  const start = await fetch(`${stack.baseUrl}/signin?next=/settings`, { redirect: 'manual' });
  const signinCookie = cookieFrom(start, 'lkf_signin');
  const result = await signIn(stack, new URL(start.headers.get('location'), stack.baseUrl), { login });
  let redirect = result.redirect;
  if (result.consent) {
    const answered = await answerConsent(stack, result.consent, { write: true });
    redirect = new URL(answered.headers.get('location'));
  }
  const done = await fetch(redirect, { redirect: 'manual', headers: { cookie: signinCookie } });
  const session = `${cookieFrom(done, 'lkf_at')}; ${cookieFrom(done, 'lkf_rt')}`;
  const page = await fetch(`${stack.baseUrl}/settings`, { headers: { cookie: session } });
  const html = await page.text();
  return { cookie: `${session}; ${cookieFrom(page, 'lkf_csrf')}`, csrf: hidden(html, 'csrf') };
}

function tick(stack, session, item, done, path = pullPath) {
  return fetch(`${stack.baseUrl}${path}/ticks`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.baseUrl, cookie: session.cookie, accept: 'application/json' },
    body: new URLSearchParams({ csrf: session.csrf, item, done: done ? '1' : '0' }),
  });
}

function readPage(stack, session) {
  return fetch(`${stack.baseUrl}${pullPath}`, { headers: { cookie: session.cookie } });
}

/** Milliseconds of workerd CPU per request: `count` requests sent one after another. */
function cpuPerRequest(stack, count, send) {
  return processCpu(stack.workerGroup, count, send);
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** `count` reviewers loop for `seconds`: three ticks, then a page read. */
async function load(stack, sessions, count) {
  const kinds = { tick: [], page: [] };
  let failures = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: count }, async (_, reviewer) => {
    const session = sessions[reviewer % sessions.length];
    for (let round = 0; Date.now() < deadline; round += 1) {
      for (const [kind, send] of [
        ['tick', () => tick(stack, session, `r${reviewer}-item${round % 10}`, round % 2 === 0)],
        ['tick', () => tick(stack, session, `r${reviewer}-file${round % 10}`, true)],
        ['tick', () => tick(stack, session, `r${reviewer}-check${round % 10}`, round % 3 === 0)],
        ['page', () => readPage(stack, session)],
      ]) {
        const t0 = performance.now();
        const response = await send();
        await response.arrayBuffer();
        if (response.status !== 200) failures += 1;
        kinds[kind].push(performance.now() - t0);
      }
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  return summarize(kinds, elapsed, failures);
}

function summarize(kinds, elapsed, failures) {
  return Object.entries(kinds).map(([kind, times]) => {
    const sorted = times.sort((a, b) => a - b);
    return { kind, count: sorted.length, rps: sorted.length / elapsed, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), failures };
  });
}

/**
 * Ticks only, `count` reviewers for `seconds`: all on one pull request, or each on its own (the
 * same work spread over `count` objects), to tell the one object's limit from the machine's.
 */
async function tickLoad(stack, sessions, count, spread) {
  const times = [];
  let failures = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: count }, async (_, reviewer) => {
    const session = sessions[reviewer % sessions.length];
    const path = spread ? `/r/${pr.owner}/${pr.repo}/pull/${1000 + reviewer}` : pullPath;
    for (let round = 0; Date.now() < deadline; round += 1) {
      const t0 = performance.now();
      const response = await tick(stack, session, `r${reviewer}-item${round % 10}`, round % 2 === 0, path);
      await response.arrayBuffer();
      if (response.status !== 200) failures += 1;
      times.push(performance.now() - t0);
    }
  }));
  return summarize({ [spread ? `tick, ${count} pull requests` : 'tick, one pull request']: times }, (performance.now() - started) / 1000, failures);
}

/** The Worker's log line for the last request of a route, once it has been written. */
async function lastLine(stack, predicate) {
  for (let i = 0; i < 50; i += 1) {
    const lines = stack.workerLog().split('\n').filter((l) => l.includes('{"event":"request"'))
      .map((l) => JSON.parse(l.slice(l.indexOf('{"event":"request"'))));
    const found = lines.filter(predicate).at(-1);
    if (found) return found;
    await sleep(100);
  }
  return null;
}

const stack = await startStack({
  localDev: false,
  logLevel: 'log',
  vars: { ...OAUTH_VARS, ADDRESS_RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_PER_MINUTE: '100000' },
});
const out = [];
const say = (line = '') => { out.push(line); console.log(line); };
try {
  say(`# Hot pull request, ${new Date().toISOString().slice(0, 16)}Z, local workerd`);
  say();
  // Costs per request kind, from the Worker's own log lines.
  const { tokens } = await connect(stack, { login: 'octo', name: 'Simulated agent' });
  const sessions = [];
  for (const login of ['octo', 'reader', 'maint']) sessions.push(await webSession(stack, login));
  const costs = [];
  const measure = async (label, send, predicate) => {
    await send();
    const line = await lastLine(stack, predicate);
    costs.push({ label, line });
  };
  await measure('tools/list (token)', () => listTools(stack, tokens.access_token), (l) => l.mcp_method === 'tools/list');
  await measure('get_pull_request, first read', () => callTool(stack, tokens.access_token, 'get_pull_request', pr), (l) => l.tool === 'get_pull_request' && l.cache === 'miss');
  await measure('get_pull_request, same head', () => callTool(stack, tokens.access_token, 'get_pull_request', pr), (l) => l.tool === 'get_pull_request' && l.cache === 'hit');
  const current = (await callTool(stack, tokens.access_token, 'get_pull_request', pr)).body.result.structuredContent;
  const sections = [{ title: 'All', layer: 'logic', files: current.files.map((f) => ({ path: f.path, ...(f.likelyGenerated ? { focus: 'generated' } : {}) })) }];
  await measure('save_reading_order', () => callTool(stack, tokens.access_token, 'save_reading_order', { ...pr, base_version: current.baseVersion, overview: 'Simulated.', sections }), (l) => l.tool === 'save_reading_order');
  await measure('review page', () => readPage(stack, sessions[0]), (l) => l.route === 'review');
  await measure('tick', () => tick(stack, sessions[0], 'warm-up', true), (l) => l.route === 'tick');
  await measure('settings page', () => fetch(`${stack.baseUrl}/settings`, { headers: { cookie: sessions[0].cookie } }), (l) => l.route === 'settings');
  // CPU: workerd's own CPU time (both processes, the Worker's and the objects') over many
  // requests of one kind sent in sequence, so other load on the machine does not count.
  const cpu = {};
  cpu['home page (floor)'] = await cpuPerRequest(stack, 300, () => fetch(`${stack.baseUrl}/`).then((r) => r.arrayBuffer()));
  cpu['tools/list (token)'] = await cpuPerRequest(stack, 300, () => listTools(stack, tokens.access_token));
  cpu['get_pull_request, same head'] = await cpuPerRequest(stack, 100, () => callTool(stack, tokens.access_token, 'get_pull_request', pr));
  cpu['get_pull_request, first read'] = await cpuPerRequest(stack, 20, async () => {
    await standinControl(stack, 'POST', 'push', { repo: `${pr.owner}/${pr.repo}`, number: pr.number });
    await callTool(stack, tokens.access_token, 'get_pull_request', pr);
  });
  cpu['review page'] = await cpuPerRequest(stack, 50, () => readPage(stack, sessions[0]).then((r) => r.arrayBuffer()));
  cpu.tick = await cpuPerRequest(stack, 200, (i) => tick(stack, sessions[0], `cpu-${i % 20}`, i % 2 === 0));
  cpu['settings page'] = await cpuPerRequest(stack, 100, () => fetch(`${stack.baseUrl}/settings`, { headers: { cookie: sessions[0].cookie } }).then((r) => r.arrayBuffer()));
  const big = { owner: 'logikflow', repo: 'big', number: 1 };
  await callTool(stack, tokens.access_token, 'get_pull_request', big);
  cpu['get_pull_request, 320 files, same head'] = await cpuPerRequest(stack, 20, () => callTool(stack, tokens.access_token, 'get_pull_request', big));
  say('| request | GitHub subrequests | Durable Object requests | snapshot cache | workerd CPU ms/request |');
  say('|---|---|---|---|---|');
  for (const { label, line } of costs) {
    say(`| ${label} | ${line?.github_requests ?? '?'} | ${line?.objects ?? '?'} | ${line?.cache ?? '–'} | ${cpu[label]?.toFixed(1) ?? '–'} |`);
  }
  say(`| get_pull_request, 320 files, same head | – | – | hit | ${cpu['get_pull_request, 320 files, same head'].toFixed(1)} |`);
  say(`| home page (floor: no object, no GitHub) | 0 | 0 | – | ${cpu['home page (floor)'].toFixed(1)} |`);
  say();
  say(`Load: reviewers signed in as 3 people, each ticking 3 items per review page read, ${seconds} s per step, one pull request (one object).`);
  say();
  say('| reviewers | kind | requests | req/s | p50 ms | p95 ms | p99 ms | non-200 |');
  say('|---|---|---|---|---|---|---|---|');
  for (const count of [...new Set([1, 8, reviewers])]) {
    for (const row of await load(stack, sessions, count)) {
      say(`| ${count} | ${row.kind} | ${row.count} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.failures} |`);
    }
  }
  say();
  say(`Ticks only, ${reviewers} reviewers, ${seconds} s: one pull request's object, then the same load over ${reviewers} objects.`);
  say();
  say('| load | requests | req/s | p50 ms | p95 ms | p99 ms | non-200 |');
  say('|---|---|---|---|---|---|---|');
  for (const spread of [false, true]) {
    for (const row of await tickLoad(stack, sessions, reviewers, spread)) {
      say(`| ${row.kind} | ${row.count} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.failures} |`);
    }
  }
  const os = await import('node:os');
  say();
  say(`Machine: ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the end (other work shares it).`);
} finally {
  await stack.stop();
}
mkdirSync(join(root, 'tests/artifacts'), { recursive: true });
writeFileSync(join(root, 'tests/artifacts/hot-pull.md'), `${out.join('\n')}\n`);
console.log('Written to tests/artifacts/hot-pull.md');

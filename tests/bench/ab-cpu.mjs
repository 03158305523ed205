// A/B of the Worker isolate's own time per request (tests/bench/cpu.mjs `isolateCpu`) for the
// one-at-a-time cases of `npm run bench` (tools/list, get_pull_request, the 50-section save) and
// a review page, for two or more builds in one session (issues #19, #28): each
// build runs in its own `wrangler dev` with its own stand-in, and every round measures each case
// on each build in turn, alternating the order, so a slow spell on a shared machine hits all alike.
// Prints per case and build the median and the middle 60% of the rounds.
//
//   cp -r build /tmp/a        # a build to compare, e.g. before a change
//   LOGIKFLOW_BUILD=skip node tests/bench/ab-cpu.mjs a=/tmp/a b=build
//
// AB_ROUNDS (default 4) sets the rounds. After the warm-up the 320-file pull request has a saved
// order (the save case's), so its reads here also check that order's suggestions, unlike
// `npm run bench`, which saves last. A diagnostic: nothing is asserted, nothing is written.
import { standinControl } from '../e2e/harness.mjs';
import { fiftySections, isolateCpu } from './cpu.mjs';
import { buildsFromArgs, startBuildStack } from './side-worker.mjs';

const rounds = Number(process.env.AB_ROUNDS ?? 4);
const builds = buildsFromArgs('node tests/bench/ab-cpu.mjs NAME=BUILD_DIR [NAME=BUILD_DIR ...]');

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const call = (name, args) => ({
  headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta } }),
});

/** The cases of one stack: [name, count, send]. */
async function cases(stack) {
  const post = async (request) => {
    const reply = await fetch(stack.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...request.headers },
      body: request.body, signal: AbortSignal.timeout(120_000) });
    const text = await reply.text();
    if (reply.status !== 200) throw new Error(`${reply.status} ${text.slice(0, 200)}`);
    return JSON.parse(text).result;
  };
  const read = (number) => call('get_pull_request', { owner: 'logikflow', repo: 'big', number });
  const toolsList = {
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }),
  };
  const list = [['tools/list, 2026-07-28', 100, () => post(toolsList)]];
  for (const [number, files] of [[3, 30], [1, 320], [2, 3000]]) {
    const count = Math.max(4, Math.round(100 / Math.sqrt(files)));
    list.push([`get_pull_request, ${files} files, first read`, count, async () => {
      await standinControl(stack, 'POST', 'push', { repo: 'logikflow/big', number });
      await post(read(number));
    }]);
    list.push([`get_pull_request, ${files} files, repeat read`, count * 2, () => post(read(number))]);
  }
  // The review page with its snapshot cached (local development acts as the local user): the
  // cached snapshot's read is most of a large page's work.
  for (const [number, files] of [[1, 320], [2, 3000]]) {
    const url = `${stack.baseUrl}/r/logikflow/big/pull/${number}`;
    list.push([`review page, ${files} files, cached head`, 6, async () => {
      const reply = await fetch(url, { signal: AbortSignal.timeout(120_000) });
      const html = await reply.text();
      if (reply.status !== 200) throw new Error(`${url}: ${reply.status} ${html.slice(0, 200)}`);
    }]);
  }
  const pull = { owner: 'logikflow', repo: 'big', number: 1 };
  const current = (await post(read(1))).structuredContent;
  const sections = fiftySections(current.files.map((f) => f.path));
  let version = current.baseVersion;
  list.push(['save_reading_order, 50 sections, 320 files', 10, async () => {
    const result = await post(call('save_reading_order', { ...pull, base_version: version, overview: 'A benchmark order.', sections }));
    if (result.isError) throw new Error(result.content[0].text.slice(0, 300));
    version = result.structuredContent.version;
  }]);
  // The review page of the 320-file pull request at a cached head (local development's user).
  const page = `${stack.baseUrl}/r/logikflow/big/pull/1`;
  list.push(['review page, 320 files, cached head', 8, async () => {
    const reply = await fetch(page, { signal: AbortSignal.timeout(120_000) });
    const html = await reply.text();
    if (reply.status !== 200) throw new Error(`${page}: ${reply.status} ${html.slice(0, 200)}`);
  }]);
  return list;
}

function middle(values) {
  const s = [...values].sort((a, b) => a - b);
  const trim = Math.floor(s.length / 5);
  return `${s[Math.floor(s.length / 2)].toFixed(1)} (${s[trim].toFixed(1)}–${s[s.length - 1 - trim].toFixed(1)})`;
}

const stacks = [];
try {
  for (const build of builds) {
    const stack = await startBuildStack(build);
    stacks.push({ ...build, stack, cases: await cases(stack) });
  }
  const names = stacks[0].cases.map(([name]) => name);
  const runs = new Map();
  for (const s of stacks) for (const [, , send] of s.cases) await send(); // warm-up
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, name] of names.entries()) {
      const order = round % 2 ? [...stacks].reverse() : stacks;
      for (const s of order) {
        const [, count, send] = s.cases[index];
        const key = `${name}|${s.name}`;
        if (!runs.has(key)) runs.set(key, []);
        const { ms, objectMs, named } = await isolateCpu(s.stack.inspectorPort, count, send);
        runs.get(key).push(ms);
        // With function names, the Worker's own invocation too (the rest ran in objects' code).
        if (named) (runs.get(`${key}|worker`) ?? runs.set(`${key}|worker`, []).get(`${key}|worker`)).push(ms - objectMs);
      }
    }
    process.stderr.write(`round ${round + 1}/${rounds}\n`);
  }
  console.log(`Isolate ms per request, ${rounds} rounds alternating the builds: median (middle 60%)\n`);
  console.log(`| case | ${stacks.map((s) => s.name).join(' | ')} |\n|---|${stacks.map(() => '---|').join('')}`);
  for (const name of names) {
    console.log(`| ${name} | ${stacks.map((s) => middle(runs.get(`${name}|${s.name}`))).join(' | ')} |`);
    if (stacks.every((s) => runs.has(`${name}|${s.name}|worker`))) {
      console.log(`| ${name}: the Worker alone | ${stacks.map((s) => middle(runs.get(`${name}|${s.name}|worker`))).join(' | ')} |`);
    }
  }
} finally {
  for (const s of stacks) await s.stack.stop();
}

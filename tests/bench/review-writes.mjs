// The Worker's CPU for the review page's writes and the arrange editor, by size (issue #30): the
// isolate's own time (tests/bench/cpu.mjs `isolateCpu`) of a draft comment (`POST …/comments`,
// as the page's script sends it) and of the arrange editor's page (`GET …/arrange`), in local
// development (no sign-in). With the names in build/ (LOGIKFLOW_NAMES=1) the objects'
// share is told apart: "Worker alone" is what the Free plan's 10 ms applies to. Figures only.
//
//   LOGIKFLOW_NAMES=1 bash tests/scripts/build.sh &&
//     LOGIKFLOW_BUILD=skip node tests/bench/review-writes.mjs [requests]
import { postMcp, standinControl, startStack } from '../e2e/harness.mjs';
import { fiftySections, isolateCpu } from './cpu.mjs';

const count = Number(process.argv[2] ?? 6);
const stack = await startStack({ vars: { RATE_LIMIT_PER_MINUTE: '100000000' } });
await standinControl(stack, 'POST', 'config', { unlimitedRate: true });

/** Every path the pull request changes, from the stand-in's file pages. */
async function paths(number) {
  const all = [];
  for (let page = 1; ; page += 1) {
    const reply = await fetch(`${stack.standinUrl}/repos/logikflow/big/pulls/${number}/files?per_page=100&page=${page}`, {
      headers: { authorization: 'Bearer gho_standin_octo', accept: 'application/vnd.github+json' },
    });
    const files = await reply.json();
    all.push(...files);
    if (files.length < 100) return all;
  }
}

/** The new-side number of the first added line of a patch. */
function firstAdded(patch) {
  let line = 0;
  for (const text of patch.split('\n')) {
    const hunk = text.match(/^@@ -\d+(?:,\d+)? \+(\d+)/);
    if (hunk) { line = Number(hunk[1]); continue; }
    if (text.startsWith('+')) return line;
    if (!text.startsWith('-')) line += 1;
  }
  return 0;
}

const median = (runs) => runs.sort((a, b) => a.ms - b.ms)[1];
const fmt = (run) => `${run.ms.toFixed(1)} | ${run.named ? (run.ms - run.objectMs).toFixed(1) : 'names stripped'}`;

try {
  console.log('| route | files | isolate ms | Worker alone ms |\n|---|---|---|---|');
  for (const number of [1, 2]) {
    const files = await paths(number);
    const base = `${stack.baseUrl}/r/logikflow/big/pull/${number}`;
    // An order to arrange: fifty sections over every file.
    const pull = { owner: 'logikflow', repo: 'big', number };
    const call = (name, args, id) => postMcp(stack, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const read = (await call('get_pull_request', pull, 1)).body.result.structuredContent;
    const saved = await call('save_reading_order', { ...pull, base_version: read.baseVersion, overview: 'A benchmark order.', sections: fiftySections(files.map((f) => f.filename)) }, 2);
    if (saved.body.result.isError) throw new Error(saved.body.result.content[0].text.slice(0, 300));
    // The page's CSRF token and cookie, and a line to comment on.
    const page = await fetch(base);
    const html = await page.text();
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
    const csrf = html.match(/name="csrf" value="([^"]*)"/)?.[1];
    const file = files.find((f) => f.patch && firstAdded(f.patch) > 0);
    const form = new URLSearchParams({ csrf, path: file.filename, line: String(firstAdded(file.patch)), side: 'RIGHT', body: 'Why this line?' });
    const comment = async () => {
      const reply = await fetch(`${base}/comments`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', origin: stack.baseUrl, cookie },
        body: form.toString(),
      });
      const text = await reply.text();
      if (reply.status !== 200) throw new Error(`comment: ${reply.status} ${text.slice(0, 300)}`);
    };
    const arrange = async () => {
      const reply = await fetch(`${base}/arrange`);
      const text = await reply.text();
      if (reply.status !== 200) throw new Error(`arrange: ${reply.status} ${text.slice(0, 300)}`);
    };
    // Warm-up; 21 drafts in all, far below a person's 200.
    for (let i = 0; i < 3; i += 1) { await comment(); await arrange(); }
    const runs = { comment: [], arrange: [] };
    for (let i = 0; i < 3; i += 1) {
      runs.comment.push(await isolateCpu(stack.inspectorPort, count, comment));
      runs.arrange.push(await isolateCpu(stack.inspectorPort, count, arrange));
    }
    console.log(`| POST …/comments (a draft) | ${files.length} | ${fmt(median(runs.comment))} |`);
    console.log(`| GET …/arrange | ${files.length} | ${fmt(median(runs.arrange))} |`);
  }
} catch (error) {
  console.error(stack.workerLog().slice(-3000));
  throw error;
} finally {
  await stack.stop();
}

// The review page's wall time as a reviewer waits for it (issue #30: "the 3,000-file first view
// is no slower end to end than today"), for builds side by side: the first view after a push
// (the snapshot built at the new head) and a cached view, of logikflow/big#2 (3,000 files) and
// big#1 (320), in local development (no sign-in) against the GitHub stand-in. Client time from
// request to the last byte; each build on its own stack, the builds taken in turn within each
// round so load on this shared machine falls on all of them alike. Figures only.
//
//   node tests/bench/first-view.mjs now=build before=/path/to/other/build [rounds]
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, standinControl, startStack } from '../e2e/harness.mjs';
import { buildsFromArgs } from './side-worker.mjs';

const builds = buildsFromArgs('node tests/bench/first-view.mjs NAME=BUILD_DIR [NAME=BUILD_DIR ...] [rounds]');
const rounds = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 7);
const PULLS = [['big', 1, 320], ['big', 2, 3000]];

/** A stack serving `build.dir` (a build/ folder) with the repository's wrangler.toml. */
async function stackFor(build) {
  const dir = mkdtempSync(join(tmpdir(), `logikflow-view-${build.name}-`));
  const config = readFileSync(join(root, 'wrangler.toml'), 'utf8').replace(/^\[build\]\n(?:(?!\[).*\n)*/m, '');
  writeFileSync(join(dir, 'wrangler.toml'), config);
  symlinkSync(build.dir, join(dir, 'build'));
  const stack = await startStack({ config: join(dir, 'wrangler.toml'), vars: { RATE_LIMIT_PER_MINUTE: '100000000' } });
  await standinControl(stack, 'POST', 'config', { unlimitedRate: true });
  return { ...build, stack, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Milliseconds from sending `GET url` to its last byte; throws unless 200. */
async function timed(url) {
  const started = performance.now();
  const reply = await fetch(url);
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`${url}: ${reply.status} ${text.slice(0, 200)}`);
  return performance.now() - started;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const range = (values) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;

const stacks = [];
try {
  for (const build of builds) stacks.push(await stackFor(build));
  const times = new Map();
  const add = (key, ms) => times.set(key, [...(times.get(key) ?? []), ms]);
  for (const [repo, number] of PULLS) {
    for (const s of stacks) {
      const url = `${s.stack.baseUrl}/r/logikflow/${repo}/pull/${number}`;
      for (let i = 0; i < 3; i += 1) await timed(url); // warm-up: compile, caches
    }
  }
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? stacks : [...stacks].reverse();
    for (const [repo, number, files] of PULLS) {
      for (const s of order) {
        const url = `${s.stack.baseUrl}/r/logikflow/${repo}/pull/${number}`;
        await standinControl(s.stack, 'POST', 'push', { repo: `logikflow/${repo}`, number });
        add(`${s.name}|${files}|first`, await timed(url));
        add(`${s.name}|${files}|cached`, await timed(url));
      }
    }
  }
  console.log(`Review page wall time, ms (median of ${rounds}, range), local workerd on ${process.env.HOSTNAME ?? 'this machine'}:\n`);
  console.log(`| build | ${PULLS.map(([, , files]) => `${files} files, first view after a push | ${files} files, cached`).join(' | ')} |`);
  console.log(`|---|${PULLS.map(() => '---|---').join('|')}|`);
  for (const s of stacks) {
    const cells = PULLS.flatMap(([, , files]) => ['first', 'cached'].map((kind) => {
      const values = times.get(`${s.name}|${files}|${kind}`);
      return `${median(values).toFixed(0)} (${range(values)})`;
    }));
    console.log(`| ${s.name} | ${cells.join(' | ')} |`);
  }
} finally {
  for (const s of stacks) {
    await s.stack.stop();
    s.cleanup();
  }
}

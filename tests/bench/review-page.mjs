// The review page's CPU by size: the isolate's own time (tests/bench/cpu.mjs `isolateCpu`) of
// `GET /r/…` in local development (no sign-in), for a cached head and for the first view after
// a push (which builds the snapshot). The page's Durable Object requests run in the same isolate
// locally, so they are counted too. Figures only (issue #19, docs/capacity.md).
//
//   bash tests/scripts/build.sh && LOGIKFLOW_BUILD=skip node tests/bench/review-page.mjs [views]
import { standinControl, startStack } from '../e2e/harness.mjs';
import { isolateCpu } from './cpu.mjs';

const views = Number(process.argv[2] ?? 8);
const stack = await startStack({ vars: { RATE_LIMIT_PER_MINUTE: '100000000' } });
await standinControl(stack, 'POST', 'config', { unlimitedRate: true });
try {
  console.log('| pull request | files shown | cached head, ms | first view after a push, ms |\n|---|---|---|---|');
  for (const [repo, number] of [['demo', 3], ['big', 1], ['big', 2]]) {
    const url = `${stack.baseUrl}/r/logikflow/${repo}/pull/${number}`;
    const view = async () => {
      const reply = await fetch(url);
      const html = await reply.text();
      if (reply.status !== 200) throw new Error(`${url}: ${reply.status} ${html.slice(0, 200)}`);
      return html;
    };
    const files = (await view()).match(/class="file-head/g)?.length ?? 0;
    for (let i = 0; i < 4; i += 1) await view(); // warm-up: the first views also compile
    // The median of three measurements: single ones on a shared machine swing by a third.
    const runs = [];
    for (let i = 0; i < 3; i += 1) runs.push((await isolateCpu(stack.inspectorPort, views, view)).ms);
    const cached = { ms: runs.sort((a, b) => a - b)[1] };
    const pushed = await isolateCpu(stack.inspectorPort, 3, async () => {
      await standinControl(stack, 'POST', 'push', { repo: `logikflow/${repo}`, number });
      await view();
    });
    console.log(`| logikflow/${repo}#${number} | ${files || '?'} | ${cached.ms.toFixed(1)} | ${pushed.ms.toFixed(1)} |`);
  }
} finally {
  await stack.stop();
}

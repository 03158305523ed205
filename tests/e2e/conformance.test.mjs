// The official MCP conformance suite against the real Worker, for the 2026-07-28 and 2025-11-25
// requirement sets. Expected failures are listed in tests/conformance/<set>.yml and are limited to
// scenarios that need the suite's own fixture tools; a stale entry fails the run too.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { root, startStack } from './harness.mjs';

const run = promisify(execFile);
let stack;
before(async () => { stack = await startStack(); });
after(async () => { await stack?.stop(); });

for (const requirements of ['2026-07-28', '2025-11-25']) {
  test(`conformance suite, requirement set ${requirements}`, async () => {
    const cli = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
    const args = [cli, 'server', '--url', stack.mcpUrl, '--requirements', requirements,
      '--expected-failures', join(root, 'tests/conformance', `${requirements}.yml`)];
    let outcome;
    try {
      outcome = await run(process.execPath, args, { cwd: root, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
      outcome.code = 0;
    } catch (error) {
      outcome = error;
    }
    const tail = `${outcome.stdout ?? ''}\n${outcome.stderr ?? ''}`.split('\n').slice(-60).join('\n');
    assert.equal(outcome.code, 0, `conformance ${requirements} failed:\n${tail}`);
  });
}

// The Python `mcp` client with OAuth against a Worker that is not in local development:
// discovery, registration, sign-in through the GitHub stand-in, consent, token, then tools.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { root, startStack } from './harness.mjs';
import { OAUTH_VARS } from './oauth-flow.mjs';
import { MODEL_TOOL_NAMES } from './schemas.mjs';

const run = promisify(execFile);
let stack;
before(async () => { stack = await startStack({ localDev: false, vars: OAUTH_VARS }); });
after(async () => { await stack?.stop(); });

test('Python mcp client connects with OAuth and calls a tool', async () => {
  const { stdout } = await run(join(root, '.tools/venv/bin/python'), [join(root, 'tests/e2e/python_oauth.py'), stack.mcpUrl], { timeout: 90_000 });
  const report = JSON.parse(stdout.trim().split('\n').pop());
  assert.equal(report.signedIn, true);
  // 2026-07-28 without the MCP Apps extension: no view-only tools (issue #30).
  assert.deepEqual(report.tools, MODEL_TOOL_NAMES);
  assert.equal(report.pullRequestError, false);
  assert.equal(report.canArrange, true);
});

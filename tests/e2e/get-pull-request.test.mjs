// get_pull_request against the GitHub stand-in through the real Worker: the demo pull request's
// fields (the tool's smoke case) and a 320-file read within its subrequest budget, repeated from
// the KV cache as workerd serves it. Outputs are validated against the schema. GitHub's 3,000-file
// cap, the patch caps, change ids across a push, a hidden pull request and every GitHub failure of
// the spec's error table are tested in process, in src/app/pull_request/tools/tests/
// get_pull_request.rs (issue #37).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { standinControl, startStack } from './harness.mjs';
import { validateToolOutput } from './schemas.mjs';

let stack;
let client;
before(async () => {
  stack = await startStack();
  client = new Client({ name: 'gpr-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
});
after(async () => {
  await client?.close();
  await stack?.stop();
});
beforeEach(async () => {
  await standinControl(stack, 'POST', 'reset');
});

async function getPull(args) {
  const result = await client.callTool({ name: 'get_pull_request', arguments: args });
  if (!result.isError) validateToolOutput('get_pull_request', result.structuredContent);
  return result;
}

async function restRequests() {
  const log = await standinControl(stack, 'GET', 'requests');
  return log.requests.filter((r) => r.kind === 'rest');
}

describe('reading', () => {
  test('a small PR: fields, hints, change ids, conventions', async () => {
    const result = await getPull({ owner: 'logikflow', repo: 'demo', number: 3 });
    assert.equal(result.isError, false);
    const pr = result.structuredContent;
    assert.deepEqual(JSON.parse(result.content[0].text), pr, 'the text is the same JSON');
    assert.equal(pr.repository, 'logikflow/demo');
    assert.equal(pr.reviewUrl, `${stack.baseUrl}/r/logikflow/demo/pull/3`);
    assert.equal(pr.pullRequest.number, 3);
    assert.match(pr.pullRequest.headSha, /^[0-9a-f]{40}$/);
    assert.equal(pr.canArrange, true);
    assert.equal(pr.currentOrder, null);
    assert.equal(pr.baseVersion, 0);
    assert.equal(pr.diagramPreference, 'always');
    const byPath = Object.fromEntries(pr.files.map((f) => [f.path, f]));
    const lock = pr.files.find((f) => f.path.endsWith('package-lock.json'));
    assert.equal(lock.likelyGenerated, true);
    const renamed = pr.files.find((f) => f.status === 'renamed');
    assert.ok(renamed.previousPath, 'renames carry previousPath');
    const generated = pr.files.find((f) => f.path.startsWith('gen/'));
    assert.equal(generated.likelyGenerated, true, '.gitattributes marks gen/**');
    const split = pr.files.find((f) => f.changes);
    assert.ok(split.changes.length >= 2);
    const ids = split.changes.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length, 'identical hunks still get distinct ids');
    for (const change of split.changes) {
      assert.match(change.id, /^h[0-9a-z]{1,12}$/);
      assert.ok(change.preview.length <= 120);
      assert.match(change.header, /^@@ /);
    }
    assert.ok(pr.files.some((f) => f.testOf), 'a test names its subject');
    assert.ok(Object.keys(byPath).length >= 5);
  });

  test('320 files: every page is read, within the subrequest budget, and a repeat read costs 2', async () => {
    const first = await getPull({ owner: 'logikflow', repo: 'big', number: 1 });
    assert.equal(first.structuredContent.files.length, 320);
    assert.equal(first.structuredContent.filesTruncatedByGitHub, false);
    const firstCount = (await restRequests()).length;
    assert.ok(firstCount <= Math.ceil(320 / 100) + 4, `first read used ${firstCount} requests`);
    await standinControl(stack, 'DELETE', 'requests');
    const repeat = await getPull({ owner: 'logikflow', repo: 'big', number: 1 });
    assert.deepEqual(repeat.structuredContent.files, first.structuredContent.files);
    const repeatCount = (await restRequests()).length;
    assert.ok(repeatCount <= 2, `repeat read used ${repeatCount} requests`);
  });
});

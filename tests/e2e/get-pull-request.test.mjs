// get_pull_request against the GitHub stand-in through the real Worker: paging, GitHub's
// 3,000-file cap, subrequest budgets, the KV snapshot cache, patch caps, hints, visibility and
// every GitHub failure of the spec's error table. Outputs are validated against the schema.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { standinControl, startStack } from './harness.mjs';
import { validateToolOutput } from './schemas.mjs';

let stack;
let client;
before(async () => {
  stack = await startStack({ vars: { GITHUB_TIMEOUT_MS: '1500' } });
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

  test('change ids are stable across reads and survive a push elsewhere in the PR', async () => {
    const first = (await getPull({ owner: 'logikflow', repo: 'demo', number: 3 })).structuredContent;
    const again = (await getPull({ owner: 'logikflow', repo: 'demo', number: 3 })).structuredContent;
    assert.deepEqual(again.files, first.files);
    const push = await standinControl(stack, 'POST', 'push', { repo: 'logikflow/demo', number: 3 });
    const after = (await getPull({ owner: 'logikflow', repo: 'demo', number: 3 })).structuredContent;
    assert.equal(after.pullRequest.headSha, push.head_sha);
    const before = new Set(first.files.flatMap((f) => (f.changes ?? []).map((c) => c.id)));
    const now = after.files.flatMap((f) => (f.changes ?? []).map((c) => c.id));
    const kept = now.filter((id) => before.has(id));
    assert.ok(kept.length >= now.length - 1, 'only the pushed hunk gets a new id');
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

  test('3,200 files: GitHub lists 3,000 and the result says so', async () => {
    const result = await getPull({ owner: 'logikflow', repo: 'big', number: 2 });
    assert.equal(result.isError, false);
    assert.equal(result.structuredContent.files.length, 3000);
    assert.equal(result.structuredContent.filesTruncatedByGitHub, true);
    const count = (await restRequests()).length;
    assert.ok(count <= 30 + 4, `used ${count} requests`);
  });

  test('include_patches: patches capped per file and per response', async () => {
    const result = await getPull({ owner: 'logikflow', repo: 'big', number: 1, include_patches: true });
    assert.equal(result.isError, false);
    const pr = result.structuredContent;
    assert.ok(JSON.stringify(pr).length <= 400_000);
    for (const file of pr.files) {
      if (file.patch) assert.ok(file.patch.length <= 20_000, file.path);
      assert.ok(file.patch || file.patchTruncated || file.patchUnavailable, file.path);
    }
    const small = await getPull({ owner: 'logikflow', repo: 'demo', number: 3, include_patches: true });
    const binary = small.structuredContent.files.find((f) => f.path.endsWith('.png'));
    assert.equal(binary.patchUnavailable, true);
    assert.ok(small.structuredContent.files.some((f) => f.patch?.startsWith('@@')));
  });

  test('this project as a pull request: hints from real code', async () => {
    const result = await getPull({ owner: 'logikflow', repo: 'demo', number: 1 });
    assert.equal(result.isError, false);
    const files = result.structuredContent.files;
    assert.ok(files.length > 20);
    const lock = files.find((f) => f.path === 'Cargo.lock');
    if (lock) assert.equal(lock.likelyGenerated, true);
  });
});

describe('access', () => {
  test('a private repository is invisible to someone without access', async () => {
    const reader = await startStack({ localUser: 'reader' });
    try {
      const readerClient = new Client({ name: 'reader', version: '1' });
      await readerClient.connect(new StreamableHTTPClientTransport(new URL(reader.mcpUrl)));
      const hidden = await readerClient.callTool({ name: 'get_pull_request', arguments: { owner: 'logikflow', repo: 'private', number: 1 } });
      assert.equal(hidden.isError, true);
      assert.match(hidden.content[0].text, /^GitHub says this pull request doesn't exist or this account can't see it/);
      const visible = await readerClient.callTool({ name: 'get_pull_request', arguments: { owner: 'logikflow', repo: 'demo', number: 3 } });
      assert.equal(visible.structuredContent.canArrange, false, 'pull access only');
      await readerClient.close();
    } finally {
      await reader.stop();
    }
  });
});

describe('errors', () => {
  const demo = { owner: 'logikflow', repo: 'demo', number: 3 };
  const cases = [
    ['a missing pull request', null, { ...demo, number: 999 }, /^GitHub says this pull request doesn't exist or this account can't see it/],
    ['a revoked token (401)', { path: '/pulls/3', kind: 'unauthorized', times: 0 }, demo, /^GitHub access for this connection has expired/],
    ['the rate limit', { path: '/pulls/3', kind: 'rate_limit', times: 0 }, demo, /^GitHub's rate limit was reached.*resets in about/],
    ['a secondary rate limit', { path: '/pulls/3', kind: 'secondary_rate_limit', times: 0 }, demo, /^GitHub's rate limit was reached.*30 seconds/],
    ['5xx twice', { path: '/pulls/3', kind: 'status', status: 502, times: 0 }, demo, /HTTP 502, twice/],
    ['a timeout twice', { path: '/pulls/3', kind: 'slow', delayMs: 4000, times: 0 }, demo, /did not answer in time/],
    ['truncated JSON', { path: '/pulls/3', kind: 'truncated', times: 0 }, demo, /could not read/],
  ];
  for (const [name, fault, args, message] of cases) {
    test(name, async () => {
      if (fault) await standinControl(stack, 'POST', 'faults', fault);
      const result = await client.callTool({ name: 'get_pull_request', arguments: args });
      assert.equal(result.isError, true);
      assert.match(result.content[0].text, message);
      assert.equal(result.structuredContent, undefined);
    });
  }

  test('one 5xx is retried and the read succeeds', async () => {
    await standinControl(stack, 'POST', 'faults', { path: '/pulls/3', kind: 'status', status: 503, times: 1 });
    const result = await getPull(demo);
    assert.equal(result.isError, false);
  });

  test('bad arguments name every problem', async () => {
    const result = await client.callTool({ name: 'get_pull_request', arguments: { owner: 'a/b', number: 0, include_patches: 'yes' } });
    assert.equal(result.isError, true);
    const text = result.content[0].text;
    assert.match(text, /^The request is invalid: /);
    for (const part of ['owner must be', 'repo is required', 'number must be a positive integer', 'include_patches must be true or false']) {
      assert.ok(text.includes(part), `${part} in ${text}`);
    }
  });
});

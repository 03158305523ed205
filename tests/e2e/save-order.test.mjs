// save_reading_order through the real Worker and its Durable Object: one save read back (the
// tool's smoke case), concurrent saves serialized by the real object, and persistence across a
// restart, and the `LogiKFlow` commit status a save leaves on the head, read back where GitHub
// shows it (the combined status). The save's rules (its answer, conflicts, every refusal leaving
// nothing, splits, write access, the order saved before new commits) are tested in process, in
// src/app/pull_request/tools/tests/saves.rs (issue #37); the status's (off, read-only, refused,
// one write per save) in src/app/pull_request/commit_status/tests.rs (issue #47).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { standinControl, startStack } from './harness.mjs';
import { validateToolInput, validateToolOutput } from './schemas.mjs';

let stack;
let client;
const pr = { owner: 'logikflow', repo: 'demo', number: 3 };

async function connect() {
  const c = new Client({ name: 'save-e2e', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
  return c;
}

before(async () => {
  stack = await startStack();
  client = await connect();
});
after(async () => {
  await client?.close();
  await stack?.stop();
});

async function read(target = pr) {
  const result = await client.callTool({ name: 'get_pull_request', arguments: target });
  assert.equal(result.isError, false, result.content?.[0]?.text);
  validateToolOutput('get_pull_request', result.structuredContent);
  return result.structuredContent;
}

/** An order that lists every file once, in GitHub's order, in two titled sections. */
function orderFor(files, extra = {}) {
  const half = Math.ceil(files.length / 2);
  return {
    overview: 'Reads the change from its model to its callers.',
    sections: [
      { title: 'Core', layer: 'logic', note: 'Start here.', checks: ['Ids stay stable'], files: files.slice(0, half).map((f) => ({ path: f.path })) },
      { title: 'Everything else', layer: 'tooling', files: files.slice(half).map((f) => ({ path: f.path, ...(f.likelyGenerated ? { focus: 'generated' } : {}) })) },
    ],
    ...extra,
  };
}

async function save(args) {
  validateToolInput('save_reading_order', args);
  const result = await client.callTool({ name: 'save_reading_order', arguments: args });
  if (!result.isError) validateToolOutput('save_reading_order', result.structuredContent);
  return result;
}

describe('saving', () => {
  test('save, read back, save again with the new version', async () => {
    const before = await read();
    assert.equal(before.baseVersion, 0);
    const first = await save({ ...pr, base_version: 0, ...orderFor(before.files) });
    assert.equal(first.isError, false, first.content[0].text);
    const saved = first.structuredContent;
    assert.equal(saved.saved, true);
    assert.equal(saved.version, 1);
    assert.equal(saved.reviewUrl, `${stack.baseUrl}/r/logikflow/demo/pull/3`);
    assert.equal(saved.sections, 2);
    assert.equal(saved.files, before.files.length);
    assert.equal(saved.checklistItems, 1);
    assert.equal(saved.overview, true);
    assert.equal(typeof saved.nextStep, 'string');
    assert.ok(Array.isArray(saved.suggestions));
    assert.deepEqual(saved.commitStatus, { set: true });

    // The status is on the head, as GitHub's combined status of the commit shows it.
    const head = before.pullRequest.headSha;
    const combined = await fetch(`${stack.standinUrl}/repos/logikflow/demo/commits/${head}/status`, {
      headers: { authorization: 'Bearer gho_standin_octo', 'user-agent': 'save-e2e', accept: 'application/vnd.github+json' },
    });
    assert.equal(combined.status, 200);
    const status = (await combined.json()).statuses.find((s) => s.context === 'LogiKFlow');
    assert.equal(status.state, 'success');
    assert.equal(status.target_url, saved.reviewUrl);
    assert.match(status.description, /^Reading order v1 · 2 sections · \d+ files? to read$/);
    const writes = await standinControl(stack, 'GET', `requests?path=/statuses/${head}`);
    assert.equal(writes.requests.filter((r) => r.method === 'POST').length, 1, 'one status write per save');

    const after = await read();
    assert.equal(after.baseVersion, 1);
    assert.equal(after.currentOrder.version, 1);
    assert.equal(after.currentOrder.source, 'agent');
    assert.equal(after.currentOrder.updatedBy.person, 'octo');
    assert.equal(after.currentOrder.savedBeforeLatestCommits, false);
    assert.equal(after.currentOrder.overview, 'Reads the change from its model to its callers.');
    assert.deepEqual(after.currentOrder.sections.map((s) => s.title), ['Core', 'Everything else']);
    assert.deepEqual(after.currentOrder.suggestions, saved.suggestions);

    const second = await save({ ...pr, base_version: 1, ...orderFor(before.files) });
    assert.equal(second.structuredContent.version, 2);
  });

  test('20 concurrent saves on the same base: exactly one wins', async () => {
    const current = await read();
    const clients = await Promise.all(Array.from({ length: 20 }, connect));
    try {
      const results = await Promise.all(clients.map((c) => c.callTool({
        name: 'save_reading_order', arguments: { ...pr, base_version: current.baseVersion, ...orderFor(current.files) },
      })));
      const wins = results.filter((r) => !r.isError);
      const conflicts = results.filter((r) => r.isError && /^Conflict: /.test(r.content[0].text));
      assert.equal(wins.length, 1);
      assert.equal(conflicts.length, 19);
      assert.equal(wins[0].structuredContent.version, current.baseVersion + 1);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    assert.equal((await read()).baseVersion, current.baseVersion + 1, 'history has exactly one new version');
  });

  test('saves survive a restart of the Worker', async () => {
    const before = await read();
    await client.close();
    await stack.restart();
    client = await connect();
    const after = await read();
    assert.equal(after.baseVersion, before.baseVersion);
    assert.deepEqual(after.currentOrder.sections, before.currentOrder.sections);
  });
});

// save_reading_order through the real Worker and its Durable Object: versions, conflicts under
// concurrency, persistence across a restart, write access, and rejected input leaving nothing.
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

  test('a stale base_version is a conflict and writes nothing', async () => {
    const current = await read();
    const stale = await save({ ...pr, base_version: current.baseVersion - 1, ...orderFor(current.files) });
    assert.equal(stale.isError, true);
    assert.match(stale.content[0].text, new RegExp(`^Conflict: octo saved version ${current.baseVersion}`));
    assert.equal((await read()).baseVersion, current.baseVersion);
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

  test('after new commits the order says it was saved before them', async () => {
    await standinControl(stack, 'POST', 'push', { repo: 'logikflow/demo', number: 3 });
    const current = await read();
    assert.equal(current.currentOrder.savedBeforeLatestCommits, true);
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

describe('refusals leave nothing saved', () => {
  const cases = [
    ['a missing file', (files) => orderFor(files.slice(1)), /^The order must list every changed file/],
    ['an unknown file', (files) => { const o = orderFor(files); o.sections[0].files.push({ path: 'nope.ts' }); return o; }, /^The order must list every changed file/],
    ['a file listed twice', (files) => { const o = orderFor(files); o.sections[1].files.push({ path: files[0].path }); return o; }, /^The order must list every changed file/],
    ['an empty checklist item', (files) => { const o = orderFor(files); o.sections[0].checks = ['  ']; return o; }, /^The order is invalid: sections\[0\]\.checks\[0\] is empty/],
    ['too many sections', (files) => ({ sections: Array.from({ length: 51 }, () => ({ title: 't', files: [{ path: files[0].path }] })) }), /^The order is invalid: /],
    ['an unknown change id', (files) => {
      const o = orderFor(files);
      const split = files.find((f) => f.changes);
      o.sections[0].files = o.sections[0].files.filter((f) => f.path !== split.path);
      o.sections[1].files = o.sections[1].files.filter((f) => f.path !== split.path);
      o.sections[0].files.push({ path: split.path, hunks: ['hnotreal'] });
      o.sections[1].files.push({ path: split.path });
      return o;
    }, /^The order must list every changed file, and place every change of a split file exactly once/],
  ];
  for (const [name, build, message] of cases) {
    test(name, async () => {
      const current = await read();
      const result = await client.callTool({ name: 'save_reading_order', arguments: { ...pr, base_version: current.baseVersion, ...build(current.files) } });
      assert.equal(result.isError, true);
      assert.match(result.content[0].text, message);
      assert.equal((await read()).baseVersion, current.baseVersion);
    });
  }

  test('target and shape problems come in one reply, before any GitHub request', async () => {
    const current = await read();
    await standinControl(stack, 'DELETE', 'requests');
    const o = orderFor(current.files);
    o.sections[0].checks = ['  '];
    const result = await client.callTool({ name: 'save_reading_order', arguments: { owner: pr.owner, repo: pr.repo, number: 0, ...o } });
    assert.equal(result.isError, true);
    const text = result.content[0].text;
    assert.match(text, /^The order is invalid: number must be/);
    assert.match(text, /; base_version is required/);
    assert.match(text, /; sections\[0\]\.checks\[0\] is empty/);
    const log = await standinControl(stack, 'GET', 'requests');
    assert.equal(log.requests.filter((r) => r.kind === 'rest').length, 0, JSON.stringify(log.requests));
    assert.equal((await read()).baseVersion, current.baseVersion);
  });

  test('a change named twice in one part counts once', async () => {
    const current = await read();
    const split = current.files.find((f) => f.changes);
    const o = orderFor(current.files.filter((f) => f.path !== split.path));
    o.sections[0].files.push({ path: split.path, hunks: [split.changes[0].id, split.changes[0].id] });
    o.sections[1].files.push({ path: split.path });
    const result = await save({ ...pr, base_version: current.baseVersion, ...o });
    assert.equal(result.isError, false, result.content[0].text);
    const saved = (await read()).currentOrder.sections[0].files.find((f) => f.path === split.path);
    assert.deepEqual(saved.hunks, [split.changes[0].id]);
  });

  test('a split that places every change exactly once is accepted', async () => {
    const current = await read();
    const split = current.files.find((f) => f.changes);
    const o = orderFor(current.files.filter((f) => f.path !== split.path));
    o.sections[0].files.push({ path: split.path, hunks: [split.changes[0].id], note: 'Part 1.' });
    o.sections[1].files.push({ path: split.path, note: 'The rest.' });
    const result = await save({ ...pr, base_version: current.baseVersion, ...o });
    assert.equal(result.isError, false, result.content[0].text);
  });

  test('without write access', async () => {
    const reader = await startStack({ localUser: 'reader' });
    try {
      const c = new Client({ name: 'reader', version: '1' });
      await c.connect(new StreamableHTTPClientTransport(new URL(reader.mcpUrl)));
      const current = (await c.callTool({ name: 'get_pull_request', arguments: pr })).structuredContent;
      assert.equal(current.canArrange, false);
      const result = await c.callTool({ name: 'save_reading_order', arguments: { ...pr, base_version: 0, ...orderFor(current.files) } });
      assert.equal(result.isError, true);
      assert.match(result.content[0].text, /^reader doesn't have write access/);
      await c.close();
    } finally {
      await reader.stop();
    }
  });
});

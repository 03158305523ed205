// The KV snapshot cache never keeps a snapshot built while GitHub failed to send one of the
// optional files (`.gitattributes`, `.github/logikflow.yml`): cached, it would hide their hints
// until the next push. A repeat read served from the cached listing (issue #19) gives the same
// result as the read that built it. Its own stack, so the pull requests start uncached.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fiftySections } from '../bench/cpu.mjs';
import { modernRequest, postMcp, standinControl, startStack } from './harness.mjs';

let stack;
before(async () => { stack = await startStack(); });
after(async () => { await stack?.stop(); });

async function read(number = 3, repo = 'demo', extra = {}) {
  const { message, headers } = modernRequest(1, 'tools/call',
    { name: 'get_pull_request', arguments: { owner: 'logikflow', repo, number, ...extra } }, 'get_pull_request');
  const reply = await postMcp(stack, message, headers);
  assert.equal(reply.body.result.isError, false, JSON.stringify(reply.body));
  // The text block is the same JSON (a repeat read writes it from the listing's quoted copy).
  assert.deepEqual(JSON.parse(reply.body.result.content[0].text), reply.body.result.structuredContent);
  return reply.body.result.structuredContent;
}

test('a snapshot read while the conventions file failed is served but not cached', async () => {
  // Both tries of the conventions file fail (5xx, retried once): the read still succeeds.
  await standinControl(stack, 'POST', 'faults', { path: '/contents/.github/logikflow.yml', kind: 'status', status: 502, times: 0 });
  const during = await read();
  assert.equal(during.diagramPreference, 'ask', 'the file was unreadable, so nothing was preferred');
  await standinControl(stack, 'DELETE', 'faults');
  const after = await read();
  assert.equal(after.diagramPreference, 'always', 'the next read fetched the file again');
  // That complete snapshot is cached: a third read fetches no files.
  await standinControl(stack, 'DELETE', 'requests');
  await read();
  const log = await standinControl(stack, 'GET', 'requests');
  assert.equal(log.requests.filter((r) => r.kind === 'rest' && r.path.includes('/contents/')).length, 0);
});

test('a lasting refusal of an optional file (403) does not stop caching', async () => {
  // An app without Contents access: `.gitattributes` and the build files (one GraphQL read) are
  // treated as absent and the snapshot cached, so a repeat read still costs no more than the
  // pull request and the saved state.
  await standinControl(stack, 'POST', 'faults', { path: '/graphql', kind: 'status', status: 403, times: 0 });
  await read(1);
  await standinControl(stack, 'DELETE', 'requests');
  await read(1);
  const log = await standinControl(stack, 'GET', 'requests');
  assert.equal(log.requests.filter((r) => r.kind === 'rest' && (r.path.includes('/contents/') || r.path === '/graphql')).length, 0);
  await standinControl(stack, 'DELETE', 'faults');
});

test('a snapshot read while the build-file read (GraphQL) failed is served but not cached', async () => {
  // Both tries fail (5xx, retried once): hints fall back to the paths, and the read succeeds.
  await standinControl(stack, 'POST', 'faults', { path: '/graphql', kind: 'status', status: 502, times: 0 });
  await read(2);
  await standinControl(stack, 'DELETE', 'faults');
  await standinControl(stack, 'DELETE', 'requests');
  await read(2);
  const again = await standinControl(stack, 'GET', 'requests');
  assert.equal(again.requests.filter((r) => r.path === '/graphql').length, 1, 'the next read fetched the build files');
  await standinControl(stack, 'DELETE', 'requests');
  await read(2);
  const cached = await standinControl(stack, 'GET', 'requests');
  assert.equal(cached.requests.filter((r) => r.path === '/graphql').length, 0, 'then the snapshot was cached');
});

/** A result without what only `include_patches` adds. */
function withoutPatches(result) {
  const { patchesTruncated, ...rest } = result;
  return { ...rest, files: result.files.map(({ patch, patchTruncated, patchUnavailable, ...file }) => file) };
}

test('a repeat read from the cached listing is the read that built it, with a saved order too', async () => {
  await standinControl(stack, 'POST', 'push', { repo: 'logikflow/demo', number: 1 });
  const first = await read(1);
  const repeat = await read(1);
  assert.deepEqual(repeat, first);
  // A saved order: its suggestions are checked against the listing's lean copy of the files,
  // and must be what the whole snapshot gives (the include_patches read shapes from it).
  const { message, headers } = modernRequest(2, 'tools/call', { name: 'save_reading_order', arguments: {
    owner: 'logikflow', repo: 'demo', number: 1, base_version: first.baseVersion,
    sections: [{ title: 'Everything', layer: 'logic', files: first.files.map((f) => ({ path: f.path })).reverse() }],
  } }, 'save_reading_order');
  const saved = await postMcp(stack, message, headers);
  assert.equal(saved.body.result.isError, false, JSON.stringify(saved.body));
  const withOrder = await read(1);
  assert.ok(withOrder.currentOrder.suggestions.length > 0, 'files read before what they depend on: a suggestion');
  const fromSnapshot = withoutPatches(await read(1, 'demo', { include_patches: true }));
  assert.deepEqual(withOrder, fromSnapshot);
});

test('a file list trimmed to the response cap is cached trimmed and served the same again', async () => {
  const first = await read(2, 'big');
  assert.equal(first.fileListTrimmed, true);
  assert.equal(first.files.length, 3000);
  await standinControl(stack, 'DELETE', 'requests');
  const repeat = await read(2, 'big');
  assert.deepEqual(repeat, first);
  const log = await standinControl(stack, 'GET', 'requests');
  assert.equal(log.requests.filter((r) => r.kind === 'rest' && r.path.includes('/files')).length, 0);
  assert.ok(JSON.stringify(repeat).length <= 400_000);
});

test('reads of a new head at the same time build its snapshot once (the object coalesces them)', async () => {
  // get_pull_request runs in the pull request's object (src/tools/relay.rs), which lets a read of
  // a head another read is building wait for that build (src/app/pull_request/read.rs `ReadMemo`).
  await standinControl(stack, 'POST', 'push', { repo: 'logikflow/big', number: 1 });
  await standinControl(stack, 'DELETE', 'requests');
  const results = await Promise.all(Array.from({ length: 6 }, () => read(1, 'big')));
  for (const result of results.slice(1)) assert.deepEqual(result, results[0]);
  const log = await standinControl(stack, 'GET', 'requests');
  const pages = log.requests.filter((r) => r.kind === 'rest' && /\/pulls\/1\/files/.test(r.path));
  const expected = Math.ceil(results[0].files.length / 100);
  assert.equal(pages.length, expected, `each file page read once, not once per read: ${JSON.stringify(pages.map((r) => r.path))}`);
  // Every read still checked the caller's own access (repository and pull request).
  assert.equal(log.requests.filter((r) => r.kind === 'rest' && /\/pulls\/1$/.test(r.path)).length, 6);
});

test('the other tools at a new head, at the same time, build its snapshot once too', async () => {
  // Saves and views run in the pull request's object as reads do (src/tools/relay.rs), through the
  // same in-flight mark (src/app/pull_request/read.rs `read_in_object`).
  const call = async (name, args) => {
    const { message, headers } = modernRequest(1, 'tools/call', { name, arguments: { owner: 'logikflow', repo: 'big', number: 3, ...args } }, name);
    const reply = await postMcp(stack, message, headers);
    assert.equal(reply.body.result.isError, false, `${name}: ${JSON.stringify(reply.body).slice(0, 400)}`);
    return reply.body.result.structuredContent;
  };
  const first = await read(3, 'big');
  const sections = fiftySections(first.files.map((f) => f.path)).filter((s) => s.files.length > 0);
  const saved = await call('save_reading_order', { base_version: first.baseVersion, overview: 'Before the push.', sections });
  await standinControl(stack, 'POST', 'push', { repo: 'logikflow/big', number: 3 });
  await standinControl(stack, 'DELETE', 'requests');
  const results = await Promise.all([
    call('view_reading_order', {}),
    call('show_reading_order', {}),
    call('view_diagram', {}),
    call('view_reading_order', {}),
    call('save_reading_order', { base_version: saved.version, overview: 'After the push.', sections }),
  ]);
  assert.equal(results[4].version, saved.version + 1);
  const log = await standinControl(stack, 'GET', 'requests');
  const pages = log.requests.filter((r) => r.kind === 'rest' && /\/pulls\/3\/files/.test(r.path));
  assert.equal(pages.length, Math.ceil(first.files.length / 100), `each file page read once: ${JSON.stringify(pages.map((r) => r.path))}`);
  // Every call still checked the caller's own access.
  assert.equal(log.requests.filter((r) => r.kind === 'rest' && /\/pulls\/3$/.test(r.path)).length, 5);
});

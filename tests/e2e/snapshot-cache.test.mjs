// The KV snapshot cache as workerd serves it: a repeat read served from the cached listing
// (issue #19) gives the same result as the read that built it, a trimmed file list comes back
// the same, and concurrent first reads of a new head build its snapshot once. Its own stack, so
// the pull requests start uncached. A snapshot built while an optional file failed is not cached,
// and a lasting refusal is cached as absent: tested in process in
// src/app/pull_request/read/tests.rs (issue #37).
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

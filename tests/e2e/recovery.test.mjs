// Recovery from a crash of the wasm instance (src/worker.mjs): a Rust panic answers that one
// request with an error; the next request resets the instance, and the Durable Objects rebuild
// their Rust half, so everything saved before the crash is still served and new saves work.
// `/__crash` panics on purpose only in local development with CRASH_TEST=1 (src/entry.rs).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { modernRequest, postMcp, startStack, workerLogMatching } from './harness.mjs';

let stack;
before(async () => { stack = await startStack({ vars: { CRASH_TEST: '1' } }); });
after(async () => { await stack?.stop(); });

const pr = { owner: 'logikflow', repo: 'demo', number: 3 };
let nextId = 1;
async function call(name, args) {
  const { message, headers } = modernRequest(nextId++, 'tools/call', { name, arguments: args }, name);
  const reply = await postMcp(stack, message, headers);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.result;
}

async function save(baseVersion, files, note) {
  const result = await call('save_reading_order', { ...pr, base_version: baseVersion,
    sections: [{ title: 'Everything', note, files: files.map((f) => ({ path: f.path, ...(f.likelyGenerated ? { focus: 'generated' } : {}) })) }] });
  assert.equal(result.isError, false, result.content?.[0]?.text);
  return result.structuredContent;
}

/** The Worker's log once it matches `pattern`, which it must. */
async function logMatching(pattern) {
  const log = await workerLogMatching(stack, pattern);
  assert.match(log, pattern);
  return log;
}

test('after a panic the next request is served, and saved orders survive it', async () => {
  const before = (await call('get_pull_request', pr)).structuredContent;
  const saved = await save(before.baseVersion, before.files, 'saved before the crash');

  const crash = await fetch(`${stack.baseUrl}/__crash`, { method: 'POST' });
  assert.equal(crash.status, 500, 'the crashing request fails');
  await crash.text();

  const { message, headers } = modernRequest(nextId++, 'tools/list');
  const list = await postMcp(stack, message, headers);
  assert.equal(list.status, 200);
  assert.ok(list.body.result.tools.length >= 4);
  // The pull request's object answers from its rebuilt Rust half, with the order saved before.
  const after = (await call('get_pull_request', pr)).structuredContent;
  assert.equal(after.baseVersion, saved.version);
  assert.equal(after.currentOrder.sections[0].note, 'saved before the crash');
  const next = await save(after.baseVersion, after.files, 'saved after the crash');
  assert.equal(next.version, saved.version + 1);

  assert.match(await logMatching(/Reinitializing Wasm application/), /a deliberate panic/);
});

test('a second crash is recovered from too', async () => {
  for (let i = 0; i < 2; i++) {
    const crash = await fetch(`${stack.baseUrl}/__crash`);
    assert.equal(crash.status, 500);
    await crash.text();
    const read = await call('get_pull_request', pr);
    assert.equal(read.isError, false);
  }
  const log = await logMatching(/(Reinitializing Wasm application[^]*){3}/);
  assert.equal(log.match(/Reinitializing Wasm application/g).length, 3);
});

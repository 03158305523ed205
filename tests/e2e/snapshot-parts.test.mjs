// A snapshot larger than one KV value is cached in parts (src/kv_parts.rs) and read back whole.
// KV holds 25 MiB a value; the part size is lowered here (KV_PART_BYTES) so a 320-file pull
// request takes several parts, on the real local KV of `wrangler dev`.
// A snapshot that would take more than 256 parts is served, not cached, and remembered only in the
// object's memory: src/kv_parts.rs (`too_many_parts_are_not_stored`) and
// src/app/pull_request/read/tests.rs (issue #37).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { modernRequest, postMcp, root, standinControl, startStack } from './harness.mjs';

/** The keys in the Worker's local CACHE namespace that start with `prefix` (wrangler's own CLI). */
async function cacheKeys(prefix) {
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'node_modules/wrangler/bin/wrangler.js'),
    'kv', 'key', 'list', '--binding', 'CACHE', '--local', '--persist-to', stack.persistDir, '--prefix', prefix],
  { cwd: root, env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' } });
  return JSON.parse(stdout).map((entry) => entry.name);
}

const PART_BYTES = 64 * 1024;
let stack;
before(async () => { stack = await startStack({ vars: { KV_PART_BYTES: String(PART_BYTES) } }); });
after(async () => { await stack?.stop(); });

async function read(number, includePatches = true) {
  const { message, headers } = modernRequest(1, 'tools/call', { name: 'get_pull_request',
    arguments: { owner: 'logikflow', repo: 'big', number, include_patches: includePatches } }, 'get_pull_request');
  const reply = await postMcp(stack, message, headers);
  assert.equal(reply.body.result.isError, false, JSON.stringify(reply.body).slice(0, 500));
  return reply.body.result.structuredContent;
}

async function githubRequestsFor(number, includePatches) {
  await standinControl(stack, 'DELETE', 'requests');
  const result = await read(number, includePatches);
  const log = await standinControl(stack, 'GET', 'requests');
  const count = log.requests.filter((r) => r.kind === 'rest' && (r.path.startsWith('/repos/logikflow/big') || r.path === '/graphql')).length;
  return { result, count };
}

test('a snapshot in several parts is cached and read back whole', async () => {
  const first = await githubRequestsFor(1, true);
  assert.equal(first.count, 8, 'the first read fetches everything: ceil(320/100) + 4');
  // The snapshot holds at least every patch shown (whole, where these are cut to the response
  // cap), so it cannot fit one part of this size.
  const patchBytes = first.result.files.reduce((sum, f) => sum + Buffer.byteLength(f.patch ?? ''), 0);
  assert.ok(patchBytes > 2 * PART_BYTES, `patches ${patchBytes} bytes`);
  // In KV: the head under the snapshot's key, and its parts beside it.
  const keys = await cacheKeys('snapshot:v2:logikflow/big:');
  const parts = keys.filter((key) => /:part:[\w-]+:\d+$/.test(key));
  assert.ok(parts.length >= 3, keys.join('\n'));
  assert.equal(keys.length, parts.length + 1, 'one head, and its parts');
  const repeat = await githubRequestsFor(1, true);
  assert.equal(repeat.count, 2, 'the repeat read is served from the cached parts');
  assert.deepEqual(repeat.result.files, first.result.files);
  assert.equal(repeat.result.changedFiles, 320);
});

test('the parts of a 3,000-file snapshot come back whole too', async () => {
  const first = await githubRequestsFor(2, false);
  assert.ok(JSON.stringify(first.result.files).length > 2 * PART_BYTES);
  const repeat = await githubRequestsFor(2, false);
  assert.equal(repeat.count, 2);
  assert.deepEqual(repeat.result.files, first.result.files);
  assert.equal(repeat.result.files.length, first.result.files.length);
});

// The wasm's SHA-256 (src/security/sha256.mjs) against Node's own, on the lengths where padding
// changes (55, 56, 63, 64, 119, 120 bytes …), random bytes, UTF-8 text and a large input. The
// native build hashes with the `sha2` crate, so ids and token hashes agree only if these do.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { sha256Into } from '../../src/security/sha256.mjs';

const ours = (bytes) => {
  const out = new Uint8Array(32);
  sha256Into(bytes, out);
  return Buffer.from(out).toString('hex');
};
const node = (bytes) => createHash('sha256').update(bytes).digest('hex');

test('FIPS 180-4 examples', () => {
  assert.equal(ours(new TextEncoder().encode('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(ours(new Uint8Array(0)), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(ours(new TextEncoder().encode('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')),
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
});

test('every length up to 300 bytes, random content, matches Node', () => {
  for (let length = 0; length <= 300; length++) {
    const bytes = new Uint8Array(randomBytes(length));
    assert.equal(ours(bytes), node(bytes), `length ${length}`);
  }
});

test('all-0xff bytes, text and a large input match Node', () => {
  for (const length of [55, 56, 63, 64, 65, 119, 120, 128, 1000]) {
    const bytes = new Uint8Array(length).fill(0xff);
    assert.equal(ours(bytes), node(bytes), `0xff × ${length}`);
  }
  const text = new TextEncoder().encode('diff --git a/é.rs b/🦀.rs\n'.repeat(50));
  assert.equal(ours(text), node(text));
  const large = new Uint8Array(randomBytes(3 * 1024 * 1024 + 17));
  assert.equal(ours(large), node(large));
  // A view into a larger buffer, as the wasm passes its memory.
  const memory = new Uint8Array(randomBytes(4096));
  const view = memory.subarray(100, 100 + 777);
  assert.equal(ours(view), node(Buffer.from(view)));
});

test('views of several buffers, and of a wasm memory before and after it grows, match Node', () => {
  // The script keeps a view of the last input's buffer; a grown memory is a new buffer.
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 4 });
  const fill = () => new Uint8Array(memory.buffer).set(randomBytes(memory.buffer.byteLength));
  fill();
  const other = new Uint8Array(randomBytes(1000));
  for (let round = 0; round < 3; round++) {
    for (const [at, length] of [[0, 0], [1, 63], [7, 64], [4000, 200], [65536 - 65, 65]]) {
      const view = new Uint8Array(memory.buffer, at, length);
      assert.equal(ours(view), node(Buffer.from(view)), `memory ${round} at ${at}, ${length} bytes`);
      const small = other.subarray(at % 900, (at % 900) + Math.min(length, 100));
      assert.equal(ours(small), node(Buffer.from(small)));
    }
    memory.grow(1);
    fill();
  }
});

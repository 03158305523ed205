// SHA-256 (FIPS 180-4) for the wasm: src/security/sha256.rs says why it is written here rather
// than compiled from Rust. Synchronous, so the Rust callers stay plain functions; the Web Crypto
// digest is asynchronous only. tests/e2e/sha256.test.mjs checks it against Node's own SHA-256.

// The first 32 bits of the fractional parts of the cube roots of the first 64 primes (§4.2.2).
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

// The first 32 bits of the fractional parts of the square roots of the first 8 primes (§5.3.3).
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const schedule = new Uint32Array(64);
const state = new Uint32Array(8);
// The last one or two blocks: the input's tail, the 0x80 byte, zeros and the length in bits.
const tail = new Uint8Array(128);

/** Mixes the 64-byte block of `bytes` at `offset` into `state` (§6.2.2). */
function compress(bytes, offset) {
  const w = schedule;
  for (let i = 0; i < 16; i++) {
    const at = offset + i * 4;
    w[i] = (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15];
    const y = w[i - 2];
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  let a = state[0], b = state[1], c = state[2], d = state[3];
  let e = state[4], f = state[5], g = state[6], h = state[7];
  for (let i = 0; i < 64; i++) {
    const sum1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const choose = (e & f) ^ (~e & g);
    const t1 = (h + sum1 + choose + K[i] + w[i]) | 0;
    const sum0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (sum0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

function writeWord(bytes, at, word) {
  bytes[at] = word >>> 24;
  bytes[at + 1] = word >>> 16;
  bytes[at + 2] = word >>> 8;
  bytes[at + 3] = word;
}

/** Writes the SHA-256 of `data` (a Uint8Array) into `out` (32 bytes). */
export function sha256Into(data, out) {
  state.set(INITIAL);
  const length = data.length;
  const whole = length - (length % 64);
  for (let offset = 0; offset < whole; offset += 64) compress(data, offset);
  const rest = length - whole;
  tail.fill(0);
  tail.set(data.subarray(whole), 0);
  tail[rest] = 0x80;
  // The 0x80 byte and the 8-byte length must fit after the tail, else one more block.
  const end = rest + 9 <= 64 ? 64 : 128;
  const bits = length * 8;
  writeWord(tail, end - 8, Math.floor(bits / 0x100000000));
  writeWord(tail, end - 4, bits >>> 0);
  compress(tail, 0);
  if (end === 128) compress(tail, 64);
  for (let i = 0; i < 8; i++) writeWord(out, i * 4, state[i]);
}

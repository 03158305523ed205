// Writes a copy of a wasm module without its function names: the shipped build/index_bg.wasm
// from the named one the CPU guard and the route bench serve (tests/scripts/build.sh), so both
// come from one cargo build. Only the custom sections named `name` are dropped; every other
// byte, the code section included, is copied as it is, so the two files run the same code. Not
// a binaryen pass: rewriting the module would re-encode it, and what ships would no longer be
// what was measured.
//   node tests/scripts/strip-names.mjs NAMED.wasm OUT.wasm
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** An unsigned LEB128 at `at`: `[value, next offset]`. */
function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (at >= bytes.length) throw new Error('a section size runs past the end of the module');
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return [value, at];
    shift += 7;
  }
}

/** The module's bytes without its `name` sections, and how many bytes went. */
export function stripNames(bytes) {
  const header = bytes.subarray(0, 8);
  if (bytes.length < 8 || header.readUInt32LE(0) !== 0x6d736100 || header.readUInt32LE(4) !== 1) {
    throw new Error('not a wasm module (version 1): no \\0asm header');
  }
  const kept = [header];
  let at = 8;
  while (at < bytes.length) {
    const start = at;
    const id = bytes[at];
    const [size, payload] = leb(bytes, at + 1);
    const end = payload + size;
    if (end > bytes.length) throw new Error(`section ${id} at byte ${start} runs past the end of the module`);
    let drop = false;
    if (id === 0) {
      const [length, name] = leb(bytes, payload);
      drop = bytes.subarray(name, name + length).toString('utf8') === 'name';
    }
    if (!drop) kept.push(bytes.subarray(start, end));
    at = end;
  }
  const out = Buffer.concat(kept);
  return { out, dropped: bytes.length - out.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error('usage: node tests/scripts/strip-names.mjs NAMED.wasm OUT.wasm');
    process.exit(2);
  }
  const { out, dropped } = stripNames(readFileSync(input));
  if (dropped === 0) {
    console.error(`strip-names: ${input} has no name section: the build lost its function names, which the CPU guard needs`);
    process.exit(1);
  }
  writeFileSync(output, out);
}

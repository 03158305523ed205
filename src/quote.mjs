// JSON quoting for the wasm: src/quote.rs says why the runtime's JSON.stringify does it. The
// text goes in and out as UTF-8 bytes: a string crossing into the wasm goes through the
// bindings' JavaScript loop over its characters, bytes through one copy.
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The UTF-8 bytes of the JSON string literal of the UTF-8 text in `bytes`. */
export function quoteJson(bytes) {
  return encoder.encode(JSON.stringify(decoder.decode(bytes)));
}

// Node module hooks for the wasm tests (`cargo test --target wasm32-unknown-unknown`, which runs
// the tests in Node through wasm-bindgen-test-runner; `.cargo/config.toml` passes this file with
// NODE_ARGS). The bindings' JavaScript snippets import texts by the aliases esbuild resolves when
// tests/scripts/build.sh bundles the Worker (`--alias:@logikflow/...=./file`, text loaders);
// here the same aliases, read from build.sh itself, resolve to the same files, and a text file is
// a module whose default export is its text, as esbuild's text loader makes it.
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread && !globalThis.__logikflowAliases) {
  globalThis.__logikflowAliases = true;
  register(import.meta.url, import.meta.url);
}

const root = new URL('../../', import.meta.url);
let aliases;
function aliasTable() {
  if (!aliases) {
    const script = readFileSync(new URL('tests/scripts/build.sh', root), 'utf8');
    aliases = [...script.matchAll(/--alias:(@logikflow\/[\w-]+)=\.\/(\S+?)['"]?(?=\s)/g)].map(([, name, path]) => [name, path]);
  }
  return aliases;
}

/** Resolves `@logikflow/name` and `@logikflow/name/file` to the aliased file of the repository. */
export async function resolve(specifier, context, next) {
  for (const [name, path] of aliasTable()) {
    if (specifier === name || specifier.startsWith(`${name}/`)) {
      const url = new URL(path + specifier.slice(name.length), root);
      return { url: url.href, format: 'logikflow-text', shortCircuit: true };
    }
  }
  return next(specifier, context);
}

/** An aliased file is a module whose default export is its text. */
export async function load(url, context, next) {
  if (context.format !== 'logikflow-text') return next(url, context);
  let text;
  try {
    text = readFileSync(new URL(url), 'utf8');
  } catch (error) {
    throw new Error(`${url}: ${error.code}; files under build/ are made by tests/scripts/build.sh, run it first`);
  }
  return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
}

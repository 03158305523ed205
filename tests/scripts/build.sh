#!/usr/bin/env bash
# Builds the Worker into build/: the static assets into build/assets/, the Rust crate to wasm
# (cargo), its JS bindings (wasm-bindgen, at the Cargo.lock version), a binaryen optimization pass, and
# src/worker.mjs bundled with the bindings into build/index.js (esbuild). Wrangler calls this as
# its build command. Every tool is local: nothing is downloaded. LOGIKFLOW_BUILD=skip skips the build when build/ is newer than every source
# (tests that restart wrangler use it); LOGIKFLOW_BUILD=dev skips binaryen (faster).
# LOGIKFLOW_OUT puts the build in another folder than build/; LOGIKFLOW_NAMES=1 leaves the function
# names in its wasm too (for local CPU profiles; see below).
#
# One cargo build makes two wasm files of the same code: the wasm keeps its function names (Rust's
# v0 form, `.cargo/config.toml`) through wasm-bindgen and binaryen into LOGIKFLOW_OUT/named/ (with
# its own index.js and the assets), what the route bench (tests/bench/routes.mjs) and the CPU guard
# (tests/e2e/large-pull-cpu.test.mjs, tests/e2e/cpu-guard.mjs `namedBuild`) serve; the shipped
# LOGIKFLOW_OUT/index_bg.wasm is that file with its `name` section cut out
# (tests/scripts/strip-names.mjs), every other byte the same.
set -euo pipefail
cd "$(dirname "$0")/../.."
export LOGIKFLOW_OUT="${LOGIKFLOW_OUT:-build}"
dest=$LOGIKFLOW_OUT

# Static assets, served by Workers Static Assets (`[assets]` in wrangler.toml), not by the wasm:
# our own files from src/static/; highlight.js with the review page's languages, bundled from
# src/web/highlight-bundle.mjs (esbuild, ~0.1 s); and the ordering guide page with the pages'
# security headers (`_headers`), both rendered by build.rs (kept in build/guide/ between builds).
# Made on every build, also when the wasm is fresh, beside build/assets and swapped in whole.
make_assets() {
  rm -rf "$dest"/.assets
  mkdir -p "$dest"/.assets/static "$dest"/.assets/docs
  cp src/static/* "$dest"/.assets/static/
  "$PWD/node_modules/@esbuild/linux-x64/bin/esbuild" src/web/highlight-bundle.mjs --bundle --format=iife \
    --minify --log-level=warning --outfile="$dest"/.assets/static/highlight.js
  if [ -f "$dest"/guide/ordering-guide.html ]; then
    cp "$dest"/guide/ordering-guide.html "$dest"/.assets/docs/ordering-guide.html
    cp "$dest"/guide/_headers "$dest"/.assets/_headers
  fi
  touch "$dest"/.assets/.made
  rm -rf "$dest"/assets
  mv "$dest"/.assets "$dest"/assets
}

if [ "${LOGIKFLOW_BUILD:-}" = skip ] && [ -f "$dest"/index.js ]; then
  newest_source=$(find src schema Cargo.toml Cargo.lock build.rs .cargo -newer "$dest"/index.js -print -quit)
  if [ -z "$newest_source" ] && [ -f "$dest"/guide/ordering-guide.html ] && [ -f "$dest"/named/index_bg.wasm ]; then
    # Fresh wasm: remake the assets only when their sources changed, so a Worker started while
    # another is serving build/assets (tests run files side by side) never sees them vanish.
    if [ ! -f "$dest"/assets/.made ] || [ -n "$(find src/static src/web/highlight-bundle.mjs "$dest"/guide -newer "$dest"/assets/.made -print -quit)" ]; then
      make_assets
    fi
    exit 0
  fi
fi

export WASM_BINDGEN_BIN="$HOME/.cargo/bin/wasm-bindgen"
export ESBUILD_BIN="$PWD/node_modules/@esbuild/linux-x64/bin/esbuild"
export WASM_OPT_BIN="$PWD/node_modules/binaryen/bin/wasm-opt"

lock_version=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/[" ]/,"",$0); sub(/version=/,"",$0); print; exit}' Cargo.lock)
cli_version=$("$WASM_BINDGEN_BIN" --version | awk '{print $2}')
if [ "$lock_version" != "$cli_version" ]; then
  echo "build: wasm-bindgen-cli is $cli_version but Cargo.lock has $lock_version; run tests/scripts/setup.sh" >&2
  exit 1
fi

# The bindings' macros use js_sys's futures, as the `worker` crate expects.
export WASM_BINDGEN_USE_JS_SYS=1
mkdir -p "$dest"
# Stable Rust as installed: no unstable compiler flags, so the release is built as it is tested.
cargo build --lib --release --target wasm32-unknown-unknown \
  --message-format=json-render-diagnostics > "$dest"/.cargo-messages.json
# build.rs's outputs: the OUT_DIR cargo reports for this crate's build script.
out_dir=$(node -e '
  const lines = require("fs").readFileSync(process.env.LOGIKFLOW_OUT + "/.cargo-messages.json", "utf8").split("\n");
  for (const line of lines) {
    if (!line.startsWith("{")) continue;
    const m = JSON.parse(line);
    if (m.reason === "build-script-executed" && /logikflow/.test(m.package_id)) console.log(m.out_dir);
  }')
mkdir -p "$dest"/guide
cp "$out_dir/ordering-guide.html" "$out_dir/_headers" "$dest"/guide/
wasm="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/logikflow.wasm"

# Everything is made in build/.staging and moved into place at the end, so a build that fails
# or overlaps a reload never leaves build/index.js paired with another build's wasm.
rm -rf "$dest"/.staging "$dest"/.glue
mkdir -p "$dest"/.staging
# --experimental-reset-state-function and --force-enable-abort-handler: what src/worker.mjs
# needs to reset the wasm instance after a panic or a trap.
"$WASM_BINDGEN_BIN" "$wasm" --out-dir "$dest"/.glue --out-name index --target module --no-typescript \
  --experimental-reset-state-function --force-enable-abort-handler
# The bindings import the module as a source-phase import; workerd takes a plain import of a .wasm.
sed -i 's/import source /import /' "$dest"/.glue/index.js

if [ "${LOGIKFLOW_BUILD:-}" = dev ]; then
  mv "$dest"/.glue/index_bg.wasm "$dest"/.staging/named.wasm
else
  # Binaryen pass, chosen by CPU (docs/capacity.md, "Optimization level"), the function names
  # kept (`--debuginfo`: the named file) and producer notes stripped. LOGIKFLOW_WASM_OPT_FLAGS
  # replaces the optimization flags (tests/bench/opt-levels.sh measures them). Features: exactly
  # what rustc and wasm-bindgen emit for workerd's V8.
  read -r -a passes <<< "${LOGIKFLOW_WASM_OPT_FLAGS:--O3}"
  "$WASM_OPT_BIN" "$dest"/.glue/index_bg.wasm "${passes[@]}" \
    --debuginfo --strip-producers \
    --enable-bulk-memory --enable-bulk-memory-opt --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-multivalue --enable-reference-types \
    --enable-exception-handling -o "$dest"/.staging/named.wasm
  rm "$dest"/.glue/index_bg.wasm
fi
# The shipped wasm: the named one without its `name` section, the code byte for byte the same.
# LOGIKFLOW_NAMES=1 keeps the names in LOGIKFLOW_OUT/index_bg.wasm too, for CPU profiles of the
# default stack (tests/bench/cpu.mjs, profile.mjs, server.mjs's "Worker alone"); never shipped so.
if [ "${LOGIKFLOW_NAMES:-}" = 1 ]; then
  cp "$dest"/.staging/named.wasm "$dest"/.staging/index_bg.wasm
else
  node tests/scripts/strip-names.mjs "$dest"/.staging/named.wasm "$dest"/.staging/index_bg.wasm
fi
# The bindings import ./index_bg.wasm, which stays a separate module beside build/index.js.
# src/worker.mjs imports the glue from build/.glue; another folder's build bundles a copy that
# imports it from there.
entry=src/worker.mjs
if [ "$dest" != build ]; then
  entry="$dest/.glue/worker.mjs"
  sed "s#'../build/.glue/index.js'#'./index.js'#" src/worker.mjs > "$entry"
fi
"$ESBUILD_BIN" "$entry" --bundle --format=esm --minify --log-level=warning \
  --external:./index_bg.wasm '--external:cloudflare:*' --outfile="$dest"/.staging/index.js
# The named build beside the shipped one: the same index.js (the bindings don't depend on the
# names) and the assets through a link, as a folder `wrangler dev` can serve on its own.
mkdir -p "$dest"/named
mv "$dest"/.staging/named.wasm "$dest"/named/index_bg.wasm
cp "$dest"/.staging/index.js "$dest"/named/index.js
ln -sfn ../assets "$dest"/named/assets
mv "$dest"/.staging/index_bg.wasm "$dest"/index_bg.wasm
mv "$dest"/.staging/index.js "$dest"/index.js
rmdir "$dest"/.staging
make_assets

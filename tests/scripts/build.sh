#!/usr/bin/env bash
# Builds the Worker into build/: the static assets into build/assets/, the Rust crate to wasm
# (cargo), its JS bindings (wasm-bindgen, at the Cargo.lock version), a binaryen optimization pass, and
# src/worker.mjs bundled with the bindings into build/index.js (esbuild). Wrangler calls this as
# its build command. Every tool is local: nothing is downloaded. LOGIKFLOW_BUILD=skip skips the build when build/ is newer than every source
# (tests that restart wrangler use it); LOGIKFLOW_BUILD=dev skips binaryen (faster).
set -euo pipefail
cd "$(dirname "$0")/../.."

# Static assets, served by Workers Static Assets (`[assets]` in wrangler.toml), not by the wasm:
# our own files from src/static/; highlight.js with the review page's languages, bundled from
# src/web/highlight-bundle.mjs (esbuild, ~0.1 s); and the ordering guide page with the pages'
# security headers (`_headers`), both rendered by build.rs (kept in build/guide/ between builds).
# Made on every build, also when the wasm is fresh, beside build/assets and swapped in whole.
make_assets() {
  rm -rf build/.assets
  mkdir -p build/.assets/static build/.assets/docs
  cp src/static/* build/.assets/static/
  "$PWD/node_modules/@esbuild/linux-x64/bin/esbuild" src/web/highlight-bundle.mjs --bundle --format=iife \
    --minify --log-level=warning --outfile=build/.assets/static/highlight.js
  if [ -f build/guide/ordering-guide.html ]; then
    cp build/guide/ordering-guide.html build/.assets/docs/ordering-guide.html
    cp build/guide/_headers build/.assets/_headers
  fi
  touch build/.assets/.made
  rm -rf build/assets
  mv build/.assets build/assets
}

if [ "${LOGIKFLOW_BUILD:-}" = skip ] && [ -f build/index.js ]; then
  newest_source=$(find src schema Cargo.toml Cargo.lock build.rs -newer build/index.js -print -quit)
  if [ -z "$newest_source" ] && [ -f build/guide/ordering-guide.html ]; then
    # Fresh wasm: remake the assets only when their sources changed, so a Worker started while
    # another is serving build/assets (tests run files side by side) never sees them vanish.
    if [ ! -f build/assets/.made ] || [ -n "$(find src/static src/web/highlight-bundle.mjs build/guide -newer build/assets/.made -print -quit)" ]; then
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
mkdir -p build
# Stable Rust as installed: no unstable compiler flags, so the release is built as it is tested.
cargo build --lib --release --target wasm32-unknown-unknown \
  --message-format=json-render-diagnostics > build/.cargo-messages.json
# build.rs's outputs: the OUT_DIR cargo reports for this crate's build script.
out_dir=$(node -e '
  const lines = require("fs").readFileSync("build/.cargo-messages.json", "utf8").split("\n");
  for (const line of lines) {
    if (!line.startsWith("{")) continue;
    const m = JSON.parse(line);
    if (m.reason === "build-script-executed" && /logikflow/.test(m.package_id)) console.log(m.out_dir);
  }')
mkdir -p build/guide
cp "$out_dir/ordering-guide.html" "$out_dir/_headers" build/guide/
wasm="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/logikflow.wasm"

# Everything is made in build/.staging and moved into place at the end, so a build that fails
# or overlaps a reload never leaves build/index.js paired with another build's wasm.
rm -rf build/.staging build/.glue
mkdir -p build/.staging
# --experimental-reset-state-function and --force-enable-abort-handler: what src/worker.mjs
# needs to reset the wasm instance after a panic or a trap.
"$WASM_BINDGEN_BIN" "$wasm" --out-dir build/.glue --out-name index --target module --no-typescript \
  --experimental-reset-state-function --force-enable-abort-handler
# The bindings import the module as a source-phase import; workerd takes a plain import of a .wasm.
sed -i 's/import source /import /' build/.glue/index.js

if [ "${LOGIKFLOW_BUILD:-}" = dev ]; then
  mv build/.glue/index_bg.wasm build/.staging/index_bg.wasm
else
  # Binaryen pass, chosen by CPU (docs/capacity.md, "Optimization level"), debug names and
  # producer notes stripped. LOGIKFLOW_WASM_OPT_FLAGS replaces the optimization flags
  # (tests/bench/opt-levels.sh measures them). Features: exactly what rustc and wasm-bindgen emit
  # for workerd's V8. CARGO_PROFILE_RELEASE_STRIP=false keeps the function names, for
  # tests/bench/profile.mjs.
  read -r -a passes <<< "${LOGIKFLOW_WASM_OPT_FLAGS:--O3}"
  names="--strip-debug"
  if [ "${CARGO_PROFILE_RELEASE_STRIP:-}" = false ]; then names="--debuginfo"; fi
  "$WASM_OPT_BIN" build/.glue/index_bg.wasm "${passes[@]}" \
    "$names" --strip-producers \
    --enable-bulk-memory --enable-bulk-memory-opt --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-multivalue --enable-reference-types \
    --enable-exception-handling -o build/.staging/index_bg.wasm
  rm build/.glue/index_bg.wasm
fi
# The bindings import ./index_bg.wasm, which stays a separate module beside build/index.js.
"$ESBUILD_BIN" src/worker.mjs --bundle --format=esm --minify --log-level=warning \
  --external:./index_bg.wasm '--external:cloudflare:*' --outfile=build/.staging/index.js
mv build/.staging/index_bg.wasm build/index_bg.wasm
mv build/.staging/index.js build/index.js
rmdir build/.staging
make_assets

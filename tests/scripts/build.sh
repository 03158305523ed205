#!/usr/bin/env bash
# Builds the Worker (wasm + JS shim into build/) with worker-build, pointing it at the locally
# installed wasm-bindgen, esbuild and wasm-opt so it never downloads anything. Wrangler calls this as
# its build command. LOGIKFLOW_BUILD=skip skips the build when build/ is newer than every source
# (tests that restart wrangler use it); LOGIKFLOW_BUILD=dev builds without wasm-opt (faster).
# A release build ends with a binaryen size pass over build/index_bg.wasm.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${LOGIKFLOW_BUILD:-}" = skip ] && [ -f build/index.js ]; then
  newest_source=$(find src schema Cargo.toml Cargo.lock -newer build/index.js -print -quit)
  if [ -z "$newest_source" ]; then
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

if [ "${LOGIKFLOW_BUILD:-}" = dev ]; then
  worker-build --release --no-opt
else
  worker-build --release
  # Size pass (see Cargo.toml): binaryen -O2 with inlining off, debug names and producer notes
  # stripped. Features: exactly what rustc and wasm-bindgen emit for workerd's V8.
  # CARGO_PROFILE_RELEASE_STRIP=false keeps the function names, for tests/bench/profile.mjs.
  names="--strip-debug"
  if [ "${CARGO_PROFILE_RELEASE_STRIP:-}" = false ]; then names="--debuginfo"; fi
  "$WASM_OPT_BIN" build/index_bg.wasm -O2 --converge \
    --always-inline-max-function-size=0 --one-caller-inline-max-function-size=0 \
    --flexible-inline-max-function-size=0 "$names" --strip-producers \
    --enable-bulk-memory --enable-bulk-memory-opt --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-multivalue --enable-reference-types \
    --enable-exception-handling -o build/index_bg.wasm
fi

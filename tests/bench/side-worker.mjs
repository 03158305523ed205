// The side Workers of tests/bench/ (`trivial`, the ceiling; `sdk`, the TypeScript SDK), each in
// its own `wrangler dev`; used by server.mjs and ab.mjs. And the builds an A/B compares
// (ab.mjs, ab-cpu.mjs), each on its own stack.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { devtoolsEnv, freePort, root, standinControl, startStack } from '../e2e/harness.mjs';
import { OAUTH_VARS } from '../e2e/oauth-flow.mjs';

/**
 * Starts the side Worker in tests/bench/`folder` (with `config`, a wrangler file there, when
 * given), without wrangler's DevTools session unless `devtools` (harness.mjs `devtoolsEnv`);
 * returns its URL and process.
 */
export async function startSideWorker(folder, config = undefined, { devtools = false } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'dev', '--ip', '127.0.0.1', '--port', String(port),
    '--inspector-port', String(await freePort()), '--show-interactive-dev-session=false', '--log-level', 'warn',
    ...(config ? ['--config', config] : [])],
  { cwd: join(root, 'tests/bench', folder), detached: true, stdio: 'ignore',
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', ...devtoolsEnv(devtools) } });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 600; i++) {
    try { await fetch(url); return { url, child }; } catch { await new Promise((r) => setTimeout(r, 100)); }
  }
  throw new Error(`the ${folder} Worker did not start`);
}

/** The `NAME=BUILD_DIR` arguments of an A/B run (ab.mjs, ab-cpu.mjs), as `{ name, dir }`. */
export function buildsFromArgs(usage) {
  const builds = process.argv.slice(2).filter((arg) => arg.includes('=')).map((arg) => {
    const [name, dir] = arg.split('=');
    return { name, dir: resolve(dir) };
  });
  if (builds.length < 1) throw new Error(`usage: ${usage}`);
  return builds;
}

/**
 * Starts a stack (stand-in and `wrangler dev`) serving one build: a wrangler.toml beside a link to
 * the build, without the build command (the build is made), with OAuth configured, the rate
 * limits raised for the run and the stand-in's rate limit off; `devtools` as startStack's. Its
 * `stop` also removes that folder.
 */
export async function startBuildStack(build, { devtools = true } = {}) {
  const dir = mkdtempSync(join(tmpdir(), `logikflow-ab-${build.name}-`));
  const config = readFileSync(join(root, 'wrangler.toml'), 'utf8').replace(/^\[build\]\n(?:(?!\[).*\n)*/m, '');
  writeFileSync(join(dir, 'wrangler.toml'), config);
  symlinkSync(build.dir, join(dir, 'build'));
  const stack = await startStack({ config: join(dir, 'wrangler.toml'), devtools,
    vars: { ...OAUTH_VARS, RATE_LIMIT_PER_MINUTE: '100000000', ADDRESS_RATE_LIMIT_PER_MINUTE: '100000' } });
  await standinControl(stack, 'POST', 'config', { unlimitedRate: true });
  const { stop } = stack;
  stack.stop = async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  };
  return stack;
}

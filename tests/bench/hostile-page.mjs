// Issue #44's figures for one build: the stand-in's logikflow/hostile#1 (60 comments of 65,000
// characters, each one unbroken run, on one line, one carrying U+202E) as the review page's HTML
// bytes, the time headless Chromium takes to reach DOMContentLoaded and load (scripts on and
// off, given up after TIMEOUT_MS), and the get_review_feedback answer's size on the wire, with
// whether it is truncated and carries a bidirectional control. Run it on a build of main and of
// a branch to compare; tests/e2e/security-round4.test.mjs holds the bars.
//
//   node tests/bench/hostile-page.mjs BUILD_DIR [TIMEOUT_MS]   (SAVE_HTML=FILE keeps the page)
//
// What not: a pass/fail (the end-to-end test's); nothing is written but the printed table.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium, modernRequest, root, startStack } from '../e2e/harness.mjs';

const [buildArg, timeoutArg] = process.argv.slice(2);
if (!buildArg) {
  console.error('usage: node tests/bench/hostile-page.mjs BUILD_DIR [TIMEOUT_MS]');
  process.exit(2);
}
const timeout = Number(timeoutArg ?? 60_000);
const dir = mkdtempSync(join(tmpdir(), 'logikflow-hostile-'));
const config = readFileSync(join(root, 'wrangler.toml'), 'utf8').replace(/^\[build\]\n(?:(?!\[).*\n)*/m, '');
writeFileSync(join(dir, 'wrangler.toml'), config);
symlinkSync(resolve(buildArg), join(dir, 'build'));
const persistDir = join(dir, 'state');
mkdirSync(persistDir);
const stack = await startStack({ config: join(dir, 'wrangler.toml'), devtools: false, persistDir });
const browser = await launchChromium();
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
const rows = [];
try {
  const url = `${stack.baseUrl}/r/logikflow/hostile/pull/1`;
  const served = Date.now();
  const html = await (await fetch(url)).text();
  // SAVE_HTML=FILE keeps the page, to load it again outside the Worker.
  if (process.env.SAVE_HTML) writeFileSync(process.env.SAVE_HTML, html);
  rows.push(['page HTML', `${Buffer.byteLength(html)} bytes, served in ${Date.now() - served} ms, bidi control: ${BIDI.test(html)}`]);
  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 } });
    const tab = await context.newPage();
    const started = Date.now();
    const reached = {};
    tab.once('domcontentloaded', () => { reached.domcontentloaded = Date.now() - started; });
    tab.once('load', () => { reached.load = Date.now() - started; });
    try {
      await tab.goto(url, { waitUntil: 'load', timeout });
    } catch {
      // Not reached in time: said in the row.
    }
    const at = (event) => (reached[event] === undefined ? `not in ${timeout} ms` : `${reached[event]} ms`);
    rows.push([`Chromium, scripts ${javaScriptEnabled ? 'on' : 'off'}`, `DOMContentLoaded ${at('domcontentloaded')}, load ${at('load')}`]);
    await context.close().catch(() => {});
  }
  const { message, headers } = modernRequest(1, 'tools/call', {
    name: 'get_review_feedback', arguments: { owner: 'logikflow', repo: 'hostile', number: 1 },
  }, 'get_review_feedback');
  const response = await fetch(stack.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
  const raw = await response.text();
  const result = JSON.parse(raw).result;
  rows.push(['get_review_feedback', `${raw.length} characters on the wire, text ${result.content[0].text.length}, truncated: ${result.structuredContent?.truncated}, bidi control: ${BIDI.test(raw)}`]);
} finally {
  await browser.close();
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`| ${buildArg} | |\n|---|---|`);
for (const [what, figure] of rows) console.log(`| ${what} | ${figure} |`);

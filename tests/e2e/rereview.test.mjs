// Re-review after a real push on the stand-in (issue 15), against the real Worker:
// tick whole files and single changes at head A; push a commit that grows one hunk, adds a hunk
// to another file and shifts a third file's lines; reload: exactly the right ticks are kept and
// cleared, "changed since you reviewed" names the new hunks, and "since your last visit" shows
// exactly the new and changed hunks and says how many commits and files came after. Then in
// headless Chromium: the outline (a labelled landmark with per-section counts and states in
// words), its "only what's left" view, the keys j/k/n/x/?, phone width and the dark theme, with
// screenshots in tests/artifacts/screenshots/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { launchChromium, root, standinControl, startStack } from './harness.mjs';

const shots = join(root, 'tests/artifacts/screenshots');
const pr = { owner: 'logikflow', repo: 'demo', number: 3 };
const pagePath = '/r/logikflow/demo/pull/3';
let stack;
let client;
let browser;

async function call(name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, false, result.content?.[0]?.text);
  return result.structuredContent;
}

/** The review page as the local reviewer: HTML, the CSRF token and the cookie to post with. */
async function open(query = '') {
  const response = await fetch(`${stack.baseUrl}${pagePath}${query}`);
  assert.equal(response.status, 200);
  const html = await response.text();
  const cookie = response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  return { html, cookie, csrf: html.match(/name="csrf" value="([^"]*)"/)?.[1] };
}

async function tick(page, item, done = true) {
  const response = await fetch(`${stack.baseUrl}${pagePath}/ticks`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', cookie: page.cookie, origin: stack.baseUrl },
    body: new URLSearchParams({ csrf: page.csrf, item, done: done ? '1' : '0' }),
  });
  assert.equal(response.status, 200, `${item}: ${await response.text()}`);
}

/** The `<article>` of a file's entry, by path. */
function article(html, path) {
  const start = html.indexOf(`id="file-${path}" aria-labelledby`);
  assert.ok(start > 0, `no entry for ${path}`);
  const from = html.lastIndexOf('<article', start);
  return html.slice(from, html.indexOf('</article>', start));
}

const stateOf = (html, path) => article(html, path).match(/data-state="(\w+)"/)[1];
const changeIds = (section) => [...section.matchAll(/<tbody data-change="([^"]+)">/g)].map((m) => m[1]);

before(async () => {
  mkdirSync(shots, { recursive: true });
  stack = await startStack();
  client = new Client({ name: 'rereview-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
  browser = await launchChromium();
  const { files, baseVersion } = await call('get_pull_request', pr);
  const code = files.filter((f) => !f.testOf && !f.likelyGenerated);
  const rest = files.filter((f) => f.testOf || f.likelyGenerated);
  await call('save_reading_order', {
    ...pr, base_version: baseVersion,
    sections: [
      { title: 'Code', layer: 'logic', checks: ['Ids stay stable across pushes'], files: code.map((f) => ({ path: f.path })) },
      { title: 'Tests and generated', layer: 'tooling', files: rest.map((f) => ({ path: f.path, ...(f.likelyGenerated ? { focus: 'generated' } : {}) })) },
    ],
  });
});
after(async () => {
  await browser?.close();
  await client?.close();
  await stack?.stop();
});

test('after a push, ticks follow content: kept, cleared, and what is new is named', async () => {
  let page = await open();
  const orderIds = changeIds(article(page.html, 'src/review/order.ts'));
  assert.equal(orderIds.length, 3, 'order.ts shows three changes');
  // Whole files at head A, one change of order.ts, the binary image, and a check.
  for (const path of ['tools/hints.py', 'src/flow/graph.rs', 'package-lock.json', 'docs/images/review-order.png']) {
    await tick(page, `file:${path}`);
  }
  await tick(page, `change:src/review/order.ts#${orderIds[0]}`);
  page = await open();
  for (const path of ['tools/hints.py', 'src/flow/graph.rs', 'package-lock.json', 'docs/images/review-order.png']) {
    assert.equal(stateOf(page.html, path), 'reviewed', path);
  }
  assert.equal(stateOf(page.html, 'src/review/order.ts'), 'todo', 'one change of three');
  assert.equal((article(page.html, 'src/review/order.ts').match(/class="tick is-done" data-scope="change"/g) ?? []).length, 1);
  const hintsBefore = changeIds(article(page.html, 'tools/hints.py'));
  const graphBefore = changeIds(article(page.html, 'src/flow/graph.rs'));
  const lockBefore = changeIds(article(page.html, 'package-lock.json'));

  const pushed = await standinControl(stack, 'POST', 'push', {
    repo: 'logikflow/demo', number: 3,
    edits: [{ path: 'tools/hints.py', op: 'grow' }, { path: 'src/flow/graph.rs', op: 'add-hunk' }, { path: 'package-lock.json', op: 'shift' }],
  });
  assert.deepEqual(pushed.changed_files, ['tools/hints.py', 'src/flow/graph.rs', 'package-lock.json']);

  page = await open();
  const hints = article(page.html, 'tools/hints.py');
  const graph = article(page.html, 'src/flow/graph.rs');
  const lock = article(page.html, 'package-lock.json');
  assert.equal(stateOf(page.html, 'package-lock.json'), 'reviewed', 'lines moved, content the same: the tick stays');
  assert.deepEqual(changeIds(lock), lockBefore, 'shifted hunks keep their ids');
  assert.equal(stateOf(page.html, 'docs/images/review-order.png'), 'reviewed', 'the same blob');
  assert.equal(stateOf(page.html, 'tools/hints.py'), 'changed', 'a grown hunk clears the file');
  assert.equal(stateOf(page.html, 'src/flow/graph.rs'), 'changed', 'a new hunk clears the file');
  assert.equal(stateOf(page.html, 'src/review/order.ts'), 'todo', 'untouched, still partly reviewed');
  assert.match(hints, /Changed since you reviewed/);

  // Exactly the grown and the added hunks are new; the rest keep their ticks.
  const hintsNow = changeIds(hints);
  const grown = hintsNow.filter((id) => !hintsBefore.includes(id));
  assert.equal(grown.length, 1);
  const graphNow = changeIds(graph);
  const added = graphNow.filter((id) => !graphBefore.includes(id));
  assert.equal(added.length, 1);
  assert.deepEqual(graphNow.filter((id) => graphBefore.includes(id)), graphBefore, 'old hunks stay');
  for (const [section, fresh] of [[hints, grown[0]], [graph, added[0]]]) {
    const body = section.slice(section.indexOf(`<tbody data-change="${fresh}">`));
    assert.match(body.slice(0, body.indexOf('</tr>')), /<span class="badge new">New<\/span>/);
    assert.match(body.slice(0, body.indexOf('</tr>')), /class="tick" data-scope="change"/, 'not reviewed');
  }
  const kept = graph.slice(graph.indexOf(`<tbody data-change="${graphBefore[0]}">`));
  assert.match(kept.slice(0, kept.indexOf('</tr>')), /class="tick is-done" data-scope="change"/);
  assert.doesNotMatch(kept.slice(0, kept.indexOf('</tr>')), /badge new/);

  // The banner: the head reviewed, one commit after it, two files changed since.
  assert.match(page.html, new RegExp(`You last reviewed this pull request at <code>${pushed.old_head_sha.slice(0, 7)}</code>; 1 commit came after it; 2 files have changed since\\.`));

  // Since your last visit: exactly the new hunks.
  const since = await open('?view=since');
  const shown = changeIds(since.html);
  assert.deepEqual(shown.sort(), [grown[0], added[0]].sort());
  assert.match(since.html, /Show everything<\/a>/);

  // Ticking the new hunk completes the file again.
  await tick(page, `change:src/flow/graph.rs#${added[0]}`);
  assert.equal(stateOf((await open()).html, 'src/flow/graph.rs'), 'reviewed');
});

test('the pages\' style sheets and script are static assets, allowed by the page\'s CSP', async () => {
  const page = await fetch(`${stack.baseUrl}${pagePath}`);
  const csp = page.headers.get('content-security-policy');
  assert.match(csp, /style-src 'self'/);
  assert.match(csp, /script-src 'self'/);
  const html = await page.text();
  for (const [path, type] of [['/static/base.css', /text\/css/], ['/static/review.css', /text\/css/], ['/static/review.js', /javascript/]]) {
    assert.ok(html.includes(`"${path}"`), `the page links ${path}`);
    const asset = await fetch(`${stack.baseUrl}${path}`);
    assert.equal(asset.status, 200, path);
    assert.match(asset.headers.get('content-type'), type, path);
    assert.ok((await asset.text()).length > 500, path);
  }
});

// A tick for a change that is not in the pull request (refused, nothing stored) is tested in-process
// (`app::pull_request::ticks::tests`, issue #37).

test('outline, only-what-is-left, keyboard, phone and dark theme in Chromium', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${stack.baseUrl}${pagePath}`);
  const outline = page.getByRole('navigation', { name: 'Outline' });
  assert.ok(await outline.isVisible(), 'the outline is a labelled landmark beside the diff');
  const box = await outline.boundingBox();
  const first = await page.locator('article.file').first().boundingBox();
  assert.ok(box.x + box.width <= first.x, 'beside, not above, on a wide screen');
  assert.match(await outline.textContent(), /\d+ of \d+/);
  assert.match(await outline.textContent(), /Reviewed: /, 'states are said in words');
  await page.screenshot({ path: join(shots, 'rereview-desktop.png') });

  // Keys: j focuses the first file, n the next one not reviewed, x marks it, ? lists the keys.
  await page.keyboard.press('j');
  assert.equal(await page.evaluate(() => document.activeElement.closest('article.file') === document.querySelector('article.file')), true);
  await page.keyboard.press('n');
  const target = await page.evaluate(() => document.activeElement.id);
  assert.notEqual(await page.locator(`[id="${target}"]`).getAttribute('data-state'), 'reviewed');
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/ticks') && r.status() === 200),
    page.keyboard.press('x'),
  ]);
  assert.equal(await page.locator(`[id="${target}"]`).getAttribute('data-state'), 'reviewed');
  await page.reload();
  assert.equal(await page.locator(`[id="${target}"]`).getAttribute('data-state'), 'reviewed', 'stored, not only shown');
  await page.keyboard.press('?');
  assert.ok(await page.locator('dialog#keys').isVisible());
  await page.keyboard.press('Escape');

  // Only what's left: reviewed files leave the page and the outline.
  await page.goto(`${stack.baseUrl}${pagePath}?view=left`);
  const states = await page.locator('article.file').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
  assert.ok(states.length > 0 && !states.includes('reviewed'), states.join(','));

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${stack.baseUrl}${pagePath}`);
  assert.equal(await page.locator('.outline-box').getAttribute('open'), null, 'folded on a phone');
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(scroll <= 1, `no sideways scroll on a phone (${scroll}px)`);
  await page.screenshot({ path: join(shots, 'rereview-phone.png'), fullPage: false });
  await page.close();

  const dark = await browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme: 'dark' });
  await dark.goto(`${stack.baseUrl}${pagePath}`);
  await dark.screenshot({ path: join(shots, 'rereview-dark.png') });
  await dark.close();
});

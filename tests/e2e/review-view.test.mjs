// The review page's diffs in headless Chromium (Debian's, driven by playwright-core) against the
// real Worker and the stand-in (issue 15, items 6 to 8 and accessibility): a 320-file pull
// request's page holds one window of 100 entries and loads the other windows and the rest of its
// diffs on demand (also without JavaScript), a 3,000-file one stays small too, and a diff loaded
// on demand has its changes' own ticks; lines link to GitHub's diff and GitHub's review comments show under their lines,
// outdated ones marked; diff lines are highlighted in the light and the dark theme; "Expand"
// shows the file's lines around a change; and no page has a serious or critical axe-core
// violation. Screenshots (desktop, phone, dark) go to tests/artifacts/screenshots/, and the
// pages' HTML sizes to tests/artifacts/review-pages.md (issue #40: the docs point there).
// The last test makes the README's picture of the review page, a saved order on demo#3: into
// tests/artifacts/screenshots/review-page.png on every run, and into docs/images/review-page.png
// (committed) when that is missing or with UPDATE_DOCS_IMAGES=1, so a run leaves the checkout as
// it was (the page shows the save's time and the head commit, which differ from run to run).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { launchChromium, root, standinControl, startStack } from './harness.mjs';

const require = createRequire(import.meta.url);
const shots = join(root, 'tests/artifacts/screenshots');
const MiB = 1024 * 1024;
const docsImage = join(root, 'docs/images/review-page.png');
let stack;
let browser;
/** The review pages' HTML sizes this run measured, written to tests/artifacts/review-pages.md. */
const pageSizes = [];

before(async () => {
  mkdirSync(shots, { recursive: true });
  stack = await startStack();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await stack?.stop();
  if (pageSizes.length > 0) {
    const rows = pageSizes.map(([what, page, bytes]) => `| ${what} | \`${page}\` | ${bytes} |`);
    writeFileSync(join(root, 'tests/artifacts/review-pages.md'), [
      `# Review page HTML sizes, ${new Date().toISOString().slice(0, 16)}Z`, '',
      'The stand-in\'s pull requests (logikflow/big#1: 320 files, big#2: 3,000 listed, big#3: 30, demo#1: this project\'s tree), a second view with the snapshot cached (`tests/e2e/review-view.test.mjs`).', '',
      '| order | page | bytes |', '|---|---|---|', ...rows, ''].join('\n'));
  }
});

const page = (options = {}) => browser.newPage({ viewport: { width: 1280, height: 900 }, ...options });
const githubAnchor = (path) => `diff-${createHash('sha256').update(path).digest('hex')}`;

/** Scrolls every diff into view in turn, so the script highlights them all (it highlights what
 * comes near the viewport). */
async function scrollThrough(tab) {
  await tab.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (const wrap of document.querySelectorAll('.diff-wrap')) {
      wrap.scrollIntoView();
      await frame();
    }
    window.scrollTo(0, 0);
    await frame();
  });
}

/** The review page's HTML as the server sends it (a second read, with the snapshot cached). */
async function html(path) {
  await fetch(`${stack.baseUrl}${path}`).then((r) => r.arrayBuffer());
  const response = await fetch(`${stack.baseUrl}${path}`);
  assert.equal(response.status, 200, path);
  return Buffer.from(await response.arrayBuffer()).toString('utf8');
}

test('a 320-file pull request is under 1 MiB and loads the rest of its diffs on demand', async (t) => {
  const sizes = {};
  for (const [repo, n] of [['big', 1], ['big', 3], ['big', 2], ['demo', 1]]) {
    sizes[`${repo}#${n}`] = Buffer.byteLength(await html(`/r/logikflow/${repo}/pull/${n}`));
  }
  t.diagnostic(`review page HTML bytes: ${JSON.stringify(sizes)}`);
  for (const [page, bytes] of Object.entries(sizes)) pageSizes.push(['none saved', page, bytes]);
  // The first window of 100 entries is on the page; the rest load in windows. Before windows,
  // big#1 was 597,628 bytes and big#2 (3,000 files) 4,273,059.
  assert.ok(sizes['big#1'] < 400 * 1024, `big#1 (320 files): ${sizes['big#1']} bytes`);
  assert.ok(sizes['big#2'] < 256 * 1024, `big#2 (3,000 files): ${sizes['big#2']} bytes`);

  const text = await html('/r/logikflow/big/pull/1');
  const inline = text.match(/class="diff-wrap"/g)?.length ?? 0;
  const deferred = text.match(/class="button load-diff"/g)?.length ?? 0;
  assert.equal(text.match(/<article /g)?.length, 100, 'one window of entries');
  assert.ok(inline > 0 && inline <= 30, `${inline} diffs inline`);
  assert.ok(deferred >= 60 && deferred + inline <= 100, `${deferred} diffs on demand`);
  const windows = [...text.matchAll(/<a class="button load-files" href="\?from=(\d+)#file-[^"]+">Load (\d+) more files<\/a>/g)]
    .map((m) => [Number(m[1]), Number(m[2])]);
  assert.deepEqual(windows, [[101, 100], [201, 100], [301, 20]]);

  const tab = await page();
  await tab.goto(`${stack.baseUrl}/r/logikflow/big/pull/1`);
  const progress = Number(await tab.locator('#progress-done').textContent());
  // The stand-in's review comments on big#1 are on its 291st file, in the third window.
  assert.equal(await tab.locator('.lazy-diff', { hasText: '2 comments' }).count(), 0);
  await Promise.all([
    tab.waitForResponse((r) => r.url().includes('?from=201&fragment=1') && r.status() === 200),
    tab.locator('.run.more a.load-files[href^="?from=201#"]').click(),
  ]);
  await tab.locator('article.file').nth(199).waitFor();
  assert.equal(await tab.locator('article.file').count(), 200, 'the window came in place');
  assert.equal(await tab.locator('.run.more').count(), 2);
  // Its ticks work like the page's own: the counter follows.
  const loadedTick = tab.locator('article.file').nth(150).locator('form.tick[data-scope="entry"]');
  await Promise.all([
    tab.waitForResponse((r) => r.url().endsWith('/ticks') && r.status() === 200),
    loadedTick.locator('.tick-box').check(),
  ]);
  assert.equal(Number(await tab.locator('#progress-done').textContent()), progress + 1);
  const holder = tab.locator('.lazy-diff', { hasText: '2 comments' });
  assert.equal(await holder.count(), 1);
  const id = await tab.locator('article.file', { has: holder }).getAttribute('id');
  const article = tab.locator(`article[id="${id}"]`);
  const href = await holder.locator('a.load-diff').getAttribute('href');
  const path = await article.locator('h3 code').textContent();
  assert.equal(href, `/r/logikflow/big/pull/1/diff?path=${path}&hunks=${href.split('&hunks=')[1]}`);
  assert.match(href, /&hunks=h[0-9a-z]+(,h[0-9a-z]+)*&first=1$/);
  await Promise.all([
    tab.waitForResponse((r) => r.url().includes('/diff?path=') && r.url().endsWith('&fragment=1') && r.status() === 200),
    holder.locator('a.load-diff').click(),
  ]);
  await article.locator('.diff-wrap table.diff').waitFor();
  assert.equal(await article.locator('.lazy-diff').count(), 0, 'the link is replaced by the diff');
  assert.match(await article.locator('.cmts').first().textContent(), /Does this need a test\?/);
  assert.equal(await tab.evaluate(() => window.__pwned), undefined, 'comment text never runs');
  await tab.close();

  // Without JavaScript the window's link opens the page of that window, and the diff's link a
  // page with just that diff, and a way back.
  const third = await html('/r/logikflow/big/pull/1?from=201');
  assert.equal(third.match(/<article /g)?.length, 100);
  assert.ok(third.includes(`id="${id}"`));
  const noScript = await fetch(`${stack.baseUrl}${href}`);
  assert.equal(noScript.status, 200);
  const single = await noScript.text();
  assert.match(single, /<table class="diff">/);
  assert.match(single, /Back to the review/);
  assert.match(single, /&lt;script&gt;window.__pwned/);
  assert.equal((await fetch(`${stack.baseUrl}/r/logikflow/big/pull/1/diff?path=not/changed.rs&hunks=h1&fragment=1`)).status, 404);
  assert.equal((await fetch(`${stack.baseUrl}/r/logikflow/big/pull/1/diff`)).status, 400);
});

test('a diff loaded on demand gets its changes\' own ticks, which persist', async () => {
  const url = `${stack.baseUrl}/r/logikflow/big/pull/1`;
  const tab = await page();
  await tab.goto(url);
  // The first entry whose diff waits and that has changes of its own to tick.
  const holder = tab.locator('.lazy-diff[data-done]').first();
  const id = await holder.locator('xpath=ancestor::article[1]').getAttribute('id');
  const article = tab.locator(`article[id="${id}"]`);
  const load = async () => {
    await Promise.all([
      tab.waitForResponse((r) => r.url().includes('/diff?path=') && r.status() === 200),
      article.locator('a.load-diff').click(),
    ]);
    await article.locator('.diff-wrap').waitFor();
  };
  const ticked = () => tab.waitForResponse((r) => r.url().endsWith('/ticks') && r.request().method() === 'POST' && r.status() === 200);
  await load();
  const changes = article.locator('tbody[data-change]');
  const n = await changes.count();
  assert.ok(n >= 2, `${n} changes`);
  const ticks = article.locator('.hunk-tick form.tick[data-scope="change"]');
  assert.equal(await ticks.count(), n, 'one tick per change');
  const items = await ticks.evaluateAll((forms) => forms.map((f) => f.querySelector('input[name="item"]').value));
  const ids = await changes.evaluateAll((bodies) => bodies.map((b) => b.getAttribute('data-change')));
  const path = await article.locator('.diff-wrap').getAttribute('data-path');
  assert.deepEqual(items, ids.map((change) => `change:${path}#${change}`));
  // The same form as an inlined diff's: the page's CSRF token, posted in the background.
  const csrf = await tab.locator('form.tick input[name="csrf"]').first().inputValue();
  assert.ok(await ticks.evaluateAll((forms, token) => forms.every((f) => f.querySelector('input[name="csrf"]').value === token), csrf));
  assert.equal(await ticks.first().locator('.tick-box').isDisabled(), false);
  await tab.screenshot({ path: join(shots, 'review-lazy-ticks-desktop.png'), fullPage: false });

  // One change by its box, the next with `x` on a focused line of it, the rest by their buttons.
  await Promise.all([ticked(), ticks.nth(0).locator('.tick-box').check()]);
  assert.equal(await article.getAttribute('data-state'), 'todo', 'one change of several');
  await changes.nth(1).locator('td.ln a').first().focus();
  await Promise.all([ticked(), tab.keyboard.press('x')]);
  for (let i = 2; i < n; i++) await Promise.all([ticked(), ticks.nth(i).locator('.tick-save').click()]);
  assert.equal(await article.getAttribute('data-state'), 'reviewed', 'every change: the file is reviewed');
  assert.equal(await article.locator('form.tick[data-scope="entry"] .tick-box').isChecked(), true);

  // After a reload the server says the same, and the loaded diff shows every change ticked.
  await tab.reload();
  assert.equal(await article.getAttribute('data-state'), 'reviewed');
  await load();
  assert.deepEqual(await ticks.evaluateAll((forms) => forms.map((f) => f.classList.contains('is-done') && f.querySelector('.tick-box').checked)),
    Array(n).fill(true));
  // Undoing one change: the file is no longer reviewed, also after a reload.
  await Promise.all([ticked(), ticks.nth(1).locator('.tick-save').click()]);
  assert.equal(await article.getAttribute('data-state'), 'todo');
  await tab.reload();
  assert.equal(await article.getAttribute('data-state'), 'todo');
  await load();
  assert.deepEqual(await ticks.evaluateAll((forms) => forms.map((f) => f.querySelector('.tick-box').checked)),
    Array.from({ length: n }, (_, i) => i !== 1));
  await tab.close();
});

test('a diff that fails to load leaves the link and says so', async () => {
  const tab = await page();
  await tab.goto(`${stack.baseUrl}/r/logikflow/big/pull/1`);
  const link = tab.locator('a.load-diff').first();
  // GitHub fails the pull request read (and its one retry): the Worker refuses the diff.
  await standinControl(stack, 'POST', 'faults', { path: '/pulls/1', method: 'GET', kind: 'status', status: 502, times: 2 });
  try {
    await Promise.all([
      tab.waitForResponse((r) => r.url().includes('/diff?path=') && r.status() === 404),
      link.click(),
    ]);
    await tab.waitForFunction(() => [...document.querySelectorAll('[role=status]')].some((el) => /couldn't be loaded/.test(el.textContent)));
    assert.equal(await link.textContent(), 'Load diff');
    assert.equal(await link.getAttribute('aria-busy'), null);
  } finally {
    await standinControl(stack, 'DELETE', 'faults');
  }
  await tab.close();
});

test('lines link to GitHub; review comments sit under their lines, outdated ones marked', async () => {
  const tab = await page();
  await tab.goto(`${stack.baseUrl}/r/logikflow/demo/pull/3`);
  const order = tab.locator('article.file', { has: tab.locator('h3', { hasText: 'src/review/order.ts' }) }).first();
  const files = 'https://github.com/logikflow/demo/pull/3/files';
  const anchor = githubAnchor('src/review/order.ts');
  // The first comment is on the first added line (right side); its row links there.
  const line = order.locator(`a[href^="${files}#${anchor}R"]`);
  assert.ok(await line.count() > 0, 'new-side line links');
  const commented = order.locator('tr.cmt-row').first();
  const row = commented.locator('xpath=preceding-sibling::tr[1]');
  assert.equal(await row.getAttribute('class'), 'add');
  const target = await row.locator('a').getAttribute('href');
  assert.match(target, new RegExp(`^${files}#${anchor}R\\d+$`));
  const thread = await commented.textContent();
  assert.match(thread, /octo.*Does this need a test\?.*maint.*Added one in the next commit\./s);
  assert.ok((await tab.content()).includes('&lt;script&gt;window.__pwned = 1&lt;/script&gt;'), 'comment body is text');
  assert.equal(await tab.evaluate(() => window.__pwned), undefined);
  // The outdated comment is listed below the diff, marked as GitHub marks it.
  const rest = order.locator('.cmts-rest');
  assert.match(await rest.textContent(), /Outdated.*was on line 3 of an earlier version.*This name reads oddly/s);
  // A comment on a removed line sits under that line, which links to the old side.
  const hints = tab.locator('article.file', { has: tab.locator('h3', { hasText: 'tools/hints.py' }) }).first();
  const left = hints.locator('tr.cmt-row', { hasText: 'Why was this line removed?' });
  assert.equal(await left.locator('xpath=preceding-sibling::tr[1]').getAttribute('class'), 'del');
  assert.match(await left.locator('xpath=preceding-sibling::tr[1]//a').getAttribute('href'),
    new RegExp(`#${githubAnchor('tools/hints.py')}L\\d+$`));
  await tab.close();
});

test('diff lines are highlighted in the light and the dark theme; markers and numbers stay', async () => {
  const colours = {};
  for (const scheme of ['light', 'dark']) {
    const tab = await page({ colorScheme: scheme });
    await tab.goto(`${stack.baseUrl}/r/logikflow/demo/pull/3`);
    const wrap = tab.locator('.diff-wrap[data-path="src/review/order.ts"]');
    await wrap.scrollIntoViewIfNeeded();
    await wrap.locator('span.hl .hljs-keyword').first().waitFor();
    colours[scheme] = await wrap.locator('.hljs-keyword').first().evaluate((el) => getComputedStyle(el).color);
    // Every line still starts with its marker, and the text reads as before.
    const rows = await wrap.locator('tr.add, tr.del, tr.ctx').evaluateAll((trs) => trs.map((tr) => ({
      kind: tr.className, mark: tr.querySelector('.mk').textContent, numbers: [...tr.querySelectorAll('.ln')].map((td) => td.textContent),
    })));
    for (const r of rows) {
      assert.equal(r.mark, { add: '+', del: '-', ctx: ' ' }[r.kind]);
      assert.ok(r.numbers.some((n) => /^\d+$/.test(n)), JSON.stringify(r));
    }
    if (scheme === 'light') {
      // Python, Rust and TypeScript files of the pull request are highlighted too.
      for (const path of ['tools/hints.py', 'src/flow/graph.rs']) {
        await tab.locator(`.diff-wrap[data-path="${path}"]`).scrollIntoViewIfNeeded();
        await tab.locator(`.diff-wrap[data-path="${path}"] span.hl`).first().waitFor();
      }
      // highlight.js escapes what it is given: the one HTML the script parses from text.
      const out = await tab.evaluate(() => window.hljs.highlight('<img src=x onerror="window.__pwned=1"> & \'', { language: 'typescript' }).value);
      assert.ok(!out.includes('<img') && out.includes('&lt;img') && out.includes('&amp;'), out);
      const missing = await tab.evaluate(() => ['typescript', 'javascript', 'python', 'rust', 'go', 'java', 'kotlin', 'ruby', 'c', 'cpp',
        'csharp', 'php', 'swift', 'css', 'xml', 'json', 'yaml', 'ini', 'markdown', 'bash'].filter((l) => !window.hljs.getLanguage(l)));
      assert.deepEqual(missing, []);
      await wrap.scrollIntoViewIfNeeded();
      await tab.screenshot({ path: join(shots, 'review-view-desktop.png'), fullPage: false });
      await tab.setViewportSize({ width: 390, height: 844 });
      await tab.reload();
      await tab.locator('.diff-wrap[data-path="src/review/order.ts"]').scrollIntoViewIfNeeded();
      await tab.locator('span.hl').first().waitFor();
      const overflow = await tab.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 1, `no sideways scrolling on a phone (${overflow}px)`);
      await tab.screenshot({ path: join(shots, 'review-view-phone.png'), fullPage: false });
    } else {
      await wrap.scrollIntoViewIfNeeded();
      await tab.screenshot({ path: join(shots, 'review-view-dark.png'), fullPage: false });
    }
    await tab.close();
  }
  assert.notEqual(colours.light, colours.dark, 'each theme has its own colours');
});

test('expand context shows the file\'s lines above a change, numbered on both sides', async () => {
  const tab = await page();
  await tab.goto(`${stack.baseUrl}/r/logikflow/demo/pull/2`);
  // The first diff whose first change starts below line 1 has an "Expand ↑" button.
  const button = tab.locator('.diff-wrap tr.hunk-head button.expand', { hasText: 'Expand above' }).first();
  await button.waitFor();
  const wrap = button.locator('xpath=ancestor::div[contains(@class, "diff-wrap")]');
  const path = await wrap.getAttribute('data-path');
  const head = button.locator('xpath=ancestor::tr[1]');
  const [start] = (await head.getAttribute('data-new')).split(',').map(Number);
  await Promise.all([
    tab.waitForResponse((r) => r.url().includes('/context?') && r.status() === 200),
    button.click(),
  ]);
  // By path: a button whose gap is used up is removed, and the locators above would move on.
  const added = tab.locator(`.diff-wrap[data-path="${path}"] tr.ctx-more`);
  await added.first().waitFor();
  const rows = await added.evaluateAll((trs) => trs.map((tr) => ({
    old: Number(tr.children[0].textContent), new: Number(tr.children[1].textContent),
    text: tr.children[2].textContent.slice(1),
  })));
  assert.ok(rows.length > 0 && rows.length <= 20, `${rows.length} lines`);
  assert.equal(rows.at(-1).new, start - 1, 'the lines end right above the change');
  // The text is the file at the head (the stand-in serves this repository's HEAD).
  const file = execFileSync('git', ['show', `HEAD:${path}`], { cwd: root, encoding: 'utf8' }).split('\n');
  for (const r of rows) assert.equal(r.text, file[r.new - 1], `${path}:${r.new}`);
  await tab.close();

  // The route refuses what it can't serve, with a message.
  const bad = await fetch(`${stack.baseUrl}/r/logikflow/demo/pull/2/context?path=${encodeURIComponent(path)}&from=1&to=99`);
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /at most 20 lines/);
  const other = await fetch(`${stack.baseUrl}/r/logikflow/demo/pull/2/context?path=not/in/the/pr.rs&from=1&to=3`);
  assert.equal(other.status, 404);
});

test('styles and scripts are static assets, under the CSP', async () => {
  for (const [path, type] of [['/static/base.css', /text\/css/], ['/static/review-view.css', /text\/css/],
    ['/static/diagram.css', /text\/css/], ['/static/review-view.js', /javascript/], ['/static/highlight.js', /javascript/]]) {
    const response = await fetch(`${stack.baseUrl}${path}`);
    assert.equal(response.status, 200, path);
    assert.match(response.headers.get('content-type'), type, path);
  }
  const response = await fetch(`${stack.baseUrl}/r/logikflow/demo/pull/3`);
  const csp = response.headers.get('content-security-policy');
  assert.match(csp, /script-src 'self';/);
  assert.match(csp, /style-src 'self' 'unsafe-inline';/);
  const text = await response.text();
  assert.doesNotMatch(text, /<script>/, 'no inline script');
});

test('no serious or critical axe-core violations on any page, in both themes', async () => {
  const pages = [
    ['/', 'light'],
    ['/docs/ordering-guide', 'light'],
    ['/docs/ordering-guide', 'dark'],
    ['/settings', 'light'],
    ['/r/logikflow/demo/pull/3', 'light'],
    ['/r/logikflow/demo/pull/3', 'dark'],
    ['/r/logikflow/big/pull/1', 'light'],
  ];
  // The page a "Load diff" link opens without JavaScript (the one with review comments).
  const big = await html('/r/logikflow/big/pull/1?from=201');
  const single = /<a class="button load-diff" href="([^"]*)">Load diff<\/a> <span class="muted">[^<]*2 comments/.exec(big);
  assert.ok(single, 'a Load diff link');
  pages.push([single[1].replaceAll('&amp;', '&'), 'light'], [single[1].replaceAll('&amp;', '&'), 'dark']);
  const axe = require.resolve('axe-core/axe.min.js');
  const found = [];
  for (const [path, scheme] of pages) {
    // bypassCSP lets the test inject axe-core; the page's own scripts run under its CSP as usual.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme, bypassCSP: true });
    const tab = await context.newPage();
    await tab.goto(`${stack.baseUrl}${path}`);
    if (path.startsWith('/r/')) {
      await scrollThrough(tab);
      // Let highlighting run where it applies, so axe sees its markup too. Which diffs are on
      // screen decides whether any is highlighted yet; the highlighting test asserts it.
      await tab.locator('.diff-wrap').first().scrollIntoViewIfNeeded();
      await tab.locator('span.hl').first().waitFor({ timeout: 5000 }).catch(() => {});
    }
    await tab.addScriptTag({ path: axe });
    const violations = await tab.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + (n.failureSummary ?? '')) }));
    });
    for (const v of violations) found.push({ path, scheme, ...v });
    await context.close();
  }
  assert.deepEqual(found, [], JSON.stringify(found, null, 2));
});

test('with a saved order, the outline reaches every window of a large pull request', async (t) => {
  const client = new Client({ name: 'review-view-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
  const orderIn = async (number, parts) => {
    const pr = { owner: 'logikflow', repo: 'big', number };
    const read = await client.callTool({ name: 'get_pull_request', arguments: pr });
    const { files, baseVersion } = read.structuredContent;
    const per = Math.ceil(files.length / parts);
    const sections = [];
    for (let i = 0; i < files.length; i += per) {
      sections.push({ title: `Part ${sections.length + 1}`, layer: 'logic', files: files.slice(i, i + per).map((f) => ({ path: f.path })) });
    }
    const saved = await client.callTool({ name: 'save_reading_order', arguments: { ...pr, base_version: baseVersion, sections } });
    assert.equal(saved.isError, false, saved.content?.[0]?.text);
    return files.map((f) => f.path);
  };
  await orderIn(2, 12);
  const paths = await orderIn(1, 4);
  await client.close();
  // With its outline of 3,000 files (before windows and the short outline lines: 5.0 MB).
  const sizes = {};
  for (const n of [1, 2]) sizes[`big#${n}`] = Buffer.byteLength(await html(`/r/logikflow/big/pull/${n}`));
  t.diagnostic(`review page HTML bytes with a saved order: ${JSON.stringify(sizes)}`);
  for (const [page, bytes] of Object.entries(sizes)) pageSizes.push(['saved, every file in the outline', page, bytes]);
  assert.ok(sizes['big#1'] < 512 * 1024, `big#1: ${sizes['big#1']}`);
  assert.ok(sizes['big#2'] < 1024 * 1024, `big#2: ${sizes['big#2']}`);

  const tab = await page();
  await tab.goto(`${stack.baseUrl}/r/logikflow/big/pull/1`);
  const anchor = (path) => `file-${path}`;
  // An outline link to the 250th file loads its window in place and goes there.
  const link = tab.locator(`.outline a[title="${paths[249]}"]`);
  assert.equal(await link.getAttribute('href'), `?from=201#${anchor(paths[249])}`);
  await Promise.all([
    tab.waitForResponse((r) => r.url().includes('?from=201&fragment=1') && r.status() === 200),
    link.click(),
  ]);
  const target = tab.locator(`article[id="${anchor(paths[249])}"]`);
  await target.waitFor();
  await tab.waitForFunction((id) => document.activeElement?.id === id, anchor(paths[249]));
  assert.ok(tab.url().endsWith(`#${anchor(paths[249])}`));
  assert.equal(await tab.locator('article.file').count(), 200);
  // `j` past the first window's last file loads the next window and goes to its first file.
  await tab.locator(`article[id="${anchor(paths[99])}"]`).focus();
  await Promise.all([
    tab.waitForResponse((r) => r.url().includes('?from=101&fragment=1') && r.status() === 200),
    tab.keyboard.press('j'),
  ]);
  await tab.waitForFunction((id) => document.activeElement?.id === id, anchor(paths[100]));
  assert.equal(await tab.locator('article.file').count(), 300);
  // The outline line of a file ticked in a loaded window follows its state.
  const row = tab.locator(`.outline li:has(> a[title="${paths[100]}"])`);
  assert.equal(await row.getAttribute('data-state'), 'todo');
  await Promise.all([
    tab.waitForResponse((r) => r.url().endsWith('/ticks') && r.status() === 200),
    tab.keyboard.press('x'),
  ]);
  assert.equal(await row.getAttribute('data-state'), 'reviewed');
  assert.match(await row.textContent(), /^Reviewed: /);
  await tab.screenshot({ path: join(shots, 'review-windows-desktop.png'), fullPage: false });
  await tab.close();

  // A link straight to a file of a window that isn't on the page (shared, or the diagram's).
  const direct = await page();
  await direct.goto(`${stack.baseUrl}/r/logikflow/big/pull/1#${anchor(paths[310])}`);
  await direct.locator(`article[id="${anchor(paths[310])}"]`).waitFor();
  await direct.close();
});

// Last, because it saves an order on demo#3, which the tests above read without one.
test('the README\'s picture: a saved order on a small pull request, its outline and a highlighted diff', async () => {
  const client = new Client({ name: 'review-view-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
  const pr = { owner: 'logikflow', repo: 'demo', number: 3 };
  const read = await client.callTool({ name: 'get_pull_request', arguments: pr });
  const { files, baseVersion } = read.structuredContent;
  const generated = files.filter((f) => f.likelyGenerated || /(^|\/)package-lock\.json$|\.png$/.test(f.path));
  const tests = files.filter((f) => f.testOf && !generated.includes(f));
  const core = files.filter((f) => !tests.includes(f) && !generated.includes(f));
  const sections = [
    { title: 'Skip vendored files; Diagram becomes FlowGraph', layer: 'logic',
      note: 'Start with the ordering rule: vendored files are now skipped like generated ones. The rename then touches every caller.',
      checks: ['Vendored files are skipped like generated ones', 'No caller still names Diagram'],
      files: core.map((f, i) => ({ path: f.path, ...(i === 0 ? { focus: 'key' } : {}) })) },
    { title: 'Tests', layer: 'tooling', checks: ['The tests cover the skip rule'], files: tests.map((f) => ({ path: f.path })) },
    { title: 'Generated and lock files', layer: 'resources', note: 'Nothing to read closely.',
      files: generated.map((f) => ({ path: f.path, focus: f.likelyGenerated ? 'generated' : 'skim' })) },
  ].filter((section) => section.files.length > 0);
  const saved = await client.callTool({ name: 'save_reading_order', arguments: {
    ...pr, base_version: baseVersion, sections,
    overview: 'Vendored files are skipped in review orders, and the flow Diagram type is renamed FlowGraph.',
  } });
  assert.equal(saved.isError, false, saved.content?.[0]?.text);
  await client.close();

  const tab = await page({ viewport: { width: 1280, height: 1060 } });
  await tab.goto(`${stack.baseUrl}/r/logikflow/demo/pull/3`);
  await tab.locator('form.tick', { hasText: 'Vendored files are skipped like generated ones' }).waitFor();
  await tab.locator('.outline').first().waitFor();
  await tab.locator('span.hl').first().waitFor();
  const shot = join(shots, 'review-page.png');
  await tab.screenshot({ path: shot, fullPage: false });
  await tab.close();
  if (process.env.UPDATE_DOCS_IMAGES === '1' || !existsSync(docsImage)) {
    mkdirSync(join(root, 'docs/images'), { recursive: true });
    copyFileSync(shot, docsImage);
  }
});

// The review page in headless Chromium (Debian's, driven by playwright-core) against the real
// Worker and the stand-in: open a saved order, tick a check, re-arrange through the tool, reload
// and find the tick still there; open the diagram tab and find every node; arrange on the web and
// read the new version back through get_pull_request (a conflict, forged posts and axe-core on
// the editor too); agent text with <script> stays text.
// The diagram tab is drawn in the browser (src/static/diagram.js) from the layout the page
// carries: checked in both themes, with axe-core, by keyboard and without JavaScript.
// Screenshots (desktop and phone width, the diagram dark and without script) go to
// tests/artifacts/screenshots/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { launchChromium, root, standinControl, startStack } from './harness.mjs';

const shots = join(root, 'tests/artifacts/screenshots');
const axe = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const pr = { owner: 'logikflow', repo: 'demo', number: 3 };
let stack;
let client;
let browser;
let files;

before(async () => {
  mkdirSync(shots, { recursive: true });
  stack = await startStack();
  client = new Client({ name: 'browser-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
  browser = await launchChromium();
  files = (await call('get_pull_request', pr)).files;
});
after(async () => {
  await browser?.close();
  await client?.close();
  await stack?.stop();
});

async function call(name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, false, result.content?.[0]?.text);
  return result.structuredContent;
}

function sections(reverse) {
  const tests = files.filter((f) => f.testOf);
  const rest = files.filter((f) => !f.testOf);
  const list = [
    { title: 'Core changes', layer: 'logic', note: 'Watch out: <script>window.__pwned = 1</script> is just text.', checks: ['Ids stay stable across pushes'],
      files: rest.map((f) => ({ path: f.path, ...(f.likelyGenerated ? { focus: 'generated' } : {}) })) },
    { title: 'Tests', layer: 'tooling', checks: ['Tests cover the rename'], files: tests.map((f) => ({ path: f.path })) },
  ].filter((s) => s.files.length > 0);
  return reverse ? list.reverse() : list;
}

test('tick a check, re-arrange through the tool, reload: the tick is still there', async () => {
  const first = await call('get_pull_request', pr);
  await call('save_reading_order', { ...pr, base_version: first.baseVersion, overview: 'A small mixed-language change.', sections: sections(false) });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${stack.baseUrl}/r/logikflow/demo/pull/3`);
  assert.match(await page.title(), /LogiKFlow/);
  const check = page.locator('form.tick', { hasText: 'Ids stay stable across pushes' });
  const box = check.locator('input[type=checkbox]');
  await box.waitFor();
  assert.equal(await box.isChecked(), false);
  const before = await page.locator('#progress-done').textContent();
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/ticks') && r.status() === 200),
    box.click(),
  ]);
  await page.waitForFunction((b) => document.getElementById('progress-done').textContent !== b, before);

  // The agent re-arranges: sections swap places, the check keeps its text and section title.
  const current = await call('get_pull_request', pr);
  await call('save_reading_order', { ...pr, base_version: current.baseVersion, overview: 'Re-arranged.', sections: sections(true) });
  await page.reload();
  const again = page.locator('form.tick', { hasText: 'Ids stay stable across pushes' }).locator('input[type=checkbox]');
  assert.equal(await again.isChecked(), true, 'the tick follows the check across a re-arrange');
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'agent text never runs');
  assert.ok((await page.content()).includes('&lt;script&gt;window.__pwned'), 'agent text is shown as text');
  await page.screenshot({ path: join(shots, 'review-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `no sideways scrolling on a phone (${overflow}px)`);
  await page.screenshot({ path: join(shots, 'review-phone.png'), fullPage: true });
  await page.close();
});

test('the diagram tab draws every node in the browser, linked to its entry, in both themes', async () => {
  const current = await call('get_pull_request', pr);
  const split = current.files.find((f) => f.changes);
  const spec = current.files.find((f) => f.testOf) ?? current.files.find((f) => f.path !== split.path);
  const nodes = [
    { id: 'agent', title: 'Agent saves an order', kind: 'trigger', lines: [{ label: 'tool', text: 'save_reading_order' }] },
    { id: 'validate', title: 'Validate the order', kind: 'decision', file: split.path, hunk: split.changes[0].id },
    { id: 'store', title: 'Store the version', kind: 'data', group: 'server' },
    { id: 'page', title: 'Reviewer opens <the> page', kind: 'ui' },
    { id: 'spec', title: 'Tests', kind: 'test', group: 'server', file: spec.path },
  ];
  await call('save_diagram', {
    ...pr, base_version: current.diagramBaseVersion,
    diagram: { title: 'Saving an order', groups: [{ id: 'server', title: 'Server' }], nodes,
      edges: [{ from: 'agent', to: 'validate' }, { from: 'validate', to: 'store', label: 'if valid' }, { from: 'store', to: 'page' }, { from: 'validate', to: 'spec', dashed: true }] },
  });
  const url = `${stack.baseUrl}/r/logikflow/demo/pull/3#diagram`;
  const fills = {};
  let hrefs;
  for (const scheme of ['light', 'dark']) {
    // bypassCSP lets the test inject axe-core; the page's own scripts run under its CSP as usual.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme, bypassCSP: true });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    const svg = page.locator('#diagram svg.lkf-diagram');
    await svg.waitFor();
    assert.ok(await svg.isVisible(), 'the diagram tab is shown');
    // Its nodes link, so it is a named group rather than an image (whose content is presentational).
    assert.equal(await svg.getAttribute('role'), 'group');
    assert.equal(await page.evaluate(() => document.querySelector('#diagram svg').getAttribute('aria-describedby')), 'lkf-diagram-desc');
    assert.equal(await page.locator('#lkf-diagram-title').textContent(), 'Saving an order');
    assert.equal(await page.locator('#lkf-diagram-desc').textContent(), 'Flow diagram with 5 steps and 4 links in 1 group');
    assert.equal(await page.locator('#diagram .diagram-steps').count(), 0, 'the drawing replaced the list of steps');
    for (const node of nodes) {
      assert.equal(await page.locator(`#diagram [data-node="${node.id}"]`).count(), 1, node.id);
    }
    assert.equal(await page.locator('#diagram .edge').count(), 4);
    assert.equal(await page.locator('#diagram .edge.dashed').count(), 1);
    assert.equal(await page.locator('#diagram .edge-label text').textContent(), 'if valid');
    assert.equal((await page.locator('#diagram [data-node="page"] .title').allTextContents()).join(' '), 'Reviewer opens <the> page');
    // Nodes tied to a file link to that file's entry in the reading order; the others don't link.
    const links = await page.$$eval('#diagram a.node-link', (all) => all.map((a) => ({
      node: a.querySelector('[data-node]').dataset.node,
      href: a.getAttribute('href'),
      entry: document.getElementById(a.getAttribute('href').slice(1))?.querySelector('h3.path')?.textContent ?? null,
    })));
    assert.deepEqual(links.map((l) => [l.node, l.entry]), [['validate', split.path], ['spec', spec.path]], JSON.stringify(links));
    hrefs = links.map((l) => l.href);
    await page.screenshot({ path: join(shots, scheme === 'light' ? 'diagram-desktop.png' : 'diagram-dark.png'), fullPage: true });
    // The keyboard reaches the links (from the scrollable region, Tab) and follows one into the order.
    await page.locator('#diagram-drawing').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('href')), links[0].href);
    fills[scheme] = await page.$eval('#diagram [data-node="agent"] .shape', (n) => getComputedStyle(n).fill);
    await page.addScriptTag({ path: axe });
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run('#diagram', { resultTypes: ['violations'] });
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + (n.failureSummary ?? '')) }));
    });
    assert.deepEqual(violations, [], `${scheme}: ${JSON.stringify(violations, null, 2)}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction((hash) => location.hash === hash, links[0].href);
    assert.ok(await page.locator(`article[id="${links[0].href.slice(1)}"]`).isVisible(), 'the entry is shown');
    assert.deepEqual(errors, []);
    if (scheme === 'light') {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(url);
      await svg.waitFor();
      await page.screenshot({ path: join(shots, 'diagram-phone.png'), fullPage: true });
    }
    await context.close();
  }
  assert.notEqual(fills.light, fills.dark, 'the dark theme has its own palette');

  // Without JavaScript the tab lists the steps in order, linked like the nodes.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url);
  assert.equal(await page.locator('#diagram svg').count(), 0);
  assert.deepEqual(await page.locator('#diagram .diagram-steps li').allTextContents(), nodes.map((n) => n.title));
  assert.deepEqual(await page.locator('#diagram .diagram-steps a').evaluateAll((all) => all.map((a) => a.getAttribute('href'))),
    hrefs);
  await page.screenshot({ path: join(shots, 'diagram-no-script.png'), fullPage: true });
  await context.close();
});

const arrangePath = '/r/logikflow/demo/pull/3/arrange';

async function openEditor(viewport = { width: 1280, height: 900 }, options = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  await page.goto(`${stack.baseUrl}${arrangePath}`);
  await page.locator('#arrange-root form.arrange').waitFor();
  return { context, page };
}

test('arrange on the web, then read the new version back through get_pull_request', async () => {
  const before = await call('get_pull_request', pr);
  const [first, second] = before.currentOrder.sections;
  assert.ok(first && second, 'the saved order has two sections');
  // A file moves from the larger section to the other one, so no section is left empty.
  const from = first.files.length > 1 ? 0 : 1;
  const to = 1 - from;
  const moved = before.currentOrder.sections[from].files[0].path;
  const { context, page } = await openEditor();
  assert.equal(await page.locator('#arrange-nojs').count(), 0, 'the no-JavaScript notice is gone');
  // Agent text stays text: a note with <script> is a textarea's value, and nothing ran.
  const notes = await page.locator('section.sec > .field textarea').evaluateAll((areas) => areas.map((a) => a.value));
  assert.deepEqual(notes, [first.note ?? '', second.note ?? '']);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  // Move the file to the other section, with the keyboard only.
  const entry = page.locator(`li.entry[data-path="${moved}"]`);
  await entry.getByLabel('Section').focus();
  await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
  await entry.getByRole('button', { name: 'Move to section' }).focus();
  await page.keyboard.press('Enter');
  const there = page.locator('section.sec').nth(to).locator(`li.entry[data-path="${moved}"]`);
  assert.equal(await there.count(), 1, 'the file moved to the other section');
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'SELECT', 'focus stays on the moved file');
  assert.match(await page.locator('#arrange-status').textContent(), new RegExp(`Moved .* to the end of section ${to + 1}`));
  // Move the second section to the top; focus goes to the control that is still usable.
  await page.locator('section.sec').nth(1).getByRole('button', { name: 'Move section up' }).click();
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Move section down');
  // Move the file up once within its section, then edit its note and the top section's note.
  await page.locator(`li.entry[data-path="${moved}"]`).getByRole('button', { name: 'Move up' }).click();
  await page.locator(`li.entry[data-path="${moved}"]`).getByLabel('Note').fill('Moved on the web: <b>still text</b>');
  await page.locator('section.sec').first().locator('> .field textarea').fill('Read the tests first, on the web.');
  await page.screenshot({ path: join(shots, 'arrange-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `no sideways scrolling at phone width (${overflow}px)`);
  await page.screenshot({ path: join(shots, 'arrange-phone.png'), fullPage: true });
  await Promise.all([page.waitForURL(/\/pull\/3$/), page.getByRole('button', { name: 'Save order' }).click()]);
  await context.close();

  const after = await call('get_pull_request', pr);
  assert.equal(after.baseVersion, before.baseVersion + 1);
  assert.equal(after.currentOrder.source, 'web');
  const [top, next] = after.currentOrder.sections;
  assert.equal(after.currentOrder.sections.length, 2);
  assert.equal(top.title, second.title);
  assert.equal(top.note, 'Read the tests first, on the web.');
  assert.equal(next.title, first.title);
  assert.equal(next.note, first.note);
  const target = to === 1 ? top : next;
  const index = target.files.findIndex((f) => f.path === moved);
  assert.equal(index, before.currentOrder.sections[to].files.length - 1, 'moved to the end, then up once');
  assert.equal(target.files[index].note, 'Moved on the web: <b>still text</b>');
  // What the editor does not edit is kept exactly: layers, checks, focus, hunks, the overview.
  assert.deepEqual([top.layer, top.checks], [second.layer, second.checks]);
  assert.deepEqual([next.layer, next.checks], [first.layer, first.checks]);
  assert.equal(after.currentOrder.overview, before.currentOrder.overview);
  const kept = (order) => Object.fromEntries(order.sections.flatMap((s) => s.files).map((f) => [f.path, [f.focus, f.hunks, f.checks]]));
  assert.deepEqual(kept(after.currentOrder), kept(before.currentOrder));
});

test('arrange on the web: a save that lost a race is refused with a way to reload', async () => {
  const { context, page } = await openEditor();
  const before = await call('get_pull_request', pr);
  // Someone saves through the tool after the editor opened.
  const raced = await call('save_reading_order', { ...pr, base_version: before.baseVersion, overview: 'Saved by the agent meanwhile.', sections: sections(false) });
  await page.getByLabel('Overview').fill('Lost the race.');
  await page.getByRole('button', { name: 'Save order' }).click();
  const error = page.locator('#arrange-error');
  await error.waitFor();
  assert.match(await error.textContent(), /The order wasn't saved\.Conflict: .* saved version \d+ after you opened this page/);
  assert.equal(await error.getByRole('link', { name: /Reload/ }).getAttribute('href'), arrangePath);
  const after = await call('get_pull_request', pr);
  assert.equal(after.baseVersion, raced.version, 'nothing saved by the editor');
  assert.equal(after.currentOrder.overview, 'Saved by the agent meanwhile.');
  // Reloading starts from the new version, and then saving works.
  await page.reload();
  await page.getByLabel('Overview').fill('Saved after a reload.');
  await Promise.all([page.waitForURL(/\/pull\/3$/), page.getByRole('button', { name: 'Save order' }).click()]);
  assert.equal((await call('get_pull_request', pr)).currentOrder.overview, 'Saved after a reload.');
  await context.close();
});

// Issue #47: a save GitHub refused the commit status for (an App without Commit statuses) is
// still saved, and the editor says why no status was set instead of leaving at once.
test('arrange on the web: a refused commit status is said, and the order is saved', async () => {
  const before = await call('get_pull_request', pr);
  await standinControl(stack, 'POST', 'config', { statusesReadOnly: true });
  try {
    const { context, page } = await openEditor();
    await page.getByLabel('Overview').fill('Saved without a status.');
    await page.getByRole('button', { name: 'Save order' }).click();
    const saved = page.locator('#arrange-saved');
    await saved.waitFor();
    assert.match(await saved.textContent(), /^The order was saved\.No LogiKFlow status was set on GitHub: GitHub refused the commit status: the LogiKFlow GitHub App is installed without Commit statuses: Read and write/);
    assert.equal(await saved.getByRole('link', { name: 'Go to the review' }).getAttribute('href'), '/r/logikflow/demo/pull/3');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'arrange-saved', 'focus moves to what was said');
    await page.screenshot({ path: join(shots, 'arrange-no-status.png'), fullPage: true });
    await context.close();
  } finally {
    await standinControl(stack, 'POST', 'config', { statusesReadOnly: false });
  }
  const after = await call('get_pull_request', pr);
  assert.equal(after.baseVersion, before.baseVersion + 1);
  assert.equal(after.currentOrder.overview, 'Saved without a status.');
});

test('arrange on the web: forged and invalid posts are refused and save nothing', async () => {
  const { context, page } = await openEditor();
  const before = await call('get_pull_request', pr);
  const token = await page.locator('#arrange-csrf').inputValue();
  const url = `${stack.baseUrl}${arrangePath}`;
  const order = { overview: 'Forged.', sections: sections(false) };
  // As the editor's script posts: JSON, from this site's page (`Origin`), with the page's token.
  const post = (headers, data = { base_version: before.baseVersion, order }) =>
    page.request.post(url, { headers: { 'content-type': 'application/json', origin: stack.baseUrl, ...headers }, data: JSON.stringify(data), maxRedirects: 0 });
  assert.equal((await post({})).status(), 403, 'no CSRF token');
  assert.equal((await post({ 'x-csrf-token': 'x'.repeat(43) })).status(), 403, 'a wrong CSRF token');
  const foreign = await post({ 'x-csrf-token': token, origin: 'https://evil.example' });
  assert.equal(foreign.status(), 403, 'another origin');
  assert.match((await foreign.json()).error, /reload the page/);
  // Issue 31: the real token without `Origin` or `Sec-Fetch-Site`, and a body that isn't JSON.
  const headless = await page.request.post(url, { headers: { 'content-type': 'application/json', 'x-csrf-token': token }, data: JSON.stringify({ base_version: before.baseVersion, order }), maxRedirects: 0 });
  assert.equal(headless.status(), 403, 'neither Origin nor Sec-Fetch-Site');
  assert.match((await headless.json()).error, /didn't come from this site/);
  const plain = await post({ 'x-csrf-token': token, 'content-type': 'text/plain' });
  assert.equal(plain.status(), 415, 'a body that is not JSON');
  // The tool's validation and its messages (a file left out, a bad shape) are
  // `app::pull_request::arrange::tests`' (issue #37); here, the route's 400 for a bad body.
  assert.equal((await post({ 'x-csrf-token': token }, { order })).status(), 400, 'no base_version');
  const after = await call('get_pull_request', pr);
  assert.equal(after.baseVersion, before.baseVersion, 'nothing saved');
  assert.notEqual(after.currentOrder.overview, 'Forged.');
  await context.close();
});

test('arrange on the web without JavaScript says it needs JavaScript; the editor passes axe-core', async () => {
  const noJs = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
  const plain = await noJs.newPage();
  await plain.goto(`${stack.baseUrl}${arrangePath}`);
  assert.match(await plain.locator('#arrange-nojs').textContent(), /Arranging needs JavaScript/);
  assert.equal(await plain.locator('#arrange-nojs a').getAttribute('href'), '/r/logikflow/demo/pull/3');
  await noJs.close();
  const found = [];
  for (const scheme of ['light', 'dark']) {
    for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      const { context, page } = await openEditor(viewport, { colorScheme: scheme, bypassCSP: true });
      await page.addScriptTag({ path: axe });
      const violations = await page.evaluate(async () => {
        const result = await window.axe.run(document, { resultTypes: ['violations'] });
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
      });
      found.push(...violations.map((v) => ({ scheme, width: viewport.width, ...v })));
      await context.close();
    }
  }
  assert.deepEqual(found, [], JSON.stringify(found, null, 2));
});

test('a reviewer signs in with GitHub on a server without local development', async () => {
  const server = await startStack({
    localDev: false,
    vars: { GITHUB_CLIENT_ID: 'Iv1.standin', GITHUB_CLIENT_SECRET: 'standin-secret', TOKEN_ENCRYPTION_KEY: 'review-page-test-key-0123456789abcdef' },
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.baseUrl}/r/logikflow/demo/pull/3`);
    // Our consent page, after the stand-in's GitHub approved the sign-in.
    await page.locator('button[value=approve]').click();
    await page.waitForURL(/\/r\/logikflow\/demo\/pull\/3$/);
    assert.match(await page.locator('body').textContent(), /Signed in as octo/);
    // The session survives a reload, and signing out ends it.
    await page.reload();
    assert.match(await page.locator('body').textContent(), /Signed in as octo/);
    // Opening /signout only offers a button; pressing it (a CSRF-checked POST) signs out.
    await page.goto(`${server.baseUrl}/signout`);
    assert.equal((await page.request.get(`${server.baseUrl}/r/logikflow/demo/pull/3`, { maxRedirects: 0 })).status(), 200, 'a GET does not sign out');
    await Promise.all([page.waitForURL(`${server.baseUrl}/`), page.locator('form[action="/signout"] button').click()]);
    const response = await page.request.get(`${server.baseUrl}/r/logikflow/demo/pull/3`, { maxRedirects: 0 });
    assert.equal(response.status(), 302);
    assert.match(response.headers().location, /^\/signin\?next=/);
    await page.close();
  } finally {
    await server.stop();
  }
});

// The review page in headless Chromium (Debian's, driven by playwright-core) against the real
// Worker and the stand-in: open a saved order, tick a check, re-arrange through the tool, reload
// and find the tick still there; open the diagram tab and find every node; arrange on the web and
// read the new version back through get_pull_request; agent text with <script> stays text.
// Screenshots (desktop and phone width) go to tests/artifacts/screenshots/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { launchChromium, root, startStack } from './harness.mjs';

const shots = join(root, 'tests/artifacts/screenshots');
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

test('the diagram tab shows every node', async () => {
  const current = await call('get_pull_request', pr);
  const split = current.files.find((f) => f.changes);
  const nodes = [
    { id: 'agent', title: 'Agent saves an order', kind: 'trigger' },
    { id: 'validate', title: 'Validate the order', kind: 'decision', file: split.path, hunk: split.changes[0].id },
    { id: 'store', title: 'Store the version', kind: 'data', group: 'server' },
    { id: 'page', title: 'Reviewer opens the page', kind: 'ui' },
    { id: 'spec', title: 'Tests', kind: 'test', group: 'server' },
  ];
  await call('save_diagram', {
    ...pr, base_version: current.diagramBaseVersion,
    diagram: { title: 'Saving an order', groups: [{ id: 'server', title: 'Server' }], nodes,
      edges: [{ from: 'agent', to: 'validate' }, { from: 'validate', to: 'store', label: 'if valid' }, { from: 'store', to: 'page' }, { from: 'validate', to: 'spec', dashed: true }] },
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${stack.baseUrl}/r/logikflow/demo/pull/3#diagram`);
  for (const node of nodes) {
    assert.equal(await page.locator(`[data-node="${node.id}"]`).count(), 1, node.id);
  }
  assert.ok(await page.locator('#diagram svg').isVisible(), 'the diagram tab is shown');
  const link = page.locator('#diagram a[href^="#file-"]').first();
  assert.ok(await link.count(), 'a node with a file links into the order');
  await page.screenshot({ path: join(shots, 'diagram-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.screenshot({ path: join(shots, 'diagram-phone.png'), fullPage: true });
  await page.close();
});

test('arrange on the web, then read the new version back through get_pull_request', async () => {
  const before = await call('get_pull_request', pr);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${stack.baseUrl}/r/logikflow/demo/pull/3/arrange`);
  // Move the second section to the top and edit its note.
  await page.locator('input[name="section.1.position"]').fill('1');
  await page.locator('input[name="section.0.position"]').fill('2');
  await page.locator('textarea[name="section.1.note"]').fill('Read the tests first, on the web.');
  await Promise.all([page.waitForURL(/\/pull\/3$/), page.locator('form button[type=submit]').last().click()]);
  await page.close();
  const after = await call('get_pull_request', pr);
  assert.equal(after.baseVersion, before.baseVersion + 1);
  assert.equal(after.currentOrder.source, 'web');
  assert.equal(after.currentOrder.sections[0].title, before.currentOrder.sections[1].title);
  assert.equal(after.currentOrder.sections[0].note, 'Read the tests first, on the web.');
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

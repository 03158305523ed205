// team-review.test.mjs — issue #47 end to end: two reviewers signed in with GitHub (through the
// stand-in's OAuth, as on a deployed server) tick different files of a saved order in Chromium,
// each page names the other on what they read, the team summary counts both and `?view=unread`
// shows only what neither read (axe-core clean, screenshots in tests/artifacts/screenshots/
// team-*.png); then the agent, with the official TypeScript SDK client, reads `coverage` from
// `get_review_feedback` and it matches the ticks.
//
// The coverage rules (several reviewers, a push, split files, files without hunks, Delete my data)
// and the receipt are tested in-process (`review::coverage`, `app::pull_request::coverage`,
// `app::pull_request::tools::tests::team`); here, what needs the platform: real sign-ins, the
// pull request's Durable Object across two people, the browser.

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { launchChromium, root, startStack } from './harness.mjs';
import { OAUTH_VARS, connect, webSignIn } from './oauth-flow.mjs';
import { validateToolOutput } from './schemas.mjs';

const require = createRequire(import.meta.url);
const shots = join(root, 'tests/artifacts/screenshots');
const PULL = { owner: 'logikflow', repo: 'demo', number: 3 };
const PAGE = '/r/logikflow/demo/pull/3';
let stack;

before(async () => {
  stack = await startStack({ localDev: false, vars: { ...OAUTH_VARS, ADDRESS_RATE_LIMIT_PER_MINUTE: '10000' } });
});
after(async () => { await stack?.stop(); });

/** A Chromium page signed in with `session` (the Cookie header webSignIn returns). */
async function signedIn(browser, session) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const cookies = session.split('; ').map((pair) => {
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: stack.baseUrl };
  });
  await context.addCookies(cookies);
  return context.newPage();
}

/** Marks `path` reviewed by clicking its entry's tick, and waits for the server's answer. */
async function tick(tab, path) {
  const article = tab.locator(`article.file:has(h3 code:text-is("${path}"))`);
  const box = article.locator('.file-body > form.tick input.tick-box').first();
  await box.waitFor();
  const answered = tab.waitForResponse((r) => r.url().includes('/ticks') && r.request().method() === 'POST');
  await box.check();
  assert.equal((await answered).status(), 200);
}

async function axe(tab) {
  await tab.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return tab.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
}

test('two reviewers see each other, what nobody read, and the agent reads the same coverage', async () => {
  // The agent (maint, who may push) saves an order of every file in two sections.
  const { tokens } = await connect(stack, { login: 'maint', name: 'Team agent' });
  const client = new Client({ name: 'team-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl), {
    requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } },
  }));
  try {
    const read = await client.callTool({ name: 'get_pull_request', arguments: PULL });
    assert.equal(read.isError, false, read.content?.[0]?.text);
    const paths = read.structuredContent.files.map((f) => f.path);
    assert.ok(paths.length >= 3, `${paths.length} files`);
    const half = Math.ceil(paths.length / 2);
    const saved = await client.callTool({
      name: 'save_reading_order',
      arguments: {
        ...PULL,
        base_version: read.structuredContent.baseVersion,
        sections: [
          { title: 'First half', files: paths.slice(0, half).map((path) => ({ path })) },
          { title: 'Second half', files: paths.slice(half).map((path) => ({ path })) },
        ],
      },
    });
    assert.equal(saved.isError, false, saved.content?.[0]?.text);

    const [first, second] = paths;
    const octo = await webSignIn(stack, 'octo', PAGE);
    const maint = await webSignIn(stack, 'maint', PAGE);
    mkdirSync(shots, { recursive: true });
    const browser = await launchChromium();
    try {
      const octoTab = await signedIn(browser, octo);
      await octoTab.goto(`${stack.baseUrl}${PAGE}`);
      assert.equal(await octoTab.locator('section.team').count(), 0, 'alone: no team summary');
      await tick(octoTab, first);
      const maintTab = await signedIn(browser, maint);
      await maintTab.goto(`${stack.baseUrl}${PAGE}`);
      await tick(maintTab, second);

      // Each one's page names the other on the file they read, and the summary counts both.
      await octoTab.reload();
      await maintTab.reload();
      for (const [tab, other, theirs] of [[octoTab, 'maint', second], [maintTab, 'octo', first]]) {
        const summary = tab.locator('section.team');
        await summary.waitFor();
        const text = await summary.innerText();
        assert.match(text, /octo.*1 of \d+ files/s, text);
        assert.match(text, /maint.*1 of \d+ files/s, text);
        assert.match(text, new RegExp(`Nobody has read ${paths.length - 2} files`), text);
        const note = tab.locator(`article.file:has(h3 code:text-is("${theirs}")) .team-note`);
        assert.equal(await note.innerText(), `Read by ${other}.`);
        const mark = tab.locator('nav.outline .team-mark');
        assert.equal(await mark.count(), 1, 'one file read by the other');
        assert.equal(await mark.getAttribute('title'), `Read by ${other}.`);
        assert.deepEqual(await axe(tab), []);
      }
      await octoTab.screenshot({ path: join(shots, 'team-octo-desktop.png') });
      await maintTab.locator('section.team').scrollIntoViewIfNeeded();
      await maintTab.screenshot({ path: join(shots, 'team-maint-desktop.png') });

      // What nobody has read: only the files neither ticked.
      await octoTab.goto(`${stack.baseUrl}${PAGE}?view=unread`);
      const shown = await octoTab.locator('article.file h3 code').allInnerTexts();
      assert.deepEqual(shown.sort(), paths.slice(2).sort());
      assert.deepEqual(await axe(octoTab), []);
      await octoTab.screenshot({ path: join(shots, 'team-unread-desktop.png') });
      await octoTab.setViewportSize({ width: 390, height: 844 });
      await octoTab.goto(`${stack.baseUrl}${PAGE}`);
      await octoTab.screenshot({ path: join(shots, 'team-octo-phone.png') });
    } finally {
      await browser.close();
    }

    // The agent reads the same coverage.
    const feedback = await client.callTool({ name: 'get_review_feedback', arguments: PULL });
    assert.equal(feedback.isError, false, feedback.content?.[0]?.text);
    validateToolOutput('get_review_feedback', feedback.structuredContent);
    const { coverage } = feedback.structuredContent;
    assert.deepEqual(coverage.reviewers.map((r) => [r.login, r.filesRead]), [['maint', 1], ['octo', 1]]);
    const [one, two] = coverage.sections;
    assert.deepEqual([one.readBy, one.partlyReadBy], [[], ['maint', 'octo']]);
    const unread = [...one.unread, ...two.unread].map((f) => f.path);
    assert.deepEqual(unread.sort(), paths.slice(2).sort());
    assert.equal(coverage.totals.filesUnread, paths.length - 2);
  } finally {
    await client.close();
  }
});

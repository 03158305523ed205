// The author's agent reads the review back (issue #38), through the real Worker, its pull
// request's Durable Object and the GitHub stand-in, with the official TypeScript SDK client and
// with plain 2026-07-28 requests: after the agent saves an order, a reviewer requests changes with
// two line comments (the stand-in's `reviews/demo`) and a push rewrites the line under one of
// them. Then `get_pull_request`'s nextStep points to the feedback, and `get_review_feedback`
// gives the verdict and both threads with their sections and change ids, `changedSince` true for
// exactly the one whose line changed, and its suggestion as lines; outputs are validated against
// schema/. The review page marks that thread "Changed since this comment" with the head and its
// outline counts open threads per section, in its served HTML and in Chromium (axe-core,
// screenshots in tests/artifacts/screenshots/review-feedback-*.png).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { launchChromium, modernRequest, postMcp, root, standinControl, startStack } from './harness.mjs';
import { validateToolInput, validateToolOutput } from './schemas.mjs';

const require = createRequire(import.meta.url);
const shots = join(root, 'tests/artifacts/screenshots');
const PULL = { owner: 'logikflow', repo: 'private', number: 1 };
let stack;
let client;

// The agent is the pull request's author (`maint`); `octo` reviews.
before(async () => {
  stack = await startStack({ localUser: 'maint' });
  client = new Client({ name: 'feedback-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
});
after(async () => {
  await client?.close();
  await stack?.stop();
});

async function call(name, args) {
  validateToolInput(name, args);
  const result = await client.callTool({ name, arguments: args });
  if (!result.isError) validateToolOutput(name, result.structuredContent);
  return result;
}

/** A 2026-07-28 request without a session; its result. */
async function modern(method, params, name) {
  const { message, headers } = modernRequest(1, method, params, name);
  const response = await postMcp(stack, message, headers);
  assert.equal(response.status, 200);
  return response.body.result;
}

test('both eras list the tool with its schemas, read-only', async () => {
  const legacy = (await client.listTools()).tools.find((t) => t.name === 'get_review_feedback');
  const current = (await modern('tools/list', {})).tools.find((t) => t.name === 'get_review_feedback');
  for (const tool of [legacy, current]) {
    assert.ok(tool, 'listed');
    assert.equal(tool.annotations.readOnlyHint, true);
    assert.deepEqual(tool.inputSchema.required, ['owner', 'repo', 'number']);
    assert.ok(tool.outputSchema.properties.threads);
  }
});

test('a review answered: verdict, threads in sections, what changed since, the suggestion', async () => {
  await standinControl(stack, 'POST', 'reset');
  const read = await call('get_pull_request', PULL);
  assert.equal(read.isError, false);
  assert.equal(read.structuredContent.nextStep, undefined, 'no review yet');
  const files = read.structuredContent.files.map((f) => f.path);
  const docs = files.filter((p) => p.endsWith('.md'));
  const code = files.filter((p) => !p.endsWith('.md'));
  const saved = await call('save_reading_order', {
    ...PULL,
    base_version: read.structuredContent.baseVersion,
    sections: [
      { title: 'Rounding', files: code.map((path) => ({ path })) },
      { title: 'Docs', files: docs.map((path) => ({ path })) },
    ],
  });
  assert.equal(saved.isError, false, saved.content?.[0]?.text);

  const demo = await standinControl(stack, 'POST', 'reviews/demo', { repo: 'logikflow/private', number: 1, reviewer: 'octo', push: true });
  assert.equal(demo.comments.length, 2, JSON.stringify(demo));
  const [edited, kept] = demo.comments;

  const again = await call('get_pull_request', PULL);
  assert.match(again.structuredContent.nextStep, /get_review_feedback/);
  const changes = new Map(again.structuredContent.files.map((f) => [f.path, f.changes]));

  const feedback = await call('get_review_feedback', PULL);
  assert.equal(feedback.isError, false, feedback.content?.[0]?.text);
  const answer = feedback.structuredContent;
  assert.deepEqual(JSON.parse(feedback.content[0].text), answer, 'text and structuredContent agree');
  assert.equal(answer.headSha, demo.push.head_sha);
  assert.deepEqual(answer.verdicts.map((v) => [v.reviewer, v.state, v.atCurrentHead]), [['octo', 'changes_requested', false]]);
  assert.equal(answer.verdicts[0].summary, 'Two things before this can go in.');
  assert.equal(answer.threads.length, 2);
  const byPath = new Map(answer.threads.map((t) => [t.path, t]));
  const changed = byPath.get(edited.path);
  const same = byPath.get(kept.path);
  assert.equal(changed.changedSince, true, 'the push rewrote its line');
  assert.equal(changed.outdated, true);
  assert.equal(same.changedSince, false, 'the push left its lines alone');
  assert.equal(same.line, kept.line);
  const titleOf = (path) => (code.includes(path) ? 'Rounding' : 'Docs');
  for (const thread of [changed, same]) {
    assert.equal(thread.section.title, titleOf(thread.path));
    assert.ok(thread.changeId, `${thread.path} has a change id`);
    const ids = changes.get(thread.path)?.map((c) => c.id);
    // `changes` are listed for files with two or more hunks; a one-hunk file's id is its only one.
    if (ids) assert.ok(ids.includes(thread.changeId), `${thread.changeId} is one of ${ids}`);
    assert.equal(thread.comments[0].author, 'octo');
  }
  assert.deepEqual(changed.suggestion.lines, demo.suggestion);
  assert.equal(changed.suggestion.endLine, edited.line);
  assert.equal(same.suggestion, null);
  // Section by section, in the order's order.
  assert.deepEqual(answer.threads.map((t) => [t.section.index, t.section.title]), [[1, 'Rounding'], [2, 'Docs']]);
  assert.deepEqual(answer.counts, { open: 2, resolved: 0, changedSince: 1 });
  assert.equal(answer.truncated, false);
  assert.match(answer.nextStep, /^First answer the changes requested by octo/);
  assert.match(answer.nextStep, /section 1 "Rounding" \(1\), section 2 "Docs" \(1\)/);

  // The review page marks the thread whose lines changed, with the head, and only that one.
  const page = await fetch(`${stack.baseUrl}/r/logikflow/private/pull/1`);
  assert.equal(page.status, 200);
  const html = await page.text();
  const marks = html.split('Changed since this comment</span>').length - 1;
  assert.equal(marks, 1, 'one thread changed since');
  assert.ok(html.includes(`now at <code>${demo.push.head_sha.slice(0, 7)}</code>`));
  // Its outline counts each section's open threads: one in "Rounding", one in "Docs".
  const start = html.indexOf('<nav class="outline"');
  const outline = html.slice(start, html.indexOf('</nav>', start));
  assert.equal(outline.split('<span class="badge threads">1 open thread</span>').length - 1, 2, outline.slice(0, 2000));

  // In Chromium: the mark and the counts are seen, axe-core finds nothing serious, screenshots.
  mkdirSync(shots, { recursive: true });
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    await tab.goto(`${stack.baseUrl}/r/logikflow/private/pull/1`);
    const mark = tab.locator('.changed-since');
    assert.equal(await mark.count(), 1);
    assert.ok(await mark.isVisible());
    assert.equal(await tab.locator('nav.outline .badge.threads').count(), 2);
    await tab.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
    const violations = await tab.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    });
    assert.deepEqual(violations, []);
    await tab.screenshot({ path: join(shots, 'review-feedback-outline-desktop.png') });
    await mark.scrollIntoViewIfNeeded();
    await tab.screenshot({ path: join(shots, 'review-feedback-changed-desktop.png') });
    await tab.setViewportSize({ width: 390, height: 844 });
    await mark.scrollIntoViewIfNeeded();
    await tab.screenshot({ path: join(shots, 'review-feedback-changed-phone.png') });
  } finally {
    await browser.close();
  }

  // The same answer in the 2026-07-28 era.
  const current = await modern('tools/call', { name: 'get_review_feedback', arguments: PULL }, 'get_review_feedback');
  assert.equal(current.isError, false);
  validateToolOutput('get_review_feedback', current.structuredContent);
  assert.deepEqual(current.structuredContent.counts, answer.counts);
  assert.deepEqual(current.structuredContent.threads.map((t) => t.changedSince), answer.threads.map((t) => t.changedSince));
});

test('a pull request the caller cannot see, and bad arguments', async () => {
  const hidden = await call('get_review_feedback', { ...PULL, number: 99 });
  assert.equal(hidden.isError, true);
  assert.match(hidden.content[0].text, /doesn't exist or this account can't see it/);
  const bad = await client.callTool({ name: 'get_review_feedback', arguments: { ...PULL, include_resolved: 'yes' } });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /^The request is invalid/);
});

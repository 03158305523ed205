// Finishing the review on the review page (issue 29) in headless Chromium (Debian's, driven by
// playwright-core) against the real Worker and the GitHub stand-in: comments on a line of an
// inlined diff and of a diff loaded on demand, a range with a suggestion, a reply, resolving a
// thread, drafts that survive a reload, and a review sent with Request changes that the stand-in
// holds with those comments at the right path, line, side and commit; GitHub's refusals (the
// author's own approval, a read-only App installation, a failed send) shown in words with the
// text kept; the plain forms without JavaScript; axe-core with the panel and a box open; and
// screenshots at desktop and phone width, light and dark (tests/artifacts/screenshots/).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium, root, standinControl, startStack } from './harness.mjs';

const require = createRequire(import.meta.url);
const shots = join(root, 'tests/artifacts/screenshots');
let stack;
let browser;

before(async () => {
  mkdirSync(shots, { recursive: true });
  stack = await startStack();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

const page = (options = {}) => browser.newPage({ viewport: { width: 1280, height: 900 }, ...options });
const held = (repo, number) => standinControl(stack, 'GET', `reviews?repo=logikflow/${repo}&number=${number}`);
const wrote = (tab, path) => tab.waitForResponse((r) => r.url().endsWith(path) && r.request().method() === 'POST');
const headOf = async (repo, number) => {
  const info = await standinControl(stack, 'GET', 'info');
  return info.repos.find((r) => r.full_name === `logikflow/${repo}`).pulls.find((p) => p.number === number).head_sha;
};

/** A line row of a diff, with its numbers as the page shows them. */
async function lineAt(wrap, selector, nth = 0) {
  const row = (typeof selector === 'string' ? wrap.locator(selector) : selector).nth(nth);
  const [old, now] = await row.locator('td.ln').allTextContents();
  return { row, old: Number(old), now: Number(now) };
}

/** Runs axe-core on the tab; the serious and critical violations. */
async function axeViolations(tab) {
  await tab.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return tab.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + (n.failureSummary ?? '')) }));
  });
}

test('comment on lines, reply, resolve, reload, then send the review with Request changes', async () => {
  await standinControl(stack, 'POST', 'reset');
  const head = await headOf('demo', 3);
  // bypassCSP lets the test inject axe-core; the page's own scripts run under its CSP as usual.
  const tab = await page({ bypassCSP: true });
  await tab.goto(`${stack.baseUrl}/r/logikflow/demo/pull/3`);
  assert.match(await tab.locator('#finish-review summary').textContent(), /no draft comments/);

  // One line of an inlined diff: its "+" opens the box under it; "Start a review" keeps a draft.
  const hints = tab.locator('.diff-wrap[data-path="tools/hints.py"]').first();
  const added = await lineAt(hints, 'tr.add');
  await added.row.hover();
  await added.row.locator('.cmt-add').click();
  const box = tab.locator('.cmt-box');
  assert.match(await box.locator('.cmt-where').textContent(), new RegExp(`line ${added.now} \\(new\\)`));
  await box.locator('textarea').fill('Please **rename** this. <img src=x onerror="window.__pwned=1">');
  await Promise.all([wrote(tab, '/comments'), box.getByRole('button', { name: 'Start a review' }).click()]);
  const draft = hints.locator('.cmt.draft');
  await draft.waitFor();
  assert.match(await draft.locator('.cmt-body').innerHTML(), /<strong>rename<\/strong> this\. &lt;img src=x onerror="window.__pwned=1"&gt;/);
  assert.match(await tab.locator('#finish-review summary').textContent(), /1 draft comment/);

  // A range with a suggestion on another diff: shift-click a second line, preview, keep it.
  const order = tab.locator('.diff-wrap[data-path="src/review/order.ts"]').first();
  const hunk = order.locator('tbody').first().locator('tr.ctx, tr.add');
  const first = await lineAt(order, hunk, 0);
  const second = await lineAt(order, hunk, 1);
  await first.row.locator('.cmt-add').click({ force: true });
  await second.row.locator('.cmt-add').click({ force: true, modifiers: ['Shift'] });
  assert.match(await box.locator('.cmt-where').textContent(), new RegExp(`lines ${first.now}–${second.now} \\(new\\)`));
  await box.locator('textarea').fill('Simpler:\n```suggestion\nconst merged = true;\n```');
  await Promise.all([wrote(tab, '/preview'), box.getByRole('tab', { name: 'Preview' }).click()]);
  await box.locator('.cmt-preview .suggestion').waitFor();
  assert.equal(await box.locator('.cmt-preview .suggestion tr.del').count(), 2, 'the two commented lines, removed');
  assert.deepEqual(await box.locator('.cmt-preview .suggestion tr.add').allTextContents(), ['+const merged = true;']);
  await box.getByRole('tab', { name: 'Write' }).click();
  await Promise.all([wrote(tab, '/comments'), box.getByRole('button', { name: 'Add review comment' }).click()]);
  await order.locator('.cmt.draft').waitFor();
  assert.match(await tab.locator('#finish-review summary').textContent(), /2 draft comments/);

  // A reply in GitHub's thread, with `r` and Ctrl-Enter; then resolve it.
  const thread = order.locator('.thread', { hasText: 'Does this need a test?' });
  await thread.locator('.cmt-by a').first().focus();
  await tab.keyboard.press('r');
  const reply = thread.locator('textarea[name="body"]');
  assert.equal(await reply.evaluate((el) => el === document.activeElement), true, '`r` opens the reply box');
  await reply.fill('A test is in the next commit.');
  await Promise.all([wrote(tab, '/replies'), tab.keyboard.press('Control+Enter')]);
  await thread.locator('.cmt', { hasText: 'A test is in the next commit.' }).waitFor();
  const root = Number(await thread.getAttribute('data-root'));
  const live = tab.locator(`#thread-${root}`);
  await Promise.all([wrote(tab, '/threads'), live.getByRole('button', { name: 'Resolve conversation' }).click()]);
  await live.getByRole('button', { name: 'Unresolve' }).waitFor();
  // Folded at once, as a reload would show it, but left open where the reviewer is.
  assert.equal(await live.locator(':scope > details.resolved').count(), 1, 'folded without a reload');
  assert.match(await live.locator('details.resolved > summary').textContent(), /^Resolved thread · \d+ comments · \S+/);
  assert.equal(await live.locator('details.resolved').evaluate((d) => d.open), true);
  // Unresolving unfolds; resolving again folds once more.
  await Promise.all([wrote(tab, '/threads'), live.getByRole('button', { name: 'Unresolve' }).click()]);
  await live.getByRole('button', { name: 'Resolve conversation' }).waitFor();
  assert.equal(await live.locator('details.resolved').count(), 0, 'unfolded when unresolved');
  assert.equal(await live.locator('.cmt', { hasText: 'A test is in the next commit.' }).count(), 1);
  await Promise.all([wrote(tab, '/threads'), live.getByRole('button', { name: 'Resolve conversation' }).click()]);
  await live.getByRole('button', { name: 'Unresolve' }).waitFor();
  assert.equal(await live.locator('details.resolved').count(), 1);
  let book = await held('demo', 3);
  assert.deepEqual(book.comments.map((c) => [c.in_reply_to_id, c.body]), [[root, 'A test is in the next commit.']]);
  assert.equal(book.resolved[root], true);
  assert.equal(book.reviews.length, 0, 'drafts are not sent until the review is');
  assert.equal(await tab.evaluate(() => window.__pwned), undefined);

  // After a reload the drafts are still there, and the resolved thread is folded.
  await tab.reload();
  assert.equal(await tab.locator('.cmt.draft').count(), 2);
  assert.match(await tab.locator('#finish-review summary').textContent(), /2 draft comments/);
  const folded = tab.locator(`#thread-${root} details.resolved`);
  assert.equal(await folded.count(), 1);
  assert.equal(await folded.evaluate((d) => d.open), false);

  // The panel and a box open: no serious or critical accessibility violation, in both themes;
  // screenshots at desktop and phone width.
  await tab.locator('#finish-review summary').click();
  const line = await lineAt(tab.locator('.diff-wrap[data-path="tools/hints.py"]').first(), 'tr.ctx');
  await line.row.locator('.cmt-add').click({ force: true });
  await tab.locator('.cmt-box textarea').fill('Looks fine.');
  assert.deepEqual(await axeViolations(tab), []);
  await tab.locator('.cmt-box').scrollIntoViewIfNeeded();
  await tab.screenshot({ path: join(shots, 'review-comments-desktop.png') });
  await tab.locator('#finish-review').scrollIntoViewIfNeeded();
  await tab.screenshot({ path: join(shots, 'review-comments-panel-desktop.png') });
  await tab.setViewportSize({ width: 390, height: 844 });
  await tab.locator('.cmt-box').scrollIntoViewIfNeeded();
  const overflow = await tab.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `no sideways scrolling on a phone (${overflow}px)`);
  await tab.screenshot({ path: join(shots, 'review-comments-phone.png') });
  await tab.getByRole('button', { name: 'Cancel' }).click();
  for (const scheme of ['dark']) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme, bypassCSP: true });
    const dark = await context.newPage();
    await dark.goto(`${stack.baseUrl}/r/logikflow/demo/pull/3`);
    await dark.locator('#finish-review summary').click();
    const row = await lineAt(dark.locator('.diff-wrap[data-path="tools/hints.py"]').first(), 'tr.ctx');
    await row.row.locator('.cmt-add').click({ force: true });
    assert.deepEqual(await axeViolations(dark), []);
    await dark.locator('.cmt.draft').first().scrollIntoViewIfNeeded();
    await dark.screenshot({ path: join(shots, `review-comments-${scheme}.png`) });
    await dark.setViewportSize({ width: 390, height: 844 });
    await dark.screenshot({ path: join(shots, `review-comments-${scheme}-phone.png`) });
    await context.close();
  }

  // Request changes: one review with both drafts at their path, line, side and commit.
  await tab.setViewportSize({ width: 1280, height: 900 });
  const panel = tab.locator('#finish-review');
  await panel.locator('#review-summary').fill('Two things to change.');
  await panel.getByRole('radio', { name: 'Request changes' }).check();
  await Promise.all([wrote(tab, '/review'), panel.getByRole('button', { name: 'Submit review' }).click()]);
  await panel.locator('.cmt-status', { hasText: 'you requested changes' }).waitFor();
  book = await held('demo', 3);
  assert.equal(book.reviews.length, 1);
  const [review] = book.reviews;
  assert.deepEqual([review.state, review.commit_id, review.user.login], ['CHANGES_REQUESTED', head, 'octo']);
  // "Add what I read to the summary" is on by default (issue #47): the summary, then the receipt.
  assert.ok(review.body.startsWith('Two things to change.\n\n<!-- logikflow:read v1 -->\n**Read with LogiKFlow**: '), review.body);
  assert.match(review.body, /\[The review in reading order\]\(http:\/\/127\.0\.0\.1:\d+\/r\/logikflow\/demo\/pull\/3\)/);
  const sent = book.comments.filter((c) => c.pull_request_review_id === review.id)
    .map((c) => [c.path, c.line, c.side, c.start_line, c.commit_id]);
  assert.deepEqual(sent, [
    ['tools/hints.py', added.now, 'RIGHT', null, head],
    ['src/review/order.ts', second.now, 'RIGHT', first.now, head],
  ]);
  await tab.reload();
  assert.equal(await tab.locator('.cmt.draft').count(), 0, 'sent drafts are gone');
  assert.match(await tab.locator('#finish-review summary').textContent(), /no draft comments/);
  await tab.close();
});

test('a diff loaded on demand takes comments; refusals are words and the text stays', async () => {
  await standinControl(stack, 'POST', 'reset');
  const tab = await page();
  await tab.goto(`${stack.baseUrl}/r/logikflow/big/pull/1`);
  const holder = tab.locator('.lazy-diff').first();
  const id = await holder.locator('xpath=ancestor::article[1]').getAttribute('id');
  const article = tab.locator(`article[id="${id}"]`);
  await Promise.all([
    tab.waitForResponse((r) => r.url().includes('/diff?path=') && r.status() === 200),
    holder.locator('a.load-diff').click(),
  ]);
  const wrap = article.locator('.diff-wrap');
  await wrap.waitFor();
  const path = await wrap.getAttribute('data-path');
  const target = await lineAt(wrap, 'tr.add');
  await target.row.locator('.cmt-add').click({ force: true });
  const box = tab.locator('.cmt-box');

  // A failed send (GitHub answers 502) keeps the text and says so.
  await standinControl(stack, 'POST', 'faults', { path: '/pulls/1/comments', method: 'POST', kind: 'status', status: 502, times: 1 });
  await box.locator('textarea').fill('Is this still needed?');
  await Promise.all([wrote(tab, '/comments'), box.getByRole('button', { name: 'Add single comment' }).click()]);
  await box.locator('.cmt-status.is-error').waitFor();
  assert.match(await box.locator('.cmt-status').textContent(), /GitHub is not answering right now/);
  assert.equal(await box.locator('textarea').inputValue(), 'Is this still needed?');

  // Sent again, it lands on that line of the head.
  await Promise.all([wrote(tab, '/comments'), box.getByRole('button', { name: 'Add single comment' }).click()]);
  await wrap.locator('.cmt', { hasText: 'Is this still needed?' }).waitFor();
  const head = await headOf('big', 1);
  const book = await held('big', 1);
  assert.deepEqual(book.comments.map((c) => [c.path, c.line, c.side, c.commit_id, c.body]),
    [[path, target.now, 'RIGHT', head, 'Is this still needed?']]);

  // A read-only App installation: GitHub's 403 in words, and the line on GitHub to go to.
  await standinControl(stack, 'POST', 'config', { pullRequestsReadOnly: true });
  try {
    // `c` on a focused line opens the box there.
    await target.row.locator('td.ln a').first().focus();
    await tab.keyboard.press('c');
    assert.equal(await box.locator('textarea').evaluate((el) => el === document.activeElement), true);
    assert.match(await box.locator('.cmt-where').textContent(), new RegExp(`line ${target.now} \\(new\\)`));
    await box.locator('textarea').fill('Second thought.');
    await Promise.all([wrote(tab, '/comments'), box.getByRole('button', { name: 'Add single comment' }).click()]);
    const status = box.locator('.cmt-status.is-error');
    await status.waitFor();
    assert.match(await status.textContent(), /installed without write access to pull requests/);
    assert.match(await status.locator('a').getAttribute('href'), /^https:\/\/github\.com\/logikflow\/big\/pull\/1\/files#diff-[0-9a-f]{64}R\d+$/);
    assert.equal(await box.locator('textarea').inputValue(), 'Second thought.');
    await status.scrollIntoViewIfNeeded();
    await tab.screenshot({ path: join(shots, 'review-comments-read-only.png') });
  } finally {
    await standinControl(stack, 'POST', 'config', { pullRequestsReadOnly: false });
  }
  await tab.close();

  // The author's own approval is refused in words (octo wrote demo#2).
  const own = await page();
  await own.goto(`${stack.baseUrl}/r/logikflow/demo/pull/2`);
  const panel = own.locator('#finish-review');
  await panel.locator('> summary').click();
  await panel.getByRole('radio', { name: 'Approve' }).check();
  await Promise.all([wrote(own, '/review'), panel.getByRole('button', { name: 'Submit review' }).click()]);
  await panel.locator('.cmt-status.is-error').waitFor();
  assert.match(await panel.locator('.cmt-status').textContent(), /you can't approve your own pull request/);
  assert.equal((await held('demo', 2)).reviews.length, 0);
  await own.close();
});

test('without JavaScript every action is a plain form; the server checks each', async () => {
  await standinControl(stack, 'POST', 'reset');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
  const tab = await context.newPage();
  await tab.goto(`${stack.baseUrl}/r/logikflow/demo/pull/3`);
  const wrap = tab.locator('.diff-wrap[data-path="tools/hints.py"]').first();
  const added = await lineAt(wrap, 'tr.add');
  const form = tab.locator('details.cmt-file').first();
  const path = await form.locator('input[name="path"]').inputValue();
  const target = path === 'tools/hints.py' ? added : await lineAt(tab.locator(`.diff-wrap[data-path="${path}"]`).first(), 'tr.add');
  await form.locator('summary').click();
  await form.getByLabel('Line', { exact: true }).fill(String(target.now));
  await form.getByLabel('Comment').fill('Kept without a script.');
  await form.getByRole('button', { name: 'Start a review' }).click();
  await tab.waitForURL(/#draft-\d+$/);
  const id = tab.url().split('#draft-')[1];
  assert.match(await tab.locator(`#draft-${id}`).textContent(), /Kept without a script\./);
  // Deleting it is a form too.
  await tab.locator(`#draft-${id}`).getByRole('button', { name: /Delete/ }).click();
  await tab.waitForURL(/#finish-review$/);
  assert.equal(await tab.locator(`#draft-${id}`).count(), 0);

  // A single comment GitHub refuses (a read-only install) is kept as a draft, and the page says so.
  await standinControl(stack, 'POST', 'config', { pullRequestsReadOnly: true });
  try {
    await form.locator('summary').click();
    await form.getByLabel('Line', { exact: true }).fill(String(target.now));
    await form.getByLabel('Comment').fill('Refused, then kept.');
    await Promise.all([tab.waitForURL(/\/comments$/), form.getByRole('button', { name: 'Add single comment' }).click()]);
    assert.match(await tab.locator('[role="alert"]').textContent(), /without write access to pull requests.*kept as a draft/);
    assert.equal(await tab.locator('textarea').inputValue(), 'Refused, then kept.');
    await Promise.all([tab.waitForURL(/\/pull\/3$/), tab.getByRole('link', { name: 'Back to the review' }).click()]);
    const kept = tab.locator('.cmt.draft', { hasText: 'Refused, then kept.' });
    assert.equal(await kept.count(), 1);
    await kept.getByRole('button', { name: /Delete/ }).click();
    await tab.waitForURL(/#finish-review$/);
  } finally {
    await standinControl(stack, 'POST', 'config', { pullRequestsReadOnly: false });
  }
  // (Read-only, GitHub said nobody may reply or resolve: the page offered neither.)
  await tab.reload();

  // A reply and resolving a thread are forms too; each comes back to the thread.
  const thread = tab.locator('.thread', { hasText: 'Does this need a test?' });
  const root = await thread.getAttribute('data-root');
  await thread.locator('details.reply summary').click();
  await thread.locator('textarea[name="body"]').fill('Replied without a script.');
  await thread.getByRole('button', { name: 'Reply', exact: true }).click();
  await tab.waitForURL(/#comment-\d+$/);
  assert.match(await tab.locator(`#thread-${root}`).textContent(), /Replied without a script\./);
  await tab.locator(`#thread-${root}`).getByRole('button', { name: 'Resolve conversation' }).click();
  await tab.waitForLoadState();
  assert.equal((await held('demo', 3)).resolved[root], true);
  assert.equal(await tab.locator(`#thread-${root} details.resolved`).count(), 1, 'folded once resolved');

  // The route's checks: CSRF, and a refused form's 400. A line outside the diff (422) and GitHub's
  // 65,536 characters are `app::pull_request::writes::tests`' (issue #37).
  const csrf = await tab.locator('input[name="csrf"]').first().inputValue();
  const cookies = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const send = (fields, token = csrf) => fetch(`${stack.baseUrl}/r/logikflow/demo/pull/3/comments`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookies, origin: stack.baseUrl, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ csrf: token, path, side: 'RIGHT', mode: 'draft', ...fields }).toString(),
  });
  assert.equal((await send({ line: String(target.now), body: 'x' }, 'y'.repeat(43))).status, 403);
  const bad = await send({ line: 'seven', body: 'x' });
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).error, /line must be a line number/);
  await context.close();
});

test('after a push, a draft whose line left the diff says so, keeps its text, and holds the review back', async () => {
  await standinControl(stack, 'POST', 'reset');
  const tab = await page();
  await tab.goto(`${stack.baseUrl}/r/logikflow/demo/pull/3`);
  const wrap = tab.locator('.diff-wrap[data-path="tools/hints.py"]').first();
  const added = await lineAt(wrap, 'tr.add');
  await added.row.locator('.cmt-add').click({ force: true });
  await tab.locator('.cmt-box textarea').fill('Written first.');
  await Promise.all([wrote(tab, '/comments'), tab.locator('.cmt-box').getByRole('button', { name: 'Start a review' }).click()]);
  await wrap.locator('.cmt.draft').waitFor();
  // Edited in place.
  await wrap.locator('.cmt.draft summary', { hasText: 'Edit' }).click();
  await wrap.locator('.cmt.draft textarea').fill('Written before the push.');
  await Promise.all([wrote(tab, '/drafts'), wrap.getByRole('button', { name: 'Save draft' }).click()]);
  await wrap.locator('.cmt.draft .cmt-body', { hasText: 'Written before the push.' }).waitFor();

  // Every hunk of the file moves down three lines: the draft's line number is no longer there.
  await standinControl(stack, 'POST', 'push', { repo: 'logikflow/demo', number: 3, edits: [{ path: 'tools/hints.py', op: 'shift' }] });
  await tab.reload();
  const panel = tab.locator('#finish-review');
  await panel.locator('> summary').click();
  assert.match(await panel.locator('.gone-drafts').textContent(), /1 of your draft comments is on lines no longer in the diff/);
  assert.equal(await panel.locator('.gone-drafts textarea').inputValue(), 'Written before the push.');
  await panel.locator('#review-summary').fill('Summary.');
  // Turned off, the summary is exactly what was typed.
  await panel.getByRole('checkbox', { name: /Add what I read to the summary/ }).uncheck();
  await Promise.all([wrote(tab, '/review'), panel.getByRole('button', { name: 'Submit review' }).click()]);
  await panel.locator('.finish-form .cmt-status.is-error').waitFor();
  assert.match(await panel.locator('.finish-form .cmt-status').textContent(), /no longer in the diff \(tools\/hints\.py line \d+\)/);
  assert.equal((await held('demo', 3)).reviews.length, 0);
  // Deleted, the review goes.
  await Promise.all([wrote(tab, '/drafts'), panel.locator('.gone-drafts').getByRole('button', { name: /Delete/ }).click()]);
  await Promise.all([wrote(tab, '/review'), panel.getByRole('button', { name: 'Submit review' }).click()]);
  await panel.locator('.finish-form .cmt-status', { hasText: 'Review sent' }).waitFor();
  const book = await held('demo', 3);
  assert.deepEqual(book.reviews.map((r) => [r.state, r.body]), [['COMMENTED', 'Summary.']]);
  await tab.close();
});

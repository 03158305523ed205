// security-round4.test.mjs — issue #44, end to end against the GitHub stand-in: hostile review
// comments can't take down a review page or flood an agent. The stand-in's logikflow/hostile#1
// has 60 comments of 65,000 characters, each one unbroken run, by a read-only account on one
// line, one carrying U+202E.
//
// The budgets, their cuts and the bidi rule are tested in-process (`web::review_page::discussion`,
// `review::feedback::bound`, `tools::get_review_feedback`); here, what needs the platform: a real
// browser laying the page out (before the budget Chromium never reached DOMContentLoaded in
// 150 s), and the answer as the Worker and the pull request's object send it on the wire.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchChromium, modernRequest, postMcp, startStack } from './harness.mjs';
import { validateToolOutput } from './schemas.mjs';

const PULL = { owner: 'logikflow', repo: 'hostile', number: 1 };
const PAGE = '/r/logikflow/hostile/pull/1';
/** Bidirectional controls (`unicode::is_bidi_control`). */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

let stack;
let browser;
before(async () => {
  stack = await startStack();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

test('W1: the hostile review page is under 1.5 MB and Chromium reaches load', async (t) => {
  const html = await (await fetch(`${stack.baseUrl}${PAGE}`)).text();
  const bytes = Buffer.byteLength(html);
  assert.ok(bytes < 1_500_000, `${bytes} bytes`);
  assert.ok(!BIDI.test(html), 'no bidi control on the page');
  assert.match(html, /Read the rest on GitHub/);
  assert.match(html, /<p class="cmt-more">1 more comment <a href="https:\/\/github\.com\/logikflow\/hostile\/pull\/1#discussion_r\d+">Read it on GitHub<\/a><\/p>/);
  const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const started = Date.now();
  // The old build never got there in 150 s; 30 s is far over what this page takes.
  await tab.goto(`${stack.baseUrl}${PAGE}`, { waitUntil: 'load', timeout: 30_000 });
  const loaded = Date.now() - started;
  // Laid out: the comments' boxes are as wide as the viewport allows, not one line wide.
  const width = await tab.evaluate(() => Math.max(...[...document.querySelectorAll('.cmt-body')].map((b) => b.scrollWidth)));
  await tab.close();
  t.diagnostic(`hostile page: ${bytes} bytes, load in ${loaded} ms, widest comment body ${width} px`);
  assert.ok(width <= 1280, `a comment body is ${width} px wide`);
});

test('W2, W3: get_review_feedback is under 400,000 characters, truncated, without bidi controls', async (t) => {
  const { message, headers } = modernRequest(1, 'tools/call', { name: 'get_review_feedback', arguments: PULL }, 'get_review_feedback');
  const response = await fetch(stack.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
  const raw = await response.text();
  assert.equal(response.status, 200, raw.slice(0, 300));
  assert.ok(!BIDI.test(raw), 'no bidi control in the answer');
  const { result } = JSON.parse(raw);
  assert.equal(result.isError, false, result.content?.[0]?.text);
  const text = result.content[0].text;
  assert.ok(text.length < 400_000, `${text.length} characters`);
  const answer = result.structuredContent;
  validateToolOutput('get_review_feedback', answer);
  assert.equal(answer.truncated, true);
  assert.equal(answer.counts.open, 60);
  assert.ok(answer.threads.length > 0 && answer.threads.length < 60, `${answer.threads.length} threads`);
  for (const thread of answer.threads) {
    // 65,000 characters, 64,999 for the comment that lost its U+202E.
    for (const comment of thread.comments) {
      assert.ok(/\[Cut by LogiKFlow: this text has (?:65000|64999) characters/.test(comment.body.slice(-250)), comment.body.slice(-250));
    }
  }
  assert.match(answer.nextStep, /This answer was cut to stay under 400,000 characters \(truncated\): \d+ threads, \d+ comments at its end were left out\. Read them on the pull request on GitHub: https:\/\/github\.com\/logikflow\/hostile\/pull\/1$/);
  t.diagnostic(`get_review_feedback: ${text.length} characters of text, ${raw.length} on the wire (was 7.8 MB), ${answer.threads.length} of 60 threads`);
});

test('a normal pull request on the same Worker is not truncated', async () => {
  const demo = { owner: 'logikflow', repo: 'demo', number: 3 };
  const { message, headers } = modernRequest(2, 'tools/call', { name: 'get_review_feedback', arguments: demo }, 'get_review_feedback');
  const { body } = await postMcp(stack, message, headers);
  const answer = body.result.structuredContent;
  assert.equal(answer.truncated, false);
  assert.ok(!/Cut by LogiKFlow/.test(JSON.stringify(answer)));
});

// The reviewer routes run in the pull request's Durable Object (issue #30, tools/relay/reviewer.rs):
// a page view, a diff on demand and lines of context are one object request each (the Worker's log
// line counts them), concurrent first views after a push read GitHub's file pages once, and ticks
// come in batches whose ticks are refused or stored each on its own, with nothing saved for a
// refused one; each review write and the arrange editor is one object request too. Local development (the loopback user `octo`, no person object), its own stack.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { postMcp, standinControl, startStack } from './harness.mjs';

const pagePath = '/r/logikflow/demo/pull/3';
let stack;

before(async () => { stack = await startStack({ logLevel: 'log' }); });
after(async () => { await stack?.stop(); });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function requestLines() {
  return stack.workerLog().split('\n')
    .filter((line) => line.includes('{"event":"request"'))
    .map((line) => JSON.parse(line.slice(line.indexOf('{"event":"request"'))));
}

/** The logged line of the next request on `route` after `count` lines (output comes a little late). */
async function nextLine(count, route) {
  for (let i = 0; i < 100; i += 1) {
    const line = requestLines().slice(count).find((l) => l.route === route);
    if (line) return line;
    await sleep(100);
  }
  assert.fail(`no log line for ${route}:\n${stack.workerLog().slice(-3000)}`);
}

/** A review page: its HTML, its CSRF token and the cookie that goes with it. */
async function page(path = pagePath) {
  const response = await fetch(`${stack.baseUrl}${path}`);
  const html = await response.text();
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
  const csrf = html.match(/name="csrf" value="([^"]*)"/)?.[1];
  return { status: response.status, html, cookie, csrf };
}

const items = (html) => [...html.matchAll(/name="item" value="([^"]*)"/g)].map((m) => m[1].replaceAll('&amp;', '&'));
const doneItems = (html) => [...html.matchAll(/class="tick is-done"[^>]*>[\s\S]*?name="item" value="([^"]*)"/g)].map((m) => m[1].replaceAll('&amp;', '&'));

/** POSTs the tick form `pairs` ([name, value] in order) as the page's script would. */
function postTicks(path, { cookie, csrf }, pairs) {
  const body = new URLSearchParams([['csrf', csrf], ...pairs]);
  return fetch(`${stack.baseUrl}${path}/ticks`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', origin: stack.baseUrl, cookie },
    body: body.toString(),
  });
}

function pullRequestObjects() {
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return /PullRequestStore/.test(path) && entry.name.endsWith('.sqlite') ? [path] : [];
  });
  return walk(stack.persistDir);
}

/**
 * The pull requests' objects that hold any of our tables. Local workerd makes a database file for
 * every object a request reaches, before its code runs; the object creates its tables only once
 * the viewer's GitHub read succeeded, so a refused request stores nothing.
 */
function objectsWithStorage() {
  return pullRequestObjects().filter((path) => {
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      return db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'").get().n > 0;
    } finally {
      db.close();
    }
  });
}

test('a page view, a diff and lines of context are one request to the pull request object each', async () => {
  const first = await page();
  assert.equal(first.status, 200);
  const before = requestLines().length;
  const view = await page(`${pagePath}?view=left`);
  assert.equal(view.status, 200);
  assert.match(view.cookie, /^lkf_csrf=/, 'the page sets its CSRF cookie');
  const line = await nextLine(before, 'review');
  assert.equal(line.objects, 1, JSON.stringify(line));
  assert.equal(line.status, 200);
  assert.equal(line.cache, 'hit', 'what the object did joins the line');
  assert.equal(line.github_requests >= 2, true, JSON.stringify(line));

  const path = first.html.match(/data-path="([^"]+)"/)?.[1] ?? 'tools/hints.py';
  let count = requestLines().length;
  const diff = await fetch(`${stack.baseUrl}${pagePath}/diff?path=${encodeURIComponent(path)}&fragment=1`);
  assert.equal(diff.status, 200, await diff.clone().text());
  assert.match(diff.headers.get('content-security-policy') ?? '', /default-src/, 'framed as a page');
  assert.equal((await nextLine(count, 'review_diff')).objects, 1);
  count = requestLines().length;
  const context = await fetch(`${stack.baseUrl}${pagePath}/context?path=${encodeURIComponent(path)}&from=1&to=3`);
  assert.ok([200, 400, 404, 422].includes(context.status), `${context.status} ${await context.clone().text()}`);
  assert.equal((await nextLine(count, 'review_context')).objects, 1);
  // A refusal before any read is the object's too, and still the page's words.
  const noPath = await fetch(`${stack.baseUrl}${pagePath}/diff`);
  assert.equal(noPath.status, 400);
  assert.match(await noPath.text(), /path is required/);
});

test('a pull request GitHub does not show is the same 404 page, and leaves no object behind', async () => {
  const objects = objectsWithStorage().length;
  const missing = await page('/r/nobody/nothing/pull/4294967295');
  assert.equal(missing.status, 404);
  assert.match(missing.html, /Can&#39;t open this pull request|Can't open this pull request/);
  assert.match(missing.html, /doesn&#39;t exist|doesn't exist/);
  console.log('databases', pullRequestObjects().length, 'with tables', objectsWithStorage().length);
  assert.equal(objectsWithStorage().length, objects, 'no pull request object stored anything');
});

test('concurrent first views after a push read each file page once', async () => {
  const path = '/r/logikflow/big/pull/1';
  assert.equal((await page(path)).status, 200);
  await standinControl(stack, 'POST', 'push', { repo: 'logikflow/big', number: 1 });
  await standinControl(stack, 'DELETE', 'requests');
  const views = await Promise.all([0, 1, 2, 3].map(() => page(path)));
  for (const view of views) assert.equal(view.status, 200);
  const strip = (html) => html.replace(/name="csrf" value="[^"]*"/g, '').replace(/data-csrf="[^"]*"/g, '');
  for (const view of views.slice(1)) assert.equal(strip(view.html), strip(views[0].html), 'every view is the same page');
  const { requests } = await standinControl(stack, 'GET', 'requests');
  const filePages = requests.filter((r) => r.path.endsWith('/pulls/1/files')).map((r) => r.query.page ?? '1');
  assert.ok(filePages.length >= 2, `a pull request of several file pages: ${filePages}`);
  assert.deepEqual(filePages.toSorted(), [...new Set(filePages)].toSorted(), `each page read once: ${filePages}`);
});

// The batch's rules are tested in-process: a batch refused whole (more than 100 ticks, item and
// done not in pairs) and each tick's shape in `web::tick_batch::tests`; a pull request the viewer
// can't see, items not on the page, unticking, and the cap of ticks a person holds (the ticks that
// fit stored, the rest refused with 409) in `app::pull_request::ticks::tests`. Here, one batch
// through the Worker: its results, one object request, and what the page shows after.
test('a batch of ticks: each refused or stored on its own, nothing saved for a refused one', async () => {
  const view = await page();
  const offered = items(view.html);
  assert.ok(offered.length >= 3, 'the page offers ticks');
  const [a, b] = offered;
  const before = requestLines().length;
  const reply = await postTicks(pagePath, view, [
    ['batch', '1'],
    ['item', a], ['done', '1'],
    ['item', 'file:made/up.ts'], ['done', '1'],
    ['item', `file:${'x'.repeat(9000)}`], ['done', '1'],
    ['item', b], ['done', 'yes'],
    ['item', b], ['done', '1'],
  ]);
  assert.equal(reply.status, 200);
  const { results } = await reply.json();
  assert.deepEqual(results.map((r) => r.status), [200, 404, 400, 400, 200], JSON.stringify(results));
  assert.match(results[1].error, /not on the pull request's current review page/);
  assert.match(results[2].error, /at most 8192 bytes/);
  assert.match(results[3].error, /done must be 1/);
  assert.deepEqual([results[0].item, results[0].done], [a, true]);
  const line = await nextLine(before, 'tick');
  assert.equal(line.objects, 1, `one object request for the batch: ${JSON.stringify(line)}`);
  const after = doneItems((await page()).html);
  assert.ok(after.includes(a) && after.includes(b), JSON.stringify(after));
  assert.ok(!after.some((item) => item.startsWith('file:made')), 'the unknown item was not stored');

  // The single-item form still answers as before.
  const single = await postTicks(pagePath, view, [['item', a], ['done', '1']]);
  assert.deepEqual([single.status, await single.json()], [200, { item: a, done: true }]);
  const singleBad = await postTicks(pagePath, view, [['item', 'file:made/up.ts'], ['done', '1']]);
  assert.equal(singleBad.status, 404);
  assert.match((await singleBad.json()).error, /not on the pull request's current review page/);
});

/** The new-side number of the first added line of a patch. */
function firstAdded(patch) {
  let line = 0;
  for (const text of patch.split('\n')) {
    const hunk = text.match(/^@@ -\d+(?:,\d+)? \+(\d+)/);
    if (hunk) { line = Number(hunk[1]); continue; }
    if (text.startsWith('+')) return line;
    if (!text.startsWith('-')) line += 1;
  }
  return 0;
}

/** POSTs a review write's form as the page's script does; the answer and the request's log line. */
async function write(tail, { cookie, csrf }, fields) {
  const count = requestLines().length;
  const reply = await fetch(`${stack.baseUrl}${pagePath}/${tail}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', origin: stack.baseUrl, cookie },
    body: new URLSearchParams({ csrf, ...fields }).toString(),
  });
  const body = await reply.json();
  const route = { comments: 'review_comment', drafts: 'review_draft', review: 'review_submit', replies: 'review_reply', threads: 'review_thread', preview: 'review_preview' }[tail];
  return { status: reply.status, body, line: await nextLine(count, route) };
}

test('each review write and the arrange editor are one request to the pull request object', async () => {
  const view = await page();
  const read = await postMcp(stack, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_pull_request', arguments: { owner: 'logikflow', repo: 'demo', number: 3 } } });
  const current = read.body.result.structuredContent;
  const files = await (await fetch(`${stack.standinUrl}/repos/logikflow/demo/pulls/3/files?per_page=100`, { headers: { authorization: 'Bearer gho_standin_octo' } })).json();
  const file = files.find((f) => f.patch && firstAdded(f.patch) > 0);
  const where = { path: file.filename, line: String(firstAdded(file.patch)), side: 'RIGHT' };

  // Refused on its fields: no object request, and the same message as ever.
  const bad = await write('comments', view, { line: '1', side: 'RIGHT', body: 'x' });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error, /^path is required/);
  assert.equal(bad.line.objects, 0, JSON.stringify(bad.line));
  // Refused in the object (a line not in the diff): one request, nothing stored.
  const outside = await write('comments', view, { ...where, line: '99999', body: 'Nowhere.' });
  assert.equal(outside.status, 422);
  assert.match(outside.body.error, /not part of the pull request's diff/);
  assert.equal(outside.line.objects, 1, JSON.stringify(outside.line));

  const draft = await write('comments', view, { ...where, body: 'Why this line?' });
  assert.equal(draft.status, 200, JSON.stringify(draft.body));
  assert.equal(draft.body.drafts, 1, 'the refused comment was not stored');
  assert.match(draft.body.html, /Why this line\?/);
  assert.equal(draft.line.objects, 1, JSON.stringify(draft.line));
  const edited = await write('drafts', view, { id: String(draft.body.id), body: 'Why this line, again?' });
  assert.equal(edited.status, 200, JSON.stringify(edited.body));
  assert.equal(edited.line.objects, 1);
  const preview = await write('preview', view, { ...where, body: '**Bold**' });
  assert.equal(preview.status, 200);
  assert.match(preview.body.html, /<strong>Bold<\/strong>/);
  assert.equal(preview.line.objects, 1);
  const reply = await write('replies', view, { comment: '1', body: 'A reply.' });
  assert.equal(reply.line.objects, 1, JSON.stringify(reply));
  const thread = await write('threads', view, { thread: 'PRRT_none', resolve: '1' });
  assert.equal(thread.line.objects, 1, JSON.stringify(thread));
  const sent = await write('review', view, { event: 'comment', body: 'Looks fine.' });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.equal(sent.body.sent, 1);
  assert.equal(sent.line.objects, 1);

  // Without the script: a 303 back to the draft, framed by the Worker.
  const count = requestLines().length;
  const plain = await fetch(`${stack.baseUrl}${pagePath}/comments`, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.baseUrl, cookie: view.cookie },
    body: new URLSearchParams({ csrf: view.csrf, ...where, body: 'No script.' }).toString(),
  });
  assert.equal(plain.status, 303);
  assert.match(plain.headers.get('location'), new RegExp(`^${pagePath}#draft-\\d+$`));
  assert.equal((await nextLine(count, 'review_comment')).objects, 1);

  // The arrange editor: its page and a save, one object request each.
  const sections = [{ title: 'All', files: files.map((f) => ({ path: f.filename })) }];
  const saved = await postMcp(stack, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'save_reading_order', arguments: { owner: 'logikflow', repo: 'demo', number: 3, base_version: current.baseVersion, overview: 'One part.', sections } } });
  assert.equal(saved.body.result.isError, false, JSON.stringify(saved.body.result));
  const version = saved.body.result.structuredContent.version;
  let before = requestLines().length;
  const editor = await fetch(`${stack.baseUrl}${pagePath}/arrange`);
  const html = await editor.text();
  assert.equal(editor.status, 200);
  assert.match(editor.headers.get('set-cookie') ?? '', /^lkf_csrf=/, 'the editor sets its CSRF cookie');
  assert.match(editor.headers.get('content-security-policy') ?? '', /default-src/, 'framed as a page');
  assert.equal((await nextLine(before, 'arrange')).objects, 1);
  const token = html.match(/id="arrange-csrf" value="([^"]*)"/)?.[1];
  const save = (data) => fetch(`${stack.baseUrl}${pagePath}/arrange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: stack.baseUrl, 'x-csrf-token': token, cookie: (editor.headers.get('set-cookie') ?? '').split(';')[0] },
    body: JSON.stringify(data),
  });
  const order = { overview: 'Rearranged on the web.', sections };
  before = requestLines().length;
  const stale = await save({ base_version: version - 1, order });
  assert.equal(stale.status, 409);
  assert.match((await stale.json()).error, /^Conflict: octo saved version/);
  assert.equal((await nextLine(before, 'arrange')).objects, 1);
  before = requestLines().length;
  const shape = await save({ order });
  assert.equal(shape.status, 400);
  assert.equal((await nextLine(before, 'arrange')).objects, 0, 'a body of another shape costs no object request');
  before = requestLines().length;
  const good = await save({ base_version: version, order });
  assert.deepEqual([good.status, await good.json()], [200, { version: version + 1, location: pagePath, commitStatus: { set: true } }]);
  assert.equal((await nextLine(before, 'arrange')).objects, 1);
});

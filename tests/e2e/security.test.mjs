// Regression tests for the five weaknesses an outside attack run found (issue 14), against a
// production-like server (LOCAL_DEV off, real OAuth tokens from the stand-in):
// 1. ticks need the viewer's own GitHub read of the pull request and name only its items;
// 2. `.` and `..` are refused as owner or repository, and no GitHub request leaves /repos/{o}/{r}/;
// 3. client names with format (bidi, zero-width) or control characters are refused, and names are
//    isolated where shown;
// 4. sign-out is a CSRF-checked POST; a GET or a forged POST changes nothing;
// 5. Client ID Metadata Document URLs on internal-looking hosts are refused before any fetch;
// and the per-address limit counts the socket's address, not a client's own cf-connecting-ip.
// Round 2 (issue 31), each test written to fail before its fix: W2, the pages' CSRF token is bound
// to the browser's session and the signed-in person (a planted cookie can't make a valid pair),
// and every state-changing browser request needs `Origin` or `Sec-Fetch-Site` to say same origin;
// form endpoints refuse bodies that are not forms (415); a client name needs a visible character;
// `/context` names the file GitHub couldn't serve. (W1, codes spent by failed redemptions, is in
// oauth.test.mjs.)
// Issue #37 moved the rules' matrices in-process, where they fail without their rule: client names
// (`oauth::clients::tests`), the CSRF pair, `Origin`/`Sec-Fetch-Site` and the form content type
// (`web::csrf::tests::verification`, `security::browser_post::tests`); a tick refused for a pull
// request the viewer can't see (nothing stored, no tables) or for an item not on the page, and
// storing and undoing one (`app::pull_request::ticks::tests`), a bad `done`
// (`web::tick_batch::tests`); `/context` naming the file GitHub couldn't serve
// (`app::pull_request::diff::tests`). What stays here is each route's wiring of them (a tick,
// sign-out, a settings form, one person's pair in another's browser), the raw path as workerd
// reads it, and the socket's address.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { freePort, modernRequest, postMcp, standinControl, startStack } from './harness.mjs';
import { OAUTH_VARS, authorizeUrl, connect, cookieFrom, hidden, pkce, webSignIn } from './oauth-flow.mjs';

/** A review page as `session`: its CSRF cookie and token, for posting ticks. */
async function reviewPage(stack, session, path) {
  const response = await fetch(`${stack.baseUrl}${path}`, { redirect: 'manual', headers: { cookie: session } });
  const html = await response.text();
  const csrfCookie = cookieFrom(response, 'lkf_csrf');
  return { status: response.status, html, csrf: hidden(html, 'csrf'), cookie: csrfCookie ? `${session}; ${csrfCookie}` : session };
}

/**
 * POSTs a form as a browser on our page would: `Origin` our own unless `origin` says another (or
 * `null`: none), `Sec-Fetch-Site` when `fetchSite` is given, the form content type unless
 * `contentType` says another.
 */
function postForm(stack, path, cookie, fields, {
  origin = stack.baseUrl, json = true, fetchSite, contentType = 'application/x-www-form-urlencoded',
} = {}) {
  const headers = { 'content-type': contentType };
  if (json) headers.accept = 'application/json';
  if (cookie) headers.cookie = cookie;
  if (origin) headers.origin = origin;
  if (fetchSite) headers['sec-fetch-site'] = fetchSite;
  return fetch(`${stack.baseUrl}${path}`, { method: 'POST', redirect: 'manual', headers, body: new URLSearchParams(fields).toString() });
}

/** GET /settings as `session`: { status, html, csrf, cookie (with the page's CSRF cookie) }. */
async function settingsPage(stack, session) {
  const response = await fetch(`${stack.baseUrl}/settings`, { redirect: 'manual', headers: { cookie: session } });
  const html = await response.text();
  const csrfCookie = cookieFrom(response, 'lkf_csrf');
  return { status: response.status, html, csrf: hidden(html, 'csrf'), cookie: csrfCookie ? `${session}; ${csrfCookie}` : session };
}

function callTool(stack, token, name, args) {
  const { message, headers } = modernRequest(5, 'tools/call', { name, arguments: args }, name);
  return postMcp(stack, message, { ...headers, authorization: `Bearer ${token}` });
}

describe('security hardening', () => {
  let stack;
  let reader;
  let readerPage;
  before(async () => {
    stack = await startStack({ localDev: false, vars: { ...OAUTH_VARS, ADDRESS_RATE_LIMIT_PER_MINUTE: '10000' } });
    reader = await webSignIn(stack, 'reader', '/r/logikflow/demo/pull/3');
    readerPage = await reviewPage(stack, reader, '/r/logikflow/demo/pull/3');
    assert.equal(readerPage.status, 200, readerPage.html);
    assert.ok(readerPage.csrf, 'the page carries a CSRF token');
  });
  after(async () => { await stack?.stop(); });

  test('1. a tick: refused without the CSRF pair or from another origin; a good one answers itself', async () => {
    const item = hidden(readerPage.html, 'item');
    const noToken = await postForm(stack, '/r/logikflow/demo/pull/3/ticks', readerPage.cookie, { item, done: '1' });
    assert.equal(noToken.status, 403);
    const foreign = await postForm(stack, '/r/logikflow/demo/pull/3/ticks', readerPage.cookie, { csrf: readerPage.csrf, item, done: '1' }, { origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.match((await foreign.json()).error, /from this site/, 'the script is told why');
    // The single-tick route's own answers: the object's refusal with its status, its 400 for a
    // bad `done`, and `{item, done}`.
    const madeUp = await postForm(stack, '/r/logikflow/demo/pull/3/ticks', readerPage.cookie, { csrf: readerPage.csrf, item: 'file:made/up.ts', done: '1' });
    assert.equal(madeUp.status, 404);
    assert.match((await madeUp.json()).error, /not on the pull request's current review page/);
    const bad = await postForm(stack, '/r/logikflow/demo/pull/3/ticks', readerPage.cookie, { csrf: readerPage.csrf, item, done: 'yes' });
    assert.equal(bad.status, 400);
    const good = await postForm(stack, '/r/logikflow/demo/pull/3/ticks', readerPage.cookie, { csrf: readerPage.csrf, item, done: '1' });
    assert.equal(good.status, 200);
    assert.deepEqual(await good.json(), { item, done: true });
  });

  test('2. `.` and `..` are refused as owner or repository before any GitHub request', async () => {
    const { tokens } = await connect(stack, { login: 'octo' });
    await standinControl(stack, 'DELETE', 'requests');
    for (const args of [{ owner: '..', repo: '..', number: 3 }, { owner: 'logikflow', repo: '.', number: 3 }, { owner: '.', repo: 'demo', number: 3 }]) {
      const response = await callTool(stack, tokens.access_token, 'get_pull_request', args);
      assert.equal(response.status, 200);
      assert.equal(response.body.result.isError, true, JSON.stringify(args));
      assert.match(response.body.result.content[0].text, /must be a GitHub owner or repository name .*not '\.' or '\.\.'/);
    }
    const sent = await standinControl(stack, 'GET', 'requests');
    assert.equal(sent.total, 0, JSON.stringify(sent.requests));
    // The review pages refuse them too: a raw path the client does not normalize.
    const raw = await new Promise((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request({ host: '127.0.0.1', port: new URL(stack.baseUrl).port, path: '/r/%2e%2e/%2e%2e/pull/3', headers: { cookie: reader } }, (res) => { res.resume(); resolve(res.statusCode); });
        req.on('error', reject);
        req.end();
      });
    });
    assert.notEqual(raw, 200);
    assert.equal((await standinControl(stack, 'GET', 'requests')).total, 0);
  });

  test('arranging on the web needs a session granted write access, whatever GitHub allows', async () => {
    // maint can push to logikflow/demo, but this browser's sign-in was consented read-only.
    const readOnly = await webSignIn(stack, 'maint', '/settings', { write: false });
    const path = '/r/logikflow/demo/pull/3/arrange';
    const page = await fetch(`${stack.baseUrl}${path}`, { redirect: 'manual', headers: { cookie: readOnly } });
    assert.equal(page.status, 403);
    assert.match(await page.text(), /read access only/);
    const review = await reviewPage(stack, readOnly, '/r/logikflow/demo/pull/3');
    const before = await fetch(`${stack.baseUrl}/r/logikflow/demo/pull/3`, { headers: { cookie: readOnly } }).then((r) => r.text());
    const posted = await postForm(stack, path, review.cookie, { csrf: review.csrf, base_version: '0', overview: 'Forged.' }, { json: false });
    assert.equal(posted.status, 403);
    const after = await fetch(`${stack.baseUrl}/r/logikflow/demo/pull/3`, { headers: { cookie: readOnly } }).then((r) => r.text());
    assert.doesNotMatch(after, /Forged\./, 'nothing was saved');
    assert.equal(after.includes('Forged.'), before.includes('Forged.'));
  });

  test('4. sign-out: a GET only shows a button; a forged POST changes nothing; the real one ends the session', async () => {
    const session = await webSignIn(stack, 'octo');
    const alive = async () => (await fetch(`${stack.baseUrl}/settings`, { redirect: 'manual', headers: { cookie: session } })).status === 200;
    const page = await fetch(`${stack.baseUrl}/signout`, { redirect: 'manual', headers: { cookie: session } });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<form method="post" action="\/signout">/);
    assert.ok(await alive(), 'a GET does not sign out');
    const csrfCookie = cookieFrom(page, 'lkf_csrf');
    const cookie = `${session}; ${csrfCookie}`;
    assert.equal((await postForm(stack, '/signout', session, {}, { json: false })).status, 403, 'no CSRF pair');
    assert.equal((await postForm(stack, '/signout', cookie, { csrf: hidden(html, 'csrf') }, { origin: 'https://evil.example', json: false })).status, 403, 'another origin');
    assert.ok(await alive(), 'forged POSTs did not sign out');
    const done = await postForm(stack, '/signout', cookie, { csrf: hidden(html, 'csrf') }, { json: false });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), '/');
    assert.ok(!(await alive()), 'the session has ended');
    const put = await fetch(`${stack.baseUrl}/signout`, { method: 'PUT', redirect: 'manual' });
    assert.equal(put.status, 405);
  });

  test('5. metadata document URLs on internal-looking hosts are refused before any fetch', async () => {
    const port = await freePort();
    let connections = 0;
    const server = createServer((socket) => { connections += 1; socket.destroy(); });
    await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      const { challenge } = pkce();
      for (const host of [`localhost.:${port}`, `x.localhost:${port}`, `intranet:${port}`, 'metadata.google.internal', `db.internal:${port}`, `printer.local:${port}`]) {
        const clientId = `https://${host}/client.json`;
        const url = authorizeUrl(stack, { clientId, redirectUri: 'http://127.0.0.1:33418/callback', challenge });
        const response = await fetch(url, { redirect: 'manual' });
        assert.ok([400, 401].includes(response.status), `${clientId}: ${response.status}`);
        assert.equal(response.headers.get('location'), null, 'no redirect to an unverified client');
        assert.match(await response.text(), /public host name/, clientId);
      }
      assert.equal(connections, 0, 'nothing was fetched');
    } finally {
      server.close();
    }
  });

  test('W2. a CSRF pair works only for the person whose page it came from', async () => {
    const octo = await webSignIn(stack, 'octo');
    const page = await settingsPage(stack, octo);
    const octoCsrfCookie = page.cookie.split('; ').find((c) => c.startsWith('lkf_csrf='));
    assert.ok(octoCsrfCookie && page.csrf);
    // reader's browser, carrying octo's whole pair (as if planted): refused.
    const planted = await postForm(stack, '/settings/tokens', `${reader}; ${octoCsrfCookie}`, { csrf: page.csrf, name: 'swapped', access: 'write' }, { json: false });
    assert.equal(planted.status, 403);
    assert.doesNotMatch((await settingsPage(stack, reader)).html, /swapped/);
    // The pair in octo's own browser works.
    const own = await postForm(stack, '/settings/tokens', page.cookie, { csrf: page.csrf, name: 'own', access: 'read' }, { json: false });
    assert.equal(own.status, 200);
    assert.match(await own.text(), /lfk_/);
  });
});

test('the per-address limit counts the socket, not a cf-connecting-ip the client sent', async () => {
  const stack = await startStack({ localDev: false, vars: { ...OAUTH_VARS, ADDRESS_RATE_LIMIT_PER_MINUTE: '3' } });
  try {
    const responses = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${stack.baseUrl}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cf-connecting-ip': `203.0.113.${i + 1}` },
        body: JSON.stringify({ client_name: `App ${i}`, redirect_uris: ['http://127.0.0.1:33418/callback'] }),
      });
      responses.push({ status: response.status, headers: response.headers, body: await response.json() });
    }
    assert.deepEqual(responses.map((r) => r.status), [201, 201, 201, 429]);
    // The registration endpoint's smoke case (its rules are in-process: `oauth::clients::tests`).
    const [registered, , , limited] = responses;
    assert.match(registered.body.client_id, /^lfd_/);
    assert.equal(registered.body.client_secret, undefined);
    assert.equal(registered.headers.get('cache-control'), 'no-store');
    assert.equal(limited.body.error, 'temporarily_unavailable');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  } finally {
    await stack.stop();
  }
});

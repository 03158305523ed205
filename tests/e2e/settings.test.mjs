// /settings end to end: a person signed in on the web (a fetch-driven browser through /signin, the
// GitHub stand-in, our consent page and /signin/callback) sees the apps connected to their account
// with their access and last use, disconnects one (its very next /mcp request gets 401 and its
// refresh token is refused), and creates, uses and revokes an API token (on the page and at
// /oauth/revoke). Forms without the CSRF
// token, or from another origin, are refused. One smoke case per route: the settings rules
// themselves (names, access, own-session disconnect, Delete my data's steps, texts) are tested
// in-process in src/app/oauth/tests/settings.rs. (In local development the page says a GitHub sign-in
// is needed: mcp-transport.test.mjs, whose stack is a local one.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { modernRequest, postMcp, startStack } from './harness.mjs';
import { MODEL_TOOL_NAMES } from './schemas.mjs';
import { OAUTH_VARS, answerConsent, connect, cookieFrom, hidden, listTools, refresh, signIn, webSignIn } from './oauth-flow.mjs';

const pr = { owner: 'logikflow', repo: 'demo', number: 3 };

/** GET /settings as the session; returns { status, html, csrf, cookie } (cookie includes CSRF). */
async function settingsPage(stack, session) {
  const response = await fetch(`${stack.baseUrl}/settings`, { redirect: 'manual', headers: { cookie: session } });
  const html = await response.text();
  const csrfCookie = cookieFrom(response, 'lkf_csrf');
  const cookie = csrfCookie ? `${session}; ${csrfCookie}` : session;
  return { status: response.status, headers: response.headers, html, csrf: hidden(html, 'csrf'), cookie };
}

function post(stack, path, cookie, fields, origin = stack.baseUrl) {
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  if (cookie) headers.cookie = cookie;
  if (origin) headers.origin = origin;
  return fetch(`${stack.baseUrl}${path}`, { method: 'POST', redirect: 'manual', headers, body: new URLSearchParams(fields) });
}

/** The table row of the app or token named (escaped) `name`. */
function row(html, escapedName) {
  // App names are isolated in <bdi> (names are chosen by the apps themselves).
  return html.split('<tr>').find((r) => r.replace(/^<td><bdi>(.*?)<\/bdi>/, '<td>$1').startsWith(`<td>${escapedName}`));
}

/** A tools/call without clientInfo, so `updatedBy.client` comes from the token. */
function callAs(stack, token, name, args) {
  const { message, headers } = modernRequest(7, 'tools/call', { name, arguments: args }, name);
  delete message.params._meta['io.modelcontextprotocol/clientInfo'];
  return postMcp(stack, message, { ...headers, authorization: `Bearer ${token}` });
}

function orderFor(files) {
  const half = Math.ceil(files.length / 2);
  return {
    overview: 'Saved with an API token.',
    sections: [
      { title: 'First', layer: 'logic', files: files.slice(0, half).map((f) => ({ path: f.path })) },
      { title: 'Rest', layer: 'tooling', files: files.slice(half).map((f) => ({ path: f.path, ...(f.likelyGenerated ? { focus: 'generated' } : {}) })) },
    ],
  };
}

describe('settings', () => {
  let stack;
  let session;
  before(async () => {
    stack = await startStack({ localDev: false, vars: { ...OAUTH_VARS, ADDRESS_RATE_LIMIT_PER_MINUTE: '10000' } });
    session = await webSignIn(stack, 'octo');
  });
  after(async () => { await stack?.stop(); });

  test('signed out, /settings sends the browser to sign in', async () => {
    const response = await fetch(`${stack.baseUrl}/settings`, { redirect: 'manual' });
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), '/signin?next=%2Fsettings');
  });

  test('connected apps are listed with their access and last use; Disconnect ends one at once', async () => {
    const { clientId, tokens } = await connect(stack, { login: 'octo', write: false, name: 'Reader <App>' });
    assert.equal((await listTools(stack, tokens.access_token)).status, 200);

    const page = await settingsPage(stack, session);
    assert.equal(page.status, 200, page.html);
    assert.match(page.headers.get('content-security-policy'), /frame-ancestors 'none'/);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.ok(page.csrf, 'the forms carry a CSRF token');
    assert.match(page.html, /Signed in as <strong>octo<\/strong>/);
    assert.ok(!page.html.includes('Reader <App>'), 'the app name is escaped');
    const app = row(page.html, 'Reader &lt;App&gt;');
    assert.ok(app, page.html);
    assert.match(app, /<td>read<\/td>/);
    assert.match(app, /<td>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/td><td>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/td>/, 'connected and last used');
    const web = row(page.html, 'LogiKFlow review pages (this browser)');
    assert.ok(web, 'the web session is a connected app too');
    assert.match(web, /<td>read \+ save<\/td>/);
    const grant = hidden(app, 'grant');
    assert.ok(grant);

    const disconnected = await post(stack, '/settings/apps/disconnect', page.cookie, { csrf: page.csrf, grant });
    assert.equal(disconnected.status, 303, await disconnected.text());
    assert.equal(disconnected.headers.get('location'), '/settings');

    const next = await listTools(stack, tokens.access_token);
    assert.equal(next.status, 401, 'the very next request is refused');
    assert.match(next.headers.get('www-authenticate'), /error="invalid_token"/);
    const refreshed = await refresh(stack, tokens.refresh_token, clientId);
    assert.equal(refreshed.status, 400, JSON.stringify(refreshed.body));
    assert.equal(refreshed.body.error, 'invalid_grant');

    const after = await settingsPage(stack, page.cookie);
    assert.equal(row(after.html, 'Reader &lt;App&gt;'), undefined, 'the app is gone from the list');
    assert.ok(row(after.html, 'LogiKFlow review pages (this browser)'), 'the session is still signed in');
  });

  test('forms without the CSRF token or from another site are refused', async () => {
    const page = await settingsPage(stack, session);
    const missing = await post(stack, '/settings/tokens', page.cookie, { name: 'sneaky', access: 'write' });
    assert.equal(missing.status, 403);
    const noCookie = await post(stack, '/settings/tokens', session, { csrf: page.csrf, name: 'sneaky', access: 'write' });
    assert.equal(noCookie.status, 403);
    const crossSite = await post(stack, '/settings/tokens', page.cookie, { csrf: page.csrf, name: 'sneaky', access: 'write' }, 'https://evil.example');
    assert.equal(crossSite.status, 403);
    const wrong = await post(stack, '/settings/tokens', page.cookie, { csrf: 'x'.repeat(43), name: 'sneaky', access: 'write' });
    assert.equal(wrong.status, 403);
    // A body that is not a form is refused for what it is (the content types: `web::csrf::tests`).
    const plain = await fetch(`${stack.baseUrl}/settings/tokens`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'text/plain', cookie: page.cookie, origin: stack.baseUrl },
      body: new URLSearchParams({ csrf: page.csrf, name: 'sneaky', access: 'write' }).toString(),
    });
    assert.equal(plain.status, 415);
    assert.match(await plain.text(), /application\/x-www-form-urlencoded/);
    const list = await settingsPage(stack, page.cookie);
    assert.ok(!list.html.includes('sneaky'), 'no token was created');
    const get = await fetch(`${stack.baseUrl}/settings/tokens`, { headers: { cookie: page.cookie } });
    assert.equal(get.status, 405);
  });

  test('an API token is shown once, works on /mcp with its name in updatedBy, and revoking it ends it', async () => {
    const page = await settingsPage(stack, session);
    const created = await post(stack, '/settings/tokens', page.cookie, { csrf: page.csrf, name: 'CI <bot>', access: 'write' });
    assert.equal(created.status, 200);
    assert.equal(created.headers.get('cache-control'), 'no-store');
    const html = await created.text();
    const token = html.match(/<code id="api-token">(lfk_\d+_[A-Za-z0-9_-]{43})<\/code>/)?.[1];
    assert.ok(token, html);
    assert.ok(html.includes('CI &lt;bot&gt;'));

    const again = await settingsPage(stack, page.cookie);
    assert.ok(!again.html.includes(token), 'the token is shown only once');
    const listed = row(again.html, 'CI &lt;bot&gt;');
    assert.ok(listed, again.html);
    assert.match(listed, /<td>read \+ save<\/td>/);
    assert.match(listed, /<td>never<\/td>/);

    const tools = await listTools(stack, token);
    assert.equal(tools.status, 200, JSON.stringify(tools.body));
    // 2026-07-28 without the MCP Apps extension: the view's own tools are left out.
    assert.equal(tools.body.result.tools.length, MODEL_TOOL_NAMES.length);
    const pull = await callAs(stack, token, 'get_pull_request', pr);
    assert.equal(pull.status, 200);
    assert.equal(pull.body.result.isError, false, JSON.stringify(pull.body.result.content));
    const current = pull.body.result.structuredContent;
    const saved = await callAs(stack, token, 'save_reading_order', { ...pr, base_version: current.baseVersion, ...orderFor(current.files) });
    assert.equal(saved.status, 200);
    assert.equal(saved.body.result.isError, false, JSON.stringify(saved.body.result.content));
    const read = await callAs(stack, token, 'get_pull_request', pr);
    assert.equal(read.body.result.structuredContent.currentOrder.updatedBy.person, 'octo');
    assert.equal(read.body.result.structuredContent.currentOrder.updatedBy.client, 'CI <bot>');

    const used = row((await settingsPage(stack, page.cookie)).html, 'CI &lt;bot&gt;');
    assert.doesNotMatch(used, /<td>never<\/td>/, 'last use is shown');

    const readOnly = await post(stack, '/settings/tokens', page.cookie, { csrf: page.csrf, name: 'reader', access: 'read' });
    const readToken = (await readOnly.text()).match(/<code id="api-token">([^<]+)<\/code>/)?.[1];
    const refused = await callAs(stack, readToken, 'save_reading_order', { ...pr, base_version: 1, ...orderFor(current.files) });
    assert.equal(refused.status, 403, 'a read token cannot save');
    assert.match(refused.headers.get('www-authenticate'), /^Bearer error="insufficient_scope", scope="reviews"/);

    const id = hidden(used, 'token');
    const revoked = await post(stack, '/settings/tokens/revoke', page.cookie, { csrf: page.csrf, token: id });
    assert.equal(revoked.status, 303);
    const after = await listTools(stack, token);
    assert.equal(after.status, 401);
    assert.match(after.headers.get('www-authenticate'), /error="invalid_token"/);
    assert.equal((await listTools(stack, readToken)).status, 200, 'other tokens keep working');
    assert.equal(row((await settingsPage(stack, page.cookie)).html, 'CI &lt;bot&gt;'), undefined);

    // RFC 7009 revocation works for API tokens too: the holder ends it, with no client id.
    const revokeByToken = await fetch(`${stack.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: readToken }),
    });
    assert.equal(revokeByToken.status, 200);
    const unknown = await fetch(`${stack.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'nonsense' }),
    });
    assert.equal(unknown.status, 200, 'an unknown token gets 200 too (RFC 7009)');
    assert.equal((await listTools(stack, readToken)).status, 401, 'revoked at /oauth/revoke, refused at once');
    assert.equal(row((await settingsPage(stack, page.cookie)).html, 'reader'), undefined);
  });
});

// Operating LogiKFlow, end to end against `wrangler dev` and the GitHub stand-in (issue #20):
// - logs: every request writes one JSON line with its route, MCP method and tool, status,
//   duration, GitHub subrequests and their statuses, Durable Object calls, cache outcome,
//   rate-limit decision and error class; and no secret of the run (access, refresh and API tokens,
//   authorization codes, PKCE verifiers, cookies, GitHub tokens) appears in any line the run wrote;
// - people's data: "Delete my data" on /settings removes grants, tokens, API tokens, the sealed
//   GitHub token and the person's ticks on every pull request (in batches of 40 pull requests,
//   credentials last), and the old tokens fail at once, while saved orders stay with `updatedBy`
//   naming the login.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { modernRequest, postMcp, startStack } from './harness.mjs';
import {
  OAUTH_VARS, answerConsent, authorizeCode, callTool, connect, cookieFrom, exchange, hidden, listTools,
  refresh, registerClient, signIn, sleep,
} from './oauth-flow.mjs';

const pr = { owner: 'logikflow', repo: 'demo', number: 3 };

/** The request lines the Worker has logged so far, parsed. */
function requestLines(stack) {
  return stack.workerLog().split('\n')
    .filter((line) => line.includes('{"event":"request"'))
    .map((line) => JSON.parse(line.slice(line.indexOf('{"event":"request"'))));
}

/** Waits until `predicate` holds for the logged lines (console output reaches us a little late). */
async function linesWhere(stack, predicate, what) {
  for (let i = 0; i < 100; i += 1) {
    const lines = requestLines(stack);
    if (predicate(lines)) return lines;
    await sleep(100);
  }
  assert.fail(`no log lines with ${what}:\n${stack.workerLog().slice(-4000)}`);
}

/** Signs `login` in on the web; returns the session's Cookie header value (its two cookies). */
async function webSignIn(stack, login) {
  const start = await fetch(`${stack.baseUrl}/signin?next=/settings`, { redirect: 'manual' });
  assert.equal(start.status, 302, await start.text());
  const signinCookie = cookieFrom(start, 'lkf_signin');
  const result = await signIn(stack, new URL(start.headers.get('location'), stack.baseUrl), { login });
  let redirect = result.redirect;
  if (result.consent) {
    const answered = await answerConsent(stack, result.consent, { write: true });
    assert.equal(answered.status, 303, await answered.text());
    redirect = new URL(answered.headers.get('location'));
  }
  assert.ok(redirect, JSON.stringify(result.error));
  const done = await fetch(redirect, { redirect: 'manual', headers: { cookie: signinCookie } });
  assert.equal(done.status, 303, await done.text());
  return `${cookieFrom(done, 'lkf_at')}; ${cookieFrom(done, 'lkf_rt')}`;
}

/** GET /settings as the session: { status, html, csrf, cookie (with the CSRF cookie) }. */
async function settingsPage(stack, session) {
  const response = await fetch(`${stack.baseUrl}/settings`, { redirect: 'manual', headers: { cookie: session } });
  const html = await response.text();
  const csrfCookie = cookieFrom(response, 'lkf_csrf');
  return { status: response.status, html, csrf: hidden(html, 'csrf'), cookie: csrfCookie ? `${session}; ${csrfCookie}` : session };
}

function postForm(stack, path, cookie, fields) {
  return fetch(`${stack.baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.baseUrl, cookie, accept: 'application/json' },
    body: new URLSearchParams(fields),
  });
}

/** Ticks `item` on a pull request's review page; returns the person's ticks there afterwards. */
async function tick(stack, page, pull, item) {
  const response = await postForm(stack, `/r/${pull.owner}/${pull.repo}/pull/${pull.number}/ticks`, page.cookie, { csrf: page.csrf, item, done: '1' });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return JSON.parse(text).ticks;
}

describe('operations', () => {
  let stack;
  const secrets = new Set();
  const keep = (...values) => { for (const value of values) if (value) secrets.add(value); };

  before(async () => {
    stack = await startStack({
      localDev: false,
      logLevel: 'log',
      vars: { ...OAUTH_VARS, ADDRESS_RATE_LIMIT_PER_MINUTE: '10000', RATE_LIMIT_PER_MINUTE: '150' },
    });
  });
  after(async () => {
    if (stack) {
      // Checked last, over everything the run logged, the data deletion included.
      const log = stack.workerLog();
      if (process.env.SHOW_LOG) console.log(log);
      await stack.stop();
      assert.ok(secrets.size >= 8, 'the run collected its secrets');
      for (const secret of secrets) {
        assert.ok(!log.includes(secret), `a secret of the run was logged: ${secret.slice(0, 12)}…`);
      }
      assert.doesNotMatch(log, /gh[opusr]_[A-Za-z0-9_]{6,}/, 'a GitHub token was logged');
      assert.doesNotMatch(log, /lfk_\d+_/, 'a LogiKFlow token was logged');
    }
  });

  test('each request writes one JSON line with what happened, and no secret', async () => {
    const clientId = await registerClient(stack);
    const { code, verifier } = await authorizeCode(stack, { clientId });
    const issued = await exchange(stack, { code, verifier, clientId });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const { access_token: access, refresh_token: refreshToken } = issued.body;
    keep(code, verifier, access, refreshToken);

    assert.equal((await listTools(stack, access)).status, 200);
    const first = await callTool(stack, access, 'get_pull_request', pr);
    assert.equal(first.body.result.isError, false, JSON.stringify(first.body.result.content));
    const second = await callTool(stack, access, 'get_pull_request', pr);
    assert.equal(second.body.result.isError, false);
    const missing = await callTool(stack, access, 'get_pull_request', { ...pr, number: 9999 });
    assert.equal(missing.body.result.isError, true);
    assert.equal((await listTools(stack, 'lfa_1_not-a-token')).status, 401);
    const { message, headers } = modernRequest(3, 'tools/list');
    assert.equal((await postMcp(stack, message, headers)).status, 401);
    const rotated = await refresh(stack, refreshToken, clientId);
    assert.equal(rotated.status, 200);
    keep(rotated.body.access_token, rotated.body.refresh_token);

    const lines = await linesWhere(stack, (all) => all.filter((l) => l.tool === 'get_pull_request').length >= 3, 'three reads');
    for (const line of lines) {
      assert.equal(typeof line.route, 'string');
      assert.equal(typeof line.status, 'number');
      assert.ok(Number.isInteger(line.ms) && line.ms >= 0, JSON.stringify(line));
      assert.ok(Number.isInteger(line.github_requests) && Number.isInteger(line.objects), JSON.stringify(line));
    }
    const reads = lines.filter((l) => l.tool === 'get_pull_request');
    const [miss, hit, notFound] = reads.slice(-3);
    assert.deepEqual(
      { route: miss.route, mcp_method: miss.mcp_method, status: miss.status, cache: miss.cache, rate_limit: miss.rate_limit },
      { route: 'mcp', mcp_method: 'tools/call', status: 200, cache: 'miss', rate_limit: 'allowed' },
    );
    assert.ok(miss.github_requests >= 3, JSON.stringify(miss));
    assert.equal(miss.github_statuses.length, miss.github_requests);
    assert.ok(miss.github_statuses.every((s) => s === 200 || s === 404), JSON.stringify(miss));
    assert.ok(miss.objects >= 2, 'the person check and the pull request object');
    assert.equal(miss.error, undefined);
    assert.equal(hit.cache, 'hit');
    assert.ok(hit.github_requests < miss.github_requests, JSON.stringify({ miss, hit }));
    assert.equal(notFound.error, 'tool_error');
    assert.equal(notFound.github_statuses.at(-1), 404, JSON.stringify(notFound));

    const list = lines.find((l) => l.mcp_method === 'tools/list' && l.status === 200);
    assert.ok(list, 'tools/list is logged');
    assert.equal(list.tool, undefined);
    assert.equal(list.github_requests, 0);
    const refused = lines.filter((l) => l.route === 'mcp' && l.status === 401).map((l) => l.error);
    assert.ok(refused.includes('invalid_token') && refused.includes('missing_token'), JSON.stringify(refused));
    const tokenLines = lines.filter((l) => l.route === 'token');
    assert.ok(tokenLines.length >= 2 && tokenLines.every((l) => l.rate_limit === 'allowed'), JSON.stringify(tokenLines));
    const callback = lines.find((l) => l.route === 'oauth_callback');
    assert.deepEqual(callback?.github_statuses, [200, 200], 'the code exchange and the user lookup');
    assert.ok(lines.some((l) => l.route === 'register' && l.status === 201));
  });

  test('Delete my data removes grants, tokens, the GitHub token and every tick, and keeps saved orders', async () => {
    const other = { ...pr, number: 1 };
    // maint: a connected app, an API token, a saved order, ticks on two pull requests.
    const { clientId, tokens } = await connect(stack, { login: 'maint', name: 'Maint agent' });
    keep(tokens.access_token, tokens.refresh_token);
    const session = await webSignIn(stack, 'maint');
    let page = await settingsPage(stack, session);
    assert.equal(page.status, 200, page.html);
    assert.match(page.html, /action="\/settings\/delete"/);
    keep(...session.split('; ').map((c) => c.split('=')[1]), page.csrf);
    const created = await postForm(stack, '/settings/tokens', page.cookie, { csrf: page.csrf, name: 'CI', access: 'write' });
    const apiToken = (await created.text()).match(/<code id="api-token">([^<]+)<\/code>/)?.[1];
    assert.ok(apiToken);
    keep(apiToken);
    const read = await callTool(stack, apiToken, 'get_pull_request', pr);
    const current = read.body.result.structuredContent;
    const sections = [{ title: 'All', layer: 'logic', files: current.files.map((f) => ({ path: f.path, ...(f.likelyGenerated ? { focus: 'generated' } : {}) })) }];
    const saved = await callTool(stack, apiToken, 'save_reading_order', { ...pr, base_version: current.baseVersion, overview: 'Kept after deletion.', sections });
    assert.equal(saved.body.result.isError, false, JSON.stringify(saved.body.result.content));
    assert.deepEqual(await tick(stack, page, pr, 'maint-item-1'), ['maint-item-1']);
    assert.deepEqual(await tick(stack, page, other, 'maint-item-2'), ['maint-item-2']);
    // Ticks on 41 more pull requests: more than one request deletes (40 a request).
    for (let n = 0; n < 41; n += 1) await tick(stack, page, { ...pr, number: 2000 + n }, 'maint-bulk');
    // octo ticks the same pull request: their ticks must survive maint's deletion.
    const octoSession = await webSignIn(stack, 'octo');
    const octoPage = await settingsPage(stack, octoSession);
    keep(...octoSession.split('; ').map((c) => c.split('=')[1]));
    assert.deepEqual(await tick(stack, octoPage, pr, 'octo-item'), ['octo-item']);

    // Without the confirmation, or without the CSRF token, nothing happens.
    page = await settingsPage(stack, session);
    const unconfirmed = await postForm(stack, '/settings/delete', page.cookie, { csrf: page.csrf });
    assert.equal(unconfirmed.status, 400);
    const forged = await postForm(stack, '/settings/delete', session, { confirm: 'delete' });
    assert.equal(forged.status, 403);
    assert.equal((await listTools(stack, apiToken)).status, 200, 'still there');

    const first = await postForm(stack, '/settings/delete', page.cookie, { csrf: page.csrf, confirm: 'delete' });
    const partly = await first.text();
    assert.equal(first.status, 200, partly);
    assert.match(partly, /Deleted your ticks on 40 pull requests; more are left/);
    assert.equal((await listTools(stack, apiToken)).status, 200, 'nothing else is deleted before every tick is');
    assert.deepEqual(await tick(stack, page, pr, 'maint-item-4'), ['maint-item-4'], 'the first batch held the least recently ticked');

    const deleted = await postForm(stack, '/settings/delete', page.cookie, { csrf: page.csrf, confirm: 'delete' });
    const html = await deleted.text();
    assert.equal(deleted.status, 200, html);
    assert.match(html, /Your data was deleted/);
    assert.match(html, /connected apps: 2, API tokens: 1, GitHub token: yes/, 'the agent and this browser');
    const cleared = deleted.headers.getSetCookie().filter((c) => /^lkf_(at|rt)=;/.test(c) && /Max-Age=0/.test(c));
    assert.equal(cleared.length, 2, 'the session cookies are cleared');

    // Every old credential fails at once.
    const oauth = await listTools(stack, tokens.access_token);
    assert.equal(oauth.status, 401);
    assert.match(oauth.headers.get('www-authenticate'), /invalid_token/);
    assert.equal((await listTools(stack, apiToken)).status, 401);
    const refreshed = await refresh(stack, tokens.refresh_token, clientId);
    assert.equal(refreshed.body.error, 'invalid_grant');
    const signedOut = await fetch(`${stack.baseUrl}/settings`, { redirect: 'manual', headers: { cookie: session } });
    assert.equal(signedOut.status, 302, 'the old web session is gone');

    // The saved order stays, under maint's login; octo's ticks stay.
    const octo = await connect(stack, { login: 'octo', name: 'Reader after deletion' });
    keep(octo.tokens.access_token, octo.tokens.refresh_token);
    const after = await callTool(stack, octo.tokens.access_token, 'get_pull_request', pr);
    assert.equal(after.body.result.structuredContent.currentOrder.updatedBy.person, 'maint');
    assert.equal(after.body.result.structuredContent.currentOrder.overview, 'Kept after deletion.');
    assert.deepEqual(await tick(stack, octoPage, pr, 'octo-item'), ['octo-item']);

    // Signing in again starts afresh: no ticks on either pull request, no apps but this browser.
    const again = await webSignIn(stack, 'maint');
    keep(...again.split('; ').map((c) => c.split('=')[1]));
    const fresh = await settingsPage(stack, again);
    assert.doesNotMatch(fresh.html, /Maint agent|<td>CI<\/td>/);
    assert.deepEqual(await tick(stack, fresh, pr, 'maint-item-3'), ['maint-item-3']);
    assert.deepEqual(await tick(stack, fresh, other, 'maint-item-3'), ['maint-item-3']);
    assert.deepEqual(await tick(stack, fresh, { ...pr, number: 2040 }, 'maint-item-3'), ['maint-item-3'], 'the second batch went too');

    const lines = await linesWhere(stack, (all) => all.some((l) => l.route === 'settings_delete_data' && l.status === 200), 'the deletion');
    const deletion = lines.find((l) => l.route === 'settings_delete_data' && l.status === 200);
    assert.ok(deletion.objects >= 5, JSON.stringify(deletion));
  });

  test('exactly one line per request', async () => {
    const before = requestLines(stack).length;
    const { message, headers } = modernRequest(4, 'tools/list');
    for (let i = 0; i < 5; i += 1) await postMcp(stack, message, headers);
    await fetch(`${stack.baseUrl}/`);
    await fetch(`${stack.baseUrl}/no/such/page`);
    await linesWhere(stack, (all) => all.length >= before + 7, 'seven more lines');
    await sleep(500);
    const added = requestLines(stack).slice(before);
    assert.deepEqual(added.map((l) => `${l.route} ${l.status}`), [
      'mcp 401', 'mcp 401', 'mcp 401', 'mcp 401', 'mcp 401', 'home 200', 'not_found 404',
    ]);
    assert.equal(added.at(-1).error, 'not_found');
  });

  test('a rate-limited request says so', async () => {
    const { tokens } = await connect(stack, { login: 'reader', name: 'Busy agent' });
    keep(tokens.access_token, tokens.refresh_token);
    let status = 200;
    for (let i = 0; i < 200 && status !== 429; i += 1) status = (await listTools(stack, tokens.access_token)).status;
    assert.equal(status, 429);
    const lines = await linesWhere(stack, (all) => all.some((l) => l.status === 429), 'a 429');
    const limited = lines.find((l) => l.status === 429);
    assert.equal(limited.rate_limit, 'limited');
    assert.equal(limited.error, 'rate_limited');
  });
});

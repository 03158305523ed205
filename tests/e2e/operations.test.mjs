// Operating LogiKFlow, end to end against `wrangler dev` and the GitHub stand-in (issue #20):
// - logs: every request writes one JSON line with its route, MCP method and tool, status,
//   duration, GitHub subrequests and their statuses, Durable Object calls, cache outcome,
//   rate-limit decision and error class; and no secret of the run (access, refresh and API tokens,
//   authorization codes, PKCE verifiers, cookies, GitHub tokens) appears in any line the run wrote;
// - people's data: "Delete my data" on /settings removes grants, tokens, API tokens, the sealed
//   GitHub token and the person's ticks and draft comments on every pull request (in batches of pull requests, 40 in
//   production and 3 here, credentials last), and the old tokens fail at once, while saved orders stay with `updatedBy`
//   naming the login.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { modernRequest, postMcp, startStack } from './harness.mjs';
import {
  OAUTH_VARS, answerConsent, authorizeCode, callTool, connect, cookieFrom, exchange, hidden, listTools,
  refresh, registerClient, sleep, webSignIn,
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

/** A pull request's review page as the session: its HTML and the first item it offers a tick for. */
async function reviewPage(stack, session, pull) {
  const response = await fetch(`${stack.baseUrl}/r/${pull.owner}/${pull.repo}/pull/${pull.number}`, { redirect: 'manual', headers: { cookie: session } });
  const html = await response.text();
  assert.equal(response.status, 200, html.slice(0, 300));
  return { html, item: hidden(html, 'item')?.replaceAll('&amp;', '&'), done: (html.match(/class="tick is-done" data-scope="(entry|check)"/g) ?? []).length };
}

/** Ticks the first item of a pull request's review page (a real item: made-up ones are refused). */
async function tick(stack, page, pull, session) {
  const { item } = await reviewPage(stack, session, pull);
  const response = await postForm(stack, `/r/${pull.owner}/${pull.repo}/pull/${pull.number}/ticks`, page.cookie, { csrf: page.csrf, item, done: '1' });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  assert.deepEqual(JSON.parse(text), { item, done: true });
}

/** A draft comment (issue 29) on the first added line of a pull request's review page. */
async function draft(stack, page, pull, session, body) {
  const { html } = await reviewPage(stack, session, pull);
  const line = html.split('class="diff-wrap"').slice(1).map((wrap) => {
    const path = /data-path="([^"]+)"/.exec(wrap)?.[1];
    const added = /<tr class="add"><td class="ln"><\/td><td class="ln">(?:<a [^>]*>)?(\d+)/.exec(wrap)?.[1];
    return path && added ? { path: path.replaceAll('&amp;', '&'), line: added } : null;
  }).find(Boolean);
  assert.ok(line, 'a diff with an added line');
  const response = await postForm(stack, `/r/${pull.owner}/${pull.repo}/pull/${pull.number}/comments`, page.cookie,
    { csrf: page.csrf, path: line.path, line: line.line, side: 'RIGHT', mode: 'draft', body });
  const text = await response.text();
  assert.equal(response.status, 200, text);
}

/** How many files and checks the session sees done on a pull request's page. */
async function doneOn(stack, session, pull) {
  return (await reviewPage(stack, session, pull)).done;
}

describe('operations', () => {
  let stack;
  const secrets = new Set();
  const keep = (...values) => { for (const value of values) if (value) secrets.add(value); };

  before(async () => {
    stack = await startStack({
      localDev: false,
      logLevel: 'log',
      vars: { ...OAUTH_VARS, ADDRESS_RATE_LIMIT_PER_MINUTE: '10000', RATE_LIMIT_PER_MINUTE: '150', DELETE_BATCH_PULLS: '3' },
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
    // Arguments are checked in the Worker: a bad call never reaches the pull request's object.
    const invalid = await callTool(stack, access, 'get_pull_request', { owner: pr.owner, repo: pr.repo, number: -1 });
    assert.equal(invalid.body.result.isError, true);
    assert.equal((await listTools(stack, 'lfa_1_not-a-token')).status, 401);
    const { message, headers } = modernRequest(3, 'tools/list');
    assert.equal((await postMcp(stack, message, headers)).status, 401);
    const rotated = await refresh(stack, refreshToken, clientId);
    assert.equal(rotated.status, 200);
    keep(rotated.body.access_token, rotated.body.refresh_token);

    const lines = await linesWhere(stack, (all) => all.filter((l) => l.tool === 'get_pull_request').length >= 4, 'four reads');
    for (const line of lines) {
      assert.equal(typeof line.route, 'string');
      assert.equal(typeof line.status, 'number');
      assert.ok(Number.isInteger(line.ms) && line.ms >= 0, JSON.stringify(line));
      assert.ok(Number.isInteger(line.github_requests) && Number.isInteger(line.objects), JSON.stringify(line));
    }
    const reads = lines.filter((l) => l.tool === 'get_pull_request');
    const [miss, hit, notFound, refusedArguments] = reads.slice(-4);
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
    // The pull request's object runs the read (tools/relay.rs) and its facts join the Worker's line
    // (above); a call refused for its arguments costs only the person check.
    assert.deepEqual(
      { error: refusedArguments.error, objects: refusedArguments.objects, github: refusedArguments.github_requests },
      { error: 'tool_error', objects: 1, github: 0 },
      JSON.stringify(refusedArguments),
    );

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
    const other = { ...pr, number: 2 };
    const bulk = [{ ...pr, number: 1 }, { owner: 'logikflow', repo: 'big', number: 3 }];
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
    await tick(stack, page, pr, session);
    await tick(stack, page, other, session);
    // A draft comment (issue 29) is the person's data too.
    await draft(stack, page, other, session, 'A draft that Delete my data removes.');
    // (Matched by its markup: demo#2's diff is this repository's recent history, this text included.)
    assert.match((await reviewPage(stack, session, other)).html, /<div class="cmt draft"[^>]*>/);
    // Ticks on two more pull requests: with DELETE_BATCH_PULLS=3 more than one request deletes.
    for (const pull of bulk) await tick(stack, page, pull, session);
    for (const pull of [pr, other, ...bulk]) assert.equal(await doneOn(stack, session, pull), 1, JSON.stringify(pull));
    // octo ticks the same pull request: their ticks must survive maint's deletion.
    const octoSession = await webSignIn(stack, 'octo');
    const octoPage = await settingsPage(stack, octoSession);
    keep(...octoSession.split('; ').map((c) => c.split('=')[1]));
    await tick(stack, octoPage, pr, octoSession);

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
    assert.match(partly, /Deleted your ticks on 3 pull requests; more are left/);
    assert.equal((await listTools(stack, apiToken)).status, 200, 'nothing else is deleted before every tick is');
    assert.equal(await doneOn(stack, session, pr), 0, 'the first batch held the least recently ticked');
    assert.equal(await doneOn(stack, session, bulk[1]), 1, 'the last ticked waits for the next batch');
    await tick(stack, page, pr, session);

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
    assert.equal(await doneOn(stack, octoSession, pr), 1, "octo's tick stays");

    // Signing in again starts afresh: no ticks on either pull request, no apps but this browser.
    const again = await webSignIn(stack, 'maint');
    keep(...again.split('; ').map((c) => c.split('=')[1]));
    const fresh = await settingsPage(stack, again);
    assert.doesNotMatch(fresh.html, /Maint agent|<td>CI<\/td>/);
    for (const pull of [pr, other, ...bulk]) {
      assert.equal(await doneOn(stack, again, pull), 0, `no ticks left on ${JSON.stringify(pull)}`);
    }
    assert.doesNotMatch((await reviewPage(stack, again, other)).html, /<div class="cmt draft"[^>]*>/, 'no drafts left');

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

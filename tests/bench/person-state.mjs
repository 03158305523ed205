// Does a build read the person objects another build wrote? (issue #37: stored values unchanged.)
// A diagnostic beside tests/bench/ab.mjs, not part of `npm test`: it needs two builds.
//
//   LOGIKFLOW_OUT=/tmp/old bash tests/scripts/build.sh     # at the commit before the change
//   LOGIKFLOW_BUILD=skip node tests/bench/person-state.mjs old=/tmp/old new=build
//
// The first build signs a person in twice (two apps: grants, hashed tokens, the sealed GitHub
// token, remembered consent) and rotates one refresh token; then the same `wrangler dev`, its
// port and its persisted state are restarted on the second build, which must: accept the old
// access token (the grant row and the GitHub token sealed by the first build), rotate the old
// live refresh token, treat the old spent one as a replay (revoking its grant), and skip the
// consent page for the app consented to before. Prints each step; exits 1 on the first failure.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, startStack } from '../e2e/harness.mjs';
import { authorizeUrl, connect, listTools, OAUTH_VARS, pkce, refresh, signIn } from '../e2e/oauth-flow.mjs';
import { buildsFromArgs } from './side-worker.mjs';

const [before, after] = buildsFromArgs('node tests/bench/person-state.mjs old=BUILD_DIR new=BUILD_DIR');
assert.ok(after, 'two builds: old=DIR new=DIR');
const dir = mkdtempSync(join(tmpdir(), 'logikflow-person-state-'));
const config = readFileSync(join(root, 'wrangler.toml'), 'utf8').replace(/^\[build\]\n(?:(?!\[).*\n)*/m, '');
writeFileSync(join(dir, 'wrangler.toml'), config);
symlinkSync(before.dir, join(dir, 'build'));
const stack = await startStack({ config: join(dir, 'wrangler.toml'), localDev: false, vars: OAUTH_VARS });
const step = (text) => console.log(`ok - ${text}`);
try {
  const kept = await connect(stack, { login: 'octo' });
  const rotated = await connect(stack, { login: 'octo', name: 'Second App' });
  const spent = rotated.tokens.refresh_token;
  const live = await refresh(stack, spent, rotated.clientId);
  assert.equal(live.status, 200, JSON.stringify(live.body));
  step(`${before.name}: two apps connected, one refresh rotated`);

  unlinkSync(join(dir, 'build'));
  symlinkSync(after.dir, join(dir, 'build'));
  await stack.restart();
  step(`restarted on ${after.name}, same port and state`);

  assert.equal((await listTools(stack, kept.tokens.access_token)).status, 200);
  step(`${after.name} accepts the old access token (grant row, sealed GitHub token)`);
  const next = await refresh(stack, kept.tokens.refresh_token, kept.clientId);
  assert.equal(next.status, 200, JSON.stringify(next.body));
  assert.equal((await listTools(stack, next.body.access_token)).status, 200);
  step(`${after.name} rotates the old live refresh token`);
  const replay = await refresh(stack, spent, rotated.clientId);
  assert.equal(replay.body.error, 'invalid_grant');
  assert.equal((await listTools(stack, live.body.access_token)).status, 401);
  step(`${after.name} treats the old spent refresh token as a replay and revokes its grant`);
  const again = await signIn(stack, authorizeUrl(stack, { clientId: kept.clientId, redirectUri: 'http://127.0.0.1:33418/callback', challenge: pkce().challenge }));
  assert.ok(again.redirect && !again.consent, 'remembered consent skips the page');
  step(`${after.name} remembers the consent given on ${before.name}`);
} finally {
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}

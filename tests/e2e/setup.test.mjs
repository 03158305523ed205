// /setup in headless Chromium against the real Worker and the GitHub stand-in (issue 20, "Deploy
// your own"): on a server without a GitHub client id the page creates the GitHub App through
// GitHub's App manifest flow (the stand-in's registration page and its one-time conversion) and
// shows the client id and secret with the commands that put them into Cloudflare; an answer whose
// state this browser didn't store is refused without using its code; a spent code is refused;
// the Worker never logs a secret; the page has no serious or critical axe-core violation; and
// once the server is restarted with the created credentials, /setup is 404 and a reviewer signs
// in with them. Screenshots go to tests/artifacts/screenshots/setup-*.png.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium, root, standinControl, startStack } from './harness.mjs';

const require = createRequire(import.meta.url);
const shots = join(root, 'tests/artifacts/screenshots');
const STATE_KEY = 'logikflow-setup-state';
let stack;
let browser;
/** What the first test created: the app's credentials and the log of the Worker that served it. */
let created;

before(async () => {
  mkdirSync(shots, { recursive: true });
  // A fresh deployment: no GitHub client id, secret or key, and no local-development shortcut.
  stack = await startStack({ localDev: false, logLevel: 'log' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

const newContext = (options = {}) => browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });

/** Runs axe-core in `tab` (through DevTools, so the page's CSP stays on) and returns serious and
 * critical violations. */
async function axeViolations(tab) {
  await tab.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  return tab.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
}

/** Opens /setup, names the App, and follows "Create the App on GitHub" to the stand-in's page. */
async function startCreation(tab, name) {
  await tab.goto(`${stack.baseUrl}/setup`);
  await tab.locator('#app-name').fill(name);
  await Promise.all([tab.waitForURL(`${stack.standinUrl}/settings/apps/new?state=*`), tab.locator('#go').click()]);
}

test('the page creates the GitHub App and shows its credentials and commands, once', async () => {
  const context = await newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
  const tab = await context.newPage();
  const problems = [];
  tab.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
  const backTo = [];
  tab.on('request', (request) => { if (request.url().startsWith(`${stack.baseUrl}/setup?`)) backTo.push(request.url()); });

  await tab.goto(`${stack.baseUrl}/setup`);
  assert.equal(await tab.locator('h1').textContent(), 'Set up this server');
  assert.equal(await tab.locator('#show-callback').textContent(), `${stack.baseUrl}/oauth/callback`);
  assert.equal(await tab.locator('#app-name').inputValue(), 'LogiKFlow 127.0.0.1');
  assert.deepEqual(await axeViolations(tab), [], 'the form');
  await tab.screenshot({ path: join(shots, 'setup-start.png') });

  // An organization needs a name GitHub could have.
  await tab.locator('#org').fill('not an org!');
  await tab.locator('#go').click();
  assert.match(await tab.locator('#problem').textContent(), /organization's name/);
  await tab.locator('input[name=owner][value=user]').check();

  await startCreation(tab, 'LogiKFlow e2e');
  // GitHub (the stand-in) got this server's manifest and nothing else.
  const manifest = JSON.parse(await tab.locator('input[name=manifest]').inputValue());
  assert.deepEqual(manifest, {
    name: 'LogiKFlow e2e',
    url: stack.baseUrl,
    description: `Reading orders for pull requests. People sign in to ${stack.baseUrl} with this App.`,
    hook_attributes: { url: stack.baseUrl, active: false },
    redirect_url: `${stack.baseUrl}/setup`,
    callback_urls: [`${stack.baseUrl}/oauth/callback`],
    public: false,
    default_permissions: { pull_requests: 'write', statuses: 'write', contents: 'read', metadata: 'read' },
    default_events: [],
    request_oauth_on_install: false,
    setup_on_update: false,
  });
  const state = new URL(tab.url()).searchParams.get('state');
  assert.match(state, /^[0-9a-f]{32}$/);

  await Promise.all([tab.waitForURL(`${stack.baseUrl}/setup`), tab.locator('#create-app').click()]);
  await tab.locator('#done').waitFor();
  const clientId = await tab.locator('#client-id').textContent();
  const clientSecret = await tab.locator('#client-secret').textContent();
  assert.match(clientId, /^Iv23li[A-Za-z0-9]{14}$/);
  assert.match(clientSecret, /^[0-9a-f]{40}$/);
  const text = await tab.locator('#done').textContent();
  assert.match(text, /node_modules\/\.bin\/wrangler secret put GITHUB_CLIENT_ID --env production/);
  assert.match(text, /node_modules\/\.bin\/wrangler secret put GITHUB_CLIENT_SECRET --env production/);
  assert.match(text, /The client secret is shown only once/);
  assert.equal(await tab.locator('#app-link').textContent(), 'LogiKFlow e2e');
  assert.equal(await tab.locator('#install-link').getAttribute('href'), 'https://github.com/apps/logikflow-e2e/installations/new');
  assert.equal(await tab.locator('#start').isHidden(), true);
  assert.equal(await tab.locator('#problem').isHidden(), true);

  // The code left the address bar, and the browser keeps nothing: no state, no secret.
  assert.equal(backTo.length, 1);
  const answer = new URL(backTo[0]);
  assert.equal(answer.searchParams.get('state'), state);
  const code = answer.searchParams.get('code');
  assert.equal(tab.url(), `${stack.baseUrl}/setup`);
  assert.deepEqual(await tab.evaluate(() => [sessionStorage.length, localStorage.length, document.cookie]), [0, 0, '']);

  // The stand-in made exactly the App docs/deploying.md describes.
  const info = await standinControl(stack, 'GET', 'info');
  const app = info.apps.find((a) => a.client_id === clientId);
  assert.deepEqual(app.permissions, { pull_requests: 'write', statuses: 'write', contents: 'read', metadata: 'read' });
  assert.deepEqual(app.callback_urls, [`${stack.baseUrl}/oauth/callback`]);
  assert.equal(app.public, false);
  assert.equal(app.hook_active, false);
  assert.equal(app.request_oauth_on_install, false);
  assert.equal(app.owner.login, 'octo');

  // Copy buttons put exactly the value on the clipboard and say so.
  await tab.locator('button[data-copy=client-secret]').click();
  await tab.locator('#copied', { hasText: 'Copied the client secret.' }).waitFor();
  assert.equal(await tab.evaluate(() => navigator.clipboard.readText()), clientSecret);
  await tab.locator('button[data-copy=cmd-id]').click();
  assert.equal(await tab.evaluate(() => navigator.clipboard.readText()), 'node_modules/.bin/wrangler secret put GITHUB_CLIENT_ID --env production');

  assert.deepEqual(await axeViolations(tab), [], 'the credentials');
  await tab.evaluate(() => window.scrollTo(0, 0));
  await tab.screenshot({ path: join(shots, 'setup-credentials.png'), fullPage: true });
  await tab.close();

  // The same answer again, in a browser that still holds its state: GitHub refuses the spent
  // code, and the page says so instead of showing anything.
  const again = await context.newPage();
  await again.goto(`${stack.baseUrl}/setup`);
  await again.evaluate(([key, value]) => sessionStorage.setItem(key, value), [STATE_KEY, state]);
  await Promise.all([
    again.waitForResponse((r) => r.url().includes(`/app-manifests/${code}/conversions`) && r.status() === 404),
    again.goto(backTo[0]),
  ]);
  await again.locator('#problem').waitFor();
  assert.match(await again.locator('#problem').textContent(), /GitHub does not know this code \(any more\): each works once/);
  assert.equal(await again.locator('#done').isHidden(), true);
  assert.equal(await again.locator('#start').isVisible(), true, 'the form is offered again');
  assert.equal(await again.locator('#client-secret').textContent(), '');
  await context.close();

  assert.deepEqual(problems.filter((p) => !/404/.test(p)), [], 'no script errors, no CSP refusals');
  created = { clientId, clientSecret, code, log: stack.workerLog() };
});

test('an answer whose state this browser did not store is refused, and its code is not used', async () => {
  // GitHub's redirect for an App someone else started: a real code with their state.
  const form = (fields) => ({ method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  const manifest = JSON.stringify({ name: 'LogiKFlow forged', url: stack.baseUrl, redirect_url: `${stack.baseUrl}/setup`, callback_urls: [`${stack.baseUrl}/oauth/callback`] });
  const made = await fetch(`${stack.standinUrl}/settings/apps`, form({ manifest, state: 'someone-elses', name: 'LogiKFlow forged' }));
  assert.equal(made.status, 302);
  const forged = made.headers.get('location');
  assert.ok(forged.startsWith(`${stack.baseUrl}/setup?code=`), forged);

  for (const stored of ['mine-0123456789abcdef', null]) {
    const context = await newContext();
    const tab = await context.newPage();
    const conversions = [];
    tab.on('request', (request) => { if (request.url().includes('/app-manifests/')) conversions.push(request.url()); });
    await tab.goto(`${stack.baseUrl}/setup`);
    if (stored) await tab.evaluate(([key, value]) => sessionStorage.setItem(key, value), [STATE_KEY, stored]);
    await tab.goto(forged);
    await tab.locator('#problem').waitFor();
    assert.match(await tab.locator('#problem').textContent(), /does not match the request this browser made \(its state differs\), so it was not used/);
    assert.equal(await tab.locator('#done').isHidden(), true);
    assert.equal(tab.url(), `${stack.baseUrl}/setup`, 'the code left the address bar');
    assert.deepEqual(conversions, []);
    assert.equal(await tab.evaluate((key) => sessionStorage.getItem(key), STATE_KEY), stored, 'a stored state waits for its own answer');
    await context.close();
  }
  // The code is still good: the page never spent it.
  const code = new URL(forged).searchParams.get('code');
  const converted = await fetch(`${stack.standinUrl}/app-manifests/${code}/conversions`, { method: 'POST', headers: { 'user-agent': 'e2e' } });
  assert.equal(converted.status, 201);
});

test('the Worker logs the page as one line and never a secret or the code', async () => {
  assert.ok(created, 'the first test created an App');
  const lines = created.log.split('\n').filter((l) => l.includes('{"event":"request"'))
    .map((l) => JSON.parse(l.slice(l.indexOf('{"event":"request"'))));
  const setup = lines.filter((l) => l.route === 'setup');
  assert.ok(setup.length >= 4, JSON.stringify(lines));
  for (const line of setup) assert.deepEqual(Object.keys(line), ['event', 'route', 'status', 'ms', 'github_requests', 'objects']);
  for (const secret of [created.clientSecret, created.code]) {
    assert.equal(created.log.includes(secret), false, `the Worker's log holds ${secret.slice(0, 6)}…`);
  }
});

test('with the created credentials /setup is 404 and a reviewer signs in with the new App', async () => {
  assert.ok(created, 'the first test created an App');
  await stack.restart({
    GITHUB_CLIENT_ID: created.clientId,
    GITHUB_CLIENT_SECRET: created.clientSecret,
    TOKEN_ENCRYPTION_KEY: 'setup-test-key-0123456789abcdef0123',
  });
  for (const path of ['/setup', '/setup?code=abc&state=def', '/setup.html']) {
    const response = await fetch(`${stack.baseUrl}${path}`);
    assert.equal(response.status, 404, path);
    assert.doesNotMatch(await response.text(), /Set up this server/);
  }
  await fetch(`${stack.standinUrl}/_standin/requests`, { method: 'DELETE' });

  const context = await newContext();
  const tab = await context.newPage();
  await tab.goto(`${stack.baseUrl}/r/logikflow/demo/pull/3`);
  // Our consent page, after the stand-in's GitHub approved the new App's sign-in.
  await tab.locator('button[value=approve]').click();
  await tab.waitForURL(/\/r\/logikflow\/demo\/pull\/3$/);
  assert.match(await tab.locator('body').textContent(), /Signed in as octo/);
  await context.close();

  // GitHub saw the new App's client id, its callback URL and its secret, and minted an expiring
  // user token (a new GitHub App's), which then read the pull request.
  const { requests } = await standinControl(stack, 'GET', 'requests');
  const authorize = requests.find((r) => r.path === '/login/oauth/authorize');
  assert.equal(authorize.query.client_id, created.clientId);
  assert.equal(authorize.query.redirect_uri, `${stack.baseUrl}/oauth/callback`);
  assert.equal(authorize.status, 302);
  assert.ok(requests.some((r) => r.path === '/login/oauth/access_token' && r.status === 200 && r.user === 'octo'));
  assert.ok(requests.some((r) => r.path === '/repos/logikflow/demo/pulls/3' && r.status === 200 && r.user === 'octo'));
  assert.equal(stack.workerLog().includes(created.clientSecret), false, 'the secret is not logged');
});

// OAuth 2.1 end to end: the Worker as its own authorization server with the GitHub stand-in as the
// identity provider underneath. A browser is played with fetch and manual redirects: /authorize →
// the stand-in (auto-approves) → /oauth/callback → the consent page → POST consent → the client's
// redirect URI with code, state and iss → /oauth/token → /mcp with the bearer token.
// The official SDK's OAuth client provider does the whole dance too, including a refresh.
// Each protection has a test that fails without it (see the table in src/oauth/mod.rs). The rules
// themselves (registration, the authorization request's errors, codes, refresh rotation and replay,
// revocation, consent and its form, the rate windows) are tested in-process (`oauth::*::tests`,
// `app::person::tests`, issue #37); what stays here needs the real thing: the whole flow as a
// browser and the SDKs run it, cookies, bodies through workerd, metadata documents fetched over
// HTTP, and one smoke case per endpoint.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort, modernRequest, postMcp, root, standinControl, startStack } from './harness.mjs';
import { MODEL_TOOL_NAMES, TOOL_NAMES } from './schemas.mjs';

import {
  OAUTH_VARS, answerConsent, authorizeUrl, callTool, connect, cookieFrom, exchange, listTools, pkce, registerClient, signIn, sleep,
} from './oauth-flow.mjs';

/**
 * POSTs up to `chunks` chunks of 64 KiB with chunked transfer encoding, writing only as fast as
 * the server reads. Resolves with how many chunks were written and the reply (status and text)
 * or the connection error, whichever comes first.
 */
function chunkedUpload(url, headers, chunks) {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } });
    let written = 0;
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      req.destroy();
      resolve({ written, ...result });
    };
    req.on('response', (response) => {
      let text = '';
      response.on('data', (data) => { text += data; });
      response.on('end', () => finish({ status: response.statusCode, text }));
      response.on('error', (error) => finish({ error: error.code }));
    });
    req.on('error', (error) => finish({ error: error.code }));
    const chunk = Buffer.alloc(64 * 1024, 97);
    const pump = () => {
      while (!done && written < chunks) {
        written += 1;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!done) req.end();
    };
    pump();
  });
}

// ---- the main stack ------------------------------------------------------------------------

// The flow's rules (deny, the browser-bound callback, two apps at once, the flow's expiry) are held
// in-process by `app::oauth::tests::flow` (issue #45); these cases are the routes' smoke tests.
describe('OAuth', () => {
  let stack;
  before(async () => { stack = await startStack({ localDev: false, vars: { ...OAUTH_VARS, ADDRESS_RATE_LIMIT_PER_MINUTE: '10000', ALLOWED_ORIGINS: 'https://inspector.example' } }); });
  after(async () => { await stack?.stop(); });

  test('authorization server metadata', async () => {
    const response = await fetch(`${stack.baseUrl}/.well-known/oauth-authorization-server`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type'), /application\/json/);
    const metadata = await response.json();
    assert.equal(metadata.issuer, stack.baseUrl);
    assert.equal(metadata.authorization_endpoint, `${stack.baseUrl}/authorize`);
    assert.equal(metadata.token_endpoint, `${stack.baseUrl}/oauth/token`);
    assert.equal(metadata.registration_endpoint, `${stack.baseUrl}/oauth/register`);
    assert.equal(metadata.revocation_endpoint, `${stack.baseUrl}/oauth/revoke`);
    assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(metadata.response_types_supported, ['code']);
    assert.deepEqual(metadata.scopes_supported, ['reviews']);
    assert.deepEqual(metadata.token_endpoint_auth_methods_supported, ['none']);
    assert.equal(metadata.client_id_metadata_document_supported, true);
    assert.equal(metadata.authorization_response_iss_parameter_supported, true);
    const resource = await (await fetch(`${stack.baseUrl}/.well-known/oauth-protected-resource/mcp`)).json();
    assert.deepEqual(resource.authorization_servers, [stack.baseUrl]);
    assert.equal(resource.resource, stack.mcpUrl);
  });

  test('an unauthenticated /mcp request gets the challenge', async () => {
    const { message, headers } = modernRequest(1, 'tools/list');
    const missing = await postMcp(stack, message, headers);
    assert.equal(missing.status, 401);
    assert.equal(missing.body.id, 1, 'the refusal carries the request id');
    const challenge = missing.headers.get('www-authenticate');
    assert.match(challenge, /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp", scope="reviews"$/);
    const bogus = await listTools(stack, 'lfa_1001_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    assert.equal(bogus.status, 401);
    assert.match(bogus.headers.get('www-authenticate'), /error="invalid_token"/);
    const foreign = await listTools(stack, 'gho_standin_octo');
    assert.equal(foreign.status, 401, 'a GitHub token is not one of ours');
    // A browser client on an allowed origin can read the challenge.
    const fromBrowser = await postMcp(stack, message, { ...headers, origin: 'https://inspector.example' });
    assert.equal(fromBrowser.status, 401);
    assert.equal(fromBrowser.headers.get('access-control-allow-origin'), 'https://inspector.example');
    assert.match(fromBrowser.headers.get('access-control-expose-headers'), /www-authenticate/);
    // The challenge comes before any transport complaint: an anonymous GET is a 401, not a 405.
    const get = await fetch(stack.mcpUrl);
    assert.equal(get.status, 401);
    assert.match(get.headers.get('www-authenticate'), /^Bearer resource_metadata=/);
  });

  test('bodies without a declared length are cut off at the limit, before any check', async () => {
    // A chunked upload of up to 100 MiB (no content-length) to an unauthenticated endpoint: the
    // Worker answers once the form limit is passed and stops reading, and keeps serving.
    const revoke = await chunkedUpload(`${stack.baseUrl}/oauth/revoke`, { 'content-type': 'application/x-www-form-urlencoded' }, 1600);
    assert.ok(revoke.written < 1600, `the Worker stopped reading early (sent ${revoke.written} of 1600 chunks of 64 KiB)`);
    // Our answer is a 400; under `wrangler dev` the local proxy in front of the Worker may
    // instead report that the Worker hung up on the upload (500 "Network connection lost"),
    // or the connection may close first.
    const proxyLostUpload = revoke.status === 500 && /Network connection lost/.test(revoke.text);
    if (revoke.status !== undefined && !proxyLostUpload) assert.equal(revoke.status, 400);
    const { tokens } = await connect(stack);
    const mcp = await chunkedUpload(stack.mcpUrl, {
      'content-type': 'application/json', authorization: `Bearer ${tokens.access_token}`, 'mcp-protocol-version': '2026-07-28',
    }, 1600);
    assert.ok(mcp.written < 1600, `sent ${mcp.written} of 1600 chunks`);
    if (mcp.status !== undefined && !(mcp.status === 500 && /Network connection lost/.test(mcp.text))) {
      assert.equal(mcp.status, 413);
      assert.equal(JSON.parse(mcp.text).error.message, 'Request body too large: the limit is 1 MiB');
    }
    assert.equal((await listTools(stack, tokens.access_token)).status, 200);
  });

  test('full flow: consent page, code, token, then /mcp with the bearer token', async () => {
    const clientId = await registerClient(stack, 'http://127.0.0.1:33418/callback', 'Full <Flow> App');
    const { verifier, challenge } = pkce();
    const result = await signIn(stack, authorizeUrl(stack, { clientId, redirectUri: 'http://127.0.0.1:33418/callback', challenge, state: 'full' }));
    const { consent } = result;
    assert.ok(consent, JSON.stringify(result.error));
    assert.equal(consent.response.headers.get('x-frame-options'), 'DENY');
    const csp = consent.response.headers.get('content-security-policy');
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /form-action 'self' http:\/\/127\.0\.0\.1:\*/);
    assert.match(consent.html, /Full &lt;Flow&gt; App/, 'client text is escaped');
    assert.doesNotMatch(consent.html, /<Flow>/);
    assert.match(consent.html, /Unverified/);
    assert.match(consent.html, /Read pull requests and saved orders/);
    assert.match(consent.html, /name="write" value="on" checked/);
    assert.match(consent.html, /Save reading orders and diagrams/);
    assert.match(consent.html, /Signed in with GitHub as <strong>octo<\/strong>/);
    assert.match(consent.html, /127\.0\.0\.1 \(this computer\)/);
    assert.match(consent.csrfCookie, /^__Host-lf_csrf_[0-9a-f]{16}=/);
    const cookieLine = consent.response.headers.getSetCookie().find((c) => c.startsWith(consent.csrfCookie));
    assert.match(cookieLine, /Secure/);
    assert.match(cookieLine, /HttpOnly/);
    assert.match(cookieLine, /SameSite=Strict/);
    assert.match(cookieLine, /Path=\//);
    const answered = await answerConsent(stack, consent);
    assert.equal(answered.status, 303);
    const redirect = new URL(answered.headers.get('location'));
    assert.equal(redirect.origin + redirect.pathname, 'http://127.0.0.1:33418/callback');
    assert.equal(redirect.searchParams.get('state'), 'full');
    assert.equal(redirect.searchParams.get('iss'), stack.baseUrl);
    const code = redirect.searchParams.get('code');
    assert.match(code, /^lfc_1001_/);

    const { status, headers, body } = await exchange(stack, { code, verifier, clientId });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(headers.get('cache-control'), 'no-store');
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    assert.equal(body.scope, 'reviews');
    assert.match(body.access_token, /^lfa_1001_/);
    assert.match(body.refresh_token, /^lfr_1001_/);
    assert.ok(!JSON.stringify(body).includes('gho_'), 'the GitHub token never leaves the server');

    const listed = await listTools(stack, body.access_token);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    // 2026-07-28 without the MCP Apps extension: the view's own tools are left out.
    assert.equal(listed.body.result.tools.length, MODEL_TOOL_NAMES.length);
    const guide = await callTool(stack, body.access_token, 'get_ordering_guide');
    assert.equal(guide.status, 200);
    assert.equal(guide.body.result.isError, false);
  });

  test('the GitHub token works for tools: get_pull_request as the signed-in person', async () => {
    const { tokens } = await connect(stack, { login: 'reader' });
    const pull = await callTool(stack, tokens.access_token, 'get_pull_request', { owner: 'logikflow', repo: 'demo', number: 3 });
    assert.equal(pull.status, 200);
    assert.equal(pull.body.result.isError, false, JSON.stringify(pull.body.result.content));
    const hidden = await callTool(stack, tokens.access_token, 'get_pull_request', { owner: 'logikflow', repo: 'private', number: 1 });
    assert.equal(hidden.body.result.isError, true, 'reader cannot see the private repository');
  });

  // W1 (issue 31): a failed redemption spends the code (in-process: `app::person::tests::codes`);
  // here through the review pages' sign-in cookie, as a browser that swapped its verifier sends it.
  test('W1. the review pages\' sign-in spends its code on a wrong verifier too', async () => {
    const start = await fetch(`${stack.baseUrl}/signin?next=%2Fsettings`, { redirect: 'manual' });
    const signinCookie = cookieFrom(start, 'lkf_signin');
    const result = await signIn(stack, new URL(start.headers.get('location'), stack.baseUrl));
    let callback = result.redirect;
    if (result.consent) {
      const answered = await answerConsent(stack, result.consent);
      assert.equal(answered.status, 303);
      callback = new URL(answered.headers.get('location'));
    }
    assert.equal(callback.pathname, '/signin/callback');
    // The sign-in cookie is `state.verifier.next`: a browser that swapped the verifier.
    const [name, value] = signinCookie.split('=');
    const [state, , next] = value.split('.');
    const forged = `${name}=${state}.${pkce().verifier}.${next}`;
    const refused = await fetch(callback, { redirect: 'manual', headers: { cookie: forged } });
    assert.equal(refused.status, 400);
    const right = await fetch(callback, { redirect: 'manual', headers: { cookie: signinCookie } });
    assert.equal(right.status, 400, 'the code is spent');
    assert.equal(cookieFrom(right, 'lkf_at'), undefined, 'no session');
  });

  test('a client ID metadata document client is Verified and bound to its document', async () => {
    const port = await freePort();
    const documentUrl = `http://127.0.0.1:${port}/oauth/client.json`;
    const badUrl = `http://127.0.0.1:${port}/oauth/bad.json`;
    const redirectTo = 'http://127.0.0.1:33500/callback';
    const server = createServer((request, response) => {
      const documents = {
        '/oauth/client.json': { client_id: documentUrl, client_name: 'Metadata App', redirect_uris: [redirectTo] },
        '/oauth/bad.json': { client_id: `${badUrl}x`, client_name: 'Bad', redirect_uris: [redirectTo] },
      };
      if (request.url === '/oauth/moved.json') {
        response.writeHead(302, { location: documentUrl });
        return response.end();
      }
      if (request.url === '/oauth/huge.json') {
        // Chunked (no content-length), well over the 5 KB cap, and valid up to the cut.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write(`{"client_id":"${request.url}","client_name":"`);
        for (let i = 0; i < 40; i++) response.write('x'.repeat(1024));
        return response.end('"}');
      }
      const document = documents[request.url];
      response.writeHead(document ? 200 : 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify(document ?? {}));
    });
    await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      const { verifier, challenge } = pkce();
      const result = await signIn(stack, authorizeUrl(stack, { clientId: documentUrl, redirectUri: redirectTo, challenge, state: 'doc' }));
      assert.ok(result.consent, JSON.stringify(result.error));
      assert.match(result.consent.html, /Verified: 127\.0\.0\.1/);
      assert.match(result.consent.html, /Metadata App/);
      const answered = await answerConsent(stack, result.consent);
      const code = new URL(answered.headers.get('location')).searchParams.get('code');
      const tokens = await exchange(stack, { code, verifier, clientId: documentUrl, redirectUri: redirectTo });
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      assert.equal((await listTools(stack, tokens.body.access_token)).status, 200);
      // Redirect URIs must match the document.
      const elsewhere = await fetch(authorizeUrl(stack, { clientId: documentUrl, redirectUri: 'http://127.0.0.1:33500/other', challenge }), { redirect: 'manual' });
      assert.equal(elsewhere.status, 400);
      assert.equal(elsewhere.headers.get('location'), null);
      // A document whose client_id is not its URL is refused.
      const bad = await fetch(authorizeUrl(stack, { clientId: badUrl, redirectUri: redirectTo, challenge }), { redirect: 'manual' });
      assert.equal(bad.status, 401);
      assert.equal(bad.headers.get('location'), null);
      // A redirect is not followed, and a document over the size cap is not read to its end.
      for (const refused of ['moved.json', 'huge.json']) {
        const clientId = `http://127.0.0.1:${port}/oauth/${refused}`;
        const page = await fetch(authorizeUrl(stack, { clientId, redirectUri: redirectTo, challenge }), { redirect: 'manual' });
        assert.ok(page.status >= 400, `${refused}: ${page.status}`);
        assert.equal(page.headers.get('location'), null, refused);
        assert.match(await page.text(), refused === 'moved.json' ? /redirect/i : /large|size|KB/i, refused);
      }
    } finally {
      server.close();
    }
  });

  test('the conformance suite: authorization server metadata and the authorization code grant', async () => {
    const port = await freePort();
    const clientId = await registerClient(stack, `http://127.0.0.1:${port}/callback`, 'Conformance');
    const cli = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
    const child = spawn(process.execPath, [cli, 'authorization', '--url', stack.baseUrl, '--client-id', clientId,
      '--resource', stack.mcpUrl, '--port', String(port)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const authorizationUrl = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no authorization URL:\n${output}`)), 60_000);
      const onData = (chunk) => {
        output += chunk;
        const line = output.split('\n').find((l) => l.startsWith(`${stack.baseUrl}/authorize?`));
        if (line) { clearTimeout(timer); resolve(new URL(line.trim())); }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', () => { clearTimeout(timer); reject(new Error(`conformance exited early:\n${output}`)); });
    });
    try {
      const result = await signIn(stack, authorizationUrl, { login: 'maint' });
      let redirect = result.redirect;
      if (result.consent) redirect = new URL((await answerConsent(stack, result.consent)).headers.get('location'));
      await fetch(redirect);
      const code = await exited;
      assert.equal(code, 0, output);
      assert.match(output, /authorization-server-metadata/);
      assert.match(output, /authorization-code-grant/);
    } finally {
      child.kill();
    }
  });

  test('the official SDK client connects through its OAuth client provider', async () => {
    await standinControl(stack, 'POST', 'oauth-user', { login: 'maint' });
    try {
      const provider = new MemoryOAuthProvider('http://127.0.0.1:33600/callback');
      await assert.rejects(new Client({ name: 'sdk-oauth', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider })));
      assert.ok(provider.authorizationUrl, 'the SDK started the authorization');
      assert.match(provider.client.client_id, /^lfd_/, 'the SDK registered dynamically');
      const code = await browse(stack, provider.authorizationUrl);
      const transport = new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider });
      await transport.finishAuth(code);
      assert.match(provider.savedTokens.access_token, /^lfa_1003_/);
      const client = new Client({ name: 'sdk-oauth', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider }));
      const { tools } = await client.listTools();
      assert.equal(tools.length, TOOL_NAMES.length);
      await client.close();
    } finally {
      await standinControl(stack, 'POST', 'oauth-user', { login: 'octo' });
    }
  });
});

/** An in-memory OAuthClientProvider, as a CLI client would keep it. */
class MemoryOAuthProvider {
  constructor(redirectUrl) {
    this.redirectUrl = redirectUrl;
    this.authorizationUrl = undefined;
    this.client = undefined;
    this.savedTokens = undefined;
    this.verifier = undefined;
  }

  get clientMetadata() {
    return {
      client_name: 'SDK OAuth e2e', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'], token_endpoint_auth_method: 'none',
    };
  }

  state() { return 'sdk-state'; }
  clientInformation() { return this.client; }
  saveClientInformation(info) { this.client = info; }
  tokens() { return this.savedTokens; }
  saveTokens(tokens) { this.savedTokens = tokens; }
  redirectToAuthorization(url) { this.authorizationUrl = url; }
  saveCodeVerifier(verifier) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
}

/** Plays the browser from the authorization URL to the client's redirect; returns the code. */
async function browse(stack, authorizationUrl) {
  const result = await signIn(stack, authorizationUrl, { login: 'maint' });
  let redirect = result.redirect;
  if (result.consent) {
    const answered = await answerConsent(stack, result.consent);
    assert.equal(answered.status, 303);
    redirect = new URL(answered.headers.get('location'));
  }
  assert.ok(redirect, JSON.stringify(result.error));
  assert.equal(redirect.searchParams.get('iss'), stack.baseUrl);
  return redirect.searchParams.get('code');
}

// ---- lifetimes: a stack whose access tokens last 3 seconds ----------------------------------

describe('OAuth lifetimes', () => {
  let stack;
  before(async () => {
    stack = await startStack({
      localDev: false,
      vars: { ...OAUTH_VARS, ACCESS_TOKEN_TTL_SECONDS: '3', ADDRESS_RATE_LIMIT_PER_MINUTE: '10000' },
    });
  });
  after(async () => { await stack?.stop(); });

  test('the SDK refreshes by itself after the access token expires', async () => {
    await standinControl(stack, 'POST', 'oauth-user', { login: 'maint' });
    try {
      const provider = new MemoryOAuthProvider('http://127.0.0.1:33601/callback');
      await assert.rejects(new Client({ name: 'sdk-refresh', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider })));
      const code = await browse(stack, provider.authorizationUrl);
      await new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider }).finishAuth(code);
      const client = new Client({ name: 'sdk-refresh', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider }));
      const before = provider.savedTokens.access_token;
      await sleep(3_500);
      const { tools } = await client.listTools();
      assert.equal(tools.length, TOOL_NAMES.length);
      assert.notEqual(provider.savedTokens.access_token, before, 'the SDK refreshed its tokens');
      await client.close();
    } finally {
      await standinControl(stack, 'POST', 'oauth-user', { login: 'octo' });
    }
  });

});

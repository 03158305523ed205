// OAuth 2.1 end to end: the Worker as its own authorization server with the GitHub stand-in as the
// identity provider underneath. A browser is played with fetch and manual redirects: /authorize →
// the stand-in (auto-approves) → /oauth/callback → the consent page → POST consent → the client's
// redirect URI with code, state and iss → /oauth/token → /mcp with the bearer token.
// The official SDK's OAuth client provider does the whole dance too, including a refresh.
// Each protection has a test that fails without it (see the table in src/oauth/mod.rs).
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
  OAUTH_VARS, answerConsent, authorizeCode, authorizeUrl, callTool, connect, cookieFrom, exchange, hidden, listTools, pkce,
  refresh, register, registerClient, signIn, sleep, tokenRequest,
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

  test('a token is good only at the resource it was issued for (RFC 8707)', async () => {
    const { tokens } = await connect(stack);
    assert.equal((await listTools(stack, tokens.access_token)).status, 200);
    // The same Worker under another host name is another resource.
    const otherHost = { ...stack, mcpUrl: stack.mcpUrl.replace('127.0.0.1', 'localhost') };
    const elsewhere = await listTools(otherHost, tokens.access_token);
    assert.equal(elsewhere.status, 401);
    assert.match(elsewhere.headers.get('www-authenticate'), /error="invalid_token"/);
    assert.equal((await listTools(stack, tokens.access_token)).status, 200, 'still good at home');
  });

  test('a read-only connection is told it cannot arrange', async () => {
    const { tokens } = await connect(stack, { write: false });
    const read = await callTool(stack, tokens.access_token, 'get_pull_request', { owner: 'logikflow', repo: 'demo', number: 3 });
    assert.equal(read.body.result.isError, false);
    assert.equal(read.body.result.structuredContent.canArrange, false);
    const { tokens: writer } = await connect(stack);
    const again = await callTool(stack, writer.access_token, 'get_pull_request', { owner: 'logikflow', repo: 'demo', number: 3 });
    assert.equal(again.body.result.structuredContent.canArrange, true);
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

  test('dynamic registration accepts https, loopback http and app schemes, and refuses the rest', async () => {
    for (const uri of ['https://app.example/callback', 'http://127.0.0.1:6274/cb', 'http://localhost:1/cb', 'cursor://anysphere.cursor-retrieval/oauth/callback', 'vscode://vscode.github-authentication/did-authenticate']) {
      const { status, body, headers } = await register(stack, { client_name: 'App', redirect_uris: [uri] });
      assert.equal(status, 201, `${uri}: ${JSON.stringify(body)}`);
      assert.match(body.client_id, /^lfd_/);
      assert.equal(body.token_endpoint_auth_method, 'none');
      assert.equal(body.client_secret, undefined);
      assert.deepEqual(body.redirect_uris, [uri]);
      assert.equal(headers.get('cache-control'), 'no-store');
    }
    for (const uri of ['javascript:alert(1)', 'data:text/html,x', 'https://app.example/cb#frag', 'http://app.example/cb', 'file:///etc/passwd', 'https://user:pw@app.example/cb']) {
      const { status, body } = await register(stack, { redirect_uris: [uri] });
      assert.equal(status, 400, uri);
      assert.equal(body.error, 'invalid_redirect_uri', uri);
    }
    const missing = await register(stack, { client_name: 'No redirects' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error, 'invalid_client_metadata');
    const grants = await register(stack, { redirect_uris: ['https://a.example/cb'], grant_types: ['client_credentials'] });
    assert.equal(grants.body.error, 'invalid_client_metadata');
  });

  test('authorize errors: client and redirect URI on a page, the rest back to the client with iss', async () => {
    const clientId = await registerClient(stack);
    const { challenge } = pkce();
    const base = { clientId, redirectUri: 'http://127.0.0.1:33418/callback', challenge, state: 'abc' };
    const page = async (url, status) => {
      const response = await fetch(url, { redirect: 'manual' });
      assert.equal(response.status, status, url.toString());
      assert.equal(response.headers.get('location'), null, 'never redirects');
      assert.match(response.headers.get('content-type'), /text\/html/);
      assert.equal(response.headers.get('x-frame-options'), 'DENY');
    };
    await page(authorizeUrl(stack, { ...base, clientId: 'lfd_unknown' }), 401);
    await page(authorizeUrl(stack, { ...base, clientId: undefined }), 400);
    await page(authorizeUrl(stack, { ...base, redirectUri: 'https://evil.example/callback' }), 400);
    await page(authorizeUrl(stack, { ...base, redirectUri: 'http://127.0.0.1:33418/other' }), 400);
    const back = async (extra, error) => {
      const response = await fetch(authorizeUrl(stack, { ...base, extra }), { redirect: 'manual' });
      assert.equal(response.status, 302);
      const location = new URL(response.headers.get('location'));
      assert.equal(location.origin + location.pathname, 'http://127.0.0.1:33418/callback');
      assert.equal(location.searchParams.get('error'), error, JSON.stringify(extra));
      assert.equal(location.searchParams.get('state'), 'abc');
      assert.equal(location.searchParams.get('iss'), stack.baseUrl);
    };
    await back({ code_challenge: undefined }, 'invalid_request');
    await back({ code_challenge_method: 'plain' }, 'invalid_request');
    await back({ code_challenge_method: undefined }, 'invalid_request');
    await back({ response_type: 'token' }, 'unsupported_response_type');
    await back({ resource: 'https://other.example/mcp' }, 'invalid_target');
    await back({ scope: 'admin' }, 'invalid_scope');
    // Loopback redirect URIs may use any port (RFC 8252 §7.3).
    const anyPort = await fetch(authorizeUrl(stack, { ...base, redirectUri: 'http://127.0.0.1:40001/callback' }), { redirect: 'manual' });
    assert.equal(anyPort.status, 302);
    assert.equal(new URL(anyPort.headers.get('location')).origin, stack.standinUrl);
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

  test('GitHub App tokens that expire (with a refresh token) work too', async () => {
    await standinControl(stack, 'POST', 'config', { expiringTokens: true });
    try {
      const { tokens } = await connect(stack, { login: 'octo' });
      const pull = await callTool(stack, tokens.access_token, 'get_pull_request', { owner: 'logikflow', repo: 'private', number: 1 });
      assert.equal(pull.body.result.isError, false, JSON.stringify(pull.body.result.content));
      const exchanges = await standinControl(stack, 'GET', 'requests?path=/login/oauth/access_token');
      assert.ok(exchanges.requests.length >= 1);
    } finally {
      await standinControl(stack, 'POST', 'config', { expiringTokens: false });
    }
  });

  // W1 (issue 31): a code is spent by any redemption attempt that reaches the person's object,
  // so a code an attacker tried first (wrong verifier, another client, redirect URI or resource)
  // is dead for everyone, and a code that already made tokens revokes them as a replay does.
  // Each mismatch and the revocation are tested in-process (`src/app/person/tests/codes.rs`);
  // here one smoke case per refusal the token endpoint answers.
  test('W1. a wrong PKCE verifier is refused and spends the code: the right verifier then gets invalid_grant', async () => {
    const clientId = await registerClient(stack);
    const { code, verifier } = await authorizeCode(stack, { clientId });
    // A request the endpoint can't read as a redemption (no verifier) spends nothing.
    const missing = await exchange(stack, { code, verifier: undefined, clientId });
    assert.equal(missing.body.error, 'invalid_request');
    const wrong = await exchange(stack, { code, verifier: pkce().verifier, clientId });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, 'invalid_grant');
    assert.match(wrong.body.error_description, /code_verifier does not match/);
    const right = await exchange(stack, { code, verifier, clientId });
    assert.equal(right.status, 400, JSON.stringify(right.body));
    assert.equal(right.body.error, 'invalid_grant');
    assert.equal(right.body.access_token, undefined, 'no tokens from a code a failed attempt spent');
  });

  test('a reused code revokes the grant', async () => {
    const clientId = await registerClient(stack);
    const { code, verifier } = await authorizeCode(stack, { clientId });
    const first = await exchange(stack, { code, verifier, clientId });
    assert.equal(first.status, 200);
    assert.equal((await listTools(stack, first.body.access_token)).status, 200);
    const second = await exchange(stack, { code, verifier, clientId });
    assert.equal(second.status, 400);
    assert.equal(second.body.error, 'invalid_grant');
    const revoked = await listTools(stack, first.body.access_token);
    assert.equal(revoked.status, 401, 'the access token from the first exchange is revoked');
    assert.match(revoked.headers.get('www-authenticate'), /invalid_token/);
    assert.equal((await refresh(stack, first.body.refresh_token, clientId)).body.error, 'invalid_grant');
  });

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

  test('refresh rotates; a replayed refresh token revokes the grant', async () => {
    const { clientId, tokens } = await connect(stack);
    const rotated = await refresh(stack, tokens.refresh_token, clientId);
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    assert.equal(rotated.headers.get('cache-control'), 'no-store');
    assert.notEqual(rotated.body.refresh_token, tokens.refresh_token);
    assert.notEqual(rotated.body.access_token, tokens.access_token);
    assert.equal((await listTools(stack, rotated.body.access_token)).status, 200);
    const replayed = await refresh(stack, tokens.refresh_token, clientId);
    assert.equal(replayed.status, 400);
    assert.equal(replayed.body.error, 'invalid_grant');
    assert.equal((await listTools(stack, rotated.body.access_token)).status, 401, 'the whole grant is revoked');
    assert.equal((await refresh(stack, rotated.body.refresh_token, clientId)).body.error, 'invalid_grant');
  });

  test('a refresh must name its client (OAuth 2.1, public clients)', async () => {
    const { clientId, tokens } = await connect(stack);
    const anonymous = await tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, resource: stack.mcpUrl });
    assert.equal(anonymous.status, 400);
    assert.equal(anonymous.body.error, 'invalid_request');
    assert.match(anonymous.body.error_description, /client_id/);
    const named = await refresh(stack, tokens.refresh_token, clientId);
    assert.equal(named.status, 200, 'the refused attempt spent nothing');
  });

  test('revocation ends the grant at once; unknown tokens still get 200', async () => {
    const { clientId, tokens } = await connect(stack);
    assert.equal((await listTools(stack, tokens.access_token)).status, 200);
    const revoked = await fetch(`${stack.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: clientId }),
    });
    assert.equal(revoked.status, 200);
    assert.equal((await listTools(stack, tokens.access_token)).status, 401);
    const unknown = await fetch(`${stack.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'nonsense' }),
    });
    assert.equal(unknown.status, 200);
  });

  test('an unticked write box gives a read-only token', async () => {
    const { tokens } = await connect(stack, { write: false });
    assert.equal((await listTools(stack, tokens.access_token)).status, 200);
    const guide = await callTool(stack, tokens.access_token, 'get_ordering_guide');
    assert.equal(guide.status, 200);
    assert.equal(guide.body.result.isError, false);
    const save = await callTool(stack, tokens.access_token, 'save_reading_order', {
      owner: 'logikflow', repo: 'demo', number: 3, base_version: 0, order: { sections: [] },
    });
    assert.equal(save.status, 403);
    assert.match(save.headers.get('www-authenticate'), /^Bearer error="insufficient_scope", scope="reviews"/);
  });

  test('consent is remembered per client and redirect URI (loopback port aside)', async () => {
    const clientId = await registerClient(stack);
    await authorizeCode(stack, { clientId });
    const { challenge } = pkce();
    const again = await signIn(stack, authorizeUrl(stack, { clientId, redirectUri: 'http://127.0.0.1:45000/callback', challenge, state: 'again' }));
    assert.ok(again.redirect, 'no consent page the second time');
    assert.equal(again.redirect.origin, 'http://127.0.0.1:45000');
    assert.match(again.redirect.searchParams.get('code'), /^lfc_/);
    assert.equal(again.redirect.searchParams.get('iss'), stack.baseUrl);
    // Another person still gets asked.
    const other = await signIn(stack, authorizeUrl(stack, { clientId, redirectUri: 'http://127.0.0.1:33418/callback', challenge }), { login: 'maint' });
    assert.ok(other.consent);
  });

  test('a consent POST without the CSRF cookie, with another token, from another site or from no site is refused', async () => {
    const clientId = await registerClient(stack);
    const { challenge } = pkce();
    const { consent } = await signIn(stack, authorizeUrl(stack, { clientId, redirectUri: 'http://127.0.0.1:33418/callback', challenge, state: 'csrf' }));
    assert.ok(consent);
    // W2 (issue 31): a POST with neither `Origin` nor `Sec-Fetch-Site` is refused too.
    for (const options of [{ cookie: null }, { csrf: 'forged' }, { origin: 'https://evil.example' }, { origin: null },
      { origin: null, fetchSite: 'cross-site' }, { origin: null, fetchSite: 'same-site' }, { fetchSite: 'cross-site' }]) {
      const response = await answerConsent(stack, consent, options);
      assert.equal(response.status, 403, JSON.stringify(options));
      assert.equal(response.headers.get('location'), null);
    }
    // A body that is not a form is refused for what it is (415), whatever it holds.
    const plain = await answerConsent(stack, consent, { contentType: 'text/plain' });
    assert.equal(plain.status, 415);
    assert.equal(plain.headers.get('location'), null);
    // A browser that sends only `Sec-Fetch-Site: same-origin` (no `Origin`) is our own page.
    const ok = await answerConsent(stack, consent, { origin: null, fetchSite: 'same-origin' });
    assert.equal(ok.status, 303, 'the real form still works');
    const reused = await answerConsent(stack, consent);
    assert.equal(reused.status, 400, 'a consent form is single use');
  });

  test('deny sends access_denied back with state and iss', async () => {
    const clientId = await registerClient(stack);
    const { challenge } = pkce();
    const { consent } = await signIn(stack, authorizeUrl(stack, { clientId, redirectUri: 'http://127.0.0.1:33418/callback', challenge, state: 'no' }));
    const denied = await answerConsent(stack, consent, { action: 'deny' });
    assert.equal(denied.status, 303);
    const location = new URL(denied.headers.get('location'));
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('state'), 'no');
    assert.equal(location.searchParams.get('iss'), stack.baseUrl);
  });

  test('the GitHub callback only completes in the browser that started it', async () => {
    const clientId = await registerClient(stack);
    const { challenge } = pkce();
    const result = await signIn(stack, authorizeUrl(stack, { clientId, redirectUri: 'http://127.0.0.1:33418/callback', challenge }), { sendFlowCookie: false });
    assert.equal(result.error?.status, 400);
  });

  test('two apps can be connected at once in one browser', async () => {
    const starts = [];
    for (const name of ['First', 'Second']) {
      const clientId = await registerClient(stack, 'http://127.0.0.1:33418/callback', name);
      const response = await fetch(authorizeUrl(stack, { clientId, redirectUri: 'http://127.0.0.1:33418/callback', challenge: pkce().challenge }), { redirect: 'manual' });
      starts.push(response);
    }
    const jar = starts.map((response) => cookieFrom(response, '__Host-lf_flow')).join('; ');
    for (const [i, response] of starts.reverse().entries()) {
      const github = await fetch(response.headers.get('location'), { redirect: 'manual' });
      const page = await fetch(github.headers.get('location'), { redirect: 'manual', headers: { cookie: jar } });
      assert.equal(page.status, 200, `sign-in ${i}`);
      assert.match(await page.text(), i === 0 ? /Connect Second/ : /Connect First/);
    }
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

// ---- limits and lifetimes: a stack with small numbers ---------------------------------------

describe('OAuth limits and lifetimes', () => {
  let stack;
  before(async () => {
    stack = await startStack({
      localDev: false,
      vars: { ...OAUTH_VARS, RATE_LIMIT_PER_MINUTE: '30', ACCESS_TOKEN_TTL_SECONDS: '3', ADDRESS_RATE_LIMIT_PER_MINUTE: '40' },
    });
  });
  after(async () => { await stack?.stop(); });

  test('rate limit per person: the 31st request in a minute gets 429 with Retry-After; others are unaffected', async () => {
    const octo = await connect(stack, { login: 'octo' });
    const reader = await connect(stack, { login: 'reader' });
    for (let i = 1; i <= 30; i++) {
      const response = await listTools(stack, octo.tokens.access_token);
      assert.equal(response.status, 200, `request ${i}`);
    }
    const limited = await listTools(stack, octo.tokens.access_token);
    assert.equal(limited.status, 429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.match(limited.body.error.message, /retry in \d+ seconds?/);
    assert.equal(limited.body.id, 1, 'the refusal carries the request id');
    assert.equal((await listTools(stack, reader.tokens.access_token)).status, 200, 'another person has their own window');
  });

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

  test('rate limit per address on the OAuth endpoints', async () => {
    let limited;
    for (let i = 0; i < 60 && !limited; i++) {
      const response = await register(stack, { redirect_uris: ['https://a.example/cb'] });
      if (response.status === 429) limited = response;
      else assert.equal(response.status, 201);
    }
    assert.ok(limited, 'registration is limited per address');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(limited.body.error, 'temporarily_unavailable');
  });
});

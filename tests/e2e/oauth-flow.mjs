// A browser played with fetch and manual redirects, for tests and benchmarks that need real
// OAuth tokens from the Worker: /authorize → the GitHub stand-in (auto-approves) → /oauth/callback →
// the consent page → POST consent → code → /oauth/token.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { modernRequest, postMcp } from './harness.mjs';

export const OAUTH_VARS = {
  GITHUB_CLIENT_ID: 'Iv1.standin',
  GITHUB_CLIENT_SECRET: 'standin-secret',
  TOKEN_ENCRYPTION_KEY: 'e2e-only-token-encryption-key-5f0c2b9e7a41d3',
  ALLOW_LOOPBACK_CLIENT_METADATA: '1',
};

// ---- a browser made of fetch calls -------------------------------------------------------

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** `name=value` of the first Set-Cookie whose name starts with `prefix` and has a value. */
export function cookieFrom(response, prefix) {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0];
    const [name, value] = pair.split('=');
    if (name.startsWith(prefix) && value) return pair;
  }
  return undefined;
}

export function hidden(html, name) {
  return html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1];
}

export async function register(stack, body) {
  const response = await fetch(`${stack.baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

export async function registerClient(stack, redirectUri = 'http://127.0.0.1:33418/callback', name = 'E2E App') {
  const { status, body } = await register(stack, {
    client_name: name, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
  });
  assert.equal(status, 201, JSON.stringify(body));
  return body.client_id;
}

export function authorizeUrl(stack, { clientId, redirectUri, challenge, state = 'st-' + randomBytes(4).toString('hex'), extra = {} }) {
  const url = new URL('/authorize', stack.baseUrl);
  const params = {
    response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge,
    code_challenge_method: 'S256', state, resource: stack.mcpUrl, scope: 'reviews', ...extra,
  };
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  return url;
}

/**
 * Follows /authorize through GitHub to our callback. Returns either the consent page
 * ({ consent: { html, response, consentId, csrf, csrfCookie } }) or, for remembered consent,
 * the redirect to the client ({ redirect: URL }).
 */
export async function signIn(stack, authorize, { login = 'octo', sendFlowCookie = true } = {}) {
  const started = await fetch(authorize, { redirect: 'manual' });
  assert.equal(started.status, 302, await started.text());
  const flowCookie = cookieFrom(started, '__Host-lf_flow');
  assert.ok(flowCookie, 'authorize sets the flow cookie');
  const github = new URL(started.headers.get('location'));
  assert.equal(github.origin, stack.standinUrl);
  assert.equal(github.searchParams.get('code_challenge_method'), 'S256');
  github.searchParams.set('login', login);
  const approved = await fetch(github, { redirect: 'manual' });
  assert.equal(approved.status, 302, await approved.text());
  const callback = new URL(approved.headers.get('location'));
  assert.equal(callback.origin + callback.pathname, `${stack.baseUrl}/oauth/callback`);
  const response = await fetch(callback, {
    redirect: 'manual',
    headers: sendFlowCookie ? { cookie: flowCookie } : {},
  });
  if (response.status === 302) return { redirect: new URL(response.headers.get('location')), response };
  const html = await response.text();
  if (response.status !== 200) return { error: { status: response.status, html } };
  return {
    consent: {
      html, response,
      consentId: hidden(html, 'consent'),
      csrf: hidden(html, 'csrf'),
      csrfCookie: cookieFrom(response, '__Host-lf_csrf'),
    },
  };
}

/**
 * POSTs the consent form as a browser would from our page: `Origin` our own (`origin: null`
 * sends none), `Sec-Fetch-Site` when `fetchSite` is given, the form's content type unless
 * `contentType` says another.
 */
export async function answerConsent(stack, consent, {
  action = 'approve', write = true, cookie = consent.csrfCookie, csrf = consent.csrf, origin = stack.baseUrl, fetchSite,
  contentType = 'application/x-www-form-urlencoded',
} = {}) {
  const form = new URLSearchParams({ consent: consent.consentId, csrf, action });
  if (write) form.set('write', 'on');
  const headers = { 'content-type': contentType };
  if (cookie) headers.cookie = cookie;
  if (origin) headers.origin = origin;
  if (fetchSite) headers['sec-fetch-site'] = fetchSite;
  return fetch(`${stack.baseUrl}/authorize/consent`, { method: 'POST', redirect: 'manual', headers, body: form.toString() });
}

/** Where a sign-in's browser lands: straight back, or after answering the consent page. */
async function afterConsent(stack, result, write) {
  let redirect = result.redirect;
  if (result.consent) {
    const answered = await answerConsent(stack, result.consent, { write });
    assert.equal(answered.status, 303, await answered.text());
    redirect = new URL(answered.headers.get('location'));
  }
  assert.ok(redirect, JSON.stringify(result.error));
  return redirect;
}

/** The whole browser part: returns { code, redirect, verifier, state, consent }. */
export async function authorizeCode(stack, { clientId, redirectUri = 'http://127.0.0.1:33418/callback', login = 'octo', write = true } = {}) {
  const { verifier, challenge } = pkce();
  const state = 'st-' + randomBytes(6).toString('hex');
  const result = await signIn(stack, authorizeUrl(stack, { clientId, redirectUri, challenge, state }), { login });
  const redirect = await afterConsent(stack, result, write);
  assert.equal(redirect.searchParams.get('state'), state);
  assert.equal(redirect.searchParams.get('iss'), stack.baseUrl);
  return { code: redirect.searchParams.get('code'), redirect, verifier, state, consent: result.consent };
}

export async function tokenRequest(stack, params) {
  const response = await fetch(`${stack.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined))),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

export function exchange(stack, { code, verifier, clientId, redirectUri = 'http://127.0.0.1:33418/callback', resource = stack.mcpUrl }) {
  return tokenRequest(stack, {
    grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: redirectUri, resource,
  });
}

export function refresh(stack, refreshToken, clientId) {
  return tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, resource: stack.mcpUrl });
}

/** A fresh client, signed in as `login`, with tokens. */
export async function connect(stack, { login = 'octo', write = true, name = 'E2E App' } = {}) {
  const clientId = await registerClient(stack, 'http://127.0.0.1:33418/callback', name);
  const { code, verifier } = await authorizeCode(stack, { clientId, login, write });
  const { status, body } = await exchange(stack, { code, verifier, clientId });
  assert.equal(status, 200, JSON.stringify(body));
  return { clientId, tokens: body };
}

export function listTools(stack, accessToken) {
  const { message, headers } = modernRequest(1, 'tools/list');
  return postMcp(stack, message, { ...headers, authorization: `Bearer ${accessToken}` });
}

export function callTool(stack, accessToken, name, args = {}) {
  const { message, headers } = modernRequest(2, 'tools/call', { name, arguments: args }, name);
  return postMcp(stack, message, { ...headers, authorization: `Bearer ${accessToken}` });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));


/** Signs `login` in on the web through /signin (GitHub stand-in, consent, /signin/callback);
 * returns the session's Cookie header value (access and refresh cookies). */
export async function webSignIn(stack, login = 'octo', next = '/settings', { write = true, askAgain = false, consentShown } = {}) {
  // `askAgain`: Settings' "Change access" (`access=change`, sent on as `prompt=consent`).
  const change = askAgain ? '&access=change' : '';
  const start = await fetch(`${stack.baseUrl}/signin?next=${encodeURIComponent(next)}${change}`, { redirect: 'manual' });
  assert.equal(start.status, 302, await start.text());
  const signinCookie = cookieFrom(start, 'lkf_signin');
  assert.ok(signinCookie, 'sign-in sets its flow cookie');
  const result = await signIn(stack, new URL(start.headers.get('location'), stack.baseUrl), { login });
  if (consentShown !== undefined) assert.equal(Boolean(result.consent), consentShown, 'the consent page was shown');
  const redirect = await afterConsent(stack, result, write);
  assert.equal(redirect.pathname, '/signin/callback');
  const done = await fetch(redirect, { redirect: 'manual', headers: { cookie: signinCookie } });
  assert.equal(done.status, 303, await done.text());
  assert.equal(done.headers.get('location'), next);
  const access = cookieFrom(done, 'lkf_at');
  const refreshCookie = cookieFrom(done, 'lkf_rt');
  assert.ok(access && refreshCookie, 'the session cookies are set');
  return `${access}; ${refreshCookie}`;
}

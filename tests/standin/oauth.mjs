// oauth.mjs — tokens and GitHub's OAuth web flow for the stand-in.
//
// Why: LogiKFlow signs users in with GitHub's OAuth web flow (authorize → code → access_token,
// optionally PKCE, optionally expiring GitHub App user tokens with refresh tokens) and then calls
// the REST API with the resulting token. This module keeps the fixed demo tokens, mints new ones,
// and answers /login/oauth/authorize and /login/oauth/access_token the way GitHub does
// (including its quirk of reporting token errors with HTTP 200 and an `error` field).

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { USERS, STATIC_SCOPES, userByLogin } from './data.mjs';

const CODE_TTL_MS = 10 * 60 * 1000; // GitHub: codes expire after 10 minutes
const ACCESS_TTL_S = 28800; // 8 hours (expiring user tokens)
const REFRESH_TTL_S = 15897600; // 6 months

const ERROR_URI = 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors';

/** GitHub-style token error bodies (sent with HTTP 200). */
const ERRORS = {
  incorrect_client_credentials: ['The client_id and/or client_secret passed are incorrect.', '#incorrect-client-credentials'],
  redirect_uri_mismatch: ['The redirect_uri MUST match the registered callback URL for this application.', '#redirect-uri-mismatch2'],
  bad_verification_code: ['The code passed is incorrect or expired.', '#bad-verification-code'],
  bad_refresh_token: ['The refresh token passed is incorrect or expired.', '#bad-refresh-token'],
  unsupported_grant_type: ['The grant type is not supported.', ''],
};

function tokenError(code, description) {
  const [text, anchor] = ERRORS[code];
  return { error: code, error_description: description ?? text, error_uri: `${ERROR_URI}/${anchor}` };
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomToken(prefix, length) {
  const bytes = randomBytes(length);
  let out = prefix;
  for (let i = 0; i < length; i++) out += BASE62[bytes[i] % 62];
  return out;
}

const safeEqual = (a, b) => {
  const x = Buffer.from(String(a));
  const y = Buffer.from(String(b));
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Normalises a requested scope list ("repo read:user" or "repo,read:user") to GitHub's "repo,read:user". */
const normaliseScope = (scope) =>
  String(scope ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .join(',');

export class Auth {
  /**
   * @param {object} o
   * @param {string[]} o.clientIds accepted OAuth client ids
   * @param {string} o.clientSecret the secret every client id shares
   * @param {() => number} o.now clock in ms (the stand-in's clock can be advanced)
   */
  constructor({ clientIds, clientSecret, now }) {
    this.clientIds = new Set(clientIds);
    this.clientSecret = clientSecret;
    this.now = now;
    this.codes = new Map(); // code -> grant
    this.minted = new Map(); // access token -> { login, scope, clientId, expiresAt|null }
    this.refreshTokens = new Map(); // refresh token -> { login, scope, clientId, expiresAt, used }
    this.apps = new Map(); // client id -> { clientSecret, callbackUrls, expiring }: apps made from manifests
    this.reset();
  }

  /**
   * Accepts a GitHub App's own client id and secret (apps.mjs creates them from a manifest). Its
   * sign-ins must name one of its callback URLs exactly, and with `expiring` its user tokens
   * expire and come with refresh tokens, as a new GitHub App's do.
   */
  registerApp({ clientId, clientSecret, callbackUrls, expiring }) {
    this.apps.set(clientId, { clientSecret, callbackUrls: [...callbackUrls], expiring });
  }

  /** True when `clientId` and `clientSecret` are a known pair (the shared secret, or an app's own). */
  clientMatches(clientId, clientSecret) {
    if (!clientId) return false;
    const app = this.apps.get(clientId);
    if (app) return safeEqual(clientSecret ?? '', app.clientSecret);
    return this.clientIds.has(clientId) && safeEqual(clientSecret ?? '', this.clientSecret);
  }

  /** Clears revocations, expiries and flow settings (minted tokens stay valid). */
  reset() {
    this.revoked = new Set();
    this.expired = new Set();
    this.expiringTokens = false;
    this.oauthUser = 'octo';
  }

  /** Who a bearer token belongs to: `{ login, scopes, kind }`, or null (unknown/revoked/expired). */
  lookup(token) {
    if (!token || this.revoked.has(token) || this.expired.has(token)) return null;
    const fixed = Object.values(USERS).find((u) => u.token === token);
    if (fixed) return { login: fixed.login, scopes: STATIC_SCOPES, kind: 'static' };
    const minted = this.minted.get(token);
    if (!minted) return null;
    if (minted.expiresAt !== null && this.now() >= minted.expiresAt) return null;
    return { login: minted.login, scopes: minted.scope.split(',').filter(Boolean).join(', '), kind: minted.expiresAt ? 'expiring' : 'oauth' };
  }

  /** True for a token the stand-in knows (fixed, minted or refresh). */
  knows(token) {
    return Object.values(USERS).some((u) => u.token === token) || this.minted.has(token) || this.refreshTokens.has(token);
  }

  revoke(token) {
    this.revoked.add(token);
    const refresh = this.refreshTokens.get(token);
    if (refresh) refresh.used = true;
  }

  expire(token) {
    this.expired.add(token);
  }

  /**
   * GET /login/oauth/authorize. Returns `{ error: { status, body } }` or `{ login, location }`.
   * There is no real sign-in: the request is approved at once for `login` (if given) or the
   * user chosen with POST /_standin/oauth-user.
   */
  authorize(params) {
    const fail = (error, error_description) => ({ error: { status: 400, body: { error, error_description } } });
    const clientId = params.get('client_id');
    const app = clientId ? this.apps.get(clientId) : undefined;
    if (!clientId || (!app && !this.clientIds.has(clientId))) return fail('invalid_client', `Unknown client_id ${JSON.stringify(clientId ?? '')}.`);
    const redirectUri = params.get('redirect_uri');
    if (!redirectUri) return fail('redirect_uri_mismatch', 'redirect_uri is required by the GitHub stand-in.');
    // A GitHub App redirects only to one of its callback URLs.
    if (app && !app.callbackUrls.includes(redirectUri)) return fail('redirect_uri_mismatch', 'The redirect_uri is not associated with this application.');
    let target;
    try {
      target = new URL(redirectUri);
    } catch {
      return fail('redirect_uri_mismatch', 'redirect_uri must be an absolute URL.');
    }
    if (!['http:', 'https:'].includes(target.protocol)) return fail('redirect_uri_mismatch', 'redirect_uri must be http or https.');
    const login = params.get('login') || this.oauthUser;
    if (!userByLogin(login)) return fail('invalid_request', `Unknown login ${JSON.stringify(login)}; use octo, reader or maint.`);
    const challenge = params.get('code_challenge');
    const method = params.get('code_challenge_method') || (challenge ? 'plain' : null);
    if (challenge && !['S256', 'plain'].includes(method)) return fail('invalid_request', 'code_challenge_method must be S256 or plain.');

    const code = randomBytes(10).toString('hex'); // GitHub codes are 20 hex characters
    this.codes.set(code, {
      clientId,
      redirectUri,
      login,
      scope: normaliseScope(params.get('scope')),
      challenge,
      method,
      expiresAt: this.now() + CODE_TTL_MS,
      used: false,
    });
    target.searchParams.set('code', code);
    const state = params.get('state');
    if (state !== null) target.searchParams.set('state', state);
    return { login, location: target.toString() };
  }

  /** POST /login/oauth/access_token. Returns `{ login|null, body }`; body is a success or error object. */
  exchange(params) {
    const clientId = params.client_id;
    if (!this.clientMatches(clientId, params.client_secret)) {
      return { login: null, body: tokenError('incorrect_client_credentials') };
    }
    const grantType = params.grant_type || 'authorization_code';
    if (grantType === 'refresh_token') return this.refresh(params);
    if (grantType !== 'authorization_code') return { login: null, body: tokenError('unsupported_grant_type') };

    const grant = params.code ? this.codes.get(params.code) : undefined;
    if (!grant || grant.used || this.now() >= grant.expiresAt || grant.clientId !== clientId) {
      return { login: null, body: tokenError('bad_verification_code') };
    }
    grant.used = true; // single use, even when the rest of the request is wrong
    if (params.redirect_uri && params.redirect_uri !== grant.redirectUri) {
      return { login: null, body: tokenError('redirect_uri_mismatch') };
    }
    if (grant.challenge) {
      const verifier = params.code_verifier;
      const expected =
        grant.method === 'S256' && verifier ? createHash('sha256').update(verifier).digest('base64url') : verifier;
      if (!verifier || !safeEqual(expected, grant.challenge)) {
        return { login: null, body: tokenError('bad_verification_code', 'The code_verifier does not match the code_challenge.') };
      }
    }
    const expiring = this.expiringTokens || Boolean(this.apps.get(clientId)?.expiring);
    return { login: grant.login, body: this.mint(grant.login, grant.scope, clientId, expiring) };
  }

  refresh(params) {
    const record = params.refresh_token ? this.refreshTokens.get(params.refresh_token) : undefined;
    if (!record || record.used || this.now() >= record.expiresAt || record.clientId !== params.client_id) {
      return { login: null, body: tokenError('bad_refresh_token') };
    }
    record.used = true; // rotation: the old refresh token is now invalid
    return { login: record.login, body: this.mint(record.login, record.scope, record.clientId, true) };
  }

  /** Mints an access token (and a refresh token in expiring mode); returns GitHub's response fields. */
  mint(login, scope, clientId, expiring) {
    const accessToken = randomToken(expiring ? 'ghu_' : 'gho_', 36);
    const now = this.now();
    // GitHub App user tokens carry no OAuth scopes (permissions come from the app instead).
    const granted = expiring ? '' : scope;
    this.minted.set(accessToken, { login, scope: granted, clientId, expiresAt: expiring ? now + ACCESS_TTL_S * 1000 : null });
    if (!expiring) return { access_token: accessToken, token_type: 'bearer', scope };
    const refreshToken = randomToken('ghr_', 76);
    this.refreshTokens.set(refreshToken, { login, scope, clientId, expiresAt: now + REFRESH_TTL_S * 1000, used: false });
    return {
      access_token: accessToken,
      expires_in: ACCESS_TTL_S,
      refresh_token: refreshToken,
      refresh_token_expires_in: REFRESH_TTL_S,
      scope: '',
      token_type: 'bearer',
    };
  }
}

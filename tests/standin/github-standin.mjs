#!/usr/bin/env node
// github-standin.mjs — a local stand-in for the parts of GitHub that LogiKFlow talks to.
//
// Why: github.com cannot be reached from the development machine, so the local `run` command and
// the integration tests point LogiKFlow at this server instead. It speaks the REST endpoints the
// server uses (/user, repos, pulls, pull files with GitHub's paging and 3,000-file cap, review
// comments, contents, compare; writing reviews, comments, replies and resolving threads, reviews.mjs; commit statuses,
// statuses.mjs) and the OAuth web flow, with GitHub's response shapes and headers, demo data built from
// this repository's real git history (data.mjs), fault injection (faults.mjs) and a control API
// under /_standin/ for tests. No dependencies: Node built-ins only.
//
// Usage: node tests/standin/github-standin.mjs --port 8788 [--host 127.0.0.1] [--repo-dir /work/main]
// Prints exactly one line, "github-standin listening on http://HOST:PORT", once it is ready.
// --port 0 picks a free port (the printed line tells which).

import http from 'node:http';
import { randomBytes, createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import { USERS, OWNER, userByLogin, renameUser, claimLogin, restoreUsers, buildWorld, accessLevel, resolveRef, readContents, syntheticHeadFile, compareCommits, pushToPull, pushedFilesBetween, resetWorld } from './data.mjs';
import { FaultTable, FaultSpecError, STATUS_MESSAGES } from './faults.mjs';
import { Auth } from './oauth.mjs';
import { Apps, readManifest } from './apps.mjs';
import { reviewComments, patchLines } from './comments.mjs';
import { ReviewBook, Refused } from './reviews.mjs';
import { StatusBook, StatusRefused, STATUS_DOCS } from './statuses.mjs';
import * as shapes from './shapes.mjs';

const API_VERSION = '2022-11-28';
const MAX_FILES_LISTED = 3000; // GitHub's limit for GET /pulls/{n}/files
const MAX_BODY_BYTES = 1024 * 1024;
const LOG_LIMIT = 20000;
const DOCS = {
  root: 'https://docs.github.com/rest',
  repo: 'https://docs.github.com/rest/repos/repos#get-a-repository',
  pull: 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request',
  files: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests-files',
  commits: 'https://docs.github.com/rest/pulls/pulls#list-commits-on-a-pull-request',
  comments: 'https://docs.github.com/rest/pulls/comments#list-review-comments-on-a-pull-request',
  contents: 'https://docs.github.com/rest/repos/contents#get-repository-content',
  compare: 'https://docs.github.com/rest/commits/commits#compare-two-commits',
  manifest: 'https://docs.github.com/rest/apps/apps#create-a-github-app-from-a-manifest',
  rate: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
  secondary: 'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
};

/** Thrown by handlers to answer with a GitHub error body. */
class HttpError extends Error {
  constructor(status, message, documentationUrl, headers = {}) {
    super(message);
    this.status = status;
    this.documentationUrl = documentationUrl;
    this.headers = headers;
  }
}
const notFound = (doc = DOCS.root) => new HttpError(404, 'Not Found', doc);

// ---------------------------------------------------------------------------------------------
// Rate limits: one bucket per token (or per client address when unauthenticated)
// ---------------------------------------------------------------------------------------------

class RateLimiter {
  constructor(now) {
    this.now = now;
    this.buckets = new Map();
  }

  bucket(key, limit) {
    const nowS = Math.floor(this.now() / 1000);
    let b = this.buckets.get(key);
    if (!b || nowS >= b.reset) {
      b = { limit, used: 0, reset: nowS + 3600 };
      this.buckets.set(key, b);
    }
    b.limit = limit;
    return b;
  }

  headers(b) {
    return {
      'x-ratelimit-limit': String(b.limit),
      'x-ratelimit-remaining': String(Math.max(0, b.limit - b.used)),
      'x-ratelimit-reset': String(b.reset),
      'x-ratelimit-used': String(b.used),
      'x-ratelimit-resource': 'core',
    };
  }

  clear() {
    this.buckets.clear();
  }
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** GitHub-looking request id, e.g. "C0A8:1F2E3D:4B5A69:7C8D9E:6790ABCD". */
function requestId() {
  const hex = (n) => randomBytes(n).toString('hex').toUpperCase();
  return `${hex(2)}:${hex(3)}:${hex(3)}:${hex(3)}:${hex(4)}`;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, 'Payload too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Parses a control-API JSON body; `{}` when empty. */
async function readJson(req) {
  const raw = (await readBody(req)).toString('utf8').trim();
  if (raw === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'Problems parsing JSON', DOCS.root);
  }
}

/** Extracts the token from "Bearer X" / "token X" (case-insensitive scheme). */
function bearerToken(header) {
  if (typeof header !== 'string') return null;
  const m = /^\s*(bearer|token)\s+(\S+)\s*$/i.exec(header);
  return m ? m[2] : null;
}

/** per_page / page the way GitHub reads them: bad values fall back to defaults, per_page ≤ 100. */
function paging(query) {
  const perRaw = Number.parseInt(query.get('per_page') ?? '', 10);
  const pageRaw = Number.parseInt(query.get('page') ?? '', 10);
  const perPage = Number.isFinite(perRaw) && perRaw >= 1 ? Math.min(perRaw, 100) : 30;
  const page = Number.isFinite(pageRaw) && pageRaw >= 1 ? Math.min(pageRaw, 1e9) : 1;
  return { perPage, page };
}

/**
 * GitHub's Link header: prev, next, last, first (only those that apply), each URL being the
 * request's own query with `page` replaced. Returns undefined for a single page.
 */
function linkHeader(baseUrl, query, page, lastPage) {
  if (lastPage <= 1 && page <= 1) return undefined;
  const at = (p) => {
    const q = new URLSearchParams(query);
    q.set('page', String(p));
    return `<${baseUrl}?${q.toString()}>`;
  };
  const parts = [];
  if (page > 1) parts.push(`${at(Math.min(page - 1, Math.max(lastPage, 1)))}; rel="prev"`);
  if (page < lastPage) {
    parts.push(`${at(page + 1)}; rel="next"`);
    parts.push(`${at(lastPage)}; rel="last"`);
  }
  if (page > 1) parts.push(`${at(1)}; rel="first"`);
  return parts.join(', ');
}

/** Slices `items` (already capped) into a page and builds the Link header. */
function paginate(items, query, baseUrl) {
  const { perPage, page } = paging(query);
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const start = (page - 1) * perPage;
  return {
    pageItems: start < items.length ? items.slice(start, start + perPage) : [],
    link: items.length === 0 ? undefined : linkHeader(baseUrl, query, page, lastPage),
  };
}

/** github.com's App registration pages (apps.mjs): `/settings/apps[/new]`, also under an organization. */
const APP_PAGES = /^(?:\/organizations\/([^/]+))?\/settings\/apps(\/new)?$/;

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

/**
 * Starts the stand-in. Options: `port` (0 = any free port), `host` (default 127.0.0.1),
 * `repoDir` (where demo git history is read; default: the repository holding this file),
 * `clientIds` (default ["Iv1.standin", ...STANDIN_CLIENT_IDS]), `clientSecret`
 * (default STANDIN_CLIENT_SECRET or "standin-secret").
 * Resolves to `{ url, port, host, world, close() }`.
 */
export async function startStandin(options = {}) {
  const host = options.host ?? '127.0.0.1';
  const repoDir = options.repoDir ?? fileURLToPath(new URL('../..', import.meta.url));
  const envIds = (process.env.STANDIN_CLIENT_IDS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const clientIds = options.clientIds ?? ['Iv1.standin', ...envIds];
  const clientSecret = options.clientSecret ?? process.env.STANDIN_CLIENT_SECRET ?? 'standin-secret';

  const world = buildWorld({ repoDir });
  let clockOffset = 0;
  const now = () => Date.now() + clockOffset;
  const auth = new Auth({ clientIds, clientSecret, now });
  const apps = new Apps({ now, auth });
  const faults = new FaultTable();
  const limiter = new RateLimiter(now);
  // unlimitedRate: benchmarks load the stand-in far past GitHub's 5,000 requests an hour.
  // pullRequestsReadOnly: the App was installed with read-only access to pull requests, so every
  // review write answers 403 "Resource not accessible by integration" (reviews.mjs).
  // statusesReadOnly: the App was installed without "Commit statuses: Read and write", so
  // creating a commit status answers that 403 too (statuses.mjs).
  const config = { expiringTokens: false, requireUserAgent: true, unlimitedRate: false, pullRequestsReadOnly: false, statusesReadOnly: false };
  const reviews = new ReviewBook();
  const statuses = new StatusBook();
  let log = [];
  let logTotal = 0;
  let pushCounter = 0;

  function resetAll() {
    faults.clear();
    log = [];
    logTotal = 0;
    pushCounter = 0;
    resetWorld(world);
    restoreUsers();
    auth.reset();
    limiter.clear();
    config.expiringTokens = false;
    config.requireUserAgent = true;
    config.unlimitedRate = false;
    config.pullRequestsReadOnly = false;
    config.statusesReadOnly = false;
    reviews.reset();
    statuses.reset();
    clockOffset = 0;
  }

  // ---- response writing -----------------------------------------------------------------------

  function commonHeaders(ctx) {
    return {
      'x-github-request-id': ctx.requestId,
      'x-github-api-version-selected': API_VERSION,
      'x-github-media-type': 'github.v3; format=json',
      server: 'github.com',
      'access-control-allow-origin': '*',
      'access-control-expose-headers':
        'ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'deny',
      'x-xss-protection': '0',
      'referrer-policy': 'origin-when-cross-origin, strict-origin-when-cross-origin',
      'content-security-policy': "default-src 'none'",
      vary: 'Accept, Authorization, Cookie, X-GitHub-OTP',
    };
  }

  /** Sends a body (object → JSON) with GitHub headers, applying the "truncated" fault if active. */
  function send(ctx, status, body, headers = {}) {
    const { res } = ctx;
    if (res.headersSent || res.destroyed) return;
    let type = 'application/json; charset=utf-8';
    let text;
    if (typeof body === 'string') {
      text = body;
      type = headers['content-type'] ?? type;
    } else {
      text = JSON.stringify(body);
    }
    let payload = Buffer.from(text, 'utf8');
    const all = { ...commonHeaders(ctx), ...(ctx.rateHeaders ?? {}), ...headers, 'content-type': type };
    if (status === 200 && ctx.method === 'GET' && ctx.kind === 'rest') {
      const etag = `W/"${createHash('sha256').update(payload).digest('hex')}"`;
      all.etag = etag;
      all['cache-control'] = 'private, max-age=60, s-maxage=60';
      if (ctx.req.headers['if-none-match'] === etag && !ctx.truncate) {
        // Conditional requests answered with 304 do not count against the rate limit.
        if (ctx.bucket) {
          ctx.bucket.used = Math.max(0, ctx.bucket.used - 1);
          Object.assign(all, limiter.headers(ctx.bucket));
        }
        delete all['content-type'];
        finish(ctx, 304, all, Buffer.alloc(0));
        return;
      }
    }
    if (ctx.truncate) {
      status = 200;
      payload = payload.subarray(0, Math.floor(payload.length / 2));
    }
    finish(ctx, status, all, payload);
  }

  function finish(ctx, status, headers, payload) {
    headers['content-length'] = String(payload.length);
    if (ctx.entry) ctx.entry.status = status;
    ctx.res.writeHead(status, headers);
    ctx.res.end(ctx.method === 'HEAD' ? undefined : payload);
  }

  function sendError(ctx, err) {
    send(ctx, err.status, shapes.errorBody(err.status, err.message, err.documentationUrl ?? DOCS.root), err.headers);
  }

  // ---- request entry point ----------------------------------------------------------------------

  async function handle(req, res) {
    let url;
    try {
      url = new URL(req.url, 'http://standin.invalid');
    } catch {
      url = new URL('http://standin.invalid/');
    }
    const ctx = {
      req,
      res,
      method: req.method,
      url,
      path: url.pathname,
      query: url.searchParams,
      origin: `http://${req.headers.host || `${host}:${server.address().port}`}`,
      requestId: requestId(),
      kind: url.pathname.startsWith('/_standin') ? 'control'
        : url.pathname.startsWith('/login/oauth/') ? 'oauth'
        : APP_PAGES.test(url.pathname) ? 'web' : 'rest',
    };
    try {
      if (ctx.kind === 'control') return await control(ctx);
      if (req.method === 'OPTIONS') {
        return finish(ctx, 204, { ...commonHeaders(ctx), 'access-control-allow-headers': 'Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, If-Unmodified-Since, Accept-Encoding, X-GitHub-OTP, X-Requested-With, User-Agent, X-GitHub-Api-Version', 'access-control-allow-methods': 'GET, POST, PATCH, PUT, DELETE' }, Buffer.alloc(0));
      }
      ctx.entry = { method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), user: null, status: 0, kind: ctx.kind };
      logTotal++;
      log.push(ctx.entry);
      if (log.length > LOG_LIMIT) log.shift();

      const fault = faults.take(req.method, url.pathname + url.search);
      if (fault) {
        ctx.entry.fault = fault.kind;
        if (await applyFault(ctx, fault)) return;
      }
      if (ctx.kind === 'oauth') return await oauthRoutes(ctx);
      if (ctx.kind === 'web') return await appPages(ctx);
      return await restRoutes(ctx);
    } catch (err) {
      if (err instanceof HttpError) return sendError(ctx, err);
      process.stderr.write(`github-standin: internal error on ${req.method} ${req.url}: ${err.stack}\n`);
      return send(ctx, 500, shapes.errorBody(500, 'Server Error'));
    }
  }

  /** Applies a fault; returns true when the response has been fully handled. */
  async function applyFault(ctx, fault) {
    const identity = auth.lookup(bearerToken(ctx.req.headers.authorization));
    if (identity) ctx.entry.user = identity.login;
    switch (fault.kind) {
      case 'reset':
        ctx.entry.status = 0;
        ctx.req.socket.destroy();
        return true;
      case 'slow':
        await sleep(fault.delayMs);
        return false;
      case 'truncated':
        ctx.truncate = true;
        return false;
      case 'status':
        send(ctx, fault.status, shapes.errorBody(fault.status, STATUS_MESSAGES[fault.status] ?? 'Server Error'));
        return true;
      case 'unauthorized':
        send(ctx, 401, shapes.errorBody(401, 'Bad credentials'));
        return true;
      case 'rate_limit': {
        const resetAt = Math.floor(now() / 1000) + 60;
        const who = identity ? `user ID ${USERS[identity.login].id}` : ctx.req.socket.remoteAddress;
        const stamp = new Date(now()).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
        send(
          ctx,
          403,
          shapes.errorBody(403, `API rate limit exceeded for ${who}. If you reach out to GitHub Support for help, please include the request ID ${ctx.requestId} and timestamp ${stamp}.`, DOCS.rate),
          { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetAt), 'x-ratelimit-used': '5000', 'x-ratelimit-resource': 'core' },
        );
        return true;
      }
      case 'secondary_rate_limit':
        send(
          ctx,
          403,
          shapes.errorBody(403, `You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ${ctx.requestId}.`, DOCS.secondary),
          { 'retry-after': '30' },
        );
        return true;
      default:
        return false;
    }
  }

  // ---- REST API -------------------------------------------------------------------------------

  async function restRoutes(ctx) {
    const { req } = ctx;
    // GitHub rejects API requests without a User-Agent (Cloudflare Workers' fetch sends none by default).
    if (config.requireUserAgent && !req.headers['user-agent']) {
      throw new HttpError(403, 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required). Check https://developer.github.com for other possible causes.', DOCS.root);
    }
    const token = bearerToken(req.headers.authorization);
    const identity = auth.lookup(token);
    ctx.bucket = identity ? limiter.bucket(`token:${token}`, config.unlimitedRate ? Number.MAX_SAFE_INTEGER : 5000) : limiter.bucket(`ip:${req.socket.remoteAddress}`, 60);
    ctx.bucket.used++;
    ctx.rateHeaders = limiter.headers(ctx.bucket);
    // Creating an App from a manifest needs no credentials: the one-time code is the proof.
    const conversion = /^\/app-manifests\/([^/]+)\/conversions$/.exec(ctx.path);
    if (conversion && !identity) {
      if (ctx.bucket.used > ctx.bucket.limit) throw new HttpError(403, `API rate limit exceeded for ${req.socket.remoteAddress}.`, DOCS.rate);
      return convertManifest(ctx, conversion[1]);
    }
    if (!identity) throw new HttpError(401, 'Bad credentials', DOCS.root);
    ctx.identity = identity;
    ctx.login = identity.login;
    ctx.entry.user = identity.login;
    ctx.rateHeaders['x-oauth-scopes'] = identity.scopes;
    if (ctx.bucket.used > ctx.bucket.limit) {
      throw new HttpError(403, `API rate limit exceeded for user ID ${USERS[identity.login].id}. If you reach out to GitHub Support for help, please include the request ID ${ctx.requestId}.`, DOCS.rate);
    }
    if (ctx.path === '/graphql' && req.method === 'POST') return graphql(ctx);
    if (conversion) return convertManifest(ctx, conversion[1]);
    if (req.method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/statuses\/[^/]+$/.test(ctx.path)) return statusWrite(ctx);
    if (req.method === 'POST') return reviewWrites(ctx);
    if (req.method !== 'GET' && req.method !== 'HEAD') throw notFound();

    let segments;
    try {
      segments = ctx.path.split('/').slice(1).map(decodeURIComponent);
    } catch {
      throw notFound();
    }
    const [first, ...rest] = segments;
    if (first === 'user' && rest.length === 0) {
      ctx.rateHeaders['x-accepted-oauth-scopes'] = '';
      return send(ctx, 200, shapes.authenticatedUser(ctx.origin, ctx.login));
    }
    if (first === 'rate_limit' && rest.length === 0) return rateLimitStatus(ctx);
    if (first === 'repos' && rest.length >= 2) {
      return repoRoutes(ctx, world.repos.get(`${rest[0]}/${rest[1]}`.toLowerCase()), rest.slice(2));
    }
    if (first === 'repositories' && rest.length >= 1 && /^\d+$/.test(rest[0])) {
      return repoRoutes(ctx, world.byId.get(Number(rest[0])), rest.slice(1));
    }
    throw notFound();
  }

  function rateLimitStatus(ctx) {
    // GET /rate_limit does not count against the limit.
    ctx.bucket.used--;
    ctx.rateHeaders = { ...limiter.headers(ctx.bucket), 'x-oauth-scopes': ctx.identity.scopes };
    const core = { limit: ctx.bucket.limit, used: ctx.bucket.used, remaining: ctx.bucket.limit - ctx.bucket.used, reset: ctx.bucket.reset };
    return send(ctx, 200, { resources: { core, search: { limit: 30, used: 0, remaining: 30, reset: ctx.bucket.reset } }, rate: core });
  }

  function repoRoutes(ctx, repo, rest) {
    const level = repo ? accessLevel(repo, ctx.login) : null;
    if (!repo || !level) throw notFound(DOCS.repo);
    ctx.rateHeaders['x-accepted-oauth-scopes'] = 'repo';
    if (rest.length === 0) return send(ctx, 200, shapes.repository(ctx.origin, repo, level));
    const [section, ...tail] = rest;
    if (section === 'pulls' && tail.length >= 1) {
      if (!/^\d+$/.test(tail[0])) throw notFound(DOCS.pull);
      const pr = repo.pulls.get(Number(tail[0]));
      if (tail.length === 1) {
        if (!pr) throw notFound(DOCS.pull);
        return send(ctx, 200, shapes.pullRequest(ctx.origin, repo, pr, reviews.listed(repo, pr, reviewComments(ctx.origin, repo, pr), ctx.login).length));
      }
      if (tail.length === 2 && tail[1] === 'files') {
        if (!pr) throw notFound(DOCS.files);
        const listed = pr.files.length > MAX_FILES_LISTED ? pr.files.slice(0, MAX_FILES_LISTED) : pr.files;
        const { pageItems, link } = paginate(listed, ctx.query, `${ctx.origin}/repositories/${repo.id}/pulls/${pr.number}/files`);
        return send(ctx, 200, pageItems.map((f) => shapes.pullFile(ctx.origin, repo, pr, f)), link ? { link } : {});
      }
      if (tail.length === 2 && tail[1] === 'comments') {
        if (!pr) throw notFound(DOCS.comments);
        const { pageItems, link } = paginate(reviews.listed(repo, pr, reviewComments(ctx.origin, repo, pr), ctx.login), ctx.query, `${ctx.origin}/repositories/${repo.id}/pulls/${pr.number}/comments`);
        return send(ctx, 200, pageItems, link ? { link } : {});
      }
      if (tail.length === 2 && tail[1] === 'commits') {
        if (!pr) throw notFound(DOCS.commits);
        const { pageItems, link } = paginate(pr.commitShas.slice(0, 250), ctx.query, `${ctx.origin}/repositories/${repo.id}/pulls/${pr.number}/commits`);
        return send(ctx, 200, pageItems.map((sha) => shapes.commitObject(ctx.origin, repo, sha)), link ? { link } : {});
      }
      throw notFound();
    }
    // GET …/commits/{ref}/statuses, …/commits/{ref}/status and the legacy …/statuses/{ref}.
    // A ref may hold slashes (a branch `feature/x`).
    const last = tail[tail.length - 1];
    if ((section === 'commits' && tail.length >= 2 && (last === 'statuses' || last === 'status'))
      || (section === 'statuses' && tail.length >= 1)) {
      const ref = section === 'commits' ? tail.slice(0, -1).join('/') : tail.join('/');
      const sha = resolveRef(repo, ref);
      if (section === 'commits' && last === 'status') {
        if (!sha) throw new HttpError(422, `No commit found for SHA: ${ref}`, STATUS_DOCS.combined);
        return send(ctx, 200, statuses.combined(ctx.origin, repo, sha, shapes.repository(ctx.origin, repo, level)));
      }
      const { pageItems, link } = paginate(statuses.list(repo, sha), ctx.query, `${ctx.origin}/repositories/${repo.id}/commits/${ref}/statuses`);
      return send(ctx, 200, pageItems, link ? { link } : {});
    }
    if (section === 'contents') return contents(ctx, repo, tail.join('/'));
    if (section === 'compare' && tail.length >= 1) return compare(ctx, repo, tail.join('/'));
    throw notFound();
  }

  /**
   * POST /repos/{o}/{r}/pulls/{n}/reviews, …/comments and …/comments/{id}/replies (reviews.mjs),
   * after the same visibility check as a read.
   */
  async function reviewWrites(ctx) {
    let segments;
    try {
      segments = ctx.path.split('/').slice(1).map(decodeURIComponent);
    } catch {
      throw notFound();
    }
    const [first, owner, name, section, number, kind, commentId, tail] = segments;
    const writable = first === 'repos' && section === 'pulls' && /^\d+$/.test(number ?? '')
      && ((segments.length === 6 && (kind === 'reviews' || kind === 'comments'))
        || (segments.length === 8 && kind === 'comments' && /^\d+$/.test(commentId) && tail === 'replies'));
    if (!writable) throw notFound();
    const repo = world.repos.get(`${owner}/${name}`.toLowerCase());
    const level = repo ? accessLevel(repo, ctx.login) : null;
    if (!repo || !level) throw notFound(DOCS.repo);
    const pr = repo.pulls.get(Number(number));
    if (!pr) throw notFound(DOCS.pull);
    const body = await readJson(ctx.req);
    const at = { origin: ctx.origin, repo, pr, login: ctx.login, level, config, derived: reviewComments(ctx.origin, repo, pr) };
    try {
      const result = kind === 'reviews' ? reviews.createReview(at, body)
        : segments.length === 8 ? reviews.reply(at, Number(commentId), body)
          : reviews.createComment(at, body);
      return send(ctx, result.status, result.body);
    } catch (err) {
      if (err instanceof Refused) return send(ctx, err.status, err.body);
      throw err;
    }
  }

  /**
   * POST /repos/{o}/{r}/statuses/{sha} (statuses.mjs): a repository the token can't see is 404,
   * as a read; the rest of GitHub's rules are the book's.
   */
  async function statusWrite(ctx) {
    let segments;
    try {
      segments = ctx.path.split('/').slice(1).map(decodeURIComponent);
    } catch {
      throw notFound();
    }
    const [, owner, name, , rawSha] = segments;
    const repo = world.repos.get(`${owner}/${name}`.toLowerCase());
    const level = repo ? accessLevel(repo, ctx.login) : null;
    if (!repo || !level) throw notFound(STATUS_DOCS.create);
    const body = await readJson(ctx.req);
    const sha = /^[0-9a-f]{40}$/i.test(rawSha) ? resolveRef(repo, rawSha) : null;
    try {
      const result = statuses.create({ origin: ctx.origin, repo, login: ctx.login, level, config, now }, sha, rawSha, body);
      return send(ctx, result.status, result.body);
    } catch (err) {
      if (err instanceof StatusRefused) return send(ctx, err.status, err.body);
      throw err;
    }
  }

  /** GraphQL review threads and their resolution (reviews.mjs), by the query's variables. */
  function reviewGraphql(ctx, query, variables) {
    const vars = variables && typeof variables === 'object' ? variables : {};
    const threadId = String(vars.id ?? '');
    let repo;
    let pr;
    if (/reviewThreads/.test(query)) {
      repo = world.repos.get(`${vars.owner}/${vars.name}`.toLowerCase());
      pr = repo?.pulls.get(Number(vars.number));
    } else {
      const m = /^PRRT_standin(\d+)$/.exec(threadId);
      for (const candidate of world.repos.values()) {
        for (const p of candidate.pulls.values()) {
          if (!m || repo) break;
          const derived = reviewComments(ctx.origin, candidate, p);
          if (reviews.listed(candidate, p, derived, ctx.login).some((c) => c.id === Number(m[1]))) {
            repo = candidate;
            pr = p;
          }
        }
      }
    }
    const level = repo ? accessLevel(repo, ctx.login) : null;
    if (!repo || !pr || !level) {
      const field = /reviewThreads/.test(query) ? 'repository' : (/unresolveReviewThread/.test(query) ? 'unresolveReviewThread' : 'resolveReviewThread');
      return send(ctx, 200, { data: { [field]: null }, errors: [{ type: 'NOT_FOUND', path: [field], message: `Could not resolve to a node with the global id of '${threadId || vars.owner}'` }] });
    }
    const at = { repo, pr, login: ctx.login, level, config, derived: reviewComments(ctx.origin, repo, pr) };
    if (/reviewThreads/.test(query)) {
      // The connections' sizes as the query asks (`reviewThreads(first:N)`, `reviews(last:N)`).
      const first = Number(/reviewThreads\(first:(\d+)/.exec(query)?.[1] ?? 100);
      const total = reviews.threadCount(at);
      const pullRequest = {
        reviewThreads: { totalCount: total, pageInfo: { hasNextPage: total > first }, nodes: reviews.threads(at, first) },
      };
      const last = /\breviews\(last:(\d+)/.exec(query);
      if (last) pullRequest.reviews = reviews.reviewNodes(at, Number(last[1]));
      return send(ctx, 200, { data: { repository: { pullRequest } } });
    }
    return send(ctx, 200, reviews.resolve(at, threadId, !/unresolveReviewThread/.test(query)));
  }

  /**
   * POST /graphql: only the query LogiKFlow sends, `repository(owner: "…", name: "…")` with
   * aliased `fN:object(expression: "<sha>:<path>") { ...on Blob { text } }` fields, the strings
   * written as JSON-escaped literals. Contents come from the same place as the contents API.
   */
  async function graphql(ctx) {
    let body;
    try {
      body = JSON.parse((await readBody(ctx.req)).toString('utf8'));
    } catch {
      return send(ctx, 400, { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/graphql' });
    }
    const query = typeof body?.query === 'string' ? body.query : '';
    if (/reviewThreads|resolveReviewThread|unresolveReviewThread/.test(query)) return reviewGraphql(ctx, query, body.variables);
    const literal = '("(?:[^"\\\\]|\\\\.)*")';
    const head = new RegExp(`^\\{repository\\(owner:${literal},name:${literal}\\)\\{`).exec(query);
    if (!head) {
      return send(ctx, 200, { errors: [{ message: 'The stand-in only answers the build-file query' }] });
    }
    const [owner, name] = [JSON.parse(head[1]), JSON.parse(head[2])];
    const repo = world.repos.get(`${owner}/${name}`.toLowerCase());
    if (!repo || !accessLevel(repo, ctx.login)) {
      return send(ctx, 200, {
        data: { repository: null },
        errors: [{ type: 'NOT_FOUND', path: ['repository'], message: `Could not resolve to a Repository with the name '${owner}/${name}'.` }],
      });
    }
    const fields = {};
    for (const [, alias, quoted] of query.matchAll(new RegExp(`(f\\d+):object\\(expression:${literal}\\)`, 'g'))) {
      const expression = JSON.parse(quoted);
      const at = expression.indexOf(':');
      const sha = at > 0 ? resolveRef(repo, expression.slice(0, at)) : null;
      const found = sha ? readContents(repo, sha, expression.slice(at + 1)) : null;
      fields[alias] = found && found.type === 'file' ? { text: found.content.toString('utf8') } : found ? {} : null;
    }
    return send(ctx, 200, { data: { repository: fields } });
  }

  function contents(ctx, repo, path) {
    const refParam = ctx.query.get('ref');
    const sha = resolveRef(repo, refParam);
    if (!sha) throw new HttpError(404, `No commit found for the ref ${refParam}`, DOCS.contents);
    const ref = refParam || repo.defaultBranch;
    const found = readContents(repo, sha, path) ?? syntheticHeadFile(repo, sha, path);
    if (!found) throw notFound(DOCS.contents);
    if (found.type === 'dir') return send(ctx, 200, shapes.dirContents(ctx.origin, repo, ref, found.entries));
    return send(ctx, 200, shapes.fileContents(ctx.origin, repo, ref, path.replace(/^\/+|\/+$/g, ''), found));
  }

  function compare(ctx, repo, basehead) {
    const m = /^(.+?)\.\.\.(.+)$/.exec(basehead) ?? /^(.+?)\.\.(.+)$/.exec(basehead);
    if (!m) throw notFound(DOCS.compare);
    const baseSha = resolveRef(repo, m[1]);
    const headSha = resolveRef(repo, m[2]);
    if (!baseSha || !headSha) throw notFound(DOCS.compare);
    const result = compareCommits(repo, baseSha, headSha);
    if (!result) throw new HttpError(404, `No common ancestor between ${m[1]} and ${m[2]}.`, DOCS.compare);
    const files = pushedFilesBetween(repo, result.commits).map((filename) => ({ filename, status: 'modified' }));
    return send(ctx, 200, shapes.comparison(ctx.origin, repo, basehead, baseSha, { ...result, headSha, files }));
  }

  // ---- OAuth web flow ---------------------------------------------------------------------------

  async function oauthRoutes(ctx) {
    if (ctx.path === '/login/oauth/authorize' && (ctx.method === 'GET' || ctx.method === 'HEAD')) return authorize(ctx);
    if (ctx.path === '/login/oauth/access_token' && ctx.method === 'POST') return accessToken(ctx);
    throw notFound();
  }

  function authorize(ctx) {
    const params = ctx.query;
    if (params.get('interactive') === '1') return authorizePage(ctx);
    const result = auth.authorize(params);
    if (result.error) return send(ctx, result.error.status, result.error.body);
    ctx.entry.user = result.login;
    const html = `<html><body>You are being <a href="${escapeHtml(result.location)}">redirected</a>.</body></html>`;
    return send(ctx, 302, html, { 'content-type': 'text/html; charset=utf-8', location: result.location, 'cache-control': 'no-cache' });
  }

  /** A tiny consent page for manual demos: a GET form back to /login/oauth/authorize. */
  function authorizePage(ctx) {
    const hidden = [...ctx.query.entries()]
      .filter(([k]) => k !== 'interactive' && k !== 'login')
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('\n      ');
    const chosen = ctx.query.get('login') || auth.oauthUser;
    const options = Object.values(USERS)
      .map((u) => `<option value="${u.login}"${u.login === chosen ? ' selected' : ''}>${u.login} (${escapeHtml(u.name)})</option>`)
      .join('');
    const clientId = escapeHtml(ctx.query.get('client_id') ?? '');
    const page = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Authorize application · GitHub stand-in</title></head>
  <body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto">
    <h1>Authorize ${clientId}</h1>
    <p>This is the local GitHub stand-in. No password is needed: pick a demo user.</p>
    <p>Scopes: <code>${escapeHtml(ctx.query.get('scope') || '(none)')}</code><br>
       Redirects to: <code>${escapeHtml(ctx.query.get('redirect_uri') ?? '(missing)')}</code></p>
    <form method="get" action="/login/oauth/authorize">
      ${hidden}
      <label>Sign in as <select name="login">${options}</select></label>
      <button type="submit" id="authorize">Authorize</button>
    </form>
  </body>
</html>
`;
    return send(ctx, 200, page, { 'content-type': 'text/html; charset=utf-8' });
  }

  async function accessToken(ctx) {
    const raw = (await readBody(ctx.req)).toString('utf8');
    const params = Object.assign(Object.create(null), Object.fromEntries(ctx.query)); // no prototype: any key is safe
    const type = String(ctx.req.headers['content-type'] ?? '');
    if (type.includes('application/json')) {
      try {
        const parsed = JSON.parse(raw || '{}');
        if (parsed && typeof parsed === 'object') {
          for (const [k, v] of Object.entries(parsed)) if (v !== null && v !== undefined) params[k] = String(v);
        }
      } catch {
        // GitHub treats an unreadable body as missing parameters.
      }
    } else {
      Object.assign(params, Object.fromEntries(new URLSearchParams(raw)));
    }
    const { login, body } = auth.exchange(params);
    if (login) ctx.entry.user = login;
    const wantsJson = String(ctx.req.headers.accept ?? '').includes('application/json');
    if (wantsJson) return send(ctx, 200, body);
    const form = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString();
    return send(ctx, 200, form, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' });
  }

  // ---- GitHub Apps from manifests -------------------------------------------------------------

  /** POST /app-manifests/{code}/conversions: the new App with its secrets, once per code. */
  function convertManifest(ctx, code) {
    if (ctx.method !== 'POST') throw notFound(DOCS.manifest);
    let app;
    try {
      app = apps.convert(decodeURIComponent(code));
    } catch {
      app = null;
    }
    if (!app) throw notFound(DOCS.manifest);
    return send(ctx, 201, shapes.appFromManifest(ctx.origin, app));
  }

  /**
   * github.com's App registration pages: `/settings/apps/new` (a personal account's) and
   * `/organizations/{org}/settings/apps/new`. A POSTed `manifest` is checked and shown with a
   * **Create GitHub App** button (GitHub's page also lets the person rename the App); that button
   * POSTs to `…/settings/apps`, which creates the App and redirects to the manifest's
   * `redirect_url` with `code` and `state`. The signed-in person is the stand-in's OAuth user.
   */
  async function appPages(ctx) {
    const [, org, isNew] = APP_PAGES.exec(ctx.path);
    const user = userByLogin(auth.oauthUser);
    let owner = { login: user.login, id: user.id, type: 'User' };
    if (org !== undefined) {
      if (decodeURIComponent(org).toLowerCase() !== OWNER.login) return sendPage(ctx, 404, 'Not Found', '<p>No such organization.</p>');
      owner = { login: OWNER.login, id: OWNER.id, type: 'Organization' };
    }
    ctx.entry.user = user.login;
    const action = org !== undefined ? `/organizations/${OWNER.login}/settings/apps` : '/settings/apps';
    if (isNew && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      return sendPage(ctx, 200, 'Register new GitHub App', `<p>The GitHub stand-in registers Apps from a manifest only.</p>
    <form method="post" action="${action}/new">
      <label for="manifest">Manifest (JSON)</label><br><textarea id="manifest" name="manifest" rows="12" cols="60"></textarea><br>
      <button type="submit">Continue</button>
    </form>`);
    }
    if (ctx.method !== 'POST') return sendPage(ctx, 404, 'Not Found', '<p>Not Found</p>');
    const form = new URLSearchParams((await readBody(ctx.req)).toString('utf8'));
    const state = ctx.query.get('state') ?? form.get('state');
    const named = isNew ? undefined : form.get('name') ?? '';
    const { manifest, errors } = readManifest(form.get('manifest'), { name: named, takenSlugs: apps.takenSlugs() });
    if (errors.length > 0) {
      const list = errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('');
      return sendPage(ctx, 422, 'Invalid GitHub App configuration', `<p>The manifest was refused:</p><ul id="errors">${list}</ul>`);
    }
    if (isNew) {
      const permissions = Object.entries(manifest.default_permissions ?? {}).map(([p, a]) => `<li>${escapeHtml(p)}: ${escapeHtml(a)}</li>`).join('');
      const callbacks = (manifest.callback_urls ?? []).map((u) => `<li>${escapeHtml(u)}</li>`).join('');
      return sendPage(ctx, 200, `Create GitHub App for ${owner.login}`, `<form method="post" action="${action}">
      <input type="hidden" name="manifest" value="${escapeHtml(form.get('manifest'))}">
      ${state === null ? '' : `<input type="hidden" name="state" value="${escapeHtml(state)}">`}
      <label for="app-name">GitHub App name</label> <input id="app-name" name="name" value="${escapeHtml(manifest.name)}">
      <p>Homepage: ${escapeHtml(manifest.url)}</p>
      <p>Permissions:</p><ul id="permissions">${permissions}</ul>
      <p>Callback URLs:</p><ul id="callbacks">${callbacks}</ul>
      <button type="submit" id="create-app">Create GitHub App for ${escapeHtml(owner.login)}</button>
    </form>`);
    }
    const { app, code } = apps.create(manifest, owner);
    if (!app.redirect_url) {
      return sendPage(ctx, 201, 'GitHub App created', `<p>${escapeHtml(app.name)} was created: https://github.com/apps/${escapeHtml(app.slug)}</p>`);
    }
    const target = new URL(app.redirect_url);
    target.searchParams.set('code', code);
    if (state !== null) target.searchParams.set('state', state);
    const html = `<html><body>You are being <a href="${escapeHtml(target)}">redirected</a>.</body></html>`;
    return send(ctx, 302, html, { 'content-type': 'text/html; charset=utf-8', location: target.toString(), 'cache-control': 'no-cache' });
  }

  function sendPage(ctx, status, title, body) {
    const page = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>${escapeHtml(title)} · GitHub stand-in</title></head>
  <body>
    <main>
    <h1>${escapeHtml(title)}</h1>
    ${body}
    </main>
  </body>
</html>
`;
    return send(ctx, status, page, { 'content-type': 'text/html; charset=utf-8' });
  }

  // ---- control API (/_standin/…) ------------------------------------------------------------

  function summary() {
    return {
      users: Object.values(USERS).map((u) => ({ login: u.login, id: u.id, token: u.token })),
      oauth: { clientIds: [...auth.clientIds], oauthUser: auth.oauthUser },
      apps: apps.list(),
      config: { ...config },
      repos: [...world.repos.values()].map((repo) => ({
        full_name: repo.fullName,
        id: repo.id,
        private: repo.private,
        default_branch: repo.defaultBranch,
        main_sha: repo.branches.get(repo.defaultBranch),
        git: Boolean(repo.gitDir),
        pulls: [...repo.pulls.values()].map((pr) => ({
          number: pr.number,
          title: pr.title,
          base_sha: pr.base.sha,
          head_sha: pr.headSha,
          head_ref: pr.headRef,
          commits: pr.commitShas.length,
          changed_files: pr.files.length,
          listed_files: Math.min(pr.files.length, MAX_FILES_LISTED),
        })),
      })),
      warnings: world.warnings,
      build_ms: world.buildMs,
    };
  }

  async function control(ctx) {
    const { method } = ctx;
    const route = ctx.path.replace(/^\/_standin\/?/, '').replace(/\/+$/, '');
    const ok = (body, status = 200) => send(ctx, status, body);
    const raw = method === 'POST' || method === 'PUT' ? await readJson(ctx.req) : {};
    const isObject = raw !== null && typeof raw === 'object' && !Array.isArray(raw);
    const body = isObject ? raw : {}; // fields of a JSON object body; anything else reads as empty
    const need = (cond, message) => {
      if (!cond) throw new HttpError(422, message, DOCS.root);
    };

    switch (`${method} ${route}`) {
      case 'GET ':
      case 'GET info':
        return ok(summary());
      case 'GET faults':
        return ok({ faults: faults.list() });
      case 'POST faults':
        try {
          return ok(faults.add(raw), 201);
        } catch (err) {
          if (err instanceof FaultSpecError) throw new HttpError(422, err.message, DOCS.root);
          throw err;
        }
      case 'DELETE faults':
        return ok({ cleared: faults.clear() });
      case 'POST reset':
        resetAll();
        return ok({ reset: true });
      case 'GET requests': {
        const filter = ctx.query.get('path');
        const requests = filter ? log.filter((e) => e.path.includes(filter)) : log;
        return ok({ total: filter ? requests.length : logTotal, requests });
      }
      case 'DELETE requests':
        log = [];
        logTotal = 0;
        return ok({ cleared: true });
      case 'POST push': {
        need(typeof body.repo === 'string', 'repo must be "owner/name"');
        need(Number.isInteger(body.number), 'number must be an integer');
        const repo = world.repos.get(body.repo.toLowerCase());
        const pr = repo?.pulls.get(body.number);
        if (!pr) throw new HttpError(404, `No pull request ${body.repo}#${body.number}`, DOCS.root);
        need(body.edits === undefined || Array.isArray(body.edits), 'edits must be a list of {path, op}');
        pushCounter++;
        let result;
        try {
          result = pushToPull(repo, pr, pushCounter, new Date(now()).toISOString().replace(/\.\d+Z$/, 'Z'), body.edits);
        } catch (err) {
          throw new HttpError(422, err.message, DOCS.root);
        }
        return ok({ repo: repo.fullName, number: pr.number, old_head_sha: result.oldHead, head_sha: result.newHead, sha: result.newHead, changed_file: result.file, changed_files: result.files ?? (result.file ? [result.file] : []), commits: pr.commitShas.length });
      }
      case 'POST revoke':
      case 'POST expire': {
        need(typeof body.token === 'string' && body.token !== '', 'token must be a string');
        if (!auth.knows(body.token)) throw new HttpError(404, 'Unknown token', DOCS.root);
        if (route === 'revoke') auth.revoke(body.token);
        else auth.expire(body.token);
        return ok({ token: body.token, [route === 'revoke' ? 'revoked' : 'expired']: true });
      }
      case 'POST users/rename': {
        need(userByLogin(body.login), 'login must be a current user');
        need(typeof body.to === 'string' && /^[A-Za-z0-9-]{1,39}$/.test(body.to) && !userByLogin(body.to), 'to must be a free login');
        const user = renameUser(body.login, body.to);
        return ok({ login: user.login, id: user.id });
      }
      case 'POST users/claim': {
        need(typeof body.login === 'string' && /^[A-Za-z0-9-]{1,39}$/.test(body.login) && !userByLogin(body.login), 'login must be a free login (rename its holder first)');
        need(Number.isInteger(body.id) && body.id > 0 && !Object.values(USERS).some((u) => u.id === body.id), 'id must be a positive integer no user has');
        const user = claimLogin(body.login, body.id);
        return ok({ login: user.login, id: user.id, token: user.token }, 201);
      }
      case 'GET oauth-user':
        return ok({ login: auth.oauthUser });
      case 'POST oauth-user':
        need(userByLogin(body.login), 'login must be one of octo, reader, maint');
        auth.oauthUser = body.login;
        return ok({ login: auth.oauthUser });
      case 'GET config':
        return ok({ ...config });
      case 'POST config':
        need(isObject, 'body must be a JSON object');
        for (const key of Object.keys(body)) {
          need(Object.hasOwn(config, key), `unknown setting ${key}; known: ${Object.keys(config).join(', ')}`);
          need(typeof body[key] === 'boolean', `${key} must be a boolean`);
        }
        Object.assign(config, body);
        auth.expiringTokens = config.expiringTokens;
        return ok({ ...config });
      case 'GET statuses':
        return ok(statuses.summary());
      case 'GET reviews': {
        const repo = world.repos.get(String(ctx.query.get('repo') ?? '').toLowerCase());
        const pr = repo?.pulls.get(Number(ctx.query.get('number')));
        if (!pr) throw new HttpError(404, 'No such pull request (repo=owner/name&number=N)', DOCS.root);
        return ok(reviews.summary(repo, pr));
      }
      case 'POST reviews/pending': {
        need(typeof body.repo === 'string', 'repo must be "owner/name"');
        need(Number.isInteger(body.number), 'number must be an integer');
        need(userByLogin(body.login), 'login must be one of octo, reader, maint');
        const repo = world.repos.get(body.repo.toLowerCase());
        const pr = repo?.pulls.get(body.number);
        if (!pr) throw new HttpError(404, `No pull request ${body.repo}#${body.number}`, DOCS.root);
        return ok(reviews.addPending(ctx.origin, repo, pr, body.login), 201);
      }
      case 'POST reviews/demo': {
        // The review an author's agent answers (issue #38): `reviewer` requests changes with two
        // line comments, on the first added line of the first two files that have one (the
        // first with a suggestion); with `push: true`, a push then rewrites the line under the
        // first comment only, so GitHub shows that thread outdated and carries the other.
        need(typeof body.repo === 'string', 'repo must be "owner/name"');
        need(Number.isInteger(body.number), 'number must be an integer');
        need(userByLogin(body.reviewer), 'reviewer must be one of octo, reader, maint');
        const repo = world.repos.get(body.repo.toLowerCase());
        const pr = repo?.pulls.get(body.number);
        if (!pr) throw new HttpError(404, `No pull request ${body.repo}#${body.number}`, DOCS.root);
        const targets = pr.files
          .filter((f) => f.patch && f.status !== 'removed')
          .map((f) => ({ path: f.filename, row: patchLines(f.patch).find((l) => l.kind === '+') }))
          .filter((t) => t.row)
          .slice(0, 2);
        need(targets.length === 2, 'the pull request needs two files with added lines');
        const [first, second] = targets;
        const suggestion = `${first.row.text.slice(1)} // reviewed`;
        const review = {
          commit_id: pr.headSha,
          event: 'REQUEST_CHANGES',
          body: 'Two things before this can go in.',
          comments: [
            { path: first.path, line: first.row.new, side: 'RIGHT', body: `Say what this rounds to:\n\n\`\`\`suggestion\n${suggestion}\n\`\`\`` },
            { path: second.path, line: second.row.new, side: 'RIGHT', body: 'Is there a test for this line?' },
          ],
        };
        let result;
        try {
          result = reviews.createReview({ origin: ctx.origin, repo, pr, login: body.reviewer, config }, review);
        } catch (err) {
          if (err instanceof Refused) throw new HttpError(err.status, err.body.message, DOCS.root);
          throw err;
        }
        const out = { review: result.body, comments: review.comments.map(({ path, line }) => ({ path, line })), suggestion: [suggestion] };
        if (body.push === true) {
          pushCounter++;
          const pushed = pushToPull(repo, pr, pushCounter, new Date(now()).toISOString().replace(/\.\d+Z$/, 'Z'), [{ path: first.path, op: 'edit-line', line: first.row.new }]);
          out.push = { old_head_sha: pushed.oldHead, head_sha: pushed.newHead, changed_file: first.path };
        }
        return ok(out, 201);
      }
      case 'POST clock':
        need(Number.isInteger(body.advanceMs) && body.advanceMs >= 0, 'advanceMs must be a non-negative integer');
        clockOffset += body.advanceMs;
        return ok({ offsetMs: clockOffset, now: new Date(now()).toISOString() });
      default:
        throw new HttpError(404, 'Not Found', DOCS.root);
    }
  }

  // ---- listen ---------------------------------------------------------------------------------

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      process.stderr.write(`github-standin: ${err.stack}\n`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end();
    });
  });
  server.on('clientError', (err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8788, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address();
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    host,
    world,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = () => (inline !== undefined ? inline : argv[++i]);
    if (flag === '--port') out.port = Number(value());
    else if (flag === '--host') out.host = value();
    else if (flag === '--repo-dir') out.repoDir = value();
    else if (flag === '--help' || flag === '-h') out.help = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (out.port !== undefined && !(Number.isInteger(out.port) && out.port >= 0 && out.port < 65536)) throw new Error('--port must be 0-65535');
  return out;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`github-standin: ${err.message}\nusage: node tests/standin/github-standin.mjs --port 8788 [--host 127.0.0.1] [--repo-dir DIR]\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write('usage: node tests/standin/github-standin.mjs --port 8788 [--host 127.0.0.1] [--repo-dir DIR]\n');
    process.exit(0);
  }
  try {
    const standin = await startStandin(args);
    for (const warning of standin.world.warnings) process.stderr.write(`github-standin: ${warning}\n`);
    process.stdout.write(`github-standin listening on ${standin.url}\n`);
    const stop = () => standin.close().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  } catch (err) {
    process.stderr.write(`github-standin: failed to start: ${err.message}\n`);
    process.exit(1);
  }
}

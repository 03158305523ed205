// statuses.mjs — commit statuses, as GitHub's REST API keeps them (issue #47): create a status
// on a commit (`POST /repos/{o}/{r}/statuses/{sha}`, 201 with the status), list a ref's statuses
// newest first (`GET /repos/{o}/{r}/commits/{ref}/statuses`, and the legacy
// `GET /repos/{o}/{r}/statuses/{ref}`), and the combined status of a ref (`GET
// /repos/{o}/{r}/commits/{ref}/status`: the latest status of each context and a combined state).
//
// Why: LogiKFlow puts a saved reading order on the pull request as a `LogiKFlow` status with the
// review link; the tests read it back where GitHub shows it, and check that GitHub's refusals
// never fail a save. GitHub's rules kept here: creating needs push access (without it, 404 as
// GitHub answers, so a repository's existence isn't told); `state` is one of error, failure,
// pending, success and `description` at most 140 characters (422 "Validation Failed"); an
// unknown sha is 422 "No commit found for SHA: …"; a token whose App was installed without
// "Commit statuses: Read and write" gets 403 "Resource not accessible by integration" (the
// stand-in's `statusesReadOnly` setting). Kept until `POST /_standin/reset`; at most 1,000 per
// sha and context, as GitHub's docs say.

import { simpleUser } from './shapes.mjs';

const DOCS = {
  create: 'https://docs.github.com/rest/commits/statuses#create-a-commit-status',
  list: 'https://docs.github.com/rest/commits/statuses#list-commit-statuses-for-a-reference',
  combined: 'https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference',
};
const STATES = ['error', 'failure', 'pending', 'success'];
const WRITE_LEVELS = new Set(['push', 'maintain', 'admin']);
const MAX_DESCRIPTION = 140;
const MAX_PER_CONTEXT = 1000;

/** A refusal in GitHub's shape. */
export class StatusRefused extends Error {
  constructor(status, body) {
    super(body.message);
    this.status = status;
    this.body = body;
  }
}

const validationFailed = (field, message) => new StatusRefused(422, {
  message: 'Validation Failed',
  errors: [{ resource: 'Status', code: 'custom', field, message }],
  documentation_url: DOCS.create,
  status: '422',
});

export class StatusBook {
  constructor() {
    this.reset();
  }

  reset() {
    this.byCommit = new Map(); // "owner/repo@sha" (lower-case) -> statuses, oldest first
    this.nextId = 9_000_000;
  }

  of(repo, sha) {
    const key = `${repo.fullName}@${sha}`.toLowerCase();
    if (!this.byCommit.has(key)) this.byCommit.set(key, []);
    return this.byCommit.get(key);
  }

  /**
   * Creates a status on `sha` (already resolved to a full sha, or null when unknown) for `login`
   * at access `level`; answers `{status, body}` or throws a StatusRefused.
   */
  create({ origin, repo, login, level, config, now }, sha, rawSha, body) {
    if (!WRITE_LEVELS.has(level)) {
      throw new StatusRefused(404, { message: 'Not Found', documentation_url: DOCS.create, status: '404' });
    }
    if (config.statusesReadOnly) {
      throw new StatusRefused(403, { message: 'Resource not accessible by integration', documentation_url: DOCS.create, status: '403' });
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new StatusRefused(400, { message: 'Problems parsing JSON', documentation_url: DOCS.create, status: '400' });
    }
    if (!STATES.includes(body.state)) throw validationFailed('state', 'state is not included in the list');
    if (body.description != null && (typeof body.description !== 'string' || [...body.description].length > MAX_DESCRIPTION)) {
      throw validationFailed('description', `description is too long (maximum is ${MAX_DESCRIPTION} characters)`);
    }
    if (body.target_url != null && (typeof body.target_url !== 'string' || !/^https?:\/\//.test(body.target_url))) {
      throw validationFailed('target_url', 'target_url must use http(s) scheme');
    }
    if (!sha) {
      throw new StatusRefused(422, { message: `No commit found for SHA: ${rawSha}`, documentation_url: DOCS.create, status: '422' });
    }
    const context = typeof body.context === 'string' && body.context !== '' ? body.context : 'default';
    const list = this.of(repo, sha);
    if (list.filter((s) => s.context === context).length >= MAX_PER_CONTEXT) {
      throw validationFailed('context', `This SHA and context has reached the maximum number of statuses.`);
    }
    const id = this.nextId++;
    const stamp = new Date(now()).toISOString().replace(/\.\d+Z$/, 'Z');
    const status = {
      url: `${origin}/repos/${repo.fullName}/statuses/${sha}`,
      avatar_url: `https://avatars.githubusercontent.com/u/${simpleUser(origin, login).id}?v=4`,
      id,
      node_id: Buffer.from(`011:StatusContext${id}`).toString('base64'),
      state: body.state,
      description: body.description ?? null,
      target_url: body.target_url ?? null,
      context,
      created_at: stamp,
      updated_at: stamp,
      creator: simpleUser(origin, login),
    };
    list.push(status);
    return { status: 201, body: status };
  }

  /** Every status of `sha`, newest first, as GitHub lists them. */
  list(repo, sha) {
    return sha ? [...this.of(repo, sha)].reverse() : [];
  }

  /** The combined status of `sha`: the latest of each context and the combined state. */
  combined(origin, repo, sha, repositoryShape) {
    const latest = new Map();
    for (const status of this.list(repo, sha)) if (!latest.has(status.context)) latest.set(status.context, status);
    const statuses = [...latest.values()].map(({ creator, ...rest }) => ({ ...rest, required: false }));
    const states = statuses.map((s) => s.state);
    const state = states.some((s) => s === 'error' || s === 'failure') ? 'failure'
      : states.length === 0 || states.includes('pending') ? 'pending' : 'success';
    return {
      state,
      statuses,
      sha,
      total_count: statuses.length,
      repository: repositoryShape,
      commit_url: `${origin}/repos/${repo.fullName}/commits/${sha}`,
      url: `${origin}/repos/${repo.fullName}/commits/${sha}/status`,
    };
  }

  /** What the control API shows: every commit's statuses, oldest first. */
  summary() {
    return Object.fromEntries(this.byCommit);
  }
}

export { DOCS as STATUS_DOCS };

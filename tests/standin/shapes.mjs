// shapes.mjs — JSON bodies in the exact shapes GitHub's REST API returns.
//
// Why: LogiKFlow parses real GitHub responses, so the stand-in must send the same field names,
// nesting and URL conventions. API URLs (`url`, `contents_url`, …) point at the stand-in's own
// origin so a client following them stays local; browser URLs (`html_url`, `blob_url`, …) use
// https://github.com like the real API. Field order follows GitHub's responses.

import { OWNER, permissionsFor, getCommit, userByLogin } from './data.mjs';

const WEB = 'https://github.com';
const DOCS = 'https://docs.github.com/rest';

/** Encodes a repository path for use in a URL, keeping the slashes. */
export const encodePath = (path) => path.split('/').map(encodeURIComponent).join('/');

const nodeId = (kind, id) => Buffer.from(`${kind}${id}`).toString('base64');

/** A GitHub error body: `{ message, documentation_url, status }` (status is a string, as GitHub sends it). */
export function errorBody(status, message, documentationUrl = DOCS) {
  return { message, documentation_url: documentationUrl, status: String(status) };
}

/** The short user object embedded in other resources. */
export function simpleUser(origin, login) {
  const account = userByLogin(login) ?? (login === OWNER.login ? OWNER : { login, id: 0 });
  const type = account === OWNER ? 'Organization' : 'User';
  const api = `${origin}/users/${account.login}`;
  return {
    login: account.login,
    id: account.id,
    node_id: nodeId(type === 'User' ? '04:User' : '012:Organization', account.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${account.id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: `${WEB}/${account.login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type,
    user_view_type: 'public',
    site_admin: false,
  };
}

/** GET /user: the authenticated user. */
export function authenticatedUser(origin, login) {
  const u = userByLogin(login);
  return {
    ...simpleUser(origin, login),
    name: u.name,
    company: '@logikflow',
    blog: '',
    location: null,
    email: u.email,
    hireable: null,
    bio: null,
    twitter_username: null,
    notification_email: u.email,
    public_repos: 2,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: u.created_at,
    updated_at: '2026-01-05T12:00:00Z',
  };
}

/** Repository object; `permissions` is added only when a level is given (GET /repos/{o}/{r}). */
export function repository(origin, repo, level) {
  const api = `${origin}/repos/${repo.fullName}`;
  const mainSha = repo.branches.get(repo.defaultBranch);
  const pushedAt = getCommit(repo, mainSha)?.date ?? repo.createdAt;
  const out = {
    id: repo.id,
    node_id: nodeId('010:Repository', repo.id),
    name: repo.name,
    full_name: repo.fullName,
    private: repo.private,
    owner: simpleUser(origin, repo.owner),
    html_url: `${WEB}/${repo.fullName}`,
    description: repo.description,
    fork: false,
    url: api,
    pulls_url: `${api}/pulls{/number}`,
    contents_url: `${api}/contents/{+path}`,
    compare_url: `${api}/compare/{base}...{head}`,
    commits_url: `${api}/commits{/sha}`,
    created_at: repo.createdAt,
    updated_at: pushedAt,
    pushed_at: pushedAt,
    git_url: `git://github.com/${repo.fullName}.git`,
    clone_url: `${WEB}/${repo.fullName}.git`,
    homepage: null,
    size: 1024,
    stargazers_count: 0,
    watchers_count: 0,
    language: repo.language,
    has_issues: true,
    has_projects: false,
    has_downloads: true,
    has_wiki: false,
    has_pages: false,
    has_discussions: false,
    forks_count: 0,
    archived: false,
    disabled: false,
    open_issues_count: [...repo.pulls.values()].filter((p) => p.state === 'open').length,
    license: null,
    allow_forking: !repo.private,
    is_template: false,
    web_commit_signoff_required: false,
    topics: [],
    visibility: repo.private ? 'private' : 'public',
    forks: 0,
    open_issues: [...repo.pulls.values()].filter((p) => p.state === 'open').length,
    watchers: 0,
    default_branch: repo.defaultBranch,
  };
  if (level) out.permissions = permissionsFor(level);
  return out;
}

function branchRef(origin, repo, ref, sha) {
  return {
    label: `${repo.owner}:${ref}`,
    ref,
    sha,
    user: simpleUser(origin, repo.owner),
    repo: repository(origin, repo),
  };
}

/** Sum of additions/deletions over every changed file (including files beyond the 3,000 cap). */
export function pullTotals(pr) {
  let additions = 0;
  let deletions = 0;
  for (const f of pr.files) {
    additions += f.additions;
    deletions += f.deletions;
  }
  return { additions, deletions };
}

/** GET /repos/{o}/{r}/pulls/{n}; `reviewComments` is how many review comments it has. */
export function pullRequest(origin, repo, pr, reviewComments = 0) {
  const api = `${origin}/repos/${repo.fullName}`;
  const html = `${WEB}/${repo.fullName}/pull/${pr.number}`;
  const id = repo.id * 1000 + pr.number;
  const { additions, deletions } = pullTotals(pr);
  return {
    url: `${api}/pulls/${pr.number}`,
    id,
    node_id: nodeId('011:PullRequest', id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${api}/issues/${pr.number}`,
    number: pr.number,
    state: pr.state,
    locked: false,
    title: pr.title,
    user: simpleUser(origin, pr.author),
    body: pr.body,
    created_at: pr.createdAt,
    updated_at: pr.updatedAt,
    closed_at: null,
    merged_at: null,
    merge_commit_sha: null,
    assignee: null,
    assignees: [],
    requested_reviewers: pr.author === 'octo' ? [] : [simpleUser(origin, 'octo')],
    requested_teams: [],
    labels: [],
    milestone: null,
    draft: pr.draft,
    commits_url: `${api}/pulls/${pr.number}/commits`,
    review_comments_url: `${api}/pulls/${pr.number}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${api}/issues/${pr.number}/comments`,
    statuses_url: `${api}/statuses/${pr.headSha}`,
    head: branchRef(origin, repo, pr.headRef, pr.headSha),
    base: branchRef(origin, repo, pr.base.ref, pr.base.sha),
    _links: {
      self: { href: `${api}/pulls/${pr.number}` },
      html: { href: html },
      issue: { href: `${api}/issues/${pr.number}` },
      comments: { href: `${api}/issues/${pr.number}/comments` },
      review_comments: { href: `${api}/pulls/${pr.number}/comments` },
      review_comment: { href: `${api}/pulls/comments{/number}` },
      commits: { href: `${api}/pulls/${pr.number}/commits` },
      statuses: { href: `${api}/statuses/${pr.headSha}` },
    },
    author_association: pr.author === 'maint' ? 'MEMBER' : 'COLLABORATOR',
    auto_merge: null,
    active_lock_reason: null,
    merged: pr.merged,
    mergeable: true,
    rebaseable: true,
    mergeable_state: 'clean',
    merged_by: null,
    comments: 0,
    review_comments: reviewComments,
    maintainer_can_modify: false,
    commits: pr.commitShas.length,
    additions,
    deletions,
    changed_files: pr.files.length,
  };
}

/** One entry of GET /pulls/{n}/files; `patch` and `previous_filename` only when present. */
export function pullFile(origin, repo, pr, f) {
  const path = encodePath(f.filename);
  const out = {
    sha: f.sha,
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    blob_url: `${WEB}/${repo.fullName}/blob/${pr.headSha}/${path}`,
    raw_url: `${WEB}/${repo.fullName}/raw/${pr.headSha}/${path}`,
    contents_url: `${origin}/repos/${repo.fullName}/contents/${path}?ref=${pr.headSha}`,
  };
  if (f.patch !== undefined) out.patch = f.patch;
  if (f.previous_filename !== undefined) out.previous_filename = f.previous_filename;
  return out;
}

/** Base64 the way the contents API sends it: a newline after every 60 characters. */
export function githubBase64(buffer) {
  const b64 = buffer.toString('base64');
  if (b64 === '') return '';
  return `${b64.match(/.{1,60}/g).join('\n')}\n`;
}

function contentLinks(origin, repo, ref, entry) {
  const path = encodePath(entry.path);
  const self = `${origin}/repos/${repo.fullName}/contents/${path}?ref=${encodeURIComponent(ref)}`;
  const kind = entry.type === 'dir' ? 'trees' : 'blobs';
  const git = `${origin}/repos/${repo.fullName}/git/${kind}/${entry.sha}`;
  const html = `${WEB}/${repo.fullName}/${entry.type === 'dir' ? 'tree' : 'blob'}/${ref}/${path}`;
  return {
    url: self,
    html_url: html,
    git_url: git,
    download_url: entry.type === 'file' ? `https://raw.githubusercontent.com/${repo.fullName}/${ref}/${path}` : null,
    _links: { self, git, html },
  };
}

/** GET /contents/{path} for a file (files over 1 MB get encoding "none" and no content, like GitHub). */
export function fileContents(origin, repo, ref, path, file) {
  const name = path.split('/').pop();
  const links = contentLinks(origin, repo, ref, { type: 'file', path, sha: file.sha });
  const large = file.size > 1024 * 1024;
  return {
    name,
    path,
    sha: file.sha,
    size: file.size,
    url: links.url,
    html_url: links.html_url,
    git_url: links.git_url,
    download_url: links.download_url,
    type: 'file',
    content: large ? '' : githubBase64(file.content),
    encoding: large ? 'none' : 'base64',
    _links: links._links,
  };
}

/** GET /contents/{path} for a directory: an array of entries. */
export function dirContents(origin, repo, ref, entries) {
  return entries.map((e) => {
    const links = contentLinks(origin, repo, ref, e);
    return {
      name: e.name,
      path: e.path,
      sha: e.sha,
      size: e.type === 'file' ? e.size : 0,
      url: links.url,
      html_url: links.html_url,
      git_url: links.git_url,
      download_url: links.download_url,
      type: e.type === 'symlink' ? 'file' : e.type,
      _links: links._links,
    };
  });
}

/** A commit object as embedded in compare and PR-commit listings. */
export function commitObject(origin, repo, sha) {
  const c = getCommit(repo, sha) ?? { sha, parent: null, message: '', author: 'unknown', email: '', date: null };
  const api = `${origin}/repos/${repo.fullName}`;
  const person = { name: c.author, email: c.email, date: c.date };
  return {
    sha,
    node_id: nodeId('06:Commit', sha),
    commit: {
      author: person,
      committer: person,
      message: c.message,
      url: `${api}/git/commits/${sha}`,
      comment_count: 0,
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
    },
    url: `${api}/commits/${sha}`,
    html_url: `${WEB}/${repo.fullName}/commit/${sha}`,
    comments_url: `${api}/commits/${sha}/comments`,
    author: null,
    committer: null,
    parents: c.parent ? [{ sha: c.parent, url: `${api}/commits/${c.parent}`, html_url: `${WEB}/${repo.fullName}/commit/${c.parent}` }] : [],
  };
}

/** GET /compare/{base}...{head}; GitHub lists at most 250 commits here. */
export function comparison(origin, repo, basehead, baseSha, result) {
  const api = `${origin}/repos/${repo.fullName}`;
  return {
    url: `${api}/compare/${basehead}`,
    html_url: `${WEB}/${repo.fullName}/compare/${basehead}`,
    permalink_url: `${WEB}/${repo.fullName}/compare/${repo.owner}:${baseSha.slice(0, 7)}...${repo.owner}:${result.headSha.slice(0, 7)}`,
    diff_url: `${WEB}/${repo.fullName}/compare/${basehead}.diff`,
    patch_url: `${WEB}/${repo.fullName}/compare/${basehead}.patch`,
    base_commit: commitObject(origin, repo, baseSha),
    merge_base_commit: commitObject(origin, repo, result.mergeBase),
    status: result.status,
    ahead_by: result.ahead_by,
    behind_by: result.behind_by,
    total_commits: result.ahead_by,
    commits: result.commits.slice(0, 250).map((sha) => commitObject(origin, repo, sha)),
    files: (result.files ?? []).slice(0, 300),
  };
}

/** POST /app-manifests/{code}/conversions: the new GitHub App, with the secrets GitHub shows once. */
export function appFromManifest(origin, app) {
  return {
    id: app.id,
    slug: app.slug,
    node_id: nodeId('03:Integration', app.id),
    client_id: app.client_id,
    owner: simpleUser(origin, app.owner.login),
    name: app.name,
    description: app.description,
    external_url: app.external_url,
    html_url: `${WEB}/apps/${app.slug}`,
    created_at: app.created_at,
    updated_at: app.updated_at,
    permissions: app.permissions,
    events: app.events,
    installations_count: 0,
    client_secret: app.client_secret,
    webhook_secret: app.webhook_secret,
    pem: app.pem,
  };
}

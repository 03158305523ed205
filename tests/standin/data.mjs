// data.mjs — the GitHub stand-in's demo world: users, tokens, repositories, pull requests,
// commit graphs and file contents, plus the "push to a PR" mutation used by the tests.
//
// Why: LogiKFlow is tested and demoed against this data instead of github.com. It is built once at
// start-up: logikflow/demo #1 and #2 come from real git history of --repo-dir (with a fallback
// that diffs the empty tree against HEAD when there is only one commit, and a synthetic fallback
// when git is unusable); everything else is synthetic or hand-written (see synth.mjs) and fully
// deterministic. Pushes made through the control API live in a separate layer that reset() drops.

import { EMPTY_TREE, topLevel, firstParentChain, diffFiles, readPath, commitExists } from './gitdiff.mjs';
import {
  sha1,
  blobSha,
  commitSha,
  syntheticFiles,
  demoPr3Files,
  privatePr1Files,
  invitesPr123Files,
  invitesPr124Files,
  parsePatch,
  rebuildPatch,
  commentFor,
  fixtureFiles,
  headTextFromPatch,
} from './synth.mjs';
import { readCases } from './measure.mjs';

// ---------------------------------------------------------------------------------------------
// Users and tokens
// ---------------------------------------------------------------------------------------------

/** Demo users. `token` is the fixed personal token each one can use without the OAuth flow. */
export const USERS = {
  octo: {
    login: 'octo',
    id: 1001,
    name: 'Octo Reviewer',
    email: 'octo@logikflow.invalid',
    token: 'gho_standin_octo',
    created_at: '2019-03-14T09:00:00Z',
  },
  reader: {
    login: 'reader',
    id: 1002,
    name: 'Rita Reader',
    email: null,
    token: 'gho_standin_reader',
    created_at: '2020-06-01T12:00:00Z',
  },
  maint: {
    login: 'maint',
    id: 1003,
    name: 'Max Maintainer',
    email: 'maint@logikflow.invalid',
    token: 'gho_standin_maint',
    created_at: '2018-11-20T08:30:00Z',
  },
};

/** The demo users as built, so a reset undoes renames and claims. */
const ORIGINAL_USERS = Object.fromEntries(Object.entries(USERS).map(([login, user]) => [login, { ...user }]));

/**
 * A user renames their account (GitHub lets anyone do it): same id and token, the new login; the
 * old login is free for another account to claim.
 */
export function renameUser(login, to) {
  USERS[to] = { ...USERS[login], login: to };
  delete USERS[login];
  return USERS[to];
}

/** Another account claims a free login: a new user with its own id and fixed token. */
export function claimLogin(login, id) {
  USERS[login] = { login, id, name: null, email: null, token: `gho_standin_${login}_${id}`, created_at: '2026-01-01T00:00:00Z' };
  return USERS[login];
}

/** Undoes every rename and claim. */
export function restoreUsers() {
  for (const login of Object.keys(USERS)) delete USERS[login];
  for (const [login, user] of Object.entries(ORIGINAL_USERS)) USERS[login] = { ...user };
}

/** The demo user with this login, or undefined (safe for any string, e.g. "__proto__"). */
export function userByLogin(login) {
  return typeof login === 'string' && Object.hasOwn(USERS, login) ? USERS[login] : undefined;
}

/** The organisation that owns every demo repository. */
export const OWNER = { login: 'logikflow', id: 9001, name: 'LogiKFlow', type: 'Organization' };

/** Scopes reported (x-oauth-scopes) for the fixed tokens. */
export const STATIC_SCOPES = 'repo, read:user';

/** GitHub permission levels, weakest first, and the `permissions` object each one implies. */
const LEVELS = ['pull', 'triage', 'push', 'maintain', 'admin'];
export function permissionsFor(level) {
  const rank = LEVELS.indexOf(level);
  return {
    admin: rank >= 4,
    maintain: rank >= 3,
    push: rank >= 2,
    triage: rank >= 1,
    pull: rank >= 0,
  };
}

/** Permission level of `login` on `repo`, or null when the repository is invisible to them. */
export function accessLevel(repo, login) {
  const explicit = Object.hasOwn(repo.access, login) ? repo.access[login] : undefined;
  if (explicit) return explicit;
  return repo.private ? null : 'pull';
}

// ---------------------------------------------------------------------------------------------
// Building the world
// ---------------------------------------------------------------------------------------------

const BOT = 'LogiKFlow stand-in <standin@logikflow.invalid>';

/** Adds a linear chain of synthetic commits on top of `parent`; returns their SHAs, oldest first. */
function addSyntheticCommits(repo, seed, parent, messages, startDate, author = USERS.maint) {
  const shas = [];
  let prev = parent;
  messages.forEach((message, i) => {
    const date = new Date(Date.parse(startDate) + i * 37 * 60 * 1000).toISOString().replace('.000Z', 'Z');
    const sha = commitSha({
      tree: sha1(`${seed}:tree:${i}`),
      parents: prev ? [prev] : [],
      author: `${author.name} <${author.login}@logikflow.invalid>`,
      date,
      message,
    });
    repo.commits.set(sha, { sha, parent: prev, message, author: author.name, email: `${author.login}@logikflow.invalid`, date });
    shas.push(sha);
    prev = sha;
  });
  return shas;
}

function newRepo({ id, name, isPrivate, description, language, access, createdAt }) {
  return {
    id,
    owner: OWNER.login,
    name,
    fullName: `${OWNER.login}/${name}`,
    private: isPrivate,
    description,
    language,
    access,
    createdAt,
    defaultBranch: 'main',
    branches: new Map(),
    gitDir: null,
    commits: new Map(), // sha -> { sha, parent, message, author, email, date } (single parent)
    overlays: new Map(), // sha -> { parent, files: Map<path, string|null> } (contents at a commit)
    pulls: new Map(),
    pushed: { commits: new Map(), overlays: new Map() }, // dynamic layer, cleared by reset()
    contentCache: new Map(),
    gitCommitCache: new Map(),
  };
}

/** Registers a pull request; `files`/`commitShas`/`headSha` are the pristine values. */
function addPull(repo, def) {
  const pr = {
    state: 'open',
    draft: false,
    merged: false,
    ...def,
    orig: { headSha: def.headSha, files: def.files, commitShas: def.commitShas, updatedAt: def.updatedAt },
  };
  resetPull(pr);
  repo.pulls.set(pr.number, pr);
  return pr;
}

function resetPull(pr) {
  pr.headSha = pr.orig.headSha;
  pr.files = pr.orig.files;
  pr.commitShas = pr.orig.commitShas;
  pr.updatedAt = pr.orig.updatedAt;
}

const overlay = (parent, files = {}) => ({ parent, files: new Map(Object.entries(files)) });

/** logikflow/demo: PRs 1 and 2 from real git history, PR 3 hand-written. */
function buildDemo(repoDir, warnings) {
  const repo = newRepo({
    id: 700001,
    name: 'demo',
    isPrivate: false,
    description: 'LogiKFlow demo repository (served by the GitHub stand-in from real git history)',
    language: 'Rust',
    access: { octo: 'push', maint: 'maintain' },
    createdAt: '2024-02-01T10:00:00Z',
  });

  // A root commit with the empty tree, so "the whole project as an added PR" has a commit base.
  const rootDate = '2024-02-01T10:00:00Z';
  const root = commitSha({ tree: EMPTY_TREE, author: BOT, date: rootDate, message: 'Empty root (GitHub stand-in)' });
  repo.commits.set(root, { sha: root, parent: null, message: 'Empty root (GitHub stand-in)', author: 'LogiKFlow stand-in', email: 'standin@logikflow.invalid', date: rootDate });
  repo.overlays.set(root, overlay(null));

  let chain = [];
  const top = repoDir ? topLevel(repoDir) : null;
  if (top) {
    try {
      chain = firstParentChain(top);
    } catch (err) {
      warnings.push(`git log failed in ${top}: ${err.message.split('\n')[0]}`);
    }
  } else {
    warnings.push(`no git repository at ${repoDir}; demo PRs 1 and 2 are synthetic`);
  }

  let mainSha;
  if (chain.length > 0) {
    repo.gitDir = top;
    const oldestFirst = [...chain].reverse();
    oldestFirst.forEach((c, i) => {
      repo.commits.set(c.sha, {
        sha: c.sha,
        parent: i === 0 ? root : oldestFirst[i - 1].sha,
        message: c.message,
        author: c.author,
        email: c.email,
        date: c.date,
      });
    });
    const head = chain[0];
    mainSha = head.sha;
    const subject = (m) => m.split('\n')[0];

    // PR 1: the whole project, empty tree -> HEAD.
    const allFiles = diffFiles(top, EMPTY_TREE, head.sha);
    addPull(repo, {
      number: 1,
      title: 'Import the whole LogiKFlow project',
      body:
        `Every file of the project at \`${head.sha.slice(0, 7)}\` as one pull request ` +
        '(empty tree → HEAD), built by the GitHub stand-in from real git history.',
      author: 'octo',
      base: { ref: 'main', sha: root },
      headRef: 'standin/whole-project',
      headSha: head.sha,
      files: allFiles,
      commitShas: oldestFirst.map((c) => c.sha),
      createdAt: oldestFirst[0].date,
      updatedAt: head.date,
    });

    // PR 2: the most recent commits (up to 5), or the same fallback as PR 1 with one commit.
    const k = Math.min(5, chain.length - 1);
    let pr2 = null;
    if (k >= 1) {
      const files = diffFiles(top, chain[k].sha, head.sha);
      if (files.length > 0) {
        const commits = chain.slice(0, k).reverse();
        pr2 = {
          title: k === 1 ? subject(head.message) : `Recent work: ${k} commits up to ${head.sha.slice(0, 7)}`,
          body: `The latest ${k} commit(s) of the project:\n\n${commits.map((c) => `- ${subject(c.message)}`).join('\n')}`,
          base: { ref: 'main', sha: chain[k].sha },
          files,
          commitShas: commits.map((c) => c.sha),
          createdAt: commits[0].date,
        };
      }
    }
    if (!pr2) {
      pr2 = {
        title: `Recent work up to ${head.sha.slice(0, 7)} (single-commit fallback)`,
        body: 'The repository has one commit (or a shallow history), so this PR diffs the empty tree against HEAD.',
        base: { ref: 'main', sha: root },
        files: allFiles,
        commitShas: oldestFirst.map((c) => c.sha),
        createdAt: oldestFirst[0].date,
      };
    }
    addPull(repo, { number: 2, author: 'octo', headRef: 'standin/recent-commits', headSha: head.sha, updatedAt: head.date, ...pr2 });
  } else {
    // No usable git: synthetic stand-ins for PRs 1 and 2 so the stand-in still works.
    const [c1, c2] = addSyntheticCommits(repo, 'demo:fallback', root, ['Initial import', 'Recent work'], '2024-02-02T09:00:00Z');
    repo.overlays.set(c1, overlay(root));
    repo.overlays.set(c2, overlay(c1));
    mainSha = c2;
    const files = syntheticFiles('logikflow/demo#1', 24);
    addPull(repo, { number: 1, title: 'Import the whole project (synthetic: git unavailable)', body: 'git was not usable at start-up.', author: 'octo', base: { ref: 'main', sha: root }, headRef: 'standin/whole-project', headSha: c2, files, commitShas: [c1, c2], createdAt: '2024-02-02T09:00:00Z', updatedAt: '2024-02-02T09:37:00Z' });
    addPull(repo, { number: 2, title: 'Recent work (synthetic: git unavailable)', body: 'git was not usable at start-up.', author: 'octo', base: { ref: 'main', sha: c1 }, headRef: 'standin/recent-commits', headSha: c2, files: syntheticFiles('logikflow/demo#2', 6), commitShas: [c2], createdAt: '2024-02-02T09:37:00Z', updatedAt: '2024-02-02T09:37:00Z' });
  }
  repo.branches.set('main', mainSha);

  // PR 3: hand-written. Its base is one commit on top of main that adds the repository's
  // LogiKFlow conventions; the head adds two commits.
  const mainDate = repo.commits.get(mainSha).date;
  const start = new Date(Date.parse(mainDate) + 3600 * 1000).toISOString().replace('.000Z', 'Z');
  const [base3, ...heads3] = addSyntheticCommits(
    repo,
    'demo#3',
    mainSha,
    [
      'Add LogiKFlow settings and .gitattributes',
      'Skip vendored files when ordering a review',
      'Rename Diagram to FlowGraph and add order tests',
    ],
    start,
  );
  repo.overlays.set(
    base3,
    overlay(mainSha, {
      '.github/logikflow.yml': '# LogiKFlow settings for this repository\ndiagrams: always\n',
      '.gitattributes': '# Generated code is collapsed in reviews\ngen/** linguist-generated\n*.png binary\n',
    }),
  );
  repo.overlays.set(heads3[0], overlay(base3));
  repo.overlays.set(heads3[1], overlay(heads3[0]));
  addPull(repo, {
    number: 3,
    title: 'Skip vendored files in the review order; rename Diagram to FlowGraph',
    body:
      'Vendored files are now skipped like generated ones, the flow `Diagram` becomes `FlowGraph`, ' +
      'and the ordering gets tests.\n\n- [x] tests\n- [ ] docs screenshot review',
    author: 'maint',
    base: { ref: 'main', sha: base3 },
    headRef: 'feature/review-order',
    headSha: heads3[1],
    files: demoPr3Files(),
    commitShas: heads3,
    createdAt: repo.commits.get(heads3[0]).date,
    updatedAt: repo.commits.get(heads3[1]).date,
  });
  return repo;
}

/** logikflow/big: synthetic PRs with 320, 3,200 and 30 changed files. */
function buildBig() {
  const repo = newRepo({
    id: 700002,
    name: 'big',
    isPrivate: false,
    description: 'Large synthetic pull requests for paging and the 3,000-file limit',
    language: 'TypeScript',
    access: { octo: 'push', maint: 'maintain' },
    createdAt: '2023-05-10T08:00:00Z',
  });
  // Changed files' contents at a pull request's head come from their patches (syntheticHeadFile).
  repo.synthetic = true;
  const main = addSyntheticCommits(repo, 'big:main', null, ['Initial commit', 'Vendor dependencies', 'Add LogiKFlow settings', 'Bump toolchain'], '2025-01-06T09:00:00Z');
  repo.overlays.set(main[0], overlay(null, { '.gitattributes': 'vendor/** linguist-vendored\ngen/** linguist-generated\n*.png binary\n' }));
  repo.overlays.set(main[1], overlay(main[0]));
  repo.overlays.set(main[2], overlay(main[1], { '.github/logikflow.yml': '# LogiKFlow settings\ndiagrams: auto\nmax_diagram_nodes: 40\n' }));
  repo.overlays.set(main[3], overlay(main[2]));
  repo.branches.set('main', main[3]);

  const specs = [
    { number: 1, count: 320, base: main[3], commits: 4, title: 'Migrate services to the new queue client', ref: 'feature/queue-client' },
    { number: 2, count: 3200, base: main[2], commits: 17, title: 'Regenerate API bindings and reformat everything', ref: 'chore/regenerate-all' },
    { number: 3, count: 30, base: main[1], commits: 2, title: 'Tidy the billing handlers', ref: 'fix/billing-tidy' },
  ];
  specs.forEach((spec, idx) => {
    const seed = `logikflow/big#${spec.number}`;
    const messages = Array.from({ length: spec.commits }, (_, i) => `${spec.title} (part ${i + 1}/${spec.commits})`);
    const shas = addSyntheticCommits(repo, seed, spec.base, messages, `2025-02-${String(10 + idx * 3).padStart(2, '0')}T10:00:00Z`);
    let parent = spec.base;
    for (const sha of shas) {
      repo.overlays.set(sha, overlay(parent));
      parent = sha;
    }
    addPull(repo, {
      number: spec.number,
      title: spec.title,
      body: `Synthetic pull request with ${spec.count} changed files (GitHub stand-in).`,
      author: 'maint',
      base: { ref: 'main', sha: spec.base },
      headRef: spec.ref,
      headSha: shas[shas.length - 1],
      files: syntheticFiles(seed, spec.count),
      commitShas: shas,
      createdAt: repo.commits.get(shas[0]).date,
      updatedAt: repo.commits.get(shas[shas.length - 1]).date,
    });
  });
  return repo;
}

/** logikflow/private: visible to octo (push) and maint (maintain) only. */
function buildPrivate() {
  const repo = newRepo({
    id: 700003,
    name: 'private',
    isPrivate: true,
    description: 'Private billing engine (only octo and maint can see it)',
    language: 'Rust',
    access: { octo: 'push', maint: 'maintain' },
    createdAt: '2022-09-01T07:00:00Z',
  });
  const [root] = addSyntheticCommits(repo, 'private:main', null, ['Initial billing engine'], '2025-03-03T08:00:00Z');
  repo.overlays.set(
    root,
    overlay(null, {
      '.github/logikflow.yml': '# LogiKFlow settings\ndiagrams: never\n',
      '.gitattributes': '*.snap linguist-generated\n',
      'README.md': '# billing\n\nInternal billing engine. Not for public release.\n',
    }),
  );
  repo.branches.set('main', root);
  const shas = addSyntheticCommits(repo, 'logikflow/private#1', root, ['Round invoice totals once', 'Add invoice rounding test'], '2025-03-04T09:00:00Z');
  repo.overlays.set(shas[0], overlay(root));
  repo.overlays.set(shas[1], overlay(shas[0]));
  addPull(repo, {
    number: 1,
    title: 'Round invoice totals once instead of per line',
    body: 'Per-line rounding lost up to a cent per line. Fixes #12.',
    author: 'maint',
    base: { ref: 'main', sha: root },
    headRef: 'fix/rounding',
    headSha: shas[1],
    files: privatePr1Files(),
    commitShas: shas,
    createdAt: repo.commits.get(shas[0]).date,
    updatedAt: repo.commits.get(shas[1]).date,
  });
  return repo;
}

/** logikflow/invites: the MCP reference's own examples (PR 123: the example order; PR 124: the
 * example files and diagram). No conventions file, so the diagram preference is `ask`. */
function buildInvites() {
  const repo = newRepo({
    id: 700004,
    name: 'invites',
    isPrivate: false,
    description: 'Team invites, as in the MCP reference examples',
    language: 'TypeScript',
    access: { octo: 'push', maint: 'maintain', reader: 'pull' },
    createdAt: '2023-05-01T07:00:00Z',
  });
  const [root] = addSyntheticCommits(repo, 'invites:main', null, ['Initial app'], '2025-04-01T08:00:00Z');
  repo.overlays.set(root, overlay(null, { 'README.md': '# app\n' }));
  repo.branches.set('main', root);
  for (const [number, files, title] of [
    [123, invitesPr123Files(), 'Add team invites'],
    [124, invitesPr124Files(), 'Add team invites with routes and tests'],
  ]) {
    const shas = addSyntheticCommits(repo, `logikflow/invites#${number}`, root, [title], '2025-04-02T09:00:00Z');
    repo.overlays.set(shas[0], overlay(root));
    addPull(repo, {
      number,
      title,
      body: 'Adds team invites behind the `invitesEnabled` flag.',
      author: 'octo',
      base: { ref: 'main', sha: root },
      headRef: 'team-invites',
      headSha: shas[0],
      files,
      commitShas: shas,
      createdAt: repo.commits.get(shas[0]).date,
      updatedAt: repo.commits.get(shas[0]).date,
    });
  }
  return repo;
}

/** logikflow/fixtures: the hand-labelled pull requests of tests/data/hints/measure (issue #16),
 * one PR per case folder in name order, each with its build files at its head. */
function buildFixtures() {
  const repo = newRepo({
    id: 700005,
    name: 'fixtures',
    isPrivate: false,
    description: 'Hand-labelled pull requests that measure reading hints',
    language: 'Go',
    access: { octo: 'push', maint: 'maintain', reader: 'pull' },
    createdAt: '2024-06-01T07:00:00Z',
  });
  const [root] = addSyntheticCommits(repo, 'fixtures:main', null, ['Initial commit'], '2025-06-01T08:00:00Z');
  repo.overlays.set(root, overlay(null, { 'README.md': '# fixtures\n' }));
  repo.branches.set('main', root);
  readCases().forEach((fixture, i) => {
    const number = i + 1;
    const [head] = addSyntheticCommits(repo, `logikflow/fixtures#${number}`, root, [fixture.name], '2025-06-02T09:00:00Z');
    repo.overlays.set(head, overlay(root, fixture.configs));
    addPull(repo, {
      number,
      title: fixture.name,
      body: 'A hand-labelled pull request (tests/data/hints/measure).',
      author: 'octo',
      base: { ref: 'main', sha: root },
      headRef: fixture.name,
      headSha: head,
      files: fixtureFiles(`logikflow/fixtures#${number}`, fixture.files),
      commitShas: [head],
      createdAt: repo.commits.get(head).date,
      updatedAt: repo.commits.get(head).date,
    });
  });
  return repo;
}

/** logikflow/hostile: issue #44's attack as a pull request. PR 1 changes one small file, and
 * `reader` (read-only) left 60 review comments of 65,000 characters (GitHub's limit is 65,536),
 * each one unbroken run, on its one added line, one carrying U+202E (comments.mjs). */
function buildHostile() {
  const repo = newRepo({
    id: 700006,
    name: 'hostile',
    isPrivate: false,
    description: 'A pull request with hostile review comments (issue #44)',
    language: 'JavaScript',
    access: { octo: 'push', maint: 'maintain', reader: 'pull' },
    createdAt: '2025-07-01T07:00:00Z',
  });
  const [root] = addSyntheticCommits(repo, 'hostile:main', null, ['Initial commit'], '2025-07-01T08:00:00Z');
  repo.overlays.set(root, overlay(null, { 'README.md': '# hostile\n', 'index.js': 'export const a = 1;\n' }));
  repo.branches.set('main', root);
  const [head] = addSyntheticCommits(repo, 'logikflow/hostile#1', root, ['Change a'], '2025-07-02T09:00:00Z');
  repo.overlays.set(head, overlay(root));
  addPull(repo, {
    number: 1,
    title: 'Change a',
    body: 'One small change; its review comments are hostile.',
    author: 'octo',
    base: { ref: 'main', sha: root },
    headRef: 'change-a',
    headSha: head,
    files: fixtureFiles('logikflow/hostile#1', [{
      filename: 'index.js',
      status: 'modified',
      hunks: [{ oldStart: 1, lines: ['-export const a = 1;', '+export const a = 2;'] }],
    }]),
    commitShas: [head],
    createdAt: repo.commits.get(head).date,
    updatedAt: repo.commits.get(head).date,
  });
  return repo;
}

/**
 * Builds every repository. Returns `{ repos: Map<fullName, repo>, byId: Map<id, repo>, warnings,
 * buildMs }`. `repoDir` is where real git history is read from (any directory inside a work tree).
 */
export function buildWorld({ repoDir }) {
  const started = Date.now();
  const warnings = [];
  const list = [buildDemo(repoDir, warnings), buildBig(), buildPrivate(), buildInvites(), buildFixtures(), buildHostile()];
  const repos = new Map(list.map((r) => [r.fullName.toLowerCase(), r]));
  const byId = new Map(list.map((r) => [r.id, r]));
  return { repos, byId, warnings, buildMs: Date.now() - started };
}

// ---------------------------------------------------------------------------------------------
// Queries over a repository
// ---------------------------------------------------------------------------------------------

/** Commit record for a SHA (pushed layer first), or undefined. */
export function getCommit(repo, sha) {
  return repo.pushed.commits.get(sha) ?? repo.commits.get(sha);
}

function isGitCommit(repo, sha) {
  if (!repo.gitDir) return false;
  if (!repo.gitCommitCache.has(sha)) repo.gitCommitCache.set(sha, commitExists(repo.gitDir, sha));
  return repo.gitCommitCache.get(sha);
}

/** Resolves a branch name, PR head branch, full SHA or unique SHA prefix to a full SHA, or null. */
export function resolveRef(repo, ref) {
  if (ref === undefined || ref === null || ref === '' || ref === 'HEAD') return repo.branches.get(repo.defaultBranch);
  const name = String(ref).replace(/^refs\/heads\//, '');
  if (repo.branches.has(name)) return repo.branches.get(name);
  for (const pr of repo.pulls.values()) if (pr.headRef === name) return pr.headSha;
  const lower = name.toLowerCase();
  if (/^[0-9a-f]{40}$/.test(lower)) {
    if (getCommit(repo, lower) || repo.overlays.has(lower) || isGitCommit(repo, lower)) return lower;
    return null;
  }
  if (/^[0-9a-f]{7,39}$/.test(lower)) {
    const matches = new Set();
    for (const map of [repo.commits, repo.pushed.commits]) {
      for (const sha of map.keys()) if (sha.startsWith(lower)) matches.add(sha);
    }
    if (matches.size === 1) return [...matches][0];
  }
  return null;
}

/**
 * File or directory at `path` in commit `sha`: `{ type:'file', content: Buffer, sha, size }`,
 * `{ type:'dir', entries }` or null. Overlays (synthetic contents) win; otherwise real git.
 */
export function readContents(repo, sha, path) {
  const clean = String(path).replace(/^\/+|\/+$/g, '');
  const key = `${sha}:${clean}`;
  if (repo.contentCache.has(key) && !repo.pushed.overlays.has(sha)) return repo.contentCache.get(key);
  let result = null;
  let cur = sha;
  const seen = new Set();
  let resolved = false;
  while (cur && !seen.has(cur)) {
    seen.add(cur);
    const ov = repo.pushed.overlays.get(cur) ?? repo.overlays.get(cur);
    if (!ov) break;
    if (ov.files.has(clean)) {
      const text = ov.files.get(clean);
      if (text !== null) {
        const content = Buffer.from(text, 'utf8');
        result = { type: 'file', content, sha: blobSha(content), size: content.length };
      }
      resolved = true;
      break;
    }
    cur = ov.parent;
  }
  if (!resolved && cur && repo.gitDir && isGitCommit(repo, cur)) result = readPath(repo.gitDir, cur, clean);
  if (!repo.pushed.overlays.has(sha)) repo.contentCache.set(key, result);
  return result;
}

/**
 * The contents of a file a synthetic pull request (`logikflow/big`) changes, at that pull request's
 * current head, made from its patch (`headTextFromPatch`); null for any other repository, commit
 * or path, and for removed files and files without a patch.
 */
export function syntheticHeadFile(repo, sha, path) {
  if (!repo.synthetic) return null;
  const clean = String(path).replace(/^\/+|\/+$/g, '');
  for (const pr of repo.pulls.values()) {
    if (pr.headSha !== sha) continue;
    const file = pr.files.find((f) => f.filename === clean);
    if (!file || !file.patch || file.status === 'removed') return null;
    const content = Buffer.from(headTextFromPatch(file.patch), 'utf8');
    return { type: 'file', content, sha: blobSha(content), size: content.length };
  }
  return null;
}

/**
 * Compares two commits on the single-parent commit graph like GET /compare/{base}...{head}.
 * Returns `{ status, ahead_by, behind_by, mergeBase, commits }` (commits oldest first), or null
 * when the two have no common ancestor.
 */
export function compareCommits(repo, base, head) {
  const lineage = (sha) => {
    const out = [];
    const seen = new Set();
    let cur = sha;
    while (cur && !seen.has(cur)) {
      seen.add(cur);
      out.push(cur);
      cur = getCommit(repo, cur)?.parent ?? null;
    }
    return out;
  };
  const fromHead = lineage(head);
  const fromBase = lineage(base);
  const baseIndex = new Map(fromBase.map((sha, i) => [sha, i]));
  const aheadBy = fromHead.findIndex((sha) => baseIndex.has(sha));
  if (aheadBy < 0) return null;
  const mergeBase = fromHead[aheadBy];
  const behindBy = baseIndex.get(mergeBase);
  const status = aheadBy === 0 && behindBy === 0 ? 'identical' : behindBy === 0 ? 'ahead' : aheadBy === 0 ? 'behind' : 'diverged';
  return { status, ahead_by: aheadBy, behind_by: behindBy, mergeBase, commits: fromHead.slice(0, aheadBy).reverse() };
}

// ---------------------------------------------------------------------------------------------
// Mutations (control API)
// ---------------------------------------------------------------------------------------------

/**
 * Simulates a push to a PR: a new head commit whose SHA is sha1(old head + ":push:" + counter),
 * and exactly one hunk of one file changed: one added line in the last hunk of the first file
 * (in path order) that has a patch, is not removed, is not under gen/ or vendor/ and whose
 * language has line comments (falling back to any file with a patch).
 * Returns `{ oldHead, newHead, file }`.
 */
export function pushToPull(repo, pr, counter, nowIso, edits) {
  const oldHead = pr.headSha;
  const newHead = sha1(`${oldHead}:push:${counter}`);
  const message = `Follow-up push ${counter} to #${pr.number}`;
  repo.pushed.commits.set(newHead, { sha: newHead, parent: oldHead, message, author: USERS.octo.name, email: USERS.octo.email, date: nowIso, files: [] });
  repo.pushed.overlays.set(newHead, overlay(oldHead));
  if (edits) return scriptedPush(repo, pr, counter, nowIso, edits, oldHead, newHead);

  const candidates = pr.files
    .map((f, i) => ({ f, i }))
    .filter(({ f }) => f.patch && f.status !== 'removed' && parsePatch(f.patch).length > 0);
  // Prefer hand-written source (not generated/vendored code) whose language has line comments.
  const authored = ({ f }) => commentFor(f.filename) && !/(^|\/)(gen|vendor)\//.test(f.filename);
  const chosen = candidates.find(authored) ?? candidates.find(({ f }) => commentFor(f.filename)) ?? candidates[0];
  let changed = null;
  if (chosen) {
    const { f, i } = chosen;
    const hunks = parsePatch(f.patch);
    const hunk = hunks[hunks.length - 1];
    const comment = commentFor(f.filename);
    const lines = hunk.lines;
    const lastPlus = lines.map((l) => l[0]).lastIndexOf('+');
    const lastChange = Math.max(lastPlus, lines.map((l) => l[0]).lastIndexOf('-'));
    const firstChange = lines.findIndex((l) => l[0] === '+' || l[0] === '-');
    let at = lastChange + 1;
    if (lastChange < 0 || (lines[at] && lines[at][0] === '\\')) at = firstChange < 0 ? lines.length : firstChange;
    // Indent like the following line (or the last changed line when nothing follows).
    const ref = [lines[at], lines[lastChange]].find((l) => l && l[0] !== '\\' && l.trim().length > 1) ?? ' ';
    const indent = /^[ +\-]([ \t]*)/.exec(ref)?.[1] ?? '';
    const text = comment ? `${comment} Follow-up push ${counter}: address review feedback` : `Follow-up push ${counter}: address review feedback`;
    lines.splice(at, 0, `+${indent}${text}`);
    const updated = {
      ...f,
      sha: sha1(`${f.sha}:push:${counter}`),
      patch: rebuildPatch(hunks),
      additions: f.additions + 1,
    };
    pr.files = pr.files.slice();
    pr.files[i] = updated;
    changed = updated.filename;
  }
  pr.headSha = newHead;
  pr.commitShas = [...pr.commitShas, newHead];
  pr.updatedAt = nowIso;
  if (changed) repo.pushed.commits.get(newHead).files.push(changed);
  return { oldHead, newHead, file: changed };
}

/**
 * A push that edits named files' patches, for tests of review state across pushes. Each edit is
 * `{ path, op }`: `grow` adds a line to the file's first hunk (its content, so its change id,
 * changes); `add-hunk` appends a new hunk after the last one; `shift` moves every hunk down by
 * three lines without changing what it changes (as an edit above it in the file would);
 * `edit-line` (with `line`) rewrites the added line with that number at head.
 */
function scriptedPush(repo, pr, counter, nowIso, edits, oldHead, newHead) {
  const files = pr.files.slice();
  const changed = [];
  for (const edit of edits) {
    const i = files.findIndex((f) => f.filename === edit.path);
    if (i < 0 || !files[i].patch) throw new Error(`no file with a patch named ${edit.path}`);
    const f = files[i];
    const hunks = parsePatch(f.patch);
    let additions = f.additions;
    if (edit.op === 'grow') {
      const lines = hunks[0].lines;
      const at = lines.findIndex((l) => l[0] === '+' || l[0] === '-');
      lines.splice(at < 0 ? lines.length : at + 1, 0, `+// grown by push ${counter}`);
      additions += 1;
    } else if (edit.op === 'add-hunk') {
      const last = hunks[hunks.length - 1];
      const end = last.newStart + last.lines.filter((l) => l[0] !== '-').length + 10;
      const oldEnd = last.oldStart + last.lines.filter((l) => l[0] !== '+').length + 10;
      hunks.push({ oldStart: oldEnd, newStart: end, context: '', lines: [`+// added by push ${counter}`] });
      additions += 1;
    } else if (edit.op === 'shift') {
      for (const h of hunks) h.newStart += 3;
    } else if (edit.op === 'edit-line') {
      if (!editLine(hunks, Number(edit.line), counter)) throw new Error(`no added line ${edit.line} in ${edit.path}`);
    } else {
      throw new Error(`unknown edit ${edit.op}: grow, add-hunk, shift or edit-line`);
    }
    files[i] = { ...f, sha: sha1(`${f.sha}:push:${counter}`), patch: rebuildPatch(hunks), additions };
    changed.push(f.filename);
  }
  pr.files = files;
  pr.headSha = newHead;
  pr.commitShas = [...pr.commitShas, newHead];
  pr.updatedAt = nowIso;
  repo.pushed.commits.get(newHead).files.push(...changed);
  return { oldHead, newHead, file: changed[0] ?? null, files: changed };
}

/**
 * Rewrites the added line numbered `line` at head (`edit-line`): the lines under a review comment
 * on it change, and so does its hunk's content (and change id). Returns whether there was one.
 */
function editLine(hunks, line, counter) {
  for (const hunk of hunks) {
    let number = hunk.newStart;
    for (let k = 0; k < hunk.lines.length; k++) {
      const text = hunk.lines[k];
      if (text[0] === '-' || text[0] === '\\') continue;
      if (number === line && text[0] === '+') {
        hunk.lines[k] = `+${text.slice(1).trimEnd()} (changed by push ${counter})`;
        return true;
      }
      number++;
    }
  }
  return false;
}

/** The files the pushed commits between `base` and `head` changed (pushes record them). */
export function pushedFilesBetween(repo, commits) {
  const out = new Set();
  for (const sha of commits) for (const file of repo.pushed.commits.get(sha)?.files ?? []) out.add(file);
  return [...out].sort();
}

/** Drops every pushed commit and restores each PR to its start-up state. */
export function resetWorld(world) {
  for (const repo of world.repos.values()) {
    repo.pushed.commits.clear();
    repo.pushed.overlays.clear();
    for (const pr of repo.pulls.values()) resetPull(pr);
  }
}

// standin.test.mjs — node:test suite for the GitHub stand-in (tests/standin/github-standin.mjs).
//
// Why: LogiKFlow's integration tests and local demos trust this stand-in to behave like GitHub,
// so its shapes, headers, paging, 3,000-file cap, contents, compare, pushes, faults, request log
// and OAuth flow are checked here against a real child process started on a free port.
// Run: node --test tests/standin/standin.test.mjs

import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { spawn, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./github-standin.mjs', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const UA = 'logikflow-standin-tests';
const TOKENS = { octo: 'gho_standin_octo', reader: 'gho_standin_reader', maint: 'gho_standin_maint' };
const BAD_CREDENTIALS = { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' };

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Starts the stand-in as a child process on a free port; resolves once the ready line appears. */
function startStandin({ args = [], env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, '--port', '0', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`stand-in did not start: ${stderr}`)), 20000);
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /^github-standin listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
      if (m && !handle.url) {
        clearTimeout(timer);
        handle.url = m[1];
        resolve(handle);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!handle.url) reject(new Error(`stand-in exited with ${code}: ${stderr}`));
    });
    const handle = {
      child,
      url: null,
      stdout: () => stdout,
      stderr: () => stderr,
      stop: () =>
        new Promise((res) => {
          if (child.exitCode !== null) return res();
          child.once('exit', () => res());
          child.kill('SIGTERM');
        }),
    };
  });
}

/** A client bound to one stand-in: REST calls (`api`), control calls (`ctl`) and raw requests. */
function clientFor(base) {
  const api = async (path, { token = TOKENS.octo, method = 'GET', headers = {}, body, redirect = 'manual' } = {}) => {
    const h = { 'user-agent': UA, accept: 'application/vnd.github+json', ...headers };
    if (token) h.authorization = `Bearer ${token}`;
    const res = await fetch(`${base}${path}`, { method, headers: h, body, redirect });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
  const ctl = async (path, body, method = body === undefined ? 'GET' : 'POST') => {
    const res = await fetch(`${base}/_standin${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  /** node:http request without fetch's defaults (no User-Agent unless given). */
  const raw = (path, { method = 'GET', headers = {} } = {}) =>
    new Promise((resolve, reject) => {
      const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
        let data = '';
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: data }));
      });
      req.on('error', reject);
      req.end();
    });
  return { api, ctl, raw };
}

const git = (cwd, args, env = {}) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
const sh = (cwd, script) => execFileSync('sh', ['-c', script], { cwd, encoding: 'utf8' });
const blobSha = (buf) => createHash('sha1').update(`blob ${buf.length}\0`).update(buf).digest('hex');
const decode = (content) => Buffer.from(content.replace(/\n/g, ''), 'base64');

/** Checks a GitHub `patch`: starts at a hunk, no git headers, hunk header counts match the bodies. */
function assertValidPatch(patch, label) {
  const lines = patch.split('\n');
  assert.match(lines[0], /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/, `${label}: patch must start at the first hunk`);
  let expectOld = 0;
  let expectNew = 0;
  const close = () => {
    assert.equal(expectOld, 0, `${label}: old-side line count mismatch`);
    assert.equal(expectNew, 0, `${label}: new-side line count mismatch`);
  };
  for (const line of lines) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (m) {
      close();
      expectOld = m[2] === undefined ? 1 : Number(m[2]);
      expectNew = m[4] === undefined ? 1 : Number(m[4]);
      continue;
    }
    const mark = line[0];
    if (mark === ' ') {
      expectOld--;
      expectNew--;
    } else if (mark === '-') expectOld--;
    else if (mark === '+') expectNew--;
    else assert.equal(mark, '\\', `${label}: unexpected patch line ${JSON.stringify(line)}`);
  }
  close();
}

/** Splits a patch into hunk bodies (lines after each header). */
const hunkBodies = (patch) =>
  patch
    .split(/^@@.*$/m)
    .slice(1)
    .map((b) => b.replace(/^\n/, '').replace(/\n$/, ''));

async function listAllFiles(api, repo, number) {
  const files = [];
  for (let page = 1; ; page++) {
    const res = await api(`/repos/${repo}/pulls/${number}/files?per_page=100&page=${page}`);
    assert.equal(res.status, 200);
    if (res.json.length === 0) break;
    files.push(...res.json);
  }
  return files;
}

// ---------------------------------------------------------------------------------------------
// The main instance (this repository's git history)
// ---------------------------------------------------------------------------------------------

let main;
let api;
let ctl;
let raw;
let base;

before(async () => {
  main = await startStandin({ args: ['--repo-dir', REPO_ROOT] });
  base = main.url;
  ({ api, ctl, raw } = clientFor(base));
});

after(async () => {
  await main?.stop();
});

describe('start-up', () => {
  test('prints exactly one ready line on stdout', async () => {
    await api('/user');
    assert.match(main.stdout(), /^github-standin listening on http:\/\/127\.0\.0\.1:\d+\n$/);
  });

  test('GET /_standin/info summarises users, repos and PRs', async () => {
    const { status, json } = await ctl('/info');
    assert.equal(status, 200);
    assert.deepEqual(json.users.map((u) => [u.login, u.id, u.token]), [
      ['octo', 1001, 'gho_standin_octo'],
      ['reader', 1002, 'gho_standin_reader'],
      ['maint', 1003, 'gho_standin_maint'],
    ]);
    const names = json.repos.map((r) => r.full_name);
    assert.deepEqual(names, ['logikflow/demo', 'logikflow/big', 'logikflow/private', 'logikflow/invites', 'logikflow/fixtures']);
    const big = json.repos.find((r) => r.full_name === 'logikflow/big');
    assert.deepEqual(big.pulls.map((p) => [p.number, p.changed_files, p.listed_files]), [
      [1, 320, 320],
      [2, 3200, 3000],
      [3, 30, 30],
    ]);
    assert.ok(json.repos[0].git, 'demo repo is backed by real git history');
  });

  test('POST /graphql reads files at a commit; logikflow/fixtures serves the labelled PRs', async () => {
    const { json } = await ctl('/info');
    const fixtures = json.repos.find((r) => r.full_name === 'logikflow/fixtures');
    assert.ok(fixtures.pulls.length >= 40, 'one PR per case of tests/data/hints/measure');
    const pull = fixtures.pulls.find((p) => p.title === 'go-nested-modules');
    const query = `{repository(owner:"logikflow",name:"fixtures"){f0:object(expression:${JSON.stringify(`${pull.head_sha}:tools/go.mod`)}){...on Blob{text}} `
      + `f1:object(expression:${JSON.stringify(`${pull.head_sha}:absent.txt`)}){...on Blob{text}} }}`;
    const { status, json: answer } = await api('/graphql', { method: 'POST', body: JSON.stringify({ query }) });
    assert.equal(status, 200);
    assert.match(answer.data.repository.f0.text, /^module github\.com\/acme\/platform\/tools$/m);
    assert.equal(answer.data.repository.f1, null);
    const hidden = await api('/graphql', { method: 'POST', token: TOKENS.reader, body: JSON.stringify({ query: query.replace('"fixtures"', '"private"') }) });
    assert.equal(hidden.json.data.repository, null);
  });
});

describe('authentication', () => {
  beforeEach(() => ctl('/reset', {}));

  test('missing and unknown tokens get 401 Bad credentials', async () => {
    for (const token of [null, 'gho_nope']) {
      const res = await api('/user', { token });
      assert.equal(res.status, 401);
      assert.deepEqual(res.json, BAD_CREDENTIALS);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.ok(res.headers.get('x-ratelimit-limit'));
    }
  });

  test('Bearer and token schemes both work, for every user', async () => {
    for (const [login, token] of Object.entries(TOKENS)) {
      for (const scheme of ['Bearer', 'token', 'bearer']) {
        const res = await api('/user', { token: null, headers: { authorization: `${scheme} ${token}` } });
        assert.equal(res.status, 200, `${scheme} ${login}`);
        assert.equal(res.json.login, login);
      }
    }
  });

  test('GET /user has GitHub fields', async () => {
    const { json } = await api('/user', { token: TOKENS.maint });
    assert.equal(json.login, 'maint');
    assert.equal(json.id, 1003);
    assert.equal(json.type, 'User');
    assert.equal(json.html_url, 'https://github.com/maint');
    assert.match(json.avatar_url, /^https:\/\/avatars\.githubusercontent\.com\/u\/1003/);
    for (const key of ['node_id', 'name', 'site_admin', 'created_at', 'url']) assert.ok(key in json, key);
  });

  test('requests without a User-Agent are rejected like GitHub (unless disabled)', async () => {
    const res = await raw('/user', { headers: { authorization: `token ${TOKENS.octo}` } });
    assert.equal(res.status, 403);
    assert.match(JSON.parse(res.text).message, /User-Agent/);
    await ctl('/config', { requireUserAgent: false });
    const ok = await raw('/user', { headers: { authorization: `token ${TOKENS.octo}` } });
    assert.equal(ok.status, 200);
  });
});

describe('headers and rate limits', () => {
  beforeEach(() => ctl('/reset', {}));

  test('every REST response carries GitHub headers', async () => {
    for (const path of ['/user', '/repos/logikflow/demo', '/nope', '/repos/logikflow/demo/pulls/999']) {
      const res = await api(path);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8', path);
      assert.match(res.headers.get('x-github-request-id'), /^[0-9A-F]{4}:[0-9A-F]{6}:[0-9A-F]{6}:[0-9A-F]{6}:[0-9A-F]{8}$/);
      assert.equal(res.headers.get('x-github-api-version-selected'), '2022-11-28');
      assert.equal(res.headers.get('x-ratelimit-limit'), '5000');
      assert.equal(res.headers.get('x-ratelimit-resource'), 'core');
      assert.match(res.headers.get('x-ratelimit-reset'), /^\d{10}$/);
      assert.ok(Number(res.headers.get('x-ratelimit-reset')) > Date.now() / 1000);
    }
  });

  test('remaining decreases per token, independently', async () => {
    const a1 = await api('/user');
    const a2 = await api('/user');
    const r1 = await api('/user', { token: TOKENS.reader });
    assert.equal(Number(a2.headers.get('x-ratelimit-remaining')), Number(a1.headers.get('x-ratelimit-remaining')) - 1);
    assert.equal(Number(a2.headers.get('x-ratelimit-used')), Number(a1.headers.get('x-ratelimit-used')) + 1);
    assert.equal(r1.headers.get('x-ratelimit-remaining'), '4999');
    assert.equal(a2.headers.get('x-ratelimit-remaining'), '4998');
  });

  test('conditional requests: ETag + If-None-Match gives 304 without using the rate limit', async () => {
    const first = await api('/repos/logikflow/demo/pulls/3');
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const second = await api('/repos/logikflow/demo/pulls/3', { headers: { 'if-none-match': etag } });
    assert.equal(second.status, 304);
    assert.equal(second.headers.get('x-ratelimit-remaining'), first.headers.get('x-ratelimit-remaining'));
  });

  test('GET /rate_limit reports the core bucket', async () => {
    await api('/user');
    const { json } = await api('/rate_limit');
    assert.equal(json.resources.core.limit, 5000);
    assert.equal(json.resources.core.used, 1);
    assert.equal(json.rate.remaining, 4999);
  });
});

describe('repositories and permissions', () => {
  test('octo has push on every repo, including private', async () => {
    for (const name of ['demo', 'big', 'private']) {
      const { status, json } = await api(`/repos/logikflow/${name}`);
      assert.equal(status, 200);
      assert.equal(json.full_name, `logikflow/${name}`);
      assert.equal(json.name, name);
      assert.deepEqual(json.owner && [json.owner.login, json.owner.id, json.owner.type], ['logikflow', 9001, 'Organization']);
      assert.equal(json.html_url, `https://github.com/logikflow/${name}`);
      assert.equal(json.default_branch, 'main');
      assert.equal(json.private, name === 'private');
      assert.equal(json.visibility, name === 'private' ? 'private' : 'public');
      assert.deepEqual(json.permissions, { admin: false, maintain: false, push: true, triage: true, pull: true });
    }
  });

  test('reader has pull on public repos and cannot see the private one', async () => {
    const demo = await api('/repos/logikflow/demo', { token: TOKENS.reader });
    assert.deepEqual(demo.json.permissions, { admin: false, maintain: false, push: false, triage: false, pull: true });
    for (const path of ['/repos/logikflow/private', '/repos/logikflow/private/pulls/1', '/repos/logikflow/private/pulls/1/files']) {
      const res = await api(path, { token: TOKENS.reader });
      assert.equal(res.status, 404, path);
      assert.equal(res.json.message, 'Not Found');
      assert.equal(res.json.status, '404');
      assert.match(res.json.documentation_url, /^https:\/\/docs\.github\.com\//);
    }
  });

  test('maint has maintain everywhere', async () => {
    for (const name of ['demo', 'big', 'private']) {
      const { json } = await api(`/repos/logikflow/${name}`, { token: TOKENS.maint });
      assert.deepEqual(json.permissions, { admin: false, maintain: true, push: true, triage: true, pull: true });
    }
  });

  test('unknown repos are 404; names are case-insensitive; /repositories/{id} works', async () => {
    assert.equal((await api('/repos/logikflow/nope')).status, 404);
    assert.equal((await api('/repos/nobody/demo')).status, 404);
    assert.equal((await api('/repos/LogiKFlow/Demo')).json.full_name, 'logikflow/demo');
    const byId = await api('/repositories/700002');
    assert.equal(byId.json.full_name, 'logikflow/big');
  });
});

describe('pull requests', () => {
  beforeEach(() => ctl('/reset', {}));

  const ALL = [
    ['logikflow/demo', 1],
    ['logikflow/demo', 2],
    ['logikflow/demo', 3],
    ['logikflow/big', 1],
    ['logikflow/big', 2],
    ['logikflow/big', 3],
    ['logikflow/private', 1],
  ];

  test('every PR has GitHub fields and totals consistent with its files', async () => {
    for (const [repo, n] of ALL) {
      const { status, json: pr } = await api(`/repos/${repo}/pulls/${n}`);
      assert.equal(status, 200, `${repo}#${n}`);
      assert.equal(pr.number, n);
      assert.equal(pr.url, `${base}/repos/${repo}/pulls/${n}`);
      assert.equal(pr.html_url, `https://github.com/${repo}/pull/${n}`);
      assert.ok(['open', 'closed'].includes(pr.state));
      assert.equal(typeof pr.title, 'string');
      assert.equal(typeof pr.body, 'string');
      assert.equal(typeof pr.user.login, 'string');
      assert.equal(typeof pr.user.id, 'number');
      assert.equal(typeof pr.draft, 'boolean');
      assert.equal(typeof pr.merged, 'boolean');
      for (const side of ['base', 'head']) {
        assert.equal(typeof pr[side].ref, 'string');
        assert.match(pr[side].sha, /^[0-9a-f]{40}$/);
        assert.equal(pr[side].repo.full_name, repo);
      }
      assert.notEqual(pr.base.sha, pr.head.sha);
      assert.ok(pr.commits >= 1);
      assert.match(pr.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.match(pr.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      if (pr.changed_files <= 3000) {
        const files = await listAllFiles(api, repo, n);
        assert.equal(files.length, pr.changed_files, `${repo}#${n} changed_files`);
        assert.equal(files.reduce((s, f) => s + f.additions, 0), pr.additions);
        assert.equal(files.reduce((s, f) => s + f.deletions, 0), pr.deletions);
      }
    }
  });

  test('review comments sit on lines of the current patch; the outdated one has no position', async () => {
    const { json: pr } = await api('/repos/logikflow/demo/pulls/3');
    const { status, json: comments } = await api('/repos/logikflow/demo/pulls/3/comments?per_page=100');
    assert.equal(status, 200);
    assert.equal(comments.length, pr.review_comments);
    assert.deepEqual(comments.map((c) => c.id), comments.map((c) => c.id).sort((a, b) => a - b), 'oldest first');
    const files = await listAllFiles(api, 'logikflow/demo', 3);
    for (const c of comments) {
      const file = files.find((f) => f.filename === c.path);
      assert.ok(file, c.path);
      if (c.position === null) {
        assert.equal(c.line, null, 'outdated: no line either');
        assert.equal(typeof c.original_line, 'number');
        continue;
      }
      // The line the comment names is a line of the patch on its side.
      const marker = c.side === 'LEFT' ? '-' : '+';
      const numbers = [];
      for (const hunk of file.patch.split(/^(?=@@)/m)) {
        const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(hunk);
        let [oldNo, newNo] = [Number(m[1]), Number(m[2])];
        for (const line of hunk.split('\n').slice(1)) {
          if (line[0] === marker) numbers.push(c.side === 'LEFT' ? oldNo : newNo);
          if (line[0] !== '+') oldNo++;
          if (line[0] !== '-') newNo++;
        }
      }
      assert.ok(numbers.includes(c.line), `${c.path}:${c.side}${c.line}`);
    }
    assert.ok(comments.some((c) => c.position === null) && comments.some((c) => c.side === 'LEFT'));
    const paged = await api('/repos/logikflow/demo/pulls/3/comments?per_page=1&page=2');
    assert.deepEqual(paged.json.map((c) => c.id), [comments[1].id]);
    assert.match(paged.headers.get('link'), /rel="next"/);
    const none = await api('/repos/logikflow/big/pulls/3/comments');
    assert.deepEqual(none.json, []);
  });

  test('every patch is GitHub-style with correct hunk headers; binary files have none', async () => {
    for (const [repo, n] of ALL) {
      const files = await listAllFiles(api, repo, n);
      for (const f of files) {
        const label = `${repo}#${n} ${f.filename}`;
        for (const key of ['sha', 'filename', 'status', 'additions', 'deletions', 'changes', 'blob_url', 'raw_url', 'contents_url']) {
          assert.ok(key in f, `${label}: ${key}`);
        }
        assert.ok(['added', 'removed', 'modified', 'renamed', 'copied', 'changed', 'unchanged'].includes(f.status), label);
        assert.equal(f.changes, f.additions + f.deletions, label);
        assert.match(f.sha, /^[0-9a-f]{40}$/);
        assert.ok(f.blob_url.startsWith(`https://github.com/${repo}/blob/`), label);
        assert.ok(f.contents_url.startsWith(`${base}/repos/${repo}/contents/`), label);
        if (f.status === 'renamed') assert.equal(typeof f.previous_filename, 'string', label);
        else assert.equal(f.previous_filename, undefined, label);
        if (f.patch !== undefined) {
          assertValidPatch(f.patch, label);
          assert.ok(!/^(diff --git|index [0-9a-f]+\.\.|--- a\/|\+\+\+ b\/)/.test(f.patch), `${label}: no git headers`);
          let adds = 0;
          let dels = 0;
          for (const line of f.patch.split('\n')) {
            if (line.startsWith('@@')) continue;
            if (line[0] === '+') adds++;
            if (line[0] === '-') dels++;
          }
          assert.deepEqual([adds, dels], [f.additions, f.deletions], `${label}: counts match patch`);
        }
        if (/\.(png|woff2|ico|pdf)$/.test(f.filename)) assert.equal(f.patch, undefined, `${label}: binary has no patch`);
      }
    }
  });

  test('unknown PR numbers are 404', async () => {
    for (const path of ['/repos/logikflow/demo/pulls/99', '/repos/logikflow/demo/pulls/abc', '/repos/logikflow/demo/pulls/99/files']) {
      const res = await api(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.json.message, 'Not Found');
    }
  });

  test('demo PR 1 is the whole project from real git (empty tree → HEAD)', async () => {
    const head = git(REPO_ROOT, ['rev-parse', 'HEAD']).trim();
    const { json: pr } = await api('/repos/logikflow/demo/pulls/1');
    assert.equal(pr.head.sha, head);
    const files = await listAllFiles(api, 'logikflow/demo', 1);
    const tree = git(REPO_ROOT, ['ls-tree', '-r', '-z', 'HEAD'])
      .split('\0')
      .filter(Boolean)
      .filter((l) => l.split(' ')[1] === 'blob')
      .map((l) => ({ sha: l.split(/\s+/)[2], path: l.slice(l.indexOf('\t') + 1) }));
    assert.deepEqual(files.map((f) => f.filename).sort(), tree.map((t) => t.path).sort());
    const numstat = new Map(
      git(REPO_ROOT, ['diff', '--numstat', '4b825dc642cb6eb9a060e54bf8d69288fbee4904', 'HEAD'])
        .trim()
        .split('\n')
        .map((l) => l.split('\t'))
        .map(([a, d, p]) => [p, [a, d]]),
    );
    for (const f of files) {
      assert.equal(f.status, 'added');
      assert.equal(f.sha, tree.find((t) => t.path === f.filename).sha, f.filename);
      const [a, d] = numstat.get(f.filename);
      assert.equal(String(f.additions), a === '-' ? '0' : a, f.filename);
      assert.equal(String(f.deletions), d === '-' ? '0' : d, f.filename);
      if (a === '-') assert.equal(f.patch, undefined, `${f.filename} is binary`);
      if (f.patch) assert.ok(f.patch.startsWith('@@ -0,0 +1'), f.filename);
      else if (a !== '-') assert.ok(Number(a) > 1000, `${f.filename}: only binary or very large files lack a patch`);
    }
  });

  test('demo PR 2 covers the most recent commits (or the single-commit fallback)', async () => {
    const count = Number(git(REPO_ROOT, ['rev-list', '--first-parent', '--count', 'HEAD']).trim());
    const { json: pr } = await api('/repos/logikflow/demo/pulls/2');
    const { json: pr1 } = await api('/repos/logikflow/demo/pulls/1');
    if (count === 1) {
      assert.equal(pr.base.sha, pr1.base.sha);
      assert.equal(pr.changed_files, pr1.changed_files);
    } else {
      const k = Math.min(5, count - 1);
      assert.equal(pr.base.sha, git(REPO_ROOT, ['rev-parse', `HEAD~${k}`]).trim());
      assert.equal(pr.commits, k);
    }
  });

  test('demo PR 3 is the hand-built small PR', async () => {
    const files = await listAllFiles(api, 'logikflow/demo', 3);
    const by = Object.fromEntries(files.map((f) => [f.filename, f]));
    assert.ok(files.length >= 6 && files.length <= 8);
    const exts = new Set(files.map((f) => f.filename.split('.').pop()));
    for (const ext of ['ts', 'py', 'rs', 'json', 'png']) assert.ok(exts.has(ext), ext);
    assert.ok(files.some((f) => /\.test\.ts$/.test(f.filename)), 'has a test file');
    assert.ok(by['package-lock.json'].patch, 'lockfile has a patch');
    const renamed = files.find((f) => f.status === 'renamed');
    assert.deepEqual([renamed.filename, renamed.previous_filename], ['src/flow/graph.rs', 'src/flow/diagram.rs']);
    const binary = by['docs/images/review-order.png'];
    assert.equal(binary.patch, undefined);
    assert.equal(binary.changes, 0);
    const multi = files.find((f) => f.patch && hunkBodies(f.patch).length >= 3);
    assert.ok(multi, 'a file with 3+ hunks');
    const bodies = hunkBodies(multi.patch);
    assert.ok(bodies.some((b, i) => bodies.indexOf(b) !== i), 'two hunks have identical bodies');
    assert.ok(files.some((f) => f.filename.startsWith('gen/')), 'a generated file');
  });
});

describe('paging and the 3,000-file cap', () => {
  test('320 files: 4 pages of 100 with GitHub Link headers', async () => {
    const link = (page) => `${base}/repositories/700002/pulls/1/files?per_page=100&page=${page}`;
    const pages = [];
    for (let page = 1; page <= 5; page++) {
      pages.push(await api(`/repos/logikflow/big/pulls/1/files?per_page=100&page=${page}`));
    }
    assert.deepEqual(pages.map((p) => p.json.length), [100, 100, 100, 20, 0]);
    assert.equal(pages[0].headers.get('link'), `<${link(2)}>; rel="next", <${link(4)}>; rel="last"`);
    assert.equal(
      pages[1].headers.get('link'),
      `<${link(1)}>; rel="prev", <${link(3)}>; rel="next", <${link(4)}>; rel="last", <${link(1)}>; rel="first"`,
    );
    assert.equal(pages[3].headers.get('link'), `<${link(3)}>; rel="prev", <${link(1)}>; rel="first"`);
    const names = pages.flatMap((p) => p.json.map((f) => f.filename));
    assert.equal(new Set(names).size, 320);
    assert.deepEqual(names, [...names].sort(), 'files come in path order');
  });

  test('following rel="next" links verbatim walks every page', async () => {
    let next = '/repos/logikflow/big/pulls/1/files?per_page=100';
    let total = 0;
    let hops = 0;
    while (next) {
      const res = await api(next);
      assert.equal(res.status, 200);
      total += res.json.length;
      hops++;
      const m = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '');
      next = m ? m[1].slice(base.length) : null;
    }
    assert.deepEqual([total, hops], [320, 4]);
  });

  test('default per_page is 30; per_page is capped at 100; bad values fall back', async () => {
    const def = await api('/repos/logikflow/big/pulls/1/files');
    assert.equal(def.json.length, 30);
    assert.equal(
      def.headers.get('link'),
      `<${base}/repositories/700002/pulls/1/files?page=2>; rel="next", <${base}/repositories/700002/pulls/1/files?page=11>; rel="last"`,
    );
    assert.equal((await api('/repos/logikflow/big/pulls/1/files?per_page=1000')).json.length, 100);
    assert.equal((await api('/repos/logikflow/big/pulls/1/files?per_page=abc&page=-3')).json.length, 30);
    assert.deepEqual((await api('/repos/logikflow/big/pulls/1/files?page=999999999999')).json, []);
    const small = await api('/repos/logikflow/big/pulls/3/files?per_page=100');
    assert.equal(small.json.length, 30);
    assert.equal(small.headers.get('link'), null, 'single page: no Link header');
  });

  test('3,200 changed files: the PR says 3200, /files lists the first 3,000 only', async () => {
    const { json: pr } = await api('/repos/logikflow/big/pulls/2');
    assert.equal(pr.changed_files, 3200);
    const files = await listAllFiles(api, 'logikflow/big', 2);
    assert.equal(files.length, 3000);
    assert.equal(new Set(files.map((f) => f.filename)).size, 3000);
    const last = await api('/repos/logikflow/big/pulls/2/files?per_page=100&page=30');
    assert.equal(last.json.length, 100);
    assert.match(last.headers.get('link'), /rel="prev"/);
    assert.doesNotMatch(last.headers.get('link'), /rel="next"/);
    const beyond = await api('/repos/logikflow/big/pulls/2/files?per_page=100&page=31');
    assert.deepEqual(beyond.json, []);
    const first = await api('/repos/logikflow/big/pulls/2/files?per_page=100');
    assert.match(first.headers.get('link'), /[?&]page=30>; rel="last"/);
    const def = await api('/repos/logikflow/big/pulls/2/files');
    assert.match(def.headers.get('link'), /[?&]page=100>; rel="last"/);
  });

  test('PR commits are listed', async () => {
    const { json: pr } = await api('/repos/logikflow/big/pulls/2');
    const { json: commits } = await api('/repos/logikflow/big/pulls/2/commits?per_page=100');
    assert.equal(commits.length, pr.commits);
    assert.equal(commits.at(-1).sha, pr.head.sha);
    assert.equal(commits[0].parents[0].sha, pr.base.sha);
  });
});

describe('contents', () => {
  beforeEach(() => ctl('/reset', {}));

  test('demo PR 3 base has the LogiKFlow conventions, encoded like GitHub', async () => {
    const { json: pr } = await api('/repos/logikflow/demo/pulls/3');
    for (const sha of [pr.base.sha, pr.head.sha]) {
      const yml = await api(`/repos/logikflow/demo/contents/.github/logikflow.yml?ref=${sha}`);
      assert.equal(yml.status, 200);
      assert.equal(yml.json.type, 'file');
      assert.equal(yml.json.encoding, 'base64');
      assert.equal(yml.json.name, 'logikflow.yml');
      assert.equal(yml.json.path, '.github/logikflow.yml');
      const bytes = decode(yml.json.content);
      assert.match(bytes.toString(), /^diagrams: always$/m);
      assert.equal(yml.json.size, bytes.length);
      assert.equal(yml.json.sha, blobSha(bytes));
      assert.ok(yml.json.content.endsWith('\n'));
      for (const line of yml.json.content.split('\n')) assert.ok(line.length <= 60);
      const attrs = await api(`/repos/logikflow/demo/contents/.gitattributes?ref=${sha}`);
      assert.match(decode(attrs.json.content).toString(), /^gen\/\*\* linguist-generated$/m);
    }
  });

  test('long files are wrapped at 60 base64 characters per line', async () => {
    const res = await api('/repos/logikflow/demo/contents/Cargo.toml?ref=main');
    const lines = res.json.content.split('\n');
    assert.ok(lines.length > 3);
    assert.ok(lines.slice(0, -2).every((l) => l.length === 60));
    assert.equal(lines.at(-1), '');
  });

  test('real files come from git at the requested ref', async () => {
    const head = git(REPO_ROOT, ['rev-parse', 'HEAD']).trim();
    const res = await api(`/repos/logikflow/demo/contents/Cargo.toml?ref=${head}`);
    assert.equal(res.status, 200);
    assert.equal(decode(res.json.content).toString(), git(REPO_ROOT, ['show', 'HEAD:Cargo.toml']));
    assert.equal(res.json.sha, git(REPO_ROOT, ['rev-parse', 'HEAD:Cargo.toml']).trim());
    const noRef = await api('/repos/logikflow/demo/contents/Cargo.toml');
    assert.equal(noRef.json.sha, res.json.sha);
    const dir = await api(`/repos/logikflow/demo/contents/src?ref=${head}`);
    assert.ok(Array.isArray(dir.json));
    assert.ok(dir.json.some((e) => e.path === 'src/lib.rs' && e.type === 'file'));
  });

  test('absent files and unknown refs are 404', async () => {
    const { json: pr1 } = await api('/repos/logikflow/demo/pulls/1');
    const empty = await api(`/repos/logikflow/demo/contents/.gitattributes?ref=${pr1.base.sha}`);
    assert.equal(empty.status, 404);
    assert.equal(empty.json.message, 'Not Found');
    assert.equal((await api(`/repos/logikflow/demo/contents/Cargo.toml?ref=${pr1.base.sha}`)).status, 404);
    assert.equal((await api(`/repos/logikflow/demo/contents/.github/logikflow.yml?ref=${pr1.head.sha}`)).status, 404);
    const badRef = await api('/repos/logikflow/demo/contents/Cargo.toml?ref=no-such-branch');
    assert.equal(badRef.status, 404);
    assert.equal(badRef.json.message, 'No commit found for the ref no-such-branch');
    assert.equal((await api('/repos/logikflow/demo/contents/%E0%A4%A?ref=main')).status, 404);
  });

  test('a synthetic pull request\'s changed files are served at its head, made from their patches', async () => {
    const { json: pr } = await api('/repos/logikflow/big/pulls/3');
    const { json: files } = await api('/repos/logikflow/big/pulls/3/files?per_page=100');
    const file = files.find((f) => f.status === 'modified' && f.patch);
    const res = await api(`/repos/logikflow/big/contents/${file.filename}?ref=${pr.head.sha}`);
    assert.equal(res.status, 200);
    const lines = decode(res.json.content).toString().split('\n');
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(file.patch);
    const firstNew = file.patch.split('\n').slice(1).find((l) => l[0] === ' ' || l[0] === '+');
    assert.equal(lines[Number(hunk[1]) - 1], firstNew.slice(1), 'the hunk\'s new side at its line numbers');
    assert.equal(lines[0] === firstNew.slice(1) || lines[0] === '// line 1', true);
    assert.equal((await api(`/repos/logikflow/big/contents/${file.filename}?ref=${pr.base.sha}`)).status, 404, 'not at the base');
    const removed = files.find((f) => f.status === 'removed');
    assert.equal((await api(`/repos/logikflow/big/contents/${removed.filename}?ref=${pr.head.sha}`)).status, 404, 'not a removed file');
  });

  test('settings depend on repository and ref', async () => {
    const { json: big1 } = await api('/repos/logikflow/big/pulls/1');
    const { json: big3 } = await api('/repos/logikflow/big/pulls/3');
    const yml1 = await api(`/repos/logikflow/big/contents/.github/logikflow.yml?ref=${big1.base.sha}`);
    assert.match(decode(yml1.json.content).toString(), /diagrams: auto/);
    assert.equal((await api(`/repos/logikflow/big/contents/.github/logikflow.yml?ref=${big3.base.sha}`)).status, 404);
    const { json: priv } = await api('/repos/logikflow/private/pulls/1');
    const yml = await api(`/repos/logikflow/private/contents/.github/logikflow.yml?ref=${priv.base.sha}`);
    assert.match(decode(yml.json.content).toString(), /diagrams: never/);
    assert.equal((await api(`/repos/logikflow/private/contents/.github/logikflow.yml?ref=${priv.base.sha}`, { token: TOKENS.reader })).status, 404);
  });
});

describe('compare', () => {
  beforeEach(() => ctl('/reset', {}));

  test('base...head of a PR is "ahead" by its commits', async () => {
    const { json: pr } = await api('/repos/logikflow/demo/pulls/3');
    const { status, json } = await api(`/repos/logikflow/demo/compare/${pr.base.sha}...${pr.head.sha}`);
    assert.equal(status, 200);
    assert.deepEqual([json.status, json.ahead_by, json.behind_by, json.total_commits], ['ahead', pr.commits, 0, pr.commits]);
    assert.equal(json.commits.length, pr.commits);
    assert.equal(json.commits.at(-1).sha, pr.head.sha);
    assert.equal(json.base_commit.sha, pr.base.sha);
    assert.equal(json.merge_base_commit.sha, pr.base.sha);
  });

  test('behind, identical, diverged, branch names and 404s', async () => {
    const { json: pr } = await api('/repos/logikflow/demo/pulls/3');
    const back = await api(`/repos/logikflow/demo/compare/${pr.head.sha}...${pr.base.sha}`);
    assert.deepEqual([back.json.status, back.json.ahead_by, back.json.behind_by], ['behind', 0, pr.commits]);
    const same = await api(`/repos/logikflow/demo/compare/${pr.head.sha}...${pr.head.sha}`);
    assert.equal(same.json.status, 'identical');
    const named = await api('/repos/logikflow/demo/compare/main...feature/review-order');
    assert.equal(named.json.ahead_by, pr.commits + 1);
    const { json: b1 } = await api('/repos/logikflow/big/pulls/1');
    const { json: b2 } = await api('/repos/logikflow/big/pulls/2');
    const div = await api(`/repos/logikflow/big/compare/${b1.head.sha}...${b2.head.sha}`);
    assert.equal(div.json.status, 'diverged');
    assert.equal(div.json.ahead_by, b2.commits);
    assert.equal((await api(`/repos/logikflow/demo/compare/${'0'.repeat(40)}...${pr.head.sha}`)).status, 404);
    assert.equal((await api('/repos/logikflow/demo/compare/garbage')).status, 404);
  });
});

describe('pushes (control API)', () => {
  beforeEach(() => ctl('/reset', {}));

  test('a push makes a new head SHA and changes exactly one hunk of one file', async () => {
    const { json: before } = await api('/repos/logikflow/demo/pulls/3');
    const filesBefore = await listAllFiles(api, 'logikflow/demo', 3);
    const push = await ctl('/push', { repo: 'logikflow/demo', number: 3 });
    assert.equal(push.status, 200);
    assert.match(push.json.head_sha, /^[0-9a-f]{40}$/);
    assert.notEqual(push.json.head_sha, before.head.sha);
    assert.equal(push.json.old_head_sha, before.head.sha);

    const { json: after } = await api('/repos/logikflow/demo/pulls/3');
    assert.equal(after.head.sha, push.json.head_sha);
    assert.equal(after.base.sha, before.base.sha);
    assert.equal(after.commits, before.commits + 1);
    assert.equal(after.additions, before.additions + 1);

    const filesAfter = await listAllFiles(api, 'logikflow/demo', 3);
    const changed = filesAfter.filter((f, i) => f.patch !== filesBefore[i].patch);
    assert.equal(changed.length, 1);
    assert.equal(changed[0].filename, push.json.changed_file);
    const old = filesBefore.find((f) => f.filename === changed[0].filename);
    assert.notEqual(changed[0].sha, old.sha);
    assertValidPatch(changed[0].patch, 'pushed patch');
    const a = hunkBodies(old.patch);
    const b = hunkBodies(changed[0].patch);
    assert.equal(a.length, b.length);
    assert.equal(a.filter((h, i) => h !== b[i]).length, 1, 'exactly one hunk changed');

    const since = await api(`/repos/logikflow/demo/compare/${before.head.sha}...${after.head.sha}`);
    assert.deepEqual([since.json.status, since.json.ahead_by], ['ahead', 1]);
    const whole = await api(`/repos/logikflow/demo/compare/${before.base.sha}...${after.head.sha}`);
    assert.equal(whole.json.ahead_by, before.commits + 1);
    const yml = await api(`/repos/logikflow/demo/contents/.github/logikflow.yml?ref=${after.head.sha}`);
    assert.equal(yml.status, 200);
  });

  test('push SHAs are deterministic and reset restores the PR', async () => {
    const { json: original } = await api('/repos/logikflow/big/pulls/2');
    const first = await ctl('/push', { repo: 'logikflow/big', number: 2 });
    const second = await ctl('/push', { repo: 'logikflow/big', number: 2 });
    assert.notEqual(first.json.head_sha, second.json.head_sha);
    const since = await api(`/repos/logikflow/big/compare/${original.head.sha}...${second.json.head_sha}`);
    assert.equal(since.json.ahead_by, 2);
    await ctl('/reset', {});
    const { json: restored } = await api('/repos/logikflow/big/pulls/2');
    assert.equal(restored.head.sha, original.head.sha);
    assert.equal(restored.additions, original.additions);
    assert.equal((await api(`/repos/logikflow/big/compare/${original.head.sha}...${second.json.head_sha}`)).status, 404);
    const again = await ctl('/push', { repo: 'logikflow/big', number: 2 });
    assert.equal(again.json.head_sha, first.json.head_sha);
  });

  test('pushes work on git-backed PRs and reject unknown PRs', async () => {
    const push = await ctl('/push', { repo: 'logikflow/demo', number: 1 });
    assert.equal(push.status, 200);
    const cargo = await api(`/repos/logikflow/demo/contents/Cargo.toml?ref=${push.json.head_sha}`);
    assert.equal(cargo.status, 200, 'contents fall through to git below a pushed commit');
    assert.equal((await ctl('/push', { repo: 'logikflow/demo', number: 42 })).status, 404);
    assert.equal((await ctl('/push', { repo: 'logikflow/demo' })).status, 422);
  });
});

describe('fault injection', () => {
  beforeEach(() => ctl('/reset', {}));

  test('status faults return GitHub-like 5xx, `times` times', async () => {
    const add = await ctl('/faults', { path: '/pulls/1/files', kind: 'status', status: 503, times: 2 });
    assert.equal(add.status, 201);
    const r1 = await api('/repos/logikflow/demo/pulls/1/files');
    const r2 = await api('/repos/logikflow/demo/pulls/1/files');
    const r3 = await api('/repos/logikflow/demo/pulls/1/files');
    assert.deepEqual([r1.status, r2.status, r3.status], [503, 503, 200]);
    assert.equal(r1.json.status, '503');
    assert.equal(typeof r1.json.message, 'string');
    assert.equal(r1.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal((await api('/repos/logikflow/demo/pulls/1')).status, 200, 'other paths unaffected');
  });

  test('default status is 500 once; method and regex filters; times 0 lasts until cleared', async () => {
    await ctl('/faults', { path: '/user', kind: 'status' });
    assert.equal((await api('/user')).status, 500);
    assert.equal((await api('/user')).status, 200);

    await ctl('/faults', { path: '/user', method: 'POST', kind: 'status', status: 502 });
    assert.equal((await api('/user')).status, 200, 'GET not matched by a POST fault');

    await ctl('/faults', { path: '/^\\/repos\\/logikflow\\/demo\\/pulls\\/\\d+$/', kind: 'status', status: 502, times: 0 });
    for (let i = 0; i < 3; i++) assert.equal((await api('/repos/logikflow/demo/pulls/2')).status, 502);
    assert.equal((await api('/repos/logikflow/demo/pulls/2/files')).status, 200, 'regex is anchored');
    assert.equal((await ctl('/faults')).json.faults.length, 2);
    await ctl('/faults', undefined, 'DELETE');
    assert.equal((await api('/repos/logikflow/demo/pulls/2')).status, 200);
  });

  test('unauthorized, rate_limit and secondary_rate_limit', async () => {
    await ctl('/faults', { path: '/repos/logikflow/demo', kind: 'unauthorized' });
    const u = await api('/repos/logikflow/demo');
    assert.equal(u.status, 401);
    assert.deepEqual(u.json, BAD_CREDENTIALS);

    await ctl('/faults', { path: '/repos/logikflow/demo', kind: 'rate_limit' });
    const r = await api('/repos/logikflow/demo');
    assert.equal(r.status, 403);
    assert.match(r.json.message, /^API rate limit exceeded for user ID 1001\./);
    assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
    const reset = Number(r.headers.get('x-ratelimit-reset'));
    assert.ok(Math.abs(reset - (Date.now() / 1000 + 60)) < 5, 'reset is 60 s ahead');

    await ctl('/faults', { path: '/repos/logikflow/demo', kind: 'secondary_rate_limit' });
    const s = await api('/repos/logikflow/demo');
    assert.equal(s.status, 403);
    assert.match(s.json.message, /^You have exceeded a secondary rate limit/);
    assert.equal(s.headers.get('retry-after'), '30');
    assert.equal((await api('/repos/logikflow/demo')).status, 200);
  });

  test('slow waits delayMs then answers normally', async () => {
    await ctl('/faults', { path: '/user', kind: 'slow', delayMs: 300 });
    const t0 = Date.now();
    const res = await api('/user');
    assert.ok(Date.now() - t0 >= 280);
    assert.equal(res.status, 200);
    assert.equal(res.json.login, 'octo');
  });

  test('truncated sends 200 with half of the JSON body', async () => {
    const full = await api('/repos/logikflow/demo/pulls/3');
    await ctl('/faults', { path: '/pulls/3', kind: 'truncated' });
    const cut = await api('/repos/logikflow/demo/pulls/3');
    assert.equal(cut.status, 200);
    assert.equal(cut.json, undefined, 'body is not valid JSON');
    assert.ok(Math.abs(Buffer.byteLength(cut.text) - Buffer.byteLength(full.text) / 2) <= 1);
    assert.ok(full.text.startsWith(cut.text.slice(0, 20)));
  });

  test('reset destroys the connection; the next request works', async () => {
    await ctl('/faults', { path: '/user', kind: 'reset' });
    await assert.rejects(() => raw('/user', { headers: { 'user-agent': UA, authorization: `token ${TOKENS.octo}` } }));
    assert.equal((await api('/user')).status, 200);
    const log = await ctl('/requests?path=/user');
    assert.equal(log.json.requests[0].fault, 'reset');
  });

  test('faults apply to OAuth endpoints but never to control endpoints', async () => {
    await ctl('/faults', { path: '/login/oauth/access_token', kind: 'status', status: 502 });
    const res = await fetch(`${base}/login/oauth/access_token`, { method: 'POST', headers: { accept: 'application/json' } });
    assert.equal(res.status, 502);
    await ctl('/faults', { path: '_standin', kind: 'status', times: 0 });
    assert.equal((await ctl('/info')).status, 200);
  });

  test('invalid fault specs are rejected with 422', async () => {
    for (const spec of [{}, { path: '/x', kind: 'explode' }, { path: '', kind: 'status' }, { path: '/x', kind: 'status', status: 200 }, { path: '/(/', kind: 'reset' }, { path: '/x', kind: 'slow', delayMs: -1 }, [1, 2]]) {
      assert.equal((await ctl('/faults', spec)).status, 422, JSON.stringify(spec));
    }
  });
});

describe('request log', () => {
  beforeEach(() => ctl('/reset', {}));

  test('records REST requests with method, path, query, user and status', async () => {
    await ctl('/requests', undefined, 'DELETE');
    await api('/repos/logikflow/big/pulls/1/files?per_page=100&page=2');
    await api('/repos/logikflow/private', { token: TOKENS.reader });
    await api('/user', { token: null });
    await ctl('/info');
    const { json } = await ctl('/requests');
    assert.equal(json.total, 3);
    assert.deepEqual(json.requests[0], {
      method: 'GET',
      path: '/repos/logikflow/big/pulls/1/files',
      query: { per_page: '100', page: '2' },
      user: 'octo',
      status: 200,
      kind: 'rest',
    });
    assert.deepEqual([json.requests[1].user, json.requests[1].status], ['reader', 404]);
    assert.deepEqual([json.requests[2].user, json.requests[2].status], [null, 401]);
    await fetch(`${base}/login/oauth/access_token`, { method: 'POST', headers: { accept: 'application/json' } });
    const oauth = await ctl('/requests?path=/login/oauth');
    assert.deepEqual([oauth.json.total, oauth.json.requests[0].kind, oauth.json.requests[0].status], [1, 'oauth', 200]);
    const filtered = await ctl('/requests?path=/files');
    assert.equal(filtered.json.total, 1);
    await ctl('/requests', undefined, 'DELETE');
    assert.equal((await ctl('/requests')).json.total, 0);
  });
});

describe('OAuth web flow', () => {
  beforeEach(() => ctl('/reset', {}));

  const REDIRECT = 'http://127.0.0.1:9/callback';

  async function authorize(params) {
    const q = new URLSearchParams({ client_id: 'Iv1.standin', redirect_uri: REDIRECT, state: 'st-123', scope: 'repo read:user', ...params });
    const res = await fetch(`${base}/login/oauth/authorize?${q}`, { redirect: 'manual' });
    return res;
  }

  async function codeFor(params = {}) {
    const res = await authorize(params);
    assert.equal(res.status, 302);
    const location = new URL(res.headers.get('location'));
    return location.searchParams.get('code');
  }

  async function exchange(fields, { json = true, jsonBody = false } = {}) {
    const all = { client_id: 'Iv1.standin', client_secret: 'standin-secret', redirect_uri: REDIRECT, ...fields };
    const body = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
    const res = await fetch(`${base}/login/oauth/access_token`, {
      method: 'POST',
      headers: {
        ...(json ? { accept: 'application/json' } : {}),
        'content-type': jsonBody ? 'application/json' : 'application/x-www-form-urlencoded',
      },
      body: jsonBody ? JSON.stringify(body) : new URLSearchParams(body).toString(),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: json ? JSON.parse(text) : undefined };
  }

  test('authorize auto-approves and redirects with code and state', async () => {
    const res = await authorize({});
    assert.equal(res.status, 302);
    const location = new URL(res.headers.get('location'));
    assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
    assert.match(location.searchParams.get('code'), /^[0-9a-f]{20}$/);
    assert.equal(location.searchParams.get('state'), 'st-123');
  });

  test('authorize validates client_id and redirect_uri', async () => {
    assert.equal((await authorize({ client_id: 'Iv1.other' })).status, 400);
    const q = new URLSearchParams({ client_id: 'Iv1.standin' });
    const res = await fetch(`${base}/login/oauth/authorize?${q}`, { redirect: 'manual' });
    assert.equal(res.status, 400);
    assert.equal((await authorize({ login: 'mallory' })).status, 400);
  });

  test('code → token (JSON), token works, codes are single-use', async () => {
    const code = await codeFor();
    const res = await exchange({ code });
    assert.equal(res.status, 200);
    assert.match(res.json.access_token, /^gho_[A-Za-z0-9]{36}$/);
    assert.equal(res.json.token_type, 'bearer');
    assert.equal(res.json.scope, 'repo,read:user');
    assert.equal(res.json.refresh_token, undefined);
    const me = await api('/user', { token: res.json.access_token });
    assert.equal(me.json.login, 'octo');
    assert.equal(me.headers.get('x-oauth-scopes'), 'repo, read:user');

    const again = await exchange({ code });
    assert.equal(again.status, 200);
    assert.deepEqual(Object.keys(again.json).sort(), ['error', 'error_description', 'error_uri']);
    assert.equal(again.json.error, 'bad_verification_code');
    assert.equal(again.json.error_description, 'The code passed is incorrect or expired.');
  });

  test('form-encoded response without Accept: application/json; JSON request bodies', async () => {
    const form = await exchange({ code: await codeFor() }, { json: false });
    assert.match(form.headers.get('content-type'), /^application\/x-www-form-urlencoded/);
    const parsed = new URLSearchParams(form.text);
    assert.match(parsed.get('access_token'), /^gho_/);
    assert.equal(parsed.get('token_type'), 'bearer');
    assert.equal(parsed.get('scope'), 'repo,read:user');
    const viaJson = await exchange({ code: await codeFor() }, { jsonBody: true });
    assert.match(viaJson.json.access_token, /^gho_/);
    const err = await exchange({ code: 'nope' }, { json: false });
    assert.equal(new URLSearchParams(err.text).get('error'), 'bad_verification_code');
  });

  test('wrong secret, wrong redirect_uri and unknown codes are GitHub errors (HTTP 200)', async () => {
    const bad = await exchange({ code: await codeFor(), client_secret: 'nope' });
    assert.equal(bad.status, 200);
    assert.equal(bad.json.error, 'incorrect_client_credentials');
    const mismatch = await exchange({ code: await codeFor(), redirect_uri: 'http://127.0.0.1:9/other' });
    assert.equal(mismatch.json.error, 'redirect_uri_mismatch');
    assert.equal((await exchange({})).json.error, 'bad_verification_code');
  });

  test('the user comes from ?login=, else from POST /_standin/oauth-user, else octo', async () => {
    const asReader = await exchange({ code: await codeFor({ login: 'reader' }) });
    assert.equal((await api('/user', { token: asReader.json.access_token })).json.login, 'reader');
    await ctl('/oauth-user', { login: 'maint' });
    const asMaint = await exchange({ code: await codeFor() });
    assert.equal((await api('/user', { token: asMaint.json.access_token })).json.login, 'maint');
    assert.equal((await ctl('/oauth-user', { login: 'mallory' })).status, 422);
  });

  test('PKCE S256 is verified', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };
    const wrong = await exchange({ code: await codeFor(pkce), code_verifier: 'x'.repeat(43) });
    assert.equal(wrong.json.error, 'bad_verification_code');
    const missing = await exchange({ code: await codeFor(pkce) });
    assert.equal(missing.json.error, 'bad_verification_code');
    const right = await exchange({ code: await codeFor(pkce), code_verifier: verifier });
    assert.match(right.json.access_token, /^gho_/);
  });

  test('codes expire after 10 minutes', async () => {
    const code = await codeFor();
    await ctl('/clock', { advanceMs: 10 * 60 * 1000 + 1000 });
    assert.equal((await exchange({ code })).json.error, 'bad_verification_code');
  });

  test('interactive=1 serves a small consent page whose form completes the flow', async () => {
    const q = new URLSearchParams({ client_id: 'Iv1.standin', redirect_uri: REDIRECT, state: 's', interactive: '1' });
    const res = await fetch(`${base}/login/oauth/authorize?${q}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /^text\/html/);
    const html = await res.text();
    assert.match(html, /<form method="get" action="\/login\/oauth\/authorize">/);
    assert.match(html, /<button[^>]*>Authorize<\/button>/);
    assert.match(html, /name="redirect_uri" value="http:\/\/127\.0\.0\.1:9\/callback"/);
    assert.doesNotMatch(html, /name="interactive"/);
    const submit = new URLSearchParams({ client_id: 'Iv1.standin', redirect_uri: REDIRECT, state: 's', login: 'reader' });
    const done = await fetch(`${base}/login/oauth/authorize?${submit}`, { redirect: 'manual' });
    assert.equal(done.status, 302);
  });

  test('expiring tokens: refresh rotates, old refresh tokens fail, tokens expire', async () => {
    await ctl('/config', { expiringTokens: true });
    const first = await exchange({ code: await codeFor() });
    assert.match(first.json.access_token, /^ghu_/);
    assert.equal(first.json.expires_in, 28800);
    assert.match(first.json.refresh_token, /^ghr_/);
    assert.equal(first.json.refresh_token_expires_in, 15897600);
    assert.equal(first.json.token_type, 'bearer');
    assert.equal((await api('/user', { token: first.json.access_token })).status, 200);

    const refreshed = await exchange({ grant_type: 'refresh_token', refresh_token: first.json.refresh_token, code: undefined, redirect_uri: undefined });
    assert.match(refreshed.json.access_token, /^ghu_/);
    assert.notEqual(refreshed.json.refresh_token, first.json.refresh_token);
    assert.equal((await api('/user', { token: refreshed.json.access_token })).json.login, 'octo');
    const reused = await exchange({ grant_type: 'refresh_token', refresh_token: first.json.refresh_token });
    assert.equal(reused.json.error, 'bad_refresh_token');

    await ctl('/expire', { token: refreshed.json.access_token });
    assert.deepEqual((await api('/user', { token: refreshed.json.access_token })).json, BAD_CREDENTIALS);

    await ctl('/clock', { advanceMs: 8 * 3600 * 1000 + 1000 });
    assert.equal((await api('/user', { token: first.json.access_token })).status, 401, 'expired after 8 hours');
    const third = await exchange({ grant_type: 'refresh_token', refresh_token: refreshed.json.refresh_token });
    assert.equal((await api('/user', { token: third.json.access_token })).status, 200, 'refresh still works');
  });

  test('revoked tokens get 401 until reset; unknown tokens cannot be revoked', async () => {
    assert.equal((await ctl('/revoke', { token: TOKENS.reader })).status, 200);
    assert.equal((await api('/user', { token: TOKENS.reader })).status, 401);
    assert.equal((await api('/user', { token: TOKENS.octo })).status, 200);
    await ctl('/reset', {});
    assert.equal((await api('/user', { token: TOKENS.reader })).status, 200);
    assert.equal((await ctl('/revoke', { token: 'gho_unknown' })).status, 404);
    await ctl('/expire', { token: TOKENS.maint });
    assert.equal((await api('/user', { token: TOKENS.maint })).status, 401);
  });
});

describe('GitHub Apps from a manifest', () => {
  beforeEach(() => ctl('/reset', {}));

  const SERVER = 'https://logikflow.example';
  const manifestOf = (fields = {}) => ({
    name: `LogiKFlow test ${randomBytes(3).toString('hex')}`,
    url: SERVER,
    hook_attributes: { url: SERVER, active: false },
    redirect_url: `${SERVER}/setup`,
    callback_urls: [`${SERVER}/oauth/callback`],
    public: false,
    default_permissions: { pull_requests: 'read', contents: 'read', metadata: 'read' },
    request_oauth_on_install: false,
    ...fields,
  });
  const post = (path, fields) =>
    fetch(`${base}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  const convert = (code, headers = {}) =>
    fetch(`${base}/app-manifests/${code}/conversions`, { method: 'POST', headers: { 'user-agent': UA, ...headers } });
  const unescape = (text) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const hiddenValue = (html, name) => unescape(new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '');
  const pageText = async (res) => unescape(await res.text());

  /** Posts the manifest, presses "Create GitHub App" and returns the redirect to redirect_url. */
  async function createApp(manifest, { state = 'st-42', prefix = '' } = {}) {
    const page = await post(`${prefix}/settings/apps/new?state=${state}`, { manifest: JSON.stringify(manifest) });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<button type="submit" id="create-app">Create GitHub App for /);
    const created = await post(`${prefix}/settings/apps`, { manifest: hiddenValue(html, 'manifest'), state: hiddenValue(html, 'state'), name: manifest.name });
    assert.equal(created.status, 302, await created.text());
    return new URL(created.headers.get('location'));
  }

  test('the manifest flow: the registration page, the redirect with code and state, the conversion once', async () => {
    const manifest = manifestOf();
    const back = await createApp(manifest);
    assert.equal(`${back.origin}${back.pathname}`, `${SERVER}/setup`);
    assert.equal(back.searchParams.get('state'), 'st-42');
    const code = back.searchParams.get('code');
    assert.match(code, /^[0-9a-f]{20}$/);

    const res = await convert(code, { origin: SERVER });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('access-control-allow-origin'), '*', 'a browser page may read the answer');
    const app = await res.json();
    assert.equal(app.name, manifest.name);
    assert.equal(app.slug, manifest.name.toLowerCase().replace(/ /g, '-'));
    assert.equal(app.html_url, `https://github.com/apps/${app.slug}`);
    assert.equal(app.external_url, SERVER);
    assert.equal(app.owner.login, 'octo');
    assert.deepEqual(app.permissions, manifest.default_permissions);
    assert.match(app.client_id, /^Iv23li[A-Za-z0-9]{14}$/);
    assert.match(app.client_secret, /^[0-9a-f]{40}$/);
    assert.match(app.webhook_secret, /^[0-9a-f]{40}$/);
    assert.match(app.pem, /^-----BEGIN RSA PRIVATE KEY-----\n/);

    // One time only; an unknown code and a GET are GitHub's 404.
    for (const again of [await convert(code), await convert('0123456789abcdef0123')]) {
      assert.equal(again.status, 404);
      assert.equal((await again.json()).message, 'Not Found');
    }
    assert.equal((await fetch(`${base}/app-manifests/${code}/conversions`, { headers: { 'user-agent': UA } })).status, 404);

    // The control API lists the app without its secrets.
    const info = (await ctl('/info')).json;
    const listed = info.apps.find((a) => a.client_id === app.client_id);
    assert.deepEqual(listed.callback_urls, [`${SERVER}/oauth/callback`]);
    assert.equal(JSON.stringify(info).includes(app.client_secret), false);
  });

  test("the app's own client id and secret work for the OAuth flow, only with its callback URL", async () => {
    const back = await createApp(manifestOf());
    const app = await (await convert(back.searchParams.get('code'))).json();
    const authorize = (redirect) =>
      fetch(`${base}/login/oauth/authorize?${new URLSearchParams({ client_id: app.client_id, redirect_uri: redirect, state: 's' })}`, { redirect: 'manual' });
    const elsewhere = await authorize('https://evil.example/oauth/callback');
    assert.equal(elsewhere.status, 400);
    assert.equal((await elsewhere.json()).error, 'redirect_uri_mismatch');
    const approved = await authorize(`${SERVER}/oauth/callback`);
    assert.equal(approved.status, 302);
    const code = new URL(approved.headers.get('location')).searchParams.get('code');
    const exchange = (secret, grant) =>
      fetch(`${base}/login/oauth/access_token`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: app.client_id, client_secret: secret, code: grant }),
      }).then((r) => r.json());
    assert.equal((await exchange('standin-secret', code)).error, 'incorrect_client_credentials', "the shared secret is not the app's");
    const token = await exchange(app.client_secret, code);
    assert.match(token.access_token, /^ghu_/, 'a new GitHub App expires its user tokens');
    assert.match(token.refresh_token, /^ghr_/);
    assert.equal((await api('/user', { token: token.access_token })).json.login, 'octo');
  });

  test('an organization owns the app it registers; unknown organizations are 404', async () => {
    const back = await createApp(manifestOf(), { prefix: '/organizations/logikflow' });
    const app = await (await convert(back.searchParams.get('code'))).json();
    assert.equal(app.owner.login, 'logikflow');
    assert.equal(app.owner.type, 'Organization');
    const res = await post('/organizations/nobody/settings/apps/new', { manifest: JSON.stringify(manifestOf()) });
    assert.equal(res.status, 404);
  });

  test('bad manifests are refused with what is wrong, and nothing is created', async () => {
    const cases = [
      ['not json', /The manifest is not valid JSON/],
      ['[1]', /must be a JSON object/],
      [manifestOf({ url: undefined }), /Url can't be blank/],
      [manifestOf({ url: 'javascript:alert(1)' }), /Url must be a valid http or https URL/],
      [manifestOf({ name: 'x'.repeat(35) }), /Name is too long \(maximum is 34 characters\)/],
      [manifestOf({ callback_urls: 'https://a.example' }), /callback_urls must be a list/],
      [manifestOf({ callback_urls: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }), /at most 10/],
      [manifestOf({ redirect_url: 'nope' }), /redirect_url must be a valid/],
      [manifestOf({ public: 'no' }), /public must be true or false/],
      [manifestOf({ hook_attributes: { active: true } }), /Hook url can't be blank/],
      [manifestOf({ default_permissions: { pull_request: 'read' } }), /"pull_request" is not a GitHub App permission/],
      [manifestOf({ default_permissions: { contents: 'admin' } }), /contents must be "read" or "write"/],
      [manifestOf({ default_permissions: { metadata: 'write' } }), /metadata can only be "read"/],
      [manifestOf({ default_events: ['not_an_event'] }), /"not_an_event" is not supported/],
      [manifestOf({ request_oauth_on_install: true, callback_urls: [] }), /A callback URL is required/],
    ];
    const appsBefore = (await ctl('/info')).json.apps.length;
    for (const [manifest, message] of cases) {
      const text = typeof manifest === 'string' ? manifest : JSON.stringify(manifest);
      const res = await post('/settings/apps/new', { manifest: text });
      assert.equal(res.status, 422, text);
      assert.match(await pageText(res), message);
    }
    // A name is unique: the second app with the same name is refused when it is created.
    const manifest = manifestOf();
    await createApp(manifest);
    const page = await post('/settings/apps/new', { manifest: JSON.stringify(manifest) });
    assert.equal(page.status, 422);
    assert.match(await pageText(page), /Name has already been taken/);
    // The name typed on the page is checked too.
    const renamed = await post('/settings/apps', { manifest: JSON.stringify(manifestOf()), name: '' });
    assert.equal(renamed.status, 422);
    assert.match(await pageText(renamed), /Name can't be blank/);
    assert.equal((await ctl('/info')).json.apps.length, appsBefore + 1, 'only the good manifest made an app');
  });
});

describe('robustness', () => {
  beforeEach(() => ctl('/reset', {}));

  test('unknown routes and methods get GitHub 404 JSON', async () => {
    for (const [path, method] of [['/nope', 'GET'], ['/repos', 'GET'], ['/repos/logikflow/demo/issues', 'GET'], ['/user', 'POST'], ['/repos/logikflow/demo/pulls/3', 'DELETE'], ['/login/oauth/nope', 'GET']]) {
      const res = await api(path, { method });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.deepEqual(res.json, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
    }
  });

  test('bad control requests are rejected without crashing', async () => {
    assert.equal((await ctl('/faults', '{not json')).status, 400);
    assert.equal((await ctl('/faults', '{not json')).json.message, 'Problems parsing JSON');
    assert.equal((await ctl('/whatever', {})).status, 404);
    assert.equal((await ctl('/config', { expiringTokens: 'yes' })).status, 422);
    assert.equal((await ctl('/config', { bogus: true })).status, 422);
    assert.equal((await ctl('/clock', { advanceMs: -5 })).status, 422);
    assert.equal((await ctl('/revoke', {})).status, 422);
    assert.equal((await ctl('/push', 'null')).status, 422);
    assert.equal((await ctl('/config', '[]')).status, 422);
    // Prototype property names are not users, settings or tokens.
    assert.equal((await ctl('/oauth-user', { login: 'constructor' })).status, 422);
    assert.equal((await ctl('/config', { toString: true })).status, 422);
    assert.equal((await ctl('/config', '{"__proto__": {"x": true}}')).status, 422);
    assert.equal((await ctl('/revoke', { token: 'constructor' })).status, 404);
    const proto = await fetch(`${base}/login/oauth/authorize?client_id=Iv1.standin&redirect_uri=http://127.0.0.1:9/cb&login=__proto__`, { redirect: 'manual' });
    assert.equal(proto.status, 400);
    assert.equal((await api('/user', { token: '__proto__' })).status, 401);
    assert.equal((await api('/user')).status, 200, 'still alive');
  });

  test('HEAD and OPTIONS work', async () => {
    const head = await api('/repos/logikflow/demo', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    const opt = await api('/repos/logikflow/demo', { method: 'OPTIONS' });
    assert.equal(opt.status, 204);
  });

  test('many concurrent requests are answered', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => api(`/repos/logikflow/big/pulls/2/files?per_page=100&page=${(i % 31) + 1}`)));
    assert.ok(results.every((r) => r.status === 200));
  });
});

// ---------------------------------------------------------------------------------------------
// Extra instances: environment settings, other repositories, determinism
// ---------------------------------------------------------------------------------------------

describe('other instances', () => {
  const temps = [];
  const mktemp = () => {
    const dir = execFileSync('mktemp', ['-d']).toString().trim();
    temps.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of temps) execFileSync('rm', ['-rf', dir]);
  });

  const commit = (dir, message, when) =>
    git(dir, ['-c', 'user.name=Test', '-c', 'user.email=test@logikflow.invalid', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', message], {
      GIT_AUTHOR_DATE: when,
      GIT_COMMITTER_DATE: when,
    });

  test('STANDIN_CLIENT_IDS / STANDIN_CLIENT_SECRET, and deterministic data', async () => {
    const other = await startStandin({ args: ['--repo-dir', REPO_ROOT], env: { STANDIN_CLIENT_IDS: 'Iv1.one, Ov23liTwo', STANDIN_CLIENT_SECRET: 's3cret' } });
    try {
      const c = clientFor(other.url);
      const redirect = 'http://127.0.0.1:9/cb';
      for (const clientId of ['Iv1.standin', 'Iv1.one', 'Ov23liTwo']) {
        const res = await fetch(`${other.url}/login/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: redirect })}`, { redirect: 'manual' });
        assert.equal(res.status, 302, clientId);
        const code = new URL(res.headers.get('location')).searchParams.get('code');
        const tok = await fetch(`${other.url}/login/oauth/access_token`, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: clientId, client_secret: 's3cret', code }),
        }).then((r) => r.json());
        assert.match(tok.access_token, /^gho_/, clientId);
      }
      const mine = (await ctl('/info')).json.repos;
      const theirs = (await c.ctl('/info')).json.repos;
      assert.deepEqual(theirs, mine, 'same repo state → same SHAs and files');
    } finally {
      await other.stop();
    }
  });

  test('a multi-commit repository: PR 2 is HEAD~k..HEAD with renames and binaries', async () => {
    const dir = mktemp();
    git(dir, ['init', '-q', '-b', 'main']);
    sh(dir, "printf 'export const a = 1;\\n' > a.ts && printf 'def b():\\n    return 1\\n\\n\\ndef c():\\n    return 2\\n' > b.py");
    git(dir, ['add', '-A']);
    commit(dir, 'first', '2025-01-01T00:00:00Z');
    sh(dir, "printf 'export const a = 2;\\n' > a.ts && printf 'fn main() {}\\n' > c.rs");
    git(dir, ['add', '-A']);
    commit(dir, 'second', '2025-01-02T00:00:00Z');
    sh(dir, "git mv b.py d.py && printf '\\211PNG\\r\\n\\032\\n\\000\\000\\001' > logo.png");
    git(dir, ['add', '-A']);
    commit(dir, 'third', '2025-01-03T00:00:00Z');

    const inst = await startStandin({ args: ['--repo-dir', dir] });
    try {
      const c = clientFor(inst.url);
      const { json: pr2 } = await c.api('/repos/logikflow/demo/pulls/2');
      assert.equal(pr2.base.sha, git(dir, ['rev-parse', 'HEAD~2']).trim());
      assert.equal(pr2.head.sha, git(dir, ['rev-parse', 'HEAD']).trim());
      assert.equal(pr2.commits, 2);
      const files = await listAllFiles(c.api, 'logikflow/demo', 2);
      const by = Object.fromEntries(files.map((f) => [f.filename, f]));
      assert.deepEqual(Object.keys(by).sort(), ['a.ts', 'c.rs', 'd.py', 'logo.png']);
      assert.equal(by['a.ts'].status, 'modified');
      assert.equal(by['a.ts'].patch, '@@ -1 +1 @@\n-export const a = 1;\n+export const a = 2;');
      assert.equal(by['c.rs'].status, 'added');
      assert.deepEqual([by['d.py'].status, by['d.py'].previous_filename, by['d.py'].changes, by['d.py'].patch], ['renamed', 'b.py', 0, undefined]);
      assert.deepEqual([by['logo.png'].status, by['logo.png'].patch], ['added', undefined]);
      const cmp = await c.api(`/repos/logikflow/demo/compare/${pr2.base.sha}...${pr2.head.sha}`);
      assert.deepEqual(cmp.json.commits.map((x) => x.commit.message), ['second', 'third']);
      const { json: pr1 } = await c.api('/repos/logikflow/demo/pulls/1');
      assert.equal(pr1.commits, 3);
      assert.equal(pr1.changed_files, 4);
    } finally {
      await inst.stop();
    }
  });

  test('a one-commit repository uses the empty-tree fallback for PR 2', async () => {
    const dir = mktemp();
    git(dir, ['init', '-q', '-b', 'main']);
    sh(dir, "mkdir -p src && printf 'fn main() {}\\n' > src/main.rs && printf '# x\\n' > README.md");
    git(dir, ['add', '-A']);
    commit(dir, 'only', '2025-01-01T00:00:00Z');
    const inst = await startStandin({ args: [`--repo-dir=${dir}/src`] });
    try {
      const c = clientFor(inst.url);
      const { json: pr2 } = await c.api('/repos/logikflow/demo/pulls/2');
      const { json: pr1 } = await c.api('/repos/logikflow/demo/pulls/1');
      assert.equal(pr2.base.sha, pr1.base.sha);
      assert.equal(pr2.changed_files, 2);
      assert.match(pr2.title, /fallback/);
    } finally {
      await inst.stop();
    }
  });

  test('without git the demo PRs are synthetic and everything still works', async () => {
    const dir = mktemp();
    const inst = await startStandin({ args: ['--repo-dir', dir] });
    try {
      const c = clientFor(inst.url);
      assert.match(inst.stderr(), /no git repository/);
      assert.match(inst.stdout(), /^github-standin listening on http:\/\/127\.0\.0\.1:\d+\n$/);
      const { json: pr1 } = await c.api('/repos/logikflow/demo/pulls/1');
      assert.ok(pr1.changed_files > 0);
      assert.equal((await c.api('/repos/logikflow/demo/pulls/3/files')).json.length, 7);
    } finally {
      await inst.stop();
    }
  });

  test('bad command-line arguments exit with status 2', async () => {
    await assert.rejects(() => startStandin({ args: ['--bogus'] }), /exited with 2/);
  });
});

describe('writing reviews (issue 29)', () => {
  const PR = '/repos/logikflow/demo/pulls/3';
  const post = (path, body, token = TOKENS.octo) => api(path, { method: 'POST', token, body: JSON.stringify(body) });
  const graphql = (query, variables, token = TOKENS.octo) => post('/graphql', { query, variables }, token);
  const THREADS = 'query($owner:String!,$name:String!,$number:Int!){repository(owner:$owner,name:$name){pullRequest(number:$number){reviewThreads(first:100){nodes{id isResolved viewerCanResolve viewerCanUnresolve viewerCanReply comments(first:1){nodes{databaseId}}}}}}}';
  const RESOLVE = 'mutation($id:ID!){resolveReviewThread(input:{threadId:$id}){thread{id isResolved}}}';
  let target;

  beforeEach(async () => {
    await ctl('/reset', {});
    const { json: files } = await api(`${PR}/files`);
    const file = files.find((f) => f.patch && /\n\+/.test(f.patch));
    const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(file.patch);
    // The first added line's new number.
    let line = Number(m[2]);
    for (const l of file.patch.split('\n').slice(1)) {
      if (l.startsWith('+')) break;
      if (!l.startsWith('-')) line++;
    }
    const { json: pr } = await api(PR);
    target = { path: file.filename, line, head: pr.head.sha, author: pr.user.login };
  });

  test('a review with comments and a verdict is kept, and its comments are listed', async () => {
    const reviewer = target.author === 'octo' ? TOKENS.maint : TOKENS.octo;
    const before = (await api(`${PR}/comments`)).json.length;
    const { status, json } = await post(`${PR}/reviews`, {
      commit_id: target.head, body: 'Please fix', event: 'REQUEST_CHANGES',
      comments: [{ path: target.path, line: target.line, side: 'RIGHT', body: 'Here' }],
    }, reviewer);
    assert.equal(status, 200);
    assert.equal(json.state, 'CHANGES_REQUESTED');
    assert.equal(json.commit_id, target.head);
    const held = await ctl('/reviews?repo=logikflow/demo&number=3');
    assert.equal(held.json.reviews.length, 1);
    assert.deepEqual(held.json.comments.map((c) => [c.path, c.line, c.side, c.commit_id, c.body]), [[target.path, target.line, 'RIGHT', target.head, 'Here']]);
    const listed = (await api(`${PR}/comments`)).json;
    assert.equal(listed.length, before + 1);
    assert.equal((await api(PR)).json.review_comments, before + 1);
  });

  test('GitHub\'s refusals: a line outside the diff, the author\'s approval, one pending review, a read-only install', async () => {
    const outside = await post(`${PR}/comments`, { commit_id: target.head, path: target.path, line: 99999, side: 'RIGHT', body: 'x' });
    assert.equal(outside.status, 422);
    assert.match(JSON.stringify(outside.json), /pull_request_review_thread\.line must be part of the diff/);
    const authorToken = TOKENS[target.author];
    const own = await post(`${PR}/reviews`, { commit_id: target.head, event: 'APPROVE' }, authorToken);
    assert.equal(own.status, 422);
    assert.deepEqual(own.json.errors, ['Can not approve your own pull request']);
    await ctl('/reviews/pending', { repo: 'logikflow/demo', number: 3, login: 'reader' });
    const second = await post(`${PR}/reviews`, { commit_id: target.head, event: 'COMMENT', body: 'x' }, TOKENS.reader);
    assert.equal(second.status, 422);
    assert.deepEqual(second.json.errors, ['User can only have one pending review per pull request']);
    await ctl('/config', { pullRequestsReadOnly: true });
    const readOnly = await post(`${PR}/comments`, { commit_id: target.head, path: target.path, line: target.line, side: 'RIGHT', body: 'x' });
    assert.equal(readOnly.status, 403);
    assert.equal(readOnly.json.message, 'Resource not accessible by integration');
    assert.equal((await ctl('/reviews?repo=logikflow/demo&number=3')).json.comments.length, 0, 'nothing kept');
  });

  test('a single comment, a reply, and its thread resolved through GraphQL', async () => {
    const single = await post(`${PR}/comments`, { commit_id: target.head, path: target.path, line: target.line, side: 'RIGHT', body: 'One' });
    assert.equal(single.status, 201);
    const reply = await post(`${PR}/comments/${single.json.id}/replies`, { body: 'Two' }, TOKENS.maint);
    assert.equal(reply.status, 201);
    assert.equal(reply.json.in_reply_to_id, single.json.id);
    assert.equal((await post(`${PR}/comments/1/replies`, { body: 'x' })).status, 404);
    const threads = (await graphql(THREADS, { owner: 'logikflow', name: 'demo', number: 3 })).json.data.repository.pullRequest.reviewThreads.nodes;
    const thread = threads.find((t) => t.comments.nodes[0].databaseId === single.json.id);
    assert.deepEqual([thread.isResolved, thread.viewerCanResolve], [false, true]);
    const resolved = await graphql(RESOLVE, { id: thread.id });
    assert.deepEqual(resolved.json.data.resolveReviewThread.thread, { id: thread.id, isResolved: true });
    const again = (await graphql(THREADS, { owner: 'logikflow', name: 'demo', number: 3 })).json.data.repository.pullRequest.reviewThreads.nodes;
    assert.equal(again.find((t) => t.id === thread.id).viewerCanUnresolve, true);
    await ctl('/config', { pullRequestsReadOnly: true });
    const refused = await graphql(RESOLVE.replace('resolveReviewThread', 'unresolveReviewThread'), { id: thread.id });
    assert.equal(refused.json.errors[0].type, 'FORBIDDEN');
    assert.equal(refused.json.data.unresolveReviewThread, null);
  });
});

describe('reading a review back (issue 38)', () => {
  const PR = '/repos/logikflow/private/pulls/1';
  const REVIEW = 'query($owner:String!,$name:String!,$number:Int!){repository(owner:$owner,name:$name){pullRequest(number:$number){reviewThreads(first:100){totalCount pageInfo{hasNextPage} nodes{isResolved isOutdated path line startLine originalLine originalStartLine diffSide comments(first:100){totalCount nodes{author{login} body createdAt url diffHunk state originalCommit{oid}}}}} reviews(last:100){totalCount nodes{author{login} state body submittedAt url commit{oid}}}}}}';
  const read = async (token = TOKENS.maint, first = 100) => (await api('/graphql', {
    method: 'POST', token, body: JSON.stringify({ query: REVIEW.replace('reviewThreads(first:100)', `reviewThreads(first:${first})`), variables: { owner: 'logikflow', name: 'private', number: 1 } }),
  })).json;

  beforeEach(async () => {
    await ctl('/reset', {});
  });

  test('the demo review: diff hunks as GitHub keeps them, one thread outdated by the push, the other carried', async () => {
    const before = (await api(PR)).json.head.sha;
    const demo = await ctl('/reviews/demo', { repo: 'logikflow/private', number: 1, reviewer: 'octo', push: true });
    assert.equal(demo.status, 201);
    assert.equal(demo.json.review.state, 'CHANGES_REQUESTED');
    const head = demo.json.push.head_sha;
    assert.notEqual(head, before);
    const pull = (await read()).data.repository.pullRequest;
    assert.equal(pull.reviewThreads.totalCount, 2);
    assert.equal(pull.reviewThreads.pageInfo.hasNextPage, false);
    const [edited, kept] = demo.json.comments.map((c) => pull.reviewThreads.nodes.find((t) => t.path === c.path));
    assert.deepEqual([edited.isOutdated, edited.line, edited.originalLine], [true, null, demo.json.comments[0].line]);
    assert.deepEqual([kept.isOutdated, kept.line], [false, demo.json.comments[1].line]);
    for (const thread of [edited, kept]) {
      const [comment] = thread.comments.nodes;
      assert.equal(comment.state, 'SUBMITTED');
      assert.equal(comment.originalCommit.oid, before);
      // GitHub's diff_hunk: the hunk's @@ line, then its rows down to the commented line.
      const rows = comment.diffHunk.split('\n');
      assert.match(rows[0], /^@@ -\d+,\d+ \+\d+,\d+ @@/);
      assert.ok(rows.at(-1).startsWith('+'), rows.at(-1));
    }
    assert.match(edited.comments.nodes[0].body, /```suggestion\n/);
    assert.deepEqual(pull.reviews.nodes.map((r) => [r.author.login, r.state, r.commit.oid]), [['octo', 'CHANGES_REQUESTED', before]]);
    // REST lists the carried comment on its line at the new head, the outdated one without.
    const comments = (await api(`${PR}/comments`, { token: TOKENS.maint })).json;
    const rest = new Map(comments.map((c) => [c.path, c]));
    assert.deepEqual([rest.get(kept.path).line, rest.get(kept.path).commit_id], [kept.line, head]);
    assert.deepEqual([rest.get(edited.path).line, rest.get(edited.path).position], [null, null]);
  });

  test('pending comments and reviews are their writer\'s alone; first:N pages the threads; hidden to reader', async () => {
    const { json: pr } = await api(PR);
    const demo = await ctl('/reviews/demo', { repo: 'logikflow/private', number: 1, reviewer: 'octo' });
    const [{ path, line }] = demo.json.comments;
    const pending = await api(`${PR}/reviews`, { method: 'POST', token: TOKENS.octo, body: JSON.stringify({ commit_id: pr.head.sha, comments: [{ path, line, side: 'RIGHT', body: 'draft' }] }) });
    assert.equal(pending.json.state, 'PENDING');
    const mine = (await read(TOKENS.octo)).data.repository.pullRequest;
    assert.equal(mine.reviewThreads.totalCount, 3);
    assert.equal(mine.reviewThreads.nodes[2].comments.nodes[0].state, 'PENDING');
    assert.deepEqual(mine.reviews.nodes.map((r) => r.state), ['CHANGES_REQUESTED', 'PENDING']);
    const theirs = (await read(TOKENS.maint)).data.repository.pullRequest;
    assert.equal(theirs.reviewThreads.totalCount, 2);
    assert.deepEqual(theirs.reviews.nodes.map((r) => r.state), ['CHANGES_REQUESTED']);
    const paged = (await read(TOKENS.maint, 1)).data.repository.pullRequest.reviewThreads;
    assert.deepEqual([paged.nodes.length, paged.totalCount, paged.pageInfo.hasNextPage], [1, 2, true]);
    const hidden = await read(TOKENS.reader);
    assert.equal(hidden.data.repository, null);
    assert.equal(hidden.errors[0].type, 'NOT_FOUND');
  });

  test('an edit-line push rewrites one added line; an unknown line is refused', async () => {
    const { json: files } = await api(`${PR}/files`, { token: TOKENS.maint });
    const readme = files.find((f) => f.filename === 'README.md');
    const line = 6;
    const pushed = await ctl('/push', { repo: 'logikflow/private', number: 1, edits: [{ path: 'README.md', op: 'edit-line', line }] });
    assert.equal(pushed.status, 200);
    const after = (await api(`${PR}/files`, { token: TOKENS.maint })).json.find((f) => f.filename === 'README.md');
    assert.notEqual(after.patch, readme.patch);
    assert.match(after.patch, /\(changed by push \d+\)/);
    assertValidPatch(after.patch, 'README.md');
    const refused = await ctl('/push', { repo: 'logikflow/private', number: 1, edits: [{ path: 'README.md', op: 'edit-line', line: 1 }] });
    assert.equal(refused.status, 422);
  });
});

describe('commit statuses (issue 47)', () => {
  const REPO = '/repos/logikflow/demo';
  const post = (path, body, token = TOKENS.octo) => api(path, { method: 'POST', token, body: JSON.stringify(body) });
  let head;

  beforeEach(async () => {
    await ctl('/reset', {});
    head = (await api(`${REPO}/pulls/3`)).json.head.sha;
  });

  test('a status is created with 201, listed newest first, and combined per context', async () => {
    const first = await post(`${REPO}/statuses/${head}`, { state: 'pending', context: 'LogiKFlow', description: 'old' });
    assert.equal(first.status, 201);
    const created = await post(`${REPO}/statuses/${head}`, {
      state: 'success', context: 'LogiKFlow', target_url: 'https://review.test/r/logikflow/demo/pull/3', description: 'Reading order v1 · 2 sections',
    });
    assert.equal(created.status, 201);
    for (const key of ['url', 'avatar_url', 'id', 'node_id', 'state', 'description', 'target_url', 'context', 'created_at', 'updated_at', 'creator']) {
      assert.ok(Object.hasOwn(created.json, key), key);
    }
    assert.equal(created.json.creator.login, 'octo');
    assert.equal(created.json.description, 'Reading order v1 · 2 sections');
    const other = await post(`${REPO}/statuses/${head}`, { state: 'failure', context: 'ci' });
    assert.equal(other.status, 201);
    const listed = await api(`${REPO}/commits/${head}/statuses`);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.json.map((s) => [s.context, s.state]), [['ci', 'failure'], ['LogiKFlow', 'success'], ['LogiKFlow', 'pending']]);
    assert.deepEqual((await api(`${REPO}/statuses/${head}`)).json, listed.json, 'the legacy list is the same');
    assert.equal((await api(`${REPO}/commits/${head}/statuses?per_page=1`)).json.length, 1);
    // By branch name too: the pull request's head branch resolves to its head sha.
    const pr = (await api(`${REPO}/pulls/3`)).json;
    const combined = await api(`${REPO}/commits/${pr.head.ref}/status`);
    assert.equal(combined.status, 200);
    assert.equal(combined.json.sha, head);
    assert.equal(combined.json.total_count, 2);
    assert.equal(combined.json.state, 'failure', 'a failing context fails the combined state');
    const ours = combined.json.statuses.find((s) => s.context === 'LogiKFlow');
    assert.equal(ours.state, 'success');
    assert.equal(ours.target_url, 'https://review.test/r/logikflow/demo/pull/3');
    assert.equal(combined.json.repository.full_name, 'logikflow/demo');
    for (const key of ['commit_url', 'url']) assert.ok(combined.json[key].startsWith(base), key);
    const empty = await api(`${REPO}/commits/main/status`);
    assert.deepEqual([empty.json.state, empty.json.total_count], ['pending', 0], 'no statuses is pending');
  });

  test('GitHub\'s refusals: no push access, a bad state or description, an unknown sha, an App without statuses', async () => {
    const noPush = await post(`${REPO}/statuses/${head}`, { state: 'success' }, TOKENS.reader);
    assert.deepEqual([noPush.status, noPush.json.message], [404, 'Not Found']);
    const invisible = await post(`/repos/logikflow/private/statuses/${head}`, { state: 'success' }, TOKENS.reader);
    assert.equal(invisible.status, 404);
    const state = await post(`${REPO}/statuses/${head}`, { state: 'done' });
    assert.equal(state.status, 422);
    assert.equal(state.json.message, 'Validation Failed');
    assert.deepEqual(state.json.errors, [{ resource: 'Status', code: 'custom', field: 'state', message: 'state is not included in the list' }]);
    const long = await post(`${REPO}/statuses/${head}`, { state: 'success', description: '·'.repeat(141) });
    assert.equal(long.status, 422);
    assert.match(long.json.errors[0].message, /maximum is 140 characters/);
    assert.equal((await post(`${REPO}/statuses/${head}`, { state: 'success', description: '·'.repeat(140) })).status, 201, '140 characters, not bytes');
    const unknown = 'f'.repeat(40);
    const missing = await post(`${REPO}/statuses/${unknown}`, { state: 'success' });
    assert.deepEqual([missing.status, missing.json.message], [422, `No commit found for SHA: ${unknown}`]);
    assert.equal((await api(`${REPO}/commits/${unknown}/status`)).status, 422);
    await ctl('/config', { statusesReadOnly: true });
    const app = await post(`${REPO}/statuses/${head}`, { state: 'success' });
    assert.deepEqual([app.status, app.json.message], [403, 'Resource not accessible by integration']);
    await ctl('/config', { statusesReadOnly: false });
    await ctl('/faults', { path: '/statuses/', method: 'POST', kind: 'status', status: 503, times: 1 });
    assert.equal((await post(`${REPO}/statuses/${head}`, { state: 'success' })).status, 503, 'a fault rule refuses it once');
    assert.equal((await post(`${REPO}/statuses/${head}`, { state: 'success' })).status, 201);
    const held = (await ctl('/statuses')).json;
    assert.equal(held[`logikflow/demo@${head}`].length, 2, 'only what GitHub took is kept');
    await ctl('/reset', {});
    assert.deepEqual((await ctl('/statuses')).json, {});
  });
});

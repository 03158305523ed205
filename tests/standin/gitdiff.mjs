// gitdiff.mjs — reads real history, diffs and file contents from a local git repository.
//
// Why: the stand-in's demo pull requests (logikflow/demo #1 and #2) are built from this project's
// own git history so that people trying the server locally review real code with real SHAs.
// Only committed objects are read (never the work tree), so the data is deterministic for a given
// repository state. All git calls use execFileSync (no shell) and fail soft: callers get `null`
// or an exception they catch, never a crash of the stand-in.

import { execFileSync } from 'node:child_process';

/** SHA of git's empty tree: diffing it against HEAD shows the whole project as added. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Patches larger than this are omitted from /files (GitHub omits `patch` for very large diffs). */
export const MAX_PATCH_BYTES = 100 * 1024;

const HEX40 = /^[0-9a-f]{40}$/;

/** Runs git in `dir` with settings pinned so user config cannot change the output format. */
export function git(dir, args, { buffer = false } = {}) {
  return execFileSync(
    'git',
    ['-c', 'core.quotepath=false', '-c', 'color.ui=never', '-c', 'diff.noprefix=false', ...args],
    {
      cwd: dir,
      encoding: buffer ? 'buffer' : 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' },
    },
  );
}

/** Top-level directory of the git work tree containing `dir`, or null if git is unusable. */
export function topLevel(dir) {
  try {
    return git(dir, ['rev-parse', '--show-toplevel']).trim() || null;
  } catch {
    return null;
  }
}

/**
 * First-parent history from HEAD, newest first: `[{ sha, parents, author, email, date, message }]`.
 * In a shallow clone this stops at the shallow boundary, which is fine.
 */
export function firstParentChain(dir, max = 20000) {
  const out = git(dir, [
    'log',
    '--first-parent',
    `--max-count=${max}`,
    '--format=%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%B%x1e',
    'HEAD',
  ]);
  const commits = [];
  for (const record of out.split('\x1e')) {
    const trimmed = record.replace(/^\n+/, '');
    if (!trimmed) continue;
    const [sha, parents, author, email, date, message] = trimmed.split('\x1f');
    if (!HEX40.test(sha)) continue;
    commits.push({
      sha,
      parents: parents ? parents.split(' ').filter(Boolean) : [],
      author,
      email,
      date: new Date(date).toISOString().replace('.000Z', 'Z'),
      message: (message || '').replace(/\n+$/, ''),
    });
  }
  return commits;
}

const STATUS = { A: 'added', D: 'removed', M: 'modified', R: 'renamed', C: 'copied', T: 'changed' };

/** Parses `git diff --raw -z --no-abbrev` into entries `{ status, oldSha, newSha, path, oldPath }`. */
function parseRaw(out) {
  const tokens = out.split('\0');
  const entries = [];
  for (let i = 0; i < tokens.length; i++) {
    const meta = tokens[i];
    if (!meta.startsWith(':')) continue;
    const [, , oldSha, newSha, code] = meta.slice(1).split(' ');
    const letter = code[0];
    if (letter === 'R' || letter === 'C') {
      entries.push({ status: STATUS[letter], oldSha, newSha, oldPath: tokens[i + 1], path: tokens[i + 2] });
      i += 2;
    } else {
      entries.push({ status: STATUS[letter] || 'modified', oldSha, newSha, path: tokens[i + 1] });
      i += 1;
    }
  }
  return entries;
}

/** Parses `git diff --numstat -z` into `[{ additions, deletions, binary, path }]`. */
function parseNumstat(out) {
  const tokens = out.split('\0');
  const entries = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!token) continue;
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(token);
    if (!m) continue;
    let path = m[3];
    if (path === '') {
      // rename/copy: "<add>\t<del>\t\0<old>\0<new>\0"
      path = tokens[i + 2];
      i += 2;
    }
    const binary = m[1] === '-';
    entries.push({
      additions: binary ? 0 : Number(m[1]),
      deletions: binary ? 0 : Number(m[2]),
      binary,
      path,
    });
  }
  return entries;
}

/** GitHub `patch` from one file's `git diff` section: everything from the first `@@` line on. */
function patchFromSection(section) {
  const lines = section.split('\n');
  const start = lines.findIndex((l) => l.startsWith('@@ '));
  if (start < 0) return undefined;
  let end = lines.length;
  while (end > start && lines[end - 1] === '') end--;
  return lines.slice(start, end).join('\n');
}

/** Splits full `git diff` output into per-file sections (each starting with `diff --git`). */
function splitSections(text) {
  const sections = [];
  let current = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = [line];
      sections.push(current);
    } else if (current) {
      current.push(line);
    }
  }
  return sections.map((s) => s.join('\n'));
}

const DIFF_FLAGS = [
  '-M',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--diff-algorithm=myers',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];

/**
 * Changed files between two commits (or the empty tree and a commit), GitHub style:
 * `[{ filename, previous_filename?, status, sha, additions, deletions, patch? }]`, in git diff
 * order (by path). Binary files and patches over MAX_PATCH_BYTES have no `patch`.
 */
export function diffFiles(dir, base, head) {
  const raw = parseRaw(git(dir, ['diff', '--raw', '-z', '--no-abbrev', ...DIFF_FLAGS, base, head]));
  const numstat = parseNumstat(git(dir, ['diff', '--numstat', '-z', ...DIFF_FLAGS, base, head]));
  let sections = splitSections(
    git(dir, ['diff', '-U3', '--inter-hunk-context=0', ...DIFF_FLAGS, base, head]),
  );
  if (sections.length !== raw.length) {
    // Should not happen (both come from the same diff queue); fall back to one diff per file.
    sections = raw.map((entry) => {
      const paths = entry.oldPath ? [entry.oldPath, entry.path] : [entry.path];
      return git(dir, ['diff', '-U3', '--inter-hunk-context=0', ...DIFF_FLAGS, base, head, '--', ...paths]);
    });
  }
  return raw.map((entry, i) => {
    const stat = numstat[i] && numstat[i].path === entry.path ? numstat[i] : null;
    let patch = stat && stat.binary ? undefined : patchFromSection(sections[i] || '');
    if (patch !== undefined && Buffer.byteLength(patch) > MAX_PATCH_BYTES) patch = undefined;
    let additions = stat ? stat.additions : 0;
    let deletions = stat ? stat.deletions : 0;
    if (!stat && patch) {
      for (const line of patch.split('\n')) {
        if (line[0] === '+') additions++;
        else if (line[0] === '-') deletions++;
      }
    }
    return {
      filename: entry.path,
      previous_filename: entry.oldPath,
      status: entry.status,
      sha: entry.status === 'removed' ? entry.oldSha : entry.newSha,
      additions,
      deletions,
      patch,
    };
  });
}

/**
 * Looks up `path` at commit `sha`: `{ type: 'file', sha, size, content: Buffer }`,
 * `{ type: 'dir', entries: [{ type, name, path, sha, size }] }`, or null when absent.
 */
export function readPath(dir, sha, path) {
  if (!HEX40.test(sha)) return null;
  const clean = path.replace(/^\/+|\/+$/g, '');
  try {
    if (clean === '') return { type: 'dir', entries: listTree(dir, sha, '') };
    const out = git(dir, ['ls-tree', '-z', '-l', '--full-tree', sha, '--', clean]);
    const entry = out.split('\0').filter(Boolean).map(parseTreeLine).find((e) => e.path === clean);
    if (!entry) return null;
    if (entry.type === 'dir') return { type: 'dir', entries: listTree(dir, entry.sha, clean) };
    if (entry.type !== 'file') return null; // submodules and symlinks are out of scope
    const content = git(dir, ['cat-file', 'blob', entry.sha], { buffer: true });
    return { type: 'file', sha: entry.sha, size: content.length, content };
  } catch {
    return null;
  }
}

function listTree(dir, treeish, prefix) {
  const out = git(dir, ['ls-tree', '-z', '-l', treeish]);
  return out
    .split('\0')
    .filter(Boolean)
    .map(parseTreeLine)
    .map((e) => ({ ...e, path: prefix ? `${prefix}/${e.path}` : e.path }));
}

function parseTreeLine(line) {
  const tab = line.indexOf('\t');
  const [mode, kind, sha, size] = line.slice(0, tab).split(/\s+/);
  const path = line.slice(tab + 1);
  const type = kind === 'tree' ? 'dir' : kind === 'commit' ? 'submodule' : mode === '120000' ? 'symlink' : 'file';
  return { type, name: path.split('/').pop(), path, sha, size: size === '-' ? 0 : Number(size) };
}

/** True when `sha` names a commit in the repository (results cached by the caller). */
export function commitExists(dir, sha) {
  if (!HEX40.test(sha)) return false;
  try {
    git(dir, ['cat-file', '-e', `${sha}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

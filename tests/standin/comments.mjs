// comments.mjs — review comments (comments on diff lines) for the demo pull requests, in the shape
// of GitHub's GET /repos/{o}/{r}/pulls/{n}/comments.
//
// Why: the review page shows the comments written on GitHub under the lines they are on, and
// marks outdated ones as GitHub does (`position: null`, `line: null`). The comments are derived
// from each pull request's current patches, so they always sit on a real line of the diff (also
// after a push), except the outdated one, which names a line of an earlier version.

import { parsePatch } from './synth.mjs';

const WEB = 'https://github.com';

/** Which pull requests get comments, and on which file (the first match with a patch). */
const PLANS = {
  'logikflow/demo#3': { file: (f) => f.filename === 'src/review/order.ts', outdatedOn: 'src/review/order.ts', also: 'tools/hints.py' },
  // On a file far down the list (in the review page's third window of 100 entries, past the
  // diffs that window inlines), so the test sees comments on a diff that loads on demand.
  'logikflow/big#1': { file: (f, i) => i >= 290, outdatedOn: null, also: null },
  // Issue #44: 60 comments of 65,000 characters, each one unbroken run of mixed directions, by
  // the read-only `reader` on the one added line; the eighth carries U+202E (right-to-left
  // override).
  'logikflow/hostile#1': { file: () => true, outdatedOn: null, also: null, hostile: { count: 60, chars: 65000, bidi: 7 } },
};

/**
 * The body of hostile comment `n`: `chars` characters with no white space, U+202E in one of them.
 * Latin letters, a combining acute, Arabic alef and Hebrew alef in a seeded random mix: a run
 * whose direction changes every few characters is what Chromium lays out in time that grows
 * faster than its length (one such run of 16,384 characters took 64 ms, of 65,000 970 ms), so
 * sixty of them kept the page from loading; the same length of one Latin letter loads in seconds.
 */
function hostileBody(n, { chars, bidi }) {
  const alphabet = ['a', '\u0301', 'b', '\u0627', '\u05D0'];
  let seed = 7919 * (n + 1);
  const out = [`${n}`];
  for (let i = out[0].length; i < chars; i++) {
    seed = (seed * 16807) % 2147483647;
    out.push(alphabet[seed % alphabet.length]);
  }
  if (n === bidi) out[10] = '\u202E';
  return out.join('');
}

const USER_IDS = { octo: 1001, reader: 1002, maint: 1003 };

/**
 * The lines of a patch with their diff position (1-based, counted below the first `@@` line as
 * GitHub does), their old and new line numbers, their hunk's `@@` line and the line as written.
 */
export function patchLines(patch) {
  return lines(patch);
}

function lines(patch) {
  const out = [];
  let position = 0;
  parsePatch(patch).forEach((hunk, index) => {
    if (index > 0) position++; // a later @@ line counts as a position
    let oldNo = hunk.oldStart;
    let newNo = hunk.newStart;
    for (const line of hunk.lines) {
      position++;
      const kind = line[0];
      if (kind === '\\') continue;
      out.push({ kind, position, old: kind === '+' ? null : oldNo, new: kind === '-' ? null : newNo, hunk: hunk.header, text: line });
      if (kind !== '+') oldNo++;
      if (kind !== '-') newNo++;
    }
  });
  return out;
}

function comment(origin, repo, pr, id, f, spec) {
  const api = `${origin}/repos/${repo.fullName}`;
  const html = `${WEB}/${repo.fullName}/pull/${pr.number}`;
  return {
    url: `${api}/pulls/comments/${id}`,
    pull_request_review_id: id + 500,
    id,
    node_id: `PRRC_standin${id}`,
    diff_hunk: spec.hunk,
    path: f.filename,
    position: spec.position,
    original_position: spec.originalPosition ?? spec.position ?? 1,
    commit_id: spec.position === null ? pr.commitShas[0] : pr.headSha,
    original_commit_id: pr.commitShas[0],
    in_reply_to_id: spec.inReplyTo ?? undefined,
    user: { login: spec.user, id: USER_IDS[spec.user] ?? 1003, type: 'User', site_admin: false },
    body: spec.body,
    created_at: spec.at,
    updated_at: spec.at,
    html_url: `${html}#discussion_r${id}`,
    pull_request_url: `${api}/pulls/${pr.number}`,
    author_association: 'MEMBER',
    start_line: null,
    original_start_line: null,
    start_side: null,
    line: spec.line,
    original_line: spec.originalLine ?? spec.line,
    side: spec.side,
    subject_type: 'line',
  };
}

/** The review comments of a pull request, oldest first (GitHub's order); `[]` for most. */
export function reviewComments(origin, repo, pr) {
  const plan = PLANS[`${repo.fullName}#${pr.number}`];
  if (!plan) return [];
  const base = repo.id * 10 + pr.number * 100000;
  const out = [];
  const target = pr.files.find((f, i) => f.patch && f.status !== 'removed' && plan.file(f, i));
  if (target) {
    const all = lines(target.patch);
    const added = all.find((l) => l.kind === '+') ?? all[0];
    if (plan.hostile) {
      for (let n = 0; n < plan.hostile.count; n++) {
        out.push(comment(origin, repo, pr, base + 1 + n, target, {
          user: 'reader', side: 'RIGHT', line: added.new, position: added.position, hunk: added.hunk,
          at: '2025-07-03T10:00:00Z', body: hostileBody(n, plan.hostile),
        }));
      }
      return out;
    }
    out.push(comment(origin, repo, pr, base + 1, target, {
      user: 'octo', side: 'RIGHT', line: added.new, position: added.position, hunk: added.hunk, at: '2025-02-20T10:00:00Z',
      body: 'Does this need a test? <script>window.__pwned = 1</script> stays text.',
    }));
    out.push(comment(origin, repo, pr, base + 2, target, {
      user: 'maint', side: 'RIGHT', line: added.new, position: added.position, hunk: added.hunk, at: '2025-02-20T11:00:00Z',
      inReplyTo: base + 1, body: 'Added one in the next commit.',
    }));
  }
  const also = plan.also && pr.files.find((f) => f.filename === plan.also && f.patch);
  const removed = also && lines(also.patch).find((l) => l.kind === '-');
  if (removed) {
    out.push(comment(origin, repo, pr, base + 3, also, {
      user: 'maint', side: 'LEFT', line: removed.old, position: removed.position, hunk: removed.hunk, at: '2025-02-20T12:00:00Z',
      body: 'Why was this line removed?',
    }));
  }
  const outdatedFile = plan.outdatedOn && pr.files.find((f) => f.filename === plan.outdatedOn);
  if (outdatedFile) {
    out.push(comment(origin, repo, pr, base + 4, outdatedFile, {
      user: 'octo', side: 'RIGHT', line: null, originalLine: 3, position: null, originalPosition: 3,
      hunk: '@@ -1,3 +1,3 @@', at: '2025-02-19T09:00:00Z', body: 'This name reads oddly (on an earlier push).',
    }));
  }
  return out.sort((a, b) => a.id - b.id);
}

// reviews.mjs — writing a review, as GitHub's REST and GraphQL APIs take it (issue 29): create a
// review with comments and an event (or a pending one), a single review comment, a reply, and
// the review threads with their resolution (GraphQL `reviewThreads`, `resolveReviewThread`,
// `unresolveReviewThread`).
//
// Why: the review page sends reviewers' comments and verdicts with their own token; the tests
// check what GitHub would then hold, and that GitHub's refusals reach the reviewer as sentences.
// GitHub's rules are kept: a comment's line (and a range's first line) must be a line of the
// pull request's diff on the side named, in one hunk (422); the author can't approve or request
// changes on their own pull request (422); one pending review per person and pull request
// (422); a token whose App was installed without write access to pull requests gets 403
// "Resource not accessible by integration" (the stand-in's `pullRequestsReadOnly` setting).
// What is written is kept per pull request until `POST /_standin/reset`; `GET /_standin/reviews`
// shows it.

import { simpleUser } from './shapes.mjs';
import { patchLines } from './comments.mjs';

const WEB = 'https://github.com';
const DOCS = {
  reviews: 'https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request',
  comments: 'https://docs.github.com/rest/pulls/comments#create-a-review-comment-for-a-pull-request',
  replies: 'https://docs.github.com/rest/pulls/comments#create-a-reply-for-a-review-comment',
};
const LEVELS = ['pull', 'triage', 'push', 'maintain', 'admin'];
const SIDES = new Set(['LEFT', 'RIGHT']);

/** A refusal in GitHub's shape. */
class Refused extends Error {
  constructor(status, body) {
    super(body.message);
    this.status = status;
    this.body = body;
  }
}
const unprocessable = (errors, doc, message = 'Unprocessable Entity') =>
  new Refused(422, { message, errors, documentation_url: doc, status: '422' });
const notIntegrationAccessible = (doc) =>
  new Refused(403, { message: 'Resource not accessible by integration', documentation_url: doc, status: '403' });
const notFound = (doc) => new Refused(404, { message: 'Not Found', documentation_url: doc, status: '404' });

export { Refused };

export class ReviewBook {
  constructor() {
    this.reset();
  }

  reset() {
    this.pulls = new Map(); // "owner/repo#n" (lower-case) -> { comments, reviews, resolved }
    this.nextId = 7_000_000;
  }

  /** The written state of one pull request. */
  of(repo, pr) {
    const key = `${repo.fullName}#${pr.number}`.toLowerCase();
    let book = this.pulls.get(key);
    if (!book) {
      book = { comments: [], reviews: [], resolved: new Map() };
      this.pulls.set(key, book);
    }
    return book;
  }

  /** The comments GitHub lists: the derived ones and those written, without pending ones of others. */
  listed(repo, pr, derived, login) {
    return this.visible(repo, pr, derived, login).map(({ pending, ...c }) => c);
  }

  /**
   * The comments `login` may see, written ones carried to the current head (`carried`), each
   * still marked `pending` when it is part of a review not yet submitted.
   */
  visible(repo, pr, derived, login) {
    const book = this.of(repo, pr);
    const mine = book.comments.filter((c) => !c.pending || c.user.login === login);
    const roots = new Map(mine.filter((c) => !c.in_reply_to_id).map((c) => [c.id, c]));
    const written = mine.map((c) => ReviewBook.carried(pr, c, roots.get(c.in_reply_to_id ?? c.id) ?? c));
    return [...derived, ...written].sort((a, b) => a.id - b.id);
  }

  /** What the control API shows. */
  summary(repo, pr) {
    const book = this.of(repo, pr);
    return {
      reviews: book.reviews,
      comments: book.comments,
      resolved: Object.fromEntries(book.resolved),
    };
  }

  /** Whether `line` on `side` is a line of `file`'s diff, and which hunk holds it. */
  static hunkOf(file, side, line) {
    if (!file?.patch) return null;
    const found = patchLines(file.patch).find((l) => (side === 'LEFT' ? l.old : l.new) === line);
    return found ? found.hunk : null;
  }

  /**
   * GitHub's `diff_hunk` of a comment on `line` (`side`): the hunk's `@@` line and its rows down to
   * the commented one.
   */
  static diffHunkOf(file, side, line) {
    const rows = patchLines(file.patch);
    const at = rows.findIndex((l) => (side === 'LEFT' ? l.old : l.new) === line);
    const first = rows.findIndex((l) => l.hunk === rows[at].hunk);
    return [rows[at].hunk, ...rows.slice(first, at + 1).map((l) => l.text)].join('\n');
  }

  /** The rows of a `diff_hunk` below its `@@` line. */
  static rowsOf(diffHunk) {
    return String(diffHunk ?? '').split('\n').slice(1);
  }

  /**
   * A written comment as GitHub shows it at the pull request's current head. GitHub carries a
   * comment across pushes while the diff around its line is unchanged: here, while the rows of its
   * `diff_hunk` still stand, in order, in the file's current patch and end on a line of its side;
   * it then sits on that line (`line`, `position`, `commit_id` the head). Otherwise it is outdated:
   * `line` and `position` `null`, `commit_id` the last head it was current at. Replies follow the
   * first comment of their thread.
   */
  static carried(pr, comment, root = comment) {
    if (root.original_commit_id === pr.headSha) return comment;
    const file = pr.files.find((f) => f.filename === root.path);
    const want = ReviewBook.rowsOf(root.diff_hunk);
    const rows = file?.patch ? patchLines(file.patch) : [];
    const sideOf = (row) => (root.side === 'LEFT' ? row.old : row.new);
    let found = null;
    for (let end = want.length - 1; end < rows.length && !found && want.length > 0; end++) {
      const window = rows.slice(end - want.length + 1, end + 1);
      const same = window.every((row, i) => row.text === want[i] && row.hunk === window[0].hunk);
      if (same && sideOf(rows[end]) !== null && rows[end - want.length + 1] === rows.find((r) => r.hunk === rows[end].hunk)) found = rows[end];
    }
    if (!found) {
      return { ...comment, line: null, start_line: null, position: null, commit_id: comment.commit_id };
    }
    const line = sideOf(found);
    const shift = line - root.original_line;
    return {
      ...comment,
      line,
      start_line: root.original_start_line == null ? null : root.original_start_line + shift,
      position: found.position,
      commit_id: pr.headSha,
    };
  }

  /** Checks a comment's anchor against the diff; returns the diff line it ends on. */
  anchorOf(pr, spec, doc) {
    const file = pr.files.find((f) => f.filename === spec.path);
    const line = Number(spec.line);
    const side = spec.side ?? 'RIGHT';
    // The single-comment endpoint answers in "Validation Failed" form, the review endpoint with a
    // sentence, as GitHub does.
    const single = doc === DOCS.comments;
    const lineRefused = () => (single
      ? unprocessable([{ resource: 'PullRequestReviewComment', code: 'custom', field: 'pull_request_review_thread.line', message: 'pull_request_review_thread.line must be part of the diff' }], doc, 'Validation Failed')
      : unprocessable(['Pull request review thread line must be part of the diff and Pull request review thread diff hunk can\'t be blank'], doc));
    if (!file || !Number.isInteger(line) || !SIDES.has(side)) throw lineRefused();
    const end = ReviewBook.hunkOf(file, side, line);
    let startOk = true;
    if (spec.start_line !== undefined && spec.start_line !== null) {
      const startSide = spec.start_side ?? side;
      const start = ReviewBook.hunkOf(file, startSide, Number(spec.start_line));
      startOk = start !== null && start === end;
    }
    if (end === null || !startOk) throw lineRefused();
    return { path: spec.path, line, side, start_line: spec.start_line ?? null, start_side: spec.start_line ? (spec.start_side ?? side) : null, hunk: ReviewBook.diffHunkOf(file, side, line) };
  }

  comment(origin, repo, pr, login, anchor, body, extra = {}) {
    const id = this.nextId++;
    const api = `${origin}/repos/${repo.fullName}`;
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    return {
      url: `${api}/pulls/comments/${id}`,
      // A comment sent alone or as a reply makes a review of its own on GitHub.
      pull_request_review_id: extra.reviewId ?? this.nextId++,
      id,
      node_id: `PRRC_standin${id}`,
      diff_hunk: anchor.hunk,
      path: anchor.path,
      position: 1,
      original_position: 1,
      commit_id: extra.commitId ?? pr.headSha,
      original_commit_id: extra.commitId ?? pr.headSha,
      in_reply_to_id: extra.inReplyTo,
      user: simpleUser(origin, login),
      body,
      created_at: at,
      updated_at: at,
      html_url: `${WEB}/${repo.fullName}/pull/${pr.number}#discussion_r${id}`,
      pull_request_url: `${api}/pulls/${pr.number}`,
      author_association: 'MEMBER',
      start_line: anchor.start_line,
      original_start_line: anchor.start_line,
      start_side: anchor.start_side,
      line: anchor.line,
      original_line: anchor.line,
      side: anchor.side,
      subject_type: 'line',
      ...(extra.pending ? { pending: true } : {}),
    };
  }

  checkWrite(config, doc) {
    if (config.pullRequestsReadOnly) throw notIntegrationAccessible(doc);
  }

  /** POST /repos/{o}/{r}/pulls/{n}/reviews */
  createReview({ origin, repo, pr, login, config }, body) {
    this.checkWrite(config, DOCS.reviews);
    const book = this.of(repo, pr);
    const event = body.event;
    if (event !== undefined && !['APPROVE', 'REQUEST_CHANGES', 'COMMENT'].includes(event)) {
      throw unprocessable([`Invalid event: ${event}`], DOCS.reviews);
    }
    const pending = book.reviews.find((r) => r.state === 'PENDING' && r.user.login === login);
    if (pending) throw unprocessable(['User can only have one pending review per pull request'], DOCS.reviews);
    if (event === 'APPROVE' && pr.author === login) throw unprocessable(['Can not approve your own pull request'], DOCS.reviews);
    if (event === 'REQUEST_CHANGES' && pr.author === login) throw unprocessable(['Can not request changes on your own pull request'], DOCS.reviews);
    const text = typeof body.body === 'string' ? body.body : '';
    const comments = Array.isArray(body.comments) ? body.comments : [];
    if ((event === 'REQUEST_CHANGES' || (event === 'COMMENT' && comments.length === 0)) && text.trim() === '') {
      throw unprocessable([`Review Can't be blank`], DOCS.reviews);
    }
    const commitId = body.commit_id ?? pr.headSha;
    if (!pr.commitShas.includes(commitId) && commitId !== pr.headSha) {
      throw unprocessable(['Commit id is not part of the pull request'], DOCS.reviews);
    }
    const anchors = comments.map((c) => {
      if (typeof c.body !== 'string' || c.body.trim() === '') throw unprocessable([{ resource: 'PullRequestReviewComment', code: 'missing_field', field: 'body' }], DOCS.reviews, 'Validation Failed');
      return this.anchorOf(pr, c, DOCS.reviews);
    });
    const id = this.nextId++;
    const state = { APPROVE: 'APPROVED', REQUEST_CHANGES: 'CHANGES_REQUESTED', COMMENT: 'COMMENTED' }[event] ?? 'PENDING';
    const review = {
      id,
      node_id: `PRR_standin${id}`,
      user: simpleUser(origin, login),
      body: text,
      state,
      html_url: `${WEB}/${repo.fullName}/pull/${pr.number}#pullrequestreview-${id}`,
      pull_request_url: `${origin}/repos/${repo.fullName}/pulls/${pr.number}`,
      author_association: 'MEMBER',
      commit_id: commitId,
      ...(state === 'PENDING' ? {} : { submitted_at: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }),
      comments: [],
    };
    anchors.forEach((anchor, i) => {
      const comment = this.comment(origin, repo, pr, login, anchor, comments[i].body, { reviewId: id, commitId, pending: state === 'PENDING' });
      book.comments.push(comment);
      review.comments.push(comment.id);
    });
    book.reviews.push(review);
    const { comments: _ids, ...shape } = review;
    return { status: 200, body: shape };
  }

  /** POST /repos/{o}/{r}/pulls/{n}/comments */
  createComment({ origin, repo, pr, login, config }, body) {
    this.checkWrite(config, DOCS.comments);
    if (typeof body.body !== 'string' || body.body.trim() === '') {
      throw unprocessable([{ resource: 'PullRequestReviewComment', code: 'missing_field', field: 'body' }], DOCS.comments, 'Validation Failed');
    }
    const anchor = this.anchorOf(pr, body, DOCS.comments);
    const comment = this.comment(origin, repo, pr, login, anchor, body.body, { commitId: body.commit_id });
    this.of(repo, pr).comments.push(comment);
    return { status: 201, body: comment };
  }

  /** POST /repos/{o}/{r}/pulls/{n}/comments/{id}/replies */
  reply({ origin, repo, pr, login, config, derived }, commentId, body) {
    this.checkWrite(config, DOCS.replies);
    const all = this.listed(repo, pr, derived, login);
    const target = all.find((c) => c.id === commentId);
    if (!target) throw notFound(DOCS.replies);
    if (typeof body.body !== 'string' || body.body.trim() === '') {
      throw unprocessable([{ resource: 'PullRequestReviewComment', code: 'missing_field', field: 'body' }], DOCS.replies, 'Validation Failed');
    }
    const root = target.in_reply_to_id ?? target.id;
    const anchor = { path: target.path, line: target.line, side: target.side, start_line: target.start_line, start_side: target.start_side, hunk: target.diff_hunk };
    const comment = this.comment(origin, repo, pr, login, anchor, body.body, { inReplyTo: root, commitId: target.commit_id });
    comment.position = target.position;
    this.of(repo, pr).comments.push(comment);
    return { status: 201, body: comment };
  }

  /** Whether `login` may resolve a thread: write access, the pull request's author, or the thread's. */
  static mayResolve(level, login, pr, root) {
    return LEVELS.indexOf(level) >= 2 || pr.author === login || root.user.login === login;
  }

  /**
   * GraphQL `pullRequest.reviewThreads` nodes, oldest first, with GitHub's `PullRequestReviewThread`
   * fields (`isOutdated`, `path`, `line`, `startLine`, `originalLine`, `originalStartLine`,
   * `diffSide`, `startDiffSide`, `subjectType`) and each thread's comments as
   * `PullRequestReviewComment` nodes (`databaseId`, `author`, `body`, `createdAt`, `url`,
   * `diffHunk`, `state` `PENDING` or `SUBMITTED`, `commit`, `originalCommit`, `outdated`).
   * `limit` is the connection's `first:` (every thread's comments are listed; `totalCount` says how
   * many there are).
   */
  threads({ repo, pr, login, level, config, derived }, limit = 100) {
    const book = this.of(repo, pr);
    const all = this.visible(repo, pr, derived, login);
    return all.filter((c) => !c.in_reply_to_id).slice(0, limit).map((root) => {
      const resolved = book.resolved.get(root.id) ?? false;
      const may = !config.pullRequestsReadOnly && ReviewBook.mayResolve(level, login, pr, root);
      // The first comment, then its replies as written (a reply's id can be lower than a derived root's).
      const comments = [root, ...all.filter((c) => c.in_reply_to_id === root.id)];
      const outdated = root.position === null;
      return {
        id: `PRRT_standin${root.id}`,
        isResolved: resolved,
        isOutdated: outdated,
        path: root.path,
        line: root.line,
        startLine: root.start_line ?? null,
        originalLine: root.original_line ?? null,
        originalStartLine: root.original_start_line ?? null,
        diffSide: root.side,
        startDiffSide: root.start_side ?? null,
        subjectType: 'LINE',
        viewerCanResolve: may && !resolved,
        viewerCanUnresolve: may && resolved,
        viewerCanReply: !config.pullRequestsReadOnly,
        comments: {
          totalCount: comments.length,
          nodes: comments.map((c) => ({
            databaseId: c.id,
            author: { login: c.user.login },
            body: c.body,
            createdAt: c.created_at,
            url: c.html_url,
            diffHunk: c.diff_hunk,
            state: c.pending ? 'PENDING' : 'SUBMITTED',
            commit: { oid: c.commit_id },
            originalCommit: { oid: c.original_commit_id },
            outdated,
          })),
        },
      };
    });
  }

  /** How many threads `threads` could list. */
  threadCount({ repo, pr, login, derived }) {
    return this.visible(repo, pr, derived, login).filter((c) => !c.in_reply_to_id).length;
  }

  /**
   * GraphQL `pullRequest.reviews(last:N)`: the last `limit` reviews, oldest first, as
   * `PullRequestReview` nodes (`databaseId`, `author`, `state`, `body`, `submittedAt`, `url`,
   * `commit`); a pending review only for its author, as GitHub shows it.
   */
  reviewNodes({ repo, pr, login }, limit = 100) {
    const seen = this.of(repo, pr).reviews.filter((r) => r.state !== 'PENDING' || r.user.login === login);
    return {
      totalCount: seen.length,
      nodes: seen.slice(-limit).map((r) => ({
        databaseId: r.id,
        author: { login: r.user.login },
        state: r.state,
        body: r.body,
        submittedAt: r.submitted_at ?? null,
        url: r.html_url ?? null,
        commit: { oid: r.commit_id },
      })),
    };
  }

  /** GraphQL `resolveReviewThread` / `unresolveReviewThread`: `{data, errors}`. */
  resolve({ repo, pr, login, level, config, derived }, threadId, resolved) {
    const field = resolved ? 'resolveReviewThread' : 'unresolveReviewThread';
    const m = /^PRRT_standin(\d+)$/.exec(String(threadId));
    const root = m && this.listed(repo, pr, derived, login).find((c) => c.id === Number(m[1]) && !c.in_reply_to_id);
    if (!root) {
      return { data: { [field]: null }, errors: [{ type: 'NOT_FOUND', path: [field], message: `Could not resolve to a node with the global id of '${threadId}'` }] };
    }
    if (config.pullRequestsReadOnly) {
      return { data: { [field]: null }, errors: [{ type: 'FORBIDDEN', path: [field], message: 'Resource not accessible by integration' }] };
    }
    if (!ReviewBook.mayResolve(level, login, pr, root)) {
      return { data: { [field]: null }, errors: [{ type: 'FORBIDDEN', path: [field], message: `${login} does not have permission to resolve this thread.` }] };
    }
    this.of(repo, pr).resolved.set(root.id, resolved);
    return { data: { [field]: { thread: { id: threadId, isResolved: resolved } } } };
  }

  /** A pending review on GitHub (as if started on github.com), for the one-pending-review rule. */
  addPending(origin, repo, pr, login) {
    const id = this.nextId++;
    const review = { id, node_id: `PRR_standin${id}`, user: simpleUser(origin, login), body: '', state: 'PENDING', commit_id: pr.headSha, comments: [] };
    this.of(repo, pr).reviews.push(review);
    return review;
  }
}

//! The diff of one file entry on the review page: its table of lines, each line linked to the
//! same line of the pull request on GitHub, GitHub's review comments under the lines they are
//! on, and the decision which entries load their diff on demand (issue 15, items 6 to 8).
//!
//! Why: reviewers comment where the conversation already lives, on GitHub, so every line number
//! is a link to `…/pull/{n}/files#diff-{sha256 of the path}R{line}` (`L{line}` for a removed
//! line), the anchor GitHub gives that line, and the comments written there are shown in place.
//! A large pull request must stay a page a browser opens quickly (DESIGN.md section 7: under
//! 1 MiB of HTML for 350 files), so only the first screenful of entries ([`Inline`]) carries its
//! diff; generated files, very large diffs and everything after that get a "Load diff" link to
//! `…/diff?path={path}&hunks={change ids}`, which serves just those changes of that file
//! ([`fragment`]): the link names exactly what the entry shows, so serving it needs neither the
//! saved order nor the page's plan, and it still shows the right changes after a re-arrange.
//! Without JavaScript the link opens a page with that one diff; `/static/review-view.js` loads
//! it in place instead.
//!
//! Comment bodies, logins and paths are untrusted: they go through `escape`, and bodies through
//! `comment_markdown` (GitHub-flavoured Markdown into safe HTML). With a [`Discussion`] (issue 29)
//! comments are grouped into threads with reply and resolve forms, the viewer's drafts sit under
//! their lines, and each diff has a plain form to comment on its lines (`discussion`).
//! Syntax highlighting happens in the browser (the script picks the
//! language from the table's `data-path`), never here, so it costs the Worker nothing.
//!
//! What not: no fetching of comments or files, no ticks (the caller's `hunk_controls` supplies
//! per-change controls), no routing.

use std::fmt::Write as _;

use std::collections::HashMap;

use super::discussion::{self, Discussion};
use super::{safe_github, shown, EntryPlan, Select, Shown};
use crate::github::api::ReviewComment;
use crate::github::reviews::{Anchor, Side};
use crate::review::drafts::{commented_lines_in, Draft};
use crate::review::model::snapshot::SnapshotFile;
use crate::review::patch::{Hunk, LineKind};
use crate::web::html::{self, escape, escape_into};

/// Our script for the diffs (load on demand, highlighting, expanding context), served from
/// Workers Static Assets (`[assets]` in wrangler.toml; built into `build/assets/` by
/// `tests/scripts/build.sh` from `src/static/`), so it costs no wasm.
pub const VIEW_JS_PATH: &str = "/static/review-view.js";
/// The diffs' own style (line links, comments, "Load diff", "Expand" and the highlighter's
/// colours for both themes), a static asset too: the CSP allows `style-src 'self'`.
pub const VIEW_CSS_PATH: &str = "/static/review-view.css";
/// The flow diagram's style (`src/static/diagram.css`): the drawing `/static/diagram.js` makes
/// is inline SVG, which shares the page's style sheets, so its rules, scoped to `.lkf-diagram`
/// with a light and a dark palette, live in a file the page links.
pub const DIAGRAM_CSS_PATH: &str = "/static/diagram.css";
/// Commenting on the page's lines (issue 29): the line buttons, the Write/Preview box, drafts,
/// replies, resolving and the review panel in the background, and their keys.
pub const COMMENTS_JS_PATH: &str = "/static/review-comments.js";
/// highlight.js with the languages the script maps file names to, bundled by
/// `tests/scripts/build.sh` from `src/web/highlight-bundle.mjs`.
pub const HIGHLIGHT_JS_PATH: &str = "/static/highlight.js";

/// Entries shown with their diff before the rest load on demand: about a screenful of files.
pub const FIRST_SCREEN_ENTRIES: usize = 30;
/// An entry with more changed lines than this loads on demand wherever it is.
pub const LARGE_DIFF_LINES: usize = 300;
/// Diff lines the page inlines at most, over all entries. A line costs ~300 bytes of HTML (its
/// GitHub link alone ~120), so inlined diffs stay under ~450 KB and the rest of a 350-file page
/// (each entry's header and tick, ~1.3 KB) fits beside them in 1 MiB, however long the diffs are.
pub const PAGE_DIFF_LINES: usize = 1500;

/// Why an entry's diff is not in the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deferred {
    /// Past the first screenful of entries or of diff lines.
    Later,
    /// A generated file (the order's `focus: generated` or the `likelyGenerated` hint).
    Generated,
    /// More than [`LARGE_DIFF_LINES`] changed lines.
    Large,
}

/// What every entry of one page shares: where lines link to, the comments, where deferred diffs
/// load from, and how much diff the page holds so far.
pub struct View<'a> {
    /// `https://github.com/{o}/{r}/pull/{n}/files`, escaped; `None` when the pull request's URL
    /// is not `https://` (then lines are not linked).
    files_url: Option<String>,
    comments: &'a [ReviewComment],
    /// `/r/{o}/{r}/pull/{n}/diff?path=`, not escaped.
    fragment_base: String,
    entries: usize,
    lines: usize,
    /// The viewer's drafts and threads, and the forms to comment, reply and resolve.
    discussion: Option<&'a Discussion<'a>>,
    /// Diffs rendered so far, for unique element ids.
    serial: std::cell::Cell<usize>,
}

impl<'a> View<'a> {
    pub fn new(pull_path: &str, github_url: &str, comments: &'a [ReviewComment]) -> Self {
        View {
            files_url: files_url(github_url),
            comments,
            fragment_base: format!("{pull_path}/diff?path="),
            entries: 0,
            lines: 0,
            discussion: None,
            serial: std::cell::Cell::new(0),
        }
    }

    /// The same view with the viewer's side of the conversation (issue 29).
    pub fn with_discussion(mut self, discussion: Option<&'a Discussion<'a>>) -> Self {
        self.discussion = discussion;
        self
    }

    /// The links and comments of one entry of `path`; `first` is the file's first entry on the
    /// page, which also lists the comments no line holds.
    pub fn links(&self, path: &str, first: bool) -> DiffLinks<'a> {
        let mut comments = Vec::new();
        for comment in self.comments {
            if comment.path == path {
                comments.push(comment);
            }
        }
        let drafts = self
            .discussion
            .map(|d| {
                d.drafts
                    .iter()
                    .filter(|draft| draft.anchor.path == path)
                    .collect()
            })
            .unwrap_or_default();
        self.serial.set(self.serial.get() + 1);
        DiffLinks {
            files_url: self.files_url.clone(),
            comments,
            unplaced: first,
            discussion: self.discussion,
            drafts,
            serial: self.serial.get(),
        }
    }

    /// Counts one more entry and decides whether its diff waits (see the module docs).
    /// Entries without a table (no patch, no changes) are never deferred: they are one line.
    pub fn defer(&mut self, shown: &Shown<'_>, generated: bool) -> Option<Deferred> {
        self.entries += 1;
        let Shown::Hunks {
            hunks,
            additions,
            deletions,
            ..
        } = shown
        else {
            return None;
        };
        if hunks.is_empty() {
            return None;
        }
        if generated {
            return Some(Deferred::Generated);
        }
        if additions + deletions > LARGE_DIFF_LINES {
            return Some(Deferred::Large);
        }
        let lines: usize = hunks.iter().map(|hunk| hunk.lines.len()).sum();
        if self.entries > FIRST_SCREEN_ENTRIES || self.lines + lines > PAGE_DIFF_LINES {
            return Some(Deferred::Later);
        }
        self.lines += lines;
        None
    }

    /// The "Load diff" link of a deferred entry: `…/diff?path=&hunks=` with the ids of the
    /// changes it shows (and `&first=1` for the file's first entry), which the script fetches
    /// in place; without the script it opens a page with just that diff. `attributes` (escaped)
    /// go on the link's box: what the script needs to give the loaded changes their ticks.
    pub fn load_button(
        &self,
        out: &mut String,
        path: &str,
        why: Deferred,
        shown: &Shown<'_>,
        links: &DiffLinks<'_>,
        attributes: &str,
    ) {
        let Shown::Hunks {
            ids,
            additions,
            deletions,
            missing,
            ..
        } = shown
        else {
            return;
        };
        let mut href = self.fragment_base.clone();
        query_encode(&mut href, path);
        href.push_str("&hunks=");
        query_encode(&mut href, &ids.join(","));
        if links.unplaced {
            href.push_str("&first=1");
        }
        let changed = additions + deletions;
        let _ = write!(
            out,
            "<div class=\"lazy-diff\"{attributes}><a class=\"button load-diff\" href=\"{}\">Load diff</a> \
             <span class=\"muted\">{changed} changed {}",
            escape(&href),
            if changed == 1 { "line" } else { "lines" }
        );
        match why {
            Deferred::Generated => out.push_str(", generated file"),
            Deferred::Large => out.push_str(", a large diff"),
            Deferred::Later => {}
        }
        let comments = links.comments.len();
        if comments > 0 {
            let _ = write!(
                out,
                " · {comments} {}",
                if comments == 1 { "comment" } else { "comments" }
            );
        }
        if *missing > 0 {
            let _ = write!(out, " · {missing} named changes are gone");
        }
        out.push_str("</span></div>\n");
    }
}

/// Where one entry's lines link to and which review comments it shows.
pub struct DiffLinks<'a> {
    /// The pull request's "Files changed" URL on GitHub, escaped; `None`: lines are not linked.
    pub files_url: Option<String>,
    /// The review comments on this entry's file, oldest first.
    pub comments: Vec<&'a ReviewComment>,
    /// List the comments on no line of the current diff (outdated ones, comments on the whole
    /// file) below the diff. Only a file's first entry does, so each comment shows once.
    pub unplaced: bool,
    /// The viewer's side of the conversation, when they may take part.
    pub discussion: Option<&'a Discussion<'a>>,
    /// The viewer's drafts on this file.
    pub drafts: Vec<&'a Draft>,
    /// This diff's number on the page (for unique ids).
    pub serial: usize,
}

/// Whether an entry is its file's first on the page: the one without a part number or part 1,
/// never the "new changes" entry under "Not in the order yet".
pub(super) fn first_of_file(entry: &EntryPlan<'_>) -> bool {
    entry.part.is_none_or(|(nth, _)| nth == 1) && entry.new_changes.is_none()
}

/// `{html_url}/files` for an `https://` pull request URL, escaped.
fn files_url(github_url: &str) -> Option<String> {
    safe_github(github_url).map(|url| escape(&format!("{}/files", url.trim_end_matches('/'))))
}

/// The anchor GitHub gives a file in a pull request's "Files changed": `diff-` and the SHA-256
/// of the path in lowercase hex. A line adds `R{new line}` or `L{old line}`.
pub fn github_file_anchor(path: &str) -> String {
    let digest = crate::security::sha256::sha256(&[path.as_bytes()]);
    let mut out = String::with_capacity(5 + 64);
    out.push_str("diff-");
    out.push_str(&crate::security::sha256::hex(&digest));
    out
}

/// Appends `value` percent-encoded for a query: all but ASCII letters, digits and `-._~/,`.
fn query_encode(out: &mut String, value: &str) {
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/' | b',') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
}

/// Renders an entry's diff: a note for a file without one, else a table per change with its
/// `@@` header row (where `hunk_controls(index among the shown changes, change id)` puts its
/// HTML), each line's numbers (one linked to GitHub), and review comments under their lines.
pub fn diff(
    out: &mut String,
    path: &str,
    shown: &Shown<'_>,
    hunk_controls: &dyn Fn(usize, &str) -> String,
    links: &DiffLinks,
) {
    let mut placed = vec![false; links.comments.len()];
    match shown {
        Shown::Gone => out.push_str(
            "<p class=\"muted\">This file is no longer changed in the pull request.</p>\n",
        ),
        Shown::NoPatch => out.push_str(
            "<p class=\"muted\">GitHub shows no diff for this file (binary or too large).</p>\n",
        ),
        Shown::Unreadable => out.push_str(
            "<p class=\"muted\">This file's diff couldn't be read; open it on GitHub.</p>\n",
        ),
        Shown::Hunks {
            hunks,
            ids,
            missing,
            ..
        } => {
            if *missing > 0 {
                let _ = writeln!(
                    out,
                    "<p class=\"muted\">{missing} {} named in this part {} no longer in the pull request.</p>",
                    if *missing == 1 { "change" } else { "changes" },
                    if *missing == 1 { "is" } else { "are" }
                );
            }
            if hunks.is_empty() {
                out.push_str("<p class=\"muted\">No changes in this part.</p>\n");
            } else {
                table(out, path, hunks, ids, hunk_controls, links, &mut placed);
                if let Some(discussion) = links.discussion {
                    discussion::file_form(out, path, &discussion.forms, links.serial);
                }
            }
        }
    }
    // Below the diff: comments on no line of the current diff (outdated ones, comments on the
    // whole file). A current comment on a line another entry of the file shows stays there.
    let rest = |(comment, placed): (&&ReviewComment, &bool)| {
        !placed && (comment.is_outdated() || comment.line.is_none())
    };
    if links.unplaced && links.comments.iter().zip(&placed).any(rest) {
        out.push_str(
            "<div class=\"cmts cmts-rest\"><p class=\"cmts-title\">Comments on GitHub not on a line of this diff</p>\n",
        );
        let head = links.discussion.map(|d| d.head_sha());
        for (comment, placed) in links.comments.iter().zip(&placed) {
            if rest((comment, placed)) {
                if let Some(head) = head.filter(|h| discussion::changed_since(comment, h, None)) {
                    discussion::changed_since_html(out, head);
                }
                discussion::comment_html(out, comment, &[]);
            }
        }
        out.push_str("</div>\n");
    }
}

fn table(
    out: &mut String,
    path: &str,
    hunks: &[Hunk<'_>],
    ids: &[String],
    hunk_controls: &dyn Fn(usize, &str) -> String,
    links: &DiffLinks,
    placed: &mut [bool],
) {
    let anchor = github_file_anchor(path);
    let _ = write!(
        out,
        "<div class=\"diff-wrap\" role=\"region\" aria-label=\"Diff of {path}\" tabindex=\"0\" \
         data-path=\"{path}\"><table class=\"diff\">",
        path = escape(path)
    );
    if links.files_url.is_some() {
        out.push_str(
            "<caption class=\"vh\">Each line number links to that line on GitHub, to comment there.</caption>",
        );
    }
    out.push('\n');
    for (index, hunk) in hunks.iter().enumerate() {
        let id = ids.get(index).map_or("", String::as_str);
        let _ = write!(
            out,
            "<tbody data-change=\"{}\"><tr class=\"hunk-head\" data-new=\"{},{}\"><td colspan=\"3\">{}<span class=\"hunk-header\">",
            escape(id),
            hunk.new_start,
            hunk.new_lines,
            hunk_controls(index, id)
        );
        escape_into(out, hunk.header);
        out.push_str("</span></td></tr>\n");
        for (old_no, new_no, line) in hunk.numbered_lines() {
            let (class, mark) = match line.kind {
                LineKind::Added => ("add", '+'),
                LineKind::Removed => ("del", '-'),
                LineKind::Context => ("ctx", ' '),
            };
            let _ = write!(out, "<tr class=\"{class}\"><td class=\"ln\">");
            // The link goes on the side GitHub anchors the line to: the new line, or the old
            // one for a removed line.
            let link_old = new_no.is_none();
            number(out, old_no, link_old, 'L', &anchor, links);
            out.push_str("</td><td class=\"ln\">");
            number(out, new_no, !link_old, 'R', &anchor, links);
            let _ = write!(
                out,
                "</td><td class=\"code\"><span class=\"mk\">{mark}</span>"
            );
            escape_into(out, line.text);
            if line.no_newline {
                out.push_str("<span class=\"eof\"> no newline at end of file</span>");
            }
            out.push_str("</td></tr>\n");
            line_comments(out, links, placed, (old_no, new_no), hunks);
        }
        out.push_str("</tbody>\n");
    }
    out.push_str("</table></div>\n");
}

fn number(
    out: &mut String,
    value: Option<u32>,
    linked: bool,
    side: char,
    anchor: &str,
    links: &DiffLinks,
) {
    let Some(value) = value else {
        return;
    };
    match (&links.files_url, linked) {
        (Some(url), true) => {
            let _ = write!(out, "<a href=\"{url}#{anchor}{side}{value}\">{value}</a>");
        }
        _ => {
            let _ = write!(out, "{value}");
        }
    }
}

/// The comments on this line (by its side and number), grouped into threads, and the viewer's
/// drafts on it, in a row under it.
fn line_comments(
    out: &mut String,
    links: &DiffLinks,
    placed: &mut [bool],
    (old, new): (Option<u32>, Option<u32>),
    hunks: &[Hunk<'_>],
) {
    let on_line = |side: &str, line: Option<u32>| {
        let here = if side == "LEFT" { old } else { new };
        line.is_some() && line == here
    };
    let mut here: Vec<&ReviewComment> = Vec::new();
    for (comment, done) in links.comments.iter().zip(placed.iter_mut()) {
        if !*done && !comment.is_outdated() && on_line(&comment.side, comment.line) {
            here.push(comment);
            *done = true;
        }
    }
    let drafts: Vec<&&Draft> = links
        .drafts
        .iter()
        .filter(|d| on_line(d.anchor.side.as_str(), Some(d.anchor.line)))
        .filter(|d| {
            links
                .discussion
                .is_some_and(|disc| disc.is_on_hunks(d, hunks))
        })
        .collect();
    if here.is_empty() && drafts.is_empty() {
        return;
    }
    out.push_str("<tr class=\"cmt-row\"><td colspan=\"3\"><div class=\"cmts\">");
    let commented = |comment: &ReviewComment| {
        let side = Side::parse(&comment.side).unwrap_or(Side::Right);
        let anchor = Anchor {
            path: comment.path.clone(),
            line: comment.line.unwrap_or_default(),
            side,
            start_line: comment.start_line,
            start_side: comment.start_side.as_deref().and_then(Side::parse),
        };
        commented_lines_in(hunks, &anchor)
    };
    // Threads in the order of their first comment: a root, then its replies in order.
    let mut roots: Vec<u64> = Vec::new();
    for comment in &here {
        let root = discussion::root_of(comment);
        if !roots.contains(&root) {
            roots.push(root);
        }
    }
    for root in roots {
        let thread: Vec<&ReviewComment> = here
            .iter()
            .filter(|comment| discussion::root_of(comment) == root)
            .copied()
            .collect();
        let changed = links.discussion.map(|d| d.head_sha()).filter(|head| {
            thread
                .first()
                .is_some_and(|root| discussion::changed_since(root, head, Some(hunks)))
        });
        discussion::thread_html(out, &thread, links.discussion, &commented, changed);
    }
    if let Some(discussion) = links.discussion {
        for draft in drafts {
            let lines = commented_lines_in(hunks, &draft.anchor);
            discussion::draft_html(out, draft, false, &lines, &discussion.forms);
        }
    }
    out.push_str("</div></td></tr>\n");
}

#[allow(clippy::too_many_arguments)]
/// The diff of the changes `hunks` (ids) of the changed file `path`, as a "Load diff" link names
/// them, for `…/diff`: what the page would have inlined. `first` lists the comments no line
/// holds. `None` when the pull request doesn't change `path` (any more); ids it no longer has
/// are counted as missing, as the page does.
pub fn fragment(
    files: &[SnapshotFile],
    path: &str,
    hunks: &[&str],
    first: bool,
    github_url: &str,
    comments: &[ReviewComment],
    hunk_controls: &dyn Fn(usize, &str) -> String,
    discussion: Option<&Discussion<'_>>,
) -> Option<String> {
    let file = files.iter().find(|file| file.path == path)?;
    let wanted: Vec<String> = hunks.iter().map(|id| id.to_string()).collect();
    // The page's own selection of a file's changes, for an entry naming exactly these.
    let select = Select::Only(&wanted);
    let entry = EntryPlan {
        path,
        entry: None,
        file: Some(file),
        select,
        part: None,
        anchor: String::new(),
        items: 0,
        state: super::EntryState::Todo,
        new_since_visit: false,
        checks: Vec::new(),
        new_changes: None,
        team: None,
    };
    let shown = shown(&entry, Some(file), &HashMap::new(), None);
    let view = View::new("", github_url, comments).with_discussion(discussion);
    let links = view.links(path, first);
    let mut out = String::new();
    diff(&mut out, path, &shown, hunk_controls, &links);
    Some(out)
}

/// A page with one entry's diff, for the "Load diff" link without JavaScript: a link back to the
/// review page, the path, and the diff with the page's style and scripts.
pub fn fragment_page(
    title: &str,
    back_href: &str,
    path: &str,
    fragment_html: &str,
    (base_url, may_write): (&str, bool),
) -> String {
    let mut body = String::with_capacity(fragment_html.len() + 4096);
    let _ = write!(
        body,
        "<link rel=\"stylesheet\" href=\"/static/review.css\">\n<p><a href=\"{}\">Back to the review</a></p>\n\
         <h1 class=\"path\"><code>{}</code></h1>\n",
        escape(back_href),
        escape(path)
    );
    body.push_str(fragment_html);
    discussion::box_template(&mut body, !may_write);
    page_extras(&mut body);
    html::page(title, &body, base_url)
}

/// What every page with diffs adds: the diff and the diagram style and the two scripts (all
/// static assets).
pub fn page_extras(out: &mut String) {
    let _ = writeln!(
        out,
        "<link rel=\"stylesheet\" href=\"{VIEW_CSS_PATH}\">\
         <link rel=\"stylesheet\" href=\"{DIAGRAM_CSS_PATH}\">\
         <script src=\"{HIGHLIGHT_JS_PATH}\" defer></script>\
         <script src=\"{VIEW_JS_PATH}\" defer></script>\
         <script src=\"{COMMENTS_JS_PATH}\" defer></script>"
    );
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::panic)]
mod tests;

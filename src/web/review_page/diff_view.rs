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
//! `…/diff?entry={anchor}`, which serves just that entry ([`fragment`]). Without JavaScript the
//! link opens a page with that one diff; `/static/review-view.js` loads it in place instead.
//!
//! Comment bodies, logins and paths are untrusted: they go through `escape`, and bodies are shown
//! as plain text (no Markdown). Syntax highlighting happens in the browser (the script picks the
//! language from the table's `data-path`), never here, so it costs the Worker nothing.
//!
//! What not: no fetching of comments or files, no ticks (the caller's `hunk_controls` supplies
//! per-change controls), no routing.

use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use super::{safe_github, shown, EntryPlan, Plan, Shown};
use crate::github::api::ReviewComment;
use crate::review::order::Order;
use crate::review::patch::{Hunk, LineKind};
use crate::tools::get_pull_request::SnapshotFile;
use crate::web::html::{self, escape, escape_into};

/// Our script for the diffs (load on demand, highlighting, expanding context), served from
/// Workers Static Assets (`[assets]` in wrangler.toml; built into `build/assets/` by
/// `tests/scripts/build.sh` from `public/`), so it costs no wasm.
pub const VIEW_JS_PATH: &str = "/static/review-view.js";
/// highlight.js with the languages the script maps file names to, bundled by
/// `tests/scripts/build.sh` from `public/highlight-bundle.mjs`.
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
    /// `/r/{o}/{r}/pull/{n}/diff?` plus `version=N&` for an older version, not escaped.
    fragment_base: String,
    entries: usize,
    lines: usize,
}

impl<'a> View<'a> {
    /// `version` is `Some` when the page shows an older version of the order.
    pub fn new(
        pull_path: &str,
        github_url: &str,
        comments: &'a [ReviewComment],
        version: Option<u64>,
    ) -> Self {
        let mut fragment_base = format!("{pull_path}/diff?");
        if let Some(version) = version {
            let _ = write!(fragment_base, "version={version}&");
        }
        View {
            files_url: files_url(github_url),
            comments,
            fragment_base,
            entries: 0,
            lines: 0,
        }
    }

    /// The links and comments of one entry of `path`; `first` is the file's first entry on the
    /// page, which also lists the comments no line holds.
    pub fn links(&self, path: &str, first: bool) -> DiffLinks<'a> {
        DiffLinks {
            files_url: self.files_url.clone(),
            comments: self.comments.iter().filter(|c| c.path == path).collect(),
            unplaced: first,
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

    /// The "Load diff" link of a deferred entry: to the entry's fragment, which the script
    /// fetches in place; without the script it opens a page with just that diff.
    pub fn load_button(
        &self,
        out: &mut String,
        anchor: &str,
        why: Deferred,
        shown: &Shown<'_>,
        links: &DiffLinks<'_>,
    ) {
        let href = format!("{}entry={}", self.fragment_base, query_encode(anchor));
        let changed = match shown {
            Shown::Hunks {
                additions,
                deletions,
                ..
            } => additions + deletions,
            _ => 0,
        };
        let _ = write!(
            out,
            "<div class=\"lazy-diff\"><a class=\"button load-diff\" href=\"{}\">Load diff</a> \
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
        out.push_str("</span></div>\n");
    }
}

/// Where one entry's lines link to and which review comments it shows.
pub struct DiffLinks<'a> {
    /// The pull request's "Files changed" URL on GitHub, escaped; `None`: lines are not linked.
    pub files_url: Option<String>,
    /// The review comments on this entry's file, oldest first.
    pub comments: Vec<&'a ReviewComment>,
    /// List the comments that no shown line holds (outdated ones, comments on the whole file)
    /// below the diff. Only a file's first entry does, so each comment shows once.
    pub unplaced: bool,
}

/// Whether an entry is its file's first on the page: the one without a part number or part 1,
/// never the "new changes" entry under "Not in the order yet".
pub(super) fn first_of_file(entry: &EntryPlan<'_>) -> bool {
    entry.part.is_none_or(|(nth, _)| nth == 1) && !entry.new_changes
}

/// `{html_url}/files` for an `https://` pull request URL, escaped.
fn files_url(github_url: &str) -> Option<String> {
    safe_github(github_url).map(|url| escape(&format!("{}/files", url.trim_end_matches('/'))))
}

/// The anchor GitHub gives a file in a pull request's "Files changed": `diff-` and the SHA-256
/// of the path in lowercase hex. A line adds `R{new line}` or `L{old line}`.
pub fn github_file_anchor(path: &str) -> String {
    let digest = Sha256::digest(path.as_bytes());
    let mut out = String::with_capacity(5 + 64);
    out.push_str("diff-");
    for byte in digest {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// Percent-encodes a query value: everything but ASCII letters, digits and `-._~/`.
fn query_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
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
            }
        }
    }
    if links.unplaced {
        let rest: Vec<&ReviewComment> = links
            .comments
            .iter()
            .zip(&placed)
            .filter(|(_, placed)| !**placed)
            .map(|(comment, _)| *comment)
            .collect();
        if !rest.is_empty() {
            out.push_str(
                "<div class=\"cmts cmts-rest\"><p class=\"cmts-title\">Comments on GitHub not on a line shown here</p>\n",
            );
            for comment in rest {
                comment_html(out, comment);
            }
            out.push_str("</div>\n");
        }
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
            "<tbody><tr class=\"hunk-head\" data-new=\"{},{}\"><td colspan=\"3\">{}",
            hunk.new_start,
            hunk.new_lines,
            hunk_controls(index, id)
        );
        escape_into(out, hunk.header);
        out.push_str("</td></tr>\n");
        let mut old = hunk.old_start;
        let mut new = hunk.new_start;
        for line in &hunk.lines {
            let (class, mark, old_no, new_no) = match line.kind {
                LineKind::Added => ("add", '+', None, Some(new)),
                LineKind::Removed => ("del", '-', Some(old), None),
                LineKind::Context => ("ctx", ' ', Some(old), Some(new)),
            };
            if old_no.is_some() {
                old = old.saturating_add(1);
            }
            if new_no.is_some() {
                new = new.saturating_add(1);
            }
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
            line_comments(out, links, placed, old_no, new_no);
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

/// The comments on this line (by its side and number), in a row under it.
fn line_comments(
    out: &mut String,
    links: &DiffLinks,
    placed: &mut [bool],
    old: Option<u32>,
    new: Option<u32>,
) {
    let mut opened = false;
    for (comment, done) in links.comments.iter().zip(placed.iter_mut()) {
        if *done || comment.is_outdated() {
            continue;
        }
        let on = if comment.side == "LEFT" { old } else { new };
        if comment.line.is_none() || comment.line != on {
            continue;
        }
        if !opened {
            out.push_str("<tr class=\"cmt-row\"><td colspan=\"3\"><div class=\"cmts\">");
            opened = true;
        }
        comment_html(out, comment);
        *done = true;
    }
    if opened {
        out.push_str("</div></td></tr>\n");
    }
}

/// One comment: author, time (linked to the comment on GitHub), an "Outdated" mark as GitHub
/// gives it, and the body as plain text.
fn comment_html(out: &mut String, comment: &ReviewComment) {
    let author = comment.user.as_ref().map_or("ghost", |u| u.login.as_str());
    let _ = write!(
        out,
        "<div class=\"cmt\"><p class=\"cmt-by\"><strong>{}</strong> ",
        escape(author)
    );
    let when = comment.created_at.get(..10).unwrap_or("comment");
    match safe_github(&comment.html_url) {
        Some(url) => {
            let _ = write!(
                out,
                "<a href=\"{}\">{} on GitHub</a>",
                escape(url),
                escape(when)
            );
        }
        None => escape_into(out, when),
    }
    if comment.is_outdated() {
        out.push_str(" <span class=\"badge outdated\">Outdated</span>");
        if let Some(line) = comment.original_line {
            let _ = write!(
                out,
                " <span class=\"muted\">was on line {line} of an earlier version</span>"
            );
        }
    }
    out.push_str("</p><p class=\"cmt-body\">");
    escape_into(out, comment.body.trim());
    out.push_str("</p></div>\n");
}

/// The path and the diff HTML of the entry with this anchor (as the page gives it, see
/// `file_anchor`), for `…/diff?entry=`: the same diff the page would inline. `None` when the page
/// has no such entry (the order or the pull request changed since the page was loaded).
pub fn fragment(
    order: Option<&Order>,
    files: &[SnapshotFile],
    anchor: &str,
    github_url: &str,
    comments: &[ReviewComment],
    hunk_controls: &dyn Fn(usize, &str) -> String,
) -> Option<(String, String)> {
    let plan = Plan::new(order, files, &[]);
    let entry = plan.entries().find(|entry| entry.anchor == anchor)?;
    let shown = shown(entry, entry.file, &plan.named);
    let view = View::new("", github_url, comments, None);
    let links = view.links(entry.path, first_of_file(entry));
    let mut out = String::new();
    diff(&mut out, entry.path, &shown, hunk_controls, &links);
    Some((entry.path.to_string(), out))
}

/// A page with one entry's diff, for the "Load diff" link without JavaScript: a link back to the
/// entry on the review page, the path, and the diff with the page's style and scripts.
pub fn fragment_page(
    title: &str,
    back_href: &str,
    path: &str,
    fragment_html: &str,
    base_url: &str,
) -> String {
    let mut body = String::with_capacity(fragment_html.len() + 4096);
    let _ = write!(
        body,
        "<style>{}</style>\n<p><a href=\"{}\">Back to the review</a></p>\n\
         <h1 class=\"path\"><code>{}</code></h1>\n",
        super::STYLE,
        escape(back_href),
        escape(path)
    );
    body.push_str(fragment_html);
    page_extras(&mut body);
    html::page(title, &body, base_url)
}

/// What every page with diffs adds at its end: the diff style and the two scripts.
pub fn page_extras(out: &mut String) {
    out.push_str("<style>");
    out.push_str(DIFF_STYLE);
    let _ = writeln!(
        out,
        "</style>\n<script src=\"{HIGHLIGHT_JS_PATH}\" defer></script>\
         <script src=\"{VIEW_JS_PATH}\" defer></script>"
    );
}

/// Line links, comments, "Load diff" and the highlighter's colours for both themes (they follow
/// `prefers-color-scheme` like the rest of the page; every colour keeps 4.5:1 contrast on the
/// added, removed and plain line backgrounds).
const DIFF_STYLE: &str = r#"
table.diff .ln a{color:inherit;text-decoration:none}
table.diff .ln a:hover,table.diff .ln a:focus-visible{color:var(--accent);text-decoration:underline}
.lazy-diff{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center;margin:.5rem 0 0}
.cmts{margin:.25rem 0;padding:.4rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);font:.875rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;white-space:normal}
.cmts-title{margin:0 0 .3rem;font-weight:600}
.cmt+.cmt{margin-top:.4rem;padding-top:.4rem;border-top:1px solid var(--line)}
.cmt p{margin:0}
.cmt-body{white-space:pre-wrap;overflow-wrap:anywhere}
.badge.outdated{background:var(--warn-soft);border-color:var(--warn-line)}
tr.cmt-row td{padding:.1rem .5rem}
tr.ctx-more td{background:var(--soft)}
.expand{font:inherit;font-size:.75rem;margin-right:.5rem;padding:0 .4rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--accent);cursor:pointer}
:root{--hl-kw:#a0111f;--hl-str:#0a3069;--hl-num:#0550ae;--hl-com:#4d5560;--hl-fn:#6639ba;--hl-type:#953800;--hl-attr:#0550ae;--hl-meta:#4d5560}
@media (prefers-color-scheme:dark){:root{--hl-kw:#ff9492;--hl-str:#a5d6ff;--hl-num:#79c0ff;--hl-com:#a3abb5;--hl-fn:#d2a8ff;--hl-type:#ffa657;--hl-attr:#79c0ff;--hl-meta:#a3abb5}}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in,.hljs-literal,.hljs-doctag{color:var(--hl-kw)}
.hljs-string,.hljs-regexp,.hljs-template-tag,.hljs-template-variable,.hljs-addition{color:var(--hl-str)}
.hljs-number,.hljs-symbol,.hljs-bullet,.hljs-variable.constant_{color:var(--hl-num)}
.hljs-comment,.hljs-quote{color:var(--hl-com);font-style:italic}
.hljs-title,.hljs-title.function_,.hljs-section{color:var(--hl-fn)}
.hljs-type,.hljs-title.class_,.hljs-class .hljs-title,.hljs-params{color:var(--hl-type)}
.hljs-attr,.hljs-attribute,.hljs-property,.hljs-name,.hljs-selector-class,.hljs-selector-id,.hljs-variable{color:var(--hl-attr)}
.hljs-meta,.hljs-subst,.hljs-punctuation{color:var(--hl-meta)}
.hljs-emphasis{font-style:italic}
.hljs-strong{font-weight:700}
"#;

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::panic)]
mod tests;

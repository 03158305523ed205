//! `view_change` (app-only): one change (diff hunk) of one changed file, as numbered lines, a page
//! at a time.
//!
//! Why paged and one change at a time: hosts cap the size of a tool result (claude.ai among
//! them), and a reviewer opens changes one by one; the view's first answer stays small however
//! large the pull request is. A page holds [`PAGE_LINES`] lines, each cut to [`LINE_CHARS`]
//! characters, so every answer is bounded (about 200 KB at worst).
//!
//! What not: no syntax highlighting, no word diff, no markup: lines are plain text the view sets
//! with `textContent`; no line numbers on every line (the view counts them from the page's first).

use serde::Serialize;
use serde_json::{Map, Value};

use super::arguments::{optional_positive, text, Problems};
use super::show_reading_order::{parse_target, ViewTarget};
use crate::review::change_id::describe_changes;
use crate::review::model::snapshot::SnapshotFile;
use crate::review::patch::{parse_patch, LineKind};

/// Lines per page.
pub const PAGE_LINES: usize = 200;
/// Characters kept of one line; a longer line is cut and flagged.
pub const LINE_CHARS: usize = 400;

/// The tool's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    pub target: ViewTarget,
    pub path: String,
    /// The change id; may be left out for a file with a single change.
    pub change: Option<String>,
    /// 1-based.
    pub page: u64,
}

pub fn parse_args(args: &Map<String, Value>) -> Result<Args, String> {
    let mut problems = Problems::default();
    let target = parse_target(args, false, &["path", "change", "page"], &mut problems);
    let path = text(args, "path", 1_000, true, &mut problems);
    let change = text(args, "change", 40, false, &mut problems);
    let page = optional_positive(args, "page", &mut problems).unwrap_or(1);
    match path {
        Some(path) if problems.is_empty() => Ok(Args {
            target,
            path,
            change,
            page,
        }),
        _ => Err(problems.message("The request is invalid")),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Answer<'a> {
    path: &'a str,
    change: &'a str,
    header: String,
    index: usize,
    changes: usize,
    page: usize,
    pages: usize,
    /// Line numbers of the page's first line in the old and the new file; the view counts on
    /// from there (a `-` line moves only the old number, a `+` line only the new one).
    old_start: u32,
    new_start: u32,
    /// The page's lines, each its marker (`+`, `-` or a space) and text, cut with `…`.
    lines: Vec<String>,
}

/// The page of the change, or a message the view shows in its place.
pub fn shape_result(args: &Args, files: &[SnapshotFile]) -> Result<String, String> {
    let label = args.target.label();
    let Some(file) = files.iter().find(|file| file.path == args.path) else {
        return Err(format!(
            "{} is not a changed file of {label} (any more): reload the order.",
            args.path
        ));
    };
    let no_diff = || {
        format!(
            "GitHub gives no diff for {} (binary or too large): open the file on GitHub.",
            args.path
        )
    };
    let patch = file.patch.as_deref().ok_or_else(no_diff)?;
    let hunks = parse_patch(patch).map_err(|_| no_diff())?;
    let changes = describe_changes(&hunks);
    let index = match &args.change {
        Some(id) => changes.iter().position(|change| &change.id == id),
        None if changes.len() == 1 => Some(0),
        None => None,
    };
    let (Some(index), Some(hunk)) = (index, index.and_then(|i| hunks.get(i))) else {
        let ids: Vec<&str> = changes.iter().map(|change| change.id.as_str()).collect();
        return Err(format!(
            "{} has no change {} in {label}: its changes are {}. Reload the order.",
            args.path,
            args.change.as_deref().unwrap_or("(none given)"),
            if ids.is_empty() {
                "none".to_string()
            } else {
                ids.join(", ")
            }
        ));
    };
    let pages = hunk.lines.len().div_ceil(PAGE_LINES).max(1);
    let page = usize::try_from(args.page).unwrap_or(usize::MAX);
    if page > pages {
        return Err(format!(
            "The change has {pages} page{} of lines; page {page} does not exist.",
            if pages == 1 { "" } else { "s" }
        ));
    }
    let first = (page - 1) * PAGE_LINES;
    let mut old_start = hunk.old_start;
    let mut new_start = hunk.new_start;
    for line in hunk.lines.iter().take(first) {
        if line.kind != LineKind::Added {
            old_start = old_start.saturating_add(1);
        }
        if line.kind != LineKind::Removed {
            new_start = new_start.saturating_add(1);
        }
    }
    let lines = hunk
        .lines
        .iter()
        .skip(first)
        .take(PAGE_LINES)
        .map(|line| {
            let marker = match line.kind {
                LineKind::Added => '+',
                LineKind::Removed => '-',
                LineKind::Context => ' ',
            };
            let mut text = String::with_capacity(line.text.len() + 1);
            text.push(marker);
            text.push_str(&crate::review::layout::fit(line.text, LINE_CHARS));
            text
        })
        .collect();
    let answer = Answer {
        path: &file.path,
        change: changes.get(index).map_or("", |c| c.id.as_str()),
        header: crate::review::layout::fit(hunk.header, 200),
        index: index + 1,
        changes: changes.len(),
        page,
        pages,
        old_start,
        new_start,
        lines,
    };
    Ok(super::answer::to_json(&answer))
}

#[cfg(test)]
mod tests;

//! Where a review thread sits at the current head (its file, hunk and row) and whether the lines
//! under it changed after it was written. The rules are the parent module's doc.
//!
//! What not: no sections, no output shapes.

use super::{CommentInput, DiffSide, FileAtHead, ThreadInput};
use crate::review::patch::{parse_patch, Hunk, LineKind};

/// The file at head a thread's path names: its place in the list, the file, and whether it was
/// found by its previous path (renamed after the comment).
pub fn find_file<'f, 'a>(
    files: &'f [FileAtHead<'a>],
    path: &str,
) -> Option<(usize, &'f FileAtHead<'a>, bool)> {
    let by_path = files.iter().enumerate().find(|(_, f)| f.path == path);
    match by_path {
        Some((index, file)) => Some((index, file, false)),
        None => files
            .iter()
            .enumerate()
            .find(|(_, f)| f.previous_path == Some(path))
            .map(|(index, file)| (index, file, true)),
    }
}

/// The hunk (and its row) holding the thread's line on its side: its current line, or its
/// original one when GitHub gives none (outdated).
pub fn change_of(file: &FileAtHead<'_>, thread: &ThreadInput) -> Option<(usize, usize)> {
    let hunks = parse_patch(file.patch?).ok()?;
    let line = thread.line.or(thread.original_line)?;
    row_of(&hunks, thread.side, line)
}

/// The hunk and row of `line` on `side`.
fn row_of(hunks: &[Hunk<'_>], side: DiffSide, line: u32) -> Option<(usize, usize)> {
    hunks.iter().enumerate().find_map(|(index, hunk)| {
        hunk.numbered_lines()
            .position(|(old, new, _)| match side {
                DiffSide::Left => old == Some(line),
                DiffSide::Right => new == Some(line),
            })
            .map(|row| (index, row))
    })
}

/// Whether the lines under the thread changed after it was written (the rule is the parent
/// module's doc). `found` is [`find_file`]'s answer.
pub fn changed_since(
    head_sha: &str,
    found: Option<(usize, &FileAtHead<'_>, bool)>,
    thread: &ThreadInput,
    root: &CommentInput,
) -> bool {
    if root.original_commit.as_deref() == Some(head_sha) {
        return false;
    }
    if thread.outdated {
        return true;
    }
    let Some((_, file, renamed)) = found else {
        return true;
    };
    if renamed {
        return true;
    }
    // A file GitHub gives no diff for at head: nothing to compare, and GitHub kept the thread.
    let Some(patch) = file.patch else {
        return false;
    };
    let Ok(hunks) = parse_patch(patch) else {
        return false;
    };
    let Some(line) = thread.line else {
        return true;
    };
    rows_changed(&hunks, thread.side, line, &root.diff_hunk)
}

/// Whether the rows a comment's `diff_hunk` kept differ from the head's `hunks` ending at `line`
/// on `side` (the last step of [`changed_since`]; the review page asks it of a current thread
/// written at an earlier head). A line no longer in the diff is a change.
pub fn rows_changed(hunks: &[Hunk<'_>], side: DiffSide, line: u32, diff_hunk: &str) -> bool {
    let Some((hunk, row)) = row_of(hunks, side, line) else {
        return true;
    };
    let written = rows_of_diff_hunk(diff_hunk);
    if written.is_empty() {
        return false;
    }
    let Some(now) = hunks.get(hunk).and_then(|h| h.lines.get(..=row)) else {
        return true;
    };
    now.len() < written.len()
        || written
            .iter()
            .rev()
            .zip(now.iter().rev())
            .any(|((kind, text), line)| *kind != line.kind || *text != line.text)
}

/// The rows of a comment's `diff_hunk` after its `@@` line, as marker and text (a
/// `\ No newline` note left out).
fn rows_of_diff_hunk(diff_hunk: &str) -> Vec<(LineKind, &str)> {
    diff_hunk
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .skip_while(|line| !line.starts_with("@@"))
        .skip(1)
        .filter_map(|line| {
            let mut chars = line.chars();
            let kind = match chars.next() {
                Some('+') => LineKind::Added,
                Some('-') => LineKind::Removed,
                Some(' ') => LineKind::Context,
                // GitHub drops the space of an empty context line in some answers.
                None => return Some((LineKind::Context, "")),
                Some(_) => return None,
            };
            Some((kind, chars.as_str()))
        })
        .collect()
}

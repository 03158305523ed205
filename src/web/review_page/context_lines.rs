//! "Expand context": lines of a file at the pull request's head that its diff does not show,
//! with the line numbers they have in the old and the new file (issue 15, item 6).
//!
//! Why: a change often needs the lines just above or below it to be understood. The browser asks
//! for a few lines between changes (`…/context?path=&from=&to=`, new-file numbers); the Worker
//! reads the file at the head with the viewer's token and this module cuts the lines out and
//! numbers them: outside the hunks, an old line number differs from the new one by what the
//! hunks before it added and removed.
//!
//! What not: no fetching, no HTML (the script builds the rows with `textContent`), no lines
//! inside a hunk (the diff already shows those).

use crate::review::patch::{parse_patch, Hunk};

/// Lines one request returns at most; the script asks for 20 above or below a change.
pub const MAX_CONTEXT_LINES: u32 = 20;

/// One line of the file that the diff doesn't show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextLine<'t> {
    pub old: u32,
    pub new: u32,
    pub text: &'t str,
}

/// Why no lines could be given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContextError {
    /// `from` is 0, after `to`, or the range is longer than [`MAX_CONTEXT_LINES`].
    BadRange,
    /// The file's patch could not be read, so old line numbers are unknown.
    UnreadablePatch,
}

impl ContextError {
    /// What the reviewer's browser is told (the script shows it in place of the lines).
    pub fn message(&self) -> String {
        match self {
            ContextError::BadRange => format!(
                "from and to must be line numbers with 1 <= from <= to and at most {MAX_CONTEXT_LINES} lines"
            ),
            ContextError::UnreadablePatch => {
                "This file's diff couldn't be read, so its lines can't be placed; open it on GitHub."
                    .into()
            }
        }
    }
}

/// Lines `from..=to` (new-file numbers, 1-based) of `text`, the file at the head, cut at its end
/// and without the lines inside a hunk of `patch`; and how many lines the file has.
pub fn context_lines<'t>(
    patch: Option<&str>,
    text: &'t str,
    from: u32,
    to: u32,
) -> Result<(Vec<ContextLine<'t>>, u32), ContextError> {
    if from == 0 || from > to || to - from >= MAX_CONTEXT_LINES {
        return Err(ContextError::BadRange);
    }
    let hunks = match patch {
        Some(patch) => parse_patch(patch).map_err(|_| ContextError::UnreadablePatch)?,
        None => Vec::new(),
    };
    let body = text.strip_suffix('\n').unwrap_or(text);
    let total = if text.is_empty() {
        0
    } else {
        u32::try_from(body.split('\n').count()).unwrap_or(u32::MAX)
    };
    let mut lines = Vec::new();
    let mut new = 0u32;
    for line in body.split('\n') {
        new = new.saturating_add(1);
        if new > to {
            break;
        }
        if new < from {
            continue;
        }
        if let Some(old) = old_line(&hunks, new) {
            let text = line.strip_suffix('\r').unwrap_or(line);
            lines.push(ContextLine { old, new, text });
        }
    }
    Ok((lines, total))
}

/// Where a range `start,count` of a hunk header ends (exclusive): a range of 0 lines names the
/// line before it (`-5,0` is "after line 5").
fn range_end(start: u32, count: u32) -> u32 {
    if count == 0 {
        start.saturating_add(1)
    } else {
        start.saturating_add(count)
    }
}

/// The old-file number of new line `new`, or `None` when a hunk shows that line.
fn old_line(hunks: &[Hunk<'_>], new: u32) -> Option<u32> {
    let mut shift: i64 = 0;
    for hunk in hunks {
        let new_end = range_end(hunk.new_start, hunk.new_lines);
        if new < hunk.new_start || (hunk.new_lines == 0 && new == hunk.new_start) {
            break;
        }
        if new < new_end && hunk.new_lines > 0 {
            return None;
        }
        shift = i64::from(new_end) - i64::from(range_end(hunk.old_start, hunk.old_lines));
    }
    u32::try_from(i64::from(new) - shift).ok()
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;

    fn check(patch: Option<&str>, text: &str, from: u32, to: u32, expected: &[(u32, u32, &str)]) {
        let (lines, _) = context_lines(patch, text, from, to).unwrap_or_else(|e| panic!("{e:?}"));
        let got: Vec<(u32, u32, &str)> = lines.iter().map(|l| (l.old, l.new, l.text)).collect();
        assert_eq!(got, expected);
    }

    /// A file of 12 lines `l1`..`l12` at the head, with 2 lines added after line 3 and line 9
    /// of the old file removed.
    const PATCH: &str = "@@ -2,2 +2,4 @@\n l2\n l3\n+n1\n+n2\n@@ -8,3 +10,2 @@\n l8\n-gone\n l10";

    fn text() -> String {
        [
            "l1", "l2", "l3", "n1", "n2", "l4", "l5", "l6", "l7", "l8", "l10", "l11",
        ]
        .join("\n")
            + "\n"
    }

    #[test]
    fn numbers_lines_between_and_after_changes() {
        let text = text();
        check(Some(PATCH), &text, 1, 1, &[(1, 1, "l1")]);
        // Between the hunks: new 6..9 are old 4..7.
        check(
            Some(PATCH),
            &text,
            4,
            9,
            &[(4, 6, "l4"), (5, 7, "l5"), (6, 8, "l6"), (7, 9, "l7")],
        );
        // After the last hunk, and cut at the end of the file.
        check(Some(PATCH), &text, 12, 20, &[(11, 12, "l11")]);
        let (_, total) = context_lines(Some(PATCH), &text, 1, 1).unwrap_or_default();
        assert_eq!(total, 12);
        // No patch (an added file without one): old and new are the same.
        check(None, "a\r\nb", 2, 3, &[(2, 2, "b")]);
    }

    #[test]
    fn pure_additions_and_deletions_shift_the_numbers() {
        // A line added at the very start of the file.
        check(
            Some("@@ -0,0 +1 @@\n+first"),
            "first\na\nb\n",
            2,
            3,
            &[(1, 2, "a"), (2, 3, "b")],
        );
        // Old lines 3 and 4 removed after line 2.
        check(
            Some("@@ -3,2 +2,0 @@\n-x\n-y"),
            "a\nb\nc\n",
            1,
            3,
            &[(1, 1, "a"), (2, 2, "b"), (5, 3, "c")],
        );
    }

    #[test]
    fn refuses_bad_ranges_and_unreadable_patches() {
        for (from, to) in [(0, 3), (5, 4), (1, 21)] {
            assert_eq!(
                context_lines(None, "a", from, to),
                Err(ContextError::BadRange),
                "{from}..{to}"
            );
        }
        assert_eq!(
            context_lines(Some("not a diff"), "a", 1, 1),
            Err(ContextError::UnreadablePatch)
        );
        assert!(ContextError::BadRange
            .message()
            .contains("at most 20 lines"));
    }
}

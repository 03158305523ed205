//! A reviewer's comments before they are sent (issue 29): what a comment names, the rules it must
//! meet before anything is stored or sent, and where it sits in the diff the page shows now.
//!
//! Why: drafts are kept by LogiKFlow (in the pull request's Durable Object, per reviewer) so they
//! survive a reload, a failed send and a push, and go to GitHub as one review. GitHub refuses a
//! whole review when one comment's line is not in the diff, so the line is checked here against
//! the head's patch before a draft is kept and again before the review is sent; a draft whose
//! line left the diff after a push keeps its text and says so.
//!
//! What not: no storage, no HTTP, no rendering.

use serde::{Deserialize, Serialize};

use crate::github::reviews::{Anchor, Side};
use crate::review::patch::{parse_patch, Hunk, LineKind};

/// GitHub's limit on a comment's or a review summary's body, in characters.
pub const MAX_BODY_CHARS: usize = 65_536;
/// Drafts one reviewer keeps on one pull request: a long review, bounded so the object's
/// storage can't grow without limit.
pub const MAX_DRAFTS_PER_PERSON: usize = 200;
/// The longest path accepted (GitHub paths run to 4,096 bytes).
const MAX_PATH_BYTES: usize = 4096;

/// A draft comment as stored: where it is, the head it was written at, and its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    pub id: u64,
    #[serde(flatten)]
    pub anchor: Anchor,
    pub head_sha: String,
    /// The text of the lines commented, at `head_sha`: after a push the same number may hold
    /// other text, and then the draft is no longer on its line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
    pub body: String,
    pub updated_at: String,
}

impl Draft {
    /// Whether the draft is still on its line in the diff at `head` (`patch` is its file's):
    /// the line is in the diff and, after a push, holds the text it was written on.
    pub fn is_on(&self, patch: Option<&str>, head: &str) -> bool {
        in_diff(patch, &self.anchor)
            && (self.head_sha == head
                || self.lines.is_empty()
                || commented_lines(patch, &self.anchor) == self.lines)
    }
}

/// A draft to store in the pull request's object: a new draft (`id` absent) or a new text for
/// one of the person's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftPut {
    pub person: String,
    pub id: Option<u64>,
    pub draft: Draft,
}

/// What the object did with a [`DraftPut`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PutOutcome {
    /// Stored under this id.
    Stored(u64),
    /// The person already holds [`MAX_DRAFTS_PER_PERSON`] drafts.
    Full,
    /// No draft of theirs has that id (sent or deleted meanwhile).
    Missing,
}

/// The person's drafts to delete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftDelete {
    pub person: String,
    pub ids: Vec<u64>,
}

/// A comment as the form names it, checked: its anchor and body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewDraft {
    pub anchor: Anchor,
    pub body: String,
}

/// Checks a body: not blank, at most GitHub's 65,536 characters.
pub fn check_body(body: &str, what: &str) -> Result<(), String> {
    if body.trim().is_empty() {
        return Err(format!("The {what} is empty; write something first."));
    }
    let chars = body.chars().count();
    if chars > MAX_BODY_CHARS {
        return Err(format!(
            "The {what} is {chars} characters long; GitHub takes at most {MAX_BODY_CHARS}. Shorten it and send again (your text is still in the box)."
        ));
    }
    Ok(())
}

/// Reads a comment's fields from a form (`path`, `line`, `side`, optional `start_line` and
/// `start_side`, `body`): every problem named with its field.
pub fn parse(field: &dyn Fn(&str) -> Option<String>) -> Result<NewDraft, String> {
    let path = field("path").unwrap_or_default();
    if path.is_empty() || path.len() > MAX_PATH_BYTES {
        return Err(format!(
            "path is required: a file the pull request changes, at most {MAX_PATH_BYTES} bytes."
        ));
    }
    let number = |name: &str| -> Result<Option<u32>, String> {
        match field(name).filter(|v| !v.trim().is_empty()) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| *n > 0)
                .map(Some)
                .ok_or_else(|| format!("{name} must be a line number (1 or more), not {v:?}.")),
        }
    };
    let line = number("line")?.ok_or("line is required: the number of the line to comment on.")?;
    let side = Side::parse(&field("side").unwrap_or_default())
        .ok_or("side must be RIGHT (the new version of the line) or LEFT (the old one).")?;
    let start_line = number("start_line")?.filter(|start| *start != line);
    let start_side = match field("start_side").filter(|v| !v.is_empty()) {
        Some(text) => Some(Side::parse(&text).ok_or("start_side must be RIGHT or LEFT.")?),
        None => None,
    };
    let start_side = start_line.map(|_| start_side.unwrap_or(side));
    if let Some(start) = start_line {
        if start > line && start_side == Some(side) {
            return Err(format!(
                "start_line ({start}) must come before line ({line}): a range runs down the diff."
            ));
        }
    }
    let body = field("body").unwrap_or_default();
    check_body(&body, "comment")?;
    Ok(NewDraft {
        anchor: Anchor {
            path,
            line,
            side,
            start_line,
            start_side,
        },
        body,
    })
}

/// Where an anchor's lines are in a file's patch: the hunk of each end, when both are lines of
/// the diff. GitHub takes a comment only on a line its diff shows, and a range within one hunk.
fn place(patch: &str, side: Side, line: u32) -> Option<usize> {
    let hunks = parse_patch(patch).ok()?;
    for (index, hunk) in hunks.iter().enumerate() {
        for (old_no, new_no, _) in hunk.numbered_lines() {
            let here = match side {
                Side::Left => old_no,
                Side::Right => new_no,
            };
            if here == Some(line) {
                return Some(index);
            }
        }
    }
    None
}

/// Whether GitHub would take a comment at `anchor` on a diff with `patch`: its line (and its
/// range's first line) on the side named, in the same hunk.
pub fn in_diff(patch: Option<&str>, anchor: &Anchor) -> bool {
    let Some(patch) = patch else {
        return false;
    };
    let Some(end) = place(patch, anchor.side, anchor.line) else {
        return false;
    };
    match anchor.start_line {
        None => true,
        Some(start) => place(patch, anchor.start_side.unwrap_or(anchor.side), start) == Some(end),
    }
}

/// The text of the lines an anchor covers, for showing a suggestion as a diff: the range's lines
/// in diff order, or the one line. Empty when the lines aren't in the patch.
pub fn commented_lines(patch: Option<&str>, anchor: &Anchor) -> Vec<String> {
    let Some(hunks) = patch.and_then(|p| parse_patch(p).ok()) else {
        return Vec::new();
    };
    commented_lines_in(&hunks, anchor)
}

/// [`commented_lines`] of hunks already parsed.
pub fn commented_lines_in(hunks: &[Hunk<'_>], anchor: &Anchor) -> Vec<String> {
    let start = anchor.start_line.unwrap_or(anchor.line);
    let start_side = anchor.start_side.unwrap_or(anchor.side);
    let mut out = Vec::new();
    for hunk in hunks {
        let mut inside = false;
        for (old_no, new_no, diff_line) in hunk.numbered_lines() {
            let on = |side: Side| match side {
                Side::Left => old_no,
                Side::Right => new_no,
            };
            if on(start_side) == Some(start) {
                inside = true;
            }
            // A suggestion replaces lines of the new version: removed lines in a range are
            // not part of what it replaces.
            if inside && (diff_line.kind != LineKind::Removed || anchor.side == Side::Left) {
                out.push(diff_line.text.to_string());
            }
            if on(anchor.side) == Some(anchor.line) {
                return out;
            }
        }
        out.clear();
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATCH: &str = "@@ -1,3 +1,4 @@\n line one\n-old two\n+new two\n+new three\n line four\n@@ -20,2 +21,2 @@\n x\n-y\n+z";

    fn form(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    fn anchor(line: u32, side: Side, start: Option<(u32, Side)>) -> Anchor {
        Anchor {
            path: "a.rs".into(),
            line,
            side,
            start_line: start.map(|s| s.0),
            start_side: start.map(|s| s.1),
        }
    }

    #[test]
    fn a_form_is_read_with_every_field_checked() {
        let ok = parse(&form(&[
            ("path", "a.rs"),
            ("line", "3"),
            ("side", "RIGHT"),
            ("start_line", "2"),
            ("body", "Hi"),
        ]));
        assert_eq!(
            ok,
            Ok(NewDraft {
                anchor: anchor(3, Side::Right, Some((2, Side::Right))),
                body: "Hi".into()
            })
        );
        let check = |pairs: &'static [(&'static str, &'static str)], expected: &str| {
            let error = parse(&form(pairs)).err().unwrap_or_default();
            assert!(error.contains(expected), "{error}");
        };
        check(
            &[("line", "3"), ("side", "RIGHT"), ("body", "x")],
            "path is required",
        );
        check(
            &[("path", "a"), ("side", "RIGHT"), ("body", "x")],
            "line is required",
        );
        check(
            &[
                ("path", "a"),
                ("line", "0"),
                ("side", "RIGHT"),
                ("body", "x"),
            ],
            "line must be a line number",
        );
        check(
            &[("path", "a"), ("line", "3"), ("side", "UP"), ("body", "x")],
            "side must be RIGHT",
        );
        check(
            &[
                ("path", "a"),
                ("line", "3"),
                ("side", "RIGHT"),
                ("start_line", "5"),
                ("body", "x"),
            ],
            "must come before",
        );
        check(
            &[
                ("path", "a"),
                ("line", "3"),
                ("side", "RIGHT"),
                ("body", "  "),
            ],
            "comment is empty",
        );
        let long = "x".repeat(MAX_BODY_CHARS + 1);
        assert!(check_body(&long, "comment").is_err_and(|e| e.contains("65536")));
        assert!(
            check_body(&"é".repeat(MAX_BODY_CHARS), "comment").is_ok(),
            "characters, not bytes"
        );
    }

    #[test]
    fn lines_must_be_in_the_diff_and_a_range_in_one_hunk() {
        let p = Some(PATCH);
        assert!(in_diff(p, &anchor(2, Side::Right, None)), "an added line");
        assert!(in_diff(p, &anchor(2, Side::Left, None)), "a removed line");
        assert!(in_diff(p, &anchor(4, Side::Right, None)), "a context line");
        assert!(
            in_diff(p, &anchor(1, Side::Left, None)),
            "a context line, old side"
        );
        assert!(!in_diff(p, &anchor(10, Side::Right, None)), "between hunks");
        assert!(in_diff(p, &anchor(4, Side::Right, Some((1, Side::Right)))));
        assert!(
            in_diff(p, &anchor(3, Side::Right, Some((2, Side::Left)))),
            "from a removed line"
        );
        assert!(
            !in_diff(p, &anchor(22, Side::Right, Some((2, Side::Right)))),
            "across hunks"
        );
        assert!(!in_diff(None, &anchor(1, Side::Right, None)), "no patch");
    }

    #[test]
    fn after_a_push_a_draft_is_on_its_line_only_while_the_text_is_the_same() {
        let draft = Draft {
            id: 1,
            anchor: anchor(3, Side::Right, None),
            head_sha: "old".into(),
            lines: vec!["new three".into()],
            body: "x".into(),
            updated_at: String::new(),
        };
        assert!(draft.is_on(Some(PATCH), "new"), "same text, same number");
        let moved = PATCH.replace("+new three", "+other three");
        assert!(!draft.is_on(Some(&moved), "new"), "same number, other text");
        assert!(draft.is_on(Some(&moved), "old"), "at its own head");
        assert!(!draft.is_on(None, "old"), "the file left the diff");
    }

    #[test]
    fn commented_lines_are_the_range_in_the_new_version() {
        let p = Some(PATCH);
        assert_eq!(
            commented_lines(p, &anchor(3, Side::Right, None)),
            ["new three"]
        );
        assert_eq!(
            commented_lines(p, &anchor(4, Side::Right, Some((2, Side::Right)))),
            ["new two", "new three", "line four"]
        );
        assert_eq!(
            commented_lines(p, &anchor(2, Side::Left, None)),
            ["old two"]
        );
        assert!(commented_lines(p, &anchor(9, Side::Right, None)).is_empty());
    }
}

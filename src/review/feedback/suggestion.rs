//! GitHub's suggested changes: a ```` ```suggestion ```` block in a review comment's Markdown,
//! read as the lines that would replace the commented lines (GitHub's "Commit suggestion").
//!
//! The block opens with a line of three or more backticks followed by `suggestion` (indented by
//! at most three spaces, as CommonMark allows a fence) and closes with a line of at least as
//! many backticks and nothing else. An empty block deletes the lines. Only the first block counts:
//! GitHub applies one suggestion per comment.
//!
//! What not: no applying, no range (the thread's lines are the range).

/// The replacement lines of a suggestion block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuggestedLines(pub Vec<String>);

/// The first suggestion block of a comment, when it has one that is closed.
pub fn parse_suggestion(body: &str) -> Option<SuggestedLines> {
    let mut lines = body
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line));
    let fence = lines.by_ref().find_map(opening_fence)?;
    let mut replacement = Vec::new();
    for line in lines {
        if is_closing(line, fence) {
            return Some(SuggestedLines(replacement));
        }
        replacement.push(line.to_string());
    }
    None
}

/// The backtick count of a ```` ```suggestion ```` line.
fn opening_fence(line: &str) -> Option<usize> {
    let trimmed = strip_indent(line)?;
    let ticks = trimmed.bytes().take_while(|&b| b == b'`').count();
    let info = trimmed.get(ticks..)?.trim();
    (ticks >= 3 && info == "suggestion").then_some(ticks)
}

fn is_closing(line: &str, fence: usize) -> bool {
    let Some(trimmed) = strip_indent(line) else {
        return false;
    };
    let ticks = trimmed.bytes().take_while(|&b| b == b'`').count();
    ticks >= fence
        && trimmed
            .get(ticks..)
            .is_some_and(|rest| rest.trim().is_empty())
}

/// The line without up to three spaces of indent; `None` when indented more (code, not a fence).
fn strip_indent(line: &str) -> Option<&str> {
    let spaces = line.bytes().take_while(|&b| b == b' ').count();
    (spaces <= 3).then(|| &line[spaces..])
}

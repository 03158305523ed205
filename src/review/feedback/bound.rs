//! The bounds of `get_review_feedback`'s answer (issue #44): reviewers' text reaches the agent
//! cleaned and capped, and the whole answer stays under one cap.
//!
//! Why: anyone who can comment on a public repository writes review comments. Sixty comments of
//! 65,000 characters (GitHub's limit) made a 7.8 MB answer, which floods an agent's context and
//! is an injection channel; a U+202E in a body reordered what the agent was shown. The rules:
//! - every body and summary loses its bidirectional controls (`unicode::without_bidi_controls`,
//!   the one rule the review page and saved order text use), and so do a suggestion's lines;
//! - a body or summary over [`MAX_BODY_CHARS`] keeps its first part and ends with a marker saying
//!   it was cut and where it is whole on GitHub ([`body`]);
//! - an answer over its cap (the caller's, `get_pull_request`'s 400,000 characters) keeps the
//!   verdicts and threads that fit in the answer's order, the first thread that doesn't fit with
//!   the comments of it that do, and says in `nextStep` what was left out and where to read it
//!   ([`cut_to`]); `truncated` is then true.
//!
//! What not: no decisions about threads (the parent module's), no JSON of the whole answer (the
//! tool's, which knows the fields around the feedback).

use serde::Serialize;

use super::{Comment, Feedback, Thread};
use crate::unicode::without_bidi_controls;

/// The most characters of one comment body or review summary an answer holds. Review comments
/// are a few lines to a few paragraphs; 8,000 characters is several screens, and holds a long
/// suggestion. GitHub allows 65,536.
pub const MAX_BODY_CHARS: usize = 8_000;

/// Room kept in the answer for the sentence [`cut_to`] adds to `nextStep`, besides the pull
/// request's URL it names (the sentence is under 300 characters).
const SENTENCE_ROOM: usize = 400;

/// A reviewer's text as the answer holds it: without bidirectional controls, and cut after
/// [`MAX_BODY_CHARS`] characters with a marker naming `url`, where it is whole.
pub fn body(text: &str, url: &str) -> String {
    let clean = without_bidi_controls(text);
    let Some((end, _)) = clean.char_indices().nth(MAX_BODY_CHARS) else {
        return clean;
    };
    let total = clean.chars().count();
    let mut out = String::with_capacity(end + 200 + url.len());
    out.push_str(clean.get(..end).unwrap_or_default());
    out.push_str(&format!(
        "\n\n[Cut by LogiKFlow: this text has {total} characters and only the first \
         {MAX_BODY_CHARS} are here. Read it whole on GitHub: {url}]"
    ));
    out
}

/// A suggestion's line as the answer holds it: without bidirectional controls.
pub fn line(text: &str) -> String {
    without_bidi_controls(text)
}

/// What [`cut_to`] left out.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct LeftOut {
    verdicts: usize,
    threads: usize,
    /// Comments left out, of the threads left out and of the one kept in part.
    comments: usize,
}

/// Cuts `feedback` so its JSON is at most `room` characters, when it is longer: what fits is
/// kept in the answer's order (verdicts, then threads section by section), `truncated` is set and
/// `nextStep` says what was left out and that the pull request on GitHub (`pull_url`) has it.
/// `cap` is the answer's cap, as the sentence names it. Returns whether anything was cut.
pub fn cut_to(feedback: &mut Feedback, room: usize, cap: usize, pull_url: &str) -> bool {
    if json_len(feedback) <= room {
        return false;
    }
    let budget = room.saturating_sub(SENTENCE_ROOM + pull_url.len());
    let verdicts = std::mem::take(&mut feedback.verdicts);
    let threads = std::mem::take(&mut feedback.threads);
    let mut used = json_len(feedback);
    let mut left = LeftOut::default();
    // The trailing comma of each item is counted, the first item's too: a little under the room.
    for verdict in verdicts {
        let len = json_len(&verdict) + 1;
        if left.verdicts == 0 && used + len <= budget {
            used += len;
            feedback.verdicts.push(verdict);
        } else {
            left.verdicts += 1;
        }
    }
    for thread in threads {
        if left.threads > 0 || left.comments > 0 || left.verdicts > 0 {
            left.threads += 1;
            left.comments += thread.comments.len();
            continue;
        }
        let len = json_len(&thread) + 1;
        if used + len <= budget {
            used += len;
            feedback.threads.push(thread);
            continue;
        }
        match in_part(thread, budget.saturating_sub(used)) {
            (Some(kept), rest) => {
                used += json_len(&kept) + 1;
                feedback.threads.push(kept);
                left.comments += rest;
            }
            (None, rest) => {
                left.threads += 1;
                left.comments += rest;
            }
        }
    }
    feedback.truncated = true;
    feedback.next_step.push_str(&sentence(left, cap, pull_url));
    true
}

/// The thread with the first of its comments that fit in `room` characters, and how many of its
/// comments were left out; `None` when not even its first comment fits.
fn in_part(mut thread: Thread, room: usize) -> (Option<Thread>, usize) {
    let comments: Vec<Comment> = std::mem::take(&mut thread.comments);
    let total = comments.len();
    let mut used = json_len(&thread) + 1;
    for comment in comments {
        let len = json_len(&comment) + 1;
        if used + len > room {
            break;
        }
        used += len;
        thread.comments.push(comment);
    }
    let kept = thread.comments.len();
    ((kept > 0).then_some(thread), total - kept)
}

/// The sentence `nextStep` ends with after a cut.
fn sentence(left: LeftOut, cap: usize, pull_url: &str) -> String {
    let mut parts = Vec::new();
    for (count, one, many) in [
        (left.verdicts, "verdict", "verdicts"),
        (left.threads, "thread", "threads"),
        (left.comments, "comment", "comments"),
    ] {
        match count {
            0 => {}
            1 => parts.push(format!("1 {one}")),
            n => parts.push(format!("{n} {many}")),
        }
    }
    format!(
        " This answer was cut to stay under {} characters (truncated): {} at its end {} left \
         out. Read them on the pull request on GitHub: {pull_url}",
        thousands(cap),
        parts.join(", "),
        if parts.len() == 1 && [left.verdicts, left.threads, left.comments].contains(&1) {
            "was"
        } else {
            "were"
        },
    )
}

/// `400000` as `400,000`.
fn thousands(value: usize) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The length of a value's JSON as the answer writes it (compact; the same inside an array).
fn json_len(value: &impl Serialize) -> usize {
    serde_json::to_string(value).map_or(0, |text| text.len())
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::review::feedback::{Counts, DiffSide, Verdict};

    fn thread(index: usize, comments: usize, chars: usize) -> Thread {
        Thread {
            path: "a.rs".into(),
            path_at_head: None,
            line: Some(1),
            start_line: None,
            original_line: Some(1),
            side: DiffSide::Right,
            url: format!("https://github.com/o/r/pull/1#discussion_r{index}"),
            resolved: false,
            outdated: false,
            changed_since: false,
            change_id: None,
            section: None,
            suggestion: None,
            comments: (0..comments)
                .map(|n| Comment {
                    author: "rev".into(),
                    body: "x".repeat(chars),
                    created_at: "2026-12-04T10:00:00Z".into(),
                    url: format!("https://github.com/o/r/pull/1#discussion_r{index}{n}"),
                })
                .collect(),
        }
    }

    fn feedback(threads: Vec<Thread>) -> Feedback {
        Feedback {
            verdicts: vec![Verdict {
                reviewer: "rev".into(),
                state: "commented",
                summary: "ok".into(),
                commit_id: None,
                at_current_head: false,
                submitted_at: None,
                url: "https://github.com/o/r/pull/1#pullrequestreview-1".into(),
                read: None,
                id: Some(1),
            }],
            threads,
            counts: Counts::default(),
            truncated: false,
            next_step: "Answer.".into(),
        }
    }

    /// Issue #44: a body over the cap keeps its first 8,000 characters and says it was cut and
    /// where it is whole; one at the cap is left alone.
    #[test]
    fn a_long_body_is_cut_with_a_marker() {
        let url = "https://github.com/o/r/pull/1#discussion_r1";
        let whole = "é".repeat(MAX_BODY_CHARS);
        assert_eq!(body(&whole, url), whole);
        let long = "é".repeat(65_000);
        let cut = body(&long, url);
        assert!(cut.starts_with(&whole), "kept the first part");
        assert!(cut.chars().count() < MAX_BODY_CHARS + 300);
        assert!(
            cut.ends_with(&format!(
                "[Cut by LogiKFlow: this text has 65000 characters and only the first 8000 are here. Read it whole on GitHub: {url}]"
            )),
            "{}",
            &cut[cut.len() - 200..]
        );
    }

    /// Issue #44 W3: reviewers' text reaches the agent without bidirectional controls.
    #[test]
    fn bodies_lose_bidi_controls() {
        let text = "Looks good \u{202E}txt.exe\u{202C} \u{2066}x\u{2069}\u{200F}";
        assert_eq!(body(text, ""), "Looks good txt.exe x");
        assert_eq!(line("let a\u{202E} = 1;"), "let a = 1;");
        let long = format!("\u{202E}{}", "y".repeat(70_000));
        assert!(!body(&long, "").contains('\u{202E}'));
    }

    /// Issue #44 W2: an answer over its room keeps what fits in order (a thread in part), is
    /// truncated, and says what was left out and where to read it.
    #[test]
    fn an_answer_over_its_room_is_cut_in_order() {
        // Thread 0 fits whole, thread 1 only in part, threads 2 and 3 not at all.
        let mut cut = feedback(vec![
            thread(0, 2, 1_000),
            thread(1, 5, 1_000),
            thread(2, 1, 1_000),
            thread(3, 3, 1_000),
        ]);
        let room = 6_000;
        assert!(cut_to(
            &mut cut,
            room,
            400_000,
            "https://github.com/o/r/pull/1"
        ));
        assert!(json_len(&cut) <= room, "{}", json_len(&cut));
        assert!(cut.truncated);
        assert_eq!(cut.verdicts.len(), 1);
        let kept: Vec<usize> = cut.threads.iter().map(|t| t.comments.len()).collect();
        assert_eq!(kept, [2, 2]);
        assert!(
            cut.next_step.ends_with(
                " This answer was cut to stay under 400,000 characters (truncated): 2 threads, \
                 7 comments at its end were left out. Read them on the pull request on GitHub: \
                 https://github.com/o/r/pull/1"
            ),
            "{}",
            cut.next_step
        );
        // An answer in its room is left as it is.
        let mut small = feedback(vec![thread(0, 2, 10)]);
        let before = small.clone();
        assert!(!cut_to(&mut small, 400_000, 400_000, "u"));
        assert_eq!(small, before);
    }

    /// Verdicts come first: when they alone are over the room, the later ones and every thread
    /// are left out.
    #[test]
    fn verdicts_are_kept_first() {
        let mut many = feedback(vec![thread(0, 1, 10)]);
        let verdict = many.verdicts[0].clone();
        many.verdicts = (0..5)
            .map(|_| Verdict {
                summary: "s".repeat(2_000),
                ..verdict.clone()
            })
            .collect();
        assert!(cut_to(&mut many, 5_000, 400_000, "u"));
        assert!(json_len(&many) <= 5_000);
        assert_eq!(many.verdicts.len(), 2);
        assert!(many.threads.is_empty());
        assert!(
            many.next_step
                .contains("3 verdicts, 1 thread, 1 comment at its end were left out"),
            "{}",
            many.next_step
        );
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }
}

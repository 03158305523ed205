//! The view's open threads per section: placed by the feedback rules, shaped for the view.

use serde_json::{json, Value};

use super::*;
use crate::review::feedback::{CommentInput, DiffSide, ThreadInput};
use crate::tools::show_reading_order::tests::{order_body, snapshot};

const HEAD: &str = "head2";

fn comment(author: &str, body: &str) -> CommentInput {
    CommentInput {
        author: author.into(),
        body: body.into(),
        created_at: "2026-12-04T10:00:00Z".into(),
        url: format!("https://github.com/acme/app/pull/7#discussion_{author}"),
        diff_hunk: String::new(),
        original_commit: Some(HEAD.into()),
        pending: false,
    }
}

fn thread(path: &str, line: u32, comments: Vec<CommentInput>) -> ThreadInput {
    ThreadInput {
        path: path.into(),
        side: DiffSide::Right,
        line: Some(line),
        start_line: None,
        original_line: Some(line),
        original_start_line: None,
        outdated: false,
        resolved: false,
        comments,
    }
}

/// The answer as the view reads it.
fn shaped(review: Option<&Review>) -> Value {
    serde_json::to_value(review_threads(review, &order_body(), &snapshot(), HEAD))
        .unwrap_or(Value::Null)
}

/// `order_body`'s sections: 1 "Flag" (`lib/flags.ts`), 2 "Routes" (`app/router.ts`, the lockfile).
fn review() -> Review {
    let mut resolved = thread("app/router.ts", 41, vec![comment("rev", "Done")]);
    resolved.resolved = true;
    let mut draft = comment("rev", "Not sent yet");
    draft.pending = true;
    Review {
        threads: vec![
            thread(
                "app/router.ts",
                41,
                vec![
                    comment("rev", "\n\n  Why `/invites`?\u{202E}\tnow  \nThe rest."),
                    comment("author", "Because."),
                ],
            ),
            thread(
                "lib/flags.ts",
                2,
                vec![comment(
                    "octo",
                    "```suggestion\nexport const invites = true;\n```",
                )],
            ),
            resolved,
            thread("lib/gone.ts", 3, vec![comment("rev", "Gone?")]),
            thread("lib/flags.ts", 2, vec![draft]),
        ],
        reviews: Vec::new(),
        truncated: false,
    }
}

#[test]
fn open_threads_are_counted_per_section_with_their_first_lines() {
    let answer = shaped(Some(&review()));
    assert_eq!(answer["read"], true);
    assert_eq!(answer["sections"][0]["open"], 1);
    assert_eq!(
        answer["sections"][0]["threads"][0],
        json!({
            "path": "lib/flags.ts",
            "line": 2,
            "url": "https://github.com/acme/app/pull/7#discussion_octo",
            "author": "octo",
            "firstLine": "Suggested change",
            "changedSince": false
        })
    );
    // Resolved threads are not open, drafts are nobody's but their writer's.
    assert_eq!(answer["sections"][1]["open"], 1);
    let routes = &answer["sections"][1]["threads"][0];
    assert_eq!(routes["author"], "rev");
    assert_eq!(routes["line"], 41);
    // Blank lines skipped, bidi controls out, a tab a space, trimmed.
    assert_eq!(routes["firstLine"], "Why `/invites`? now");
    assert_eq!(answer["elsewhere"], 1, "lib/gone.ts is in no section");
    assert_eq!(answer["truncated"], false);
}

#[test]
fn a_failed_read_says_so_and_shows_no_counts() {
    assert_eq!(
        shaped(None),
        json!({ "read": false, "sections": [], "elsewhere": 0, "truncated": false })
    );
}

#[test]
fn without_threads_every_section_has_none() {
    let empty = Review {
        truncated: true,
        ..Review::default()
    };
    assert_eq!(
        shaped(Some(&empty)),
        json!({
            "read": true,
            "sections": [{ "open": 0, "threads": [] }, { "open": 0, "threads": [] }],
            "elsewhere": 0,
            "truncated": true
        })
    );
}

#[test]
fn a_long_first_line_is_cut_and_a_body_without_text_gives_none() {
    let long = "x".repeat(300);
    let review = Review {
        threads: vec![
            thread("lib/flags.ts", 2, vec![comment("rev", &long)]),
            thread(
                "lib/flags.ts",
                2,
                vec![comment("rev", "```\ncode only\n```")],
            ),
        ],
        ..Review::default()
    };
    let answer = shaped(Some(&review));
    let lines: Vec<&str> = answer["sections"][0]["threads"]
        .as_array()
        .map(|threads| {
            threads
                .iter()
                .filter_map(|t| t["firstLine"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].chars().count(), FIRST_LINE_CHARS);
    assert!(lines[0].ends_with('…'));
    assert_eq!(lines[1], "");
}

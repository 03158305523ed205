//! The feedback rules, one `check` per case: the inputs as GitHub gives them, the answer written
//! as one line per verdict and thread (change ids written as `file#hunk`), then `nextStep`.

use super::*;
use crate::review::change_id::describe_changes;
use crate::review::patch::parse_patch;

const HEAD: &str = "head2";
const EARLIER: &str = "head1";

/// `src/app.rs` at head: an added call in `main`, and `b` changed in `run` (old line 11, new 12).
const APP: &str = "@@ -1,3 +1,4 @@\n fn main() {\n+    start();\n     run();\n }\n@@ -10,3 +11,3 @@ fn run() {\n let a = 1;\n-let b = 2;\n+let b = 3;\n let c = 4;";
/// The rows GitHub keeps with a comment on `+let b = 3;`, as written at `EARLIER`.
const HUNK_AT_B: &str = "@@ -10,3 +11,3 @@ fn run() {\n let a = 1;\n-let b = 2;\n+let b = 3;";
/// `src/new.rs`, renamed from `src/old.rs` after a comment on it.
const RENAMED: &str = "@@ -1,2 +1,2 @@\n-old name\n+new name\n same";
const README: &str = "@@ -1 +1 @@\n-# App\n+# The app";

fn ids(patch: &str) -> Vec<String> {
    parse_patch(patch)
        .map(|hunks| describe_changes(&hunks).into_iter().map(|c| c.id).collect())
        .unwrap_or_default()
}

struct World {
    ids: Vec<(&'static str, Vec<String>)>,
}

impl World {
    fn new() -> World {
        World {
            ids: vec![
                ("src/app.rs", ids(APP)),
                ("src/new.rs", ids(RENAMED)),
                ("README.md", ids(README)),
            ],
        }
    }

    fn files(&self) -> Vec<FileAtHead<'_>> {
        let patch = |path: &str| match path {
            "src/app.rs" => APP,
            "src/new.rs" => RENAMED,
            _ => README,
        };
        self.ids
            .iter()
            .map(|(path, ids)| FileAtHead {
                path,
                previous_path: (*path == "src/new.rs").then_some("src/old.rs"),
                patch: Some(patch(path)),
                change_ids: ids.iter().map(String::as_str).collect(),
            })
            .collect()
    }

    fn id(&self, path: &str, hunk: usize) -> String {
        self.ids
            .iter()
            .find(|(p, _)| *p == path)
            .and_then(|(_, ids)| ids.get(hunk))
            .cloned()
            .unwrap_or_default()
    }

    /// `id` back to `path#hunk`.
    fn name(&self, id: &str) -> String {
        self.ids
            .iter()
            .find_map(|(path, ids)| {
                ids.iter()
                    .position(|i| i == id)
                    .map(|at| format!("{path}#{at}"))
            })
            .unwrap_or_else(|| format!("?{id}"))
    }

    /// Sections "Start" (app.rs's first change, README), "Run" (app.rs's second), untitled
    /// (new.rs).
    fn order(&self) -> Order {
        let value = serde_json::json!({"sections": [
            {"title": "Start", "files": [{"path": "src/app.rs", "hunks": [self.id("src/app.rs", 0)]}, {"path": "README.md"}]},
            {"title": "Run", "files": [{"path": "src/app.rs", "hunks": [self.id("src/app.rs", 1)]}]},
            {"files": [{"path": "src/new.rs"}]},
        ]});
        serde_json::from_value(value).unwrap_or_else(|_| Order {
            overview: None,
            sections: Vec::new(),
        })
    }
}

fn comment(author: &str, body: &str, at: &str, diff_hunk: &str) -> CommentInput {
    CommentInput {
        author: author.into(),
        body: body.into(),
        created_at: "2026-12-04T10:00:00Z".into(),
        url: format!("https://github.com/acme/app/pull/7#discussion_{author}"),
        diff_hunk: diff_hunk.into(),
        original_commit: Some(at.into()),
        pending: false,
    }
}

fn thread(
    path: &str,
    side: DiffSide,
    line: Option<u32>,
    comments: Vec<CommentInput>,
) -> ThreadInput {
    ThreadInput {
        path: path.into(),
        side,
        line,
        start_line: None,
        original_line: line,
        original_start_line: None,
        outdated: false,
        resolved: false,
        comments,
    }
}

fn review(author: &str, state: ReviewState, body: &str, commit: &str) -> ReviewInput {
    ReviewInput {
        id: None,
        author: author.into(),
        state,
        body: body.into(),
        commit: Some(commit.into()),
        submitted_at: Some("2026-12-04T10:00:00Z".into()),
        url: format!("https://github.com/acme/app/pull/7#review_{author}"),
    }
}

struct Case {
    threads: Vec<ThreadInput>,
    reviews: Vec<ReviewInput>,
    ordered: bool,
    include_resolved: bool,
    truncated: bool,
}

fn case(threads: Vec<ThreadInput>) -> Case {
    Case {
        threads,
        reviews: Vec::new(),
        ordered: true,
        include_resolved: false,
        truncated: false,
    }
}

/// Decides the answer for `case` and compares its lines with `expected` (each line trimmed);
/// `nextStep` is checked by [`check_next`].
fn check(case: Case, expected: &str) {
    let (answer, world) = answer(case);
    let mut lines = Vec::new();
    for v in &answer.verdicts {
        lines.push(format!(
            "verdict {} {} {:?} current={}",
            v.reviewer, v.state, v.summary, v.at_current_head
        ));
    }
    for t in &answer.threads {
        let mut line = t.path.clone();
        if let Some(at_head) = &t.path_at_head {
            line.push_str(&format!(" -> {at_head}"));
        }
        let side = match t.side {
            DiffSide::Left => "L",
            DiffSide::Right => "R",
        };
        let number = t.line.map_or("-".to_string(), |l| l.to_string());
        line.push_str(&format!(" {side}{number}"));
        line.push_str(&format!(
            " change={}",
            t.change_id
                .as_deref()
                .map_or("-".to_string(), |id| world.name(id))
        ));
        line.push_str(&format!(
            " section={}",
            t.section
                .as_ref()
                .map_or("-".to_string(), |s| match &s.title {
                    Some(title) => format!("{}:{title}", s.index),
                    None => s.index.to_string(),
                })
        ));
        line.push_str(&format!(" changed={}", t.changed_since));
        if t.resolved {
            line.push_str(" resolved");
        }
        if t.outdated {
            line.push_str(" outdated");
        }
        if let Some(s) = &t.suggestion {
            line.push_str(&format!(
                " suggestion={:?}..{:?}{:?}",
                s.start_line, s.end_line, s.lines
            ));
        }
        let authors: Vec<&str> = t.comments.iter().map(|c| c.author.as_str()).collect();
        line.push_str(&format!(" by={}", authors.join(",")));
        lines.push(line);
    }
    let c = answer.counts;
    lines.push(format!(
        "open={} resolved={} changed={} truncated={}",
        c.open, c.resolved, c.changed_since, answer.truncated
    ));
    let got = lines.join("\n");
    let want: Vec<&str> = expected
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(got, want.join("\n"));
}

fn answer(case: Case) -> (Feedback, World) {
    let world = World::new();
    let order = world.order();
    let answer = {
        let files = world.files();
        feedback(&Inputs {
            head_sha: HEAD,
            author: Some("author"),
            files: &files,
            order: case.ordered.then_some(&order),
            threads: &case.threads,
            reviews: &case.reviews,
            include_resolved: case.include_resolved,
            truncated: case.truncated,
        })
    };
    (answer, world)
}

/// `nextStep` holds each of `parts`.
fn check_next(case: Case, parts: &[&str]) {
    let (answer, _) = answer(case);
    for part in parts {
        assert!(
            answer.next_step.contains(part),
            "{part:?} not in {:?}",
            answer.next_step
        );
    }
}

#[test]
fn a_thread_is_placed_on_its_change_and_the_section_showing_it() {
    check(
        case(vec![
            thread(
                "src/app.rs",
                DiffSide::Right,
                Some(12),
                vec![comment("rev", "Why 3?", HEAD, HUNK_AT_B)],
            ),
            thread(
                "src/app.rs",
                DiffSide::Right,
                Some(2),
                vec![comment(
                    "rev",
                    "Name it boot()",
                    HEAD,
                    "@@ -1,3 +1,4 @@\n fn main() {\n+    start();",
                )],
            ),
            thread(
                "README.md",
                DiffSide::Right,
                Some(1),
                vec![comment("rev", "Typo", HEAD, "")],
            ),
        ]),
        // In the order's order: section 1 (app.rs's first change, then README), then section 2.
        "
        src/app.rs R2 change=src/app.rs#0 section=1:Start changed=false by=rev
        README.md R1 change=README.md#0 section=1:Start changed=false by=rev
        src/app.rs R12 change=src/app.rs#1 section=2:Run changed=false by=rev
        open=3 resolved=0 changed=0 truncated=false
        ",
    );
}

#[test]
fn without_a_saved_order_no_thread_has_a_section() {
    let mut no_order = case(vec![thread(
        "src/app.rs",
        DiffSide::Right,
        Some(12),
        vec![comment("rev", "Why 3?", HEAD, HUNK_AT_B)],
    )]);
    no_order.ordered = false;
    check(
        no_order,
        "
        src/app.rs R12 change=src/app.rs#1 section=- changed=false by=rev
        open=1 resolved=0 changed=0 truncated=false
        ",
    );
}

#[test]
fn changed_since_compares_the_rows_under_the_thread_with_the_head() {
    let at = |diff_hunk: &str, written: &str| {
        thread(
            "src/app.rs",
            DiffSide::Right,
            Some(12),
            vec![comment("rev", "Why?", written, diff_hunk)],
        )
    };
    check(
        case(vec![
            // Written at an earlier head, the same rows: a later push left these lines alone.
            at(HUNK_AT_B, EARLIER),
            // Written when `b` was 5: the line under it changed.
            at(
                "@@ -10,3 +11,3 @@ fn run() {\n let a = 1;\n-let b = 2;\n+let b = 5;",
                EARLIER,
            ),
            // Only the context above changed (`a` was 0): still the rows under the thread.
            at(
                "@@ -10,3 +11,3 @@ fn run() {\n let a = 0;\n-let b = 2;\n+let b = 3;",
                EARLIER,
            ),
            // Line numbers moved (another hunk grew above): not a change under the thread.
            at(
                "@@ -8,3 +9,3 @@ fn run() {\n let a = 1;\n-let b = 2;\n+let b = 3;",
                EARLIER,
            ),
            // Written at the current head: nothing came after it, whatever the rows say.
            at("@@ -10,3 +11,3 @@\n+let b = 5;", HEAD),
        ]),
        "
        src/app.rs R12 change=src/app.rs#1 section=2:Run changed=false by=rev
        src/app.rs R12 change=src/app.rs#1 section=2:Run changed=true by=rev
        src/app.rs R12 change=src/app.rs#1 section=2:Run changed=true by=rev
        src/app.rs R12 change=src/app.rs#1 section=2:Run changed=false by=rev
        src/app.rs R12 change=src/app.rs#1 section=2:Run changed=false by=rev
        open=5 resolved=0 changed=2 truncated=false
        ",
    );
}

#[test]
fn an_outdated_thread_changed_since_and_keeps_its_original_line() {
    let mut outdated = thread(
        "src/app.rs",
        DiffSide::Right,
        None,
        vec![comment(
            "rev",
            "Call it once",
            EARLIER,
            "@@ -1,2 +1,3 @@\n fn main() {\n+    start(); start();",
        )],
    );
    outdated.outdated = true;
    outdated.original_line = Some(2);
    // Its line is gone from the diff: no hunk holds line 40.
    let mut gone = thread(
        "src/app.rs",
        DiffSide::Right,
        None,
        vec![comment(
            "rev",
            "Dead code",
            EARLIER,
            "@@ -30,1 +40,1 @@\n+x",
        )],
    );
    gone.outdated = true;
    gone.original_line = Some(40);
    check(
        case(vec![outdated, gone]),
        "
        src/app.rs R- change=src/app.rs#0 section=1:Start changed=true outdated by=rev
        src/app.rs R- change=- section=1:Start changed=true outdated by=rev
        open=2 resolved=0 changed=2 truncated=false
        ",
    );
}

#[test]
fn a_file_renamed_after_the_comment_is_found_by_its_previous_path() {
    let mut renamed = thread(
        "src/old.rs",
        DiffSide::Right,
        None,
        vec![comment(
            "rev",
            "Rename this file?",
            EARLIER,
            "@@ -1,2 +1,2 @@\n-old name\n+new name",
        )],
    );
    renamed.original_line = Some(1);
    renamed.outdated = true;
    // A file no longer in the pull request at all (its changes were undone).
    let undone = thread(
        "src/gone.rs",
        DiffSide::Right,
        Some(3),
        vec![comment("rev", "Needed?", EARLIER, "@@ -1 +1,3 @@\n+a")],
    );
    check(
        case(vec![renamed, undone]),
        "
        src/old.rs -> src/new.rs R- change=src/new.rs#0 section=3 changed=true outdated by=rev
        src/gone.rs R3 change=- section=- changed=true by=rev
        open=2 resolved=0 changed=2 truncated=false
        ",
    );
}

#[test]
fn a_thread_on_a_removed_line_is_placed_by_the_base_numbering() {
    check(
        case(vec![
            thread(
                "src/app.rs",
                DiffSide::Left,
                Some(11),
                vec![comment(
                    "rev",
                    "Keep 2?",
                    EARLIER,
                    "@@ -10,3 +11,3 @@ fn run() {\n let a = 1;\n-let b = 2;",
                )],
            ),
            // Old line 11 on the right would be another line: the side decides.
            thread(
                "src/app.rs",
                DiffSide::Right,
                Some(11),
                vec![comment("rev", "Context", HEAD, "")],
            ),
        ]),
        "
        src/app.rs L11 change=src/app.rs#1 section=2:Run changed=false by=rev
        src/app.rs R11 change=src/app.rs#1 section=2:Run changed=false by=rev
        open=2 resolved=0 changed=0 truncated=false
        ",
    );
}

#[test]
fn suggestions_are_read_as_lines_with_the_range_they_replace() {
    let mut range = thread(
        "src/app.rs",
        DiffSide::Right,
        Some(12),
        vec![
            comment(
                "rev",
                "Use a constant:\r\n```suggestion\r\nconst B: i32 = 3;\r\nlet b = B;\r\n```\r\nThanks",
                HEAD,
                HUNK_AT_B,
            ),
            comment("author", "Why not inline?", HEAD, HUNK_AT_B),
        ],
    );
    range.start_line = Some(11);
    let delete = thread(
        "src/app.rs",
        DiffSide::Right,
        Some(2),
        vec![comment("rev", "````suggestion\n````", HEAD, "")],
    );
    // Not a suggestion: another info string, an unclosed block, an indented (code) fence.
    let others = thread(
        "README.md",
        DiffSide::Right,
        Some(1),
        vec![
            comment("rev", "```rust\nx\n```", HEAD, ""),
            comment("rev", "```suggestion\nnever closed", HEAD, ""),
            comment("rev", "    ```suggestion\n    x\n    ```", HEAD, ""),
        ],
    );
    check(
        case(vec![range, delete, others]),
        r#"
        src/app.rs R2 change=src/app.rs#0 section=1:Start changed=false suggestion=Some(2)..Some(2)[] by=rev
        README.md R1 change=README.md#0 section=1:Start changed=false by=rev,rev,rev
        src/app.rs R12 change=src/app.rs#1 section=2:Run changed=false suggestion=Some(11)..Some(12)["const B: i32 = 3;", "let b = B;"] by=rev,author
        open=3 resolved=0 changed=0 truncated=false
        "#,
    );
}

#[test]
fn resolved_threads_are_counted_and_shown_only_when_asked() {
    let threads = || {
        let mut done = thread(
            "src/app.rs",
            DiffSide::Right,
            Some(2),
            vec![comment("rev", "ok", HEAD, "")],
        );
        done.resolved = true;
        vec![
            done,
            thread(
                "README.md",
                DiffSide::Right,
                Some(1),
                vec![comment("rev", "Typo", HEAD, "")],
            ),
        ]
    };
    check(
        case(threads()),
        "
        README.md R1 change=README.md#0 section=1:Start changed=false by=rev
        open=1 resolved=1 changed=0 truncated=false
        ",
    );
    let mut asked = case(threads());
    asked.include_resolved = true;
    check(
        asked,
        "
        src/app.rs R2 change=src/app.rs#0 section=1:Start changed=false resolved by=rev
        README.md R1 change=README.md#0 section=1:Start changed=false by=rev
        open=1 resolved=1 changed=0 truncated=false
        ",
    );
}

#[test]
fn drafts_are_never_shown() {
    let mut draft_root = comment("rev", "Not sent yet", HEAD, "");
    draft_root.pending = true;
    let mut draft_reply = comment("author", "Half-written answer", HEAD, "");
    draft_reply.pending = true;
    let mut with_drafts = case(vec![
        thread("src/app.rs", DiffSide::Right, Some(2), vec![draft_root]),
        thread(
            "README.md",
            DiffSide::Right,
            Some(1),
            vec![comment("rev", "Typo", HEAD, ""), draft_reply],
        ),
    ]);
    with_drafts.reviews = vec![
        review("rev", ReviewState::Commented, "", HEAD),
        review("other", ReviewState::Pending, "draft summary", HEAD),
    ];
    check(
        with_drafts,
        r#"
        verdict rev commented "" current=true
        README.md R1 change=README.md#0 section=1:Start changed=false by=rev
        open=1 resolved=0 changed=0 truncated=false
        "#,
    );
}

#[test]
fn each_reviewer_has_one_verdict_and_change_requests_come_first() {
    let mut reviewed = case(Vec::new());
    reviewed.reviews = vec![
        review("ann", ReviewState::Approved, "LGTM", EARLIER),
        review(
            "bob",
            ReviewState::ChangesRequested,
            "Fix the flag",
            EARLIER,
        ),
        // A remark after a change request leaves the change request standing.
        review("bob", ReviewState::Commented, "also a nit", HEAD),
        // A later approval replaces an earlier change request.
        review("cy", ReviewState::ChangesRequested, "No", EARLIER),
        review("cy", ReviewState::Approved, "Now yes", HEAD),
        // The author's replies are reviews on GitHub too; they are no verdict.
        review("author", ReviewState::Commented, "Done", HEAD),
        review("dee", ReviewState::Dismissed, "Stale", EARLIER),
    ];
    check(
        reviewed,
        r#"
        verdict bob changes_requested "Fix the flag" current=false
        verdict ann approved "LGTM" current=false
        verdict cy approved "Now yes" current=true
        verdict dee dismissed "Stale" current=false
        open=0 resolved=0 changed=0 truncated=false
        "#,
    );
}

#[test]
fn next_step_answers_change_requests_first_then_threads_by_section() {
    let threads = || {
        vec![
            thread(
                "src/app.rs",
                DiffSide::Right,
                Some(12),
                vec![comment(
                    "rev",
                    "Why 3?",
                    EARLIER,
                    "@@ -10,3 +11,3 @@\n+let b = 5;",
                )],
            ),
            thread(
                "README.md",
                DiffSide::Right,
                Some(1),
                vec![comment("rev", "Typo", HEAD, "")],
            ),
            thread(
                "src/gone.rs",
                DiffSide::Right,
                Some(1),
                vec![comment("rev", "?", HEAD, "")],
            ),
        ]
    };
    let mut asked = case(threads());
    asked.reviews = vec![review(
        "rev",
        ReviewState::ChangesRequested,
        "See threads",
        EARLIER,
    )];
    asked.truncated = true;
    check_next(
        asked,
        &[
            "First answer the changes requested by rev: read the summary in verdicts. ",
            r#"Then answer the 3 open threads section by section, in the order's order: section 1 "Start" (1), section 2 "Run" (1), not in the order (1). "#,
            "1 thread's lines changed since it was written (changedSince)",
            "save the order again (save_reading_order with its baseVersion)",
            "(truncated)",
        ],
    );
    let mut unordered = case(threads());
    unordered.ordered = false;
    check_next(
        unordered,
        &[
            "Answer the 3 open threads, file by file. ",
            "save a reading order (save_reading_order)",
        ],
    );
    check_next(
        case(Vec::new()),
        &["No review yet: there is nothing to answer."],
    );
    let mut approved = case(Vec::new());
    approved.reviews = vec![review("ann", ReviewState::Approved, "", HEAD)];
    check_next(
        approved,
        &["Nothing to answer: no open threads and no changes requested."],
    );
}

/// The page's outline and the MCP Apps view group open threads by section with this one rule:
/// resolved threads left out, a thread in no section (a file the order does not place, or no
/// order) apart.
#[test]
fn open_threads_are_grouped_by_the_section_they_were_placed_in() {
    let mut done = thread(
        "README.md",
        DiffSide::Right,
        Some(1),
        vec![comment("rev", "ok", HEAD, "")],
    );
    done.resolved = true;
    let threads = || {
        vec![
            thread(
                "src/app.rs",
                DiffSide::Right,
                Some(12),
                vec![comment("rev", "Why 3?", HEAD, HUNK_AT_B)],
            ),
            thread(
                "README.md",
                DiffSide::Right,
                Some(1),
                vec![comment("rev", "Typo", HEAD, "")],
            ),
            done.clone(),
            thread(
                "src/gone.rs",
                DiffSide::Right,
                Some(3),
                vec![comment("rev", "Gone?", HEAD, "")],
            ),
        ]
    };
    let mut asked = case(threads());
    asked.include_resolved = true;
    let (decided, _) = answer(asked);
    assert_eq!(
        decided.threads.len(),
        4,
        "the resolved one is in the answer"
    );
    let grouped = open_by_section(&decided.threads, 3);
    let bodies = |threads: &[&Thread]| -> Vec<String> {
        threads.iter().map(|t| t.comments[0].body.clone()).collect()
    };
    let per_section: Vec<Vec<String>> = grouped.sections.iter().map(|s| bodies(s)).collect();
    assert_eq!(
        per_section,
        [vec!["Typo".to_string()], vec!["Why 3?".to_string()], vec![]]
    );
    assert_eq!(bodies(&grouped.elsewhere), ["Gone?"]);
    // Without an order every open thread is elsewhere; an order shorter than a section index
    // (an older version shown) puts it elsewhere too, never out of bounds.
    let mut unordered = case(threads());
    unordered.ordered = false;
    let (decided, _) = answer(unordered);
    let grouped = open_by_section(&decided.threads, 0);
    assert_eq!(grouped.elsewhere.len(), 3);
    let (decided, _) = answer(case(threads()));
    let grouped = open_by_section(&decided.threads, 1);
    assert_eq!(grouped.sections[0].len(), 1);
    assert_eq!(bodies(&grouped.elsewhere), ["Why 3?", "Gone?"]);
}

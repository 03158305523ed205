//! Tests of the diff view: which entries load on demand, line links to GitHub, review comments
//! under their lines (outdated ones apart, bodies escaped), threads changed since they were
//! written and the outline's open threads per section (issue #38), fragments, and the size of a
//! large pull request's page.

use super::{diff, fragment, github_file_anchor, DiffLinks, View};
use crate::github::api::{Account, ReviewComment};
use crate::review::change_id::describe_changes;
use crate::review::model::snapshot::SnapshotFile;
use crate::review::patch::parse_patch;
use crate::web::review_page::{render, ReviewPage, Shown};

const PATCH: &str = "@@ -10,3 +10,3 @@ fn main\n keep();\n-old();\n+new();\n tail();";
const PR: &str = "https://github.com/acme/app/pull/7";

/// A modified file with `patch` (the review page's tests' fixture).
fn file(path: &str, patch: &str) -> SnapshotFile {
    crate::web::review_page::tests::file(path, "modified", Some(patch))
}

fn comment(id: u64, path: &str, side: &str, line: Option<u32>, body: &str) -> ReviewComment {
    ReviewComment {
        id,
        in_reply_to_id: None,
        path: path.into(),
        line,
        original_line: Some(11),
        side: side.into(),
        start_line: None,
        start_side: None,
        position: line.map(u64::from),
        body: body.into(),
        user: Some(Account {
            login: "mona".into(),
            id: 1,
        }),
        created_at: "2026-11-30T12:00:00Z".into(),
        html_url: format!("{PR}#discussion_r{id}"),
        original_commit_id: None,
        diff_hunk: String::new(),
    }
}

/// Renders the diff of a whole patch with these comments.
fn rendered(patch: &str, comments: &[ReviewComment], unplaced: bool) -> String {
    let hunks = parse_patch(patch).unwrap_or_else(|error| panic!("{error}"));
    let ids = describe_changes(&hunks).into_iter().map(|c| c.id).collect();
    let shown = Shown::Hunks {
        additions: hunks.iter().map(|h| h.additions()).sum(),
        deletions: hunks.iter().map(|h| h.deletions()).sum(),
        hunks,
        ids,
        missing: 0,
    };
    let view = View::new("/r/acme/app/pull/7", PR, comments);
    let links: DiffLinks = view.links("src/main.rs", unplaced);
    let mut out = String::new();
    diff(
        &mut out,
        "src/main.rs",
        &shown,
        &|index, id| format!("<b data-i=\"{index}\">{id}</b>"),
        &links,
    );
    out
}

fn check(html: &str, present: &[&str], absent: &[&str]) {
    for needle in present {
        assert!(html.contains(needle), "missing {needle:?} in:\n{html}");
    }
    for needle in absent {
        assert!(!html.contains(needle), "unexpected {needle:?} in:\n{html}");
    }
}

#[test]
fn github_anchors_are_the_sha256_of_the_path() {
    // SHA-256 of "a", as `printf a | sha256sum` prints it.
    assert_eq!(
        github_file_anchor("a"),
        "diff-ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
    );
}

#[test]
fn lines_link_to_their_line_on_github() {
    let html = rendered(PATCH, &[], true);
    let anchor = github_file_anchor("src/main.rs");
    let files = format!("{PR}/files#{anchor}");
    check(
        &html,
        &[
            // Context and added lines link their new line, a removed line its old one.
            &format!("<td class=\"ln\">10</td><td class=\"ln\"><a href=\"{files}R10\">10</a></td>"),
            &format!("<td class=\"ln\"><a href=\"{files}L11\">11</a></td><td class=\"ln\"></td>"),
            &format!("<td class=\"ln\"></td><td class=\"ln\"><a href=\"{files}R11\">11</a></td>"),
            "data-path=\"src/main.rs\"",
            "<tr class=\"hunk-head\" data-new=\"10,3\">",
        ],
        &["cmts"],
    );
    // The caller's control goes in the header row, with the change's index and id.
    let id = describe_changes(&parse_patch(PATCH).unwrap_or_default())
        .remove(0)
        .id;
    check(
        &html,
        &[&format!(
            "<td colspan=\"3\"><b data-i=\"0\">{id}</b><span class=\"hunk-header\">@@ -10,3"
        )],
        &[],
    );
    // A pull request URL that isn't https:// links nothing.
    let view = View::new("/r/a/b/pull/1", "javascript:alert(1)", &[]);
    let mut out = String::new();
    let hunks = parse_patch(PATCH).unwrap_or_default();
    let shown = Shown::Hunks {
        additions: 1,
        deletions: 1,
        ids: vec![String::new()],
        hunks,
        missing: 0,
    };
    diff(
        &mut out,
        "src/main.rs",
        &shown,
        &|_, _| String::new(),
        &view.links("src/main.rs", true),
    );
    check(&out, &["<td class=\"ln\">10</td>"], &["<a ", "javascript"]);
}

#[test]
fn comments_sit_under_their_line_and_outdated_ones_are_marked() {
    let comments = [
        comment(1, "src/main.rs", "RIGHT", Some(11), "Why <b>new</b>?"),
        comment(2, "src/main.rs", "LEFT", Some(11), "old was fine"),
        comment(3, "src/main.rs", "RIGHT", None, "on an earlier push"),
        comment(4, "src/other.rs", "RIGHT", Some(11), "another file"),
        // On a line another part of the file shows: there, not here.
        comment(5, "src/main.rs", "RIGHT", Some(90), "in another part"),
    ];
    let html = rendered(PATCH, &comments, true);
    let after = |needle: &str| html.find(needle).unwrap_or(usize::MAX);
    // The RIGHT comment follows the added line 11, the LEFT one the removed line 11.
    assert!(after("new();") < after("Why &lt;b&gt;new&lt;/b&gt;?"));
    assert!(after("Why &lt;b&gt;new") < after("tail();"));
    assert!(after("old();") < after("old was fine"));
    assert!(after("old was fine") < after("new();"));
    check(
        &html,
        &[
            "<strong>mona</strong> <a href=\"https://github.com/acme/app/pull/7#discussion_r1\">2026-11-30 on GitHub</a>",
            "Comments on GitHub not on a line of this diff",
            "on an earlier push",
            "<span class=\"badge outdated\">Outdated</span> <span class=\"muted\">was on line 11 of an earlier version</span>",
        ],
        &["<b>new</b>", "another file", "in another part"],
    );
    assert_eq!(html.matches("Outdated</span>").count(), 1);
    // Only the file's first entry lists what no line holds.
    let later = rendered(PATCH, &comments, false);
    check(
        &later,
        &["Why &lt;b&gt;new"],
        &["on an earlier push", "Outdated"],
    );
}

#[test]
fn first_screen_inlines_and_the_rest_waits() {
    let hunks = || parse_patch(PATCH).unwrap_or_default();
    let shown = || Shown::Hunks {
        additions: 1,
        deletions: 1,
        ids: vec![String::new()],
        hunks: hunks(),
        missing: 0,
    };
    let mut view = View::new("/r/a/b/pull/1", PR, &[]);
    for n in 1..=30 {
        assert_eq!(view.defer(&shown(), false), None, "entry {n}");
    }
    assert_eq!(view.defer(&shown(), false), Some(super::Deferred::Later));
    // A file without a patch is one line: never deferred.
    assert_eq!(view.defer(&Shown::NoPatch, false), None);

    let mut view = View::new("/r/a/b/pull/1", PR, &[]);
    assert_eq!(view.defer(&shown(), true), Some(super::Deferred::Generated));
    let large = Shown::Hunks {
        additions: 301,
        deletions: 0,
        ids: vec![String::new()],
        hunks: hunks(),
        missing: 0,
    };
    assert_eq!(view.defer(&large, false), Some(super::Deferred::Large));
}

#[test]
fn load_links_name_the_file_and_its_changes() {
    let view = View::new("/r/acme/app/pull/7", PR, &[]);
    let mut out = String::new();
    let shown = Shown::Hunks {
        additions: 3,
        deletions: 0,
        ids: vec!["h1a".into(), "h2b".into()],
        hunks: parse_patch(PATCH).unwrap_or_default(),
        missing: 0,
    };
    let comments = [comment(1, "a b&c.rs", "RIGHT", Some(1), "x")];
    let links = DiffLinks {
        files_url: None,
        comments: comments.iter().collect(),
        unplaced: true,
        discussion: None,
        drafts: Vec::new(),
        serial: 1,
    };
    view.load_button(
        &mut out,
        "a b&c.rs",
        super::Deferred::Later,
        &shown,
        &links,
        "",
    );
    check(
        &out,
        &[
            "href=\"/r/acme/app/pull/7/diff?path=a%20b%26c.rs&amp;hunks=h1a,h2b&amp;first=1\">Load diff</a>",
            "3 changed lines · 1 comment",
        ],
        &[],
    );
}

#[test]
fn fragments_show_the_changes_the_link_names() {
    const TWO: &str = "@@ -1,1 +1,1 @@\n-a\n+b\n@@ -10,1 +10,1 @@\n-c\n+d";
    let files = [file("src/main.rs", TWO), file("src/other.rs", PATCH)];
    let ids: Vec<String> = files[0].changes.iter().map(|c| c.id.clone()).collect();
    let comments = [comment(9, "src/main.rs", "RIGHT", None, "stale")];
    let none = |_: usize, _: &str| String::new();
    let second = [ids[1].as_str()];
    let html = fragment(
        &files,
        "src/main.rs",
        &second,
        true,
        PR,
        &comments,
        &none,
        None,
    )
    .unwrap_or_default();
    let mark = |text: &str| format!("<span class=\"mk\">+</span>{text}</td>");
    check(
        &html,
        &[&mark("d"), "@@ -10,1", "stale", "Outdated"],
        &[&mark("b"), "@@ -1,1"],
    );
    // A later entry of the file doesn't repeat the comments no line holds.
    let later = fragment(
        &files,
        "src/main.rs",
        &second,
        false,
        PR,
        &comments,
        &none,
        None,
    )
    .unwrap_or_default();
    check(&later, &[&mark("d")], &["stale"]);
    // An id the file no longer has is counted, as on the page.
    let gone = fragment(
        &files,
        "src/main.rs",
        &["hgone"],
        true,
        PR,
        &[],
        &none,
        None,
    )
    .unwrap_or_default();
    check(
        &gone,
        &["1 change named in this part is no longer in the pull request."],
        &["<table"],
    );
    assert_eq!(
        fragment(
            &files,
            "src/nope.rs",
            &second,
            true,
            PR,
            &comments,
            &none,
            None
        ),
        None
    );
}

/// DESIGN.md section 7: the page of a 350-file pull request stays under 1 MiB of HTML, however
/// long the diffs are (here 350 files of 120 changed lines each, 21 MB of diff lines).
#[test]
fn a_350_file_pull_request_page_is_under_one_mebibyte() {
    let mut patch = String::from("@@ -1,60 +1,60 @@ fn f\n");
    for n in 0..60 {
        patch.push_str(&format!(
            "-    let value_{n} = compute_the_old_thing({n}, \"some text\");\n"
        ));
    }
    for n in 0..60 {
        patch.push_str(&format!(
            "+    let value_{n} = compute_the_new_thing({n}, \"some text\");\n"
        ));
    }
    let patch = patch.trim_end();
    let files: Vec<SnapshotFile> = (0..350)
        .map(|n| file(&format!("src/module_{n:03}/handler.rs"), patch))
        .collect();
    let page = ReviewPage {
        base_url: "https://logikflow.test",
        owner: "acme",
        repo: "app",
        number: 7,
        title: "Big",
        state: "open",
        author: "octo",
        github_url: PR,
        viewer: "reviewer",
        can_arrange: true,
        order: None,
        checklist: &[],
        order_version: 0,
        latest_version: 0,
        versions: &[],
        updated_by: "",
        source: "",
        saved_at: "",
        commits_since: None,
        files: &files,
        review_state: &crate::web::review_state::ReviewState::default(),
        view: crate::web::review_page::View::All,
        visit_commits: None,
        diagram: None,
        csrf: "0123456789012345678901234567890123456789012",
        comments: &[],
        window: 0,
        fragment: false,
        discussion: None,
        coverage: None,
    };
    let html = render(&page);
    assert!(html.len() < 1024 * 1024, "{} bytes", html.len());
    assert_eq!(
        html.matches("class=\"diff-wrap\"").count(),
        12,
        "1,500 lines' worth inline"
    );
    // The first window of 100 entries is on the page, the other 250 load in windows.
    assert_eq!(html.matches("<article ").count(), 100);
    assert_eq!(html.matches("Load diff</a>").count(), 100 - 12);
    for (window, first, last) in [(1, 101, 200), (2, 201, 300), (3, 301, 350)] {
        let count = last + 1 - first;
        assert!(
            html.contains(&format!(
                "<div class=\"run more\" data-run=\"rest-{window}\">\
                 <a class=\"button load-files\" href=\"?from={first}#file-src/module_{:03}/handler.rs\">\
                 Load {count} more files</a> <span class=\"muted\">files {first} to {last} of the page · 0 reviewed</span></div>",
                first - 1
            )),
            "window {window}"
        );
    }

    // `?from=201&fragment=1`: the third window's entries alone, each with its diff or link.
    let third = ReviewPage {
        window: super::super::window_of(Some("201")),
        fragment: true,
        ..page
    };
    let html = render(&third);
    assert!(html.len() < 1024 * 1024, "{} bytes", html.len());
    assert_eq!(html.matches("<article ").count(), 100);
    assert!(html.contains("<div class=\"run\" data-run=\"rest-2\">\n<article class=\"file\" id=\"file-src/module_200/handler.rs\""));
    assert_eq!(
        html.matches("class=\"run more\"").count(),
        3,
        "windows 0, 1 and 3"
    );
    assert!(
        !html.contains("<nav class=\"outline\""),
        "no header or outline"
    );
    assert_eq!(html.matches("class=\"diff-wrap\"").count(), 12);
    // Tick ids of a later window never clash with the first window's.
    assert!(html.contains("id=\"t2-1\""));
    assert!(!html.contains("id=\"t1\""));
}

/// Issue #38: a thread whose lines changed after it was written says so, with the head; one
/// written at the head, or whose rows still stand, doesn't.
#[test]
fn a_thread_whose_lines_changed_since_says_so() {
    use crate::web::review_page::discussion::{Discussion, Forms};
    let written = |id: u64, line: Option<u32>, at: &str, diff_hunk: &str, body: &str| {
        let mut c = comment(id, "src/main.rs", "RIGHT", line, body);
        c.original_commit_id = Some(at.into());
        c.diff_hunk = diff_hunk.into();
        c
    };
    let kept = "@@ -10,3 +10,3 @@ fn main\n keep();\n-old();\n+new();";
    let comments = [
        written(1, Some(11), "head1", kept, "rows still stand"),
        written(
            2,
            Some(11),
            "head1",
            "@@ -10,3 +10,3 @@\n keep();\n-old();\n+newer();",
            "line rewritten",
        ),
        written(3, None, "head1", kept, "outdated by a push"),
        written(
            4,
            Some(11),
            "head2",
            "@@ -1 +1 @@\n+x",
            "written at this head",
        ),
    ];
    let discussion = Discussion {
        forms: Forms::new("/r/acme/app/pull/7", "token", "head2"),
        drafts: &[],
        threads: &[],
    };
    let hunks = parse_patch(PATCH).unwrap_or_else(|error| panic!("{error}"));
    let ids = describe_changes(&hunks).into_iter().map(|c| c.id).collect();
    let shown = Shown::Hunks {
        additions: 1,
        deletions: 1,
        hunks,
        ids,
        missing: 0,
    };
    let view = View::new("/r/acme/app/pull/7", PR, &comments).with_discussion(Some(&discussion));
    let links: DiffLinks = view.links("src/main.rs", true);
    let mut html = String::new();
    diff(
        &mut html,
        "src/main.rs",
        &shown,
        &|_, id| id.to_string(),
        &links,
    );
    let mark = "Changed since this comment</span> <span class=\"muted\">the lines under it changed in a later push; now at <code>head2</code>";
    assert_eq!(html.matches(mark).count(), 2, "{html}");
    // The comment each mark stands above: the first of the four bodies after it.
    let bodies = [
        "rows still stand",
        "line rewritten",
        "outdated by a push",
        "written at this head",
    ];
    let marked: Vec<&str> = html
        .split(mark)
        .skip(1)
        .filter_map(|after| {
            bodies
                .iter()
                .filter_map(|body| after.find(body).map(|at| (at, *body)))
                .min()
                .map(|(_, body)| body)
        })
        .collect();
    assert_eq!(marked, ["line rewritten", "outdated by a push"]);
}

/// Issue #38: the outline counts each section's open threads, placed like the feedback tool
/// places them; a resolved thread and a reply don't count.
#[test]
fn the_outline_counts_open_threads_per_section() {
    use crate::github::review_threads::Thread;
    use crate::review::order::Order;
    use crate::web::review_page::discussion::{open_threads_by_section, Discussion, Forms};
    let files = [
        file("src/main.rs", PATCH),
        file("README.md", "@@ -1 +1 @@\n-a\n+b"),
    ];
    let order: Order = serde_json::from_value(serde_json::json!({"sections": [
        {"title": "Docs", "files": [{"path": "README.md"}]},
        {"title": "Code", "files": [{"path": "src/main.rs"}]},
    ]}))
    .unwrap_or_else(|e| panic!("{e}"));
    let mut reply = comment(3, "src/main.rs", "RIGHT", Some(11), "a reply");
    reply.in_reply_to_id = Some(1);
    let comments = [
        comment(1, "src/main.rs", "RIGHT", Some(11), "open"),
        comment(2, "src/main.rs", "LEFT", Some(11), "resolved"),
        reply,
        comment(4, "src/main.rs", "RIGHT", None, "outdated, still open"),
        comment(5, "README.md", "RIGHT", Some(1), "docs"),
    ];
    let threads = [Thread {
        id: "PRRT_2".into(),
        resolved: true,
        can_resolve: false,
        can_unresolve: true,
        can_reply: true,
        first_comment: 2,
    }];
    let discussion = Discussion {
        forms: Forms::new("/r/acme/app/pull/7", "token", "head2"),
        drafts: &[],
        threads: &threads,
    };
    assert_eq!(
        open_threads_by_section(&files, &order, &comments, Some(&discussion)),
        [1, 2]
    );
    assert_eq!(open_threads_by_section(&files, &order, &[], None), [0, 0]);
    let mut html = String::new();
    crate::web::review_page::discussion::open_threads_html(&mut html, 2);
    assert_eq!(html, " <span class=\"badge threads\">2 open threads</span>");
}

//! Tests of the review page: escaping, tabs and anchors, split parts, ticks and progress, the
//! banner, versions, read-only versions, files not in the order, folding and `file_anchor`.

use serde_json::{json, Value};

use super::{file_anchor, file_item_id, render, ReviewPage, VersionInfo};

/// The script and the style sheet, as served from `src/static/`.
const REVIEW_JS: &str = include_str!("../../static/review.js");
const REVIEW_CSS: &str = include_str!("../../static/review.css");
const REVIEW_VIEW_JS: &str = include_str!("../../static/review-view.js");
use crate::review::change_id::describe_changes;
use crate::review::model::snapshot::{SnapshotChange, SnapshotFile};
use crate::review::order::{checklist_ids, Order};
use crate::review::patch::parse_patch;
use crate::web::review_state::ReviewState;

const FLAGS_PATCH: &str =
    "@@ -0,0 +1,2 @@\n+export const invitesEnabled = false;\n+export const other = 1;";
const ROUTER_PATCH: &str = "@@ -1,3 +1,4 @@ import\n import a from \"a\";\n+import { invites } from \"./invites\";\n import b from \"b\";\n \n@@ -40,2 +41,3 @@ export const routes\n const routes = [\n+  { path: \"/invites\" },\n ];";
const LOCK_PATCH: &str = "@@ -1,1 +1,1 @@\n-\"lockfileVersion\": 2\n+\"lockfileVersion\": 3";
const NEW_PATCH: &str = "@@ -0,0 +1,1 @@\n+export const brandNew = true;";

/// A changed file as the snapshot holds it, with change ids computed from the patch (also the
/// diff view's tests' fixture).
pub(super) fn file(path: &str, status: &str, patch: Option<&str>) -> SnapshotFile {
    let hunks = patch
        .map(|patch| parse_patch(patch).unwrap_or_else(|error| panic!("{path}: {error}")))
        .unwrap_or_default();
    let changes: Vec<SnapshotChange> = describe_changes(&hunks)
        .into_iter()
        .map(SnapshotChange::from)
        .collect();
    SnapshotFile {
        path: path.to_string(),
        status: status.to_string(),
        previous_path: None,
        additions: changes.iter().map(|c| c.additions as u64).sum(),
        deletions: changes.iter().map(|c| c.deletions as u64).sum(),
        changes,
        patch: patch.map(str::to_string),
        depends_on: Vec::new(),
        test_of: None,
        likely_generated: false,
        blob_sha: None,
    }
}

/// The change ids of a patch, in diff order.
fn ids(patch: &str) -> Vec<String> {
    describe_changes(&parse_patch(patch).unwrap_or_default())
        .into_iter()
        .map(|change| change.id)
        .collect()
}

fn order_from(value: Value) -> Order {
    crate::json::read::<Order>(&value).unwrap_or_else(|error| panic!("{error}"))
}

/// Everything a page borrows, owned, so each test can change one thing.
struct Data {
    order: Option<Order>,
    files: Vec<SnapshotFile>,
    versions: Vec<VersionInfo>,
    ticks: Vec<String>,
    diagram: Option<Value>,
    title: String,
    state: String,
    author: String,
    github_url: String,
    viewer: String,
    updated_by: String,
    source: String,
    saved_at: String,
    csrf: String,
    can_arrange: bool,
    order_version: u64,
    latest_version: u64,
    commits_since: Option<u64>,
}

/// Three sections: flags (with a check), the router's second change and the generated lockfile,
/// then the rest of the router; plus a binary file and a file the order doesn't list.
fn data() -> Data {
    let router = ids(ROUTER_PATCH);
    let second = router.get(1).cloned().unwrap_or_default();
    let order = order_from(json!({
        "overview": "Adds invites behind `invitesEnabled`.",
        "sections": [
            { "title": "Flag", "layer": "contracts", "note": "Off by default.",
              "checks": ["With the flag off, nothing changes"],
              "files": [
                { "path": "lib/flags.ts", "focus": "key", "note": "The flag.", "checks": ["Default is `false`"] },
                { "path": "app/router.ts", "note": "Part 1: the import." },
                { "path": "img/logo.png" }
              ] },
            { "title": "Routes", "layer": "wiring",
              "files": [{ "path": "app/router.ts", "hunks": [second], "note": "Part 2: the route." }] },
            { "layer": "tooling",
              "files": [{ "path": "package-lock.json", "focus": "generated" }] }
        ]
    }));
    let mut lock = file("package-lock.json", "modified", Some(LOCK_PATCH));
    lock.likely_generated = true;
    Data {
        order: Some(order),
        files: vec![
            file("lib/flags.ts", "added", Some(FLAGS_PATCH)),
            file("app/router.ts", "modified", Some(ROUTER_PATCH)),
            file("img/logo.png", "added", None),
            lock,
            file("new/file.ts", "added", Some(NEW_PATCH)),
        ],
        versions: vec![
            VersionInfo {
                version: 3,
                person: "octo".into(),
                source: "agent".into(),
                saved_at: "2026-11-29T10:00:00Z".into(),
            },
            VersionInfo {
                version: 2,
                person: "hubot".into(),
                source: "web".into(),
                saved_at: "2026-11-28T09:30:00Z".into(),
            },
            VersionInfo {
                version: 1,
                person: "octo".into(),
                source: "agent".into(),
                saved_at: "2026-11-27T08:00:00Z".into(),
            },
        ],
        ticks: Vec::new(),
        diagram: None,
        title: "Add team invites".into(),
        state: "open".into(),
        author: "octo".into(),
        github_url: "https://github.com/acme/app/pull/123".into(),
        viewer: "reviewer".into(),
        updated_by: "octo".into(),
        source: "agent".into(),
        saved_at: "2026-11-29T10:00:00Z".into(),
        csrf: "tok123".into(),
        can_arrange: true,
        order_version: 3,
        latest_version: 3,
        commits_since: None,
    }
}

/// The review state the page gets when the reviewer ticked `ticks` (form items, as the page
/// posts them), expanded to content items as the Worker stores them.
fn state_of(data: &Data) -> ReviewState {
    let ticked = data
        .ticks
        .iter()
        .flat_map(|item| {
            super::expand_tick(item, data.order.as_ref(), &data.files)
                .unwrap_or_else(|| vec![item.clone()])
        })
        .collect();
    ReviewState {
        ticked,
        ..ReviewState::default()
    }
}

fn page<'d>(data: &'d Data, state: &'d ReviewState) -> ReviewPage<'d> {
    ReviewPage {
        base_url: "https://logikflow.test",
        owner: "acme",
        repo: "app",
        number: 123,
        title: &data.title,
        state: &data.state,
        author: &data.author,
        github_url: &data.github_url,
        viewer: &data.viewer,
        can_arrange: data.can_arrange,
        order: data.order.as_ref(),
        checklist: &[],
        order_version: data.order_version,
        latest_version: data.latest_version,
        versions: &data.versions,
        updated_by: &data.updated_by,
        source: &data.source,
        saved_at: &data.saved_at,
        commits_since: data.commits_since,
        files: &data.files,
        review_state: state,
        view: super::View::All,
        visit_commits: None,
        diagram: data.diagram.as_ref(),
        csrf: &data.csrf,
        comments: &[],
        window: 0,
        fragment: false,
        discussion: None,
        coverage: None,
    }
}

fn html_of(data: &Data) -> String {
    render(&page(data, &state_of(data)))
}

/// Asserts that `html` contains every string of `present` and none of `absent`.
fn check(html: &str, present: &[&str], absent: &[&str]) {
    for needle in present {
        assert!(html.contains(needle), "missing {needle:?} in:\n{html}");
    }
    for needle in absent {
        assert!(!html.contains(needle), "unexpected {needle:?} in:\n{html}");
    }
}

/// The `<article>` of the file entry with this anchor.
fn article<'h>(html: &'h str, anchor: &str) -> &'h str {
    let marker = format!("id=\"{anchor}\" aria-labelledby");
    let at = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no entry {anchor} in:\n{html}"));
    let start = html[..at].rfind("<article").unwrap_or(at);
    let rest = &html[start..];
    &rest[..rest.find("</article>").unwrap_or(rest.len())]
}

#[test]
fn escapes_script_in_every_untrusted_field() {
    let script = "<script>alert(1)</script>";
    type Change = fn(&mut Data, &str);
    let cases: &[(&str, Change)] = &[
        ("overview", |d, s| {
            if let Some(o) = d.order.as_mut() {
                o.overview = Some(s.into());
            }
        }),
        ("section title", |d, s| {
            if let Some(section) = d.order.as_mut().and_then(|o| o.sections.get_mut(0)) {
                section.title = Some(s.into());
            }
        }),
        ("section note", |d, s| {
            if let Some(section) = d.order.as_mut().and_then(|o| o.sections.get_mut(0)) {
                section.note = Some(s.into());
            }
        }),
        ("section check", |d, s| {
            if let Some(section) = d.order.as_mut().and_then(|o| o.sections.get_mut(0)) {
                section.checks = vec![s.into()];
            }
        }),
        ("file note", |d, s| {
            if let Some(entry) = d
                .order
                .as_mut()
                .and_then(|o| o.sections.get_mut(0))
                .and_then(|section| section.files.get_mut(0))
            {
                entry.note = Some(s.into());
            }
        }),
        ("file check", |d, s| {
            if let Some(entry) = d
                .order
                .as_mut()
                .and_then(|o| o.sections.get_mut(0))
                .and_then(|section| section.files.get_mut(0))
            {
                entry.checks = vec![s.into()];
            }
        }),
        ("path", |d, s| {
            let path = format!("src/{s}.ts");
            d.files.push(file(&path, "added", Some(NEW_PATCH)));
            if let Some(section) = d.order.as_mut().and_then(|o| o.sections.get_mut(0)) {
                section.files.push(
                    order_from(json!({ "sections": [{ "files": [{ "path": path }] }] }))
                        .sections
                        .remove(0)
                        .files
                        .remove(0),
                );
            }
        }),
        ("path not in order", |d, s| {
            d.files.push(file(&format!("{s}.ts"), "added", None));
        }),
        ("previous path", |d, s| {
            if let Some(f) = d.files.get_mut(0) {
                f.previous_path = Some(s.into());
            }
        }),
        ("status", |d, s| {
            if let Some(f) = d.files.get_mut(0) {
                f.status = s.into();
            }
        }),
        ("patch line", |d, s| {
            let patch = format!("@@ -0,0 +1,1 @@\n+{s}");
            if let Some(f) = d.files.get_mut(0) {
                *f = file("lib/flags.ts", "added", Some(&patch));
            }
        }),
        ("pull request title", |d, s| d.title = s.into()),
        ("state", |d, s| d.state = s.into()),
        ("author", |d, s| d.author = s.into()),
        ("viewer", |d, s| d.viewer = s.into()),
        ("updated by", |d, s| d.updated_by = s.into()),
        ("source", |d, s| d.source = s.into()),
        ("saved at", |d, s| d.saved_at = s.into()),
        ("csrf", |d, s| d.csrf = s.into()),
        ("version person", |d, s| {
            if let Some(v) = d.versions.get_mut(1) {
                v.person = s.into();
            }
        }),
        ("github url", |d, s| {
            d.github_url = format!("https://github.com/\">{s}")
        }),
    ];
    for (name, change) in cases {
        let mut d = data();
        change(&mut d, script);
        let html = html_of(&d);
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{name}: not shown as text"
        );
        let ours = [
            "<script src=\"/static/review.js\" defer></script>",
            "<script src=\"/static/highlight.js\" defer></script>",
            "<script src=\"/static/review-view.js\" defer></script>",
            "<script src=\"/static/review-comments.js\" defer></script>",
        ];
        assert_eq!(
            html.matches("<script").count(),
            ours.iter()
                .map(|tag| html.matches(tag).count())
                .sum::<usize>(),
            "{name}: a script element other than ours"
        );
        assert!(
            html.contains("<script src=\"/static/review.js\" defer></script>"),
            "{name}"
        );
    }
}

#[test]
fn github_link_only_for_https() {
    let mut d = data();
    d.github_url = "javascript:alert(1)".into();
    check(
        &html_of(&d),
        &["acme/app#123"],
        &["javascript:", "View on GitHub"],
    );
    check(
        &html_of(&data()),
        &["<a class=\"button\" href=\"https://github.com/acme/app/pull/123\">View on GitHub</a>"],
        &[],
    );
}

#[test]
fn header_shows_pull_request_and_save() {
    check(
        &html_of(&data()),
        &[
            "<span class=\"badge state-open\">Open</span>",
            "acme/app#123</a>",
            "by <strong>octo</strong>",
            "<h1 class=\"pr-title\">Add team invites</h1>",
            "Saved by <strong>octo</strong> (agent) at <time datetime=\"2026-11-29T10:00:00Z\">2026-11-29 10:00 UTC</time>, version 3",
            "<title>Add team invites · acme/app#123 · LogiKFlow</title>",
        ],
        &[],
    );
    for (state, badge) in [
        ("merged", "state-merged\">Merged"),
        ("closed", "state-closed\">Closed"),
        ("draft", "state-other\">draft"),
    ] {
        let mut d = data();
        d.state = state.into();
        check(&html_of(&d), &[badge], &[]);
    }
}

#[test]
fn tabs_and_anchors() {
    let html = html_of(&data());
    check(
        &html,
        &[
            "<section id=\"diagram\" class=\"panel\"",
            "<section id=\"order\" class=\"panel\"",
            "<a href=\"#order\" aria-current=\"true\">Reading order</a>",
            "<a href=\"#diagram\" aria-current=\"true\">Diagram</a>",
            "id=\"file-lib/flags.ts\"",
            "id=\"file-app/router.ts\"",
            "id=\"file-app/router.ts-part-2\"",
            "id=\"file-package-lock.json\"",
            "id=\"section-1\"",
            "id=\"section-3\"",
            "No diagram yet.",
            "<code>save_diagram</code>",
        ],
        &["<svg"],
    );
    check(
        REVIEW_CSS,
        &[
            "#diagram:target{display:block}",
            "#diagram:target~#order{display:none}",
        ],
        &[],
    );
    // The diagram panel comes first, so `:target` can hide the order after it.
    let diagram = html.find("id=\"diagram\"").unwrap_or(usize::MAX);
    let order = html.find("id=\"order\"").unwrap_or(0);
    assert!(diagram < order);
}

/// The JSON block the page's drawing script reads (`src/static/diagram.js`).
fn diagram_data(html: &str) -> Value {
    let start = "<script type=\"application/json\" id=\"diagram-layout\">";
    let text = html
        .split_once(start)
        .and_then(|(_, rest)| rest.split_once("</script>"))
        .map_or("", |(text, _)| text);
    serde_json::from_str(text).unwrap_or_else(|error| panic!("{error}: {text}"))
}

#[test]
fn diagram_nodes_link_to_their_entries() {
    let router = ids(ROUTER_PATCH);
    let mut d = data();
    d.diagram = Some(json!({
        "title": "Invite flow",
        "nodes": [
            { "id": "flag", "title": "Flag", "file": "lib/flags.ts" },
            { "id": "route", "title": "Route", "file": "app/router.ts", "hunk": router.get(1) },
            { "id": "import", "title": "Import", "file": "app/router.ts", "hunk": router.first() },
            { "id": "new", "title": "New", "file": "new/file.ts" },
            { "id": "ext", "title": "Elsewhere", "file": "not/changed.ts" },
            { "id": "idea", "title": "An idea" }
        ],
        "edges": [{ "from": "flag", "to": "route" }]
    }));
    let html = html_of(&d);
    // The drawing script and its data; no drawing written by the server.
    check(
        &html,
        &[
            "<div id=\"diagram-drawing\" class=\"diagram-wrap\" role=\"region\" aria-label=\"Diagram\"",
            "<script src=\"/static/diagram.js\" defer></script>",
            "<link rel=\"stylesheet\" href=\"/static/diagram.css\">",
        ],
        &["No diagram yet", "<svg", "href=\"#file-not/changed.ts\""],
    );
    let data = diagram_data(&html);
    let nodes: Vec<&str> = data["layout"]["nodes"]
        .as_array()
        .map(|nodes| nodes.iter().filter_map(|n| n["id"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(nodes, ["flag", "route", "import", "new", "ext", "idea"]);
    assert_eq!(
        data["links"],
        json!([
            "#file-lib/flags.ts",
            "#file-app/router.ts-part-2",
            "#file-app/router.ts",
            "#file-new/file.ts",
            null,
            null
        ])
    );
    assert_eq!(data["metrics"]["titleFontPx"], 13);
    assert_eq!(data["layout"]["title"], "Invite flow");
    // Without JavaScript: the steps in order, linked like the drawing's nodes.
    check(
        &html,
        &["<ol class=\"diagram-steps\">\n<li><a href=\"#file-lib/flags.ts\">Flag</a></li>\n\
           <li><a href=\"#file-app/router.ts-part-2\">Route</a></li>\n\
           <li><a href=\"#file-app/router.ts\">Import</a></li>\n\
           <li><a href=\"#file-new/file.ts\">New</a></li>\n<li>Elsewhere</li>\n<li>An idea</li>\n</ol>"],
        &[],
    );
}

/// Agent text in the data block can't end the `<script>` element or become markup, and reads
/// back exactly.
#[test]
fn diagram_data_keeps_text_inside_its_script() {
    let mut d = data();
    let hostile = "</script><script>alert(1)</script><!-- &";
    d.diagram = Some(json!({
        "title": hostile,
        "groups": [{ "id": "g", "title": hostile }],
        "nodes": [
            { "id": "a", "title": hostile, "group": "g", "lines": [{ "label": "<b>", "text": hostile }] },
            { "id": "b", "title": "B" }
        ],
        "edges": [{ "from": "a", "to": "b", "label": "</SCRIPT>" }]
    }));
    let html = html_of(&d);
    let block = html
        .split_once("id=\"diagram-layout\">")
        .and_then(|(_, rest)| rest.split_once("</script>"))
        .map_or("", |(text, _)| text);
    assert!(!block.contains('<'), "{block}");
    let data = diagram_data(&html);
    assert_eq!(data["layout"]["title"], hostile);
    assert_eq!(data["layout"]["nodes"][0]["title"], hostile);
    assert_eq!(data["layout"]["edges"][0]["label"], "</SCRIPT>");
    check(
        &html,
        &["<li>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- &amp;"],
        &["<script>alert(1)", "<b>"],
    );
}

#[test]
fn split_parts_show_only_their_changes() {
    let html = html_of(&data());
    let rest = article(&html, "file-app/router.ts");
    let named = article(&html, "file-app/router.ts-part-2");
    check(
        rest,
        &[
            "import { invites }",
            "@@ -1,3 +1,4 @@ import",
            "Part 1 of 2",
            "+1<span class=\"vh\"> added",
        ],
        &["/invites&quot; }", "@@ -40,2"],
    );
    check(
        named,
        &[
            "{ path: &quot;/invites&quot; }",
            "@@ -40,2 +41,3 @@",
            "Part 2 of 2",
        ],
        &["import { invites }", "@@ -1,3"],
    );
    // Line numbers: the added line is new line 42, after old and new 41/40; the new line
    // number links to the line on GitHub.
    let anchor = super::diff_view::github_file_anchor("app/router.ts");
    let files = "https://github.com/acme/app/pull/123/files";
    check(
        named,
        &[
            &format!("<tr class=\"ctx\"><td class=\"ln\">40</td><td class=\"ln\"><a href=\"{files}#{anchor}R41\">41</a></td>"),
            &format!("<tr class=\"add\"><td class=\"ln\"></td><td class=\"ln\"><a href=\"{files}#{anchor}R42\">42</a></td>"),
        ],
        &[],
    );
}

#[test]
fn new_changes_of_a_fully_split_file_are_not_in_the_order_yet() {
    let router = ids(ROUTER_PATCH);
    let mut d = data();
    // Every part names its hunks; then a commit adds a third change.
    if let Some(order) = d.order.as_mut() {
        if let Some(entry) = order.sections.get_mut(0).and_then(|s| s.files.get_mut(1)) {
            entry.hunks = Some(vec![router.first().cloned().unwrap_or_default()]);
        }
    }
    let patch = format!("{ROUTER_PATCH}\n@@ -90,1 +92,2 @@\n x\n+lateAddition();");
    if let Some(f) = d.files.get_mut(1) {
        *f = file("app/router.ts", "modified", Some(&patch));
    }
    d.commits_since = Some(1);
    let html = html_of(&d);
    let late = article(&html, "file-app/router.ts-part-3");
    check(
        late,
        &["lateAddition()", "New changes"],
        &["import { invites }", "/invites&quot;"],
    );
    check(
        article(&html, "file-app/router.ts"),
        &[],
        &["lateAddition()"],
    );
    let not_in_order = html.find("id=\"not-in-order\"").unwrap_or(usize::MAX);
    let late_at = html.find("id=\"file-app/router.ts-part-3\"").unwrap_or(0);
    assert!(not_in_order < late_at);
}

#[test]
fn missing_and_empty_parts_say_so() {
    let mut d = data();
    if let Some(entry) = d
        .order
        .as_mut()
        .and_then(|o| o.sections.get_mut(1))
        .and_then(|s| s.files.get_mut(0))
    {
        entry.hunks = Some(vec!["hgone".into()]);
    }
    let html = html_of(&d);
    check(
        article(&html, "file-app/router.ts-part-2"),
        &[
            "1 change named in this part is no longer in the pull request.",
            "No changes in this part.",
        ],
        &["<table"],
    );
}

#[test]
fn files_without_a_patch_say_so() {
    let html = html_of(&data());
    check(
        article(&html, "file-img/logo.png"),
        &["GitHub shows no diff for this file (binary or too large)."],
        &["<table"],
    );
    let mut d = data();
    if let Some(f) = d.files.get_mut(0) {
        f.patch = Some("not a diff".into());
    }
    check(
        article(&html_of(&d), "file-lib/flags.ts"),
        &["couldn't be read"],
        &["<table"],
    );
    let mut d = data();
    d.files.retain(|f| f.path != "lib/flags.ts");
    check(
        article(&html_of(&d), "file-lib/flags.ts"),
        &["no longer changed in the pull request"],
        &[],
    );
}

#[test]
fn files_not_in_the_order() {
    let html = html_of(&data());
    check(
        &html,
        &[
            "<h2 id=\"not-in-order-title\">Not in the order yet</h2>",
            "<a href=\"#not-in-order\">Not in the order yet</a>",
        ],
        &[],
    );
    let section = html
        .get(html.find("id=\"not-in-order\"").unwrap_or(0)..)
        .unwrap_or("");
    check(section, &["new/file.ts", "brandNew"], &["lib/flags.ts"]);

    let mut d = data();
    d.files.retain(|f| f.path != "new/file.ts");
    check(&html_of(&d), &[], &["not-in-order"]);
}

#[test]
fn no_order_lists_the_files() {
    let mut d = data();
    d.order = None;
    let html = html_of(&d);
    check(
        &html,
        &[
            "No reading order has been saved",
            "<h2 id=\"not-in-order-title\">Files</h2>",
            "id=\"file-lib/flags.ts\"",
            "id=\"file-new/file.ts\"",
            "data-total=\"5\">0</span> of 5</strong> done",
        ],
        &["Saved by", "Arrange on the web", "class=\"versions\""],
    );
}

#[test]
fn focus_key_is_highlighted_and_skim_and_generated_fold() {
    let html = html_of(&data());
    let key = article(&html, "file-lib/flags.ts");
    check(key, &["focus-key", "Key file"], &["<details"]);
    let generated = article(&html, "file-package-lock.json");
    check(
        generated,
        &[
            "focus-generated",
            "<details class=\"fold\"><summary>Show the diff <span class=\"muted\">(generated file, folded)</span></summary>",
            &format!(
                "<a class=\"button load-diff\" href=\"/r/acme/app/pull/123/diff?path=package-lock.json&amp;hunks={}&amp;first=1\">Load diff</a>",
                ids(LOCK_PATCH).join(",")
            ),
            "2 changed lines, generated file",
        ],
        &["<details class=\"fold\" open", "lockfileVersion"],
    );
    // The tick stays outside the fold.
    let details = generated.find("<details").unwrap_or(0);
    let tick = generated.find("<form class=\"tick\"").unwrap_or(usize::MAX);
    assert!(tick < details);

    let mut d = data();
    if let Some(entry) = d
        .order
        .as_mut()
        .and_then(|o| o.sections.get_mut(0))
        .and_then(|s| s.files.get_mut(0))
    {
        entry.focus = Some(crate::review::order::Focus::Skim);
    }
    check(
        article(&html_of(&d), "file-lib/flags.ts"),
        &["(skim, folded)", "focus-skim"],
        &["Key file"],
    );
}

#[test]
fn sections_show_title_layer_note_and_checks() {
    let html = html_of(&data());
    check(
        &html,
        &[
            "<span class=\"num\">1.</span> Flag <span class=\"badge layer\"><span class=\"vh\">layer: </span>contracts</span>",
            "<p class=\"note\">Off by default.</p>",
            "<span class=\"num\">3.</span> <span class=\"untitled\">Untitled</span>",
            "Adds invites behind <code>invitesEnabled</code>.",
            "Default is <code>false</code>",
            "With the flag off, nothing changes",
        ],
        &[],
    );
}

#[test]
fn progress_counts_checks_and_entries() {
    let d = data();
    let order = d
        .order
        .clone()
        .unwrap_or_else(|| order_from(json!({ "sections": [] })));
    let items = checklist_ids(&order);
    assert_eq!(items.len(), 2);
    // 2 checks + 5 entries in the order + 1 file not in it.
    check(
        &html_of(&d),
        &[
            "<span id=\"progress-done\" data-total=\"8\">0</span> of 8</strong> done",
            "max=\"8\" value=\"0\"",
        ],
        &[],
    );

    let router = ids(ROUTER_PATCH);
    let mut d = data();
    d.ticks = vec![
        items
            .first()
            .map(|item| item.id.clone())
            .unwrap_or_default(),
        file_item_id("lib/flags.ts", None),
        file_item_id("app/router.ts", Some(&router[1..])),
        file_item_id("new/file.ts", None),
        "cunknown".into(),
    ];
    let html = html_of(&d);
    check(
        &html,
        &[
            "data-total=\"8\">4</span> of 8</strong> done",
            "max=\"8\" value=\"4\"",
        ],
        &[],
    );
    // A ticked item's form undoes; an unticked one marks done.
    check(
        article(&html, "file-lib/flags.ts"),
        &[
            "<form class=\"tick is-done\" data-scope=\"entry\" method=\"post\" action=\"/r/acme/app/pull/123/ticks\">",
            "<input type=\"hidden\" name=\"csrf\" value=\"tok123\">",
            "<input type=\"hidden\" name=\"item\" value=\"file:lib/flags.ts\">",
            "<input type=\"hidden\" name=\"done\" value=\"0\">",
            "class=\"tick-box\" checked disabled>",
            ">Undo</button>",
        ],
        &[],
    );
    check(
        article(&html, "file-img/logo.png"),
        &[
            "<input type=\"hidden\" name=\"item\" value=\"file:img/logo.png\">",
            "<input type=\"hidden\" name=\"done\" value=\"1\">",
            ">Mark done</button>",
        ],
        &["checked"],
    );
}

#[test]
fn commits_banner() {
    let cases = [
        (None, None),
        (Some(0), None),
        (Some(1), Some("saved before the latest commit;")),
        (Some(3), Some("saved before the latest 3 commits;")),
    ];
    for (commits, expected) in cases {
        let mut d = data();
        d.commits_since = commits;
        let html = html_of(&d);
        match expected {
            Some(text) => check(
                &html,
                &[
                    text,
                    "new changes are listed under the part without hunks or in <a href=\"#not-in-order\">",
                ],
                &[],
            ),
            None => check(&html, &[], &["saved before the latest"]),
        }
    }
}

#[test]
fn version_picker_marks_the_current_version() {
    let html = html_of(&data());
    check(
        &html,
        &[
            "<summary>Version history (3 versions)</summary>",
            "<a href=\"/r/acme/app/pull/123?version=3\" aria-current=\"page\" class=\"current\">Version 3</a>",
            "<a href=\"/r/acme/app/pull/123?version=2\">Version 2</a> · hubot (web)",
            "<a href=\"/r/acme/app/pull/123?version=1\">Version 1</a>",
            "<a class=\"button\" href=\"/r/acme/app/pull/123/arrange\">Arrange on the web</a>",
        ],
        &["read-only"],
    );
    let mut d = data();
    d.can_arrange = false;
    d.versions.truncate(1);
    check(
        &html_of(&d),
        &["version 3</p>"],
        &["Arrange on the web", "class=\"versions\""],
    );
}

#[test]
fn older_versions_are_read_only() {
    let mut d = data();
    d.order_version = 2;
    d.updated_by = "hubot".into();
    d.source = "web".into();
    let html = html_of(&d);
    check(
        &html,
        &[
            "You are viewing version 2, an earlier version of this order. It is read-only",
            "<a href=\"/r/acme/app/pull/123\">Go to the latest version (3)</a>",
            "aria-current=\"page\" class=\"current\">Version 2</a>",
            "Saved by <strong>hubot</strong> (web)",
            "class=\"tick-box\" disabled>",
        ],
        &[
            "<form",
            "<script src=\"/assets/review.js\"",
            "Arrange on the web",
            "id=\"tick-status\"",
        ],
    );
}

#[test]
fn file_anchor_finds_the_part() {
    let router = ids(ROUTER_PATCH);
    let d = data();
    let order = d
        .order
        .unwrap_or_else(|| order_from(json!({ "sections": [] })));
    let first = router.first().map(String::as_str);
    let second = router.get(1).map(String::as_str);
    let cases = [
        ("lib/flags.ts", None, "file-lib/flags.ts"),
        ("lib/flags.ts", Some("hwhatever"), "file-lib/flags.ts"),
        ("app/router.ts", None, "file-app/router.ts"),
        ("app/router.ts", second, "file-app/router.ts-part-2"),
        ("app/router.ts", first, "file-app/router.ts"),
        ("app/router.ts", Some("hlater"), "file-app/router.ts"),
        ("new/file.ts", None, "file-new/file.ts"),
        ("odd name ~.ts", None, "file-odd~20name~20~7E.ts"),
        ("ünï.ts", None, "file-~C3~BCn~C3~AF.ts"),
    ];
    for (path, hunk, expected) in cases {
        assert_eq!(file_anchor(path, hunk, &order), expected, "{path} {hunk:?}");
    }
    // Every part names its hunks: an unnamed change goes to the first appearance.
    let split = order_from(json!({ "sections": [
        { "files": [{ "path": "a.ts", "hunks": ["h2"] }] },
        { "files": [{ "path": "a.ts", "hunks": ["h1"] }] }
    ]}));
    assert_eq!(file_anchor("a.ts", Some("h1"), &split), "file-a.ts-part-2");
    assert_eq!(file_anchor("a.ts", Some("h9"), &split), "file-a.ts");
}

#[test]
fn anchors_stay_unique_when_paths_look_like_parts() {
    let order = order_from(json!({ "sections": [{ "files": [
        { "path": "a.ts", "hunks": ["h1"] },
        { "path": "a.ts" },
        { "path": "a.ts-part-2" }
    ]}]}));
    assert_eq!(file_anchor("a.ts", Some("h1"), &order), "file-a.ts");
    assert_eq!(file_anchor("a.ts", Some("h5"), &order), "file-a.ts-part-2");
    assert_eq!(
        file_anchor("a.ts-part-2", None, &order),
        "file-a.ts-part-2~"
    );
}

#[test]
fn checklist_given_by_the_caller_is_used() {
    let d = data();
    let order = d
        .order
        .clone()
        .unwrap_or_else(|| order_from(json!({ "sections": [] })));
    let mut items = checklist_ids(&order);
    if let Some(item) = items.first_mut() {
        item.id = "cstored".into();
    }
    let state = state_of(&d);
    let mut page = page(&d, &state);
    page.checklist = &items;
    check(
        &render(&page),
        &["<input type=\"hidden\" name=\"item\" value=\"cstored\">"],
        &[],
    );
}

#[test]
fn never_panics_on_odd_input() {
    let mut d = data();
    d.saved_at = "2026".into();
    d.order_version = 9;
    d.latest_version = 1;
    d.versions.clear();
    d.files.push(file("x", "added", None));
    if let Some(f) = d.files.get_mut(1) {
        f.patch = Some("@@ -4294967295,1 +4294967295,2 @@\n x\n+y".into());
    }
    if let Some(order) = d.order.as_mut() {
        order.sections.push(
            order_from(json!({ "sections": [{ "title": " ", "files": [] }] }))
                .sections
                .remove(0),
        );
    }
    let html = html_of(&d);
    check(
        &html,
        &["4294967295", "2026</time>"],
        &["class=\"versions\""],
    );
}

#[test]
fn script_is_plain_and_uses_the_form_fields() {
    for needle in [
        "fetch(",
        "\"csrf\"",
        "\"item\"",
        "\"done\"",
        "progress-done",
        "preventDefault",
        "same-origin",
    ] {
        assert!(REVIEW_JS.contains(needle), "{needle}");
    }
    for banned in [
        "innerHTML",
        "eval(",
        "document.write",
        "http://",
        "https://",
    ] {
        assert!(!REVIEW_JS.contains(banned), "{banned}");
    }
}

#[test]
fn page_fits_a_phone_and_dark_mode() {
    let html = html_of(&data());
    check(
        REVIEW_CSS,
        &[".diff-wrap{overflow-x:auto", "prefers-color-scheme:dark"],
        &["http://", "url("],
    );
    check(
        &html,
        &[
            "<link rel=\"stylesheet\" href=\"/static/review.css\">",
            "name=\"viewport\"",
            "role=\"region\" aria-label=\"Diff of lib/flags.ts\" tabindex=\"0\"",
        ],
        &["http://", "url("],
    );
}

/// The item ids of every tick form in a rendered page.
fn rendered_items(html: &str) -> std::collections::HashSet<String> {
    html.split("name=\"item\" value=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|value| {
            value
                .replace("&amp;", "&")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
        })
        .collect()
}

#[test]
fn tickable_items_are_exactly_the_ticks_the_page_offers() {
    let d = data();
    let html = html_of(&d);
    let offered = rendered_items(&html);
    let tickable = super::tickable_items(d.order.as_ref(), &d.files);
    // Every offered tick is accepted; beyond them, only the content items of offered entries
    // (a one-change entry has no separate change tick, but its change is the same content).
    assert!(offered.is_subset(&tickable), "{offered:?} ⊄ {tickable:?}");
    for extra in tickable.difference(&offered) {
        assert!(
            extra.starts_with("change:") || extra.starts_with("blob:"),
            "{extra}"
        );
    }

    assert!(tickable.contains(&file_item_id("lib/flags.ts", None)));
    assert!(
        tickable.contains(&file_item_id("new/file.ts", None)),
        "not in the order yet"
    );
    for id in checklist_ids(d.order.as_ref().unwrap_or_else(|| panic!("an order")))
        .iter()
        .map(|i| &i.id)
    {
        assert!(tickable.contains(id), "{id}");
    }
    assert!(!tickable.contains("file:made/up.ts"));
    assert!(!tickable.contains("check:0123456789ab"));

    // Without an order, every changed file can be ticked, and nothing else.
    let mut none = data();
    none.order = None;
    let tickable = super::tickable_items(None, &none.files);
    let offered = rendered_items(&html_of(&none));
    assert!(offered.is_subset(&tickable));
    assert_eq!(
        offered
            .iter()
            .filter(|item| item.starts_with("file:"))
            .count(),
        none.files.len()
    );
}

/// The data with app/router.ts as one entry of both its changes.
fn whole_router() -> Data {
    let mut d = data();
    d.order = Some(order_from(json!({
        "sections": [{ "title": "All", "files": [{ "path": "app/router.ts" }, { "path": "lib/flags.ts" }] }]
    })));
    d
}

#[test]
fn each_change_has_its_own_tick_and_the_file_is_reviewed_when_all_are() {
    let router = ids(ROUTER_PATCH);
    let mut d = whole_router();
    d.ticks = vec![format!("change:app/router.ts#{}", router[0])];
    let html = html_of(&d);
    let entry = article(&html, "file-app/router.ts");
    check(
        entry,
        &[
            "data-state=\"todo\"",
            "data-scope=\"entry\"",
            "Reviewed (every change)",
            &format!("<tbody data-change=\"{}\">", router[0]),
            &format!(
                "<input type=\"hidden\" name=\"item\" value=\"change:app/router.ts#{}\">",
                router[1]
            ),
            "Reviewed<span class=\"vh\"> change 2 of app/router.ts</span>",
        ],
        &[],
    );
    assert_eq!(entry.matches("data-scope=\"change\"").count(), 2);
    assert_eq!(
        entry
            .matches("class=\"tick is-done\" data-scope=\"change\"")
            .count(),
        1
    );

    d.ticks.push(format!("change:app/router.ts#{}", router[1]));
    let html = html_of(&d);
    check(
        article(&html, "file-app/router.ts"),
        &[
            "data-state=\"reviewed\"",
            "class=\"tick is-done\" data-scope=\"entry\"",
            "<span aria-hidden=\"true\">✓</span> Reviewed</span>",
        ],
        &[],
    );
    // The outline says it in words (its style sheet adds the symbol), and counts per section.
    check(
        &html,
        &[
            "<nav class=\"outline\" aria-label=\"Outline\">",
            "<span class=\"count\">1 of 2</span>",
            "<li data-state=\"reviewed\"><a href=\"#file-app/router.ts\" title=\"app/router.ts\"><span class=\"vh\">Reviewed: </span>router.ts</a></li>",
        ],
        &[],
    );
}

#[test]
fn changed_since_reviewed_and_the_views() {
    let router = ids(ROUTER_PATCH);
    let d = whole_router();
    let new_change = format!("change:app/router.ts#{}", router[1]);
    let mut state = ReviewState::default();
    state
        .ticked
        .insert(format!("change:app/router.ts#{}", router[0]));
    state.changed.insert(
        "app/router.ts".into(),
        [router[1].clone()].into_iter().collect(),
    );
    state.since = Some(crate::web::review_state::SinceVisit {
        head_sha: "abcdef0123456789".into(),
        known: true,
        new_keys: [(
            "app/router.ts".to_string(),
            [router[1].clone()].into_iter().collect(),
        )]
        .into_iter()
        .collect(),
        left: vec!["old/gone.ts".into()],
    });
    let mut p = page(&d, &state);
    p.visit_commits = Some(2);
    let html = render(&p);
    assert!(state.is_new_since_visit(&new_change));
    check(
        article(&html, "file-app/router.ts"),
        &[
            "data-state=\"changed\"",
            "Changed since you reviewed",
            "<span class=\"badge new\">New</span>",
        ],
        &[],
    );
    check(
        &html,
        &[
            "You last reviewed this pull request at <code>abcdef0</code>; 2 commits came after it; 1 file has changed since.",
            "Left the pull request since: <code>old/gone.ts</code>",
            "href=\"/r/acme/app/pull/123?view=since\">Show only what's new since then</a>",
            "New since your last visit</a>",
        ],
        &[],
    );

    // Only what's new: the router's new change, not its old one, and not flags.ts.
    p.view = super::View::Since;
    let html = render(&p);
    check(
        &html,
        &[
            &format!("<tbody data-change=\"{}\">", router[1]),
            "Show everything</a>",
        ],
        &[
            &format!("<tbody data-change=\"{}\">", router[0]),
            "id=\"file-lib/flags.ts\"",
        ],
    );

    // Only what's left: reviewed files go.
    let mut state = ReviewState::default();
    state
        .ticked
        .insert(format!("change:lib/flags.ts#{}", ids(FLAGS_PATCH)[0]));
    let mut p = page(&d, &state);
    p.view = super::View::Left;
    let html = render(&p);
    check(
        &html,
        &["id=\"file-app/router.ts\""],
        &["id=\"file-lib/flags.ts\""],
    );
}

/// Issue 15: a diff that loads on demand carries what its changes' own ticks need (the script
/// makes them from the entry's tick): the shown changes already reviewed and those that are new.
#[test]
fn a_deferred_diff_names_its_reviewed_and_new_changes() {
    let router = ids(ROUTER_PATCH);
    let mut d = data();
    d.order = Some(order_from(json!({
        "sections": [{ "title": "All", "files": [
            { "path": "app/router.ts", "focus": "generated" }, { "path": "lib/flags.ts" }
        ] }]
    })));
    d.ticks = vec![format!("change:app/router.ts#{}", router[0])];
    let mut state = state_of(&d);
    state.changed.insert(
        "app/router.ts".to_string(),
        [router[1].clone()].into_iter().collect(),
    );
    let html = render(&page(&d, &state));
    let entry = article(&html, "file-app/router.ts");
    check(
        entry,
        &[
            &format!(
                "<div class=\"lazy-diff\" data-done=\"{}\" data-new=\"{}\"><a class=\"button load-diff\"",
                router[0], router[1]
            ),
            "data-state=\"changed\"",
        ],
        &["<tbody", "data-scope=\"change\""],
    );
    // A file whose entry tick is its one change's tick needs nothing more.
    let flags = article(&html, "file-lib/flags.ts");
    assert!(!flags.contains("data-done"), "{flags}");
    // The script copies the entry's tick for each change, with the page's item for it.
    for needle in [
        "\"change:\" + path + \"#\" + id",
        "data-done",
        "data-new",
        "review:loaded",
    ] {
        assert!(REVIEW_VIEW_JS.contains(needle), "{needle}");
    }
}

/// Issue 15: a page of more than one window of entries links every file of another window in
/// its outline to that window's page (`?from=`), keeping the view.
#[test]
fn the_outline_links_entries_of_other_windows_to_their_page() {
    let mut d = data();
    d.files = (0..150)
        .map(|n| file(&format!("src/m{n:03}.rs"), "modified", Some(NEW_PATCH)))
        .collect();
    let paths: Vec<Value> = d.files.iter().map(|f| json!({ "path": f.path })).collect();
    d.order = Some(order_from(json!({
        "sections": [{ "title": "A", "files": paths[..60] }, { "title": "B", "files": paths[60..] }]
    })));
    let state = state_of(&d);
    let mut p = page(&d, &state);
    p.view = super::View::Left;
    let html = render(&p);
    check(
        &html,
        &[
            "<a href=\"#file-src/m099.rs\" title=\"src/m099.rs\">",
            "<a href=\"?view=left&amp;from=101#file-src/m100.rs\" title=\"src/m100.rs\">",
            "<div class=\"run\" data-run=\"2-0\">",
            "<div class=\"run more\" data-run=\"2-1\"><a class=\"button load-files\" href=\"?view=left&amp;from=101#file-src/m100.rs\">Load 50 more files</a>",
        ],
        &["id=\"file-src/m100.rs\""],
    );
    assert_eq!(html.matches("<article ").count(), 100);
    p.window = super::window_of(Some("101"));
    let html = render(&p);
    check(
        &html,
        &[
            "<a href=\"?view=left&amp;from=1#file-src/m000.rs\"",
            "<a href=\"#file-src/m149.rs\"",
            "<div class=\"run more\" data-run=\"1-0\">",
            "<div class=\"run more\" data-run=\"2-0\">",
            "<div class=\"run\" data-run=\"2-1\">",
        ],
        &["id=\"file-src/m000.rs\""],
    );
    assert_eq!(html.matches("<article ").count(), 50);
}

#[test]
fn change_ids_come_from_the_snapshot_when_they_line_up_with_the_hunks() {
    let hunks = parse_patch(ROUTER_PATCH).unwrap_or_else(|error| panic!("{error}"));
    // As built: the snapshot's ids are the hashes of these hunks.
    let built = file("app/router.ts", "modified", Some(ROUTER_PATCH));
    assert_eq!(super::change_ids(&built, &hunks), ids(ROUTER_PATCH));
    // The snapshot's own ids are used, not hashed again (marked ones prove it)…
    let mut marked = built.clone();
    for (i, change) in marked.changes.iter_mut().enumerate() {
        change.id = format!("hmarked{i}");
    }
    assert_eq!(super::change_ids(&marked, &hunks), ["hmarked0", "hmarked1"]);
    // …and when they don't line up with the hunks (none kept, or one too many), they are
    // worked out from the hunks.
    let mut none = built.clone();
    none.changes.clear();
    assert_eq!(super::change_ids(&none, &hunks), ids(ROUTER_PATCH));
    let mut extra = built.clone();
    extra.changes.push(built.changes[0].clone());
    assert_eq!(super::change_ids(&extra, &hunks), ids(ROUTER_PATCH));
}

#[test]
fn slugs_keep_safe_bytes_and_write_the_rest_as_hex() {
    let path = "src/a b~c#d%e.é日🦀_-Z09\t\"<>";
    let expected: String = path
        .bytes()
        .map(|byte| {
            if byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'-' | b'/') {
                char::from(byte).to_string()
            } else {
                format!("~{byte:02X}")
            }
        })
        .collect();
    assert_eq!(super::slug(path), expected);
    assert_eq!(super::slug("a é"), "a~20~C3~A9");
}

/// Issue #30: `from=` picks the window holding that entry; anything unreadable is the first.
#[test]
fn from_picks_the_window_of_its_entry() {
    for (from, window) in [
        (None, 0),
        (Some(""), 0),
        (Some("abc"), 0),
        (Some("-5"), 0),
        (Some("0"), 0),
        (Some("1"), 0),
        (Some("100"), 0),
        (Some("101"), 1),
        (Some("200"), 1),
        (Some("201"), 2),
        (Some("18446744073709551615"), usize::MAX / 100),
        (Some("18446744073709551616"), 0),
    ] {
        assert_eq!(super::window_of(from), window, "{from:?}");
    }
}

/// Issue #30: the last window renders the entries left after the full windows, and a window
/// past the last renders none, but keeps the outline, the counts and every other window's link.
#[test]
fn the_last_window_and_one_past_it() {
    let mut d = data();
    d.files = (0..201)
        .map(|n| file(&format!("src/m{n:03}.rs"), "modified", Some(NEW_PATCH)))
        .collect();
    let paths: Vec<Value> = d.files.iter().map(|f| json!({ "path": f.path })).collect();
    d.order = Some(order_from(
        json!({ "sections": [{ "title": "A", "files": paths }] }),
    ));
    d.ticks = vec![file_item_id("src/m200.rs", None)];
    let state = state_of(&d);
    let mut p = page(&d, &state);
    p.window = 2;
    let html = render(&p);
    assert_eq!(html.matches("<article ").count(), 1);
    check(
        &html,
        &[
            "id=\"file-src/m200.rs\"",
            "<div class=\"run\" data-run=\"1-2\">",
            "<a class=\"button load-files\" href=\"?from=1#file-src/m000.rs\">Load 100 more files</a>",
            "<a class=\"button load-files\" href=\"?from=101#file-src/m100.rs\">Load 100 more files</a>",
            "· 1 of 201 files reviewed",
            "<span class=\"count\">1 of 201</span>",
        ],
        &[],
    );
    p.window = 3;
    let html = render(&p);
    assert_eq!(html.matches("<article ").count(), 0);
    assert_eq!(html.matches("class=\"button load-files\"").count(), 3);
    check(
        &html,
        &[
            "Load 1 more file</a> <span class=\"muted\">files 201 to 201 of the page · 1 reviewed</span>",
            "<a href=\"?from=201#file-src/m200.rs\" title=\"src/m200.rs\">",
            "· 1 of 201 files reviewed",
        ],
        &["<div class=\"run\" "],
    );
    p.fragment = true;
    let html = render(&p);
    assert_eq!(html.matches("<article ").count(), 0);
    assert!(!html.contains("class=\"outline\""), "{html}");
}

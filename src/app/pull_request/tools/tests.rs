//! Every relayed tool through the object's one dispatch, in process: the call decoded from the
//! relay's wire as the shell decodes it, then `tools::run` over SQLite in memory, the scripted
//! GitHub and the fixed clock. The saves (saved, a stale `base_version`, no write access, a bad
//! shape, GitHub failing: each refusal with nothing written), the views (the latest and an older
//! version, a missing one, the threads' read failing), `get_pull_request`,
//! `get_review_feedback`, an unknown tool, and the Worker's refusal read by the same reader.
//! The rules moved here from end to end (issue #37) are in the child modules: `saves`,
//! `get_pull_request` and `views`.

use serde_json::{json, Map, Value};

use super::{refusal, run};
use crate::app::pull_request::object::Object;
use crate::app::pull_request::relayed::Run;
use crate::app::pull_request::test_support::{block_on, config, files_path, Scripted, World};
use crate::github::client::GitHub;
use crate::mcp::catalog::{Runs, ToolName};
use crate::mcp::dispatch::ToolResult;
use crate::ports::clock::Clock;
use crate::review::model::saved::DocumentKind;
use crate::tools::pull_target::PullTarget;
use crate::tools::relay::RelayedCall;

const ALL: [&str; 3] = ["src/f0.rs", "src/f1.rs", "src/f2.rs"];

/// The call of `tool` with `arguments` as the object reads it off the relay's wire (the fault
/// tests' too).
pub(super) fn relayed(tool: &str, arguments: Value) -> RelayedCall {
    let call = RelayedCall {
        tool: tool.into(),
        arguments: Map::new(),
        github_token: "t".into(),
        may_write: true,
        base_url: "https://review.test".into(),
        login: "octo".into(),
        client: Some("Agent".into()),
    };
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": tool, "arguments": arguments },
    });
    RelayedCall::from_wire(&call.to_wire(&body.to_string())).expect("the wire decodes")
}

/// Runs `tool` on `world`'s object (its schema created, as the shell does first).
fn call(world: &World, tool: &str, arguments: Value) -> ToolResult {
    world.records();
    let call = relayed(tool, arguments);
    let config = config();
    let github = GitHub::new(&config, "t", &world.github, &world.clock);
    let object = Object {
        storage: &world.sql,
        platform: &world.around,
        memo: &world.memo,
        sweep: &world.sweep,
        clock: &world.clock,
        schema_ready: &world.schema_ready,
    };
    let run_with = Run {
        object: &object,
        github: &github,
        call: &call,
    };
    block_on(run(&run_with)).expect("the storage answers")
}

/// A success's JSON.
fn ok(result: ToolResult) -> Value {
    match result {
        ToolResult::Structured(value) => value,
        ToolResult::Json(text) | ToolResult::JsonQuoted { text, .. } => {
            serde_json::from_str(&text).expect("a JSON answer")
        }
        other => panic!("not a success: {other:?}"),
    }
}

/// A refusal's message.
fn refused(result: ToolResult) -> String {
    match result {
        ToolResult::Error(message) => message,
        other => panic!("not a refusal: {other:?}"),
    }
}

fn order_args(base_version: u64) -> Value {
    let files: Vec<Value> = ALL.iter().map(|path| json!({ "path": path })).collect();
    json!({
        "owner": "o", "repo": "r", "number": 1, "base_version": base_version,
        "sections": [{ "title": "All", "files": files }],
    })
}

fn diagram_args(base_version: u64) -> Value {
    json!({
        "owner": "o", "repo": "r", "number": 1, "base_version": base_version,
        "diagram": {
            "nodes": [
                { "id": "a", "title": "Read", "file": "src/f0.rs" },
                { "id": "b", "title": "Write", "file": "src/f1.rs" }
            ],
            "edges": [{ "from": "a", "to": "b" }]
        },
    })
}

fn saved_versions(world: &World, kind: DocumentKind) -> usize {
    world.records().history(kind).expect("history reads").len()
}

#[test]
fn an_order_is_saved_as_the_caller_at_the_clocks_time() {
    let world = World::new();
    let saved = ok(call(&world, "save_reading_order", order_args(0)));
    assert_eq!(saved["version"], 1, "{saved}");
    let current = world.records().current().unwrap();
    let order = current.order.expect("the order is saved");
    assert_eq!((order.version, order.head_sha.as_str()), (1, "h1"));
    assert_eq!(order.person, "octo");
    assert_eq!(order.client.as_deref(), Some("Agent"));
    assert_eq!(
        order.saved_at,
        crate::time::rfc3339(world.clock.now_ms()),
        "saved at the object's clock"
    );
    let again = ok(call(&world, "save_reading_order", order_args(1)));
    assert_eq!(again["version"], 2);
}

#[test]
fn a_stale_base_version_is_a_conflict_and_writes_nothing() {
    let world = World::new();
    ok(call(&world, "save_reading_order", order_args(0)));
    let message = refused(call(&world, "save_reading_order", order_args(0)));
    assert!(
        message.starts_with("Conflict: octo saved version 1"),
        "{message}"
    );
    assert_eq!(saved_versions(&world, DocumentKind::Order), 1);
    let message = refused(call(&world, "save_diagram", diagram_args(3)));
    assert!(
        message.starts_with("Conflict: base_version is 3"),
        "{message}"
    );
    assert_eq!(saved_versions(&world, DocumentKind::Diagram), 0);
}

#[test]
fn without_write_access_a_save_is_refused_and_nothing_written() {
    let world = World::new();
    world.github.on(
        "/repos/o/r",
        [Scripted::ok(
            r#"{"full_name":"o/r","private":false,"permissions":{"push":false}}"#,
        )],
    );
    for (tool, args, what, kind) in [
        (
            "save_reading_order",
            order_args(0),
            "an order",
            DocumentKind::Order,
        ),
        (
            "save_diagram",
            diagram_args(0),
            "a diagram",
            DocumentKind::Diagram,
        ),
    ] {
        let message = refused(call(&world, tool, args));
        assert!(message.contains("octo"), "{message}");
        assert!(message.contains(what), "{message}");
        assert_eq!(saved_versions(&world, kind), 0, "{tool}");
    }
}

#[test]
fn a_bad_shape_is_refused_before_github_is_asked() {
    let world = World::new();
    let message = refused(call(
        &world,
        "save_reading_order",
        json!({ "owner": "o", "repo": "r", "number": 1, "base_version": 0, "sections": "x" }),
    ));
    assert!(message.starts_with("The order is invalid: "), "{message}");
    let message = refused(call(
        &world,
        "save_diagram",
        json!({ "owner": "o", "repo": "r", "number": 1, "base_version": 0 }),
    ));
    assert!(
        message.starts_with("The diagram is invalid: diagram is required"),
        "{message}"
    );
    assert_eq!(world.github.total(), 0, "no GitHub request for a bad shape");
    assert_eq!(saved_versions(&world, DocumentKind::Order), 0);
}

#[test]
fn an_order_that_does_not_fit_the_pull_request_is_refused_and_nothing_written() {
    let world = World::new();
    let mut args = order_args(0);
    args["sections"][0]["files"] = json!([{ "path": "src/f0.rs" }]);
    let message = refused(call(&world, "save_reading_order", args));
    assert!(message.contains("src/f1.rs"), "{message}");
    assert_eq!(saved_versions(&world, DocumentKind::Order), 0);
}

#[test]
fn a_github_failure_leaves_nothing_saved() {
    for (path, fault) in [
        ("/repos/o/r/pulls/1", Scripted::status(404, "{}")),
        ("/repos/o/r", Scripted::status(503, "")),
    ] {
        let world = World::new();
        world.github.on(path, [fault]);
        let message = refused(call(&world, "save_reading_order", order_args(0)));
        assert!(
            message.starts_with("GitHub says this pull request doesn't exist")
                || message.starts_with("GitHub is not answering properly"),
            "{path}: {message}"
        );
        assert!(
            message.contains("o/r#1") || path == "/repos/o/r",
            "{message}"
        );
        assert_eq!(saved_versions(&world, DocumentKind::Order), 0, "{path}");
        let message = refused(call(&world, "save_diagram", diagram_args(0)));
        assert!(message.starts_with("GitHub"), "{message}");
        assert_eq!(saved_versions(&world, DocumentKind::Diagram), 0, "{path}");
    }
}

#[test]
fn a_diagram_is_saved_and_the_view_lays_it_out() {
    let world = World::new();
    let empty = ok(call(
        &world,
        "view_diagram",
        json!({ "owner": "o", "repo": "r", "number": 1 }),
    ));
    assert_eq!(empty["layout"], Value::Null, "{empty}");
    let saved = ok(call(&world, "save_diagram", diagram_args(0)));
    assert_eq!(saved["version"], 1, "{saved}");
    assert_eq!(saved_versions(&world, DocumentKind::Diagram), 1);
    let shown = ok(call(
        &world,
        "view_diagram",
        json!({ "owner": "o", "repo": "r", "number": 1 }),
    ));
    assert_eq!(
        shown["layout"]["nodes"].as_array().map(Vec::len),
        Some(2),
        "{shown}"
    );
}

#[test]
fn show_reading_order_shows_the_latest_or_an_older_version_and_no_missing_one() {
    let world = World::new();
    let target = json!({ "owner": "o", "repo": "r", "number": 1 });
    let none = refused(call(&world, "show_reading_order", target.clone()));
    assert!(
        none.starts_with("No reading order is saved for o/r#1"),
        "{none}"
    );
    ok(call(&world, "save_reading_order", order_args(0)));
    let mut second = order_args(1);
    second["sections"][0]["title"] = json!("Second");
    ok(call(&world, "save_reading_order", second));
    let latest = ok(call(&world, "show_reading_order", target.clone()));
    assert_eq!(latest["version"], 2, "{latest}");
    let mut older = target.clone();
    older["version"] = json!(1);
    let shown = ok(call(&world, "show_reading_order", older.clone()));
    assert_eq!(shown["version"], 1, "{shown}");
    let order = ok(call(&world, "view_reading_order", older));
    assert_eq!(order["order"]["sections"][0]["title"], "All", "{order}");
    let mut missing = target;
    missing["version"] = json!(5);
    let message = refused(call(&world, "show_reading_order", missing.clone()));
    assert!(
        message.starts_with("o/r#1 has no reading order version 5: versions run from 1 to 2"),
        "{message}"
    );
    let message = refused(call(&world, "view_reading_order", missing));
    assert!(message.contains("no reading order version 5"), "{message}");
}

/// GitHub's review of `o/r#1`: one open thread on `src/f1.rs`.
const REVIEW: &str = r#"{"data":{"repository":{"pullRequest":{
    "reviewThreads":{"totalCount":1,"nodes":[{"isResolved":false,"isOutdated":false,"path":"src/f1.rs",
        "line":2,"diffSide":"RIGHT","comments":{"totalCount":1,"nodes":[{"author":{"login":"rev"},"body":"Why?"}]}}]},
    "reviews":{"totalCount":0,"nodes":[]}}}}}"#;

#[test]
fn the_views_order_shows_its_threads_and_shows_without_them_when_their_read_fails() {
    let world = World::new();
    ok(call(&world, "save_reading_order", order_args(0)));
    let target = json!({ "owner": "o", "repo": "r", "number": 1 });
    world.github.on("/graphql", [Scripted::ok(REVIEW)]);
    let read = ok(call(&world, "view_reading_order", target.clone()));
    assert_eq!(read["reviewThreads"]["read"], true, "{read}");
    world.github.on("/graphql", [Scripted::status(502, "")]);
    let failed = ok(call(&world, "view_reading_order", target.clone()));
    assert_eq!(failed["reviewThreads"]["read"], false, "{failed}");
    assert_eq!(failed["order"]["sections"][0]["title"], "All");
    assert!(world
        .around
        .lines
        .borrow()
        .iter()
        .any(|line| line.contains("reading the review threads failed")));
    // Only the order the view shows asks for the threads.
    let asked = world.github.count("/graphql");
    ok(call(&world, "show_reading_order", target));
    assert_eq!(world.github.count("/graphql"), asked);
}

#[test]
fn view_change_pages_a_changed_file_and_refuses_another() {
    let world = World::new();
    let page = ok(call(
        &world,
        "view_change",
        json!({ "owner": "o", "repo": "r", "number": 1, "path": "src/f1.rs" }),
    ));
    assert_eq!(page["path"], "src/f1.rs", "{page}");
    assert_eq!(page["lines"].as_array().map(Vec::len), Some(2), "{page}");
    let message = refused(call(
        &world,
        "view_change",
        json!({ "owner": "o", "repo": "r", "number": 1, "path": "src/nope.rs" }),
    ));
    assert!(
        message.starts_with("src/nope.rs is not a changed file of o/r#1"),
        "{message}"
    );
}

#[test]
fn get_pull_request_reads_the_files_and_the_saved_order() {
    let world = World::new();
    let target = json!({ "owner": "o", "repo": "r", "number": 1 });
    let first = ok(call(&world, "get_pull_request", target.clone()));
    assert_eq!(first["files"].as_array().map(Vec::len), Some(3), "{first}");
    assert_eq!(first["baseVersion"], 0, "{first}");
    assert_eq!(first["canArrange"], true, "{first}");
    ok(call(&world, "save_reading_order", order_args(0)));
    let again = ok(call(&world, "get_pull_request", target));
    assert_eq!(again["baseVersion"], 1, "{again}");
    let message = refused(call(
        &world,
        "get_pull_request",
        json!({ "owner": "o", "repo": "r", "number": 1, "include_patches": "yes" }),
    ));
    assert!(
        message.starts_with("The request is invalid: include_patches must be true or false"),
        "{message}"
    );
}

#[test]
fn get_review_feedback_places_the_threads_in_the_saved_order() {
    let world = World::new();
    ok(call(&world, "save_reading_order", order_args(0)));
    // The save cached the snapshot: the one GraphQL request is the review's.
    world.github.on("/graphql", [Scripted::ok(REVIEW)]);
    let answer = ok(call(
        &world,
        "get_review_feedback",
        json!({ "owner": "o", "repo": "r", "number": 1 }),
    ));
    assert_eq!(answer["repository"], "o/r", "{answer}");
    assert_eq!(answer["orderVersion"], 1, "{answer}");
    assert!(answer.to_string().contains("Why?"), "{answer}");
    world.github.on("/graphql", [Scripted::status(404, "{}")]);
    let message = refused(call(
        &world,
        "get_review_feedback",
        json!({ "owner": "o", "repo": "r", "number": 1 }),
    ));
    assert!(message.contains("o/r#1"), "{message}");
}

#[test]
fn an_unknown_tool_and_the_workers_tool_are_refused_without_github() {
    let world = World::new();
    let message = refused(call(&world, "nope", json!({})));
    assert_eq!(
        message,
        format!("Unknown tool \"nope\": the tools are {}", ToolName::list())
    );
    let message = refused(call(&world, "get_ordering_guide", json!({})));
    assert_eq!(
        message,
        "get_ordering_guide reads nothing of a pull request; the Worker answers it."
    );
    assert_eq!(world.github.total(), 0);
}

/// The Worker routes by the target alone and, when it is wrong, answers with the tool's own
/// reading: the same message the object would give, every problem of the call in it.
#[test]
fn the_workers_refusal_is_the_tools_own_reading() {
    let bad_target = json!({ "owner": "..", "number": 0, "include_patches": 1, "sections": 2 });
    let arguments = bad_target.as_object().cloned().unwrap_or_default();
    assert_eq!(PullTarget::of(&arguments), None);
    for tool in ToolName::ALL {
        if tool.runs() == Runs::Worker {
            continue;
        }
        let message = refusal(tool, &arguments).expect("a wrong target is refused");
        let world = World::new();
        assert_eq!(
            refused(call(&world, tool.as_str(), bad_target.clone())),
            message,
            "{}",
            tool.as_str()
        );
        assert!(message.contains("owner must be"), "{message}");
        assert!(message.contains("repo is required"), "{message}");
    }
    let save = refusal(ToolName::SaveReadingOrder, &arguments).unwrap_or_default();
    assert!(
        save.starts_with("The order is invalid: owner must be"),
        "{save}"
    );
    assert!(
        save.contains("sections"),
        "the document's problems too: {save}"
    );
    let gpr = refusal(ToolName::GetPullRequest, &arguments).unwrap_or_default();
    assert!(
        gpr.contains("include_patches must be true or false"),
        "{gpr}"
    );
}

/// `o/r#1` with `src/f2.rs` changed in two places, so it can be split; the others as scripted.
fn world_with_a_split_file() -> World {
    let world = World::new();
    let file = |i: usize, patch: &str| {
        json!({ "filename": format!("src/f{i}.rs"), "status": "modified", "additions": 2,
                "deletions": 0, "patch": patch, "sha": format!("s{i}") })
    };
    let page = json!([
        file(0, "@@ -1,1 +1,2 @@\n a\n+b0"),
        file(1, "@@ -1,1 +1,2 @@\n a\n+b1"),
        file(2, "@@ -1,1 +1,2 @@\n a\n+b2\n@@ -40,1 +41,2 @@\n z\n+y2"),
    ]);
    world
        .github
        .on(&files_path(1), [Scripted::ok(page.to_string())]);
    world
}

mod get_pull_request;
mod saves;
mod views;

/// The catalog row is the one word on where a tool runs: the Worker's dispatch by name
/// (`tools::worker_side`) and this table both follow it, for every tool (issue #45).
#[test]
fn the_table_and_the_catalog_agree_on_where_each_tool_runs() {
    for tool in ToolName::ALL {
        let in_worker = tool.runs() == Runs::Worker;
        let answered = crate::tools::worker_side::run(tool, "https://h").is_some();
        assert_eq!(answered, in_worker, "{}", tool.as_str());
        assert_eq!(super::runs_in_worker(tool), in_worker, "{}", tool.as_str());
    }
}

/// Issue #47: what reviewers read, as the agent sees it. Two reviewers tick different files;
/// `coverage` names each on their section and lists what nobody read. A review sent from the page
/// with the receipt carries it and the verdict reports what was read, from the object's record; a
/// review typed on GitHub with the same receipt text is reported as nothing.
mod team {
    use serde_json::{json, Value};

    use super::{call, ok, order_args};
    use crate::app::pull_request::calls::{RouteCall, WriteCall};
    use crate::app::pull_request::test_support::{Scripted, World};
    use crate::review::model::ticks::TickItem;
    use crate::review::receipt::MARKER;
    use crate::router::ReviewWrite;

    fn as_reviewer(world: &World, person: &str, login: &str, route: RouteCall) -> u16 {
        let mut call = world.call(person, route);
        call.viewer.login = login.into();
        let reply = world.answer(&call);
        assert!(reply.status < 400, "{}", reply.body);
        reply.status
    }

    fn tick(world: &World, person: &str, login: &str, item: &str) {
        let ticks = vec![TickItem {
            item: item.into(),
            done: true,
        }];
        as_reviewer(world, person, login, RouteCall::Ticks(ticks));
    }

    fn reviews(forged_body: &str) -> String {
        json!({"data": {"repository": {"pullRequest": {
            "reviewThreads": {"totalCount": 0, "nodes": []},
            "reviews": {"totalCount": 2, "nodes": [
                {"databaseId": 5, "author": {"login": "ana"}, "state": "APPROVED", "body": "sent",
                 "submittedAt": "2026-12-08T01:00:00Z", "url": "https://github.test/o/r/pull/1#pullrequestreview-5", "commit": {"oid": "h1"}},
                {"databaseId": 6, "author": {"login": "mallory"}, "state": "APPROVED", "body": forged_body,
                 "submittedAt": "2026-12-08T01:01:00Z", "url": "https://github.test/o/r/pull/1#pullrequestreview-6", "commit": {"oid": "h1"}}
            ]}}}}})
        .to_string()
    }

    #[test]
    fn coverage_and_what_a_verdict_had_read_come_from_the_objects_own_records() {
        let world = World::new();
        ok(call(&world, "save_reading_order", order_args(0)));
        tick(&world, "gh:1", "ana", "file:src/f0.rs");
        tick(&world, "gh:2", "bo", "file:src/f1.rs");

        world.github.on(
            "/repos/o/r/pulls/1/reviews",
            [Scripted::ok(
                r#"{"id":5,"html_url":"https://github.test/o/r/pull/1#pullrequestreview-5"}"#,
            )],
        );
        let form = "event=approve&body=Looks+good&receipt=1&csrf=k";
        let write = WriteCall::read(ReviewWrite::Submit, form.as_bytes(), true).expect("reads");
        as_reviewer(&world, "gh:1", "ana", RouteCall::Write(write));
        let sent = world
            .github
            .requests()
            .into_iter()
            .find(|e| e.url.ends_with("/pulls/1/reviews"))
            .and_then(|e| e.body)
            .unwrap_or_default();
        let sent: Value = serde_json::from_str(&sent).expect("JSON");
        let body = sent["body"].as_str().unwrap_or_default();
        assert!(body.starts_with("Looks good\n\n"), "{body}");
        assert!(body.contains(MARKER), "{body}");
        assert!(
            body.contains("1 of 3 files and 0 of 1 sections of reading order v1"),
            "{body}"
        );
        assert!(
            body.contains("Not read: `src/f1.rs`, `src/f2.rs`."),
            "{body}"
        );
        assert!(
            body.contains("(https://review.test/r/o/r/pull/1)"),
            "{body}"
        );

        world.github.on("/graphql", [Scripted::ok(reviews(body))]);
        let answer = ok(call(
            &world,
            "get_review_feedback",
            json!({ "owner": "o", "repo": "r", "number": 1 }),
        ));
        let section = &answer["coverage"]["sections"][0];
        assert_eq!(section["readBy"], json!([]), "{answer}");
        assert_eq!(section["partlyReadBy"], json!(["ana", "bo"]), "{answer}");
        assert_eq!(section["unread"][0]["path"], "src/f2.rs", "{answer}");
        assert_eq!(section["unread"].as_array().map(Vec::len), Some(1));
        assert_eq!(answer["coverage"]["totals"]["filesUnread"], 1);
        let verdicts = answer["verdicts"].as_array().cloned().unwrap_or_default();
        let of = |login: &str| {
            verdicts
                .iter()
                .find(|v| v["reviewer"] == login)
                .cloned()
                .unwrap_or_default()
        };
        assert_eq!(of("ana")["read"]["filesRead"], 1, "{answer}");
        assert_eq!(
            of("ana")["read"]["unreadFiles"],
            json!(["src/f1.rs", "src/f2.rs"])
        );
        assert_eq!(
            of("mallory")["read"],
            Value::Null,
            "a typed receipt is nothing"
        );
    }

    #[test]
    fn without_the_option_the_summary_is_the_reviewers_own_and_the_record_is_still_kept() {
        let world = World::new();
        ok(call(&world, "save_reading_order", order_args(0)));
        tick(&world, "gh:1", "ana", "file:src/f0.rs");
        world.github.on(
            "/repos/o/r/pulls/1/reviews",
            [Scripted::ok(r#"{"id":5,"html_url":"u"}"#)],
        );
        let form = "event=approve&body=Looks+good&csrf=k";
        let write = WriteCall::read(ReviewWrite::Submit, form.as_bytes(), true).expect("reads");
        as_reviewer(&world, "gh:1", "ana", RouteCall::Write(write));
        let sent = world
            .github
            .requests()
            .into_iter()
            .find(|e| e.url.ends_with("/pulls/1/reviews"))
            .and_then(|e| e.body)
            .unwrap_or_default();
        let sent: Value = serde_json::from_str(&sent).expect("JSON");
        assert_eq!(sent["body"], "Looks good");
        let rows = world.records().receipts().expect("reads");
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].review_id, "5");
    }
}

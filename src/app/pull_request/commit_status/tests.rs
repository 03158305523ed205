//! The commit status's rules in process (issue #47, part 4), over SQLite in memory and the
//! scripted GitHub: set once on a tool save and a web save with the body GitHub takes; none with
//! `status: off` or a read-only connection; every refusal leaves the order saved and the answer
//! says why; exactly one write per save and per review sent, none on ticks.

use serde_json::{json, Value};

use crate::app::pull_request::calls::{RouteCall, WriteCall};
use crate::app::pull_request::object::Object;
use crate::app::pull_request::relayed::Run;
use crate::app::pull_request::test_support::{
    block_on, config, relayed_call, status_path, Scripted, World,
};
use crate::app::pull_request::tools;
use crate::github::client::GitHub;
use crate::mcp::dispatch::ToolResult;
use crate::ports::github::Method;
use crate::review::model::saved::DocumentKind;
use crate::review::model::ticks::TickItem;
use crate::router::ReviewWrite;
use crate::tools::relay::RelayedCall;
use crate::web::arrange_page::submission;

const ALL: [&str; 3] = ["src/f0.rs", "src/f1.rs", "src/f2.rs"];
const REVIEW_URL: &str = "https://review.test/r/o/r/pull/1";
const CONVENTIONS: &str = "/repos/o/r/contents/.github/logikflow.yml?ref=b1";

fn order() -> Value {
    let files: Vec<Value> = ALL.iter().map(|path| json!({ "path": path })).collect();
    json!({ "sections": [{ "title": "All", "files": files }] })
}

/// `save_reading_order` of [`order`] on top of `base_version`, through the object's dispatch.
fn tool_save(world: &World, base_version: u64, may_write: bool) -> Value {
    let mut arguments = order();
    for (key, value) in [
        ("owner", json!("o")),
        ("repo", json!("r")),
        ("number", json!(1)),
        ("base_version", json!(base_version)),
    ] {
        arguments[key] = value;
    }
    match run_tool(
        world,
        &relayed_call("save_reading_order", arguments, may_write),
    ) {
        ToolResult::Structured(value) => value,
        other => panic!("the save failed: {other:?}"),
    }
}

/// Runs the relayed `call` on `world`'s object (its schema created, as the shell does first).
fn run_tool(world: &World, call: &RelayedCall) -> ToolResult {
    world.records();
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
    let run = Run {
        object: &object,
        github: &github,
        call,
    };
    block_on(tools::run(&run)).expect("the storage answers")
}

/// The arrange editor's save on top of `base_version`, as `gh:9`.
fn web_save(world: &World, base_version: u64, may_write: bool) -> (u16, Value) {
    let form = json!({ "base_version": base_version, "order": order() });
    let submitted = submission(form.to_string().as_bytes()).expect("a well-formed save");
    let mut call = world.call("gh:9", RouteCall::ArrangeSave(submitted));
    call.viewer.may_write = may_write;
    let reply = world.answer(&call);
    (
        reply.status,
        serde_json::from_str(&reply.body).expect("JSON"),
    )
}

/// The bodies of every status write sent so far.
fn status_writes(world: &World) -> Vec<Value> {
    world
        .github
        .requests()
        .into_iter()
        .filter(|e| e.method == Method::Post && e.url.contains("/statuses/"))
        .map(|e| serde_json::from_str(&e.body.unwrap_or_default()).expect("a JSON body"))
        .collect()
}

fn orders_saved(world: &World) -> usize {
    world
        .records()
        .history(DocumentKind::Order)
        .expect("history reads")
        .len()
}

#[test]
fn a_tool_save_sets_one_success_status_with_the_review_link() {
    let world = World::new();
    let answer = tool_save(&world, 0, true);
    assert_eq!(answer["commitStatus"], json!({ "set": true }), "{answer}");
    assert_eq!(
        status_writes(&world),
        [json!({
            "state": "success",
            "target_url": REVIEW_URL,
            "description": "Reading order v1 · 1 section · 3 files to read",
            "context": "LogiKFlow",
        })]
    );
    assert_eq!(
        world.github.count(&status_path("h1")),
        1,
        "on the head read"
    );
    // GitHub requests per save: the first read of this head makes 5 (repository, pull request,
    // one file page, conventions, the GraphQL read) and the status 1; a later save reads 2
    // (the snapshot is remembered) and writes 1.
    assert_eq!(world.github.total(), 6);
    tool_save(&world, 1, true);
    assert_eq!(world.github.total(), 9);
    assert_eq!(status_writes(&world).len(), 2, "one write per save");
}

#[test]
fn a_web_save_sets_the_status_and_its_answer_says_so() {
    let world = World::new();
    tool_save(&world, 0, true);
    let (status, answer) = web_save(&world, 1, true);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["version"], 2);
    assert_eq!(answer["commitStatus"], json!({ "set": true }));
    let writes = status_writes(&world);
    assert_eq!(writes.len(), 2, "one for each save: {writes:?}");
    assert_eq!(writes[1]["target_url"], REVIEW_URL);
    assert_eq!(
        writes[1]["description"],
        "Reading order v2 · 1 section · 3 files to read"
    );
}

#[test]
fn status_off_in_the_conventions_sets_none_and_reads_nothing_more() {
    let on = World::new();
    tool_save(&on, 0, true);
    let world = World::new();
    world.github.on(
        CONVENTIONS,
        [Scripted::ok(
            r#"{"type":"file","encoding":"base64","path":".github/logikflow.yml","content":"c3RhdHVzOiBvZmYK"}"#,
        )],
    );
    let answer = tool_save(&world, 0, true);
    assert_eq!(answer["version"], 1);
    assert_eq!(answer["commitStatus"]["set"], false);
    let reason = answer["commitStatus"]["reason"]
        .as_str()
        .unwrap_or_default();
    assert!(reason.contains("status: off"), "{reason}");
    assert!(status_writes(&world).is_empty());
    // The switch came with the conventions the read makes anyway: one request fewer (no write).
    assert_eq!(world.github.total(), on.github.total() - 1);
    let (_, web) = web_save(&world, 1, true);
    assert_eq!(web["commitStatus"]["set"], false);
    assert!(status_writes(&world).is_empty());
}

#[test]
fn a_read_only_connection_sets_none() {
    let world = World::new();
    // The Worker refuses a read-only grant's save (insufficient_scope); the object holds the
    // rule too, so a read-only call that got here still sends nothing to GitHub.
    let answer = tool_save(&world, 0, false);
    assert_eq!(answer["commitStatus"]["set"], false);
    let reason = answer["commitStatus"]["reason"]
        .as_str()
        .unwrap_or_default();
    assert!(reason.contains("read access only"), "{reason}");
    let (status, web) = web_save(&world, 1, false);
    assert_eq!(status, 200);
    assert_eq!(web["commitStatus"]["set"], false);
    assert!(status_writes(&world).is_empty());
    assert_eq!(orders_saved(&world), 2);
}

#[test]
fn every_refusal_leaves_the_order_saved_and_the_answer_says_why() {
    let refusals = [
        (
            Scripted::status(
                403,
                r#"{"message":"Resource not accessible by integration","status":"403"}"#,
            ),
            "Commit statuses: Read and write",
        ),
        (
            Scripted::status(
                403,
                r#"{"message":"Must have admin rights to Repository."}"#,
            ),
            "Must have admin rights",
        ),
        (Scripted::status(404, r#"{"message":"Not Found"}"#), "404"),
        (
            Scripted::status(
                422,
                r#"{"message":"Validation Failed","errors":[{"resource":"Status","code":"custom","field":"sha","message":"No commit found for SHA: h1"}]}"#,
            ),
            "No commit found for SHA: h1",
        ),
        (
            Scripted::status(500, r#"{"message":"Server Error"}"#),
            "HTTP 500",
        ),
        (Scripted::Timeout, "did not answer"),
        (
            Scripted::status(
                403,
                r#"{"message":"API rate limit exceeded for user ID 1."}"#,
            )
            .header("x-ratelimit-remaining", "0"),
            "rate limit",
        ),
    ];
    for (answer, says) in refusals {
        let world = World::new();
        world.github.on(&status_path("h1"), [answer.clone()]);
        let saved = tool_save(&world, 0, true);
        assert_eq!(saved["saved"], true, "{answer:?}");
        assert_eq!(orders_saved(&world), 1, "{answer:?}: the order is saved");
        assert_eq!(saved["commitStatus"]["set"], false, "{answer:?}");
        let reason = saved["commitStatus"]["reason"].as_str().unwrap_or_default();
        assert!(reason.contains(says), "{answer:?}: {reason}");
        assert_eq!(
            world.github.count(&status_path("h1")),
            1,
            "{answer:?}: a write is sent once, never retried"
        );
        let (status, web) = web_save(&world, 1, true);
        assert_eq!(status, 200, "{answer:?}: the web save is saved too");
        assert_eq!(web["commitStatus"]["set"], false);
        assert_eq!(orders_saved(&world), 2);
    }
}

/// Ticks `items` as `gh:9`.
fn tick(world: &World, items: &[&str]) {
    let ticks = items
        .iter()
        .map(|item| TickItem {
            item: item.to_string(),
            done: true,
        })
        .collect();
    let reply = world.answer(&world.call("gh:9", RouteCall::Ticks(ticks)));
    assert_eq!(reply.status, 200, "{}", reply.body);
}

fn send_review(world: &World) -> Value {
    let write = WriteCall::read(ReviewWrite::Submit, b"event=approve&body=LGTM&csrf=k", true)
        .expect("a well-formed review");
    let reply = world.answer(&world.call("gh:9", RouteCall::Write(write)));
    assert_eq!(reply.status, 200, "{}", reply.body);
    serde_json::from_str(&reply.body).expect("JSON")
}

#[test]
fn ticks_write_none_and_a_review_sent_refreshes_it_once() {
    let world = World::new();
    world.github.on(
        "/repos/o/r/pulls/1/reviews",
        [Scripted::ok(
            r#"{"id":5,"html_url":"https://github.test/o/r/pull/1#pullrequestreview-5"}"#,
        )],
    );
    // A review sent before any order describes nothing: no status.
    send_review(&world);
    assert!(status_writes(&world).is_empty());
    tool_save(&world, 0, true);
    tick(&world, &["file:src/f0.rs", "file:src/f1.rs"]);
    tick(&world, &["file:src/f2.rs"]);
    assert_eq!(status_writes(&world).len(), 1, "ticks write no status");
    let answer = send_review(&world);
    assert_eq!(answer["commitStatus"], json!({ "set": true }), "{answer}");
    let writes = status_writes(&world);
    assert_eq!(writes.len(), 2, "one write per review sent");
    assert_eq!(
        writes[1]["description"],
        "Reading order v1 · 1 section · 1 reviewer, 3 of 3 files read"
    );
}

#[test]
fn the_description_counts_files_read_by_anyone_at_the_head() {
    let world = World::new();
    tool_save(&world, 0, true);
    tick(&world, &["file:src/f0.rs"]);
    let other = world.call(
        "gh:8",
        RouteCall::Ticks(vec![TickItem {
            item: "file:src/f1.rs".into(),
            done: true,
        }]),
    );
    assert_eq!(world.answer(&other).status, 200);
    tool_save(&world, 1, true);
    let writes = status_writes(&world);
    assert_eq!(
        writes[1]["description"],
        "Reading order v2 · 1 section · 2 reviewers, 2 of 3 files read"
    );
}

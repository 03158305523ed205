//! GitHub failing during every tool that reads a pull request, in process (issue #37; these were
//! `tests/e2e/resilience.test.mjs`'s "GitHub faults during every tool", which kept one of them as
//! the smoke that the stand-in's faults reach the Worker through workerd). Each fault is the
//! GitHub stand-in's (`tests/standin/github-standin.mjs`, `applyFault`) answered by the scripted
//! GitHub on the pull request and its files: 500, 502, 503, a timeout, 401, the rate limit, the
//! secondary rate limit and a truncated body. For each, `get_pull_request`, `save_reading_order`
//! and `save_diagram` run through `tools::run`, their answer framed as the JSON-RPC result
//! (`dispatch::tool_reply`): HTTP 200, `isError`, the spec's message; GitHub asked twice for a
//! transient failure and once for a lasting one; nothing saved (the records read back, then
//! `get_pull_request` once GitHub answers again). The timeout is the transport's answer, with the
//! configured limit handed to every exchange: no clock is waited on.
//!
//! What not: the messages' own wording (`errors`' tests) and the client's classification of each
//! answer (`github::client`'s and `github::api`'s tests); the saves' other refusals (`tests`).

use std::cell::RefCell;

use serde_json::{json, Map, Value};

use super::run;
use crate::app::pull_request::object::Object;
use crate::app::pull_request::relayed::Run;
use crate::app::pull_request::test_support::{
    block_on, files_path, script_pull, Scripted, ScriptedGitHub, World, GITHUB,
};
use crate::config::Config;
use crate::github::client::GitHub;
use crate::mcp::catalog::ToolName;
use crate::mcp::dispatch::{tool_reply, Era, ToolRequest};
use crate::ports::clock::Clock;
use crate::ports::github::{Answer, Exchange, GitHubTransport, NoAnswer};
use crate::review::model::saved::DocumentKind;

/// The GitHub time limit the end-to-end file ran with (`GITHUB_TIMEOUT_MS`).
const TIME_LIMIT_MS: u64 = 1500;

/// The pull request's path, where every fault is scripted (with its first page of files).
const PULL: &str = "/repos/o/r/pulls/1";

/// The scripted GitHub, with the time limit each exchange was given kept.
struct Timed<'a> {
    github: &'a ScriptedGitHub,
    limits: RefCell<Vec<u64>>,
}

impl GitHubTransport for Timed<'_> {
    async fn exchange(&self, exchange: Exchange, timeout_ms: u64) -> Result<Answer, NoAnswer> {
        self.limits.borrow_mut().push(timeout_ms);
        self.github.exchange(exchange, timeout_ms).await
    }
}

/// Runs `tool` with `arguments` on `world`'s object as the relay hands it over, with GitHub's
/// time limit at [`TIME_LIMIT_MS`]: the JSON-RPC result's HTTP status and body, and the time
/// limits the exchanges were given.
fn call(world: &World, tool: &str, arguments: Value) -> (u16, Value, Vec<u64>) {
    world.records();
    let config = Config::from_vars(|name| match name {
        "GITHUB_API_URL" => Some(GITHUB.to_string()),
        "GITHUB_TIMEOUT_MS" => Some(TIME_LIMIT_MS.to_string()),
        _ => None,
    });
    let transport = Timed {
        github: &world.github,
        limits: RefCell::new(Vec::new()),
    };
    let github = GitHub::new(&config, "t", &transport, &world.clock);
    let object = Object {
        storage: &world.sql,
        platform: &world.around,
        memo: &world.memo,
        sweep: &world.sweep,
        clock: &world.clock,
        schema_ready: &world.schema_ready,
    };
    let relayed = super::tests::relayed(tool, arguments.clone());
    let result = block_on(run(&Run {
        object: &object,
        github: &github,
        call: &relayed,
    }))
    .expect("the storage answers");
    let request = ToolRequest {
        id: json!(1),
        era: Era::Modern,
        tool: ToolName::parse(tool).expect("a catalog tool"),
        arguments: Map::new(),
        client_name: None,
    };
    let reply = tool_reply(&request, result);
    let body: Value = serde_json::from_str(&reply.body).expect("a JSON-RPC reply");
    (reply.status, body, transport.limits.into_inner())
}

fn target() -> Value {
    json!({ "owner": "o", "repo": "r", "number": 1 })
}

fn order_args(base_version: u64, note: &str) -> Value {
    let files: Vec<Value> = ["src/f0.rs", "src/f1.rs", "src/f2.rs"]
        .iter()
        .map(|path| json!({ "path": path }))
        .collect();
    json!({
        "owner": "o", "repo": "r", "number": 1, "base_version": base_version,
        "sections": [{ "title": "Everything", "note": note, "files": files }],
    })
}

fn diagram_args(base_version: u64) -> Value {
    json!({
        "owner": "o", "repo": "r", "number": 1, "base_version": base_version,
        "diagram": {
            "nodes": [
                { "id": "a", "title": "Start", "kind": "trigger" },
                { "id": "b", "title": "End", "file": "src/f1.rs" }
            ],
            "edges": [{ "from": "a", "to": "b" }]
        },
    })
}

/// The result of a successful call.
fn succeeded(world: &World, tool: &str, arguments: Value) -> Value {
    let (status, body, _) = call(world, tool, arguments);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["isError"], false, "{body}");
    body["result"]["structuredContent"].clone()
}

/// What is saved: the latest order's and diagram's versions and notes, and how many of each.
fn saved(world: &World) -> (Option<u64>, Option<u64>, usize, usize) {
    let records = world.records();
    let current = records.current().expect("the records read");
    let count = |kind| records.history(kind).expect("the history reads").len();
    (
        current.order.map(|order| order.version),
        current.diagram.map(|diagram| diagram.version),
        count(DocumentKind::Order),
        count(DocumentKind::Diagram),
    )
}

/// One of the stand-in's faults: GitHub's answer to the pull request and its files, how often
/// one tool asks for the pull request before it gives up, and what its message says.
struct Fault {
    answer: Scripted,
    attempts: usize,
    starts_with: &'static str,
    contains: &'static str,
}

/// The stand-in's error body (`shapes.errorBody`).
fn error_body(status: u16, message: &str) -> String {
    json!({
        "message": message,
        "documentation_url": "https://docs.github.com/rest",
        "status": status.to_string(),
    })
    .to_string()
}

/// Every tool that reads the pull request, with `fault` on it: the message, GitHub asked
/// `fault.attempts` times by each, the time limit on every exchange, and nothing saved.
fn every_tool_gives_the_message_and_saves_nothing(fault: Fault) {
    let world = World::new();
    // Something saved before the fault, so "nothing saved" means nothing more.
    succeeded(&world, "save_reading_order", order_args(0, "before"));
    succeeded(&world, "save_diagram", diagram_args(0));
    let current = succeeded(&world, "get_pull_request", target());
    assert_eq!(
        (&current["baseVersion"], &current["diagramBaseVersion"]),
        (&json!(1), &json!(1)),
        "{current}"
    );
    let before = saved(&world);
    world.github.on(PULL, [fault.answer.clone()]);
    world.github.on(&files_path(1), [fault.answer.clone()]);
    for (tool, args) in [
        ("get_pull_request", target()),
        ("save_reading_order", order_args(1, "during the fault")),
        ("save_diagram", diagram_args(1)),
    ] {
        let asked = world.github.count(PULL);
        let (status, body, limits) = call(&world, tool, args);
        assert_eq!(status, 200, "{tool}: {body}");
        let result = &body["result"];
        assert_eq!(result["isError"], true, "{tool}: {body}");
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.starts_with(fault.starts_with), "{tool}: {text}");
        assert!(text.contains(fault.contains), "{tool}: {text}");
        assert_eq!(
            world.github.count(PULL) - asked,
            fault.attempts,
            "{tool}: GitHub asked for the pull request"
        );
        assert!(
            !limits.is_empty() && limits.iter().all(|limit| *limit == TIME_LIMIT_MS),
            "{tool}: every exchange has the configured time limit: {limits:?}"
        );
        assert_eq!(saved(&world), before, "{tool} saved nothing");
    }
    // GitHub answers again: the pull request reads as before the fault.
    script_pull(&world.github, "h1", 3);
    let after = succeeded(&world, "get_pull_request", target());
    assert_eq!(after["baseVersion"], current["baseVersion"], "{after}");
    assert_eq!(
        after["diagramBaseVersion"], current["diagramBaseVersion"],
        "{after}"
    );
    assert_eq!(
        after["currentOrder"]["sections"][0]["note"], "before",
        "{after}"
    );
    assert_eq!(saved(&world), before);
}

fn unavailable(status: u16, contains: &'static str) -> Fault {
    Fault {
        answer: Scripted::status(status, error_body(status, "Server Error")),
        attempts: 2,
        starts_with: "GitHub is not answering properly right now",
        contains,
    }
}

#[test]
fn a_500_gives_every_tool_the_message_and_saves_nothing() {
    every_tool_gives_the_message_and_saves_nothing(unavailable(500, "HTTP 500, twice"));
}

#[test]
fn a_502_gives_every_tool_the_message_and_saves_nothing() {
    every_tool_gives_the_message_and_saves_nothing(unavailable(502, "HTTP 502, twice"));
}

#[test]
fn a_503_gives_every_tool_the_message_and_saves_nothing() {
    every_tool_gives_the_message_and_saves_nothing(unavailable(503, "HTTP 503, twice"));
}

#[test]
fn a_timeout_gives_every_tool_the_message_and_saves_nothing() {
    every_tool_gives_the_message_and_saves_nothing(Fault {
        answer: Scripted::Timeout,
        attempts: 2,
        starts_with: "GitHub did not answer in time",
        contains: "(twice)",
    });
}

#[test]
fn a_401_gives_every_tool_the_message_and_saves_nothing() {
    every_tool_gives_the_message_and_saves_nothing(Fault {
        answer: Scripted::status(401, error_body(401, "Bad credentials")),
        attempts: 1,
        starts_with: "GitHub access for this connection has expired",
        contains: "Reconnect LogiKFlow",
    });
}

#[test]
fn the_rate_limit_gives_every_tool_the_message_and_saves_nothing() {
    // The stand-in's: remaining 0, reset a minute after the clock's time.
    let reset = World::new().clock.now_seconds() + 60;
    every_tool_gives_the_message_and_saves_nothing(Fault {
        answer: Scripted::status(
            403,
            error_body(403, "API rate limit exceeded for user ID 1."),
        )
        .header("x-ratelimit-limit", "5000")
        .header("x-ratelimit-remaining", "0")
        .header("x-ratelimit-reset", &reset.to_string()),
        attempts: 1,
        starts_with: "GitHub's rate limit was reached",
        contains: "resets in about 60 seconds",
    });
}

#[test]
fn the_secondary_rate_limit_gives_every_tool_the_message_and_saves_nothing() {
    every_tool_gives_the_message_and_saves_nothing(Fault {
        answer: Scripted::status(
            403,
            error_body(
                403,
                "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
            ),
        )
        .header("retry-after", "30"),
        attempts: 1,
        starts_with: "GitHub's rate limit was reached",
        contains: "30 seconds",
    });
}

#[test]
fn a_truncated_answer_gives_every_tool_the_message_and_saves_nothing() {
    // The stand-in's: a 200 with the first half of the JSON.
    every_tool_gives_the_message_and_saves_nothing(Fault {
        answer: Scripted::ok(r#"{"number":1,"title":"T","state":"open","html_url":"https://gi"#),
        attempts: 1,
        starts_with: "GitHub sent an answer",
        contains: "could not read",
    });
}

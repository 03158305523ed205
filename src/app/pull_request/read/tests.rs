//! The caller's read in process, on the scripted GitHub and a cache in memory: what a first read
//! asks GitHub and caches, a repeat read from the cache, concurrent first reads of one head
//! building its snapshot once, a snapshot read with a passing failure served but not cached
//! (the conventions file read again, its preference then cached), and a lasting refusal of an
//! optional file cached as absent (from `tests/e2e/snapshot-cache.test.mjs`, issue #37).

use futures_util::future::join;

use super::{read_as_viewer_in_object, read_in_object, Files, ReadMemo};
use crate::app::pull_request::test_support::{
    block_on, clock, config, files_path, script_pull, Around, Scripted, ScriptedGitHub,
};
use crate::github::api::GitHubError;
use crate::github::client::GitHub;
use crate::router::PullPath;
use crate::tools::get_pull_request::snapshot_key;

const PULL: (&str, &str, u64) = ("o", "r", 1);
const CONVENTIONS: &str = "/repos/o/r/contents/.github/logikflow.yml?ref=b1";

fn read(
    around: &Around,
    memo: &ReadMemo,
    github: &ScriptedGitHub,
) -> Result<super::PullRead, GitHubError> {
    let (config, clock) = (config(), clock());
    let client = GitHub::new(&config, "t", github, &clock);
    block_on(read_in_object(around, memo, &client, PULL, Files::Whole))
}

#[test]
fn a_first_read_builds_and_caches_the_snapshot_and_a_repeat_reads_it() {
    let (around, memo, github) = (
        Around::default(),
        ReadMemo::default(),
        ScriptedGitHub::new(),
    );
    script_pull(&github, "h1", 3);
    let first = read(&around, &memo, &github).unwrap();
    assert_eq!(first.snapshot.files.len(), 3);
    assert_eq!(first.pull.head.sha, "h1");
    // Repository, pull request, one file page, the conventions file, the GraphQL read.
    assert_eq!(github.total(), 5);
    assert_eq!(github.count(CONVENTIONS), 1);
    assert!(around
        .cache
        .borrow()
        .contains_key(&snapshot_key("o", "r", "b1", "h1")));
    let again = read(&around, &memo, &github).unwrap();
    assert_eq!(again.snapshot.files.len(), 3);
    assert_eq!(
        github.total(),
        7,
        "a repeat read asks GitHub for the pull request only"
    );
    assert_eq!(github.count(&files_path(1)), 1);
}

#[test]
fn concurrent_first_reads_of_a_head_build_its_snapshot_once() {
    let (around, memo, github) = (
        Around::default(),
        ReadMemo::default(),
        ScriptedGitHub::new(),
    );
    script_pull(&github, "h1", 150);
    github.slow();
    let (config, clock) = (config(), clock());
    let client = GitHub::new(&config, "t", &github, &clock);
    let (a, b) = block_on(join(
        read_in_object(&around, &memo, &client, PULL, Files::Whole),
        read_in_object(&around, &memo, &client, PULL, Files::Whole),
    ));
    assert_eq!(a.unwrap().snapshot.files.len(), 150);
    assert_eq!(b.unwrap().snapshot.files.len(), 150);
    assert_eq!(github.count(&files_path(1)), 1);
    assert_eq!(github.count(&files_path(2)), 1);
    assert_eq!(github.count("/graphql"), 1);
    assert!(
        around.pauses.get() > 0,
        "the second read waited for the first"
    );
    assert_eq!(around.writes.get(), 1);
}

#[test]
fn a_snapshot_read_while_github_failed_in_passing_is_served_but_not_cached() {
    for (path, fault) in [
        ("/graphql", Scripted::status(502, "")),
        (CONVENTIONS, Scripted::status(503, "")),
        ("/graphql", Scripted::Timeout),
    ] {
        let (around, memo, github) = (
            Around::default(),
            ReadMemo::default(),
            ScriptedGitHub::new(),
        );
        script_pull(&github, "h1", 2);
        github.on(path, [fault]);
        let first = read(&around, &memo, &github).unwrap();
        assert_eq!(first.snapshot.files.len(), 2);
        assert!(around.cache.borrow().is_empty(), "{path}: not cached");
        // The next read builds again, and caches once GitHub answers (no conventions file).
        script_pull(&github, "h1", 2);
        github.on(CONVENTIONS, [Scripted::status(404, "{}")]);
        read(&around, &memo, &github).unwrap();
        assert_eq!(github.count(&files_path(1)), 2);
        assert_eq!(around.writes.get(), 1);
    }
}

#[test]
fn file_pages_that_do_not_add_up_are_not_cached_and_say_so() {
    let (around, memo, github) = (
        Around::default(),
        ReadMemo::default(),
        ScriptedGitHub::new(),
    );
    script_pull(&github, "h1", 2);
    // The pull request says three files (a push landed between the reads).
    github.on(
        "/repos/o/r/pulls/1",
        [Scripted::ok(
            r#"{"number":1,"state":"open","html_url":"u","base":{"ref":"main","sha":"b1"},"head":{"ref":"f","sha":"h1"},"changed_files":3}"#,
        )],
    );
    read(&around, &memo, &github).unwrap();
    assert!(around.cache.borrow().is_empty());
    let lines = around.lines.borrow();
    assert!(
        lines.iter().any(|line| line.contains("do not add up")),
        "{lines:?}"
    );
}

#[test]
fn a_failed_build_leaves_no_mark_and_the_next_read_builds() {
    let (around, memo, github) = (
        Around::default(),
        ReadMemo::default(),
        ScriptedGitHub::new(),
    );
    script_pull(&github, "h1", 2);
    github.on(&files_path(1), [Scripted::status(401, "{}")]);
    assert_eq!(
        read(&around, &memo, &github).err(),
        Some(GitHubError::Unauthorized)
    );
    script_pull(&github, "h1", 2);
    assert_eq!(
        read(&around, &memo, &github).unwrap().snapshot.files.len(),
        2
    );
    assert_eq!(around.pauses.get(), 0, "nobody waited for the failed build");
}

#[test]
fn a_viewer_whom_github_shows_no_pull_request_gets_the_reason() {
    let (around, memo, github) = (
        Around::default(),
        ReadMemo::default(),
        ScriptedGitHub::new(),
    );
    let (config, clock) = (config(), clock());
    let client = GitHub::new(&config, "t", &github, &clock);
    let target = PullPath {
        owner: "o".into(),
        repo: "r".into(),
        number: 1,
    };
    let message = block_on(read_as_viewer_in_object(&around, &memo, &client, &target))
        .err()
        .unwrap();
    assert!(message.contains("o/r#1"), "{message}");
    assert!(around.cache.borrow().is_empty());
}

/// The relayed `get_pull_request` as the object runs it, for `o/r#1`.
fn get_pull_request(
    around: &Around,
    memo: &ReadMemo,
    client: &GitHub<'_, ScriptedGitHub>,
) -> serde_json::Value {
    use crate::mcp::dispatch::ToolResult;
    let call = crate::tools::relay::RelayedCall {
        tool: "get_pull_request".into(),
        arguments: serde_json::json!({ "owner": "o", "repo": "r", "number": 1 })
            .as_object()
            .cloned()
            .unwrap_or_default(),
        github_token: "t".into(),
        may_write: true,
        base_url: "https://review.test".into(),
        login: "octo".into(),
        client: None,
    };
    let current = Default::default();
    let args = crate::tools::get_pull_request::parse_args(&call.arguments).unwrap();
    let result = block_on(super::get_pull_request_in_object(
        around,
        memo,
        client,
        (&args, &call),
        current,
    ));
    let text = match result {
        ToolResult::Json(text) | ToolResult::JsonQuoted { text, .. } => text,
        other => panic!("not a JSON result: {other:?}"),
    };
    serde_json::from_str(&text).unwrap()
}

#[test]
fn get_pull_request_builds_once_then_answers_from_the_listing() {
    let (around, memo, github) = (
        Around::default(),
        ReadMemo::default(),
        ScriptedGitHub::new(),
    );
    script_pull(&github, "h1", 3);
    let (config, clock) = (config(), clock());
    let client = GitHub::new(&config, "t", &github, &clock);
    let first = get_pull_request(&around, &memo, &client);
    assert_eq!(github.total(), 5);
    let again = get_pull_request(&around, &memo, &client);
    assert_eq!(first, again, "a repeat read answers the same");
    assert_eq!(
        github.total(),
        7,
        "a repeat read asks GitHub for the pull request only"
    );
    assert!(
        around.cache.borrow().len() >= 2,
        "the snapshot and its listing are cached"
    );
    // A new object instance (no memo) reads the listing from the cache.
    let reads = around.reads.get();
    let third = get_pull_request(&around, &ReadMemo::default(), &client);
    assert_eq!(first, third);
    assert_eq!(around.reads.get(), reads + 1);
    assert_eq!(github.count(&files_path(1)), 1);
}

/// The conventions file of `o/r` at `b1`, as GitHub's contents API sends it: it wants a diagram
/// for every pull request.
fn conventions_always() -> Scripted {
    Scripted::ok(
        r#"{"type":"file","encoding":"base64","path":".github/logikflow.yml","content":"IyBMb2dpS0Zsb3cgc2V0dGluZ3MKZGlhZ3JhbXM6IGFsd2F5cwo="}"#,
    )
}

#[test]
fn a_conventions_file_that_failed_is_read_again_and_its_preference_then_cached() {
    let (around, memo, github) = (
        Around::default(),
        ReadMemo::default(),
        ScriptedGitHub::new(),
    );
    script_pull(&github, "h1", 2);
    // Both tries fail (a 5xx is tried once more): the read is served, nothing preferred.
    github.on(CONVENTIONS, [Scripted::status(502, "")]);
    let during = read(&around, &memo, &github).unwrap();
    assert_eq!(during.snapshot.diagram_preference, "ask");
    assert_eq!(github.count(CONVENTIONS), 2);
    assert!(around.cache.borrow().is_empty(), "not cached");
    github.on(CONVENTIONS, [conventions_always()]);
    let after = read(&around, &memo, &github).unwrap();
    assert_eq!(after.snapshot.diagram_preference, "always", "read again");
    // That complete snapshot is cached: a third read asks for no file.
    let asked = github.count(CONVENTIONS);
    let cached = read(&around, &memo, &github).unwrap();
    assert_eq!(cached.snapshot.diagram_preference, "always");
    assert_eq!(github.count(CONVENTIONS), asked);
}

#[test]
fn a_lasting_refusal_of_an_optional_file_does_not_stop_caching() {
    // An app without Contents access: GitHub refuses the build files (one GraphQL read) and the
    // conventions file for good. They count as absent, and the snapshot is cached.
    let (around, memo, github) = (
        Around::default(),
        ReadMemo::default(),
        ScriptedGitHub::new(),
    );
    script_pull(&github, "h1", 2);
    let refused = r#"{"message":"Resource not accessible by integration"}"#;
    github.on("/graphql", [Scripted::status(403, refused)]);
    github.on(CONVENTIONS, [Scripted::status(403, refused)]);
    let first = read(&around, &memo, &github).unwrap();
    assert_eq!(first.snapshot.files.len(), 2);
    assert_eq!(around.writes.get(), 1, "cached");
    let (graphql, conventions) = (github.count("/graphql"), github.count(CONVENTIONS));
    assert_eq!((graphql, conventions), (1, 1), "a refusal is not retried");
    read(&around, &ReadMemo::default(), &github).unwrap();
    assert_eq!(
        github.count("/graphql"),
        graphql,
        "the repeat read asks no file"
    );
    assert_eq!(github.count(CONVENTIONS), conventions);
}

#[test]
fn a_snapshot_too_large_to_cache_is_served_and_remembered_only_in_memory() {
    // The cache declines the write (KV would need more than its 256 parts, `kv_parts`): the read
    // is served, the object's memory answers a repeat read with the access check alone, and a
    // read the object has no memory of (after a restart) fetches the files again.
    let (around, memo, github) = (
        Around::default(),
        ReadMemo::default(),
        ScriptedGitHub::new(),
    );
    around.decline_writes.set(true);
    script_pull(&github, "h1", 320);
    let (config, clock) = (config(), clock());
    let client = GitHub::new(&config, "t", &github, &clock);
    let first = get_pull_request(&around, &memo, &client);
    assert_eq!(first["files"].as_array().map(Vec::len), Some(320));
    assert_eq!(github.total(), 4 + 4, "ceil(320/100) + 4");
    assert!(around.cache.borrow().is_empty(), "not cached");
    assert!(
        around
            .lines
            .borrow()
            .iter()
            .any(|line| line.contains("too large to cache")),
        "{:?}",
        around.lines.borrow()
    );
    let again = get_pull_request(&around, &memo, &client);
    assert_eq!(again, first);
    assert_eq!(github.total(), 8 + 2, "served from the object's memory");
    let restarted = get_pull_request(&around, &ReadMemo::default(), &client);
    assert_eq!(restarted, first);
    assert_eq!(
        github.total(),
        10 + 8,
        "nothing was cached: the files again"
    );
}

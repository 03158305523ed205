//! `get_pull_request`'s rules that `tests/e2e/get-pull-request.test.mjs` used to check through
//! `wrangler dev` (issue #37), run here through the same dispatch on the scripted GitHub: a
//! missing or hidden pull request, one 5xx retried, bad arguments naming every problem, GitHub's
//! 3,000-file cap within the request budget, the patch caps, and change ids kept across reads and
//! a push elsewhere.
//!
//! What not: GitHub's other failures of the spec's error table (401, rate limits, 5xx twice, a
//! timeout, a truncated answer) are `super::super::fault_tests`, for every tool. The small pull
//! request's fields on the stand-in's demo data (the tool's smoke case) and a repeat read served
//! by the KV cache as workerd serves it stay end to end.

use serde_json::{json, Value};

use super::{call, ok, refused, world_with_a_split_file};
use crate::app::pull_request::test_support::{files_path, script_pull, Scripted, World};

const PULL: &str = "/repos/o/r/pulls/1";

fn target() -> Value {
    json!({ "owner": "o", "repo": "r", "number": 1 })
}

#[test]
fn a_missing_or_hidden_pull_request_is_one_message() {
    let world = World::new();
    let missing = refused(call(
        &world,
        "get_pull_request",
        json!({ "owner": "o", "repo": "r", "number": 999 }),
    ));
    let hidden = World::new();
    hidden.github.on(
        "/repos/o/r",
        [Scripted::status(404, r#"{"message":"Not Found"}"#)],
    );
    hidden
        .github
        .on(PULL, [Scripted::status(404, r#"{"message":"Not Found"}"#)]);
    let hidden = refused(call(&hidden, "get_pull_request", target()));
    for text in [missing, hidden] {
        assert!(
            text.starts_with(
                "GitHub says this pull request doesn't exist or this account can't see it"
            ),
            "{text}"
        );
    }
}

#[test]
fn one_5xx_is_retried_and_the_read_succeeds() {
    let world = World::new();
    let pull = world.github.requests();
    assert!(pull.is_empty());
    script_pull(&world.github, "h1", 3);
    let good = json!({ "number": 1, "title": "T", "state": "open",
        "html_url": "https://github.test/o/r/pull/1", "base": { "ref": "main", "sha": "b1" },
        "head": { "ref": "f", "sha": "h1" }, "changed_files": 3, "additions": 3, "deletions": 0,
        "review_comments": 0 });
    world.github.on(
        PULL,
        [Scripted::status(503, ""), Scripted::ok(good.to_string())],
    );
    let read = ok(call(&world, "get_pull_request", target()));
    assert_eq!(read["files"].as_array().map(Vec::len), Some(3), "{read}");
    assert_eq!(world.github.count(PULL), 2, "tried once more");
}

#[test]
fn bad_arguments_name_every_problem_before_github() {
    let world = World::new();
    let text = refused(call(
        &world,
        "get_pull_request",
        json!({ "owner": "a/b", "number": 0, "include_patches": "yes" }),
    ));
    assert!(text.starts_with("The request is invalid: "), "{text}");
    for part in [
        "owner must be",
        "repo is required",
        "number must be a positive integer",
        "include_patches must be true or false",
    ] {
        assert!(text.contains(part), "{part} in {text}");
    }
    assert_eq!(world.github.total(), 0);
}

#[test]
fn github_lists_3000_of_3200_files_within_the_budget_and_says_so() {
    let world = World::new();
    script_pull(&world.github, "h1", 3200);
    let read = ok(call(&world, "get_pull_request", target()));
    assert_eq!(read["files"].as_array().map(Vec::len), Some(3000));
    assert_eq!(read["filesTruncatedByGitHub"], true);
    assert_eq!(
        world.github.count(&files_path(31)),
        0,
        "page 31 is never asked"
    );
    let used = world.github.total();
    assert!(used <= 30 + 4, "used {used} requests");
}

#[test]
fn patches_are_capped_per_file_and_per_response_and_a_binary_says_unavailable() {
    let world = World::new();
    script_pull(&world.github, "h1", 320);
    let big = format!(
        "@@ -1,1 +1,2000 @@\n a\n{}",
        (0..2000)
            .map(|i| format!("+line {i} of a long file\n"))
            .collect::<String>()
    );
    let page: Vec<Value> = (0..100)
        .map(|i| {
            json!({ "filename": format!("src/f{i}.rs"), "status": "modified", "additions": 2000,
                    "deletions": 0, "patch": big, "sha": format!("s{i}") })
        })
        .collect();
    world.github.on(
        &files_path(1),
        [Scripted::ok(Value::Array(page).to_string())],
    );
    let read = ok(call(
        &world,
        "get_pull_request",
        json!({ "owner": "o", "repo": "r", "number": 1, "include_patches": true }),
    ));
    assert!(read.to_string().len() <= 400_000);
    for file in read["files"].as_array().into_iter().flatten() {
        let patch = file["patch"].as_str().unwrap_or_default();
        assert!(patch.len() <= 20_000, "{}", file["path"]);
        assert!(
            !patch.is_empty() || file["patchTruncated"] == true || file["patchUnavailable"] == true,
            "{}",
            file["path"]
        );
    }
    assert!(read["files"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|f| f["patch"].as_str().is_some_and(|p| p.starts_with("@@"))));

    let small = World::new();
    let page = json!([
        { "filename": "src/f0.rs", "status": "modified", "additions": 1, "deletions": 0,
          "patch": "@@ -1,1 +1,2 @@\n a\n+b0", "sha": "s0" },
        { "filename": "logo.png", "status": "added", "additions": 0, "deletions": 0, "sha": "s1" },
        { "filename": "src/f2.rs", "status": "modified", "additions": 1, "deletions": 0,
          "patch": "@@ -1,1 +1,2 @@\n a\n+b2", "sha": "s2" },
    ]);
    small
        .github
        .on(&files_path(1), [Scripted::ok(page.to_string())]);
    let read = ok(call(
        &small,
        "get_pull_request",
        json!({ "owner": "o", "repo": "r", "number": 1, "include_patches": true }),
    ));
    assert_eq!(read["files"][1]["path"], "logo.png", "{read}");
    assert_eq!(read["files"][1]["patchUnavailable"], true, "{read}");
}

/// Every change id of a read.
fn change_ids(read: &Value) -> Vec<String> {
    read["files"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|f| f["changes"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["id"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn change_ids_are_stable_across_reads_and_survive_a_push_elsewhere() {
    let world = world_with_a_split_file();
    let first = ok(call(&world, "get_pull_request", target()));
    let again = ok(call(&world, "get_pull_request", target()));
    assert_eq!(again["files"], first["files"]);
    let before = change_ids(&first);
    assert_eq!(before.len(), 2, "{first}");
    // The push adds a line to the first change: the second keeps its content, one line lower.
    script_pull(&world.github, "h2", 3);
    let page = json!([
        { "filename": "src/f0.rs", "status": "modified", "additions": 1, "deletions": 0,
          "patch": "@@ -1,1 +1,2 @@\n a\n+b0", "sha": "s0" },
        { "filename": "src/f1.rs", "status": "modified", "additions": 1, "deletions": 0,
          "patch": "@@ -1,1 +1,2 @@\n a\n+b1", "sha": "s1" },
        { "filename": "src/f2.rs", "status": "modified", "additions": 2, "deletions": 0,
          "patch": "@@ -1,1 +1,3 @@\n a\n+pushed\n+b2\n@@ -40,1 +42,2 @@\n z\n+y2", "sha": "s2b" },
    ]);
    world
        .github
        .on(&files_path(1), [Scripted::ok(page.to_string())]);
    let after = ok(call(&world, "get_pull_request", target()));
    assert_eq!(after["pullRequest"]["headSha"], "h2");
    let now = change_ids(&after);
    let kept = now.iter().filter(|id| before.contains(id)).count();
    assert_eq!(now.len(), 2, "{after}");
    assert_eq!(
        kept, 1,
        "only the pushed hunk gets a new id: {before:?} {now:?}"
    );
}

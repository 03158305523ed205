//! The client's rules against the scripted GitHub: one retry of a read on a passing failure,
//! exactly one attempt of a write, each failure classified, the headers every request carries.

use super::GitHub;
use crate::app::pull_request::test_support::{block_on, clock, config, Scripted, ScriptedGitHub};
use crate::github::api::GitHubError;
use crate::ports::clock::Clock;
use crate::ports::github::Method;

const PATH: &str = "/repos/o/r";

#[derive(serde::Deserialize, Debug, PartialEq)]
struct Repo {
    id: u64,
}

fn get(github: &ScriptedGitHub) -> Result<Repo, GitHubError> {
    let (config, clock) = (config(), clock());
    let client = GitHub::new(&config, "ghu_token", github, &clock);
    block_on(client.get::<Repo>(PATH))
}

#[test]
fn a_read_carries_the_token_and_our_headers() {
    let github = ScriptedGitHub::new();
    github.on(PATH, [Scripted::ok(r#"{"id":7}"#)]);
    assert_eq!(get(&github), Ok(Repo { id: 7 }));
    let request = &github.requests()[0];
    assert_eq!(request.method, Method::Get);
    assert_eq!(request.url, "https://github.test/repos/o/r");
    let header = |name: &str| {
        request
            .headers
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.as_str())
    };
    assert_eq!(header("authorization"), Some("Bearer ghu_token"));
    assert_eq!(header("user-agent"), Some("logikflow"));
    assert_eq!(header("x-github-api-version"), Some("2022-11-28"));
    assert_eq!(header("content-type"), None);
}

/// Fails when the retry is removed (one request, and the 502 would be the answer).
#[test]
fn a_read_is_tried_once_more_after_a_5xx_a_timeout_or_a_lost_connection() {
    for fault in [
        Scripted::status(502, "bad gateway"),
        Scripted::Timeout,
        Scripted::Network,
    ] {
        let github = ScriptedGitHub::new();
        github.on(PATH, [fault, Scripted::ok(r#"{"id":1}"#)]);
        assert_eq!(get(&github), Ok(Repo { id: 1 }));
        assert_eq!(github.count(PATH), 2);
    }
}

#[test]
fn a_read_gives_up_after_the_second_failure() {
    let github = ScriptedGitHub::new();
    github.on(PATH, [Scripted::status(503, "")]);
    assert_eq!(get(&github), Err(GitHubError::Unavailable(503)));
    assert_eq!(github.count(PATH), 2);
    let github = ScriptedGitHub::new();
    github.on(PATH, [Scripted::Timeout]);
    assert_eq!(get(&github), Err(GitHubError::Timeout));
    assert_eq!(github.count(PATH), 2);
}

#[test]
fn a_lasting_refusal_is_not_retried() {
    let github = ScriptedGitHub::new();
    github.on(
        PATH,
        [Scripted::status(401, r#"{"message":"Bad credentials"}"#)],
    );
    assert_eq!(get(&github), Err(GitHubError::Unauthorized));
    assert_eq!(github.count(PATH), 1);
    // Unscripted: GitHub's 404.
    assert_eq!(get(&ScriptedGitHub::new()), Err(GitHubError::NotFound));
}

#[test]
fn a_rate_limit_says_when_it_resets_by_the_clock() {
    let github = ScriptedGitHub::new();
    let reset = (clock().now_seconds() + 90).to_string();
    github.on(
        PATH,
        [
            Scripted::status(403, r#"{"message":"API rate limit exceeded"}"#)
                .header("x-ratelimit-remaining", "0")
                .header("x-ratelimit-reset", &reset),
        ],
    );
    assert_eq!(
        get(&github),
        Err(GitHubError::RateLimited {
            retry_after_seconds: Some(90)
        })
    );
    assert_eq!(github.count(PATH), 1);
}

#[test]
fn an_unreadable_answer_and_an_absent_optional_file() {
    let github = ScriptedGitHub::new();
    github.on(PATH, [Scripted::ok("{\"id\":")]);
    assert!(matches!(get(&github), Err(GitHubError::Malformed(_))));
    let (config, clock) = (config(), clock());
    let client = GitHub::new(&config, "t", &github, &clock);
    let absent = block_on(client.get_optional::<Repo>("/repos/o/r/contents/x"));
    assert_eq!(absent, Ok(None));
}

#[test]
fn a_graphql_read_is_posted_and_retried_like_a_get() {
    let github = ScriptedGitHub::new();
    github.on("/graphql", [Scripted::status(500, ""), Scripted::ok("{}")]);
    let (config, clock) = (config(), clock());
    let client = GitHub::new(&config, "t", &github, &clock);
    assert_eq!(
        block_on(client.post("/graphql", "{\"query\":\"\"}")),
        Ok("{}".into())
    );
    let requests = github.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].method, Method::Post);
    assert_eq!(requests[0].body.as_deref(), Some("{\"query\":\"\"}"));
    assert!(requests[0]
        .headers
        .contains(&("content-type", "application/json".to_string())));
}

/// Fails when a write is retried: a retry after a lost answer could post a comment twice.
#[test]
fn a_write_is_sent_exactly_once_whatever_happens() {
    let write = "/repos/o/r/pulls/1/reviews";
    let cases = [
        (Scripted::status(502, ""), 502),
        (Scripted::Timeout, 504),
        (Scripted::Network, 502),
        (
            Scripted::status(
                422,
                r#"{"message":"Validation Failed","errors":["line is outside the diff"]}"#,
            ),
            422,
        ),
    ];
    for (fault, status) in cases {
        let github = ScriptedGitHub::new();
        github.on(write, [fault, Scripted::ok("{}")]);
        let (config, clock) = (config(), clock());
        let client = GitHub::new(&config, "t", &github, &clock);
        let refusal = block_on(client.write(write, "{}")).unwrap_err();
        assert_eq!(refusal.status, status);
        assert_eq!(github.count(write), 1);
    }
}

#[test]
fn a_write_refused_by_a_rate_limit_says_so() {
    let write = "/repos/o/r/pulls/1/comments";
    let github = ScriptedGitHub::new();
    github.on(
        write,
        [Scripted::status(
            403,
            r#"{"message":"You have exceeded a secondary rate limit"}"#,
        )
        .header("x-ratelimit-remaining", "0")],
    );
    let (config, clock) = (config(), clock());
    let client = GitHub::new(&config, "t", &github, &clock);
    let refusal = block_on(client.write(write, "{}")).unwrap_err();
    assert_eq!(refusal.status, 403);
    assert!(
        refusal.message.starts_with("rate limit: "),
        "{}",
        refusal.message
    );
    github.on(write, [Scripted::status(201, r#"{"id":5}"#)]);
    assert_eq!(
        block_on(client.write(write, "{}")),
        Ok(r#"{"id":5}"#.into())
    );
}

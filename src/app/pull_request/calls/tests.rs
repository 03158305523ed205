//! The reviewer routes' typed calls: each route's query or form decoded and checked as the
//! Worker does it, with today's messages for a bad one; the wire read back as it was sent; and a
//! bad query refused by the object with nothing stored.

use serde_json::json;

use super::*;
use crate::app::pull_request::test_support::World;
use crate::github::reviews::{Event, Side};
use crate::review::drafts::MAX_BODY_CHARS;
use crate::web::arrange_page::submission;

fn viewer() -> ViewerCall {
    ViewerCall {
        owner: "Acme".into(),
        repo: "app".into(),
        number: 7,
        github_token: "gho_secret".into(),
        login: "ada".into(),
        person: "gh:1".into(),
        csrf: "tok".into(),
        base_url: "https://logikflow.example".into(),
        may_write: true,
    }
}

/// One call of every route, each with input that is not the default.
fn every_call() -> Vec<RouteCall> {
    let comment = "path=src%2F%C3%A9.rs&line=3&side=RIGHT&body=%C3%A9+%26+%22quoted%22%0A&head=abc&csrf=tok&mode=single";
    let write = |action: ReviewWrite, form: &str| {
        RouteCall::Write(WriteCall::read(action, form.as_bytes(), true).unwrap())
    };
    vec![
        RouteCall::Page(PageQuery::read("version=2&view=left&from=101&fragment=1")),
        RouteCall::Diff(DiffQuery::read("path=src%2Fa+b.rs&hunks=x1,x2&first=1")),
        RouteCall::Context(ContextQuery::read("path=src%2Fa.rs&from=3&to=9")),
        RouteCall::Ticks(vec![
            TickItem {
                item: "file:src/é.rs".into(),
                done: true,
            },
            TickItem {
                item: "check:1".into(),
                done: false,
            },
        ]),
        write(ReviewWrite::Comment, comment),
        write(ReviewWrite::Draft, "id=4&body=new+text"),
        write(ReviewWrite::Draft, "id=4&action=delete"),
        write(ReviewWrite::Submit, "event=approve&body=LGTM"),
        write(ReviewWrite::Reply, "comment=12&body=yes"),
        write(ReviewWrite::Thread, "thread=PRRT_1&resolve=0"),
        write(
            ReviewWrite::Preview,
            "body=**b**&path=src%2Fa.rs&line=2&side=LEFT",
        ),
        RouteCall::Arrange,
        RouteCall::ArrangeSave(
            submission(
                br#"{"base_version":3,"order":{"sections":[{"title":"\u00e9","files":[]}]}}"#,
            )
            .unwrap(),
        ),
    ]
}

#[test]
fn every_call_reads_back_as_it_was_sent() {
    for route in every_call() {
        let sent = ReviewerCall {
            viewer: viewer(),
            route,
        };
        let read: ReviewerCall = crate::json::decode(&sent.to_json()).unwrap();
        assert_eq!(read, sent);
    }
}

#[test]
fn every_call_is_sent_to_its_routes_path() {
    let paths: Vec<&str> = every_call()
        .iter()
        .map(|call| call.route().path())
        .collect();
    assert_eq!(
        paths,
        [
            "/page",
            "/diff",
            "/context",
            "/ticks/batch",
            "/write/comments",
            "/write/drafts",
            "/write/drafts",
            "/write/review",
            "/write/replies",
            "/write/threads",
            "/write/preview",
            "/arrange",
            "/arrange/save",
        ]
    );
}

#[test]
fn every_route_has_its_own_path() {
    for route in ROUTES {
        assert_eq!(Route::of_path(route.path()), Some(route));
    }
    let mut paths: Vec<&str> = ROUTES.iter().map(|route| route.path()).collect();
    paths.sort_unstable();
    paths.dedup();
    assert_eq!(paths.len(), ROUTES.len(), "no two routes share a path");
    // The object's other operations are not reviewer routes.
    for path in [
        "/read",
        "/tool",
        "/state",
        "/tick",
        "/ticks",
        "/save",
        "/write",
        "/arrange/",
        "",
    ] {
        assert_eq!(Route::of_path(path), None, "{path}");
    }
}

#[test]
fn only_the_get_routes_are_read_from_a_query() {
    for route in ROUTES {
        let get = matches!(
            route,
            Route::Page | Route::Diff | Route::Context | Route::Arrange
        );
        let call = RouteCall::of_get(route, "path=a");
        assert_eq!(call.is_some(), get, "{route:?}");
        if let Some(call) = call {
            assert_eq!(call.route(), route);
        }
    }
}

#[test]
fn the_pages_query_is_decoded_and_a_bad_value_is_the_default() {
    assert_eq!(
        PageQuery::read("version=2&view=since&from=101&fragment=1"),
        PageQuery {
            version: Some(2),
            view: View::Since,
            window: 1,
            fragment: true,
        }
    );
    // Nothing asked, or values that aren't one: the latest version, every entry, the first
    // window, the whole page, as before.
    for query in [
        "",
        "version=x&view=other&from=y&fragment=yes",
        "version=-1&from=0",
    ] {
        assert_eq!(PageQuery::read(query), PageQuery::default(), "{query}");
    }
    // The first value counts, decoded.
    assert_eq!(PageQuery::read("view=l%65ft&view=since").view, View::Left);
}

#[test]
fn the_diffs_query_is_decoded_and_bounded() {
    assert_eq!(
        DiffQuery::read("path=src%2Fa+b.rs&hunks=x1,x2&first=1&fragment=1"),
        DiffQuery {
            path: Some("src/a b.rs".into()),
            hunks: vec!["x1".into(), "x2".into()],
            first: true,
            fragment: true,
        }
    );
    // No path (or an empty or oversized one) is absent: the object says it is required.
    let long = "a".repeat(MAX_QUERY_VALUE_BYTES + 1);
    for query in [
        "hunks=x".to_string(),
        "path=".into(),
        format!("path={long}"),
    ] {
        let read = DiffQuery::read(&query);
        assert_eq!(read.path, None, "{query}");
    }
    let longest = "a".repeat(MAX_QUERY_VALUE_BYTES);
    assert_eq!(
        DiffQuery::read(&format!("path={longest}")).path,
        Some(longest)
    );
    // No hunks: one empty id, as the entry's link without changes asks.
    assert_eq!(DiffQuery::read("path=a").hunks, vec![String::new()]);
}

#[test]
fn the_contexts_query_is_decoded() {
    assert_eq!(
        ContextQuery::read("path=src%2Fa.rs&from=3&to=9"),
        ContextQuery {
            path: Some("src/a.rs".into()),
            from: Some(3),
            to: Some(9),
        }
    );
    assert_eq!(ContextQuery::read("from=-1&to=x"), ContextQuery::default());
}

/// A bad query reaches the object decoded, and is refused there with today's message before
/// the viewer's read: no GitHub request, nothing stored.
#[test]
fn a_diff_or_context_without_a_path_is_refused_and_nothing_stored() {
    for route in [Route::Diff, Route::Context] {
        let world = World::new();
        let call = world.call("gh:9", RouteCall::of_get(route, "hunks=x&from=1").unwrap());
        let reply = world.answer(&call);
        assert_eq!(
            (reply.status, reply.body.as_str()),
            (400, "path is required: a file the pull request changes."),
            "{route:?}"
        );
        assert!(!world.schema_ready.get(), "{route:?}: nothing stored");
        assert!(
            world.github.requests().is_empty(),
            "{route:?}: no GitHub read"
        );
    }
}

/// Each write's bad form is refused by the reader with today's message and the text typed
/// given back; a refused form never becomes a call, so the object stores nothing.
#[test]
fn a_bad_write_form_is_refused_with_its_message() {
    let long = "x".repeat(MAX_BODY_CHARS + 1);
    let cases: Vec<(ReviewWrite, String, String)> = vec![
        (
            ReviewWrite::Comment,
            "line=3&side=RIGHT&body=kept".into(),
            "path is required: a file the pull request changes, at most 4096 bytes.".into(),
        ),
        (
            ReviewWrite::Comment,
            "path=a&side=RIGHT&body=kept".into(),
            "line is required: the number of the line to comment on.".into(),
        ),
        (
            ReviewWrite::Draft,
            "body=kept".into(),
            "id is required: the draft to change or delete.".into(),
        ),
        (
            ReviewWrite::Submit,
            "event=merge&body=kept".into(),
            "event must be comment, approve or request_changes.".into(),
        ),
        (
            ReviewWrite::Reply,
            "comment=x&body=kept".into(),
            "comment is required: the id of the thread's first comment.".into(),
        ),
        (
            ReviewWrite::Thread,
            "thread=PRRT_1&resolve=yes&body=kept".into(),
            "thread (a thread id) and resolve (1 or 0) are required.".into(),
        ),
        (
            ReviewWrite::Preview,
            format!("body={long}"),
            format!("The comment is longer than GitHub's {MAX_BODY_CHARS} characters."),
        ),
    ];
    for (action, form, message) in cases {
        let refused = WriteCall::read(action, form.as_bytes(), true).unwrap_err();
        assert_eq!(refused.message, message, "{action:?}");
        let kept = crate::web::review_write::Fields::read(form.as_bytes()).body();
        assert_eq!(refused.kept, kept, "{action:?}: the text typed goes back");
    }
}

#[test]
fn a_write_form_is_decoded_into_its_fields() {
    let form = "path=src%2Fa.rs&line=3&side=RIGHT&body=%C3%A9+%26&head=abc&csrf=tok&mode=single";
    let write = WriteCall::read(ReviewWrite::Comment, form.as_bytes(), false).unwrap();
    let Checked::Comment(new) = &write.checked else {
        panic!("{write:?}");
    };
    assert_eq!(
        (new.anchor.path.as_str(), new.anchor.line, new.anchor.side),
        ("src/a.rs", 3, Side::Right)
    );
    assert_eq!(
        (
            write.body.as_str(),
            write.head.as_str(),
            write.csrf.as_str(),
            write.single,
            write.json
        ),
        ("é &", "abc", "tok", true, false)
    );
    assert_eq!(write.anchor, None, "only a preview carries its line");
    let submit = WriteCall::read(ReviewWrite::Submit, b"event=REQUEST_CHANGES", true).unwrap();
    assert_eq!(submit.checked, Checked::Submit(Event::RequestChanges));
    // A preview carries the line its comment is on, when the form names one.
    let preview = WriteCall::read(
        ReviewWrite::Preview,
        b"body=b&path=src%2Fa.rs&line=2&side=LEFT",
        true,
    )
    .unwrap();
    let anchor = preview.anchor.expect("the preview's line");
    assert_eq!((anchor.path.as_str(), anchor.line), ("src/a.rs", 2));
    let bare = WriteCall::read(ReviewWrite::Preview, b"body=b", true).unwrap();
    assert_eq!(bare.anchor, None);
}

/// Issue 36: what a read-only sign-in is refused is exactly what sends to GitHub as the viewer.
#[test]
fn what_sends_to_github() {
    let sends = |action: ReviewWrite, form: &str| {
        WriteCall::read(action, form.as_bytes(), true)
            .unwrap()
            .sends_to_github()
    };
    let line = "path=a&line=1&side=RIGHT&body=b";
    assert!(sends(ReviewWrite::Comment, &format!("{line}&mode=single")));
    assert!(!sends(ReviewWrite::Comment, &format!("{line}&mode=draft")));
    assert!(!sends(ReviewWrite::Comment, line));
    assert!(sends(
        ReviewWrite::Submit,
        "event=comment&body=b&mode=draft"
    ));
    assert!(sends(ReviewWrite::Reply, "comment=1&body=b"));
    assert!(sends(ReviewWrite::Thread, "thread=T&resolve=1"));
    assert!(!sends(ReviewWrite::Draft, "id=1&body=b&mode=single"));
    assert!(!sends(ReviewWrite::Draft, "id=1&action=delete&mode=single"));
    assert!(!sends(ReviewWrite::Preview, "body=b&mode=single"));
}

/// A read-only sign-in's call that would send to GitHub is refused by the object too, with the
/// same words, and nothing is sent.
#[test]
fn the_object_refuses_a_read_only_write_that_sends() {
    let world = World::new();
    let write = WriteCall::read(ReviewWrite::Reply, b"comment=1&body=b", true).unwrap();
    let mut call = world.call("gh:9", RouteCall::Write(write));
    call.viewer.may_write = false;
    let reply = world.answer(&call);
    assert_eq!(reply.status, 403);
    let body: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    assert_eq!(
        body,
        json!({ "error": crate::web::review_write::READ_ONLY })
    );
    assert!(world.github.requests().is_empty());
}

#[test]
fn a_bad_arrange_save_is_refused_with_its_message() {
    let cases: [(&[u8], &str); 6] = [
        (
            b"not json",
            "the request must be a JSON object with base_version and order",
        ),
        (
            b"[1]",
            "the request must be a JSON object with base_version and order",
        ),
        (br#"{"order":{}}"#, "base_version is required"),
        (
            br#"{"base_version":-1,"order":{}}"#,
            "base_version must be a whole number",
        ),
        (br#"{"base_version":1}"#, "order is required"),
        (
            br#"{"base_version":1,"order":[]}"#,
            "order must be an object with sections",
        ),
    ];
    for (body, message) in cases {
        assert_eq!(submission(body).unwrap_err(), message);
    }
}

#[test]
fn tick_results_come_back_as_they_went() {
    let results = vec![
        TickResult::stored(),
        TickResult::refused(404, "not on the page: \"x\"\n"),
        TickResult::refused(409, "full"),
    ];
    let json = results_json(&results);
    assert_eq!(
        json,
        r#"[{"status":200},{"status":404,"error":"not on the page: \"x\"\n"},{"status":409,"error":"full"}]"#
    );
    assert_eq!(read_results(&json, 3), Some(results));
}

#[test]
fn a_results_answer_that_does_not_match_the_ticks_sent_is_refused() {
    let results = results_json(&[TickResult::stored()]);
    assert_eq!(read_results(&results, 2), None);
    assert_eq!(read_results("{\"status\":200}", 1), None);
    assert_eq!(read_results("storage unavailable", 1), None);
}

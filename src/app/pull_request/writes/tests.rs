//! The review writes in process (issue #37): drafts kept up to their cap and changed or deleted
//! only by their writer, a single comment, the review with its verdict, a reply, resolving a
//! thread of this pull request only, the read-only refusal and the 409 at a new head; each over
//! SQLite in memory and a scripted GitHub that counts what was sent.

use serde_json::{json, Value};

use crate::app::pull_request::calls::{RouteCall, WriteCall};
use crate::app::pull_request::test_support::{Scripted, World};
use crate::http::HttpReply;
use crate::ports::clock::Clock;
use crate::review::drafts::MAX_DRAFTS_PER_PERSON;
use crate::router::ReviewWrite;

/// The writer of the drafts, and someone else.
const WRITER: &str = "gh:9";
const OTHER: &str = "gh:8";

/// A line in `src/f0.rs`'s diff at head `h1` (`test_support::script_pull`).
const LINE: &str = "path=src%2Ff0.rs&line=2&side=RIGHT&head=h1&csrf=k";

/// Posts `form` as `person`, asking for JSON, with a sign-in that may write when `may_write`;
/// the form read and checked as the Worker reads it.
fn post_as(
    world: &World,
    person: &str,
    action: ReviewWrite,
    form: &str,
    may_write: bool,
) -> HttpReply {
    let write = WriteCall::read(action, form.as_bytes(), true).expect("a well-formed write");
    let mut call = world.call(person, RouteCall::Write(write));
    call.viewer.may_write = may_write;
    world.answer(&call)
}

fn post(world: &World, person: &str, action: ReviewWrite, form: &str) -> HttpReply {
    post_as(world, person, action, form, true)
}

fn body(reply: &HttpReply) -> Value {
    serde_json::from_str(&reply.body).expect("a JSON answer")
}

/// Keeps a draft for [`WRITER`] with `text`; answers its id.
fn keep_draft(world: &World, text: &str) -> u64 {
    let reply = post(
        world,
        WRITER,
        ReviewWrite::Comment,
        &format!("{LINE}&body={text}"),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    body(&reply)["id"].as_u64().expect("the draft's id")
}

/// The requests sent to GitHub that write, URL and body: not GETs, nor GraphQL queries (the
/// snapshot's read of build files).
fn sent(world: &World) -> Vec<(String, String)> {
    world
        .github
        .requests()
        .into_iter()
        .filter(|e| e.method != crate::ports::github::Method::Get)
        .filter(|e| {
            !e.url.ends_with("/graphql")
                || e.body.as_deref().is_some_and(|b| b.contains("mutation"))
        })
        .map(|e| (e.url, e.body.unwrap_or_default()))
        .collect()
}

#[test]
fn a_draft_is_kept_under_the_person_and_counted() {
    let world = World::new();
    let id = keep_draft(&world, "first");
    let drafts = world.records().drafts(WRITER).unwrap();
    assert_eq!(drafts.len(), 1);
    assert_eq!(drafts[0].id, id);
    assert_eq!(drafts[0].body, "first");
    assert_eq!(drafts[0].head_sha, "h1");
    // The time is the object's clock's, not the platform's.
    assert_eq!(
        drafts[0].updated_at,
        crate::time::rfc3339(world.clock.now_ms())
    );
    assert_eq!(
        world.around.noted.borrow().as_slice(),
        [format!("{WRITER} o/r#1@{WRITER}")],
        "noted in the person's index before the draft was stored"
    );
    let second = post(
        &world,
        WRITER,
        ReviewWrite::Comment,
        &format!("{LINE}&body=second"),
    );
    assert_eq!(body(&second)["drafts"], 2);
    assert!(sent(&world).is_empty(), "a draft sends nothing to GitHub");
}

#[test]
fn drafts_stop_at_the_cap_and_the_refused_text_is_not_stored() {
    let world = World::new();
    for n in 0..MAX_DRAFTS_PER_PERSON {
        keep_draft(&world, &format!("d{n}"));
    }
    let refused = post(
        &world,
        WRITER,
        ReviewWrite::Comment,
        &format!("{LINE}&body=one+more"),
    );
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(body(&refused)["error"].as_str().unwrap().contains(&format!(
        "You already hold {MAX_DRAFTS_PER_PERSON} draft comments"
    )));
    let drafts = world.records().drafts(WRITER).unwrap();
    assert_eq!(drafts.len(), MAX_DRAFTS_PER_PERSON);
    assert!(drafts.iter().all(|d| d.body != "one more"));
    // The cap is each person's own.
    let other = post(
        &world,
        OTHER,
        ReviewWrite::Comment,
        &format!("{LINE}&body=mine"),
    );
    assert_eq!(other.status, 200, "{}", other.body);
}

#[test]
fn a_draft_is_changed_and_deleted_only_by_its_writer() {
    let world = World::new();
    let id = keep_draft(&world, "mine");
    // Someone else: the honest refusals, and nothing changed or deleted.
    let edit = post(
        &world,
        OTHER,
        ReviewWrite::Draft,
        &format!("id={id}&body=theirs&csrf=k"),
    );
    assert_eq!(edit.status, 404, "{}", edit.body);
    let delete = post(
        &world,
        OTHER,
        ReviewWrite::Draft,
        &format!("id={id}&action=delete&csrf=k"),
    );
    assert_eq!(delete.status, 404);
    assert_eq!(body(&delete)["error"], super::DRAFT_NOT_YOURS);
    let drafts = world.records().drafts(WRITER).unwrap();
    assert_eq!(drafts.len(), 1);
    assert_eq!(drafts[0].body, "mine");
    // The writer changes it, then deletes it.
    let edit = post(
        &world,
        WRITER,
        ReviewWrite::Draft,
        &format!("id={id}&body=changed&csrf=k"),
    );
    assert_eq!(edit.status, 200, "{}", edit.body);
    assert_eq!(world.records().drafts(WRITER).unwrap()[0].body, "changed");
    let delete = post(
        &world,
        WRITER,
        ReviewWrite::Draft,
        &format!("id={id}&action=delete&csrf=k"),
    );
    assert_eq!(delete.status, 200, "{}", delete.body);
    assert_eq!(body(&delete), json!({ "deleted": id, "drafts": 0 }));
    assert!(world.records().drafts(WRITER).unwrap().is_empty());
    // Deleting it again is the same honest refusal.
    let again = post(
        &world,
        WRITER,
        ReviewWrite::Draft,
        &format!("id={id}&action=delete&csrf=k"),
    );
    assert_eq!(again.status, 404);
    assert_eq!(body(&again)["error"], super::DRAFT_NOT_YOURS);
    assert!(body(&again).get("deleted").is_none());
}

#[test]
fn a_single_comment_is_sent_at_the_head_and_not_kept() {
    let world = World::new();
    world.github.on(
        "/repos/o/r/pulls/1/comments",
        [Scripted::status(
            201,
            r#"{"id":77,"html_url":"https://github.test/o/r/pull/1#discussion_r77"}"#,
        )],
    );
    let reply = post(
        &world,
        WRITER,
        ReviewWrite::Comment,
        &format!("{LINE}&body=now&mode=single"),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(body(&reply)["id"], 77);
    let sent = sent(&world);
    assert_eq!(sent.len(), 1);
    let request: Value = serde_json::from_str(&sent[0].1).unwrap();
    assert_eq!(request["commit_id"], "h1");
    assert_eq!(request["body"], "now");
    assert_eq!(request["path"], "src/f0.rs");
    assert!(world.records().drafts(WRITER).unwrap().is_empty());
}

#[test]
fn the_review_sends_the_drafts_with_the_verdict_and_clears_them() {
    let world = World::new();
    keep_draft(&world, "one");
    keep_draft(&world, "two");
    // Requesting changes needs a summary: refused, nothing sent.
    let empty = post(
        &world,
        WRITER,
        ReviewWrite::Submit,
        "event=request_changes&body=&csrf=k",
    );
    assert_eq!(empty.status, 400);
    // GitHub refuses: the drafts stay.
    world.github.on(
        "/repos/o/r/pulls/1/reviews",
        [
            Scripted::status(422, r#"{"message":"Validation Failed"}"#),
            Scripted::ok(
                r#"{"id":5,"html_url":"https://github.test/o/r/pull/1#pullrequestreview-5"}"#,
            ),
        ],
    );
    let refused = post(
        &world,
        WRITER,
        ReviewWrite::Submit,
        "event=approve&body=LGTM&csrf=k",
    );
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert_eq!(world.records().drafts(WRITER).unwrap().len(), 2);
    let reply = post(
        &world,
        WRITER,
        ReviewWrite::Submit,
        "event=approve&body=LGTM&csrf=k",
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(body(&reply)["sent"], 2);
    let sent = sent(&world);
    assert_eq!(sent.len(), 2, "one request per attempt: {sent:?}");
    let review: Value = serde_json::from_str(&sent[1].1).unwrap();
    assert_eq!(review["event"], "APPROVE");
    assert_eq!(review["body"], "LGTM");
    assert_eq!(review["commit_id"], "h1");
    assert_eq!(review["comments"].as_array().map(Vec::len), Some(2));
    assert!(world.records().drafts(WRITER).unwrap().is_empty());
}

#[test]
fn a_reply_goes_to_the_threads_first_comment() {
    let world = World::new();
    world.github.on(
        "/repos/o/r/pulls/1/comments/11/replies",
        [Scripted::status(
            201,
            r#"{"id":12,"html_url":"https://github.test/o/r/pull/1#discussion_r12"}"#,
        )],
    );
    let reply = post(
        &world,
        WRITER,
        ReviewWrite::Reply,
        "comment=11&body=thanks&csrf=k",
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(body(&reply)["id"], 12);
    let sent = sent(&world);
    assert_eq!(sent.len(), 1);
    assert!(sent[0]
        .0
        .ends_with("/repos/o/r/pulls/1/comments/11/replies"));
    assert_eq!(
        serde_json::from_str::<Value>(&sent[0].1).unwrap(),
        json!({ "body": "thanks" })
    );
}

/// A world whose pull request has one review comment, its thread `PRRT_1`, with the snapshot
/// already read (so the next `/graphql` requests are the thread list and the resolve).
fn world_with_a_thread() -> World {
    let world = World::new();
    let preview = post(&world, WRITER, ReviewWrite::Preview, "body=x&csrf=k");
    assert_eq!(preview.status, 200, "{}", preview.body);
    world.github.on(
        "/repos/o/r/pulls/1",
        [Scripted::ok(
            r#"{"number":1,"title":"T","state":"open","html_url":"https://github.test/o/r/pull/1","base":{"ref":"main","sha":"b1"},"head":{"ref":"f","sha":"h1"},"changed_files":3,"additions":3,"deletions":0,"review_comments":1}"#,
        )],
    );
    world.github.on(
        "/graphql",
        [
            Scripted::ok(
                r#"{"data":{"repository":{"pullRequest":{"reviewThreads":{"nodes":[{"id":"PRRT_1","isResolved":false,"viewerCanResolve":true,"comments":{"nodes":[{"databaseId":11}]}}]}}}}}"#,
            ),
            Scripted::ok(r#"{"data":{"resolveReviewThread":{"thread":{"isResolved":true}}}}"#),
        ],
    );
    world
}

#[test]
fn a_thread_of_this_pull_request_is_resolved() {
    let world = world_with_a_thread();
    let reply = post(
        &world,
        WRITER,
        ReviewWrite::Thread,
        "thread=PRRT_1&resolve=1&csrf=k",
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        body(&reply),
        json!({ "thread": "PRRT_1", "resolved": true })
    );
    assert!(sent(&world)
        .iter()
        .any(|(_, text)| text.contains("resolveReviewThread")));
}

#[test]
fn a_thread_of_another_pull_request_is_refused_and_nothing_sent() {
    let world = world_with_a_thread();
    let reply = post(
        &world,
        WRITER,
        ReviewWrite::Thread,
        "thread=PRRT_other&resolve=1&csrf=k",
    );
    assert_eq!(reply.status, 404, "{}", reply.body);
    assert_eq!(body(&reply)["error"], super::THREAD_NOT_HERE);
    assert!(
        !sent(&world)
            .iter()
            .any(|(_, text)| text.contains("resolveReviewThread")),
        "no mutation sent: {:?}",
        sent(&world)
    );
}

/// A failed read of the thread list is said as such, not as "not this pull request's thread".
#[test]
fn a_thread_list_github_does_not_give_is_a_retry_not_a_refusal() {
    let world = world_with_a_thread();
    world
        .github
        .on("/graphql", [Scripted::status(502, "bad gateway")]);
    let reply = post(
        &world,
        WRITER,
        ReviewWrite::Thread,
        "thread=PRRT_1&resolve=1&csrf=k",
    );
    assert_eq!(reply.status, 503, "{}", reply.body);
    assert_eq!(body(&reply)["error"], super::THREADS_UNREAD);
    assert!(
        !sent(&world)
            .iter()
            .any(|(_, text)| text.contains("resolveReviewThread")),
        "no mutation sent"
    );
}

#[test]
fn a_read_only_sign_in_sends_nothing_to_github() {
    let world = World::new();
    let writes = [
        (ReviewWrite::Comment, format!("{LINE}&body=now&mode=single")),
        (
            ReviewWrite::Submit,
            "event=approve&body=&csrf=k".to_string(),
        ),
        (
            ReviewWrite::Submit,
            "event=request_changes&body=no&csrf=k".to_string(),
        ),
        (
            ReviewWrite::Submit,
            "event=comment&body=hi&csrf=k".to_string(),
        ),
        (ReviewWrite::Reply, "comment=11&body=hi&csrf=k".to_string()),
        (
            ReviewWrite::Thread,
            "thread=PRRT_1&resolve=1&csrf=k".to_string(),
        ),
    ];
    for (action, form) in writes {
        let reply = post_as(&world, WRITER, action, &form, false);
        assert_eq!(reply.status, 403, "{action:?}: {}", reply.body);
        assert_eq!(body(&reply)["error"], crate::web::review_write::READ_ONLY);
    }
    assert_eq!(
        world.github.total(),
        0,
        "not even a read of the pull request"
    );
    assert!(!world.schema_ready.get(), "nothing stored");
    // A draft stays on this server: a read-only sign-in keeps one.
    let draft = post_as(
        &world,
        WRITER,
        ReviewWrite::Comment,
        &format!("{LINE}&body=kept"),
        false,
    );
    assert_eq!(draft.status, 200, "{}", draft.body);
}

#[test]
fn a_comment_at_an_old_head_is_refused_with_409() {
    let world = World::new();
    let old = LINE.replace("head=h1", "head=h0");
    for mode in ["", "&mode=single"] {
        let reply = post(
            &world,
            WRITER,
            ReviewWrite::Comment,
            &format!("{old}&body=late{mode}"),
        );
        assert_eq!(reply.status, 409, "{}", reply.body);
        assert!(body(&reply)["error"]
            .as_str()
            .unwrap()
            .starts_with("New commits were pushed since this page loaded"));
    }
    assert!(world.records().drafts(WRITER).unwrap().is_empty());
    assert!(sent(&world).is_empty());
}

/// What the no-script form's checks answer (review-comments.test.mjs before issue #37): a line
/// outside the diff is a 422 from the object, a body over GitHub's limit or a line that isn't a
/// number a 400 from reading the form; nothing is kept for any.
#[test]
fn a_comment_off_the_diff_too_long_or_on_no_line_is_refused() {
    let world = World::new();
    let outside = post(
        &world,
        WRITER,
        ReviewWrite::Comment,
        "path=src%2Ff0.rs&line=99999&side=RIGHT&head=h1&csrf=k&mode=draft&body=x",
    );
    assert_eq!(outside.status, 422, "{}", outside.body);
    assert!(body(&outside)["error"]
        .as_str()
        .unwrap_or("")
        .contains("not part of the pull request's diff"));
    let long = "x".repeat(crate::review::drafts::MAX_BODY_CHARS + 1);
    let refused = |form: &str| {
        WriteCall::read(ReviewWrite::Comment, form.as_bytes(), true)
            .expect_err("refused as the form is read")
            .message
    };
    let too_long = refused(&format!("{LINE}&mode=draft&body={long}"));
    assert!(too_long.contains("65536"), "{too_long}");
    let no_line = refused("path=src%2Ff0.rs&line=seven&side=RIGHT&head=h1&body=x");
    assert!(
        no_line.starts_with("line must be a line number"),
        "{no_line}"
    );
    assert!(world.records().drafts(WRITER).unwrap().is_empty());
    assert!(sent(&world).is_empty());
}

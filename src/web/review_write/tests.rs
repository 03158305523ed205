use super::*;

fn fields(pairs: &[(&str, &str)]) -> Fields {
    Fields::read(form::encode(pairs).as_bytes())
}

#[test]
fn the_read_only_words_say_how_to_write() {
    assert!(READ_ONLY.contains("sign in again"));
}

#[test]
fn a_comment_needs_its_line() {
    let good = fields(&[
        ("path", "src/a.rs"),
        ("line", "3"),
        ("side", "RIGHT"),
        ("body", "Why?"),
    ]);
    match check(ReviewWrite::Comment, &good) {
        Ok(Checked::Comment(draft)) => {
            assert_eq!(
                (draft.anchor.path.as_str(), draft.anchor.line),
                ("src/a.rs", 3)
            );
            assert_eq!(draft.body, "Why?");
        }
        other => panic!("{other:?}"),
    }
    assert!(check(ReviewWrite::Comment, &fields(&[("body", "Why?")])).is_err());
}

#[test]
fn each_action_says_what_is_missing() {
    let cases = [
        (
            ReviewWrite::Draft,
            "id is required: the draft to change or delete.",
        ),
        (
            ReviewWrite::Submit,
            "event must be comment, approve or request_changes.",
        ),
        (
            ReviewWrite::Reply,
            "comment is required: the id of the thread's first comment.",
        ),
        (
            ReviewWrite::Thread,
            "thread (a thread id) and resolve (1 or 0) are required.",
        ),
    ];
    for (action, message) in cases {
        assert_eq!(
            check(action, &fields(&[])),
            Err(message.to_string()),
            "{action:?}"
        );
    }
    assert_eq!(
        check(ReviewWrite::Preview, &fields(&[])),
        Ok(Checked::Preview)
    );
}

#[test]
fn the_fields_of_each_action_are_read() {
    let draft = fields(&[("id", "7"), ("action", "delete")]);
    assert_eq!(
        check(ReviewWrite::Draft, &draft),
        Ok(Checked::DeleteDraft(7))
    );
    let edit = fields(&[("id", "7"), ("body", "New text")]);
    assert_eq!(check(ReviewWrite::Draft, &edit), Ok(Checked::EditDraft(7)));
    let submit = fields(&[("event", "approve")]);
    assert_eq!(
        check(ReviewWrite::Submit, &submit),
        Ok(Checked::Submit(Event::Approve))
    );
    let reply = fields(&[("comment", "12"), ("body", "Done.")]);
    assert_eq!(check(ReviewWrite::Reply, &reply), Ok(Checked::Reply(12)));
    let thread = fields(&[("thread", "PRRT_1"), ("resolve", "0")]);
    assert_eq!(
        check(ReviewWrite::Thread, &thread),
        Ok(Checked::Thread("PRRT_1".into(), false))
    );
    let long = fields(&[("thread", &"x".repeat(201)), ("resolve", "1")]);
    assert!(check(ReviewWrite::Thread, &long).is_err());
}

#[test]
fn a_body_longer_than_github_takes_is_refused() {
    let long = "é".repeat(drafts::MAX_BODY_CHARS + 1);
    for action in [ReviewWrite::Submit, ReviewWrite::Preview] {
        let form = fields(&[("event", "comment"), ("body", &long)]);
        assert!(check(action, &form).is_err(), "{action:?}");
    }
    let edit = fields(&[("id", "1"), ("body", &long)]);
    assert!(check(ReviewWrite::Draft, &edit).is_err());
}

#[test]
fn answers_are_json_or_a_page_and_a_303() {
    let mut answer = Answer {
        json: true,
        base_url: "https://lkf.example",
        back: "/r/a/b/pull/1".into(),
    };
    let refused = answer.refuse(409, "Stale <page>", Some("my text"));
    assert_eq!(refused.status, 409);
    assert_eq!(refused.body, r#"{"error":"Stale <page>"}"#);
    let done = answer.done("#draft-3", serde_json::json!({ "id": 3 }));
    assert_eq!((done.status, done.body.as_str()), (200, r#"{"id":3}"#));
    answer.json = false;
    let page = answer.refuse(422, "Not in <the> diff", Some("my <text>"));
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(
        page.body.contains("Not in &lt;the&gt; diff"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("my &lt;text&gt;</textarea>"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("href=\"/r/a/b/pull/1\""),
        "{}",
        page.body
    );
    let done = answer.done("#draft-3", serde_json::json!({ "id": 3 }));
    assert_eq!(done.status, 303);
    assert_eq!(done.header("location"), Some("/r/a/b/pull/1#draft-3"));
}

use super::*;

fn call() -> ReviewerCall {
    ReviewerCall {
        owner: "Acme".into(),
        repo: "app".into(),
        number: 7,
        github_token: "gho_secret".into(),
        login: "ada".into(),
        person: "gh:1".into(),
        query: "version=2&view=left&path=src%2Fa%20b.rs&from=101".into(),
        csrf: "tok".into(),
        base_url: "https://logikflow.example".into(),
        ticks: vec![
            TickItem {
                item: "file:src/é.rs".into(),
                done: true,
            },
            TickItem {
                item: "check:1".into(),
                done: false,
            },
        ],
        form: "csrf=tok&body=%C3%A9+%26+%22quoted%22%0A&head=abc".into(),
        json: true,
        may_write: true,
    }
}

#[test]
fn a_call_reads_back_as_it_was_sent() {
    let sent = call();
    let read: ReviewerCall = crate::json::decode(&sent.to_json()).unwrap();
    assert_eq!(
        (
            &read.owner,
            &read.repo,
            read.number,
            &read.login,
            &read.person
        ),
        (
            &sent.owner,
            &sent.repo,
            sent.number,
            &sent.login,
            &sent.person
        )
    );
    assert_eq!(
        (&read.github_token, &read.query, &read.csrf, &read.base_url),
        (&sent.github_token, &sent.query, &sent.csrf, &sent.base_url)
    );
    assert_eq!(read.ticks, sent.ticks);
    assert_eq!((&read.form, read.json), (&sent.form, sent.json));
}

#[test]
fn a_call_without_a_form_reads_as_a_get() {
    let mut sent = call();
    sent.form.clear();
    sent.json = false;
    let read: ReviewerCall = crate::json::decode(&sent.to_json()).unwrap();
    assert_eq!((read.form.as_str(), read.json), ("", false));
    // An older Worker's call, without the fields, reads the same way.
    let old = r#"{"owner":"a","repo":"b","number":1,"github_token":"t","login":"l","person":"p","base_url":"u"}"#;
    let read: ReviewerCall = crate::json::decode(old).unwrap();
    assert_eq!((read.form.as_str(), read.json), ("", false));
}

#[test]
fn query_values_are_decoded() {
    let call = call();
    assert_eq!(call.query_value("path").as_deref(), Some("src/a b.rs"));
    assert_eq!(call.query_value("from").as_deref(), Some("101"));
    assert_eq!(call.query_value("fragment"), None);
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
fn tick_results_come_back_as_they_went() {
    let results = vec![
        TickResult::stored(),
        TickResult::refused(404, "not on the page: \"x\"\n"),
        TickResult::refused(409, "full"),
    ];
    assert_eq!(read_results(&results_json(&results), 3), Some(results));
}

#[test]
fn a_results_answer_that_does_not_match_the_ticks_sent_is_refused() {
    let results = results_json(&[TickResult::stored()]);
    assert_eq!(read_results(&results, 2), None);
    assert_eq!(read_results("{\"status\":200}", 1), None);
    assert_eq!(read_results("storage unavailable", 1), None);
}

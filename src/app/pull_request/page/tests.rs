//! The review page in process (issue #37): the viewer's read first (a pull request GitHub shows
//! them nothing of answers the 404 page and stores nothing), the page with the viewer's drafts
//! and its CSRF cookie header, and the old path-keyed ticks moved to content items once.

use crate::app::pull_request::calls::{PageQuery, RouteCall, WriteCall, CSRF_COOKIE_HEADER};
use crate::app::pull_request::test_support::{ScriptedGitHub, World};
use crate::http::HttpReply;
use crate::ports::sql::Sql;
use crate::router::ReviewWrite;

fn get(world: &World, person: &str) -> HttpReply {
    world.answer(&world.call(person, RouteCall::Page(PageQuery::default())))
}

#[test]
fn the_page_shows_the_viewers_drafts_and_sets_its_cookie_header() {
    let world = World::new();
    let form = "path=src%2Ff0.rs&line=2&side=RIGHT&head=h1&body=kept+for+later&csrf=k";
    let comment = WriteCall::read(ReviewWrite::Comment, form.as_bytes(), true).unwrap();
    let kept = world.answer(&world.call("gh:9", RouteCall::Write(comment)));
    assert_eq!(kept.status, 200, "{}", kept.body);
    let reply = get(&world, "gh:9");
    assert_eq!(reply.status, 200);
    assert!(reply.body.contains("kept for later"), "the draft is shown");
    assert!(reply.body.contains("src/f0.rs"));
    assert!(reply
        .headers
        .iter()
        .any(|(name, value)| name == CSRF_COOKIE_HEADER && value == "1"));
    // Another person sees the page without that draft.
    let other = get(&world, "gh:8");
    assert_eq!(other.status, 200);
    assert!(!other.body.contains("kept for later"));
}

#[test]
fn a_pull_request_github_does_not_show_answers_the_404_page_and_stores_nothing() {
    let world = World {
        github: ScriptedGitHub::new(),
        ..World::new()
    };
    let reply = get(&world, "gh:9");
    assert_eq!(reply.status, 404);
    assert!(
        reply.body.contains("open this pull request"),
        "{}",
        reply.body
    );
    assert!(!world.schema_ready.get(), "no storage for a refused viewer");
}

#[test]
fn old_path_ticks_become_content_ticks_once() {
    let world = World::new();
    world.records();
    world
        .sql
        .run(
            "INSERT INTO ticks (person, item, done, updated_at) VALUES (?, ?, 1, ?)",
            &[
                "gh:9".into(),
                "file:src/f0.rs".into(),
                "2026-01-01T00:00:00Z".into(),
            ],
        )
        .unwrap();
    let reply = get(&world, "gh:9");
    assert_eq!(reply.status, 200);
    let ticks = world.records().ticks("gh:9").unwrap();
    assert!(!ticks.is_empty(), "the tick is kept");
    assert!(
        ticks
            .iter()
            .all(|t| !t.item.starts_with("file:") && t.head_sha.as_deref() == Some("h1")),
        "{ticks:?}"
    );
    // A second view finds nothing to move: no comparison asked of GitHub.
    let compares = |world: &World| {
        world
            .github
            .requests()
            .iter()
            .filter(|e| e.url.contains("/compare/"))
            .count()
    };
    let before = compares(&world);
    let again = get(&world, "gh:9");
    assert_eq!(again.status, 200);
    assert_eq!(compares(&world), before);
    assert_eq!(world.records().ticks("gh:9").unwrap().len(), ticks.len());
}

/// Issue 36: the page for a read-only sign-in offers no form that sends to GitHub (the review
/// with its verdict, a single comment), says why, and still offers drafts.
#[test]
fn a_read_only_sign_in_is_offered_no_form_that_sends_to_github() {
    let world = World::new();
    let page = |may_write: bool| {
        let mut call = world.call("gh:9", RouteCall::Page(PageQuery::default()));
        call.viewer.may_write = may_write;
        let reply = world.answer(&call);
        assert_eq!(reply.status, 200, "{}", reply.body);
        reply.body
    };
    let sends = ["/review\"", "value=\"single\""];
    let writable = page(true);
    for form in sends {
        assert!(writable.contains(form), "{form} offered to a writer");
    }
    let read_only = page(false);
    for form in sends {
        assert!(!read_only.contains(form), "{form} not offered read-only");
    }
    assert!(read_only.contains("read access only"));
    assert!(read_only.contains("value=\"draft\""));
    assert!(read_only.contains("/comments\""));
}

/// Issue #47: two reviewers tick different files of a saved order; each one's page names the
/// other on what they read, the team summary counts both, and `?view=unread` shows only what
/// neither has read. One reviewer alone sees the page as before.
mod team {
    use serde_json::json;

    use crate::app::pull_request::calls::{PageQuery, RouteCall};
    use crate::app::pull_request::test_support::World;
    use crate::http::HttpReply;
    use crate::review::model::saved::{DocumentKind, SaveRequest};
    use crate::review::model::ticks::TickItem;
    use crate::web::review_page::View;

    fn saved(world: &World) {
        let files: Vec<_> = ["src/f0.rs", "src/f1.rs", "src/f2.rs"]
            .iter()
            .map(|path| json!({ "path": path }))
            .collect();
        world
            .records()
            .save(&SaveRequest {
                kind: DocumentKind::Order,
                base_version: 0,
                body: json!({ "sections": [{ "title": "All", "files": files }] }),
                person: "agent".into(),
                client: None,
                source: "agent".into(),
                head_sha: "h1".into(),
                saved_at: "2026-11-01T00:00:00Z".into(),
            })
            .expect("saved");
    }

    fn as_login(world: &World, person: &str, login: &str, route: RouteCall) -> HttpReply {
        let mut call = world.call(person, route);
        call.viewer.login = login.into();
        world.answer(&call)
    }

    fn tick(world: &World, person: &str, login: &str, item: &str) {
        let ticks = vec![TickItem {
            item: item.into(),
            done: true,
        }];
        let reply = as_login(world, person, login, RouteCall::Ticks(ticks));
        assert_eq!(reply.status, 200, "{}", reply.body);
    }

    fn page(world: &World, person: &str, login: &str, view: View) -> String {
        let query = PageQuery {
            view,
            ..PageQuery::default()
        };
        let reply = as_login(world, person, login, RouteCall::Page(query));
        assert_eq!(reply.status, 200);
        reply.body
    }

    #[test]
    fn each_reviewer_sees_the_other_and_what_nobody_read() {
        let world = World::new();
        saved(&world);
        tick(&world, "gh:1", "ana", "file:src/f0.rs");
        let alone = page(&world, "gh:1", "ana", View::All);
        assert!(!alone.contains("class=\"team"), "one reviewer: no team");
        tick(&world, "gh:2", "bo", "file:src/f1.rs");

        let ana = page(&world, "gh:1", "ana", View::All);
        assert!(ana.contains("Read by bo."), "ana sees bo on f1");
        assert!(!ana.contains("Read by ana."), "ana is not named to herself");
        assert!(ana.contains("<strong>ana</strong> (you) · 1 of 3 files"));
        assert!(ana.contains("<strong>bo</strong> · 1 of 3 files"));
        assert!(ana.contains("Nobody has read 1 file and 1 change yet."));
        let bo = page(&world, "gh:2", "bo", View::All);
        assert!(bo.contains("Read by ana."), "bo sees ana on f0");

        // Coverage costs no GitHub request: a page view with the team reads what one without
        // did (the snapshot is cached by now).
        let before = world.github.total();
        page(&world, "gh:1", "ana", View::All);
        let with_team = world.github.total() - before;
        let alone_world = World::new();
        saved(&alone_world);
        tick(&alone_world, "gh:1", "ana", "file:src/f0.rs");
        let before = alone_world.github.total();
        page(&alone_world, "gh:1", "ana", View::All);
        assert_eq!(with_team, alone_world.github.total() - before);

        let unread = page(&world, "gh:2", "bo", View::Unread);
        assert!(
            unread.contains("id=\"file-src/f2.rs\""),
            "f2: nobody read it"
        );
        assert!(!unread.contains("id=\"file-src/f0.rs\""));
        assert!(!unread.contains("id=\"file-src/f1.rs\""));
    }

    #[test]
    fn a_renamed_reviewer_is_named_as_they_are_now_and_a_forgotten_one_not_at_all() {
        let world = World::new();
        saved(&world);
        tick(&world, "gh:1", "ana", "file:src/f0.rs");
        tick(&world, "gh:2", "bo", "file:src/f1.rs");
        // ana renamed herself: her next page view records the new login.
        page(&world, "gh:1", "ana-new", View::All);
        assert!(page(&world, "gh:2", "bo", View::All).contains("Read by ana-new."));
        world.records().forget("gh:1").expect("forgets");
        let bo = page(&world, "gh:2", "bo", View::All);
        assert!(
            !bo.contains("ana"),
            "Delete my data removes her from coverage"
        );
        assert!(!bo.contains("class=\"team"), "bo is alone again");
    }
}

//! Coverage read from the object's records: several reviewers named by the login they last used,
//! content keys across a push, a split file, a file with no hunks, Delete my data.

use crate::app::pull_request::records::{HeadRecord, Records, Tick};
use crate::ports::sql::native::MemorySql;
use crate::ports::sql::Sql;
use crate::review::model::snapshot::{SnapshotChange, SnapshotFile};
use crate::review::order::Order;
use crate::web::review_state;

fn file(path: &str, ids: &[&str]) -> SnapshotFile {
    SnapshotFile {
        path: path.into(),
        status: "modified".into(),
        previous_path: None,
        additions: 1,
        deletions: 0,
        changes: ids
            .iter()
            .map(|id| SnapshotChange {
                id: (*id).into(),
                header: "@@ -1 +1 @@".into(),
                preview: "+ x".into(),
                additions: 1,
                deletions: 0,
            })
            .collect(),
        patch: Some(ids.iter().map(|_| "@@ -1 +1 @@\n+x\n").collect()),
        depends_on: Vec::new(),
        test_of: None,
        likely_generated: false,
        blob_sha: Some(format!("blob-{path}")),
    }
}

/// `api.rs` is split: `h1` in "Model", the rest (`h2`) in "Routes"; `logo.png` has no hunks.
fn order() -> Order {
    crate::json::decode(
        r#"{"sections":[
            {"title":"Model","files":[{"path":"model.rs"},{"path":"api.rs","hunks":["h1"]}]},
            {"title":"Routes","files":[{"path":"api.rs"},{"path":"logo.png"}]}
        ]}"#,
    )
    .expect("the order reads")
}

fn files_at(head: &str) -> Vec<SnapshotFile> {
    let mut logo = file("logo.png", &[]);
    logo.patch = None;
    match head {
        "A" => vec![
            file("model.rs", &["m1"]),
            file("api.rs", &["h1", "h2"]),
            logo,
        ],
        _ => vec![
            file("model.rs", &["m2"]),
            file("api.rs", &["h1", "h2"]),
            logo,
        ],
    }
}

fn tick(
    records: &Records<'_, MemorySql>,
    person: &str,
    login: &str,
    items: Vec<String>,
    head: &str,
) {
    let at = "2026-12-01T10:00:00Z";
    records
        .tick(&Tick {
            person: person.into(),
            items,
            done: true,
            head_sha: head.into(),
            at: at.into(),
        })
        .expect("ticks store");
    records
        .note_reviewer(person, login, at)
        .expect("login kept");
    records
        .record_head(&HeadRecord {
            head_sha: head.into(),
            files: review_state::head_files(&files_at(head)),
            at: at.into(),
        })
        .expect("head recorded");
}

fn records(sql: &MemorySql) -> Records<'_, MemorySql> {
    let records = Records::new(sql);
    records.schema().expect("schema");
    records
}

#[test]
fn two_reviewers_are_each_named_on_what_they_read() {
    let sql = MemorySql::new();
    let records = records(&sql);
    let c = review_state::change_item;
    tick(
        &records,
        "gh:1",
        "ana",
        vec![c("model.rs", "m1"), c("api.rs", "h1")],
        "A",
    );
    tick(
        &records,
        "gh:2",
        "bo",
        vec![c("api.rs", "h2"), "blob:logo.png#blob-logo.png".into()],
        "A",
    );
    let coverage = super::coverage(&records, Some(&order()), &files_at("A"), "A").expect("reads");
    let logins: Vec<&str> = coverage
        .reviewers
        .iter()
        .map(|r| r.login.as_str())
        .collect();
    assert_eq!(logins, ["ana", "bo"]);
    assert_eq!(coverage.sections[0].read_by, ["ana"]);
    assert_eq!(coverage.sections[1].read_by, ["bo"]);
    assert_eq!(
        coverage.reviewers[0].files_read, 1,
        "model.rs; api.rs only in part"
    );
    assert_eq!(coverage.reviewers[1].files_read, 1, "logo.png");
    assert_eq!(
        coverage.totals.files_read, 3,
        "api.rs read by the two together"
    );
    assert_eq!(coverage.totals.changes_unread, 0);
}

#[test]
fn after_a_push_a_reader_of_the_changed_file_read_an_earlier_version() {
    let sql = MemorySql::new();
    let records = records(&sql);
    let c = review_state::change_item;
    tick(
        &records,
        "gh:1",
        "ana",
        vec![c("model.rs", "m1"), c("api.rs", "h1")],
        "A",
    );
    // The push changes model.rs (m1 → m2) and leaves api.rs's h1 alone.
    let coverage = super::coverage(&records, Some(&order()), &files_at("B"), "B").expect("reads");
    let model = &coverage.entries[0][0];
    assert!(model.read.is_empty());
    assert_eq!(coverage.logins(&model.earlier), ["ana"]);
    assert_eq!(
        coverage.logins(&coverage.entries[0][1].read),
        ["ana"],
        "h1 kept its key"
    );
    assert!(coverage.sections[0].read_by.is_empty());
    assert_eq!(coverage.sections[0].partly_read_by, ["ana"]);
    assert_eq!(coverage.sections[0].unread[0].path, "model.rs");
    assert_eq!(coverage.sections[0].unread[0].changes, ["m2"]);
}

#[test]
fn a_renamed_login_is_named_as_it_is_now() {
    let sql = MemorySql::new();
    let records = records(&sql);
    let c = review_state::change_item;
    tick(&records, "gh:1", "ana", vec![c("model.rs", "m1")], "A");
    records
        .note_reviewer("gh:1", "ana-renamed", "2026-12-02T00:00:00Z")
        .expect("kept");
    let coverage = super::coverage(&records, Some(&order()), &files_at("A"), "A").expect("reads");
    assert_eq!(coverage.reviewers[0].login, "ana-renamed");
}

#[test]
fn delete_my_data_removes_the_person_from_everyones_coverage() {
    let sql = MemorySql::new();
    let records = records(&sql);
    let c = review_state::change_item;
    tick(&records, "gh:1", "ana", vec![c("model.rs", "m1")], "A");
    tick(&records, "gh:2", "bo", vec![c("api.rs", "h1")], "A");
    records.forget("gh:1").expect("forgets");
    let coverage = super::coverage(&records, Some(&order()), &files_at("A"), "A").expect("reads");
    let logins: Vec<&str> = coverage
        .reviewers
        .iter()
        .map(|r| r.login.as_str())
        .collect();
    assert_eq!(logins, ["bo"]);
    let left: Vec<String> = sql
        .rows::<Person>("SELECT person FROM reviewers", &[])
        .expect("reads")
        .into_iter()
        .map(|row| row.person)
        .collect();
    assert_eq!(left, ["gh:2"]);
}

#[test]
fn nobody_ticked_means_one_unread_entry_per_file_and_no_reviewers() {
    let sql = MemorySql::new();
    let records = records(&sql);
    let coverage = super::coverage(&records, Some(&order()), &files_at("A"), "A").expect("reads");
    assert!(coverage.reviewers.is_empty());
    assert_eq!(coverage.totals.files_unread, 3);
    assert_eq!(coverage.totals.sections_unread, 2);
}

#[derive(serde::Deserialize)]
struct Person {
    person: String,
}

//! Coverage rules: several reviewers, earlier versions, split files, files without hunks, totals.

use super::*;

fn change(path: &str, id: &str) -> String {
    format!("change:{path}#{id}")
}

fn entry(path: &str, ids: &[&str]) -> EntryItems {
    EntryItems {
        path: path.to_string(),
        items: ids.iter().map(|id| change(path, id)).collect(),
    }
}

fn blob(path: &str, sha: &str) -> EntryItems {
    EntryItems {
        path: path.to_string(),
        items: vec![format!("blob:{path}#{sha}")],
    }
}

fn section(title: &str, entries: Vec<EntryItems>) -> SectionItems {
    SectionItems {
        title: Some(title.to_string()),
        entries,
    }
}

fn reviewer(login: &str, ticked: &[String], at: &str) -> ReviewerTicks {
    ReviewerTicks {
        login: login.to_string(),
        ticked: ticked.to_vec(),
        changed: Vec::new(),
        last_active: at.to_string(),
    }
}

/// Two sections: storage (two files, one split across both sections) and the migration.
fn order() -> OrderItems {
    OrderItems {
        sections: vec![
            section(
                "Storage",
                vec![
                    entry("src/store.rs", &["h1", "h2"]),
                    entry("src/db.rs", &["h3"]),
                ],
            ),
            section(
                "Migration",
                vec![
                    entry("migrations/0001.sql", &["h4"]),
                    entry("src/db.rs", &["h5"]),
                    blob("assets/logo.png", "abc"),
                ],
            ),
        ],
        not_in_order: vec![entry("src/late.rs", &["h9"])],
    }
}

#[test]
fn names_each_reviewer_on_what_they_read_and_finds_what_nobody_read() {
    let ana = reviewer(
        "ana",
        &[
            change("src/store.rs", "h1"),
            change("src/store.rs", "h2"),
            change("src/db.rs", "h3"),
        ],
        "2026-12-01T10:00:00Z",
    );
    let bo = reviewer(
        "Bo",
        &[
            change("src/store.rs", "h1"),
            change("migrations/0001.sql", "h4"),
        ],
        "2026-12-02T10:00:00Z",
    );
    let coverage = coverage(&order(), vec![bo, ana]);

    assert_eq!(coverage.logins(&coverage.entries[0][0].read), ["ana"]);
    assert_eq!(coverage.logins(&coverage.entries[0][0].partly), ["Bo"]);
    assert_eq!(coverage.logins(&coverage.entries[1][0].read), ["Bo"]);
    let storage = &coverage.sections[0];
    assert_eq!(storage.read_by, ["ana"]);
    assert_eq!(storage.partly_read_by, ["Bo"]);
    assert!(storage.unread.is_empty());
    let migration = &coverage.sections[1];
    assert!(migration.read_by.is_empty());
    assert_eq!(migration.partly_read_by, ["Bo"]);
    assert_eq!(
        migration.unread,
        [
            UnreadFile {
                path: "src/db.rs".into(),
                changes: vec!["h5".into()]
            },
            UnreadFile {
                path: "assets/logo.png".into(),
                changes: vec![]
            },
        ]
    );
    assert_eq!(
        coverage.unread_not_in_order,
        [UnreadFile {
            path: "src/late.rs".into(),
            changes: vec!["h9".into()]
        }]
    );
}

#[test]
fn a_split_file_counts_as_read_only_when_every_part_is() {
    let ana = reviewer(
        "ana",
        &[
            change("src/db.rs", "h3"),
            change("src/store.rs", "h1"),
            change("src/store.rs", "h2"),
        ],
        "2026-12-01T10:00:00Z",
    );
    let coverage = coverage(&order(), vec![ana]);
    // src/db.rs is split: ana read its part in Storage, not its part in Migration.
    assert_eq!(coverage.reviewers[0].files_read, 1);
    assert_eq!(coverage.totals.files, 5);
    assert_eq!(coverage.totals.files_read, 1);
    assert_eq!(coverage.totals.files_unread, 3);
    assert_eq!(coverage.totals.changes, 7);
    assert_eq!(coverage.totals.changes_unread, 4);
    assert_eq!(coverage.totals.sections_unread, 1);
}

#[test]
fn two_reviewers_together_read_a_file_neither_read_alone() {
    let ana = reviewer("ana", &[change("src/store.rs", "h1")], "t1");
    let bo = reviewer("bo", &[change("src/store.rs", "h2")], "t2");
    let coverage = coverage(&order(), vec![ana, bo]);
    assert!(coverage.entries[0][0].read.is_empty());
    assert_eq!(
        coverage.logins(&coverage.entries[0][0].partly),
        ["ana", "bo"]
    );
    assert!(coverage.entries[0][0].unread.is_empty());
    assert_eq!(coverage.totals.files_read, 1);
    assert_eq!(coverage.reviewers[0].files_read, 0);
}

#[test]
fn an_earlier_version_read_is_named_as_such_not_as_read() {
    // Ana reviewed src/store.rs at an earlier head; a push changed h2 into h2b since.
    let mut ana = reviewer(
        "ana",
        &[change("src/store.rs", "h1"), change("src/store.rs", "h2")],
        "t1",
    );
    ana.changed.push(change("src/store.rs", "h2b"));
    let mut order = order();
    order.sections[0].entries[0] = entry("src/store.rs", &["h1", "h2b"]);
    let coverage = coverage(&order, vec![ana]);
    let store = &coverage.entries[0][0];
    assert!(store.read.is_empty());
    assert_eq!(coverage.logins(&store.earlier), ["ana"]);
    assert!(store.partly.is_empty());
    assert_eq!(store.unread, [change("src/store.rs", "h2b")]);
    assert_eq!(coverage.sections[0].partly_read_by, ["ana"]);
}

#[test]
fn ticks_of_changes_no_longer_in_the_pull_request_count_for_nothing() {
    let ana = reviewer(
        "ana",
        &[change("src/gone.rs", "h7"), change("src/store.rs", "old")],
        "t1",
    );
    let coverage = coverage(&order(), vec![ana]);
    assert_eq!(coverage.reviewers[0].files_read, 0);
    assert_eq!(coverage.totals.changes_unread, coverage.totals.changes);
    assert_eq!(coverage.totals.sections_unread, 2);
    assert!(coverage
        .sections
        .iter()
        .all(|s| s.partly_read_by.is_empty()));
}

#[test]
fn a_file_without_hunks_is_read_by_its_blob() {
    let ana = reviewer("ana", &["blob:assets/logo.png#abc".to_string()], "t1");
    let coverage = coverage(&order(), vec![ana]);
    assert_eq!(coverage.logins(&coverage.entries[1][2].read), ["ana"]);
    assert_eq!(coverage.reviewers[0].files_read, 1);
}

#[test]
fn an_entry_with_nothing_to_review_names_nobody_and_is_not_unread() {
    let order = OrderItems {
        sections: vec![section(
            "Gone",
            vec![EntryItems {
                path: "src/removed-from-pr.rs".into(),
                items: vec![],
            }],
        )],
        not_in_order: vec![],
    };
    let coverage = coverage(&order, vec![reviewer("ana", &[], "t1")]);
    assert!(coverage.sections[0].read_by.is_empty());
    assert!(coverage.sections[0].unread.is_empty());
    assert_eq!(coverage.totals.files, 0);
    assert_eq!(coverage.totals.sections_unread, 0);
}

#[test]
fn reviewers_are_listed_by_login_whatever_order_they_came_in() {
    let coverage = coverage(
        &order(),
        vec![
            reviewer("zed", &[], "t"),
            reviewer("Amy", &[], "t"),
            reviewer("bo", &[], "t"),
        ],
    );
    let logins: Vec<&str> = coverage
        .reviewers
        .iter()
        .map(|r| r.login.as_str())
        .collect();
    assert_eq!(logins, ["Amy", "bo", "zed"]);
    assert_eq!(coverage.reviewer("AMY"), Some(0));
}

#[test]
fn more_than_64_reviewers_are_each_counted() {
    let reviewers: Vec<ReviewerTicks> = (0..70)
        .map(|n| reviewer(&format!("r{n:02}"), &[change("src/db.rs", "h3")], "t"))
        .collect();
    let coverage = coverage(&order(), reviewers);
    assert_eq!(coverage.logins(&coverage.entries[0][1].read).len(), 70);
    assert!(coverage.entries[0][1].read.has(69));
}

#[test]
fn a_report_names_twenty_five_unread_files_a_section_and_counts_the_rest() {
    let order = OrderItems {
        sections: vec![section(
            "Big",
            (0..40)
                .map(|n| entry(&format!("f{n}.rs"), &["h"]))
                .collect(),
        )],
        not_in_order: (0..30)
            .map(|n| entry(&format!("late{n}.rs"), &["h"]))
            .collect(),
    };
    let report = report(&coverage(&order, vec![]));
    assert_eq!(report.sections[0].unread.len(), MAX_UNREAD_NAMED);
    assert_eq!(report.sections[0].more_unread, 15);
    assert_eq!(report.not_in_order.len(), MAX_UNREAD_NAMED);
    assert_eq!(report.more_not_in_order, 5);
    assert_eq!(unread_sections(&report), [(1, Some("Big"))]);
}

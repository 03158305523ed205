//! The team marks, notes and summary, and the outline's names.

use super::*;
use crate::review::coverage::{coverage, EntryItems, OrderItems, ReviewerTicks, SectionItems};

fn order() -> OrderItems {
    let entry = |path: &str, id: &str| EntryItems {
        path: path.into(),
        items: vec![format!("change:{path}#{id}")],
    };
    OrderItems {
        sections: vec![SectionItems {
            title: Some("One".into()),
            entries: vec![
                entry("a.rs", "h1"),
                entry("b.rs", "h2"),
                entry("c.rs", "h3"),
            ],
        }],
        not_in_order: vec![],
    }
}

fn reviewer(login: &str, items: &[&str]) -> ReviewerTicks {
    ReviewerTicks {
        login: login.into(),
        ticked: items.iter().map(|item| item.to_string()).collect(),
        changed: Default::default(),
        last_active: "2026-12-01T10:00:00Z".into(),
    }
}

#[test]
fn one_reviewer_alone_sees_no_team() {
    let alone = coverage(&order(), vec![reviewer("ana", &["change:a.rs#h1"])]);
    assert!(Team::of(Some(&alone), "ana").is_none());
    assert!(
        Team::of(Some(&alone), "ANA").is_none(),
        "logins compare without case"
    );
    assert!(Team::of(None, "ana").is_none());
    assert!(Team::of(Some(&alone), "bo").is_some(), "bo sees ana");
}

#[test]
fn the_marks_name_the_others_never_the_viewer() {
    let both = coverage(
        &order(),
        vec![
            reviewer("ana", &["change:a.rs#h1", "change:b.rs#h2"]),
            reviewer("bo", &["change:a.rs#h1"]),
        ],
    );
    let team = Team::of(Some(&both), "ana").expect("bo is another");
    let mut mark = String::new();
    outline_mark(&mut mark, &team, &both.entries[0][0]);
    assert!(mark.contains("✓1"), "{mark}");
    assert!(mark.contains("Read by bo."), "{mark}");
    assert!(!mark.contains("ana"), "{mark}");
    let mut none = String::new();
    outline_mark(&mut none, &team, &both.entries[0][1]);
    assert_eq!(none, "", "only ana read b.rs");
    let mut note = String::new();
    entry_note(&mut note, &team, &both.entries[0][2]);
    assert!(note.contains("Nobody has reviewed this yet."), "{note}");
}

#[test]
fn the_summary_counts_each_reviewer_and_what_nobody_read() {
    let both = coverage(
        &order(),
        vec![
            reviewer("ana", &["change:a.rs#h1"]),
            reviewer("bo", &["change:b.rs#h2"]),
        ],
    );
    let team = Team::of(Some(&both), "bo").expect("ana is another");
    let mut out = String::new();
    summary(&mut out, &team, "/r/o/r/pull/1", &|t| t.to_string());
    assert!(out.contains("<strong>ana</strong> · 1 of 3 files"), "{out}");
    assert!(
        out.contains("<strong>bo</strong> (you) · 1 of 3 files"),
        "{out}"
    );
    assert!(
        out.contains("Nobody has read 1 file and 1 change yet."),
        "{out}"
    );
    assert!(out.contains("/r/o/r/pull/1?view=unread"), "{out}");
}

#[test]
fn logins_are_escaped() {
    let hostile = coverage(&order(), vec![reviewer("<b>x", &["change:a.rs#h1"])]);
    let team = Team::of(Some(&hostile), "ana").expect("another");
    let mut out = String::new();
    outline_mark(&mut out, &team, &hostile.entries[0][0]);
    summary(&mut out, &team, "/r", &|t| t.to_string());
    assert!(!out.contains("<b>x"), "{out}");
}

#[test]
fn colliding_names_get_their_folder() {
    let paths = [
        "docs/README.md",
        "api/README.md",
        "src/main.rs",
        "a/x/mod.rs",
        "b/x/mod.rs",
    ];
    let names = outline_names(paths.into_iter());
    assert_eq!(names["docs/README.md"], "docs/README.md");
    assert_eq!(names["api/README.md"], "api/README.md");
    assert_eq!(names["src/main.rs"], "main.rs");
    assert_eq!(names["a/x/mod.rs"], "a/x/mod.rs");
    assert_eq!(names["b/x/mod.rs"], "b/x/mod.rs");
    let nested = outline_names(["README.md", "docs/README.md"].into_iter());
    assert_eq!(nested["README.md"], "README.md");
    assert_eq!(nested["docs/README.md"], "docs/README.md");
}

//! Review state across a push: kept and cleared ticks, "changed since you reviewed", "since your
//! last visit", files that left, and the migration of path-keyed ticks.

use std::collections::{BTreeMap, HashMap};

use serde_json::json;

use super::*;
use crate::review::model::snapshot::{SnapshotChange, SnapshotFile};

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
        patch: Some("@@ -1 +1 @@\n+x".into()),
        depends_on: Vec::new(),
        test_of: None,
        likely_generated: false,
        blob_sha: Some(format!("blob-{path}")),
    }
}

fn tick(item: String, head: &str, at: &str) -> TickRow {
    TickRow {
        item,
        head_sha: Some(head.into()),
        at: at.into(),
    }
}

/// Head A: grows.rs {ha}, gains.rs {hb}, shifts.rs {hc}, partial.rs {hd, he}, gone.rs {hf},
/// logo.png (no hunks). The reviewer ticks all of grows, gains, shifts, logo and one change of
/// partial at A. Head B: grows.rs's hunk grew (ha → hA2), gains.rs gained hb2, shifts.rs moved
/// (same id), gone.rs left, new.rs arrived, logo.png unchanged.
fn scenario() -> (ReviewerState, Vec<SnapshotFile>) {
    let at_a = vec![
        file("grows.rs", &["ha"]),
        file("gains.rs", &["hb"]),
        file("shifts.rs", &["hc"]),
        file("partial.rs", &["hd", "he"]),
        file("gone.rs", &["hf"]),
        SnapshotFile {
            changes: Vec::new(),
            patch: None,
            ..file("logo.png", &[])
        },
    ];
    let ticks = vec![
        tick(change_item("grows.rs", "ha"), "A", "2026-12-01T10:00:00Z"),
        tick(change_item("gains.rs", "hb"), "A", "2026-12-01T10:01:00Z"),
        tick(change_item("shifts.rs", "hc"), "A", "2026-12-01T10:02:00Z"),
        tick(change_item("partial.rs", "hd"), "A", "2026-12-01T10:03:00Z"),
        tick(
            blob_item("logo.png", "blob-logo.png"),
            "A",
            "2026-12-01T10:04:00Z",
        ),
        tick("check:abc".into(), "A", "2026-12-01T10:05:00Z"),
    ];
    let mut heads = BTreeMap::new();
    heads.insert("A".to_string(), head_files(&at_a));
    let at_b = vec![
        file("grows.rs", &["hA2"]),
        file("gains.rs", &["hb", "hb2"]),
        file("shifts.rs", &["hc"]),
        file("partial.rs", &["hd", "he"]),
        file("new.rs", &["hn"]),
        at_a[5].clone(),
    ];
    (ReviewerState { ticks, heads }, at_b)
}

#[test]
fn a_push_keeps_unchanged_ticks_and_clears_changed_ones() {
    let (stored, files) = scenario();
    let state = review_state(&stored, &files, "B");
    let items = |path: &str| {
        file_items(
            files
                .iter()
                .find(|f| f.path == path)
                .unwrap_or_else(|| panic!("{path}")),
        )
    };
    assert!(!state.all_ticked(&items("grows.rs")), "its hunk grew");
    assert!(!state.all_ticked(&items("gains.rs")), "it gained a hunk");
    assert!(
        state.all_ticked(&items("shifts.rs")),
        "its lines only moved"
    );
    assert!(state.all_ticked(&items("logo.png")), "the same blob");
    assert!(
        !state.all_ticked(&items("partial.rs")),
        "one of two changes"
    );
    assert!(state.ticked.contains("check:abc"), "checklist ticks stay");

    let changed: HashMap<&str, Vec<&str>> = state
        .changed
        .iter()
        .map(|(path, keys)| {
            let mut keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            keys.sort_unstable();
            (path.as_str(), keys)
        })
        .collect();
    assert_eq!(
        changed,
        HashMap::from([("grows.rs", vec!["hA2"]), ("gains.rs", vec!["hb2"])]),
        "partial.rs is partly reviewed, not changed"
    );
    assert!(state.is_changed_since_reviewed(&change_item("gains.rs", "hb2")));
    assert!(!state.is_changed_since_reviewed(&change_item("gains.rs", "hb")));
}

#[test]
fn since_your_last_visit_shows_exactly_what_is_new() {
    let (stored, files) = scenario();
    let state = review_state(&stored, &files, "B");
    let since = state
        .since
        .clone()
        .unwrap_or_else(|| panic!("a visit at A"));
    assert_eq!(since.head_sha, "A");
    assert!(since.known);
    let mut new: Vec<(String, Vec<String>)> = since
        .new_keys
        .iter()
        .map(|(path, keys)| {
            let mut keys: Vec<String> = keys.iter().cloned().collect();
            keys.sort_unstable();
            (path.clone(), keys)
        })
        .collect();
    new.sort();
    assert_eq!(
        new,
        vec![
            ("gains.rs".to_string(), vec!["hb2".to_string()]),
            ("grows.rs".to_string(), vec!["hA2".to_string()]),
            ("new.rs".to_string(), vec!["hn".to_string()]),
        ]
    );
    assert_eq!(since.left, vec!["gone.rs".to_string()]);
    assert!(state.is_new_since_visit(&change_item("new.rs", "hn")));
    assert!(
        !state.is_new_since_visit(&change_item("partial.rs", "he")),
        "old, only unreviewed"
    );
}

#[test]
fn ticks_at_the_current_head_are_no_earlier_visit() {
    let (mut stored, files) = scenario();
    for tick in &mut stored.ticks {
        tick.head_sha = Some("B".into());
    }
    let state = review_state(&stored, &files, "B");
    assert_eq!(state.since, None);
    assert!(state.changed.is_empty());
}

#[test]
fn an_unrecorded_head_is_said_to_be_unknown() {
    let (mut stored, files) = scenario();
    stored.heads.clear();
    let state = review_state(&stored, &files, "B");
    let since = state
        .since
        .clone()
        .unwrap_or_else(|| panic!("a visit at A"));
    assert!(!since.known);
    assert!(!state.is_new_since_visit(&change_item("new.rs", "hn")));
    // Without the record every unreviewed change of a file reviewed at A counts as new to it.
    assert!(state.changed.contains_key("grows.rs"));
    assert!(state.changed.contains_key("partial.rs"));
}

#[test]
fn items_split_at_their_last_hash() {
    assert_eq!(item_path("change:a#b/c.rs#h1x"), Some("a#b/c.rs"));
    assert_eq!(item_key("change:a#b/c.rs#h1x").as_deref(), Some("h1x"));
    assert_eq!(item_key("blob:x.png#abc").as_deref(), Some("blob:abc"));
    assert_eq!(item_path("check:abc"), None);
    assert_eq!(
        head_files(&[file("a.rs", &["h1", "h2"])]),
        json!({ "a.rs": ["h1", "h2"] })
    );
}

#[test]
fn path_keyed_ticks_migrate_to_content() {
    let legacy = |item: &str| TickRow {
        item: item.into(),
        head_sha: None,
        at: "2026-11-01T00:00:00Z".into(),
    };
    let ticks = vec![
        legacy("file:same.rs"),
        legacy("file:moved.rs"),
        legacy("file:split#1.rs#h1,h2"),
        legacy("check:abc"),
    ];
    let entry_items = HashMap::from([
        (
            "file:same.rs".to_string(),
            vec![change_item("same.rs", "h9")],
        ),
        (
            "file:moved.rs".to_string(),
            vec![change_item("moved.rs", "h8")],
        ),
    ]);
    let migration = migrate_legacy(&ticks, &entry_items, "OLD", &|path| path == "same.rs");
    let added: Vec<&str> = migration.add.iter().map(|row| row.item.as_str()).collect();
    assert_eq!(
        added,
        vec![
            "change:same.rs#h9",
            "blob:moved.rs#reviewed-at-OLD",
            "change:split#1.rs#h1",
            "change:split#1.rs#h2",
        ]
    );
    assert!(migration
        .add
        .iter()
        .all(|row| row.head_sha.as_deref() == Some("OLD")));
    assert_eq!(
        migration.remove,
        vec!["file:same.rs", "file:moved.rs", "file:split#1.rs#h1,h2"]
    );

    // The migrated state: same.rs stays reviewed; moved.rs says it changed.
    let mut rows: Vec<TickRow> = migration.add;
    rows.push(legacy("check:abc"));
    let files = vec![file("same.rs", &["h9"]), file("moved.rs", &["h8"])];
    let state = review_state(
        &ReviewerState {
            ticks: rows,
            heads: BTreeMap::new(),
        },
        &files,
        "NOW",
    );
    assert!(state.all_ticked(&file_items(&files[0])));
    assert!(state.changed.contains_key("moved.rs"));
    assert!(!state.changed.contains_key("same.rs"));
}

#[test]
fn a_files_keys_are_its_items_keys() {
    let mut blob = file("logo #1.png", &[]);
    blob.blob_sha = Some("b".repeat(40));
    let mut removed = file("gone#.txt", &[]);
    removed.blob_sha = None;
    for file in [file("src/a#b.rs", &["h1", "h2x"]), blob, removed] {
        let from_items: Vec<String> = file_items(&file)
            .iter()
            .filter_map(|item| item_key(item))
            .collect();
        assert_eq!(file_keys(&file), from_items, "{}", file.path);
    }
}

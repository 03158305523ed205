//! The records' conformance suite, run on SQLite in memory (the statements the object runs):
//! saves against `base_version`, history and its prune, ticks and their bounds, recorded heads,
//! the yearly sweep, the path-tick migration, drafts and their cap, and "Delete my data".
//! Each bound has a test that fails when the bound is removed.

use serde_json::json;

use super::{HeadRecord, Records, Tick, TickSweep, MAX_HEADS, TICK_SWEEP_INTERVAL_MS};
use crate::app::pull_request::test_support::storage;
use crate::github::reviews::{Anchor, Side};
use crate::person_data::{MAX_VERSIONS, TICK_RETENTION_SECONDS};
use crate::ports::clock::FixedClock;
use crate::ports::sql::native::MemorySql;
use crate::ports::sql::Sql;
use crate::review::drafts::{Draft, DraftDelete, DraftPut, PutOutcome, MAX_DRAFTS_PER_PERSON};
use crate::review::model::saved::{DocumentKind, SaveOutcome, SaveRequest};
use crate::review::model::ticks::{TickOutcome, TickRow, MAX_TICKS_PER_PERSON};

mod forget;

fn save(kind: DocumentKind, base_version: u64, n: u64) -> SaveRequest {
    SaveRequest {
        kind,
        base_version,
        body: json!({ "n": n, "title": "ünïcode \"quoted\"" }),
        person: "octo".into(),
        client: n.is_multiple_of(2).then(|| "agent".to_string()),
        source: "agent".into(),
        head_sha: format!("head{n}"),
        saved_at: format!("2026-01-01T00:00:{:02}Z", n % 60),
    }
}

fn saved(outcome: SaveOutcome) -> u64 {
    match outcome {
        SaveOutcome::Saved { version, .. } => version,
        SaveOutcome::Conflict { latest } => panic!("conflict at {}", latest.version),
    }
}

#[test]
fn the_schema_is_created_once_and_again_without_harm() {
    let sql = storage();
    Records::new(&sql).schema().unwrap();
    Records::new(&sql).schema().unwrap();
}

#[test]
fn a_save_writes_the_next_version_and_a_stale_base_conflicts() {
    let sql = storage();
    let records = Records::new(&sql);
    assert_eq!(
        records.save(&save(DocumentKind::Order, 0, 1)).unwrap(),
        SaveOutcome::Saved {
            version: 1,
            has_diagram: false
        }
    );
    // Two saves against the same base, as two agents send them at once: the object runs them
    // one after the other, so the second finds version 1 and writes nothing.
    let first = records.save(&save(DocumentKind::Order, 1, 2)).unwrap();
    let second = records.save(&save(DocumentKind::Order, 1, 3)).unwrap();
    assert_eq!(saved(first), 2);
    match second {
        SaveOutcome::Conflict { latest } => {
            assert_eq!((latest.version, latest.head_sha.as_str()), (2, "head2"));
            assert_eq!(latest.client.as_deref(), Some("agent"));
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
    assert_eq!(records.history(DocumentKind::Order).unwrap().len(), 2);
    // A base ahead of the latest is stale too.
    assert!(matches!(
        records.save(&save(DocumentKind::Order, 7, 4)).unwrap(),
        SaveOutcome::Conflict { .. }
    ));
}

#[test]
fn an_order_save_says_whether_a_diagram_is_saved() {
    let sql = storage();
    let records = Records::new(&sql);
    saved(records.save(&save(DocumentKind::Diagram, 0, 1)).unwrap());
    assert_eq!(
        records.save(&save(DocumentKind::Order, 0, 1)).unwrap(),
        SaveOutcome::Saved {
            version: 1,
            has_diagram: true
        }
    );
}

#[test]
fn the_latest_versions_history_and_one_version_read_back_as_saved() {
    let sql = storage();
    let records = Records::new(&sql);
    for n in 1..=3 {
        saved(records.save(&save(DocumentKind::Order, n - 1, n)).unwrap());
    }
    let current = records.current().unwrap();
    let order = current.order.unwrap();
    assert_eq!((order.version, order.body["n"].clone()), (3, json!(3)));
    assert_eq!(order.client, None);
    assert_eq!(current.diagram, None);
    let history: Vec<u64> = records
        .history(DocumentKind::Order)
        .unwrap()
        .iter()
        .map(|summary| summary.version)
        .collect();
    assert_eq!(history, [3, 2, 1]);
    let second = records.version(DocumentKind::Order, 2).unwrap().unwrap();
    assert_eq!(second.client.as_deref(), Some("agent"));
    assert_eq!(second.body, save(DocumentKind::Order, 1, 2).body);
    assert_eq!(records.version(DocumentKind::Order, 9).unwrap(), None);
}

/// The stored text is what earlier builds wrote: the body as serde_json writes the value, every
/// column as it was (`docs/storage.md`), so existing objects keep reading.
#[test]
fn stored_values_are_the_columns_earlier_builds_wrote() {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Stored {
        version: i64,
        body: String,
        person: String,
        client: Option<String>,
        source: String,
        head_sha: String,
        saved_at: String,
    }
    let sql = storage();
    let records = Records::new(&sql);
    saved(records.save(&save(DocumentKind::Order, 0, 1)).unwrap());
    let rows: Vec<Stored> = sql.rows("SELECT * FROM orders", &[]).unwrap();
    assert_eq!(
        rows,
        [Stored {
            version: 1,
            body: r#"{"n":1,"title":"ünïcode \"quoted\""}"#.into(),
            person: "octo".into(),
            client: None,
            source: "agent".into(),
            head_sha: "head1".into(),
            saved_at: "2026-01-01T00:00:01Z".into(),
        }]
    );
    // A row an earlier build wrote reads back.
    sql.run(
        "INSERT INTO diagrams VALUES (1, '{\"nodes\":[]}', 'mona', 'claude', 'web', 'abc', '2025-05-05T05:05:05Z')",
        &[],
    )
    .unwrap();
    let diagram = records.current().unwrap().diagram.unwrap();
    assert_eq!(diagram.body, json!({ "nodes": [] }));
    assert_eq!(diagram.client.as_deref(), Some("claude"));
}

/// Fails when the prune at `MAX_VERSIONS` is removed: the table would keep every version.
#[test]
fn a_save_keeps_the_newest_max_versions_of_its_kind() {
    let sql = storage();
    let records = Records::new(&sql);
    saved(records.save(&save(DocumentKind::Diagram, 0, 1)).unwrap());
    for n in 1..=MAX_VERSIONS + 2 {
        saved(records.save(&save(DocumentKind::Order, n - 1, n)).unwrap());
    }
    let history = records.history(DocumentKind::Order).unwrap();
    assert_eq!(history.len() as u64, MAX_VERSIONS);
    assert_eq!(history.first().unwrap().version, MAX_VERSIONS + 2);
    assert_eq!(history.last().unwrap().version, 3);
    assert_eq!(records.version(DocumentKind::Order, 2).unwrap(), None);
    // The other kind is untouched.
    assert_eq!(records.history(DocumentKind::Diagram).unwrap().len(), 1);
}

fn tick(person: &str, items: &[&str], done: bool, head: &str, at: &str) -> Tick {
    Tick {
        person: person.into(),
        items: items.iter().map(|item| item.to_string()).collect(),
        done,
        head_sha: head.into(),
        at: at.into(),
    }
}

#[test]
fn ticks_are_stored_per_person_and_unticking_deletes_them() {
    let sql = storage();
    let records = Records::new(&sql);
    let at = "2026-01-01T00:00:00Z";
    let reply = records
        .tick(&tick(
            "gh:1",
            &["change:a.rs#x", "blob:b.rs#y"],
            true,
            "h1",
            at,
        ))
        .unwrap();
    assert_eq!(
        (reply.outcome, reply.known_head),
        (TickOutcome::Stored, false)
    );
    records
        .tick(&tick("gh:2", &["change:a.rs#x"], true, "h1", at))
        .unwrap();
    records
        .tick(&tick("gh:1", &["blob:b.rs#y"], false, "h1", at))
        .unwrap();
    assert_eq!(
        records.ticks("gh:1").unwrap(),
        [TickRow {
            item: "change:a.rs#x".into(),
            head_sha: Some("h1".into()),
            at: at.into()
        }]
    );
    assert_eq!(records.ticks("gh:2").unwrap().len(), 1);
    let count: Vec<super::Count> = sql.rows("SELECT COUNT(*) AS n FROM ticks", &[]).unwrap();
    assert_eq!(count[0].n, 2, "unticking leaves no row behind");
}

/// Fails when the cap is removed: the tick past it would be stored.
#[test]
fn a_person_holds_at_most_max_ticks_and_unticking_frees_room() {
    let sql = storage();
    let records = Records::new(&sql);
    let items: Vec<String> = (0..MAX_TICKS_PER_PERSON)
        .map(|i| format!("item{i}"))
        .collect();
    let names: Vec<&str> = items.iter().map(String::as_str).collect();
    let at = "2026-01-01T00:00:00Z";
    let full = records.tick(&tick("gh:1", &names, true, "h", at)).unwrap();
    assert_eq!(full.outcome, TickOutcome::Stored);
    let over = records
        .tick(&tick("gh:1", &["one-more"], true, "h", at))
        .unwrap();
    assert_eq!(over.outcome, TickOutcome::Full);
    assert_eq!(records.ticks("gh:1").unwrap().len(), MAX_TICKS_PER_PERSON);
    // Another person is not held to this one's ticks.
    let other = records
        .tick(&tick("gh:2", &["one-more"], true, "h", at))
        .unwrap();
    assert_eq!(other.outcome, TickOutcome::Stored);
    records
        .tick(&tick("gh:1", &["item0"], false, "h", at))
        .unwrap();
    let room = records
        .tick(&tick("gh:1", &["one-more"], true, "h", at))
        .unwrap();
    assert_eq!(room.outcome, TickOutcome::Stored);
}

fn head(sha: &str, minute: u32) -> HeadRecord {
    HeadRecord {
        head_sha: sha.into(),
        files: json!({ "a.rs": [sha] }),
        at: format!("2026-01-01T00:{minute:02}:00Z"),
    }
}

/// Fails when the bound is removed: the oldest head would stay.
#[test]
fn the_newest_max_heads_are_kept_once_each() {
    let sql = storage();
    let records = Records::new(&sql);
    for minute in 0..=MAX_HEADS as u32 {
        records
            .record_head(&head(&format!("h{minute}"), minute))
            .unwrap();
    }
    // Recorded once: a second record of a head changes nothing.
    records.record_head(&head("h20", 59)).unwrap();
    assert!(!records.knows_head("h0").unwrap());
    assert!(records.knows_head("h1").unwrap());
    let heads = records.heads(&["h0", "h1", "h20"]).unwrap();
    assert_eq!(heads.keys().collect::<Vec<_>>(), ["h1", "h20"]);
    assert_eq!(heads["h20"], json!({ "a.rs": ["h20"] }));
    let count: Vec<super::Count> = sql.rows("SELECT COUNT(*) AS n FROM heads", &[]).unwrap();
    assert_eq!(count[0].n as usize, MAX_HEADS);
    // A tick says whether its head is recorded.
    let reply = records
        .tick(&tick("gh:1", &["x"], true, "h20", "2026-01-01T00:00:00Z"))
        .unwrap();
    assert!(reply.known_head);
}

const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// Fails when the sweep is removed, or when it runs on every call.
#[test]
fn ticks_unchanged_for_a_year_are_swept_at_most_hourly() {
    let sql = storage();
    let records = Records::new(&sql);
    let now = 1_800_000_000_000;
    let clock = FixedClock::at(now);
    let old = crate::time::rfc3339(now - TICK_RETENTION_SECONDS * 1000 - DAY_MS);
    let recent = crate::time::rfc3339(now - DAY_MS);
    records
        .tick(&tick("gh:1", &["old"], true, "h", &old))
        .unwrap();
    records
        .tick(&tick("gh:1", &["recent"], true, "h", &recent))
        .unwrap();
    let sweep = TickSweep::default();
    sweep.run(&records, &clock).unwrap();
    let items = |records: &Records<'_, MemorySql>| -> Vec<String> {
        records
            .ticks("gh:1")
            .unwrap()
            .into_iter()
            .map(|row| row.item)
            .collect()
    };
    assert_eq!(items(&records), ["recent"]);
    // Within the hour the instance does not read the table again.
    records
        .tick(&tick("gh:1", &["old"], true, "h", &old))
        .unwrap();
    clock.advance(TICK_SWEEP_INTERVAL_MS - 1);
    sweep.run(&records, &clock).unwrap();
    assert_eq!(items(&records), ["old", "recent"]);
    clock.advance(1);
    sweep.run(&records, &clock).unwrap();
    assert_eq!(items(&records), ["recent"]);
}

#[test]
fn path_ticks_are_replaced_by_content_items_keeping_their_time() {
    let sql = storage();
    let records = Records::new(&sql);
    // A tick from before content keys: no head, a path item.
    sql.run(
        "INSERT INTO ticks (person, item, done, updated_at) VALUES ('octo', 'file:a.rs', 1, '2025-01-01T00:00:00Z')",
        &[],
    )
    .unwrap();
    records
        .tick(&tick(
            "octo",
            &["change:a.rs#kept"],
            true,
            "h2",
            "2026-02-02T00:00:00Z",
        ))
        .unwrap();
    let old = records.ticks("octo").unwrap();
    assert_eq!(old[1].head_sha, None);
    let add = [
        TickRow {
            item: "change:a.rs#new".into(),
            head_sha: Some("h1".into()),
            at: "2025-01-01T00:00:00Z".into(),
        },
        TickRow {
            item: "change:a.rs#kept".into(),
            head_sha: Some("h1".into()),
            at: "2025-01-01T00:00:00Z".into(),
        },
    ];
    records
        .migrate("octo", &add, &["file:a.rs".into()])
        .unwrap();
    let after = records.ticks("octo").unwrap();
    assert_eq!(
        after,
        [
            // A content tick already there is left as it was.
            TickRow {
                item: "change:a.rs#kept".into(),
                head_sha: Some("h2".into()),
                at: "2026-02-02T00:00:00Z".into(),
            },
            add[0].clone(),
        ]
    );
}

fn draft(body: &str) -> Draft {
    Draft {
        id: 0,
        anchor: Anchor {
            path: "src/a.rs".into(),
            line: 3,
            side: Side::Right,
            start_line: None,
            start_side: None,
        },
        head_sha: "h1".into(),
        lines: vec!["let a = 1;".into()],
        body: body.into(),
        updated_at: "2026-01-01T00:00:00Z".into(),
    }
}

fn put(person: &str, id: Option<u64>, body: &str) -> DraftPut {
    DraftPut {
        person: person.into(),
        id,
        draft: draft(body),
    }
}

#[test]
fn drafts_are_stored_changed_only_by_their_person_and_deleted() {
    let sql = storage();
    let records = Records::new(&sql);
    let PutOutcome::Stored(first) = records.put_draft(&put("gh:1", None, "one")).unwrap() else {
        panic!("not stored")
    };
    let PutOutcome::Stored(second) = records.put_draft(&put("gh:1", None, "two")).unwrap() else {
        panic!("not stored")
    };
    assert_eq!(
        records
            .put_draft(&put("gh:1", Some(first), "one, changed"))
            .unwrap(),
        PutOutcome::Stored(first)
    );
    // Another person's id is missing to this one, and a sent draft too.
    assert_eq!(
        records
            .put_draft(&put("gh:2", Some(first), "theirs"))
            .unwrap(),
        PutOutcome::Missing
    );
    assert_eq!(
        records.put_draft(&put("gh:1", Some(999), "gone")).unwrap(),
        PutOutcome::Missing
    );
    let listed = records.drafts("gh:1").unwrap();
    let bodies: Vec<(u64, &str)> = listed.iter().map(|d| (d.id, d.body.as_str())).collect();
    assert_eq!(bodies, [(first, "one, changed"), (second, "two")]);
    assert_eq!(listed[0].anchor, draft("").anchor);
    assert!(records.drafts("gh:2").unwrap().is_empty());
    // The stored JSON is the draft without its id, as earlier builds wrote it.
    #[derive(serde::Deserialize)]
    struct Row {
        draft: String,
    }
    let rows: Vec<Row> = sql
        .rows("SELECT draft FROM drafts ORDER BY id", &[])
        .unwrap();
    assert_eq!(
        rows[1].draft,
        r#"{"id":0,"path":"src/a.rs","line":3,"side":"RIGHT","head_sha":"h1","lines":["let a = 1;"],"body":"two","updated_at":"2026-01-01T00:00:00Z"}"#
    );
    let removed = records
        .delete_drafts(&DraftDelete {
            person: "gh:2".into(),
            ids: vec![first],
        })
        .unwrap();
    assert_eq!(removed, 0, "nobody deletes another's draft");
    let removed = records
        .delete_drafts(&DraftDelete {
            person: "gh:1".into(),
            ids: vec![first, 999],
        })
        .unwrap();
    assert_eq!(removed, 1);
    assert_eq!(records.drafts("gh:1").unwrap().len(), 1);
}

/// Fails when the cap is removed: the draft past it would be stored.
#[test]
fn a_person_holds_at_most_max_drafts_and_may_still_change_them() {
    let sql = storage();
    let records = Records::new(&sql);
    for n in 0..MAX_DRAFTS_PER_PERSON {
        let outcome = records
            .put_draft(&put("gh:1", None, &format!("d{n}")))
            .unwrap();
        assert!(matches!(outcome, PutOutcome::Stored(_)));
    }
    assert_eq!(
        records.put_draft(&put("gh:1", None, "over")).unwrap(),
        PutOutcome::Full
    );
    assert_eq!(
        records.put_draft(&put("gh:1", Some(1), "changed")).unwrap(),
        PutOutcome::Stored(1)
    );
    assert!(matches!(
        records.put_draft(&put("gh:2", None, "theirs")).unwrap(),
        PutOutcome::Stored(_)
    ));
    assert_eq!(records.drafts("gh:1").unwrap().len(), MAX_DRAFTS_PER_PERSON);
}

#[test]
fn forgetting_a_person_removes_their_ticks_and_drafts_only() {
    let sql = storage();
    let records = Records::new(&sql);
    let at = "2026-01-01T00:00:00Z";
    records
        .tick(&tick("gh:1", &["a", "b"], true, "h", at))
        .unwrap();
    records.tick(&tick("gh:2", &["a"], true, "h", at)).unwrap();
    records.put_draft(&put("gh:1", None, "mine")).unwrap();
    records.put_draft(&put("gh:2", None, "theirs")).unwrap();
    assert_eq!(records.forget("gh:1").unwrap(), 3);
    assert!(records.ticks("gh:1").unwrap().is_empty());
    assert!(records.drafts("gh:1").unwrap().is_empty());
    assert_eq!(records.ticks("gh:2").unwrap().len(), 1);
    assert_eq!(records.drafts("gh:2").unwrap().len(), 1);
    assert_eq!(records.forget("gh:1").unwrap(), 0);
}

/// Issue 36: rows under a login move to the person id in one run; a tick the id holds stays.
#[test]
fn rows_under_a_login_move_to_the_person_id() {
    let sql = storage();
    let records = Records::new(&sql);
    records
        .tick(&tick(
            "octo",
            &["a", "b"],
            true,
            "h1",
            "2025-01-01T00:00:00Z",
        ))
        .unwrap();
    records
        .tick(&tick("gh:1", &["b"], true, "h2", "2026-01-01T00:00:00Z"))
        .unwrap();
    records.put_draft(&put("octo", None, "old draft")).unwrap();
    assert!(records.holds_rows("octo").unwrap());
    assert!(!records.holds_rows("someone").unwrap());
    records.move_rows("octo", "gh:1").unwrap();
    assert!(!records.holds_rows("octo").unwrap());
    let ticks = records.ticks("gh:1").unwrap();
    assert_eq!(ticks.len(), 2);
    assert_eq!(
        ticks[1].head_sha.as_deref(),
        Some("h2"),
        "the id's own tick stays"
    );
    assert_eq!(records.drafts("gh:1").unwrap()[0].body, "old draft");
}

//! "Delete my data" on a pull request's records keeps what the person saved (issue #37, from
//! `tests/e2e/operations.test.mjs`'s "Delete my data": the saved order stays, under the login that
//! saved it, and another person's ticks stay). The ticks and drafts that go are `tests`'.
//!
//! What not: the batches across pull requests and the person's own rows, which the Worker drives
//! (`app::oauth::settings`, `Server::delete_my_data`).

use serde_json::json;

use super::super::{Records, Tick};
use crate::app::pull_request::test_support::storage;
use crate::review::model::saved::{DocumentKind, SaveOutcome, SaveRequest};

fn save(kind: DocumentKind, person: &str) -> SaveRequest {
    SaveRequest {
        kind,
        base_version: 0,
        body: json!({ "overview": "Kept after deletion." }),
        person: person.into(),
        client: None,
        source: "agent".into(),
        head_sha: "h1".into(),
        saved_at: "2026-01-01T00:00:00Z".into(),
    }
}

fn tick(person: &str) -> Tick {
    Tick {
        person: person.into(),
        items: vec!["change:a.rs#x".into()],
        done: true,
        head_sha: "h1".into(),
        at: "2026-01-01T00:00:00Z".into(),
    }
}

#[test]
fn forgetting_a_person_keeps_the_orders_and_diagrams_they_saved() {
    let sql = storage();
    let records = Records::new(&sql);
    // The order, the diagram and the tick under the same key: forgetting it takes the tick only.
    for kind in [DocumentKind::Order, DocumentKind::Diagram] {
        let saved = records.save(&save(kind, "maint")).expect("the save runs");
        assert!(
            matches!(saved, SaveOutcome::Saved { version: 1, .. }),
            "{saved:?}"
        );
    }
    records.tick(&tick("maint")).expect("the tick runs");
    records.tick(&tick("octo")).expect("the tick runs");
    assert_eq!(records.forget("maint").expect("forget runs"), 1);
    assert!(records.ticks("maint").expect("ticks read").is_empty());
    assert_eq!(
        records.ticks("octo").expect("ticks read").len(),
        1,
        "octo's tick stays"
    );
    let current = records.current().expect("the records read");
    for (kind, record) in [("order", current.order), ("diagram", current.diagram)] {
        let record = record.unwrap_or_else(|| panic!("the {kind} stays"));
        assert_eq!(
            (record.version, record.person.as_str()),
            (1, "maint"),
            "{kind}"
        );
        assert_eq!(record.body["overview"], "Kept after deletion.", "{kind}");
    }
    for kind in [DocumentKind::Order, DocumentKind::Diagram] {
        assert_eq!(records.history(kind).expect("history reads").len(), 1);
    }
}

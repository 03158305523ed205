use serde_json::json;

use super::*;
use crate::review::change_id::describe_changes;
use crate::review::model::snapshot::SnapshotChange;
use crate::review::patch::parse_patch;

fn pairs(form: &[(&str, &str)]) -> Vec<(String, String)> {
    form.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn tick(item: &str, done: bool) -> Result<TickItem, Refused> {
    Ok(TickItem {
        item: item.into(),
        done,
    })
}

#[test]
fn one_tick_reads_as_the_form_always_sent_it() {
    let form = read_form(&pairs(&[("csrf", "t"), ("item", "check:1"), ("done", "1")]));
    assert_eq!(
        form,
        Ok(TickForm {
            batch: false,
            ticks: vec![("check:1".into(), tick("check:1", true))],
        })
    );
    // Its refusals are the tick's own, with their statuses.
    let missing = read_form(&pairs(&[("done", "1")])).unwrap();
    assert_eq!(missing.ticks[0].1, Err(bad_item()));
    let long = "x".repeat(MAX_TICK_ITEM_BYTES + 1);
    let too_long = read_form(&pairs(&[("item", &long), ("done", "1")])).unwrap();
    assert_eq!(too_long.ticks[0].1, Err(bad_item()));
    let bad = read_form(&pairs(&[("item", "check:1"), ("done", "yes")])).unwrap();
    assert_eq!(bad.ticks[0].1, Err(bad_done()));
    assert_eq!(bad_done().status, 400);
}

#[test]
fn a_batch_checks_each_tick_on_its_own() {
    let long = "x".repeat(MAX_TICK_ITEM_BYTES + 1);
    let form = read_form(&pairs(&[
        ("batch", "1"),
        ("item", "check:1"),
        ("done", "1"),
        ("item", &long),
        ("done", "1"),
        ("item", "file:a"),
        ("done", "2"),
        ("item", "file:b"),
        ("done", "0"),
    ]))
    .unwrap();
    assert!(form.batch);
    let checked: Vec<&Result<TickItem, Refused>> = form.ticks.iter().map(|(_, t)| t).collect();
    assert_eq!(
        checked,
        vec![
            &tick("check:1", true),
            &Err(bad_item()),
            &Err(bad_done()),
            &tick("file:b", false),
        ]
    );
}

#[test]
fn a_batch_that_is_not_pairs_or_too_long_is_refused_whole() {
    for form in [
        vec![("batch", "1")],
        vec![("batch", "1"), ("item", "a"), ("done", "1"), ("item", "b")],
        vec![("batch", "1"), ("done", "1")],
    ] {
        let refused = read_form(&pairs(&form)).unwrap_err();
        assert_eq!(refused.status, 400, "{form:?}");
    }
    let mut many = vec![("batch".to_string(), "1".to_string())];
    for i in 0..=MAX_BATCH_ITEMS {
        many.push(("item".into(), format!("check:{i}")));
        many.push(("done".into(), "1".into()));
    }
    let refused = read_form(&many).unwrap_err();
    assert!(refused.message.contains("100"), "{}", refused.message);
    many.truncate(1 + 2 * MAX_BATCH_ITEMS);
    assert_eq!(read_form(&many).unwrap().ticks.len(), MAX_BATCH_ITEMS);
}

fn file(path: &str, patch: &str) -> SnapshotFile {
    let hunks = parse_patch(patch).unwrap();
    let changes: Vec<SnapshotChange> = describe_changes(&hunks)
        .into_iter()
        .map(SnapshotChange::from)
        .collect();
    SnapshotFile {
        path: path.into(),
        status: "modified".into(),
        previous_path: None,
        additions: 1,
        deletions: 1,
        changes,
        patch: Some(patch.into()),
        depends_on: Vec::new(),
        test_of: None,
        likely_generated: false,
        blob_sha: None,
    }
}

#[test]
fn a_batch_expands_each_tick_as_one_tick_does() {
    let files = vec![
        file(
            "app/router.ts",
            "@@ -1,2 +1,2 @@\n-a\n+b\n c\n@@ -40,2 +40,3 @@\n x\n+y\n z",
        ),
        file("lib/flags.ts", "@@ -1,1 +1,1 @@\n-old\n+new"),
        file("docs/readme.md", "@@ -3,1 +3,1 @@\n-x\n+z"),
    ];
    let second = files[0].changes[1].id.clone();
    let order: crate::review::order::Order = crate::json::read(&json!({
        "overview": "o",
        "sections": [
            { "title": "A", "checks": ["Read it all"], "files": [
                { "path": "lib/flags.ts", "checks": ["Default is off"] },
                { "path": "app/router.ts" } ] },
            { "title": "B", "files": [{ "path": "app/router.ts", "hunks": [second] }] }
        ]
    }))
    .unwrap();
    for order in [Some(&order), None] {
        let checklist = order.map(checklist_ids).unwrap_or_default();
        let entries = entry_items(order, &files);
        let mut candidates: Vec<String> = checklist.into_iter().map(|c| c.id).collect();
        for (id, items) in &entries {
            candidates.push(id.clone());
            candidates.extend(items.iter().cloned());
        }
        candidates.extend(["file:nope".to_string(), "check:99".into(), String::new()]);
        let names: Vec<&str> = candidates.iter().map(String::as_str).collect();
        let one_by_one: Vec<Option<Vec<String>>> = names
            .iter()
            .map(|item| expand_tick(item, order, &files))
            .collect();
        assert!(one_by_one.iter().filter(|e| e.is_some()).count() >= 5);
        assert_eq!(expand_all(&names, order, &files), one_by_one);
    }
}

#[test]
fn a_batch_reply_gives_each_tick_its_own_result() {
    let form = read_form(&pairs(&[
        ("batch", "1"),
        ("item", "check:1"),
        ("done", "1"),
        ("item", "bad"),
        ("done", "x"),
        ("item", "file:gone"),
        ("done", "0"),
    ]))
    .unwrap();
    let answered = [TickResult::stored(), TickResult::refused(404, NOT_ON_PAGE)];
    assert_eq!(
        batch_reply(&form, Some(&answered)),
        json!({ "results": [
            { "item": "check:1", "done": true, "status": 200 },
            { "item": "bad", "status": 400, "error": bad_done().message },
            { "item": "file:gone", "status": 404, "error": NOT_ON_PAGE },
        ] })
    );
    // The object unreachable: every tick that passed here failed, and says so.
    let reply = batch_reply(&form, None);
    assert_eq!(reply["results"][0]["status"], 503);
    assert_eq!(reply["results"][1]["status"], 400);
    assert_eq!(reply["results"][2]["status"], 503);
}

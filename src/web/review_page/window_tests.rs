//! The review page of a large synthetic pull request in every window, view and mode, against
//! digests of the pages as the full plan of every entry rendered them (issue #30: a view builds
//! only its window; nothing it shows may change).
//!
//! The pull request (450 files, see [`big`]) has split files, parts naming missing changes,
//! files the order lists but the pull request no longer has, files not in the order, new changes
//! of fully split files, binaries, renamed, removed and generated files, large diffs, focus,
//! notes and checks, and a reviewer who ticked some of it, has changes since they reviewed and
//! new changes since their last visit. Each page (every view: everything, what's left, what's
//! new; windows first to past the last; the whole page and its `fragment=1` entries; an older
//! version; no order) is compared by its SHA-256 and length with
//! `tests/data/review_page/windows.txt`.
//! `UPDATE_EXPECT=1 cargo test --lib review_page` rewrites it; `DUMP_PAGES=<dir>` writes every
//! page there, to compare two builds' pages with `diff`.
//! What not: compiled only for tests.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::tests::file;
use super::{render, ReviewPage, View};
use crate::review::model::snapshot::SnapshotFile;
use crate::review::order::Order;
use crate::web::review_page::discussion::{Discussion, Forms};
use crate::web::review_state::{self, ReviewState, SinceVisit};

/// Files in the synthetic pull request: more than four windows of everything.
const FILES: usize = 450;

/// A patch of `hunks` hunks, the `big` one of more lines than a diff inlines.
fn patch(i: usize, hunks: usize, big: bool) -> String {
    let mut out = String::new();
    for h in 0..hunks {
        let start = 1 + h * 50;
        let added = if big && h == 0 { 320 } else { 1 + (i + h) % 3 };
        let _ = writeln!(out, "@@ -{start},2 +{start},{} @@ fn part_{h}()", added + 1);
        let _ = writeln!(out, " context {i} {h}");
        let _ = writeln!(out, "-old {i} {h} <b>&");
        for line in 0..added {
            let _ = writeln!(out, "+new {i} {h} {line}");
        }
    }
    out.trim_end().to_string()
}

/// File `i` of the pull request.
fn nth_file(i: usize) -> SnapshotFile {
    let path = match i {
        _ if i % 50 == 7 => format!("docs/a b#{i}<x>.md"),
        _ if i % 40 == 3 => format!("img/logo{i}.png"),
        _ => format!("src/mod{}/file{i}.rs", i % 7),
    };
    let status = match i {
        _ if i % 30 == 5 => "removed",
        _ if i % 45 == 13 => "renamed",
        _ if i.is_multiple_of(17) => "added",
        _ => "modified",
    };
    let patch = (i % 40 != 3).then(|| patch(i, 1 + i % 4, i % 60 == 17));
    let mut file = file(&path, status, patch.as_deref());
    file.likely_generated = i % 25 == 11;
    if i % 45 == 13 {
        file.previous_path = Some(format!("old/name{i}.rs"));
    }
    if i % 80 == 43 {
        file.blob_sha = Some(format!("{i:040}"));
    }
    file
}

/// The order: 12 sections of the first 85% of the files, in a shuffled order, some split into
/// parts (one naming a change that no longer exists), some split fully but for one change, with
/// focus, notes and checks; plus two files the pull request no longer has.
fn order_of(files: &[SnapshotFile]) -> Order {
    let listed = FILES * 85 / 100;
    let mut sections: Vec<Vec<Value>> = vec![Vec::new(); 12];
    for step in 0..listed {
        // A stride coprime with the count, so sections interleave the files.
        let i = (step * 7) % listed;
        let file = &files[i];
        let ids: Vec<&str> = file.changes.iter().map(|c| c.id.as_str()).collect();
        let section = step * 12 / listed;
        let mut entry = json!({ "path": file.path });
        match i % 13 {
            1 => entry["focus"] = json!("key"),
            2 => entry["focus"] = json!("skim"),
            3 => entry["focus"] = json!("generated"),
            _ => {}
        }
        if i.is_multiple_of(6) {
            entry["note"] = json!(format!("Note on `{i}` <em>"));
        }
        if i.is_multiple_of(10) {
            entry["checks"] = json!([format!("Check {i}"), "Second check"]);
        }
        if i % 9 == 4 && ids.len() >= 2 {
            // A part of the first change, and the rest two sections on.
            let mut part = entry.clone();
            part["hunks"] = json!([ids[0]]);
            sections[section].push(part);
            sections[(section + 2) % 12].push(entry);
        } else if i % 11 == 6 && ids.len() >= 3 {
            // Every part names its changes: the last is new, not in the order yet.
            let mut first = entry.clone();
            first["hunks"] = json!([ids[0], "hdeadbeef"]);
            sections[section].push(first);
            entry["hunks"] = json!([ids[1]]);
            sections[(section + 1) % 12].push(entry);
        } else {
            sections[section].push(entry);
        }
    }
    sections[3].push(json!({ "path": "gone/first.rs" }));
    sections[9].push(json!({ "path": "gone/second.rs", "hunks": ["habc"] }));
    let sections: Vec<Value> = sections
        .into_iter()
        .enumerate()
        .map(|(s, files)| {
            let mut section = json!({ "title": format!("Part {s}"), "files": files });
            if s % 3 == 0 {
                section["checks"] = json!([format!("Section check {s}")]);
                section["note"] = json!("Read `this` first.");
                section["layer"] = json!("logic");
            }
            if s == 5 {
                section["title"] = json!("");
            }
            section
        })
        .collect();
    crate::json::read::<Order>(&json!({ "overview": "A big one.", "sections": sections }))
        .unwrap_or_else(|error| panic!("{error}"))
}

/// A reviewer who ticked every change of every fifth file (but its last, which changed since),
/// the first change of others, some checks and blobs, with new changes since their last visit.
fn state_of(files: &[SnapshotFile], order: &Order) -> ReviewState {
    let mut state = ReviewState::default();
    for (i, file) in files.iter().enumerate() {
        let items = review_state::file_items(file);
        match i % 5 {
            0 if i % 3 == 0 && items.len() > 1 => {
                let (last, rest) = items.split_last().unwrap_or_else(|| panic!("items"));
                state.ticked.extend(rest.iter().cloned());
                let key = last.rsplit('#').next().unwrap_or_default().to_string();
                state
                    .changed
                    .insert(file.path.clone(), [key].into_iter().collect());
            }
            0 => state.ticked.extend(items),
            1 => state.ticked.extend(items.into_iter().take(1)),
            _ => {}
        }
    }
    for item in crate::review::order::checklist_ids(order).iter().step_by(3) {
        state.ticked.insert(item.id.clone());
    }
    let mut new_keys = std::collections::HashMap::new();
    for (i, file) in files.iter().enumerate().filter(|(i, _)| i % 7 == 2) {
        let key = match file.changes.first() {
            Some(change) => change.id.clone(),
            None => format!("blob:{}", file.blob_sha.clone().unwrap_or_default()),
        };
        new_keys.insert(file.path.clone(), [key].into_iter().collect());
        if i % 14 == 2 {
            // Also new since the visit, and changed since reviewed.
            state.changed.entry(file.path.clone()).or_default();
        }
    }
    state.since = Some(SinceVisit {
        head_sha: "abcdef0123456789".into(),
        known: true,
        new_keys,
        left: vec!["old/gone.rs".into(), "old/<b>.rs".into()],
    });
    state
}

/// The pull request, its order and diagram, and the reviewer's state.
fn big() -> (Vec<SnapshotFile>, Order, Value, ReviewState) {
    let files: Vec<SnapshotFile> = (0..FILES).map(nth_file).collect();
    let order = order_of(&files);
    let state = state_of(&files, &order);
    let split = files.iter().position(|f| f.changes.len() >= 2).unwrap_or(0);
    let diagram = json!({
        "title": "Flow",
        "nodes": [
            { "id": "a", "title": "First", "file": files[0].path },
            { "id": "b", "title": "A part", "file": files[split].path, "hunk": files[split].changes[1].id },
            { "id": "c", "title": "Last", "file": files[FILES - 1].path },
            { "id": "d", "title": "Elsewhere", "file": "not/changed.rs" }
        ],
        "edges": [{ "from": "a", "to": "b" }]
    });
    (files, order, diagram, state)
}

/// Every page of the big pull request, named.
fn pages() -> Vec<(String, String)> {
    let (files, order, diagram, state) = big();
    let discussion = Discussion {
        forms: Forms::new("/r/acme/app/pull/7", "tok", "cafe"),
        drafts: &[],
        threads: &[],
    };
    let base = ReviewPage {
        base_url: "https://logikflow.test",
        owner: "acme",
        repo: "app",
        number: 7,
        title: "A big one",
        state: "open",
        author: "octo",
        github_url: "https://github.com/acme/app/pull/7",
        viewer: "reviewer",
        can_arrange: true,
        order: Some(&order),
        checklist: &[],
        order_version: 2,
        latest_version: 2,
        versions: &[],
        updated_by: "octo",
        source: "agent",
        saved_at: "2026-12-01T09:00:00Z",
        commits_since: Some(2),
        files: &files,
        review_state: &state,
        view: View::All,
        visit_commits: Some(3),
        diagram: Some(&diagram),
        csrf: "tok",
        comments: &[],
        window: 0,
        fragment: false,
        discussion: Some(&discussion),
        coverage: None,
    };
    let mut pages = Vec::new();
    for (name, view) in [
        ("all", View::All),
        ("left", View::Left),
        ("since", View::Since),
    ] {
        for window in [0, 1, 2, 3, 4, 9] {
            for fragment in [false, true] {
                let page = ReviewPage {
                    view,
                    window,
                    fragment,
                    ..base
                };
                let mode = if fragment { "-fragment" } else { "" };
                pages.push((format!("{name}-{window}{mode}"), render(&page)));
            }
        }
    }
    let older = ReviewPage {
        order_version: 1,
        window: 1,
        ..base
    };
    pages.push(("older-1".into(), render(&older)));
    for window in [0, 2] {
        let none = ReviewPage {
            order: None,
            diagram: None,
            window,
            ..base
        };
        pages.push((format!("no-order-{window}"), render(&none)));
    }
    pages
}

#[test]
fn every_window_renders_as_the_full_plan_did() {
    let pages = pages();
    if let Some(dir) = std::env::var_os("DUMP_PAGES") {
        let dir = Path::new(&dir);
        std::fs::create_dir_all(dir).unwrap_or_else(|error| panic!("{error}"));
        for (name, html) in &pages {
            std::fs::write(dir.join(format!("{name}.html")), html)
                .unwrap_or_else(|error| panic!("{error}"));
        }
    }
    let mut actual = String::new();
    for (name, html) in &pages {
        let digest: String = Sha256::digest(html.as_bytes())
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        let _ = writeln!(actual, "{name} {digest} {}", html.len());
    }
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/review_page/windows.txt");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(golden.parent().unwrap_or(Path::new(".")))
            .unwrap_or_else(|error| panic!("{error}"));
        std::fs::write(&golden, &actual).unwrap_or_else(|error| panic!("{error}"));
        return;
    }
    let expected = std::fs::read_to_string(&golden)
        .unwrap_or_else(|error| panic!("{}: {error}", golden.display()));
    assert_eq!(
        actual,
        expected,
        "pages differ from {} (DUMP_PAGES=<dir> writes them; UPDATE_EXPECT=1 rewrites the digests)",
        golden.display()
    );
}

//! The cached listing: written from a snapshot, read back, and refused when it isn't one.

use super::*;
use crate::github::api::PullFile;
use crate::tools::get_pull_request::{build_snapshot, files_text};
use crate::tools::save_reading_order::facts_from_snapshot;

fn pull_file(path: &str, status: &str, patch: Option<&str>) -> PullFile {
    PullFile {
        filename: path.into(),
        status: status.into(),
        additions: 2,
        deletions: 1,
        patch: patch.map(str::to_string),
        previous_filename: (status == "renamed").then(|| format!("old/{path}")),
        sha: Some("b".repeat(40)),
    }
}

fn snapshot() -> Snapshot {
    let two_hunks = "@@ -1,2 +1,3 @@ import\n import a\n+import { b } from \"./b\";\n x\n@@ -10,2 +11,2 @@ fn\n-old\n+new\n y\n";
    build_snapshot(
        vec![
            pull_file("src/a.ts", "modified", Some(two_hunks)),
            pull_file("src/b.ts", "renamed", Some("@@ -1 +1 @@\n-1\n+2\n")),
            pull_file(
                "src/b.test.ts",
                "added",
                Some("@@ -0,0 +1 @@\n+import { b } from './b';\n"),
            ),
            pull_file(
                "package-lock.json",
                "modified",
                Some("@@ -1 +1 @@\n-1\n+2\n"),
            ),
            pull_file("logo.png", "added", None),
        ],
        5,
        None,
        Some("diagrams: sometimes\n"),
    )
}

#[test]
fn a_listing_reads_back_what_a_repeat_read_needs() {
    let snapshot = snapshot();
    let files = files_text(&snapshot);
    let text = write_listing(
        &snapshot,
        &files,
        &crate::json::string_inside(&files),
        false,
    );
    let listing = Listing::read(&text).expect("reads back");
    assert_eq!(listing.files, files);
    assert!(!listing.trimmed);
    assert_eq!(
        format!("\"{}\"", listing.quoted_files),
        crate::json::string(&files)
    );
    let trimmed = write_listing(&snapshot, "[]", "[]", true);
    assert!(Listing::read(&trimmed).is_some_and(|listing| listing.trimmed && listing.files == "[]"));
    assert!(listing.meta.files.is_empty());
    assert_eq!(listing.meta.changed_files, snapshot.changed_files);
    assert_eq!(listing.meta.diagram_preference, snapshot.diagram_preference);
    assert!(
        snapshot.conventions_problem.is_some(),
        "the fixture has one"
    );
    assert_eq!(
        listing.meta.conventions_problem,
        snapshot.conventions_problem
    );
    assert_eq!(
        listing.meta.files_truncated_by_github,
        snapshot.files_truncated_by_github
    );
    // Validation and suggestions see the same pull request through the lean copy.
    let lean = listing.lean_snapshot().expect("the lean snapshot decodes");
    assert_eq!(facts_from_snapshot(&lean), facts_from_snapshot(&snapshot));
    assert!(
        !text.contains("import a"),
        "no patch text or preview is kept in the lean copy: {text}"
    );
}

#[test]
fn text_that_is_not_a_listing_is_refused() {
    let files = files_text(&snapshot());
    let good = write_listing(
        &snapshot(),
        &files,
        &crate::json::string_inside(&files),
        false,
    );
    let (meta, rest) = good.split_once('\n').unwrap_or_default();
    let (lean, _) = rest.split_once('\n').unwrap_or_default();
    for bad in [
        String::new(),
        "not json".to_string(),
        meta.to_string(),
        format!("{meta}\n{{}}"),
        format!("{meta}\n{{}}\n{{\"files\":1}}"),
        format!("{meta}\n{lean}\n{files}"),
        format!("{meta}\n{lean}\nwhole\n{files}"),
        format!("{meta}\n{lean}\nmaybe\n{files}"),
        format!("{meta}\n{lean}\nwhole\n{{\"files\":1}}"),
        format!("[]\n{rest}"),
        format!("{{}}\n{rest}"),
    ] {
        assert!(Listing::read(&bad).is_none(), "{bad:.80}");
    }
}

#[test]
fn listing_keys_follow_snapshot_keys() {
    let key = crate::tools::get_pull_request::snapshot_key("Acme", "App", "b1", "h1");
    assert_eq!(listing_key(&key), "listing:v1:v2:acme/app:b1:h1");
}

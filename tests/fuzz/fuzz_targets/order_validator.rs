//! Fuzzes order validation, checklist ids and suggestions against a small pull request.
#![no_main]

use libfuzzer_sys::fuzz_target;
use logikflow::github::api::PullFile;
use logikflow::review::order::{checklist_ids, suggest, suggest_for_current, validate_order};
use logikflow::tools::get_pull_request::build_snapshot;
use logikflow::tools::save_reading_order::facts_from_snapshot;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let two_hunks = "@@ -1,1 +1,2 @@\n a\n+b\n@@ -9,1 +10,2 @@\n c\n+d\n";
    let files = vec![
        PullFile {
            filename: "src/a.ts".into(),
            status: "modified".into(),
            additions: 2,
            deletions: 0,
            patch: Some(two_hunks.into()),
            previous_filename: None,
            sha: None,
        },
        PullFile {
            filename: "src/a.test.ts".into(),
            status: "added".into(),
            additions: 1,
            deletions: 0,
            patch: Some("@@ -0,0 +1 @@\n+import './a';\n".into()),
            previous_filename: None,
            sha: None,
        },
        PullFile {
            filename: "logo.png".into(),
            status: "added".into(),
            additions: 0,
            deletions: 0,
            patch: None,
            previous_filename: None,
            sha: None,
        },
    ];
    let facts = facts_from_snapshot(&build_snapshot(files, 3, None, None));
    if let Ok(order) = validate_order(&input, &facts) {
        let _ = checklist_ids(&order);
        let _ = suggest(&order, &facts);
        let _ = suggest_for_current(&order, &facts);
    }
});

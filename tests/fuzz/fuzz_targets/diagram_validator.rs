//! Fuzzes diagram validation and the server-side layout (the browser draws it, from its JSON).
#![no_main]

use libfuzzer_sys::fuzz_target;
use logikflow::github::api::PullFile;
use logikflow::review::diagram::validate_diagram;
use logikflow::tools::get_pull_request::build_snapshot;
use logikflow::tools::save_reading_order::facts_from_snapshot;
use logikflow::review::layout::{input_from_json, layout};

fuzz_target!(|data: &[u8]| {
    let Ok(input) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let files = vec![PullFile {
        filename: "src/a.rs".into(),
        status: "modified".into(),
        additions: 1,
        deletions: 0,
        patch: Some("@@ -1 +1,2 @@\n a\n+b\n".into()),
        previous_filename: None,
        sha: None,
    }];
    let facts = facts_from_snapshot(&build_snapshot(files, 1, None, None));
    let _ = validate_diagram(&input, &facts);
    // Stored diagrams are laid out and sent to the page whatever they contain.
    let _ = serde_json::to_string(&layout(&input_from_json(&input)));
});

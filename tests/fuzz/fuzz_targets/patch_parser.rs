//! Fuzzes the patch parser and everything built on it: change ids, previews, hints and the
//! get_pull_request snapshot. Nothing may panic on any patch text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use logikflow::github::api::PullFile;
use logikflow::tools::get_pull_request::build_snapshot;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The first line names the file (so every language's import rules run); the rest is the patch.
    let (path, patch) = text.split_once('\n').unwrap_or(("src/a.ts", text));
    let files = vec![
        PullFile {
            filename: path.to_string(),
            status: "modified".into(),
            additions: 1,
            deletions: 1,
            patch: Some(patch.to_string()),
            previous_filename: None,
            sha: None,
        },
        PullFile {
            filename: "src/b.ts".into(),
            status: "added".into(),
            additions: 1,
            deletions: 0,
            patch: Some(patch.to_string()),
            previous_filename: None,
            sha: None,
        },
    ];
    let _ = build_snapshot(files, 2, Some(patch), Some(patch));
});

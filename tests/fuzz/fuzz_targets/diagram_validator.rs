//! Fuzzes diagram validation and the server-side layout and SVG rendering.
#![no_main]

use libfuzzer_sys::fuzz_target;
use logikflow::github::api::PullFile;
use logikflow::review::diagram::validate_diagram;
use logikflow::tools::get_pull_request::build_snapshot;
use logikflow::tools::save_reading_order::facts_from_snapshot;
use logikflow::web::diagram_svg::render_diagram;

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
    // Stored diagrams are rendered whatever they contain.
    let _ = render_diagram(&input, &|file, _| Some(format!("#file-{file}")));
});

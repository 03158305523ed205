//! Native benchmark of the core work behind the tools (DESIGN.md §7): patch parsing, change ids
//! and hints on a generated 300-file / 3,000-hunk pull request, and order validation plus
//! suggestions on a 50-section order for it. Prints medians; asserts nothing.
//!
//! Run: `cargo bench --bench core` (the release profile the Worker ships with), or through
//! `npm run bench`, which also runs it at opt-level 3 for comparison.

use std::hint::black_box;
use std::time::Instant;

use logikflow::github::api::PullFile;
use logikflow::review::hints::project::{wanted, Project};
use logikflow::review::order::{suggest, validate_order};
use logikflow::tools::get_pull_request::{build_snapshot, build_snapshot_in};
use logikflow::tools::save_reading_order::facts_from_snapshot;
use serde_json::json;

const FILES: usize = 300;
const HUNKS_PER_FILE: usize = 10;

/// A deterministic pull request: TypeScript, Python, Rust and Go files that import each other,
/// tests beside their subjects, a lockfile, ten hunks per file.
fn generated_pull() -> Vec<PullFile> {
    let mut files = Vec::with_capacity(FILES);
    for i in 0..FILES {
        let (path, import) = match i % 4 {
            0 => (
                format!("web/src/feature{i}/view{i}.ts"),
                format!(
                    "+import {{ model{} }} from '../feature{}/view{}';",
                    i,
                    i.saturating_sub(4),
                    i.saturating_sub(4)
                ),
            ),
            1 => (
                format!("api/pkg{i}/service_{i}.py"),
                format!(
                    "+from api.pkg{}.service_{} import handler",
                    i.saturating_sub(4),
                    i.saturating_sub(4)
                ),
            ),
            2 => (
                format!("core/src/module{i}.rs"),
                format!("+use crate::module{};", i.saturating_sub(4)),
            ),
            _ => (
                format!("svc/internal/pkg{i}/handler_test.go"),
                "+\t\"example.com/svc/internal/pkg3\"".to_string(),
            ),
        };
        let mut patch = String::new();
        for h in 0..HUNKS_PER_FILE {
            let start = 1 + h * 40;
            patch.push_str(&format!("@@ -{start},6 +{start},7 @@ fn section_{h}()\n"));
            patch.push_str(" context line one\n");
            if h == 0 {
                patch.push_str(&import);
                patch.push('\n');
            } else {
                patch.push_str(&format!("+    let value_{h} = compute({i}, {h});\n"));
            }
            patch.push_str(" context line two\n");
            patch.push_str(&format!("-    old_call({i}, {h});\n"));
            patch.push_str(&format!("+    new_call({i}, {h});\n"));
            patch.push_str(" context line three\n");
            patch.push_str(" context line four\n");
        }
        files.push(PullFile {
            filename: path,
            status: "modified".into(),
            additions: (HUNKS_PER_FILE * 2) as u64,
            deletions: HUNKS_PER_FILE as u64,
            patch: Some(patch),
            previous_filename: None,
            sha: None,
        });
    }
    files
}

fn median_micros(runs: usize, mut work: impl FnMut()) -> (f64, f64) {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            work();
            started.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    (times[times.len() / 2], times[times.len() * 9 / 10])
}

fn main() {
    let files = generated_pull();
    let hunks: usize = files
        .iter()
        .map(|f| f.patch.as_deref().unwrap_or("").matches("\n@@").count() + 1)
        .sum();
    let (parse_median, parse_p90) = median_micros(200, || {
        black_box(build_snapshot(
            black_box(files.clone()),
            FILES as u64,
            None,
            None,
        ));
    });
    // As a first read does it: the build files to ask for, then parsing what came back.
    let build_files: Vec<(String, String)> = vec![
        ("svc/go.mod".into(), "module example.com/svc\n\ngo 1.22\n".into()),
        ("core/Cargo.toml".into(), "[package]\nname = \"core\"\n".into()),
        (
            "web/tsconfig.json".into(),
            "{ // paths\n \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@/*\": [\"src/*\"] } } }"
                .into(),
        ),
        ("web/package.json".into(), "{ \"name\": \"@acme/web\" }".into()),
    ];
    let (project_median, project_p90) = median_micros(200, || {
        let paths: Vec<&str> = files.iter().map(|f| f.filename.as_str()).collect();
        black_box(wanted(&paths));
        let project = Project::parse(black_box(&build_files));
        black_box(build_snapshot_in(
            black_box(files.clone()),
            FILES as u64,
            None,
            None,
            &project,
        ));
    });
    let (clone_median, _) = median_micros(200, || {
        black_box(black_box(&files).clone());
    });

    let snapshot = build_snapshot(files.clone(), FILES as u64, None, None);
    let facts = facts_from_snapshot(&snapshot);
    let sections: Vec<_> = snapshot
        .files
        .chunks(FILES / 50)
        .enumerate()
        .map(|(i, chunk)| {
            json!({
                "title": format!("Part {i}"),
                "layer": "logic",
                "note": "Read the handlers first.",
                "checks": ["Behaviour unchanged when the flag is off"],
                "files": chunk.iter().map(|f| json!({ "path": f.path })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let order = json!({ "overview": "A generated order.", "sections": sections });
    let (validate_median, validate_p90) = median_micros(200, || {
        let valid = validate_order(black_box(&order), black_box(&facts));
        if let Ok(order) = valid {
            black_box(suggest(&order, &facts));
        }
    });

    println!(
        "| core work ({} files, {hunks} hunks) | median | p90 |",
        FILES
    );
    println!("|---|---|---|");
    println!(
        "| parse + change ids + hints (build_snapshot) | {:.2} ms | {:.2} ms |",
        (parse_median - clone_median) / 1000.0,
        (parse_p90 - clone_median) / 1000.0
    );
    println!(
        "| the same with build files (wanted + Project::parse + build_snapshot_in) | {:.2} ms | {:.2} ms |",
        (project_median - clone_median) / 1000.0,
        (project_p90 - clone_median) / 1000.0
    );
    println!(
        "| validate 50-section order + suggestions | {:.2} ms | {:.2} ms |",
        validate_median / 1000.0,
        validate_p90 / 1000.0
    );
}

//! Native benchmark of the core work behind the tools (DESIGN.md §7): patch parsing, change ids
//! and hints on generated pull requests of 300 files / 3,000 hunks and of 3,000 files / 30,000
//! hunks (issue #32: the indexes must stay linear as ranges grow), and order validation plus
//! suggestions on a 50-section order for the first; and the review page of a cached snapshot
//! (the reviewer's state and the page's HTML) at 30, 320 and 3,000 files, in its first and a
//! middle window (issue #30: a view builds only the window it shows). Prints medians; asserts
//! nothing.
//!
//! Run: `cargo bench --bench core` (the release profile the Worker ships with), or through
//! `npm run bench`, which also runs it at opt-level 3 for comparison. `cargo bench --bench core
//! -- review` runs only the rows whose name holds `review`.

use std::hint::black_box;
use std::time::Instant;

use logikflow::github::api::PullFile;
use logikflow::review::coverage::{self, ReviewerTicks};
use logikflow::review::files::FileStatus;
use logikflow::review::hints::project::{wanted, Project};
use logikflow::review::hints::{compute_hints_in, HintInput};
use logikflow::review::model::snapshot::SnapshotFile;
use logikflow::review::model::ticks::{ReviewerState, TickRow, MAX_TICKS_PER_PERSON};
use logikflow::review::order::{suggest, validate_order};
use logikflow::review::patch::parse_patch;
use logikflow::tools::get_pull_request::{build_snapshot, build_snapshot_in};
use logikflow::tools::save_reading_order::facts_from_snapshot;
use logikflow::web::review_page::{self, ReviewPage, View, WINDOW_ENTRIES};
use logikflow::web::review_state;
use serde_json::json;

const HUNKS_PER_FILE: usize = 10;

/// A deterministic pull request of `count` files: TypeScript, Python, Rust and Go files that
/// import each other, tests beside their subjects, ten hunks per file. The Go and Rust files'
/// first hunks start inside an import block (`@@ … @@ import (`, `@@ … @@ use crate::{`), as
/// in the large ranges of issue #32.
fn generated_pull(count: usize) -> Vec<PullFile> {
    let mut files = Vec::with_capacity(count);
    for i in 0..count {
        let before = i.saturating_sub(4);
        let (path, section, first): (String, &str, Vec<String>) = match i % 4 {
            0 => (
                format!("web/src/feature{i}/view{i}.ts"),
                "fn section_0()",
                vec![
                    " context line one".into(),
                    format!("+import {{ model{i} }} from '../feature{before}/view{before}';"),
                ],
            ),
            1 => (
                format!("api/pkg{i}/service_{i}.py"),
                "fn section_0()",
                vec![
                    " context line one".into(),
                    format!("+from api.pkg{before}.service_{before} import handler"),
                ],
            ),
            2 => (
                format!("core/src/module{i}.rs"),
                "use crate::{",
                vec![
                    "     prelude::Item,".into(),
                    format!("+    module{before}::Value,"),
                    format!("-    old{i}::Thing,"),
                    format!("+    new{i}::Thing,"),
                    " };".into(),
                ],
            ),
            _ => (
                if i % 8 == 3 {
                    format!("svc/internal/pkg{i}/handler_test.go")
                } else {
                    format!("svc/internal/pkg{i}/handler.go")
                },
                "import (",
                vec![
                    " \t\"context\"".into(),
                    format!("+\t\"example.com/svc/internal/pkg{}\"", before | 3),
                    format!("-\t\"example.com/svc/internal/old{i}\""),
                    " \t\"fmt\"".into(),
                    " )".into(),
                ],
            ),
        };
        let mut patch = String::new();
        for h in 0..HUNKS_PER_FILE {
            let start = 1 + h * 40;
            let mut lines = if h == 0 {
                first.clone()
            } else {
                vec![
                    " context line one".into(),
                    format!("+    let value_{h} = compute({i}, {h});"),
                ]
            };
            lines.push(" context line two".into());
            lines.push(format!("-    old_call({i}, {h});"));
            lines.push(format!("+    new_call({i}, {h});"));
            lines.push(" context line three".into());
            lines.push(" context line four".into());
            let old = lines.iter().filter(|l| !l.starts_with('+')).count();
            let new = lines.iter().filter(|l| !l.starts_with('-')).count();
            let section = if h == 0 {
                section.to_string()
            } else {
                format!("fn section_{h}()")
            };
            patch.push_str(&format!("@@ -{start},{old} +{start},{new} @@ {section}\n"));
            for line in lines {
                patch.push_str(&line);
                patch.push('\n');
            }
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

/// CPU time this thread has run, in microseconds, or `None` off 64-bit Linux. Unlike wall time
/// it leaves out the time other processes hold the cores, which on this machine, shared with
/// other builds, was most of the wall time (load average 6 to 8 on 2 cores).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn thread_cpu_micros() -> Option<f64> {
    #[repr(C)]
    struct Timespec {
        seconds: i64,
        nanos: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut time = Timespec {
        seconds: 0,
        nanos: 0,
    };
    // SAFETY: `clock_gettime` writes one `struct timespec` (two 64-bit fields on 64-bit Linux)
    // to the pointer it is given, which points at a live, writable `Timespec` of that layout.
    let status = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut time) };
    (status == 0).then(|| time.seconds as f64 * 1e6 + time.nanos as f64 / 1000.0)
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn thread_cpu_micros() -> Option<f64> {
    None
}

/// `(median, p90, median CPU)` of `runs` timings in microseconds: wall time, and this thread's
/// CPU time (wall time again where it can't be read).
fn median_micros(runs: usize, mut work: impl FnMut()) -> (f64, f64, f64) {
    let mut times: Vec<(f64, f64)> = (0..runs)
        .map(|_| {
            let cpu = thread_cpu_micros();
            let started = Instant::now();
            work();
            let wall = started.elapsed().as_secs_f64() * 1e6;
            let cpu = cpu
                .zip(thread_cpu_micros())
                .map_or(wall, |(before, after)| after - before);
            (wall, cpu)
        })
        .collect();
    let mut cpu: Vec<f64> = times.iter().map(|(_, cpu)| *cpu).collect();
    cpu.sort_by(|a, b| a.total_cmp(b));
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    (
        times[times.len() / 2].0,
        times[times.len() * 9 / 10].0,
        cpu[cpu.len() / 2],
    )
}

/// The hints alone (`compute_hints_in` over parsed hunks, with build files), the part issue #32
/// changed.
fn hints_work(files: &[PullFile], project: &Project, runs: usize) -> (f64, f64, f64) {
    let parsed: Vec<Option<Vec<_>>> = files
        .iter()
        .map(|file| parse_patch(file.patch.as_deref().unwrap_or("")).ok())
        .collect();
    let inputs: Vec<HintInput<'_>> = files
        .iter()
        .zip(&parsed)
        .map(|(file, hunks)| HintInput {
            path: &file.filename,
            status: FileStatus::Modified,
            previous_path: None,
            hunks: hunks.as_deref(),
        })
        .collect();
    median_micros(runs, || {
        black_box(compute_hints_in(black_box(&inputs), None, project));
    })
}

/// The build files a first read would get for the generated pull requests.
fn build_files() -> Vec<(String, String)> {
    vec![
        ("svc/go.mod".into(), "module example.com/svc\n\ngo 1.22\n".into()),
        ("core/Cargo.toml".into(), "[package]\nname = \"core\"\n".into()),
        (
            "web/tsconfig.json".into(),
            "{ // paths\n \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@/*\": [\"src/*\"] } } }"
                .into(),
        ),
        ("web/package.json".into(), "{ \"name\": \"@acme/web\" }".into()),
    ]
}

/// Timings of the snapshot work on `files` (the copy of the input taken out): without and with
/// build files.
fn snapshot_work(files: &[PullFile], runs: usize) -> [(f64, f64, f64); 2] {
    let count = files.len() as u64;
    let plain = median_micros(runs, || {
        black_box(build_snapshot(black_box(files.to_vec()), count, None, None));
    });
    // As a first read does it: the build files to ask for, then parsing what came back.
    let build_files = build_files();
    let with_project = median_micros(runs, || {
        let paths: Vec<&str> = files.iter().map(|f| f.filename.as_str()).collect();
        black_box(wanted(&paths));
        let project = Project::parse(black_box(&build_files));
        black_box(build_snapshot_in(
            black_box(files.to_vec()),
            count,
            None,
            None,
            &project,
        ));
    });
    let clone = median_micros(runs, || {
        black_box(black_box(files).to_vec());
    });
    [plain, with_project]
        .map(|(median, p90, fastest)| (median - clone.0, p90 - clone.0, fastest - clone.2))
}

/// Whether a row runs: every row, or those whose name holds the bench's first argument.
fn wanted_row(what: &str) -> bool {
    std::env::args()
        .skip(1)
        .find(|arg| !arg.starts_with("--"))
        .is_none_or(|only| what.contains(&only))
}

fn row(what: &str, (median, p90, cpu): (f64, f64, f64)) {
    println!(
        "| {what} | {:.2} ms | {:.2} ms | {:.2} ms |",
        median / 1000.0,
        p90 / 1000.0,
        cpu / 1000.0
    );
}

fn main() {
    println!("| core work | median | p90 | median CPU |");
    println!("|---|---|---|---|");
    if wanted_row("snapshot, hints, validate") {
        snapshot_rows();
    }
    for (count, runs) in [(30, 400), (320, 100), (3_000, 20)] {
        if wanted_row(&format!("review page, {count} files")) {
            review_page_rows(count, runs);
        }
    }
}

/// The snapshot work, the hints and order validation.
fn snapshot_rows() {
    let project = Project::parse(&build_files());
    for (count, runs) in [(300, 200), (3_000, 30)] {
        let files = generated_pull(count);
        let hunks: usize = files
            .iter()
            .map(|f| f.patch.as_deref().unwrap_or("").matches("\n@@").count() + 1)
            .sum();
        let [plain, with_project] = snapshot_work(&files, runs);
        let size = format!("{count} files, {hunks} hunks");
        row(
            &format!("{size}: parse + change ids + hints (build_snapshot)"),
            plain,
        );
        row(
            &format!(
                "{size}: the same with build files (wanted + Project::parse + build_snapshot_in)"
            ),
            with_project,
        );
        row(
            &format!("{size}: of which hints (compute_hints_in)"),
            hints_work(&files, &project, runs),
        );
    }

    let files = generated_pull(300);
    let snapshot = build_snapshot(files.clone(), 300, None, None);
    let facts = facts_from_snapshot(&snapshot);
    let sections: Vec<_> = snapshot
        .files
        .chunks(300 / 50)
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
    let validate = median_micros(200, || {
        let valid = validate_order(black_box(&order), black_box(&facts));
        if let Ok(order) = valid {
            black_box(suggest(&order, &facts));
        }
    });
    row(
        "validate 50-section order + suggestions (300 files)",
        validate,
    );
    // The hints themselves, so a change that breaks the generated patches shows here.
    let with_deps = snapshot
        .files
        .iter()
        .filter(|file| !file.depends_on.is_empty())
        .count();
    println!("\n{with_deps} of 300 files have dependsOn");
}

/// A reviewer's stored state on `files`: every change of the first sixth ticked at an earlier
/// head (at most what one person may hold), whose record (every file's keys, as the first tick
/// at a head records them) lacks one change of every tenth file (so those are "changed since
/// you reviewed" and new since the last visit), and one file ticked at the head.
fn reviewer(files: &[SnapshotFile], head: &str) -> ReviewerState {
    let old = "0123456789abcdef0123456789abcdef01234567";
    let earlier = (files.len() / 6).min(MAX_TICKS_PER_PERSON / HUNKS_PER_FILE - 1);
    let mut ticks = Vec::new();
    let mut then = serde_json::Map::new();
    for (i, file) in files.iter().enumerate() {
        let mut keys: Vec<String> = file.changes.iter().map(|c| c.id.clone()).collect();
        if i % 10 == 0 {
            keys.pop();
        }
        if i < earlier {
            ticks.extend(keys.iter().map(|key| TickRow {
                item: review_state::change_item(&file.path, key),
                head_sha: Some(old.into()),
                at: format!("2026-12-01T10:{:02}:00Z", i % 60),
            }));
        }
        then.insert(file.path.clone(), json!(keys));
    }
    if let Some(file) = files.last() {
        ticks.extend(
            review_state::file_items(file)
                .into_iter()
                .map(|item| TickRow {
                    item,
                    head_sha: Some(head.into()),
                    at: "2026-12-02T10:00:00Z".into(),
                }),
        );
    }
    ReviewerState {
        ticks,
        heads: [(old.to_string(), serde_json::Value::Object(then))]
            .into_iter()
            .collect(),
    }
}

/// The review page of a `count`-file pull request whose snapshot is cached: the reviewer's
/// state (`review_state`), and the page (`review_page::render`) of a 50-section order with a
/// check per section in the first window and in a middle one.
fn review_page_rows(count: usize, runs: usize) {
    let snapshot = build_snapshot(generated_pull(count), count as u64, None, None);
    let per_section = count.div_ceil(50).max(1);
    let sections: Vec<_> = snapshot
        .files
        .chunks(per_section)
        .enumerate()
        .map(|(i, chunk)| {
            json!({
                "title": format!("Part {i}"),
                "note": "Read the handlers first.",
                "checks": ["Behaviour unchanged when the flag is off"],
                "files": chunk.iter().map(|f| json!({ "path": f.path })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let order = json!({ "overview": "A generated order.", "sections": sections });
    let order = match validate_order(&order, &facts_from_snapshot(&snapshot)) {
        Ok(order) => order,
        Err(rejection) => panic!("the generated order is refused: {}", rejection.message()),
    };
    let head = "fedcba9876543210fedcba9876543210fedcba98";
    let stored = reviewer(&snapshot.files, head);
    row(
        &format!("review page, {count} files: the reviewer's state (review_state)"),
        median_micros(runs, || {
            black_box(review_state::review_state(
                black_box(&stored),
                &snapshot.files,
                head,
            ));
        }),
    );
    let state = review_state::review_state(&stored, &snapshot.files, head);
    let windows = count.div_ceil(WINDOW_ENTRIES);
    for (name, window) in [("first window", 0), ("middle window", windows / 2)] {
        let mut bytes = 0;
        let timing = median_micros(runs, || {
            let page = ReviewPage {
                base_url: "https://logikflow.test",
                owner: "acme",
                repo: "app",
                number: 1,
                title: "A generated pull request",
                state: "open",
                author: "octo",
                github_url: "https://github.com/acme/app/pull/1",
                viewer: "reviewer",
                can_arrange: true,
                order: Some(&order),
                checklist: &[],
                order_version: 1,
                latest_version: 1,
                versions: &[],
                updated_by: "octo",
                source: "agent",
                saved_at: "2026-12-01T09:00:00Z",
                commits_since: Some(1),
                files: &snapshot.files,
                review_state: &state,
                view: View::All,
                visit_commits: Some(1),
                diagram: None,
                csrf: "token",
                comments: &[],
                window,
                fragment: false,
                discussion: None,
                coverage: None,
            };
            bytes = black_box(review_page::render(black_box(&page))).len();
        });
        row(
            &format!(
                "review page, {count} files: {name} (render, {} KB)",
                bytes / 1024
            ),
            timing,
        );
    }
    coverage_rows(count, runs, &order, &snapshot.files, head, &stored);
}

/// Coverage across reviewers (issue #47) on the same page: 1, 5 and 20 reviewers, each with the
/// bench reviewer's ticks (a sixth of the files at an earlier head, one at this one), computed as
/// the object does for a page view (each reviewer's state with the recorded heads shared, the
/// entries, `review::coverage`), and the first window rendered with it. Not counted: the object's
/// one SQL read of the ticks.
fn coverage_rows(
    count: usize,
    runs: usize,
    order: &logikflow::review::order::Order,
    files: &[SnapshotFile],
    head: &str,
    stored: &ReviewerState,
) {
    for reviewers in [1, 5, 20] {
        let mut computed = None;
        let by_path: std::collections::HashMap<&str, &SnapshotFile> = files
            .iter()
            .map(|file| (file.path.as_str(), file))
            .collect();
        let timing = median_micros(runs, || {
            let team: Vec<ReviewerTicks> = (0..reviewers)
                .map(|n| {
                    let changed = review_state::changed_since_reviewed(
                        &stored.ticks,
                        &stored.heads,
                        &by_path,
                        head,
                    )
                    .iter()
                    .flat_map(|(path, keys)| {
                        keys.iter()
                            .map(move |key| review_state::change_item(path, key))
                    })
                    .collect();
                    ReviewerTicks {
                        login: format!("reviewer{n}"),
                        ticked: stored.ticks.iter().map(|tick| tick.item.clone()).collect(),
                        changed,
                        last_active: "2026-12-02T10:00:00Z".into(),
                    }
                })
                .collect();
            let entries = review_page::coverage_entries(Some(order), files);
            computed = Some(black_box(coverage::coverage(&entries, team)));
        });
        row(
            &format!("review page, {count} files: coverage of {reviewers} reviewers"),
            timing,
        );
        let state = review_state::review_state(stored, files, head);
        let timing = median_micros(runs, || {
            let page = ReviewPage {
                base_url: "https://logikflow.test",
                owner: "acme",
                repo: "app",
                number: 1,
                title: "A generated pull request",
                state: "open",
                author: "octo",
                github_url: "https://github.com/acme/app/pull/1",
                viewer: "reviewer0",
                can_arrange: true,
                order: Some(order),
                checklist: &[],
                order_version: 1,
                latest_version: 1,
                versions: &[],
                updated_by: "octo",
                source: "agent",
                saved_at: "2026-12-01T09:00:00Z",
                commits_since: Some(1),
                files,
                review_state: &state,
                view: View::All,
                visit_commits: Some(1),
                diagram: None,
                csrf: "token",
                comments: &[],
                window: 0,
                fragment: false,
                discussion: None,
                coverage: computed.as_ref(),
            };
            black_box(review_page::render(black_box(&page)));
        });
        row(
            &format!(
                "review page, {count} files: first window with the team of {reviewers} (render)"
            ),
            timing,
        );
    }
}

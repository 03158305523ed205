//! Shaping `get_pull_request` results from GitHub data: ids, hints, caps and fields.

use super::*;
use crate::github::api::{Account, GitRef, Permissions};

mod reference;

fn pull_file(path: &str, status: &str, patch: Option<&str>) -> PullFile {
    PullFile {
        filename: path.into(),
        status: status.into(),
        additions: 1,
        deletions: 1,
        patch: patch.map(str::to_string),
        previous_filename: None,
        sha: None,
    }
}

fn repository(push: bool) -> Repository {
    Repository {
        full_name: "acme/app".into(),
        private: false,
        permissions: Some(Permissions {
            admin: false,
            maintain: false,
            push,
        }),
    }
}

fn pull() -> PullRequest {
    PullRequest {
        number: 7,
        title: "Add invites".into(),
        state: "open".into(),
        merged: false,
        draft: false,
        user: Some(Account {
            login: "octo".into(),
            id: 1,
        }),
        html_url: "https://github.com/acme/app/pull/7".into(),
        base: GitRef {
            name: "main".into(),
            sha: "b".repeat(40),
        },
        head: GitRef {
            name: "invites".into(),
            sha: "h".repeat(40),
        },
        changed_files: 3,
        additions: None,
        deletions: None,
        review_comments: None,
    }
}

fn args(include_patches: bool) -> Args {
    Args {
        owner: "acme".into(),
        repo: "app".into(),
        number: 7,
        include_patches,
    }
}

fn with<'a>(
    args: &'a Args,
    repository: &'a Repository,
    pull: &'a PullRequest,
    snapshot: &'a Snapshot,
) -> ResultInputs<'a> {
    ResultInputs {
        args,
        base_url: "https://logikflow.dev",
        repository,
        pull,
        snapshot,
        saved: SavedState::default(),
        may_write: true,
    }
}

/// A result's text read back as a document.
fn document(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text:.200}"))
}

/// The result as a document. Its text, and the list cached as the listing, must be byte for byte
/// what the Value-based writer gave (`reference`); a list that fits (no patches, nothing cut) is
/// spliced after the head, and the result shaped from its cached listing is the same text again.
fn shape(snapshot: &Snapshot, include_patches: bool) -> Value {
    let (args, repository, pull) = (args(include_patches), repository(true), pull());
    let shaped = shape_result(with(&args, &repository, &pull, snapshot));
    let (expected, expected_listed) = reference::shape_text(
        with(&args, &repository, &pull, snapshot),
        with(&args, &repository, &pull, snapshot),
    );
    assert!(
        shaped.text == expected,
        "the text differs from the reference's"
    );
    let listed = shaped.listed();
    assert_eq!(
        listed.map(|(files, trimmed)| (files.to_string(), trimmed)),
        expected_listed
    );
    let value = document(&shaped.text);
    let trimmed = value.get("fileListTrimmed").is_some();
    // The whole list is spliced in whenever nothing is cut (a list of paths alone over the cap,
    // which can't be cut, is written as one value).
    let under_cap = shaped.text.len() <= MAX_RESULT_CHARS;
    let spliced = listed.filter(|(_, trimmed)| !trimmed);
    if !include_patches && !trimmed && under_cap {
        assert!(
            spliced.is_some(),
            "the spliced path applies when nothing is cut"
        );
    }
    if trimmed || include_patches {
        assert!(
            spliced.is_none(),
            "a cut list or patches are written as one value"
        );
    }
    if let Some((files, trimmed)) = listed {
        let quoted_files = crate::json::string_inside(files);
        // The first read's text block, quoted around the list quoted for the listing.
        assert_eq!(
            shaped.quoted(&quoted_files),
            Some(crate::json::string(&shaped.text))
        );
        let cached = listing::write_listing(snapshot, files, &quoted_files, trimmed);
        let listing = listing::Listing::read(&cached).expect("a listing reads back");
        let from_cache =
            shape_from_listing(with(&args, &repository, &pull, &listing.meta), &listing);
        if trimmed {
            // A trimmed list, cached, gives the same result again.
            let again = from_cache.map(|(text, _)| document(&text));
            assert_eq!(again.as_ref(), Some(&value));
        } else {
            let (cached_text, quoted) = from_cache.unwrap_or_default();
            assert_eq!(cached_text, shaped.text);
            assert_eq!(quoted, crate::json::string(&shaped.text));
        }
    }
    value
}

const TWO_HUNKS: &str = "@@ -1,2 +1,3 @@ import\n import a\n+import { b } from \"./b\";\n x\n@@ -10,2 +11,2 @@ fn\n-old\n+new\n y\n";

#[test]
fn arguments() {
    let ok = serde_json::json!({ "owner": "acme", "repo": "app", "number": 3 });
    assert_eq!(
        parse_args(ok.as_object().unwrap_or(&Map::new())).map(|a| a.number),
        Ok(3)
    );
    let bad = serde_json::json!({ "owner": "acme", "number": "3", "include_patches": 1 });
    let message = parse_args(bad.as_object().unwrap_or(&Map::new())).unwrap_err();
    assert!(message.starts_with("The request is invalid: "), "{message}");
    assert!(message.contains("repo is required"), "{message}");
    assert!(
        message.contains("number must be a positive integer, got \"3\""),
        "{message}"
    );
    assert!(
        message.contains("include_patches must be true or false"),
        "{message}"
    );
}

#[test]
fn files_keep_github_order_with_hints_and_changes() {
    let files = vec![
        pull_file("src/a.ts", "modified", Some(TWO_HUNKS)),
        pull_file(
            "src/b.ts",
            "added",
            Some("@@ -0,0 +1 @@\n+export const b = 1;\n"),
        ),
        pull_file(
            "package-lock.json",
            "modified",
            Some("@@ -1 +1 @@\n-1\n+2\n"),
        ),
        pull_file("logo.png", "added", None),
    ];
    let snapshot = build_snapshot(files, 4, None, Some("diagrams: always\n"));
    let result = shape(&snapshot, false);
    let paths: Vec<&str> = result["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert_eq!(
        paths,
        ["src/a.ts", "src/b.ts", "package-lock.json", "logo.png"]
    );
    let a = &result["files"][0];
    assert_eq!(a["dependsOn"], serde_json::json!(["src/b.ts"]));
    assert_eq!(a["changes"].as_array().map(Vec::len), Some(2));
    assert_eq!(a["changes"][0]["preview"], "+ import { b } from \"./b\";");
    assert!(
        result["files"][1].get("changes").is_none(),
        "one hunk: no changes list"
    );
    assert_eq!(result["files"][2]["likelyGenerated"], true);
    assert_eq!(result["diagramPreference"], "always");
    assert_eq!(
        result["reviewUrl"],
        "https://logikflow.dev/r/acme/app/pull/7"
    );
    assert_eq!(result["pullRequest"]["author"], "octo");
    assert_eq!(result["canArrange"], true);
    assert_eq!(result["currentOrder"], Value::Null);
    assert_eq!(result["baseVersion"], 0);
    assert!(
        result["files"][0].get("patch").is_none(),
        "no patches unless asked"
    );
}

#[test]
fn patches_flag_missing_and_cut() {
    let big = format!("@@ -1,1 +1,3000 @@\n{}", "+0123456789\n".repeat(3000));
    let files = vec![
        pull_file("a.rs", "modified", Some(TWO_HUNKS)),
        pull_file("big.rs", "modified", Some(&big)),
        pull_file("img.png", "added", None),
    ];
    let snapshot = build_snapshot(files, 3, None, None);
    let result = shape(&snapshot, true);
    assert_eq!(
        result["files"][0]["patch"],
        TWO_HUNKS.trim_end_matches('\n').to_string() + "\n"
    );
    let cut = result["files"][1]["patch"].as_str().unwrap_or_default();
    assert!(cut.chars().count() <= MAX_PATCH_CHARS);
    assert!(cut.ends_with("0123456789"), "cut on a line boundary");
    assert_eq!(result["files"][1]["patchTruncated"], true);
    assert_eq!(result["files"][2]["patchUnavailable"], true);
    assert!(result.get("patchesTruncated").is_none());
}

#[test]
fn the_response_stays_under_its_cap() {
    let patch = format!("@@ -1,1 +1,1500 @@\n{}", "+0123456789\n".repeat(1500));
    let files: Vec<PullFile> = (0..60)
        .map(|i| pull_file(&format!("f{i}.rs"), "modified", Some(&patch)))
        .collect();
    let snapshot = build_snapshot(files, 60, None, None);
    let result = shape(&snapshot, true);
    assert!(
        result.to_string().len() <= MAX_RESULT_CHARS,
        "{}",
        result.to_string().len()
    );
    assert_eq!(result["patchesTruncated"], true);
    assert_eq!(result["files"][59]["patchTruncated"], true);
    assert!(result["files"][0].get("patchTruncated").is_none());
}

/// The result without patches: within the cap, flagged as trimmed, every one of `count` files
/// listed. Returns the result and its files.
fn trimmed_to_the_cap(snapshot: &Snapshot, count: usize) -> (Value, Vec<Value>) {
    let result = shape(snapshot, false);
    let size = result.to_string().len();
    assert!(size <= MAX_RESULT_CHARS, "{size}");
    assert_eq!(result["fileListTrimmed"], true);
    let files = result["files"].as_array().cloned().unwrap_or_default();
    assert_eq!(files.len(), count, "every file stays listed");
    (result, files)
}

#[test]
fn a_huge_file_list_is_trimmed_to_the_cap_but_lists_every_file() {
    let line = "+".to_string() + &"x".repeat(150) + "\n";
    let patch: String = (0..5)
        .map(|i| format!("@@ -{0},1 +{0},2 @@ fn f{i}\n {line}{line}", i * 100 + 1))
        .collect();
    let files: Vec<PullFile> = (0..1500)
        .map(|i| pull_file(&format!("src/module{i}/file.rs"), "modified", Some(&patch)))
        .collect();
    let snapshot = build_snapshot(files, 1500, None, None);
    let with_patches = shape(&snapshot, true);
    let size = with_patches.to_string().len();
    assert!(size <= MAX_RESULT_CHARS, "with patches asked for: {size}");
    assert_eq!(with_patches["patchesTruncated"], true);
    let (result, files) = trimmed_to_the_cap(&snapshot, 1500);
    let with_changes = files.iter().filter(|f| f.get("changes").is_some()).count();
    assert!(with_changes > 0 && with_changes < 1500, "{with_changes}");
    assert!(!result.to_string().contains("\"preview\""));
    // A pull request that fits keeps everything.
    let small = shape(
        &build_snapshot(
            vec![pull_file("a.rs", "modified", Some(&patch))],
            1,
            None,
            None,
        ),
        false,
    );
    assert!(small.get("fileListTrimmed").is_none());
    assert!(small["files"][0]["changes"][0].get("preview").is_some());
}

#[test]
fn long_depends_on_lists_are_trimmed_after_changes() {
    // A Go refactor: 800 files that each import a package of 400 changed files.
    let files: Vec<PullFile> = (0..800)
        .map(|i| pull_file(&format!("pkg/api/types_{i}.go"), "modified", None))
        .collect();
    let mut snapshot = build_snapshot(files, 800, None, None);
    let package: Vec<String> = (0..400).map(|i| format!("pkg/api/types_{i}.go")).collect();
    for file in &mut snapshot.files {
        file.depends_on = package.clone();
    }
    let (_, files) = trimmed_to_the_cap(&snapshot, 800);
    let kept = files
        .iter()
        .filter(|f| f.get("dependsOn").is_some())
        .count();
    assert!(kept > 0 && kept < 800, "{kept}");
}

/// 3,000 test files, each naming the long path of the file it tests: the `testOf`s go (longest
/// first) once nothing else is left to trim, and every file keeps its path.
#[test]
fn test_of_hints_are_trimmed_last() {
    let files: Vec<PullFile> = (0..3000)
        .flat_map(|i| {
            let source = format!("src/main/java/com/example/billing/service{i}/Service{i}.java");
            let test = format!("src/test/java/com/example/billing/service{i}/Service{i}Test.java");
            [
                pull_file(&source, "modified", None),
                pull_file(&test, "modified", None),
            ]
        })
        .take(3000)
        .collect();
    let snapshot = build_snapshot(files, 3000, None, None);
    let with_test_of = snapshot
        .files
        .iter()
        .filter(|f| f.test_of.is_some())
        .count();
    assert_eq!(with_test_of, 1500, "every test names its source");
    let (_, files) = trimmed_to_the_cap(&snapshot, 3000);
    let kept = files.iter().filter(|f| f.get("testOf").is_some()).count();
    assert!(kept < 1500, "{kept}");
}

/// 3,000 renamed files whose paths pass the cap: every file keeps its path and its
/// `previousPath` (the spec promises it on renamed files), and the list stays over the cap.
#[test]
fn a_list_of_paths_alone_over_the_cap_keeps_every_file() {
    let files: Vec<PullFile> = (0..3000)
        .map(|i| {
            let mut file = pull_file(
                &format!("src/{}/renamed-file-{i}.rs", "deep/".repeat(12)),
                "renamed",
                None,
            );
            file.previous_filename = Some(format!("old/{}/file-{i}.rs", "path/".repeat(12)));
            file
        })
        .collect();
    let result = shape(&build_snapshot(files, 3000, None, None), false);
    assert!(
        result.to_string().len() > MAX_RESULT_CHARS,
        "the paths alone are over the cap"
    );
    assert!(result.get("fileListTrimmed").is_none(), "nothing could go");
    let files = result["files"].as_array().cloned().unwrap_or_default();
    assert_eq!(files.len(), 3000);
    assert!(files.iter().all(|f| f.get("previousPath").is_some()));
}

/// A list under the cap keeps everything and claims no trim.
#[test]
fn a_list_under_the_cap_is_not_trimmed() {
    let files: Vec<PullFile> = (0..300)
        .map(|i| {
            let mut file = pull_file(&format!("src/new/file{i}.rs"), "renamed", None);
            file.previous_filename = Some(format!("src/old/file{i}.rs"));
            file
        })
        .collect();
    let result = shape(&build_snapshot(files, 300, None, None), false);
    assert!(result.get("fileListTrimmed").is_none());
    assert!(result["files"]
        .as_array()
        .is_some_and(|files| files.iter().all(|f| f.get("previousPath").is_some())));
}

#[test]
fn github_lists_at_most_3000_files() {
    let files: Vec<PullFile> = (0..3000)
        .map(|i| pull_file(&format!("f{i}.txt"), "added", None))
        .collect();
    let snapshot = build_snapshot(files, 3200, None, None);
    assert!(snapshot.files_truncated_by_github);
    assert_eq!(snapshot.changed_files, 3200);
    let files: Vec<PullFile> = (0..30)
        .map(|i| pull_file(&format!("f{i}.txt"), "added", None))
        .collect();
    assert!(!build_snapshot(files, 30, None, None).files_truncated_by_github);
}

#[test]
fn gitattributes_mark_generated_files() {
    let files = vec![pull_file(
        "gen/api.ts",
        "added",
        Some("@@ -0,0 +1 @@\n+x\n"),
    )];
    let snapshot = build_snapshot(files, 1, Some("gen/** linguist-generated\n"), None);
    assert!(snapshot.files[0].likely_generated);
}

#[test]
fn unreadable_conventions_are_reported_not_fatal() {
    let snapshot = build_snapshot(vec![], 0, None, Some("diagrams: sometimes\n"));
    let result = shape(&snapshot, false);
    assert_eq!(result["diagramPreference"], "ask");
    assert!(result["conventionsProblem"]
        .as_str()
        .is_some_and(|p| p.contains("always, ask or never")));
}

/// A snapshot with every field set.
pub(super) fn every_field_snapshot() -> Snapshot {
    Snapshot {
        files: vec![SnapshotFile {
            path: "src/new.rs".into(),
            status: "renamed".into(),
            previous_path: Some("src/old.rs".into()),
            additions: 3,
            deletions: 1,
            changes: vec![SnapshotChange {
                id: "c1".into(),
                header: "fn".into(),
                preview: "+ x".into(),
                additions: 3,
                deletions: 1,
            }],
            patch: Some(TWO_HUNKS.into()),
            depends_on: vec!["src/b.rs".into()],
            test_of: Some("src/lib.rs".into()),
            likely_generated: true,
            blob_sha: Some("b".repeat(40)),
        }],
        files_truncated_by_github: true,
        changed_files: 3200,
        diagram_preference: "never".into(),
        conventions_problem: Some("diagrams: sometimes".into()),
        // Off is written only when true; the form test holds the texts without it.
        commit_status_off: false,
    }
}

/// Writes the cached text and reads it back: a field name spelled differently fails here.
fn round_trip(snapshot: &Snapshot) {
    let text = snapshot_text::write_cached(snapshot);
    assert_eq!(snapshot_text::read_cached(&text).as_ref(), Some(snapshot));
}

#[test]
fn snapshots_round_trip_through_their_cached_text() {
    round_trip(&build_snapshot(
        vec![pull_file("a.rs", "modified", Some(TWO_HUNKS))],
        1,
        None,
        None,
    ));
    let every_field = every_field_snapshot();
    round_trip(&every_field);
    let mut bare = every_field;
    bare.conventions_problem = None;
    bare.files[0] = SnapshotFile {
        previous_path: None,
        changes: vec![],
        patch: None,
        depends_on: vec![],
        test_of: None,
        likely_generated: false,
        blob_sha: None,
        ..bare.files[0].clone()
    };
    round_trip(&bare);
}

#[test]
fn snapshot_lists_and_flags_default_when_missing() {
    let value = serde_json::json!({
        "files": [{"path": "a.rs", "status": "added", "additions": 1, "deletions": 0,
                   "patch": null}],
        "files_truncated_by_github": false,
        "changed_files": 1,
        "diagram_preference": "ask",
    });
    let snapshot = crate::json::read::<Snapshot>(&value).unwrap_or_else(|e| panic!("{e}"));
    assert!(snapshot.files[0].changes.is_empty());
    assert!(snapshot.files[0].depends_on.is_empty());
    assert!(!snapshot.files[0].likely_generated);
    assert_eq!(snapshot.files[0].patch, None);
    let missing = crate::json::read::<Snapshot>(&serde_json::json!({"files": []}));
    assert_eq!(
        missing.err().map(|e| e.to_string()).as_deref(),
        Some(
            "missing field `files_truncated_by_github` at line 1 column 12, after `{\"files\":[]}`"
        )
    );
}

#[test]
fn merged_pull_requests_say_so() {
    let mut merged = pull();
    merged.merged = true;
    merged.state = "closed".into();
    let snapshot = build_snapshot(vec![], 0, None, None);
    let result = document(
        &shape_result(ResultInputs {
            args: &args(false),
            base_url: "https://h",
            repository: &repository(false),
            pull: &merged,
            snapshot: &snapshot,
            saved: SavedState::default(),
            may_write: true,
        })
        .text,
    );
    assert_eq!(result["pullRequest"]["state"], "merged");
    assert_eq!(result["canArrange"], false);
}

#[test]
fn a_read_only_connection_cannot_arrange() {
    let snapshot = build_snapshot(vec![], 0, None, None);
    let result = |may_write| {
        document(
            &shape_result(ResultInputs {
                args: &args(false),
                base_url: "https://h",
                repository: &repository(true),
                pull: &pull(),
                snapshot: &snapshot,
                saved: SavedState::default(),
                may_write,
            })
            .text,
        )["canArrange"]
            .clone()
    };
    assert_eq!(result(true), true);
    assert_eq!(result(false), false);
}

/// Snapshots of every shape a file can take, with text that needs escaping: non-ASCII, quotes,
/// backslashes, control characters, separators JavaScript treats as line ends.
pub(super) fn varied_snapshots() -> Vec<Snapshot> {
    const PIECES: [&str; 16] = [
        "a",
        "src/",
        "é",
        "日本",
        "🦀",
        "\"",
        "\\",
        "\n",
        "\t",
        "\r",
        "\u{1}",
        "\u{1f}",
        "\u{7f}",
        "\u{2028}",
        " ",
        "\u{8}\u{c}",
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |below: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % below as u64) as usize
    };
    let text = |next: &mut dyn FnMut(usize) -> usize, most: usize| {
        let count = next(most + 1);
        (0..count)
            .map(|_| PIECES[next(PIECES.len())])
            .collect::<String>()
    };
    (0..60)
        .map(|_| {
            let files = (0..next(12))
                .map(|_| {
                    let status = ["modified", "added", "renamed", "removed"][next(4)];
                    let changes = (0..next(5))
                        .map(|_| SnapshotChange {
                            id: text(&mut next, 3),
                            header: text(&mut next, 6),
                            preview: text(&mut next, 30),
                            additions: next(1 << 20),
                            deletions: next(10),
                        })
                        .collect();
                    SnapshotFile {
                        path: text(&mut next, 8),
                        status: status.into(),
                        previous_path: (status == "renamed").then(|| text(&mut next, 8)),
                        additions: next(1000) as u64 * 1_000_000_007,
                        deletions: next(100) as u64,
                        changes,
                        patch: (next(4) > 0).then(|| text(&mut next, 200)),
                        depends_on: (0..next(6)).map(|_| text(&mut next, 6)).collect(),
                        test_of: (next(3) == 0).then(|| text(&mut next, 10)),
                        likely_generated: next(5) == 0,
                        blob_sha: None,
                    }
                })
                .collect();
            Snapshot {
                files,
                files_truncated_by_github: false,
                changed_files: 0,
                diagram_preference: "ask".into(),
                conventions_problem: None,
                commit_status_off: false,
            }
        })
        .collect()
}

/// The typed writer cuts and gives patches exactly as the Value-based one did, at every room
/// from nothing to the whole list.
#[test]
fn the_typed_file_list_matches_the_value_written_one() {
    let mut trimmed_seen = 0;
    for snapshot in varied_snapshots() {
        let files = &snapshot.files;
        let whole = files_text(&snapshot);
        assert_eq!(whole, reference::files_text(&snapshot));
        let step = (whole.len() / 40).max(1);
        for budget in (0..=whole.len() + 1).step_by(step) {
            let mut values: Vec<Value> = files.iter().map(reference::file_json).collect();
            let trimmed = reference::trim_file_list(&mut values, budget);
            let cuts = file_list::cut_to(files, whole.len(), budget);
            let written = file_list::write(files, &cuts, &[]);
            assert_eq!(
                written,
                Value::Array(values.clone()).to_string(),
                "{budget}"
            );
            assert_eq!((cuts.trimmed, cuts.len), (trimmed, written.len()));
            trimmed_seen += usize::from(trimmed);
            let patch_text: usize = files
                .iter()
                .filter_map(|f| f.patch.as_ref())
                .map(|p| 2 * p.len() + 2)
                .sum();
            let room = patch_text + (files.len() + 1) * PER_FILE_OVERHEAD;
            for patch_budget in (0..=room).step_by((room / 7).max(1)) {
                let mut with_patches = values.clone();
                let truncated = reference::attach_patches(&mut with_patches, files, patch_budget);
                let (patches, cut) = file_list::fit_patches(files, patch_budget);
                assert_eq!(
                    file_list::write(files, &cuts, &patches),
                    Value::Array(with_patches).to_string(),
                    "{budget} {patch_budget}"
                );
                assert_eq!(cut, truncated);
            }
        }
    }
    assert!(trimmed_seen > 100, "{trimmed_seen}");
}

/// Issue #38: with review comments, `nextStep` points to the feedback; without, there is none.
#[test]
fn next_step_points_to_the_review_when_reviewers_commented() {
    let snapshot = build_snapshot(vec![pull_file("a.rs", "added", None)], 1, None, None);
    let (args, repository) = (args(false), repository(true));
    let next_step = |review_comments| {
        let pull = PullRequest {
            review_comments,
            ..pull()
        };
        let shaped = shape_result(with(&args, &repository, &pull, &snapshot));
        document(&shaped.text)["nextStep"]
            .as_str()
            .map(str::to_string)
    };
    let said = next_step(Some(2)).unwrap_or_default();
    assert!(
        said.starts_with(
            "Reviewers left 2 review comments on this pull request: call get_review_feedback"
        ),
        "{said}"
    );
    assert_eq!(next_step(Some(0)), None);
    assert_eq!(next_step(None), None);
}

/// Issue #47: after a push, `nextStep` says the commit status follows the next save or review
/// sent; with review comments too, both sentences, the feedback first.
#[test]
fn next_step_says_the_status_follows_after_a_push() {
    let snapshot = build_snapshot(vec![pull_file("a.rs", "added", None)], 1, None, None);
    let (args, repository) = (args(false), repository(true));
    let next_step = |pushed: Option<bool>, review_comments| {
        let pull = PullRequest {
            review_comments,
            ..pull()
        };
        let mut inputs = with(&args, &repository, &pull, &snapshot);
        inputs.saved.current_order =
            pushed.map(|pushed| json!({ "version": 1, "savedBeforeLatestCommits": pushed }));
        let shaped = shape_result(inputs);
        document(&shaped.text)["nextStep"]
            .as_str()
            .map(str::to_string)
    };
    assert_eq!(
        next_step(Some(true), None).as_deref(),
        Some(crate::github::statuses::AFTER_PUSH)
    );
    assert_eq!(next_step(Some(false), None), None);
    assert_eq!(next_step(None, None), None);
    let both = next_step(Some(true), Some(1)).unwrap_or_default();
    assert!(
        both.starts_with("Reviewers left 1 review comment"),
        "{both}"
    );
    assert!(
        both.ends_with(crate::github::statuses::AFTER_PUSH),
        "{both}"
    );
}

//! Fixture tests: whole pull requests under `tests/data/hints/<case>/` with their expected hints.
//!
//! Why: end-to-end cases (patch parsing, change ids, every hint rule) read best as files: an input
//! pull request and the expected output as text, reviewed like any diff.
//! `pr.txt` holds sections: `=== gitattributes` followed by the file's text, and
//! `=== file <path> <status> [<previous path>]` followed by the file's patch (nothing for "no
//! patch"). Lines before the first section are comments.
//! `expected.txt` lists every file with its hints, and its changes when it has two or more.
//! `UPDATE_EXPECT=1 cargo test --lib review` rewrites the expectations.
//! What not: compiled only for tests.

use std::fmt::Write as _;
use std::path::Path;

use super::{compute_hints, HintInput};
use crate::review::change_id::describe_changes;
use crate::review::files::FileStatus;
use crate::review::patch::{parse_patch, Hunk};

struct FileCase {
    path: String,
    status: FileStatus,
    previous_path: Option<String>,
    patch: Option<String>,
}

struct PullRequest {
    gitattributes: Option<String>,
    files: Vec<FileCase>,
}

fn parse_case(text: &str) -> Result<PullRequest, String> {
    let mut pr = PullRequest {
        gitattributes: None,
        files: Vec::new(),
    };
    let mut section: Option<Vec<&str>> = None;
    let mut sections: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut header = "";
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("=== ") {
            if let Some(body) = section.take() {
                sections.push((header, body));
            }
            header = rest;
            section = Some(Vec::new());
        } else if let Some(body) = section.as_mut() {
            body.push(line);
        }
    }
    if let Some(body) = section {
        sections.push((header, body));
    }
    for (header, body) in sections {
        let text = body.join("\n");
        let words: Vec<&str> = header.split_whitespace().collect();
        match words.as_slice() {
            ["gitattributes"] => pr.gitattributes = Some(text),
            ["file", path, status, rest @ ..] => pr.files.push(FileCase {
                path: path.to_string(),
                status: FileStatus::from_github(status)
                    .ok_or_else(|| format!("unknown status {status}"))?,
                previous_path: rest.first().map(|p| p.to_string()),
                patch: (!text.trim().is_empty()).then_some(text),
            }),
            _ => return Err(format!("bad section header: {header}")),
        }
    }
    Ok(pr)
}

fn render(pr: &PullRequest) -> String {
    let hunks: Vec<Result<Vec<Hunk<'_>>, String>> = pr
        .files
        .iter()
        .map(|file| match &file.patch {
            Some(patch) => parse_patch(patch).map_err(|error| error.to_string()),
            None => Ok(Vec::new()),
        })
        .collect();
    let inputs: Vec<HintInput<'_>> = pr
        .files
        .iter()
        .zip(&hunks)
        .map(|(file, hunks)| HintInput {
            path: &file.path,
            status: file.status,
            previous_path: file.previous_path.as_deref(),
            hunks: match (&file.patch, hunks) {
                (Some(_), Ok(hunks)) => Some(hunks.as_slice()),
                _ => None,
            },
        })
        .collect();
    let hints = compute_hints(&inputs, pr.gitattributes.as_deref());
    let mut out = String::new();
    for ((file, hunks), hints) in pr.files.iter().zip(&hunks).zip(&hints) {
        let _ = writeln!(out, "{} ({})", file.path, file.status.as_str());
        if !hints.depends_on.is_empty() {
            let _ = writeln!(out, "  dependsOn: {}", hints.depends_on.join(", "));
        }
        if let Some(test_of) = &hints.test_of {
            let _ = writeln!(out, "  testOf: {test_of}");
        }
        if hints.likely_generated {
            let _ = writeln!(out, "  likelyGenerated");
        }
        match hunks {
            Err(error) => {
                let _ = writeln!(out, "  patch error: {error}");
            }
            Ok(hunks) if hunks.len() >= 2 => {
                for change in describe_changes(hunks) {
                    let _ = writeln!(
                        out,
                        "  change {} +{} -{} {} | {}",
                        change.id,
                        change.additions,
                        change.deletions,
                        change.header,
                        change.preview
                    );
                }
            }
            Ok(_) => {}
        }
    }
    out
}

#[test]
fn fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hints");
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut cases: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|error| panic!("{}: {error}", root.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        // Folders without `pr.txt` hold other data (`measure/`, read by `measure.rs`).
        .filter(|path| path.join("pr.txt").is_file())
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no fixtures under {}", root.display());
    let mut failures = Vec::new();
    for case in &cases {
        let input = std::fs::read_to_string(case.join("pr.txt"))
            .unwrap_or_else(|error| panic!("{}: {error}", case.display()));
        let pr = parse_case(&input).unwrap_or_else(|error| panic!("{}: {error}", case.display()));
        let got = render(&pr);
        let expected_path = case.join("expected.txt");
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got == expected {
            continue;
        }
        if update {
            std::fs::write(&expected_path, &got)
                .unwrap_or_else(|error| panic!("{}: {error}", expected_path.display()));
        } else {
            failures.push(format!(
                "{}:\n--- expected\n{expected}--- got\n{got}",
                case.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "fixtures differ (UPDATE_EXPECT=1 rewrites):\n{}",
        failures.join("\n")
    );
}

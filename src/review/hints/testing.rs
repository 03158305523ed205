//! Test helpers: build a small pull request from compact text and render its `dependsOn` hints.
//!
//! Why: every language reader is tested the same way, with `check(files, expected)` tables of
//! real-world paths; this is the one place that turns such a table into hunks and back into text.
//! What not: compiled only for tests; no assertions about other hints.

use super::project::Project;
use super::{compute_hints_in, HintInput};
use crate::review::files::FileStatus;
use crate::review::patch::{parse_patch, Hunk};

/// Builds a patch from body lines that carry diff markers; a line `@@` starts another hunk.
/// An empty body means "no patch".
pub(crate) fn patch_from_body(body: &str) -> Option<String> {
    if body.is_empty() {
        return None;
    }
    let mut patch = String::new();
    let (mut old_line, mut new_line) = (1, 1);
    for hunk in body.split("\n@@\n") {
        let lines: Vec<&str> = hunk.split('\n').collect();
        let old = lines.iter().filter(|l| !l.starts_with('+')).count();
        let new = lines.iter().filter(|l| !l.starts_with('-')).count();
        patch.push_str(&format!("@@ -{old_line},{old} +{new_line},{new} @@\n"));
        patch.push_str(hunk);
        patch.push('\n');
        old_line += old + 10;
        new_line += new + 10;
    }
    Some(patch)
}

/// `files` are `(path, body)`; a path starting with `-` is a removed file. `expected` lists
/// `path -> dep, dep` lines for files with dependencies, in pull-request order.
pub(crate) fn check_deps(files: &[(&str, &str)], expected: &str) {
    check_deps_in(files, &[], expected);
}

/// [`check_deps`] with build files at the head, as `(path, text)`.
pub(crate) fn check_deps_in(files: &[(&str, &str)], configs: &[(&str, &str)], expected: &str) {
    let configs: Vec<(String, String)> = configs
        .iter()
        .map(|(path, text)| (path.to_string(), text.to_string()))
        .collect();
    let project = Project::parse(&configs);
    let patches: Vec<Option<String>> = files
        .iter()
        .map(|(_, body)| patch_from_body(body))
        .collect();
    let hunks: Vec<Option<Vec<Hunk<'_>>>> = patches
        .iter()
        .map(|patch| {
            patch.as_deref().map(|text| {
                parse_patch(text).unwrap_or_else(|error| panic!("{error} in test patch:\n{text}"))
            })
        })
        .collect();
    let inputs: Vec<HintInput<'_>> = files
        .iter()
        .zip(&hunks)
        .map(|((path, _), hunks)| {
            let (path, status) = match path.strip_prefix('-') {
                Some(removed) => (removed, FileStatus::Removed),
                None => (*path, FileStatus::Modified),
            };
            HintInput {
                path,
                status,
                previous_path: None,
                hunks: hunks.as_deref(),
            }
        })
        .collect();
    let got: Vec<String> = inputs
        .iter()
        .zip(compute_hints_in(&inputs, None, &project))
        .filter(|(_, hints)| !hints.depends_on.is_empty())
        .map(|(input, hints)| format!("{} -> {}", input.path, hints.depends_on.join(", ")))
        .collect();
    let expected: Vec<&str> = expected
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    assert_eq!(got, expected);
}

//! Step 2 of order validation: every changed file placed, and every change of a split file placed
//! exactly once (MCP reference, "Splitting a file into parts").
//!
//! Why: reviewers trust that following the order shows them the whole pull request. The rules:
//!
//! - Every changed file has an entry; every entry names a changed file.
//! - A file listed more than once, or with `hunks`, is split. Split parts name change ids of the
//!   file, each id in one part only; at most one part leaves out `hunks` and takes the rest; when
//!   every part has `hunks`, together they name every change.
//! - A file GitHub gives no diff for can't be split, so it is listed once, without `hunks`.
//!
//! Problems come in two groups so the caller can pick the Errors-table message: `coverage`
//! (missing, unknown, listed twice without hunks) and `split` (everything about parts).
//!
//! What not: no shapes or limits (step 1 did those) and no advice (see `suggestions`).

use std::collections::{HashMap, HashSet};

use super::input::{comma_names, join_names, plain, shown};
use super::{FileEntry, Order, PullFacts, PullFileFacts};

/// Most paths or ids named in one problem; the rest are counted.
const MAX_NAMES: usize = 100;
/// A file's valid change ids are listed in an unknown-id problem only up to this many.
const MAX_VALID_IDS_LISTED: usize = 10;

/// The problems of step 2, by Errors-table message.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub coverage: Vec<String>,
    pub split: Vec<String>,
}

/// One entry of a path, with its JSON path for problems.
struct Placed<'o> {
    location: String,
    entry: &'o FileEntry,
}

pub(crate) fn check_coverage(order: &Order, facts: &PullFacts) -> Found {
    let mut found = Found::default();

    let mut changed: HashMap<&str, &PullFileFacts> = HashMap::with_capacity(facts.files.len());
    for file in &facts.files {
        changed.entry(file.path.as_str()).or_insert(file);
    }

    // Entries grouped by path, paths in order of first appearance.
    let mut groups: Vec<(&str, Vec<Placed<'_>>)> = Vec::new();
    let mut group_of: HashMap<&str, usize> = HashMap::new();
    for (section_index, section) in order.sections.iter().enumerate() {
        for (file_index, entry) in section.files.iter().enumerate() {
            let path = entry.path.as_str();
            let index = *group_of.entry(path).or_insert_with(|| {
                groups.push((path, Vec::new()));
                groups.len() - 1
            });
            if let Some((_, placed)) = groups.get_mut(index) {
                placed.push(Placed {
                    location: format!("sections[{section_index}].files[{file_index}]"),
                    entry,
                });
            }
        }
    }

    let mut seen_missing = HashSet::new();
    let missing: Vec<String> = facts
        .files
        .iter()
        .map(|file| file.path.as_str())
        .filter(|path| !group_of.contains_key(path) && seen_missing.insert(*path))
        .map(plain)
        .collect();
    if !missing.is_empty() {
        found
            .coverage
            .push(format!("missing: {}", comma_names(&missing, MAX_NAMES)));
    }

    let unknown: Vec<String> = groups
        .iter()
        .filter(|(path, _)| !changed.contains_key(path))
        .map(|(path, _)| plain(path))
        .collect();
    if !unknown.is_empty() {
        found
            .coverage
            .push(format!("unknown: {}", comma_names(&unknown, MAX_NAMES)));
    }

    let mut twice = Vec::new();
    for (path, placed) in &groups {
        let Some(file) = changed.get(path) else {
            continue;
        };
        let with_hunks = placed.iter().filter(|p| p.entry.hunks.is_some()).count();
        if !file.has_diff && (placed.len() > 1 || with_hunks > 0) {
            found.split.push(format!(
                "{} has no diff GitHub can show, so it can't be split",
                plain(path)
            ));
        } else if with_hunks == 0 {
            if placed.len() > 1 {
                twice.push(plain(path));
            }
        } else {
            check_split(file, placed, &mut found.split);
        }
    }
    if !twice.is_empty() {
        found.coverage.push(format!(
            "listed twice without hunks: {}",
            comma_names(&twice, MAX_NAMES)
        ));
    }
    found
}

/// The split rules for one file with a diff and at least one part with `hunks`.
fn check_split(file: &PullFileFacts, placed: &[Placed<'_>], problems: &mut Vec<String>) {
    let path = plain(&file.path);
    let without: Vec<&Placed<'_>> = placed.iter().filter(|p| p.entry.hunks.is_none()).collect();
    if without.len() > 1 {
        let locations: Vec<String> = without.iter().map(|p| p.location.clone()).collect();
        problems.push(format!(
            "{path} is listed {} times without hunks ({}), but at most one part may leave them out",
            without.len(),
            join_names(&locations, MAX_NAMES)
        ));
    }

    // Where each known change id is placed, and the unknown ids of each part.
    let known: HashSet<&str> = file.change_ids.iter().map(String::as_str).collect();
    let mut places: HashMap<&str, Vec<&str>> = HashMap::new();
    for part in placed {
        let Some(hunks) = &part.entry.hunks else {
            continue;
        };
        let mut unknown: Vec<String> = Vec::new();
        let mut seen_unknown: HashSet<&str> = HashSet::new();
        for id in hunks {
            if known.contains(id.as_str()) {
                places
                    .entry(id.as_str())
                    .or_default()
                    .push(part.location.as_str());
            } else if seen_unknown.insert(id.as_str()) {
                unknown.push(shown(id));
            }
        }
        if !unknown.is_empty() {
            let which = if unknown.len() == 1 {
                "isn't a change"
            } else {
                "aren't changes"
            };
            problems.push(format!(
                "{}.hunks names {}, which {which} of {path} ({})",
                part.location,
                join_names(&unknown, MAX_NAMES),
                valid_ids(file)
            ));
        }
    }

    for id in &file.change_ids {
        if let Some(locations) = places.get(id.as_str()) {
            // Parsing dropped repeats within one part, so each location is another part.
            if locations.len() > 1 {
                let parts: Vec<String> = locations.iter().map(|l| l.to_string()).collect();
                problems.push(format!(
                    "change {id} of {path} is placed in more than one part ({})",
                    join_names(&parts, MAX_NAMES)
                ));
            }
        }
    }

    if without.is_empty() {
        let mut seen: HashSet<&str> = HashSet::new();
        let unplaced: Vec<String> = file
            .change_ids
            .iter()
            .filter(|id| !places.contains_key(id.as_str()) && seen.insert(id.as_str()))
            .cloned()
            .collect();
        if !unplaced.is_empty() {
            let (noun, pronoun) = if unplaced.len() == 1 {
                ("change", "it")
            } else {
                ("changes", "them")
            };
            problems.push(format!(
                "{path} leaves {noun} {} unplaced: name {pronoun} in a part's hunks, or list the file once more without hunks to take the rest",
                join_names(&unplaced, MAX_NAMES)
            ));
        }
    }
}

/// The end of an unknown-id problem: the file's ids when there are few, else where to find them.
fn valid_ids(file: &PullFileFacts) -> String {
    match file.change_ids.len() {
        0 => "it has no changes to name".to_string(),
        1 => format!(
            "its only change is {}",
            file.change_ids.first().map(String::as_str).unwrap_or("")
        ),
        n if n <= MAX_VALID_IDS_LISTED => {
            format!("its changes are {}", join_names(&file.change_ids, n))
        }
        _ => "call get_pull_request for its change ids".to_string(),
    }
}

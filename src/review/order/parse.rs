//! Step 1 of order validation: turns the JSON arguments into an [`Order`], or lists every shape,
//! type, value and limit problem with its JSON path.
//!
//! Why: the reference's limits (1–50 sections, titles up to 200 characters, notes up to 4,000,
//! up to 20 checklist items of 1–300 characters, overview up to 2,000, `focus` and `layer` values,
//! non-empty `files` and `hunks`) are checked here, in characters, so the agent sees all of them
//! at once: "sections[2].checks[0] is empty".
//!
//! What not: nothing about the pull request; which paths and change ids exist is step 2
//! (`coverage`). Strings are stored as written; only checklist ids normalise text.

use serde_json::Value;

use super::input::{field, item, Problems};
use super::{
    FileEntry, Focus, Layer, Order, Section, MAX_CHECKS, MAX_CHECK_CHARS, MAX_NOTE_CHARS,
    MAX_OVERVIEW_CHARS, MAX_SECTIONS, MAX_TITLE_CHARS,
};

/// Keys of the top-level object this step reads.
const ORDER_KEYS: &[&str] = &["overview", "sections"];
/// Keys of the `save_reading_order` arguments that the tools layer checks, skipped here.
const TOOL_KEYS: &[&str] = &["owner", "repo", "number", "base_version"];
const SECTION_KEYS: &[&str] = &["title", "layer", "note", "checks", "files"];
const FILE_KEYS: &[&str] = &["path", "note", "checks", "focus", "hunks"];

/// Parses `{ overview?, sections }`; `Err` holds every problem found.
pub(crate) fn parse_order(input: &Value) -> Result<Order, Vec<String>> {
    let mut problems = Problems::default();
    let Some(map) = problems.object(input, "") else {
        return Err(problems.list);
    };
    problems.unknown_keys(map, "", ORDER_KEYS, TOOL_KEYS);
    let overview = problems
        .optional_string(map, "", "overview", MAX_OVERVIEW_CHARS)
        .map(str::to_string);
    let mut sections = Vec::new();
    match map.get("sections") {
        None => problems.push("sections is required".to_string()),
        Some(value) => {
            if let Some(items) = problems.array(value, "sections") {
                if items.is_empty() || items.len() > MAX_SECTIONS {
                    problems.push(format!(
                        "sections must have 1 to {MAX_SECTIONS} items, got {}",
                        items.len()
                    ));
                }
                for (index, value) in items.iter().enumerate() {
                    if let Some(section) =
                        parse_section(value, &item("sections", index), &mut problems)
                    {
                        sections.push(section);
                    }
                }
            }
        }
    }
    if problems.list.is_empty() {
        Ok(Order { overview, sections })
    } else {
        Err(problems.list)
    }
}

fn parse_section(value: &Value, path: &str, problems: &mut Problems) -> Option<Section> {
    let map = problems.object(value, path)?;
    problems.unknown_keys(map, path, SECTION_KEYS, &[]);
    let title = problems
        .optional_string(map, path, "title", MAX_TITLE_CHARS)
        .map(str::to_string);
    let layer = match map.get("layer") {
        None | Some(Value::Null) => None,
        Some(value) => problems.one_of(value, &field(path, "layer"), &Layer::ALL),
    };
    let note = problems
        .optional_string(map, path, "note", MAX_NOTE_CHARS)
        .map(str::to_string);
    let checks = parse_checks(map.get("checks"), &field(path, "checks"), problems);
    let mut files = Vec::new();
    let files_path = field(path, "files");
    match map.get("files") {
        None => problems.push(format!("{files_path} is required")),
        Some(value) => {
            if let Some(items) = problems.array(value, &files_path) {
                if items.is_empty() {
                    problems.push(format!("{files_path} must not be empty"));
                }
                for (index, value) in items.iter().enumerate() {
                    if let Some(entry) = parse_file(value, &item(&files_path, index), problems) {
                        files.push(entry);
                    }
                }
            }
        }
    }
    Some(Section {
        title,
        layer,
        note,
        checks,
        files,
    })
}

fn parse_file(value: &Value, path: &str, problems: &mut Problems) -> Option<FileEntry> {
    let map = problems.object(value, path)?;
    problems.unknown_keys(map, path, FILE_KEYS, &[]);
    // A path has no length limit of its own: an unknown path is reported by the coverage step.
    let file_path = problems.required_string(map, path, "path", 1, usize::MAX);
    let note = problems
        .optional_string(map, path, "note", MAX_NOTE_CHARS)
        .map(str::to_string);
    let checks = parse_checks(map.get("checks"), &field(path, "checks"), problems);
    let focus = match map.get("focus") {
        None | Some(Value::Null) => None,
        Some(value) => problems.one_of(value, &field(path, "focus"), &Focus::ALL),
    };
    let hunks_path = field(path, "hunks");
    let hunks = match map.get("hunks") {
        None | Some(Value::Null) => None,
        Some(value) => problems.array(value, &hunks_path).map(|items| {
            if items.is_empty() {
                problems.push(format!("{hunks_path} must not be empty"));
            }
            // A change id named twice in one part is still in one part (the spec's rule is
            // about parts), so the repeat is dropped rather than refused.
            let mut ids: Vec<String> = Vec::with_capacity(items.len());
            for (index, value) in items.iter().enumerate() {
                if let Some(id) = problems.string(value, &item(&hunks_path, index), 1, usize::MAX) {
                    if !ids.iter().any(|seen| seen == id) {
                        ids.push(id.to_string());
                    }
                }
            }
            ids
        }),
    };
    Some(FileEntry {
        path: file_path?.to_string(),
        note,
        checks,
        focus,
        hunks,
    })
}

/// A `checks` list: at most [`MAX_CHECKS`] non-blank items of at most [`MAX_CHECK_CHARS`].
fn parse_checks(value: Option<&Value>, path: &str, problems: &mut Problems) -> Vec<String> {
    let Some(value) = value.filter(|value| !value.is_null()) else {
        return Vec::new();
    };
    let Some(items) = problems.array(value, path) else {
        return Vec::new();
    };
    if items.len() > MAX_CHECKS {
        problems.push(format!(
            "{path} must have at most {MAX_CHECKS} items, got {}",
            items.len()
        ));
    }
    items
        .iter()
        .enumerate()
        .filter_map(|(index, value)| {
            problems
                .string(value, &item(path, index), 1, MAX_CHECK_CHARS)
                .map(str::to_string)
        })
        .collect()
}

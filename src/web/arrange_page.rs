//! Arrange on the web: a form at `/r/{owner}/{repo}/pull/{n}/arrange` that lets a reviewer with
//! write access reorder sections and files, move a file between sections and edit the overview,
//! section titles and notes (issue 6), and [`apply_form`], which turns the submitted form back into
//! the `save_reading_order` shape (MCP reference: `save_reading_order`).
//!
//! Why: a reviewer who disagrees with the agent's order should not need an agent to fix it. The
//! form needs no JavaScript: positions are number inputs, sections are chosen with a select, and
//! notes are textareas. [`apply_form`] keeps everything the form does not edit (layers, checks,
//! focus, hunks) exactly as it was, so the Worker can run the result through the same validator
//! as the tool and save it with source `web` and the form's `base_version`.
//!
//! Field names (`i` is a section's index and `j` an entry's index in the order given, from 0):
//!
//! | Field | Meaning |
//! |---|---|
//! | `csrf`, `base_version` | hidden; checked by the Worker, ignored by [`apply_form`] |
//! | `overview` | the overview (blank removes it) |
//! | `section.{i}.position` | the section's position, a whole number from 1 to [`MAX_POSITION`] |
//! | `section.{i}.title`, `section.{i}.note` | title and note (blank removes them) |
//! | `entry.{i}.{j}.section` | index of the section the entry goes to |
//! | `entry.{i}.{j}.position` | its position within that section |
//! | `entry.{i}.{j}.note` | its note |
//! | `new.{k}.path`, `new.{k}.section`, `new.{k}.position`, `new.{k}.note` | files of the pull request the order does not list yet |
//!
//! A missing field keeps what the order has. Sorting is stable, and a tie at one position puts an
//! entry that moved up (or into the section) before the one that stayed, and one that moved down
//! after it: typing 1 moves an entry to the top. A section left without files is dropped, with its
//! checklist.
//!
//! What not: no validation of the result against the pull request, no conflict check, no saving
//! (the Worker does those as for the tool), no `worker` types.

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use serde_json::Value;

use crate::review::order::{
    FileEntry, Order, Section, MAX_NOTE_CHARS, MAX_OVERVIEW_CHARS, MAX_TITLE_CHARS,
};
use crate::tools::get_pull_request::SnapshotFile;
use crate::web::html::{escape, escape_into, page};
use crate::web::review_page::pull_path;

/// The largest position the form accepts.
pub const MAX_POSITION: u64 = 9_999;

/// Everything the arrange page shows. All text is untrusted and escaped by [`render`].
pub struct ArrangePage<'a> {
    pub base_url: &'a str,
    pub owner: &'a str,
    pub repo: &'a str,
    pub number: u64,
    /// The pull request's title.
    pub title: &'a str,
    /// The order of `base_version`: the one being rearranged.
    pub order: &'a Order,
    pub base_version: u64,
    /// The pull request's files now; those the order does not list are offered as `new.{k}`.
    pub files: &'a [SnapshotFile],
    pub csrf: &'a str,
    /// A message from the last attempt (validation or conflict), shown at the top.
    pub error: Option<&'a str>,
}

/// Renders the arrange form as a full document.
pub fn render(arrange: &ArrangePage<'_>) -> String {
    let pull = pull_path(arrange.owner, arrange.repo, arrange.number);
    let order = arrange.order;
    let mut out = String::with_capacity(8 * 1024);
    out.push_str("<link rel=\"stylesheet\" href=\"/static/arrange.css\">\n");
    let _ = writeln!(
        out,
        "<p class=\"crumbs\"><a href=\"{}\">← Back to the review</a></p>",
        escape(&pull)
    );
    out.push_str("<h1>Arrange the reading order</h1>\n");
    let _ = writeln!(
        out,
        "<p class=\"lead\">{}/{}#{}: {}</p>",
        escape(arrange.owner),
        escape(arrange.repo),
        arrange.number,
        escape(arrange.title)
    );
    if let Some(error) = arrange.error.filter(|text| !text.trim().is_empty()) {
        let _ = writeln!(
            out,
            "<div class=\"error\" role=\"alert\"><p><strong>The order wasn't saved.</strong></p><p>{}</p></div>",
            escape(error)
        );
    }
    out.push_str(
        "<p>Positions set the order: sections by their position, files by their position within \
         the section they go to. A file moved to another section takes the position next to it \
         there; to move a file to the top of a section, give it position 1. A section left without files is removed, with its checklist. Layers, checklists, focus \
         marks and split parts stay as they are. Saving creates a new version; earlier ones stay \
         in the history.</p>\n",
    );
    let _ = writeln!(
        out,
        "<form class=\"arrange\" method=\"post\" action=\"{}/arrange\">\n\
         <input type=\"hidden\" name=\"csrf\" value=\"{}\">\n\
         <input type=\"hidden\" name=\"base_version\" value=\"{}\">",
        escape(&pull),
        escape(arrange.csrf),
        arrange.base_version
    );
    out.push_str("<div class=\"field\"><label for=\"overview\">Overview</label>");
    textarea(
        &mut out,
        "overview",
        "overview",
        order.overview.as_deref(),
        3,
        MAX_OVERVIEW_CHARS,
    );
    out.push_str("</div>\n");

    let section_count = order.sections.len();
    let files_by_path: HashMap<&str, &SnapshotFile> = arrange
        .files
        .iter()
        .map(|file| (file.path.as_str(), file))
        .collect();
    let mut appearances: HashMap<&str, usize> = HashMap::new();
    for entry in order.sections.iter().flat_map(|section| &section.files) {
        *appearances.entry(entry.path.as_str()).or_insert(0) += 1;
    }

    for (i, section) in order.sections.iter().enumerate() {
        let _ = write!(
            out,
            "<fieldset class=\"sec\" id=\"sec-{i}\">\n<legend>Section {}: ",
            i + 1
        );
        title_text(&mut out, section.title.as_deref());
        out.push_str("</legend>\n<div class=\"row\">");
        position_input(
            &mut out,
            &format!("s{i}-pos"),
            &format!("section.{i}.position"),
            i + 1,
        );
        let _ = write!(
            out,
            "<div class=\"field grow\"><label for=\"s{i}-title\">Title</label>\
             <input type=\"text\" id=\"s{i}-title\" name=\"section.{i}.title\" value=\"{}\" maxlength=\"{MAX_TITLE_CHARS}\"></div>",
            escape(section.title.as_deref().unwrap_or(""))
        );
        out.push_str("</div>\n");
        let mut kept = Vec::new();
        if let Some(layer) = section.layer {
            kept.push(format!("layer {}", layer.as_str()));
        }
        if !section.checks.is_empty() {
            let count = section.checks.len();
            kept.push(format!(
                "{count} checklist {}",
                if count == 1 { "item" } else { "items" }
            ));
        }
        if !kept.is_empty() {
            let _ = writeln!(
                out,
                "<p class=\"kept\">Kept as saved: {}.</p>",
                escape(&kept.join(", "))
            );
        }
        let _ = write!(
            out,
            "<div class=\"field\"><label for=\"s{i}-note\">Note</label>"
        );
        textarea(
            &mut out,
            &format!("s{i}-note"),
            &format!("section.{i}.note"),
            section.note.as_deref(),
            3,
            MAX_NOTE_CHARS,
        );
        out.push_str("</div>\n<ol class=\"entries\">\n");
        let mut nth: HashMap<&str, usize> = HashMap::new();
        for (j, entry) in section.files.iter().enumerate() {
            let part = {
                let total = appearances.get(entry.path.as_str()).copied().unwrap_or(1);
                let count = nth.entry(entry.path.as_str()).or_insert(0);
                *count += 1;
                (total > 1).then(|| describe_part(entry))
            };
            out.push_str("<li class=\"entry\">");
            path_line(
                &mut out,
                &entry.path,
                files_by_path.get(entry.path.as_str()).copied(),
                part.as_deref(),
            );
            let id = format!("e{i}-{j}");
            out.push_str("<div class=\"row\">");
            section_select(
                &mut out,
                &format!("{id}-sec"),
                &format!("entry.{i}.{j}.section"),
                order,
                i,
            );
            position_input(
                &mut out,
                &format!("{id}-pos"),
                &format!("entry.{i}.{j}.position"),
                j + 1,
            );
            out.push_str("</div>\n");
            let _ = write!(
                out,
                "<div class=\"field\"><label for=\"{id}-note\">Note</label>"
            );
            textarea(
                &mut out,
                &format!("{id}-note"),
                &format!("entry.{i}.{j}.note"),
                entry.note.as_deref(),
                2,
                MAX_NOTE_CHARS,
            );
            out.push_str("</div></li>\n");
        }
        out.push_str("</ol>\n</fieldset>\n");
    }

    let listed: HashSet<&str> = appearances.keys().copied().collect();
    let mut seen = HashSet::new();
    let new_files: Vec<&SnapshotFile> = arrange
        .files
        .iter()
        .filter(|file| !listed.contains(file.path.as_str()) && seen.insert(file.path.as_str()))
        .collect();
    if !new_files.is_empty() && section_count > 0 {
        let last = section_count - 1;
        let last_len = order
            .sections
            .last()
            .map_or(0, |section| section.files.len());
        out.push_str(
            "<fieldset class=\"sec new\" id=\"new-files\">\n<legend>Not in the order yet</legend>\n\
             <p class=\"kept\">These files changed after the order was saved. Choose where each one goes.</p>\n\
             <ol class=\"entries\">\n",
        );
        for (k, file) in new_files.iter().enumerate() {
            out.push_str("<li class=\"entry\">");
            path_line(&mut out, &file.path, Some(file), None);
            let _ = write!(
                out,
                "<input type=\"hidden\" name=\"new.{k}.path\" value=\"{}\">",
                escape(&file.path)
            );
            let id = format!("n{k}");
            out.push_str("<div class=\"row\">");
            section_select(
                &mut out,
                &format!("{id}-sec"),
                &format!("new.{k}.section"),
                order,
                last,
            );
            position_input(
                &mut out,
                &format!("{id}-pos"),
                &format!("new.{k}.position"),
                last_len + 1 + k,
            );
            out.push_str("</div>\n");
            let _ = write!(
                out,
                "<div class=\"field\"><label for=\"{id}-note\">Note</label>"
            );
            textarea(
                &mut out,
                &format!("{id}-note"),
                &format!("new.{k}.note"),
                None,
                2,
                MAX_NOTE_CHARS,
            );
            out.push_str("</div></li>\n");
        }
        out.push_str("</ol>\n</fieldset>\n");
    }

    let _ = writeln!(
        out,
        "<p class=\"submit\"><button type=\"submit\" class=\"button primary\">Save order</button> \
         <a href=\"{}\">Cancel</a></p>\n</form>",
        escape(&pull)
    );
    let title = format!(
        "Arrange {}/{}#{}",
        arrange.owner, arrange.repo, arrange.number
    );
    page(&title, &out, arrange.base_url)
}

/// Rebuilds the order from a submitted arrange form, in the `save_reading_order` shape
/// (`{ overview?, sections }`). `order` must be the order the form was rendered from (the one of
/// the form's `base_version`). Every invalid position or section choice is reported, joined by
/// `; `.
pub fn apply_form(order: &Order, form: &[(String, String)]) -> Result<Value, String> {
    // The last value of a repeated field wins, as with most form parsers.
    let fields: HashMap<&str, &str> = form
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .collect();
    let count = order.sections.len();
    let mut problems = Vec::new();

    let mut keyed_sections = Vec::with_capacity(count);
    for (i, section) in order.sections.iter().enumerate() {
        let label = section_label(i, section);
        let position = position(
            &fields,
            &format!("section.{i}.position"),
            i + 1,
            &label,
            &mut problems,
        );
        let title = edit_line(
            section.title.as_deref(),
            fields.get(format!("section.{i}.title").as_str()).copied(),
        );
        let note = edit_text(
            section.note.as_deref(),
            fields.get(format!("section.{i}.note").as_str()).copied(),
        );
        keyed_sections.push((
            Key::new(position, i + 1, false),
            Section {
                title,
                note,
                layer: section.layer,
                checks: section.checks.clone(),
                files: Vec::new(),
            },
        ));
    }

    let mut buckets: Vec<Vec<(Key, FileEntry)>> = vec![Vec::new(); count];
    for (i, section) in order.sections.iter().enumerate() {
        for (j, entry) in section.files.iter().enumerate() {
            let label = format!("{} in section {}", entry.path, i + 1);
            let target = section_choice(
                &fields,
                &format!("entry.{i}.{j}.section"),
                i,
                count,
                &label,
                &mut problems,
            );
            let position = position(
                &fields,
                &format!("entry.{i}.{j}.position"),
                j + 1,
                &label,
                &mut problems,
            );
            let note = edit_text(
                entry.note.as_deref(),
                fields.get(format!("entry.{i}.{j}.note").as_str()).copied(),
            );
            let edited = FileEntry {
                note,
                ..entry.clone()
            };
            if let Some(bucket) = buckets.get_mut(target) {
                bucket.push((Key::new(position, j + 1, target != i), edited));
            }
        }
    }

    for k in 0..form.len() {
        let Some(path) = fields.get(format!("new.{k}.path").as_str()).copied() else {
            break;
        };
        if path.trim().is_empty() {
            continue;
        }
        let label = format!("{path} (not in the order yet)");
        let last = count.saturating_sub(1);
        let target = section_choice(
            &fields,
            &format!("new.{k}.section"),
            last,
            count,
            &label,
            &mut problems,
        );
        let default_position = buckets.get(target).map_or(0, Vec::len) + 1;
        let position = position(
            &fields,
            &format!("new.{k}.position"),
            default_position,
            &label,
            &mut problems,
        );
        let note = edit_text(None, fields.get(format!("new.{k}.note").as_str()).copied());
        if let Some(bucket) = buckets.get_mut(target) {
            bucket.push((
                Key::new(position, default_position, true),
                FileEntry {
                    path: path.to_string(),
                    note,
                    checks: Vec::new(),
                    focus: None,
                    hunks: None,
                },
            ));
        }
    }

    if !problems.is_empty() {
        return Err(problems.join("; "));
    }

    for ((_, section), mut bucket) in keyed_sections.iter_mut().zip(buckets) {
        crate::sorting::sort_by_key(&mut bucket, |(key, _)| *key);
        section.files = bucket.into_iter().map(|(_, entry)| entry).collect();
    }
    keyed_sections.retain(|(_, section)| !section.files.is_empty());
    crate::sorting::sort_by_key(&mut keyed_sections, |(key, _)| *key);
    let rebuilt = Order {
        overview: edit_text(order.overview.as_deref(), fields.get("overview").copied()),
        sections: keyed_sections
            .into_iter()
            .map(|(_, section)| section)
            .collect(),
    };
    serde_json::to_value(&rebuilt)
        .map_err(|error| format!("the order couldn't be encoded: {error}"))
}

/// Reads the form's `base_version`.
pub fn form_base_version(form: &[(String, String)]) -> Result<u64, String> {
    let value = form
        .iter()
        .rev()
        .find(|(name, _)| name == "base_version")
        .map(|(_, value)| value.trim())
        .ok_or_else(|| "the form has no base_version".to_string())?;
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "base_version must be a whole number, not “{}”",
            shorten(value)
        ));
    }
    value
        .parse()
        .map_err(|_| format!("base_version is too large: “{}”", shorten(value)))
}

/// Sort key: position, then a tie rank (0 moved up or in, 1 stayed, 2 moved down), then the
/// original position, which keeps the sort stable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    position: u64,
    rank: u8,
    original: usize,
}

impl Key {
    fn new(position: u64, original: usize, moved_in: bool) -> Self {
        let was = original as u64;
        let rank = if moved_in || position < was {
            0
        } else if position == was {
            1
        } else {
            2
        };
        Key {
            position,
            rank,
            original,
        }
    }
}

/// A position field: a whole number from 1 to [`MAX_POSITION`]; `default` when the field is absent.
fn position(
    fields: &HashMap<&str, &str>,
    name: &str,
    default: usize,
    label: &str,
    problems: &mut Vec<String>,
) -> u64 {
    let Some(raw) = fields.get(name) else {
        return default as u64;
    };
    let value = raw.trim();
    let parsed =
        (!value.is_empty() && value.len() <= 4 && value.bytes().all(|b| b.is_ascii_digit()))
            .then(|| value.parse::<u64>().ok())
            .flatten()
            .filter(|n| (1..=MAX_POSITION).contains(n));
    match parsed {
        Some(position) => position,
        None => {
            problems.push(format!(
                "{label}: the position must be a whole number from 1 to {MAX_POSITION}, not “{}”",
                shorten(value)
            ));
            default as u64
        }
    }
}

/// A section select: the index of one of the order's `count` sections; `default` when absent.
fn section_choice(
    fields: &HashMap<&str, &str>,
    name: &str,
    default: usize,
    count: usize,
    label: &str,
    problems: &mut Vec<String>,
) -> usize {
    let Some(raw) = fields.get(name) else {
        return default;
    };
    let value = raw.trim();
    match value.parse::<usize>().ok().filter(|index| *index < count) {
        Some(index) if value.bytes().all(|b| b.is_ascii_digit()) => index,
        _ => {
            problems.push(format!(
                "{label}: choose one of the {count} sections, not “{}”",
                shorten(value)
            ));
            default
        }
    }
}

/// A textarea's new value: absent keeps `original`; the same text (after browsers' CRLF) keeps
/// `original` byte for byte; blank removes it.
fn edit_text(original: Option<&str>, submitted: Option<&str>) -> Option<String> {
    let Some(submitted) = submitted else {
        return original.map(str::to_string);
    };
    let submitted = submitted.replace("\r\n", "\n").replace('\r', "\n");
    if original.is_some_and(|text| text.replace("\r\n", "\n").replace('\r', "\n") == submitted) {
        return original.map(str::to_string);
    }
    (!submitted.trim().is_empty()).then_some(submitted)
}

/// A one-line input's new value: like [`edit_text`], but browsers drop line breaks from text
/// inputs, so a title that differs from the original only by them is the original.
fn edit_line(original: Option<&str>, submitted: Option<&str>) -> Option<String> {
    let Some(submitted) = submitted else {
        return original.map(str::to_string);
    };
    if original.is_some_and(|text| text.replace(['\r', '\n'], "") == submitted) {
        return original.map(str::to_string);
    }
    (!submitted.trim().is_empty()).then(|| submitted.to_string())
}

/// At most 40 characters of a rejected value, for messages.
fn shorten(value: &str) -> String {
    let mut chars = value.chars();
    let head: String = chars.by_ref().take(40).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

fn section_label(index: usize, section: &Section) -> String {
    match section
        .title
        .as_deref()
        .filter(|title| !title.trim().is_empty())
    {
        Some(title) => format!("Section {} (“{}”)", index + 1, shorten(title)),
        None => format!("Section {}", index + 1),
    }
}

/// "part: 2 changes" or "part: the rest of the file" for a file listed more than once.
fn describe_part(entry: &FileEntry) -> String {
    match &entry.hunks {
        Some(hunks) => {
            let count = hunks.len();
            format!(
                "part: {count} {}",
                if count == 1 { "change" } else { "changes" }
            )
        }
        None => "part: the rest of the file".to_string(),
    }
}

fn title_text(out: &mut String, title: Option<&str>) {
    match title.filter(|text| !text.trim().is_empty()) {
        Some(title) => escape_into(out, title),
        None => out.push_str("<span class=\"untitled\">Untitled</span>"),
    }
}

fn path_line(out: &mut String, path: &str, file: Option<&SnapshotFile>, part: Option<&str>) {
    let _ = write!(out, "<p class=\"path\"><code>{}</code>", escape(path));
    if let Some(file) = file {
        let _ = write!(
            out,
            " <span class=\"meta\">{} · +{} −{}</span>",
            escape(&file.status),
            file.additions,
            file.deletions
        );
    }
    if let Some(part) = part {
        let _ = write!(out, " <span class=\"meta\">· {}</span>", escape(part));
    }
    out.push_str("</p>\n");
}

fn position_input(out: &mut String, id: &str, name: &str, value: usize) {
    let _ = write!(
        out,
        "<div class=\"field pos\"><label for=\"{id}\">Position</label>\
         <input type=\"number\" id=\"{id}\" name=\"{name}\" value=\"{}\" min=\"1\" max=\"{MAX_POSITION}\" \
         step=\"1\" inputmode=\"numeric\" required></div>",
        (value as u64).min(MAX_POSITION)
    );
}

fn section_select(out: &mut String, id: &str, name: &str, order: &Order, selected: usize) {
    let _ = write!(
        out,
        "<div class=\"field grow\"><label for=\"{id}\">Section</label><select id=\"{id}\" name=\"{name}\">"
    );
    for (index, section) in order.sections.iter().enumerate() {
        let _ = write!(
            out,
            "<option value=\"{index}\"{}>{}. ",
            if index == selected { " selected" } else { "" },
            index + 1
        );
        match section
            .title
            .as_deref()
            .filter(|text| !text.trim().is_empty())
        {
            Some(title) => escape_into(out, title),
            None => out.push_str("Untitled"),
        }
        out.push_str("</option>");
    }
    out.push_str("</select></div>");
}

/// A textarea whose content round-trips: the newline after the start tag is the one the HTML
/// parser drops, so a value starting with a newline keeps it.
fn textarea(out: &mut String, id: &str, name: &str, value: Option<&str>, rows: u8, max: usize) {
    let _ = writeln!(
        out,
        "<textarea id=\"{id}\" name=\"{name}\" rows=\"{rows}\" maxlength=\"{max}\">"
    );
    escape_into(out, value.unwrap_or(""));
    out.push_str("</textarea>");
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::panic)]
mod tests;

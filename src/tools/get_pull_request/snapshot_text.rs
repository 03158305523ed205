//! The snapshot as text: the cached snapshot (`snapshot_key`), and the two JSON copies a listing
//! keeps (the snapshot's own fields, and its lean files).
//!
//! The cached text is a JSON header, a newline, then every patch's text as it is, one after
//! another: the header holds the snapshot without patch text and `patch_bytes`, each file's
//! patch length in bytes (`null` for a file without one). Compact JSON never holds a raw
//! newline, so the header ends at the first. Why: as one JSON document every patch was escaped
//! when cached and unescaped on each read, and escaping them was about a fifth of a first read
//! of a 3,000-file pull request (issue #19); here they are copied.
//!
//! Written by hand, in the field order and with the escaping serde wrote, and read straight from
//! the text by the compact reader ([`reader`]): no serde code and no `Value` tree for the
//! snapshot's types. A text that isn't a whole snapshot in that form reads as `None`, so a
//! damaged cache entry is a cache miss.

use super::file_list::push_number;
use super::{Snapshot, SnapshotFile};
use crate::quote::push_json_string;

/// Which copy of the snapshot is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The cached header: everything but the patch text, and the patches' lengths.
    Cache,
    /// What validation and suggestions need (a listing's second line): an empty patch keeps
    /// `has_diff` (a patch was given) without its text; change ids and counts without header or
    /// preview; no blob.
    Lean,
    /// The snapshot's own fields, without files (a listing's first line).
    Meta,
}

/// The snapshot's cached text.
pub fn write_cached(snapshot: &Snapshot) -> String {
    let patch_bytes: usize = snapshot
        .files
        .iter()
        .filter_map(|file| file.patch.as_ref())
        .map(String::len)
        .sum();
    let mut out = String::with_capacity(patch_bytes + 256 * snapshot.files.len() + 256);
    write_json(&mut out, snapshot, Form::Cache);
    out.push('\n');
    for patch in snapshot.files.iter().filter_map(|file| file.patch.as_ref()) {
        out.push_str(patch);
    }
    out
}

/// The snapshot from its cached text; `None` when the text isn't a whole snapshot.
pub fn read_cached(text: &str) -> Option<Snapshot> {
    let (header, mut patches) = text.split_once('\n')?;
    let (mut snapshot, lengths) = reader::cached_header(header)?;
    if lengths.len() != snapshot.files.len() {
        return None;
    }
    for (file, length) in snapshot.files.iter_mut().zip(lengths) {
        let Some(length) = length else {
            continue;
        };
        // `get` refuses a length past the end or inside a character.
        let (patch, rest) = (patches.get(..length)?, patches.get(length..)?);
        file.patch = Some(patch.to_string());
        patches = rest;
    }
    patches.is_empty().then_some(snapshot)
}

/// Appends the snapshot as JSON in `form`, its fields in the order serde wrote them.
pub fn write_json(out: &mut String, snapshot: &Snapshot, form: Form) {
    out.push_str(r#"{"files":["#);
    if form != Form::Meta {
        for (index, file) in snapshot.files.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            write_file(out, file, form);
        }
    }
    out.push_str(r#"],"files_truncated_by_github":"#);
    push_bool(out, snapshot.files_truncated_by_github);
    out.push_str(r#","changed_files":"#);
    push_number(out, snapshot.changed_files);
    out.push_str(r#","diagram_preference":"#);
    push_json_string(out, &snapshot.diagram_preference);
    if let Some(problem) = &snapshot.conventions_problem {
        out.push_str(r#","conventions_problem":"#);
        push_json_string(out, problem);
    }
    if form == Form::Cache {
        out.push_str(r#","patch_bytes":["#);
        for (index, file) in snapshot.files.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            match &file.patch {
                Some(patch) => push_number(out, patch.len() as u64),
                None => out.push_str("null"),
            }
        }
        out.push(']');
    }
    out.push('}');
}

fn write_file(out: &mut String, file: &SnapshotFile, form: Form) {
    let lean = form == Form::Lean;
    out.push_str(r#"{"path":"#);
    push_json_string(out, &file.path);
    out.push_str(r#","status":"#);
    push_json_string(out, &file.status);
    if let Some(previous) = &file.previous_path {
        out.push_str(r#","previous_path":"#);
        push_json_string(out, previous);
    }
    out.push_str(r#","additions":"#);
    push_number(out, file.additions);
    out.push_str(r#","deletions":"#);
    push_number(out, file.deletions);
    out.push_str(r#","changes":["#);
    for (index, change) in file.changes.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str(r#"{"id":"#);
        push_json_string(out, &change.id);
        out.push_str(r#","header":"#);
        push_json_string(out, if lean { "" } else { &change.header });
        out.push_str(r#","preview":"#);
        push_json_string(out, if lean { "" } else { &change.preview });
        out.push_str(r#","additions":"#);
        push_number(out, change.additions as u64);
        out.push_str(r#","deletions":"#);
        push_number(out, change.deletions as u64);
        out.push('}');
    }
    out.push(']');
    // The cached header carries the patch's length instead (`patch_bytes`).
    if lean && file.patch.is_some() {
        out.push_str(r#","patch":"""#);
    }
    out.push_str(r#","depends_on":["#);
    for (index, path) in file.depends_on.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        push_json_string(out, path);
    }
    out.push(']');
    if let Some(test_of) = &file.test_of {
        out.push_str(r#","test_of":"#);
        push_json_string(out, test_of);
    }
    out.push_str(r#","likely_generated":"#);
    push_bool(out, file.likely_generated);
    if let Some(blob) = file.blob_sha.as_ref().filter(|_| !lean) {
        out.push_str(r#","blob_sha":"#);
        push_json_string(out, blob);
    }
    out.push('}');
}

fn push_bool(out: &mut String, value: bool) {
    out.push_str(if value { "true" } else { "false" });
}

pub mod reader;
#[cfg(test)]
mod tests;

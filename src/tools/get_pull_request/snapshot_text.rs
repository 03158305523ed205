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
//! Written through serde's `Serialize` from views of the typed snapshot (one per [`Form`]) and
//! read back with serde's derived `Deserialize`, straight into the typed snapshot (no `Value`
//! tree). The texts are byte for byte what the hand-written writers before them wrote, which
//! the keys' versions promise (`written_texts_keep_their_form`); the reader takes the fields in
//! any order. A text that isn't a whole snapshot reads as `None`, so a damaged cache entry is a
//! cache miss.
//!
//! Measured against the hand-written writers and the compact reader they replaced (issue #28,
//! native, 3,000 files, opt-level 3): reading the cached text 1.05 -> 1.19 ms, the lean copy
//! 0.35 -> 0.68 ms; writing the cached header 0.13 -> 0.34 ms, the lean copy 0.08 -> 0.29 ms.
//! A first read of such a pull request takes over 100 ms of isolate time, and the reads that
//! repeat (a review page, a save) stay within a millisecond of before, so one reader and one
//! writer, serde's, is the one kept.

use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use super::{Snapshot, SnapshotChange, SnapshotFile};

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

/// The cached text's header: the snapshot without patch text, and each file's patch length in
/// bytes (`None`: no patch).
#[derive(Deserialize)]
struct CachedHeader {
    files: Vec<SnapshotFile>,
    files_truncated_by_github: bool,
    changed_files: u64,
    diagram_preference: String,
    conventions_problem: Option<String>,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    commit_status_off: bool,
    patch_bytes: Vec<Option<usize>>,
}

/// The snapshot from its cached text; `None` when the text isn't a whole snapshot.
pub fn read_cached(text: &str) -> Option<Snapshot> {
    let (header, mut patches) = text.split_once('\n')?;
    let header: CachedHeader = serde_json::from_str(header).ok()?;
    let lengths = header.patch_bytes;
    let mut snapshot = Snapshot {
        files: header.files,
        files_truncated_by_github: header.files_truncated_by_github,
        changed_files: header.changed_files,
        diagram_preference: header.diagram_preference,
        conventions_problem: header.conventions_problem,
        commit_status_off: header.commit_status_off,
    };
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

/// A snapshot written by [`write_json`] (any form); `None` for text that isn't one.
pub fn read_json(text: &str) -> Option<Snapshot> {
    serde_json::from_str(text).ok()
}

/// Appends the snapshot as JSON in `form`.
pub fn write_json(out: &mut String, snapshot: &Snapshot, form: Form) {
    let text = SnapshotText {
        files: Files { snapshot, form },
        files_truncated_by_github: snapshot.files_truncated_by_github,
        changed_files: snapshot.changed_files,
        diagram_preference: &snapshot.diagram_preference,
        conventions_problem: snapshot.conventions_problem.as_deref(),
        commit_status_off: snapshot.commit_status_off,
        patch_bytes: (form == Form::Cache).then_some(PatchBytes(&snapshot.files)),
    };
    // Writing to a `Vec` cannot fail, and serde_json writes UTF-8.
    let mut bytes = std::mem::take(out).into_bytes();
    let _ = serde_json::to_writer(&mut bytes, &text);
    *out = String::from_utf8(bytes).unwrap_or_default();
}

/// The snapshot as a form writes it.
#[derive(Serialize)]
struct SnapshotText<'a> {
    files: Files<'a>,
    files_truncated_by_github: bool,
    changed_files: u64,
    diagram_preference: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    conventions_problem: Option<&'a str>,
    /// Only when the conventions say `status: off`: texts without it keep their form.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    commit_status_off: bool,
    /// The cached header only.
    #[serde(skip_serializing_if = "Option::is_none")]
    patch_bytes: Option<PatchBytes<'a>>,
}

/// The files in a form (none for [`Form::Meta`]).
struct Files<'a> {
    snapshot: &'a Snapshot,
    form: Form,
}

impl Serialize for Files<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let files = match self.form {
            Form::Meta => &[][..],
            _ => &self.snapshot.files[..],
        };
        serializer.collect_seq(files.iter().map(|file| FileText::of(file, self.form)))
    }
}

/// One file as a form writes it.
#[derive(Serialize)]
struct FileText<'a> {
    path: &'a str,
    status: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_path: Option<&'a str>,
    additions: u64,
    deletions: u64,
    changes: Changes<'a>,
    /// The lean form's empty patch (a patch was given); the cached header has its length.
    #[serde(skip_serializing_if = "Option::is_none")]
    patch: Option<&'a str>,
    depends_on: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    test_of: Option<&'a str>,
    likely_generated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    blob_sha: Option<&'a str>,
}

impl<'a> FileText<'a> {
    fn of(file: &'a SnapshotFile, form: Form) -> FileText<'a> {
        let lean = form == Form::Lean;
        FileText {
            path: &file.path,
            status: &file.status,
            previous_path: file.previous_path.as_deref(),
            additions: file.additions,
            deletions: file.deletions,
            changes: Changes {
                changes: &file.changes,
                lean,
            },
            patch: file.patch.as_ref().filter(|_| lean).map(|_| ""),
            depends_on: &file.depends_on,
            test_of: file.test_of.as_deref(),
            likely_generated: file.likely_generated,
            blob_sha: file.blob_sha.as_deref().filter(|_| !lean),
        }
    }
}

/// A file's changes; the lean form leaves their headers and previews empty.
struct Changes<'a> {
    changes: &'a [SnapshotChange],
    lean: bool,
}

#[derive(Serialize)]
struct ChangeText<'a> {
    id: &'a str,
    header: &'a str,
    preview: &'a str,
    additions: usize,
    deletions: usize,
}

impl Serialize for Changes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let lean = self.lean;
        serializer.collect_seq(self.changes.iter().map(|change| ChangeText {
            id: &change.id,
            header: if lean { "" } else { &change.header },
            preview: if lean { "" } else { &change.preview },
            additions: change.additions,
            deletions: change.deletions,
        }))
    }
}

/// Each file's patch length in bytes, `null` for a file without one.
struct PatchBytes<'a>(&'a [SnapshotFile]);

impl Serialize for PatchBytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for file in self.0 {
            seq.serialize_element(&file.patch.as_ref().map(String::len))?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests;

//! Reads a snapshot from the text `serde_json` wrote for it, without the `Value` tree of
//! `json::decode`: the listing's lean snapshot, which every save reads (issue #19: for a
//! 320-file pull request its decode was a fifth of the save's CPU).
//!
//! Text in any other form (see `json::compact`) is `None`, and the caller reads it with
//! `json::decode`, which gives the same snapshot or names what is wrong: the tests hold both
//! readers to the same answer on varied and damaged text.

use crate::json::compact::Compact;
use crate::tools::get_pull_request::{Snapshot, SnapshotChange, SnapshotFile};

/// The snapshot in `text`, or `None` when `json::decode` refuses it too.
pub fn read_snapshot(text: &str) -> Option<Snapshot> {
    compact(text).or_else(|| crate::json::decode::<Snapshot>(text).ok())
}

/// The snapshot in `text` when it is in the compact form; `None` for anything else, which
/// `json::decode` may still read.
fn compact(text: &str) -> Option<Snapshot> {
    let mut reader = Compact::new(text);
    let (mut files, mut truncated, mut changed_files) = (None, None, None);
    let (mut diagram_preference, mut conventions_problem) = (None, None);
    reader.object(&mut |reader, key| {
        match key {
            "files" => {
                let mut list = Vec::new();
                reader.array(&mut |reader| {
                    list.push(file(reader)?);
                    Some(())
                })?;
                files = Some(list);
            }
            "files_truncated_by_github" => truncated = Some(reader.bool()?),
            "changed_files" => changed_files = Some(reader.u64()?),
            "diagram_preference" => diagram_preference = Some(reader.string()?),
            "conventions_problem" => conventions_problem = reader.optional_string()?,
            _ => return None,
        }
        Some(())
    })?;
    reader.end()?;
    Some(Snapshot {
        files: files?,
        files_truncated_by_github: truncated?,
        changed_files: changed_files?,
        diagram_preference: diagram_preference?,
        conventions_problem,
    })
}

/// One file; the lists and the generated flag default when missing or `null`, as
/// `SnapshotFile::from_json` has them.
fn file(reader: &mut Compact<'_>) -> Option<SnapshotFile> {
    let (mut path, mut status, mut previous_path) = (None, None, None);
    let (mut additions, mut deletions, mut changes) = (None, None, Vec::new());
    let (mut patch, mut depends_on, mut test_of) = (None, Vec::new(), None);
    let (mut likely_generated, mut blob_sha) = (false, None);
    reader.object(&mut |reader, key| {
        match key {
            "path" => path = Some(reader.string()?),
            "status" => status = Some(reader.string()?),
            "previous_path" => previous_path = reader.optional_string()?,
            "additions" => additions = Some(reader.u64()?),
            "deletions" => deletions = Some(reader.u64()?),
            "changes" => {
                changes = Vec::new();
                if !reader.null() {
                    reader.array(&mut |reader| {
                        changes.push(change(reader)?);
                        Some(())
                    })?;
                }
            }
            "patch" => patch = reader.optional_string()?,
            "depends_on" => {
                depends_on = match reader.null() {
                    true => Vec::new(),
                    false => reader.strings()?,
                }
            }
            "test_of" => test_of = reader.optional_string()?,
            "likely_generated" => likely_generated = !reader.null() && reader.bool()?,
            "blob_sha" => blob_sha = reader.optional_string()?,
            _ => return None,
        }
        Some(())
    })?;
    Some(SnapshotFile {
        path: path?,
        status: status?,
        previous_path,
        additions: additions?,
        deletions: deletions?,
        changes,
        patch,
        depends_on,
        test_of,
        likely_generated,
        blob_sha,
    })
}

/// One change; every field is required.
fn change(reader: &mut Compact<'_>) -> Option<SnapshotChange> {
    let (mut id, mut header, mut preview) = (None, None, None);
    let (mut additions, mut deletions) = (None, None);
    reader.object(&mut |reader, key| {
        match key {
            "id" => id = Some(reader.string()?),
            "header" => header = Some(reader.string()?),
            "preview" => preview = Some(reader.string()?),
            "additions" => additions = Some(usize::try_from(reader.u64()?).ok()?),
            "deletions" => deletions = Some(usize::try_from(reader.u64()?).ok()?),
            _ => return None,
        }
        Some(())
    })?;
    Some(SnapshotChange {
        id: id?,
        header: header?,
        preview: preview?,
        additions: additions?,
        deletions: deletions?,
    })
}

#[cfg(test)]
mod tests;

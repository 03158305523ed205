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

/// The snapshot in `text` when it is in the compact form, keys in the order `Snapshot`'s
/// `Serialize` writes them; `None` for anything else, which `json::decode` may still read.
fn compact(text: &str) -> Option<Snapshot> {
    let mut r = Compact::new(text);
    r.expect("{\"files\":");
    let mut files = Vec::new();
    r.list(&mut |r| files.push(file(r)));
    let files_truncated_by_github = r.bool_at(",\"files_truncated_by_github\":");
    let changed_files = r.u64_at(",\"changed_files\":");
    let diagram_preference = r.string_at(",\"diagram_preference\":");
    let conventions_problem = r.optional_string(",\"conventions_problem\":");
    r.expect("}");
    r.finish()?;
    Some(Snapshot {
        files,
        files_truncated_by_github,
        changed_files,
        diagram_preference,
        conventions_problem,
    })
}

/// One file, its optional fields present only when set (`skip_serializing_if`).
fn file(r: &mut Compact<'_>) -> SnapshotFile {
    let path = r.string_at("{\"path\":");
    let status = r.string_at(",\"status\":");
    let previous_path = r.optional_string(",\"previous_path\":");
    let additions = r.u64_at(",\"additions\":");
    let deletions = r.u64_at(",\"deletions\":");
    r.expect(",\"changes\":");
    let mut changes = Vec::new();
    r.list(&mut |r| changes.push(change(r)));
    let patch = r.optional_string(",\"patch\":");
    r.expect(",\"depends_on\":");
    let depends_on = r.strings();
    let test_of = r.optional_string(",\"test_of\":");
    let likely_generated = r.bool_at(",\"likely_generated\":");
    let blob_sha = r.optional_string(",\"blob_sha\":");
    r.expect("}");
    SnapshotFile {
        path,
        status,
        previous_path,
        additions,
        deletions,
        changes,
        patch,
        depends_on,
        test_of,
        likely_generated,
        blob_sha,
    }
}

/// One change; its counts must fit `usize`, as `json::decode` has them.
fn change(r: &mut Compact<'_>) -> SnapshotChange {
    let id = r.string_at("{\"id\":");
    let header = r.string_at(",\"header\":");
    let preview = r.string_at(",\"preview\":");
    let additions = r.usize_at(",\"additions\":");
    let deletions = r.usize_at(",\"deletions\":");
    r.expect("}");
    SnapshotChange {
        id,
        header,
        preview,
        additions,
        deletions,
    }
}

#[cfg(test)]
mod tests;

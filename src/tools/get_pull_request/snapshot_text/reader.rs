//! Reads a snapshot from the text the writers beside it (`snapshot_text::write_json`) and,
//! before them, `serde_json` wrote for it, without the `Value` tree of `json::decode`: a
//! listing's first two lines (the snapshot's own fields, and the lean snapshot every save reads:
//! for a 320-file pull request its decode was a fifth of the save's CPU, issue #19), and the
//! cached snapshot's header, which every review page view that finds its snapshot in KV reads
//! (for 3,000 files the `Value` tree was half of the view's CPU).
//!
//! Text in any other form (see `json::compact`) is `None`, which the callers take for "not
//! cached": every snapshot text is one we wrote. The tests hold this reader to what
//! `json::decode` reads (the snapshot types' `FromJson`, compiled for the tests only) on varied
//! and damaged text, and to reading back everything the writers write.

use crate::json::compact::Compact;
use crate::tools::get_pull_request::{Snapshot, SnapshotChange, SnapshotFile};

/// The snapshot in `text`, or `None` when it is not in the compact form.
pub fn read_snapshot(text: &str) -> Option<Snapshot> {
    compact(text).map(|(snapshot, _)| snapshot)
}

/// The cached snapshot's header (`snapshot_text::Form::Cache`) when it is in the compact form:
/// the snapshot without patch text, and each file's patch length (`None`: no patch).
pub fn cached_header(text: &str) -> Option<(Snapshot, Vec<Option<usize>>)> {
    match compact(text)? {
        (snapshot, Some(lengths)) => Some((snapshot, lengths)),
        _ => None,
    }
}

/// The snapshot in `text` when it is in the compact form, keys in the order `Snapshot`'s
/// `Serialize` wrote them, and the cached header's `patch_bytes` when they follow; `None` for
/// anything else.
fn compact(text: &str) -> Option<(Snapshot, Option<Vec<Option<usize>>>)> {
    let mut r = Compact::new(text);
    r.expect("{\"files\":");
    let mut files = Vec::new();
    r.list(&mut |r| files.push(file(r)));
    let files_truncated_by_github = r.bool_at(",\"files_truncated_by_github\":");
    let changed_files = r.u64_at(",\"changed_files\":");
    let diagram_preference = r.string_at(",\"diagram_preference\":");
    let conventions_problem = r.optional_string(",\"conventions_problem\":");
    let patch_bytes = r.word(",\"patch_bytes\":").then(|| {
        let mut lengths = Vec::new();
        r.list(&mut |r| lengths.push((!r.word("null")).then(|| r.usize())));
        lengths
    });
    r.expect("}");
    r.finish()?;
    let snapshot = Snapshot {
        files,
        files_truncated_by_github,
        changed_files,
        diagram_preference,
        conventions_problem,
    };
    Some((snapshot, patch_bytes))
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

//! The file snapshot of a pull request: its changed files at one base and head commit, each with
//! its changes (hunks), patch and hints, as `get_pull_request` builds it and KV caches it.
//!
//! Why here, not in `tools`: the snapshot is the review's own model. The review page (`web`),
//! the feedback rules and the tools all read it; it is built by `tools::get_pull_request`, but
//! what it holds is no tool's business (issue #37).
//! What not: building it (`tools::get_pull_request::build_snapshot`), its KV text
//! (`tools::get_pull_request::snapshot_text`), or any GitHub request.

use serde::Deserialize;

use crate::review::feedback::{FileAtHead, ThreadInput};

/// One change (diff hunk) of a file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SnapshotChange {
    pub id: String,
    pub header: String,
    pub preview: String,
    pub additions: usize,
    pub deletions: usize,
}

/// A change as the snapshot keeps it: its description from `review::change_id`.
impl From<crate::review::change_id::Change> for SnapshotChange {
    fn from(change: crate::review::change_id::Change) -> SnapshotChange {
        SnapshotChange {
            id: change.id,
            header: change.header,
            preview: change.preview,
            additions: change.additions,
            deletions: change.deletions,
        }
    }
}

/// One changed file with everything derived from its patch.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SnapshotFile {
    pub path: String,
    pub status: String,
    pub previous_path: Option<String>,
    pub additions: u64,
    pub deletions: u64,
    /// Every hunk, in diff order (the result shows them only for files with two or more).
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub changes: Vec<SnapshotChange>,
    pub patch: Option<String>,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub depends_on: Vec<String>,
    pub test_of: Option<String>,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub likely_generated: bool,
    /// The file's blob at the head (GitHub's `sha`): the content identity of a file without
    /// hunks (binary, too large), whose review state can't be keyed by change ids.
    pub blob_sha: Option<String>,
}

impl SnapshotFile {
    /// GitHub gave a patch we could read: the file can be split by change.
    pub fn has_diff(&self) -> bool {
        self.patch.is_some() && !self.changes.is_empty()
    }
}

/// The computed file list of a pull request at one base and head commit.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Snapshot {
    pub files: Vec<SnapshotFile>,
    pub files_truncated_by_github: bool,
    pub changed_files: u64,
    pub diagram_preference: String,
    pub conventions_problem: Option<String>,
    /// The conventions file says `status: off` (issue #47): no commit status is set. Written
    /// only when true, so the cached texts of every other pull request keep their form, and a
    /// text from before it reads as on, the default.
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub commit_status_off: bool,
}

/// A snapshot file as the feedback rules take it.
pub fn file_at_head(file: &SnapshotFile) -> FileAtHead<'_> {
    FileAtHead {
        path: &file.path,
        previous_path: file.previous_path.as_deref(),
        patch: file.patch.as_deref(),
        change_ids: file.changes.iter().map(|c| c.id.as_str()).collect(),
    }
}

/// The snapshot files some thread names (by path, or by previous path when the file was renamed
/// after the comment), in snapshot order: all the rules need to place `threads`, without
/// building the rest on a large pull request.
pub fn files_named_by<'a>(
    files: &'a [SnapshotFile],
    threads: &[ThreadInput],
) -> Vec<FileAtHead<'a>> {
    files
        .iter()
        .filter(|file| {
            threads.iter().any(|t| {
                t.path == file.path || file.previous_path.as_deref() == Some(t.path.as_str())
            })
        })
        .map(file_at_head)
        .collect()
}

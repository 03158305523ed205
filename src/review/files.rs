//! The status GitHub gives each changed file of a pull request.
//!
//! Why: reading hints treat removed files differently (nothing can import a file the pull request
//! deletes), so the core needs the status as a value, not a string compared in many places.
//! What not: no file contents, no counts; the GitHub adapter parses responses and the tools layer
//! shapes JSON.

/// A file's `status` in GitHub's `GET /repos/{owner}/{repo}/pulls/{number}/files` response
/// (see the `get_pull_request` section of the MCP reference).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileStatus {
    Added,
    Removed,
    Modified,
    Renamed,
    Copied,
    Changed,
    Unchanged,
}

impl FileStatus {
    /// Parses GitHub's spelling; `None` for anything else.
    pub fn from_github(status: &str) -> Option<FileStatus> {
        Some(match status {
            "added" => FileStatus::Added,
            "removed" => FileStatus::Removed,
            "modified" => FileStatus::Modified,
            "renamed" => FileStatus::Renamed,
            "copied" => FileStatus::Copied,
            "changed" => FileStatus::Changed,
            "unchanged" => FileStatus::Unchanged,
            _ => return None,
        })
    }

    /// GitHub's spelling, as the `status` field of `get_pull_request` shows it.
    pub fn as_str(self) -> &'static str {
        match self {
            FileStatus::Added => "added",
            FileStatus::Removed => "removed",
            FileStatus::Modified => "modified",
            FileStatus::Renamed => "renamed",
            FileStatus::Copied => "copied",
            FileStatus::Changed => "changed",
            FileStatus::Unchanged => "unchanged",
        }
    }

    /// Whether the file exists at the pull request's head, so other files can import it.
    pub fn exists_at_head(self) -> bool {
        self != FileStatus::Removed
    }
}

#[cfg(test)]
mod tests {
    use super::FileStatus;

    fn check(input: &str, expected: Option<FileStatus>) {
        let got = FileStatus::from_github(input);
        assert_eq!(got, expected, "{input}");
        if let Some(status) = got {
            assert_eq!(status.as_str(), input);
        }
    }

    #[test]
    fn github_spellings() {
        check("added", Some(FileStatus::Added));
        check("removed", Some(FileStatus::Removed));
        check("modified", Some(FileStatus::Modified));
        check("renamed", Some(FileStatus::Renamed));
        check("copied", Some(FileStatus::Copied));
        check("changed", Some(FileStatus::Changed));
        check("unchanged", Some(FileStatus::Unchanged));
        check("Added", None);
        check("", None);
    }
}

//! `get_pull_request`: arguments, the computed file list (the "snapshot"), and the result's shape.
//!
//! The snapshot is everything derived from GitHub's file list at one base and head commit: files in
//! GitHub's order, change ids, hints, patches and the repository's conventions. It is immutable for
//! that pair of commits, so the adapter caches it in KV and a repeat read costs two GitHub requests
//! (repository and pull request) instead of ceil(files/100) + 4.

use serde_json::{json, Map, Value};

use super::conventions::{self, DiagramPreference};
use super::pull_target::{self, PullTarget};
use crate::github::api::{PullFile, PullRequest, Repository, MAX_LISTED_FILES};
use crate::review::change_id::describe_changes;
use crate::review::files::FileStatus;
use crate::review::hints::project::Project;
use crate::review::hints::{compute_hints_in, HintInput};
use crate::review::patch::{parse_patch, Hunk};

/// Per-file patch cap when `include_patches` is on.
pub const MAX_PATCH_CHARS: usize = 20_000;
/// Cap on the whole result when `include_patches` is on.
pub const MAX_RESULT_CHARS: usize = 400_000;

/// The tool's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    pub owner: String,
    pub repo: String,
    pub number: u64,
    pub include_patches: bool,
}

impl Args {
    /// `owner/repo#number`, as messages name the pull request.
    pub fn label(&self) -> String {
        pull_target::label(&self.owner, &self.repo, self.number)
    }
}

pub fn parse_args(args: &Map<String, Value>) -> Result<Args, String> {
    let (target, include_patches) = PullTarget::with_flag(args, "include_patches")?;
    Ok(Args {
        owner: target.owner,
        repo: target.repo,
        number: target.number,
        include_patches,
    })
}

// The domain types this module shapes (issue #37: they live in `review::model`).
use crate::review::model::snapshot::{Snapshot, SnapshotChange, SnapshotFile};

/// The KV key of a snapshot: immutable for the repository and the two commits. The version
/// names the text's layout (`snapshot_text`; v2: patches after a JSON header, not inside it),
/// and listings' keys carry it too (`listing::listing_key`).
pub fn snapshot_key(owner: &str, repo: &str, base_sha: &str, head_sha: &str) -> String {
    format!(
        "snapshot:v2:{}/{}:{base_sha}:{head_sha}",
        owner.to_ascii_lowercase(),
        repo.to_ascii_lowercase()
    )
}

/// Builds the snapshot from GitHub's file pages, `.gitattributes` at head and the conventions
/// file at base (either may be absent).
pub fn build_snapshot(
    files: Vec<PullFile>,
    changed_files: u64,
    gitattributes: Option<&str>,
    conventions_text: Option<&str>,
) -> Snapshot {
    build_snapshot_in(
        files,
        changed_files,
        gitattributes,
        conventions_text,
        &Project::default(),
    )
}

/// [`build_snapshot`] with the project's build files read at head (`Project::parse`).
pub fn build_snapshot_in(
    files: Vec<PullFile>,
    changed_files: u64,
    gitattributes: Option<&str>,
    conventions_text: Option<&str>,
    project: &Project,
) -> Snapshot {
    let parsed: Vec<Option<Vec<Hunk<'_>>>> = files
        .iter()
        .map(|file| {
            file.patch
                .as_deref()
                .and_then(|patch| parse_patch(patch).ok())
        })
        .collect();
    let inputs: Vec<HintInput<'_>> = files
        .iter()
        .zip(&parsed)
        .map(|(file, hunks)| HintInput {
            path: &file.filename,
            status: FileStatus::from_github(&file.status).unwrap_or(FileStatus::Modified),
            previous_path: file.previous_filename.as_deref(),
            hunks: hunks.as_deref(),
        })
        .collect();
    let hints = compute_hints_in(&inputs, gitattributes, project);
    let conventions = conventions_text.map(conventions::parse).unwrap_or_default();
    let listed = files.len() as u64;
    let snapshot_files = files
        .iter()
        .zip(&parsed)
        .zip(hints)
        .map(|((file, hunks), hints)| {
            let changes = hunks
                .as_deref()
                .map(describe_changes)
                .unwrap_or_default()
                .into_iter()
                .map(SnapshotChange::from)
                .collect();
            SnapshotFile {
                path: file.filename.clone(),
                status: file.status.clone(),
                previous_path: file.previous_filename.clone(),
                additions: file.additions,
                deletions: file.deletions,
                changes,
                patch: file.patch.clone(),
                depends_on: hints.depends_on,
                test_of: hints.test_of,
                likely_generated: hints.likely_generated,
                blob_sha: file.sha.clone(),
            }
        })
        .collect();
    Snapshot {
        files: snapshot_files,
        files_truncated_by_github: changed_files > listed && listed >= u64::from(MAX_LISTED_FILES),
        changed_files: changed_files.max(listed),
        diagram_preference: conventions.diagrams.as_str().to_string(),
        conventions_problem: conventions.problem,
        commit_status_off: !conventions.commit_status,
    }
}

/// What is saved for the pull request, as the store reports it (`null`/0 when nothing is).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SavedState {
    pub current_order: Option<Value>,
    pub base_version: u64,
    pub current_diagram: Option<Value>,
    pub diagram_base_version: u64,
}

/// Everything the result is built from.
pub struct ResultInputs<'a> {
    pub args: &'a Args,
    pub base_url: &'a str,
    pub repository: &'a Repository,
    pub pull: &'a PullRequest,
    pub snapshot: &'a Snapshot,
    pub saved: SavedState,
    /// Whether this connection was granted saving (a read-only connection can't arrange,
    /// whatever GitHub allows the account).
    pub may_write: bool,
}

/// The review link of a pull request.
pub fn review_url(base_url: &str, owner: &str, repo: &str, number: u64) -> String {
    format!("{base_url}/r/{owner}/{repo}/pull/{number}")
}

/// The result without its `files` (the same for both ways of writing it).
fn result_head(inputs: &ResultInputs<'_>) -> Value {
    let ResultInputs {
        args,
        base_url,
        repository,
        pull,
        snapshot,
        saved,
        may_write,
    } = inputs;
    let state = if pull.merged {
        "merged"
    } else {
        pull.state.as_str()
    };
    let mut head = json!({
        "reviewUrl": review_url(base_url, &args.owner, &args.repo, args.number),
        "repository": repository.full_name,
        "pullRequest": {
            "number": pull.number,
            "title": pull.title,
            "state": state,
            "author": pull.user.as_ref().map(|u| u.login.as_str()).unwrap_or("ghost"),
            "base": pull.base.name,
            "head": pull.head.name,
            "headSha": pull.head.sha,
            "url": pull.html_url,
        },
        "canArrange": *may_write && repository.can_arrange(),
        "filesTruncatedByGitHub": snapshot.files_truncated_by_github,
        "changedFiles": snapshot.changed_files,
        "currentOrder": saved.current_order,
        "baseVersion": saved.base_version,
        "currentDiagram": saved.current_diagram,
        "diagramBaseVersion": saved.diagram_base_version,
        "diagramPreference": DiagramPreference::parse(&snapshot.diagram_preference)
            .unwrap_or(DiagramPreference::Ask)
            .as_str(),
    });
    if let Some(problem) = &snapshot.conventions_problem {
        head["conventionsProblem"] = json!(problem);
    }
    let feedback = crate::review::feedback::next_step::for_pull_request(pull.review_comments);
    let pushed = saved
        .current_order
        .as_ref()
        .is_some_and(|order| order["savedBeforeLatestCommits"] == true)
        .then_some(crate::github::statuses::AFTER_PUSH);
    let next: Vec<&str> = feedback.as_deref().into_iter().chain(pushed).collect();
    if !next.is_empty() {
        head["nextStep"] = json!(next.join(" "));
    }
    head
}

/// `,"files":` and the brackets of an empty list: what `files` adds to the head besides its items.
const FILES_FIELD_CHARS: usize = r#","files":[]"#.len();

/// Characters left for the file list once the head and the top-level flags are counted.
fn file_list_budget(head: &Value, include_patches: bool, file_count: usize) -> usize {
    // Room for the top-level flags, and for every file's patch field or flag when asked for.
    let reserved = 2 * PER_FILE_OVERHEAD
        + if include_patches {
            (file_count + 1) * PER_FILE_OVERHEAD
        } else {
            0
        };
    MAX_RESULT_CHARS.saturating_sub(json_len(head) + FILES_FIELD_CHARS + reserved)
}

/// The result from a cached [`listing`]: its text, and that text's JSON string literal built
/// from the listing's quoted copy of the files (the reply carries both): the head is built and
/// written, the list spliced in as it is. `None` when this way doesn't apply (patches asked for,
/// or a list over the room left now): then the snapshot is read and [`shape_result`] shapes it.
/// Why: on a repeat read of a large pull request, building, measuring and writing the file list
/// as values was most of the CPU (issue #19).
pub fn shape_from_listing(
    inputs: ResultInputs<'_>,
    listing: &listing::Listing<'_>,
) -> Option<(String, String)> {
    let open = listed_open(inputs, listing.files.len(), listing.trimmed)?;
    let quoted = crate::json::string_joined(&open, listing.quoted_files, "}");
    let mut text = open;
    text.push_str(listing.files);
    text.push('}');
    Some((text, quoted))
}

/// What a result with a written file list has before it (`{…,"files":`), for a list of
/// `files_len` bytes; the result is this, the list and `}`.
fn listed_open(inputs: ResultInputs<'_>, files_len: usize, trimmed: bool) -> Option<String> {
    if inputs.args.include_patches {
        return None;
    }
    let mut head = result_head(&inputs);
    if files_len > file_list_budget(&head, false, 0) {
        return None;
    }
    Some(listed_open_text(&mut head, trimmed))
}

/// `{…,"files":`: the head, flagged `fileListTrimmed` when `trimmed`, open for the list.
fn listed_open_text(head: &mut Value, trimmed: bool) -> String {
    if trimmed {
        head["fileListTrimmed"] = json!(true);
    }
    let mut open = head.to_string();
    open.pop();
    open.push_str(r#","files":"#);
    open
}

/// A result written as JSON text, with where its file list lies in it.
pub struct Shaped {
    /// The result (`structuredContent`, and the text block once quoted).
    pub text: String,
    /// Where in `text` the file list to cache as the snapshot's listing is, and whether it was
    /// cut to the cap: the whole list, or one cut. `None` with patches (a listing holds none)
    /// and for a list over the cap that nothing could be cut from (never spliced in).
    listed: Option<(std::ops::Range<usize>, bool)>,
}

impl Shaped {
    /// The file list to cache as the snapshot's listing, and whether it was cut to the cap.
    pub fn listed(&self) -> Option<(&str, bool)> {
        let (range, trimmed) = self.listed.clone()?;
        Some((self.text.get(range)?, trimmed))
    }

    /// The result's JSON string literal, given its file list's (from [`Shaped::listed`])
    /// already quoted (`json::string_inside`): only the text around the list is quoted here.
    pub fn quoted(&self, quoted_list: &str) -> Option<String> {
        let (range, _) = self.listed.clone()?;
        let (before, after) = (self.text.get(..range.start)?, self.text.get(range.end..)?);
        Some(crate::json::string_joined(before, quoted_list, after))
    }
}

/// Shapes the tool's result, applying the caps: the file list is written once from the typed
/// snapshot and spliced in after the head when it fits (as [`shape_from_listing`] does); otherwise it
/// is cut to the cap (`file_list::cut_to`), given its patches when asked for, and written into
/// the head at its place in alphabetical order, which is how the result written as one value
/// always read.
pub fn shape_result(inputs: ResultInputs<'_>) -> Shaped {
    let (include_patches, files) = (inputs.args.include_patches, &inputs.snapshot.files);
    let mut head = result_head(&inputs);
    let budget = file_list_budget(&head, include_patches, files.len());
    let whole = file_list::write_whole(files);
    if !include_patches && whole.len() <= budget {
        let mut text = listed_open_text(&mut head, false);
        let start = text.len();
        text.push_str(&whole);
        text.push('}');
        return Shaped {
            text,
            listed: Some((start..start + whole.len(), false)),
        };
    }
    let cuts = file_list::cut_to(files, whole.len(), budget);
    if cuts.trimmed {
        head["fileListTrimmed"] = json!(true);
    }
    let mut patches = Vec::new();
    if include_patches {
        let budget =
            MAX_RESULT_CHARS.saturating_sub(json_len(&head) + FILES_FIELD_CHARS + cuts.len);
        let (fitted, truncated) = file_list::fit_patches(files, budget);
        if truncated {
            head["patchesTruncated"] = json!(true);
        }
        patches = fitted;
    }
    let list = if cuts.trimmed || include_patches {
        file_list::write(files, &cuts, &patches)
    } else {
        whole
    };
    // The list goes where a `files` key sorts among the head's: a `null` stands in for it. The
    // last one is the top-level key: the keys after it (`filesTruncatedByGitHub`,
    // `pullRequest`, `repository`, `reviewUrl`) hold no object that could have its own.
    head["files"] = Value::Null;
    let head = head.to_string();
    let key = r#""files":"#;
    let start = head
        .rfind(r#""files":null"#)
        .map_or(head.len(), |at| at + key.len());
    let mut text = String::with_capacity(head.len() + list.len());
    text.push_str(&head[..start]);
    text.push_str(&list);
    text.push_str(head.get(start + "null".len()..).unwrap_or_default());
    let listed = (cuts.trimmed && !include_patches).then_some((start..start + list.len(), true));
    Shaped { text, listed }
}

/// The result's `files` as JSON text, untrimmed and without patches: what a result that fits
/// holds and the cached [`listing`] keeps.
pub fn files_text(snapshot: &Snapshot) -> String {
    file_list::write_whole(&snapshot.files)
}

fn json_len(value: &Value) -> usize {
    value.to_string().len()
}

/// Room each file needs besides its patch text: `,"patch":` and `,"patchTruncated":true`.
const PER_FILE_OVERHEAD: usize = 32;

/// The first `max_chars` characters of a patch, cut at the last whole line that fits when there
/// is one. Returns whether anything was cut.
fn cut_patch(patch: &str, max_chars: usize) -> (&str, bool) {
    let Some((byte_end, _)) = patch.char_indices().nth(max_chars) else {
        return (patch, false);
    };
    let head = &patch[..byte_end];
    match head.rfind('\n') {
        Some(newline) if newline > 0 => (&head[..newline], true),
        _ => (head, true),
    }
}

mod file_list;
pub mod listing;
pub mod snapshot_text;

#[cfg(test)]
mod tests;

/// `currentOrder`/`currentDiagram` and their versions from what the store holds. `suggestions`
/// re-checks the saved order against the pull request as it is now.
pub fn saved_state(
    current: &crate::review::model::saved::CurrentState,
    head_sha: &str,
    suggestions: &dyn Fn(&Value) -> Vec<String>,
) -> SavedState {
    use crate::review::model::saved::updated_by;
    let current_order = current.order.as_ref().map(|record| {
        let mut order = json!({
            "version": record.version,
            "updatedBy": updated_by(record),
            "updatedAt": record.saved_at,
            "source": record.source,
            "savedBeforeLatestCommits": record.head_sha != head_sha,
            "sections": record.body.get("sections").cloned().unwrap_or_else(|| json!([])),
            "suggestions": suggestions(&record.body),
        });
        if let Some(overview) = record.body.get("overview").filter(|o| o.is_string()) {
            order["overview"] = overview.clone();
        }
        order
    });
    let current_diagram = current.diagram.as_ref().map(|record| {
        json!({
            "version": record.version,
            "updatedBy": updated_by(record),
            "updatedAt": record.saved_at,
            "savedBeforeLatestCommits": record.head_sha != head_sha,
            "diagram": record.body,
        })
    });
    SavedState {
        base_version: current.order.as_ref().map_or(0, |r| r.version),
        diagram_base_version: current.diagram.as_ref().map_or(0, |r| r.version),
        current_order,
        current_diagram,
    }
}

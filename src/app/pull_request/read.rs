//! Reading a pull request from GitHub, and `get_pull_request` as its pull request's object runs
//! it (`tools::relay`), over the ports (GitHub, the cache, a pause): repository and pull request
//! first, then the snapshot of its files from the cache, or from GitHub's file pages, the
//! conventions file and, once the file list is known, one GraphQL request for `.gitattributes` and the build files hints
//! resolve imports with, when this base and head were not read before.
//!
//! GitHub requests per read: ceil(files/100) + 4 the first time (repository, pull request, file
//! pages, conventions, the GraphQL read), 2 when the snapshot is cached.

use std::cell::RefCell;
use std::rc::Rc;

use futures_util::future::{join, join_all};

use crate::errors;
use crate::github::api::{
    file_pages, path, Contents, GitHubError, PullFile, PullRequest, RepoPath, Repository,
    FILES_PER_PAGE, MAX_LISTED_FILES,
};
use crate::github::client::GitHub;
use crate::github::graphql::{self, Blobs};
use crate::mcp::dispatch::ToolResult;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::review::hints::{self, project::Project};
use crate::review::model::saved::CurrentState;
use crate::review::model::snapshot::Snapshot;
use crate::router::PullPath;
use crate::tools::conventions;
use crate::tools::get_pull_request as gpr;
use crate::tools::get_pull_request::listing;
use crate::tools::get_pull_request::listing::{listing_key, Listing};
use crate::tools::get_pull_request::{build_snapshot_in, snapshot_key, snapshot_text};
use crate::tools::relay::RelayedCall;

/// How long a snapshot is kept: it never changes, this only bounds storage.
const SNAPSHOT_TTL_SECONDS: u64 = 30 * 24 * 60 * 60;

/// A pull request as GitHub shows it to the caller, with its file snapshot.
pub struct PullRead {
    pub repository: Repository,
    pub pull: PullRequest,
    pub snapshot: Snapshot,
}

/// Reads the repository and pull request (two requests in parallel).
pub async fn read_pull<T: GitHubTransport>(
    github: &GitHub<'_, T>,
    owner: &str,
    repo: &str,
    number: u64,
) -> Result<(Repository, PullRequest), GitHubError> {
    // Names were checked where they came in; one that slipped through is a repository that
    // cannot exist, never a request outside `/repos/{owner}/{repo}/`.
    let repo_path = RepoPath::new(owner, repo).ok_or(GitHubError::NotFound)?;
    let repository_path = path::repository(&repo_path);
    let pull_path = path::pull_request(&repo_path, number);
    let (repository, pull) = join(
        github.get::<Repository>(&repository_path),
        github.get::<PullRequest>(&pull_path),
    )
    .await;
    Ok((repository?, pull?))
}

/// What a reader needs of the files.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Files {
    /// Every file with its patch (pages, diffs).
    Whole,
    /// What validation and suggestions need (the saves): the cached listing's lean snapshot
    /// when there is one, whose patches are empty strings and changes have no header or
    /// preview; else the whole snapshot. Decoding the lean copy of a 320-file pull request
    /// costs a fraction of the whole one (issue #19).
    ForChecks,
}

/// The viewer's own GitHub read of the pull request with every file, as the pull request's
/// object runs it for the reviewer routes (`calls`); or the message saying why
/// GitHub would not show it ([`read_in_object`]).
pub async fn read_as_viewer_in_object<T: GitHubTransport, P: Surroundings>(
    env: &P,
    memo: &ReadMemo,
    github: &GitHub<'_, T>,
    target: &PullPath,
) -> Result<PullRead, String> {
    let (owner, repo) = (target.owner.as_str(), target.repo.as_str());
    read_in_object(
        env,
        memo,
        github,
        (owner, repo, target.number),
        Files::Whole,
    )
    .await
    .map_err(|error| {
        let label = format!("{owner}/{repo}#{}", target.number);
        errors::github_failure(&error, &label)
    })
}

/// The caller's own GitHub read of the pull request (repository and pull request first) and its
/// snapshot, as the pull request's object runs it for a relayed tool or a reviewer route. A
/// first read at a new head builds the snapshot, and a read of the head another read here is
/// building waits for that build, then reads what it cached (`ReadMemo`), so concurrent first
/// reads read GitHub's file pages once.
pub async fn read_in_object<T: GitHubTransport, P: Surroundings>(
    env: &P,
    memo: &ReadMemo,
    github: &GitHub<'_, T>,
    (owner, repo, number): (&str, &str, u64),
    files: Files,
) -> Result<PullRead, GitHubError> {
    let (repository, pull) = read_pull(github, owner, repo, number).await?;
    let building_key = listing_key_of(owner, repo, &pull);
    if files == Files::ForChecks {
        memo.wait_for_build(env, &building_key).await;
        let listing = match memo.listing(&building_key) {
            Some(text) => Some(text),
            None => {
                let read = cached_listing(env, owner, repo, &pull).await;
                let read = read.map(Rc::<str>::from);
                if let Some(text) = &read {
                    *memo.listing.borrow_mut() = Some((building_key.clone(), text.clone()));
                }
                read
            }
        };
        if let Some(snapshot) = listing.and_then(|text| Listing::read(&text)?.lean_snapshot()) {
            return Ok(PullRead {
                repository,
                pull,
                snapshot,
            });
        }
    }
    let key = snapshot_key(owner, repo, &pull.base.sha, &pull.head.sha);
    let mut snapshot = None;
    // Twice at most: a build that started while this read read the cache is waited for once.
    for _ in 0..2 {
        memo.wait_for_build(env, &building_key).await;
        snapshot = cached_snapshot(env, &key).await;
        if snapshot.is_some() || memo.building.borrow().as_deref() != Some(&building_key) {
            break;
        }
    }
    let snapshot = match snapshot {
        Some(snapshot) => snapshot,
        None => {
            let _building = Building::start(memo, &building_key);
            build_snapshot(env, github, (owner, repo), &pull, &key)
                .await?
                .0
        }
    };
    Ok(PullRead {
        repository,
        pull,
        snapshot,
    })
}

/// The pull request's snapshot from KV, or built from GitHub and cached; and whether it is in
/// the cache (so what is derived from it may be cached too).
pub async fn read_snapshot<T: GitHubTransport, P: Surroundings>(
    env: &P,
    github: &GitHub<'_, T>,
    owner: &str,
    repo: &str,
    pull: &PullRequest,
) -> Result<(Snapshot, bool), GitHubError> {
    let key = snapshot_key(owner, repo, &pull.base.sha, &pull.head.sha);
    if let Some(snapshot) = cached_snapshot(env, &key).await {
        return Ok((snapshot, true));
    }
    build_snapshot(env, github, (owner, repo), pull, &key).await
}

/// The snapshot cached under `key`, when there is one that reads.
async fn cached_snapshot<P: Surroundings>(env: &P, key: &str) -> Option<Snapshot> {
    let text = env.get_text(key).await?;
    let snapshot = snapshot_text::read_cached(&text)?;
    crate::log::note(|record| record.cache = Some("hit"));
    Some(snapshot)
}

/// Builds the snapshot from GitHub and caches it under `key` when complete.
async fn build_snapshot<T: GitHubTransport, P: Surroundings>(
    env: &P,
    github: &GitHub<'_, T>,
    (owner, repo): (&str, &str),
    pull: &PullRequest,
    key: &str,
) -> Result<(Snapshot, bool), GitHubError> {
    crate::log::note(|record| record.cache = Some("miss"));
    let (snapshot, complete) = fetch_snapshot(env, github, owner, repo, pull).await?;
    // A snapshot built while `.gitattributes` or the conventions file could not be read is
    // served once but not cached: cached, it would hide their hints until the next push.
    if complete {
        put_cached(env, key, &snapshot_text::write_cached(&snapshot)).await;
    }
    Ok((snapshot, complete))
}

/// The cached listing of the pull request at this base and head (`get_pull_request::listing`),
/// when there is one.
pub async fn cached_listing<P: Surroundings>(
    env: &P,
    owner: &str,
    repo: &str,
    pull: &PullRequest,
) -> Option<String> {
    let key = listing_key_of(owner, repo, pull);
    let text = env.get_text(&key).await?;
    crate::log::note(|record| record.cache = Some("hit"));
    Some(text)
}

/// The KV key of the pull request's listing at its base and head.
fn listing_key_of(owner: &str, repo: &str, pull: &PullRequest) -> String {
    listing_key(&snapshot_key(owner, repo, &pull.base.sha, &pull.head.sha))
}

/// Writes a derived text to the cache for [`SNAPSHOT_TTL_SECONDS`]. A failed write only costs
/// the next read some work, so it is logged, not returned.
async fn put_cached<P: Surroundings>(env: &P, key: &str, text: &str) {
    match env.put_text(key, text, SNAPSHOT_TTL_SECONDS).await {
        Ok(true) => {}
        Ok(false) => env.warn(&format!("{key}: too large to cache")),
        Err(error) => env.warn(&format!("{key}: caching failed: {error}")),
    }
}

/// The snapshot, and whether it may be cached: both optional files were read (present or
/// absent) rather than lost to a passing GitHub failure, and the files add up to the pull
/// request (no push landed between the reads).
async fn fetch_snapshot<T: GitHubTransport, P: Surroundings>(
    env: &P,
    github: &GitHub<'_, T>,
    owner: &str,
    repo: &str,
    pull: &PullRequest,
) -> Result<(Snapshot, bool), GitHubError> {
    let repo_path = RepoPath::new(owner, repo).ok_or(GitHubError::NotFound)?;
    let pages = file_pages(pull.changed_files);
    let page_paths: Vec<String> = (1..=pages)
        .map(|page| path::pull_files(&repo_path, pull.number, page))
        .collect();
    let conventions_path = path::contents(&repo_path, conventions::PATH, &pull.base.sha)
        .ok_or(GitHubError::NotFound)?;
    let page_requests = join_all(page_paths.iter().map(|p| github.get::<Vec<PullFile>>(p)));
    let (page_results, conventions_file) = join(
        page_requests,
        github.get_optional::<Contents>(&conventions_path),
    )
    .await;
    let mut files = Vec::new();
    let mut last_page_full = false;
    for result in page_results {
        let page = result?;
        last_page_full = page.len() as u32 >= FILES_PER_PAGE;
        files.extend(page);
    }
    // The pull request's file count can lag a push: keep reading while pages come back full.
    let mut page = pages;
    while last_page_full && page * FILES_PER_PAGE < MAX_LISTED_FILES {
        page += 1;
        let more = github
            .get::<Vec<PullFile>>(&path::pull_files(&repo_path, pull.number, page))
            .await?;
        last_page_full = more.len() as u32 >= FILES_PER_PAGE;
        files.extend(more);
    }
    // Optional files that GitHub failed to send are treated as absent, never as a failure.
    // Only a failure that may pass (5xx, timeout, network, rate limit, a cut-off answer) keeps
    // the snapshot out of the cache; a lasting refusal (an app without Contents access) would
    // otherwise make every read at this head start over.
    let lost = |read: &Result<Option<Contents>, GitHubError>| {
        matches!(read, Err(error) if error.is_transient()
            || matches!(error, GitHubError::RateLimited { .. } | GitHubError::Malformed(_)))
    };
    let consistent = crate::github::api::files_match_pull(pull, &files);
    if !consistent {
        // Logged, so a systematic mismatch (rather than a push mid-read) would show in the logs.
        env.error(&format!(
            "{owner}/{repo}#{}: the file pages do not add up to the pull request; not caching",
            pull.number
        ));
    }
    let (attributes_text, project, head_read) =
        read_at_head(env, github, owner, repo, pull, &files).await;
    let complete = head_read && !lost(&conventions_file) && consistent;
    let conventions_text = conventions_file.ok().flatten().and_then(|c| c.text());
    let snapshot = build_snapshot_in(
        files,
        pull.changed_files,
        attributes_text.as_deref(),
        conventions_text.as_deref(),
        &project,
    );
    Ok((snapshot, complete))
}

/// `.gitattributes`, the build files and the changed files' texts hints need, read at the head in
/// one GraphQL request;
/// and whether that read was not lost to a passing failure. A failed read or an unparsable file
/// never fails the pull request: hints fall back to what the paths say, and the log says why.
async fn read_at_head<T: GitHubTransport, P: Surroundings>(
    env: &P,
    github: &GitHub<'_, T>,
    owner: &str,
    repo: &str,
    pull: &PullRequest,
    files: &[PullFile],
) -> (Option<String>, Project, bool) {
    let mut wanted = vec![".gitattributes".to_string()];
    wanted.extend(files_wanted_at_head(files));
    let body = graphql::blobs_request(owner, repo, &pull.head.sha, &wanted);
    let read = github.post(graphql::PATH, &body).await;
    let blobs = match read.and_then(|text| Blobs::parse(&text)) {
        Ok(blobs) => blobs,
        Err(error) => {
            let passing = error.is_transient()
                || matches!(
                    error,
                    GitHubError::RateLimited { .. } | GitHubError::Malformed(_)
                );
            log_problems(env, owner, repo, pull.number, &[error.to_string()]);
            return (None, Project::default(), !passing);
        }
    };
    let mut texts = blobs.texts.into_iter();
    let attributes = texts.next().flatten();
    let mut found = Vec::new();
    for (path, text) in wanted.into_iter().skip(1).zip(texts) {
        if let Some(text) = text {
            found.push((path, text));
        }
    }
    let project = Project::parse(&found);
    log_problems(env, owner, repo, pull.number, &project.problems);
    (attributes, project, true)
}

/// The build files and changed files' texts the hints want read at the head (the choice is
/// `hints::wanted_at_head`'s; this only hands it the file list).
fn files_wanted_at_head(files: &[PullFile]) -> Vec<String> {
    let listed: Vec<hints::Listed<'_>> = files
        .iter()
        .map(|file| {
            (
                file.filename.as_str(),
                file.status.as_str(),
                file.patch.as_deref(),
            )
        })
        .collect();
    hints::wanted_at_head(&listed)
}

/// One log line for everything the build files said was wrong.
fn log_problems<P: Surroundings>(
    env: &P,
    owner: &str,
    repo: &str,
    number: u64,
    problems: &[String],
) {
    let mut line = String::new();
    for problem in problems {
        line.push(' ');
        line.push_str(problem);
    }
    if !line.is_empty() {
        env.warn(&format!(
            "{owner}/{repo}#{number}: build files not read, hints resolve without them:{line}"
        ));
    }
}

/// What a pull request's object remembers between the reads it runs, in memory only (lost when
/// the object is evicted, which costs the next read one KV read).
///
/// Why: many agents reading a new head at once used to each miss the cache, each spend
/// `ceil(files/100) + 4` of their person's GitHub requests, and all but one KV write of the same
/// key failed (docs/capacity.md, "100×"). Now that the object runs every read, a read of the head
/// another read is building waits for that build, then answers from its listing; and a repeat
/// read answers from the remembered listing without a KV read.
#[derive(Default)]
pub struct ReadMemo {
    /// The latest listing built or read here, by its KV key (content-addressed: never stale).
    listing: RefCell<Option<(String, Rc<str>)>>,
    /// The listing key whose snapshot a read here is building now.
    building: RefCell<Option<String>>,
    /// The persons whose index this instance asked for their rows from before issue 36, so a
    /// viewer with none costs that request once per instance, not on every page view. A hash
    /// set: only membership counts, and a `BTreeSet<String>`'s removal code (about 4 KB of
    /// wasm) was compiled for this set alone.
    asked_index: RefCell<std::collections::HashSet<String>>,
}

/// The most persons [`ReadMemo`] remembers having asked; past it, it starts again.
const ASKED_INDEX_CAPACITY: usize = 1000;

/// How long a read waits for another read here building the same head, in steps of
/// [`BUILD_POLL_MS`]; past it, it builds on its own.
const BUILD_WAIT_MS: u64 = 30_000;
const BUILD_POLL_MS: u64 = 25;

impl ReadMemo {
    /// Whether this instance has yet to ask `person`'s index about their rows (and remembers
    /// that it now does).
    pub fn first_index_ask(&self, person: &str) -> bool {
        let mut asked = self.asked_index.borrow_mut();
        if asked.len() >= ASKED_INDEX_CAPACITY {
            asked.clear();
        }
        asked.insert(person.to_string())
    }

    /// Forgets that `person`'s index was asked (the request failed: ask again next time).
    pub fn forget_index_ask(&self, person: &str) {
        self.asked_index.borrow_mut().remove(person);
    }

    /// The remembered listing of this key, if it is the one remembered.
    fn listing(&self, key: &str) -> Option<Rc<str>> {
        match &*self.listing.borrow() {
            Some((known, text)) if known == key => Some(text.clone()),
            _ => None,
        }
    }

    /// Waits while another read here builds `key`'s snapshot (at most [`BUILD_WAIT_MS`]).
    async fn wait_for_build<P: Surroundings>(&self, env: &P, key: &str) {
        let mut waited = 0;
        while waited < BUILD_WAIT_MS && self.building.borrow().as_deref() == Some(key) {
            env.pause(BUILD_POLL_MS).await;
            waited += BUILD_POLL_MS;
        }
    }
}

/// Marks a build of one key for the time it is alive; dropped, it clears the mark if still its
/// own, whether the build succeeded, failed or was abandoned.
struct Building<'a> {
    memo: &'a ReadMemo,
    key: String,
}

impl<'a> Building<'a> {
    fn start(memo: &'a ReadMemo, key: &str) -> Building<'a> {
        *memo.building.borrow_mut() = Some(key.to_string());
        Building {
            memo,
            key: key.to_string(),
        }
    }
}

impl Drop for Building<'_> {
    fn drop(&mut self) {
        let mut building = self.memo.building.borrow_mut();
        if building.as_deref() == Some(self.key.as_str()) {
            *building = None;
        }
    }
}

/// Runs a `get_pull_request` the Worker relayed, in the pull request's object, as the caller
/// (`github`), with its arguments `args` read once (`app::pull_request::tools`), whose saved
/// state is `current` (`store::pull_request`, `POST /tool`; `tools::relay` says why).
pub async fn get_pull_request_in_object<T: GitHubTransport, P: Surroundings>(
    env: &P,
    memo: &ReadMemo,
    github: &GitHub<'_, T>,
    (args, call): (&gpr::Args, &RelayedCall),
    current: CurrentState,
) -> ToolResult {
    let base_url = call.base_url.as_str();
    let failed =
        |error: GitHubError| ToolResult::Error(errors::github_failure(&error, &args.label()));
    let (repository, pull) = match read_pull(github, &args.owner, &args.repo, args.number).await {
        Ok(read) => read,
        Err(error) => return failed(error),
    };
    let pulled = Pulled {
        args,
        base_url,
        repository: &repository,
        pull: &pull,
        current: &current,
        may_write: call.may_write,
    };
    // A repeat read splices the cached listing in (no patches asked for): it decodes the
    // snapshot only for the suggestions of a saved order, and only its lean copy. The listing is
    // the one remembered here, once any build of this head here is done, or else KV's.
    // A read that may build marks the head before its first await, so a read arriving meanwhile
    // waits for it rather than building too.
    let key = listing_key_of(&args.owner, &args.repo, &pull);
    let mut building = None;
    if !args.include_patches {
        memo.wait_for_build(env, &key).await;
        let text = match memo.listing(&key) {
            Some(text) => {
                crate::log::note(|record| record.cache = Some("hit"));
                Some(text)
            }
            None => {
                building = Some(Building::start(memo, &key));
                let read = cached_listing(env, &args.owner, &args.repo, &pull).await;
                let read = read.map(Rc::<str>::from);
                if let Some(text) = &read {
                    *memo.listing.borrow_mut() = Some((key.clone(), text.clone()));
                }
                read
            }
        };
        if let Some(text) = text {
            if let Some(result) = Listing::read(&text).and_then(|listing| {
                let lean;
                let facts_from = if current.order.is_some() {
                    lean = listing.lean_snapshot()?;
                    &lean
                } else {
                    &listing.meta
                };
                let inputs = pulled.inputs(&listing.meta, facts_from);
                let (text, quoted) = gpr::shape_from_listing(inputs, &listing)?;
                Some(ToolResult::JsonQuoted { text, quoted })
            }) {
                return result;
            }
        }
    }
    let _building = building.unwrap_or_else(|| Building::start(memo, &key));
    let (snapshot, cached) = match read_snapshot(env, github, &args.owner, &args.repo, &pull).await
    {
        Ok(read) => read,
        Err(error) => return failed(error),
    };
    // The files written once, straight from the snapshot: spliced in when they fit, else cut to
    // the cap (or given patches); the list the result holds is cached for the next reads.
    // A cached list is quoted once, for the listing and for the result's text block alike.
    let shaped = gpr::shape_result(pulled.inputs(&snapshot, &snapshot));
    let mut quoted = None;
    if let (true, Some((files, trimmed))) = (cached, shaped.listed()) {
        let quoted_files = crate::json::string_inside(files);
        let listing: Rc<str> =
            listing::write_listing(&snapshot, files, &quoted_files, trimmed).into();
        quoted = shaped.quoted(&quoted_files);
        put_cached(env, &key, &listing).await;
        *memo.listing.borrow_mut() = Some((key, listing));
    }
    match quoted {
        Some(quoted) => ToolResult::JsonQuoted {
            text: shaped.text,
            quoted,
        },
        None => ToolResult::Json(shaped.text),
    }
}

/// What a `get_pull_request` result is built from besides the files.
struct Pulled<'a> {
    args: &'a gpr::Args,
    base_url: &'a str,
    repository: &'a Repository,
    pull: &'a PullRequest,
    current: &'a CurrentState,
    may_write: bool,
}

impl<'a> Pulled<'a> {
    /// The result's inputs: `snapshot` gives the files and flags, `facts_from` the files a saved
    /// order's suggestions are checked against (the same snapshot, or a listing's lean copy).
    fn inputs(&self, snapshot: &'a Snapshot, facts_from: &Snapshot) -> gpr::ResultInputs<'a> {
        // Called only when an order is saved: the facts are built then.
        let suggestions = |body: &serde_json::Value| {
            let facts = crate::tools::save_reading_order::facts_from_snapshot(facts_from);
            crate::json::read::<crate::review::order::Order>(body)
                .map(|order| crate::review::order::suggest_for_current(&order, &facts))
                .unwrap_or_default()
        };
        gpr::ResultInputs {
            args: self.args,
            base_url: self.base_url,
            repository: self.repository,
            pull: self.pull,
            snapshot,
            saved: gpr::saved_state(self.current, &self.pull.head.sha, &suggestions),
            may_write: self.may_write,
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

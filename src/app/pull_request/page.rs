//! The review page (`GET /r/{owner}/{repo}/pull/{n}` with `version`, `view`, `from`,
//! `fragment`), built in the pull request's object: the viewer's GitHub read with the snapshot
//! (built here once per head), the saved order, its history, the viewer's ticks and drafts from
//! this object's storage, the review comments and threads from GitHub, then
//! `review_page::render`. The Worker authenticated the viewer and made the page's CSRF token.
//! Moved from `store` to the application layer (issue #37).
//!
//! GitHub requests: 2 for the read (repository and pull request; the file pages and 2 more on
//! a first view at a new head), 1 per comparison the banners need, and the comments and
//! threads (`review_reads`).
//!
//! What not: no platform names; the shell hands in the object and the viewer's GitHub client.

use super::calls::{PageQuery, CSRF_COOKIE_HEADER};
use super::coverage;
use super::object::{Object, Storage, Viewer};
use super::records::Records;
use super::reply::{html, message_page};
use super::review_reads;
use crate::github::api::{path, Comparison, RepoPath, MAX_COMPARED_FILES};
use crate::github::client::GitHub;
use crate::http::HttpReply;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::ports::sql::{Sql, SqlError};
use crate::review::model::saved::{DocumentKind, SavedRecord};
use crate::review::model::snapshot::SnapshotFile;
use crate::review::model::ticks::{ReviewerState, TickRow};
use crate::review::order::{checklist_ids, Order};
use crate::router::PullPath;
use crate::web::review_page::discussion::{Discussion, Forms};
use crate::web::{review_page, review_state};

/// The review page as the viewer may see it, or the page saying why not.
pub async fn page<St: Storage, P: Surroundings, T: GitHubTransport>(
    object: &Object<'_, St, P>,
    viewer: &Viewer<'_, T>,
    query: &PageQuery,
) -> Result<HttpReply, SqlError> {
    let (call, github, pull) = (viewer.call, viewer.github, viewer.pull);
    let base_url = call.base_url.as_str();
    let read = match object.viewer_read(viewer).await? {
        Ok(read) => read,
        Err(message) => {
            return Ok(message_page(
                404,
                "Can't open this pull request",
                &message,
                base_url,
            ))
        }
    };
    let current = object.records().current()?;
    let history = object.records().history(DocumentKind::Order)?;
    let latest_version = current.order.as_ref().map_or(0, |r| r.version);
    let wanted: Option<u64> = query.version;
    let record: Option<SavedRecord> = match wanted {
        Some(version) if version != latest_version => object
            .records()
            .version(DocumentKind::Order, version as i64)?,
        _ => current.order.clone(),
    };
    let order: Option<Order> = record
        .as_ref()
        .and_then(|r| crate::json::read::<Order>(&r.body).ok());
    let checklist = order.as_ref().map(checklist_ids).unwrap_or_default();
    let head = read.pull.head.sha.as_str();
    let commits_since = match &record {
        Some(record) if record.head_sha != head => {
            commits_between(github, pull, &record.head_sha, head).await
        }
        _ => None,
    };
    let latest_order: Option<Order> = current
        .order
        .as_ref()
        .and_then(|r| crate::json::read::<Order>(&r.body).ok());
    let stored = reviewer_state(&object.records(), &call.person)?;
    let order_head = current.order.as_ref().map(|r| r.head_sha.as_str());
    let stored = migrate_legacy_ticks(
        object,
        viewer,
        stored,
        (latest_order.as_ref(), order_head),
        &read.snapshot.files,
        head,
    )
    .await?;
    if !stored.ticks.is_empty() {
        // Coverage names reviewers by login (issue #47): one written only when new or changed.
        let at = crate::time::rfc3339(object.clock.now_ms());
        object
            .records()
            .note_reviewer(&call.person, &call.login, &at)?;
    }
    let review_state = review_state::review_state(&stored, &read.snapshot.files, head);
    let team = coverage::for_page(
        &object.records(),
        order.as_ref(),
        &read.snapshot.files,
        head,
        &call.person,
    )?;
    let visit_commits = match &review_state.since {
        Some(since) => commits_between(github, pull, &since.head_sha, head).await,
        None => None,
    };
    let view = query.view;
    let comments =
        review_reads::comments(&object.platform, github, pull, read.pull.review_comments).await;
    let versions: Vec<review_page::VersionInfo> = history.iter().map(Into::into).collect();
    let threads = review_reads::threads(&object.platform, github, pull, comments.len()).await;
    let drafts = object
        .records()
        .drafts(&call.person)
        .unwrap_or_else(|error| {
            object
                .platform
                .error(&format!("reading drafts failed: {error}"));
            Vec::new()
        });
    let discussion = Discussion {
        forms: Forms::new(
            &review_page::pull_path(&pull.owner, &pull.repo, pull.number),
            &call.csrf,
            head,
        )
        .may_write(call.may_write),
        drafts: &drafts,
        threads: &threads,
    };
    let state = if read.pull.merged {
        "merged"
    } else {
        read.pull.state.as_str()
    };
    let page = review_page::ReviewPage {
        base_url,
        owner: &pull.owner,
        repo: &pull.repo,
        number: pull.number,
        title: &read.pull.title,
        state,
        author: read
            .pull
            .user
            .as_ref()
            .map(|u| u.login.as_str())
            .unwrap_or("ghost"),
        github_url: &read.pull.html_url,
        viewer: &call.login,
        can_arrange: read.repository.can_arrange(),
        order: order.as_ref(),
        checklist: &checklist,
        order_version: record.as_ref().map_or(0, |r| r.version),
        latest_version,
        versions: &versions,
        updated_by: record.as_ref().map_or("", |r| r.person.as_str()),
        source: record.as_ref().map_or("", |r| r.source.as_str()),
        saved_at: record.as_ref().map_or("", |r| r.saved_at.as_str()),
        commits_since,
        files: &read.snapshot.files,
        review_state: &review_state,
        view,
        visit_commits,
        diagram: current.diagram.as_ref().map(|r| &r.body),
        csrf: &call.csrf,
        comments: &comments,
        window: query.window,
        fragment: query.fragment,
        discussion: Some(&discussion),
        coverage: team.as_ref(),
    };
    Ok(html(200, review_page::render(&page)).with_header(CSRF_COOKIE_HEADER, "1"))
}

/// The viewer's ticks and the change ids of the heads they were made at.
pub fn reviewer_state<S: Sql>(
    records: &Records<'_, S>,
    person: &str,
) -> Result<ReviewerState, SqlError> {
    let ticks = records.ticks(person)?;
    let mut shas: Vec<&str> = ticks.iter().filter_map(|t| t.head_sha.as_deref()).collect();
    crate::sorting::sort(&mut shas);
    shas.dedup();
    let heads = records.heads(&shas)?;
    Ok(ReviewerState { ticks, heads })
}

/// Moves a person's path-keyed ticks (from before content keys) to the content they covered:
/// the entries' changes at the head of the latest order, when the file is the same there and
/// now (one comparison request, only when the heads differ and such ticks exist). Done once:
/// the object then holds content items.
async fn migrate_legacy_ticks<St: Storage, P: Surroundings, T: GitHubTransport>(
    object: &Object<'_, St, P>,
    viewer: &Viewer<'_, T>,
    mut stored: ReviewerState,
    order: (Option<&Order>, Option<&str>),
    files: &[SnapshotFile],
    head: &str,
) -> Result<ReviewerState, SqlError> {
    let legacy = |tick: &TickRow| tick.head_sha.is_none() && tick.item.starts_with("file:");
    if !stored.ticks.iter().any(legacy) {
        return Ok(stored);
    }
    let (order, order_head) = order;
    let order_head = order_head.unwrap_or(head);
    let changed: Option<std::collections::HashSet<String>> = if order_head == head {
        Some(Default::default())
    } else {
        compared_files(viewer.github, viewer.pull, order_head, head).await
    };
    let unchanged = |path: &str| changed.as_ref().is_some_and(|set| !set.contains(path));
    let migration = review_state::migrate_legacy(
        &stored.ticks,
        &review_page::entry_items(order, files),
        order_head,
        &unchanged,
    );
    object
        .records()
        .migrate(&viewer.call.person, &migration.add, &migration.remove)?;
    stored.ticks.retain(|tick| !legacy(tick));
    stored.ticks.extend(migration.add);
    Ok(stored)
}

/// The files that differ between two commits, or `None` when GitHub can't say or lists only
/// part of them.
async fn compared_files(
    github: &GitHub<'_, impl GitHubTransport>,
    pull: &PullPath,
    from: &str,
    to: &str,
) -> Option<std::collections::HashSet<String>> {
    let repo = RepoPath::new(&pull.owner, &pull.repo)?;
    let comparison = github
        .get::<Comparison>(&path::compare(&repo, from, to)?)
        .await
        .ok()?;
    (comparison.files.len() < MAX_COMPARED_FILES)
        .then(|| comparison.files.into_iter().map(|f| f.filename).collect())
}

/// Commits on the pull request's branch since `from`, or `None` when GitHub can't say.
async fn commits_between(
    github: &GitHub<'_, impl GitHubTransport>,
    pull: &PullPath,
    from: &str,
    to: &str,
) -> Option<u64> {
    let repo = RepoPath::new(&pull.owner, &pull.repo)?;
    github
        .get::<Comparison>(&path::compare(&repo, from, to)?)
        .await
        .ok()
        .map(|c| c.ahead_by.max(c.total_commits))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

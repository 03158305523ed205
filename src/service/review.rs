//! The review pages (wasm only): the reading order for reviewers, ticks, and arranging on the web.
//!
//! Every page reads the pull request from GitHub with the viewer's own token, so a reviewer sees
//! exactly what GitHub lets them see; ticks and web saves go to the pull request's object.

use worker::{Env, Request};

use super::{forms, pull_request, saved_store};
use crate::config::Config;
use crate::github::api::{path, Comparison, RepoPath, MAX_COMPARED_FILES};
use crate::github::client::GitHub;
use crate::http::HttpReply;
use crate::review::order::{checklist_ids, validate_order, Order};
use crate::router::PullPath;
use crate::security::form;
use crate::tools::caller::Caller;
use crate::tools::save_reading_order as save;
use crate::tools::saved::{
    DocumentKind, SaveOutcome, SaveRequest, SavedRecord, TickOutcome, MAX_TICKS_PER_PERSON,
};
use crate::tools::saved::{ReviewerState, TickRow};
use crate::web::csrf::BodyKind;
use crate::web::review_page::discussion::{Discussion, Forms};
use crate::web::{arrange_page, review_page, review_state};

/// The longest tick item id accepted: a checklist id, or `file:` with a path (GitHub paths run to
/// 4,096 bytes) and a part's change ids.
const MAX_TICK_ITEM_BYTES: usize = 8 * 1024;

/// Who is looking at a page.
pub enum Viewer {
    Known(Caller),
    /// Not signed in: where to send the browser.
    SignIn(HttpReply),
}

fn message_page(status: u16, title: &str, message: &str, base_url: &str) -> HttpReply {
    let body = format!(
        "<h1>{}</h1><p>{}</p>",
        crate::web::html::escape(title),
        crate::web::html::escape(message)
    );
    super::html(status, crate::web::html::page(title, &body, base_url))
}

/// Reads the pull request as the viewer, or the page saying why GitHub would not show it.
async fn read_for_page(
    env: &Env,
    github: &GitHub<'_>,
    pull: &PullPath,
    base_url: &str,
) -> Result<pull_request::PullRead, HttpReply> {
    pull_request::read_as_viewer(env, github, pull)
        .await
        .map_err(|message| message_page(404, "Can't open this pull request", &message, base_url))
}

/// `GET /r/{owner}/{repo}/pull/{n}[?version=N]`.
pub async fn review(
    req: &Request,
    env: &Env,
    config: &Config,
    caller: &Caller,
    pull: &PullPath,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let github = super::github_for(config, caller);
    let read = match read_for_page(env, &github, pull, base_url).await {
        Ok(read) => read,
        Err(reply) => return Ok(reply),
    };
    let current = saved_store::current(env, &pull.owner, &pull.repo, pull.number).await?;
    let history = saved_store::history(
        env,
        &pull.owner,
        &pull.repo,
        pull.number,
        DocumentKind::Order,
    )
    .await?;
    let latest_version = current.order.as_ref().map_or(0, |r| r.version);
    let wanted: Option<u64> = req
        .url()?
        .query_pairs()
        .find(|(k, _)| k == "version")
        .and_then(|(_, v)| v.parse().ok());
    let record: Option<SavedRecord> = match wanted {
        Some(version) if version != latest_version => {
            saved_store::order_version(env, &pull.owner, &pull.repo, pull.number, version).await?
        }
        _ => current.order.clone(),
    };
    let order: Option<Order> = record
        .as_ref()
        .and_then(|r| crate::json::read::<Order>(&r.body).ok());
    let checklist = order.as_ref().map(checklist_ids).unwrap_or_default();
    let commits_since = match &record {
        Some(record) if record.head_sha != read.pull.head.sha => {
            commits_between(&github, pull, &record.head_sha, &read.pull.head.sha).await
        }
        _ => None,
    };
    let head = read.pull.head.sha.as_str();
    let latest_order: Option<Order> = current
        .order
        .as_ref()
        .and_then(|r| crate::json::read::<Order>(&r.body).ok());
    let stored =
        saved_store::reviewer_state(env, &pull.owner, &pull.repo, pull.number, &caller.login)
            .await?;
    let stored = migrate_legacy_ticks(
        env,
        &github,
        pull,
        &caller.login,
        stored,
        (
            latest_order.as_ref(),
            current.order.as_ref().map(|r| r.head_sha.as_str()),
        ),
        &read.snapshot.files,
        head,
    )
    .await?;
    let review_state = review_state::review_state(&stored, &read.snapshot.files, head);
    let visit_commits = match &review_state.since {
        Some(since) => commits_between(&github, pull, &since.head_sha, head).await,
        None => None,
    };
    let url = req.url()?;
    let query = |name: &str| {
        url.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    };
    let view = review_page::View::parse(query("view").as_deref());
    let comments = super::review_reads::comments(&github, pull, read.pull.review_comments).await;
    let versions: Vec<review_page::VersionInfo> = history.iter().map(Into::into).collect();
    let csrf = forms::page_token(req, config, &caller.person)?;
    let threads = super::review_reads::threads(&github, pull, comments.len()).await;
    let drafts = saved_store::drafts(env, (&pull.owner, &pull.repo, pull.number), &caller.login)
        .await
        .unwrap_or_else(|error| {
            worker::console_error!("reading drafts failed: {error}");
            Vec::new()
        });
    let discussion = Discussion {
        forms: Forms::new(
            &review_page::pull_path(&pull.owner, &pull.repo, pull.number),
            &csrf.token,
            head,
        ),
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
        viewer: &caller.login,
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
        csrf: &csrf.token,
        comments: &comments,
        window: review_page::window_of(query("from").as_deref()),
        fragment: query("fragment").as_deref() == Some("1"),
        discussion: Some(&discussion),
    };
    Ok(csrf.with_cookie(super::html(200, review_page::render(&page))))
}

/// Moves a person's path-keyed ticks (from before content keys) to the content they covered:
/// the entries' changes at the head of the latest order, when the file is the same there and
/// now (one comparison request, only when the heads differ and such ticks exist). Done once:
/// the object then holds content items.
#[allow(clippy::too_many_arguments)]
async fn migrate_legacy_ticks(
    env: &Env,
    github: &GitHub<'_>,
    pull: &PullPath,
    person: &str,
    mut stored: ReviewerState,
    order: (Option<&Order>, Option<&str>),
    files: &[crate::tools::get_pull_request::SnapshotFile],
    head: &str,
) -> worker::Result<ReviewerState> {
    let legacy = |tick: &TickRow| tick.head_sha.is_none() && tick.item.starts_with("file:");
    if !stored.ticks.iter().any(legacy) {
        return Ok(stored);
    }
    let (order, order_head) = order;
    let order_head = order_head.unwrap_or(head);
    let changed: Option<std::collections::HashSet<String>> = if order_head == head {
        Some(Default::default())
    } else {
        compared_files(github, pull, order_head, head).await
    };
    let unchanged = |path: &str| changed.as_ref().is_some_and(|set| !set.contains(path));
    let migration = review_state::migrate_legacy(
        &stored.ticks,
        &review_page::entry_items(order, files),
        order_head,
        &unchanged,
    );
    saved_store::migrate_ticks(
        env,
        (&pull.owner, &pull.repo, pull.number),
        person,
        &migration,
    )
    .await?;
    stored.ticks.retain(|tick| !legacy(tick));
    stored.ticks.extend(migration.add);
    Ok(stored)
}

/// The files that differ between two commits, or `None` when GitHub can't say or lists only
/// part of them.
async fn compared_files(
    github: &GitHub<'_>,
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
    github: &GitHub<'_>,
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

/// `POST …/ticks`: ticks or unticks one item for the viewer.
///
/// In this order, so a refused tick touches no storage: the checks of every browser POST
/// (`forms::verified_post`: a form body, same origin, this session's token); the item's
/// shape; the viewer's own GitHub read of the pull request (the same read as the page, so
/// nobody ticks on a pull request they can't see or one that doesn't exist); the item against
/// what the latest version's page offers; then the pull request's object, which caps how many
/// ticks one person holds. The reply names only the item, never the viewer's whole list.
pub async fn tick(
    req: &mut Request,
    env: &Env,
    config: &Config,
    caller: &Caller,
    pull: &PullPath,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let wants_json = req
        .headers()
        .get("accept")?
        .is_some_and(|accept| accept.contains("application/json"));
    let refuse = |status: u16, message: &str| {
        if wants_json {
            HttpReply::json(status, &serde_json::json!({ "error": message }))
        } else {
            message_page(status, "Tick not saved", message, base_url)
        }
    };
    let body = match forms::verified_post(
        req,
        config,
        base_url,
        &caller.person,
        BodyKind::Form,
        forms::MAX_FORM_BYTES,
    )
    .await?
    {
        Ok(body) => body,
        Err(refusal) if wants_json => return Ok(forms::refusal_json(refusal)),
        Err(refusal) => return Ok(forms::refusal_page(refusal, base_url)),
    };
    let form = form::pairs(&body);
    let item = form::value(&form, "item").unwrap_or_default();
    if item.is_empty() || item.len() > MAX_TICK_ITEM_BYTES {
        return Ok(refuse(
            400,
            &format!("item is required: the id of a checklist item or file entry, at most {MAX_TICK_ITEM_BYTES} bytes."),
        ));
    }
    let done = match form::value(&form, "done") {
        Some("1") => true,
        Some("0") => false,
        _ => return Ok(refuse(400, "done must be 1 (mark done) or 0 (undo).")),
    };
    let github = super::github_for(config, caller);
    let read = match pull_request::read_as_viewer(env, &github, pull).await {
        Ok(read) => read,
        Err(message) => return Ok(refuse(404, &message)),
    };
    let current = saved_store::current(env, &pull.owner, &pull.repo, pull.number).await?;
    let order = current
        .order
        .and_then(|record| crate::json::read::<Order>(&record.body).ok());
    let Some(items) = review_page::expand_tick(item, order.as_ref(), &read.snapshot.files) else {
        return Ok(refuse(
            404,
            "This item is not on the pull request's current review page (the order or the pull request changed); reload the page and tick again.",
        ));
    };
    // The person's index of ticked pull requests ("Delete my data" walks it) is written before
    // the tick, so no tick is ever stored that the index does not list; and only after the
    // checks above, so a refused tick grows no one's storage.
    if let Err(error) = super::person_data::note_ticked(env, caller, pull).await {
        worker::console_error!("noting a ticked pull request failed: {error}");
        return Ok(refuse(503, "Ticks are unavailable right now; try again."));
    }
    let target = (pull.owner.as_str(), pull.repo.as_str(), pull.number);
    let head = read.pull.head.sha.as_str();
    let reply = saved_store::tick(env, target, &caller.login, &items, done, head).await?;
    if reply.outcome == TickOutcome::Full {
        return Ok(refuse(
            409,
            &format!("You already hold {MAX_TICKS_PER_PERSON} ticks on this pull request; undo some before adding more."),
        ));
    }
    if !reply.known_head {
        // The first tick at this head: record what every file holds now, so a later visit can
        // tell what is new. A failure only costs that later view its "since" detail.
        let files = review_state::head_files(&read.snapshot.files);
        if let Err(error) = saved_store::record_head(env, target, head, &files).await {
            worker::console_warn!("recording head {head} failed: {error}");
        }
    }
    if wants_json {
        return Ok(HttpReply::json(
            200,
            &serde_json::json!({ "item": item, "done": done }),
        ));
    }
    Ok(HttpReply::empty(303).with_header(
        "location",
        review_page::pull_path(&pull.owner, &pull.repo, pull.number),
    ))
}

/// `GET`/`POST …/arrange`: the editor's page shell, and saving what it posts with source `web`.
///
/// In this order, so a refused save touches no storage: the viewer's GitHub write access and the
/// session's grant (both before the body is read); the saved order; for a POST, the checks of
/// every browser POST (`forms::verified_post`: a JSON body, same origin, this session's token in
/// the `X-CSRF-Token` header); the JSON body; `base_version`
/// against the latest; the order through the `save_reading_order` tool's validator; then the
/// object's save, which refuses a stale base version again. Every POST answers JSON:
/// `{location}` on success, `{error}` otherwise.
pub async fn arrange(
    req: &mut Request,
    env: &Env,
    config: &Config,
    caller: &Caller,
    pull: &PullPath,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let github = super::github_for(config, caller);
    let read = match read_for_page(env, &github, pull, base_url).await {
        Ok(read) => read,
        Err(reply) => return Ok(reply),
    };
    if !read.repository.can_arrange() {
        let message = save::no_write_access(&caller.login, &pull.owner, &pull.repo, "an order");
        return Ok(message_page(403, "Read-only", &message, base_url));
    }
    // The grant behind this browser's session must allow saving too, as `/mcp` saves require
    // `reviews:write`: push access on GitHub alone doesn't widen a read-only consent.
    if !caller.may_write {
        return Ok(message_page(403, "Read-only sign-in", "This browser signed in to LogiKFlow with read access only, so it can't save an order. Sign out, then sign in again and allow saving reading orders.", base_url));
    }
    let current = saved_store::current(env, &pull.owner, &pull.repo, pull.number).await?;
    let Some(record) = current.order else {
        return Ok(message_page(404, "No order yet", "Ask an agent to arrange this pull request first (save_reading_order); then you can adjust it here.", base_url));
    };
    let Ok(order) = crate::json::read::<Order>(&record.body) else {
        return Ok(message_page(
            500,
            "Unreadable order",
            "The saved order could not be read.",
            base_url,
        ));
    };
    if req.method() != worker::Method::Post {
        let csrf = forms::page_token(req, config, &caller.person)?;
        let html = arrange_page::render(&arrange_page::ArrangePage {
            base_url,
            owner: &pull.owner,
            repo: &pull.repo,
            number: pull.number,
            title: &read.pull.title,
            order: &order,
            base_version: record.version,
            files: &read.snapshot.files,
            csrf: &csrf.token,
        });
        return Ok(csrf.with_cookie(super::html(200, html)));
    }
    let refuse = |status: u16, message: &str| {
        HttpReply::json(status, &serde_json::json!({ "error": message }))
    };
    let conflict = |person: &str, version: u64| {
        let who = if person.is_empty() { "someone" } else { person };
        refuse(409, &format!("Conflict: {who} saved version {version} after you opened this page. Reload to arrange the latest version."))
    };
    let body = match forms::verified_post(
        req,
        config,
        base_url,
        &caller.person,
        BodyKind::Json,
        crate::mcp::transport::MAX_BODY_BYTES,
    )
    .await?
    {
        Ok(body) => body,
        Err(refusal) => return Ok(forms::refusal_json(refusal)),
    };
    let submitted = match arrange_page::submission(&body) {
        Ok(submitted) => submitted,
        Err(message) => return Ok(refuse(400, &message)),
    };
    let base_version = submitted.base_version;
    if base_version != record.version {
        return Ok(conflict(&record.person, record.version));
    }
    let facts = save::facts_from_snapshot(&read.snapshot);
    let new_order = match validate_order(&submitted.order, &facts) {
        Ok(order) => order,
        Err(rejection) => return Ok(refuse(400, &rejection.message())),
    };
    let request = SaveRequest {
        kind: DocumentKind::Order,
        base_version,
        body: save::stored_order(&new_order),
        person: caller.login.clone(),
        client: None,
        source: "web".into(),
        head_sha: read.pull.head.sha.clone(),
        saved_at: crate::time::rfc3339(worker::Date::now().as_millis()),
    };
    match saved_store::save(env, &pull.owner, &pull.repo, pull.number, &request).await? {
        SaveOutcome::Saved { version, .. } => Ok(HttpReply::json(
            200,
            &serde_json::json!({
                "version": version,
                "location": review_page::pull_path(&pull.owner, &pull.repo, pull.number),
            }),
        )),
        SaveOutcome::Conflict { latest } => Ok(conflict(&latest.person, latest.version)),
    }
}

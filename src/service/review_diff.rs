//! The review page's diff requests (wasm only): review comments for the page, one entry's diff
//! on demand (`…/diff?entry=`) and lines around a change (`…/context?path=&from=&to=`).
//!
//! Each request is authorized exactly like the page: the viewer's own GitHub read of the
//! repository and the pull request, with the file snapshot from the KV cache, so nobody sees a
//! diff, a comment or a line GitHub would not show them. GitHub requests: the page and a
//! deferred diff add 0 to `MAX_COMMENT_PAGES` (`ceil(review_comments / 100)`, at most 3) for
//! the comments; context adds 1 (the file's contents at the head).

use futures_util::future::join_all;
use worker::{Env, Request};

use super::{pull_request, saved_store};
use crate::config::Config;
use crate::errors;
use crate::github::api::{comment_pages, path, Contents, RepoPath, ReviewComment};
use crate::github::client::GitHub;
use crate::http::HttpReply;
use crate::json::FromJson;
use crate::review::order::Order;
use crate::router::{PullPath, Route};
use crate::tools::caller::Caller;
use crate::web::html::escape;
use crate::web::review_page::context_lines::{context_lines, MAX_CONTEXT_LINES};
use crate::web::review_page::{diff_view, pull_path};

/// The longest `entry` anchor or `path` accepted (GitHub paths run to 4,096 bytes; an anchor
/// writes some bytes as three).
const MAX_QUERY_VALUE_BYTES: usize = 16 * 1024;

/// The pull request's review comments, oldest first: the pages its `review_comments` count
/// says, read in parallel, at most `MAX_COMMENT_PAGES`. Comments are an addition to the page,
/// so a failed read shows the page without them (and is logged).
pub async fn comments(
    github: &GitHub<'_>,
    pull: &PullPath,
    review_comments: Option<u64>,
) -> Vec<ReviewComment> {
    let Some(repo) = RepoPath::new(&pull.owner, &pull.repo) else {
        return Vec::new();
    };
    let paths: Vec<String> = (1..=comment_pages(review_comments))
        .map(|page| path::pull_comments(&repo, pull.number, page))
        .collect();
    let pages = join_all(paths.iter().map(|p| github.get::<Vec<ReviewComment>>(p))).await;
    let mut all = Vec::new();
    for page in pages {
        match page {
            Ok(page) => all.extend(page),
            Err(error) => {
                worker::console_warn!("reading review comments failed: {error:?}");
                break;
            }
        }
    }
    all
}

/// The query of a diff request: `entry`, `version` and `fragment` (`…/diff`), `path`, `from` and
/// `to` (`…/context`). Values that are empty or too long are left out.
#[derive(Default)]
struct Query {
    entry: Option<String>,
    version: Option<u64>,
    fragment: bool,
    path: Option<String>,
    from: Option<u32>,
    to: Option<u32>,
}

impl Query {
    fn read(req: &Request) -> worker::Result<Query> {
        let mut query = Query::default();
        for (key, value) in req.url()?.query_pairs() {
            if value.is_empty() || value.len() > MAX_QUERY_VALUE_BYTES {
                continue;
            }
            match key.as_ref() {
                "entry" => query.entry = Some(value.into_owned()),
                "version" => query.version = value.parse().ok(),
                "fragment" => query.fragment = value == "1",
                "path" => query.path = Some(value.into_owned()),
                "from" => query.from = value.parse().ok(),
                "to" => query.to = value.parse().ok(),
                _ => {}
            }
        }
        Ok(query)
    }
}

/// `GET …/diff` and `GET …/context`: one entry point, so both share one read of the pull
/// request (and the wasm one copy of it).
pub async fn handle(
    req: &Request,
    env: &Env,
    config: &Config,
    caller: &Caller,
    route: &Route,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let (pull, context) = match route {
        Route::ReviewContext(pull) => (pull, true),
        Route::ReviewDiff(pull) => (pull, false),
        _ => return Ok(HttpReply::empty(404)),
    };
    let query = Query::read(req)?;
    let refuse = |status: u16, message: &str| {
        if context {
            return HttpReply::json(status, &serde_json::json!({ "error": message }));
        }
        let text = format!("<p class=\"muted\">{}</p>", escape(message));
        if query.fragment {
            super::html(status, text)
        } else {
            super::html(
                status,
                crate::web::html::page("Diff not shown", &text, base_url),
            )
        }
    };
    let missing = if context {
        (query.path.is_none() || query.from.is_none() || query.to.is_none()).then(|| {
            format!("path, from and to are required: a changed file and new-file line numbers, at most {MAX_CONTEXT_LINES} lines.")
        })
    } else {
        query.entry.is_none().then(|| {
            "entry is required: the id of a file entry of the review page (its #file-… anchor)."
                .to_string()
        })
    };
    if let Some(message) = missing {
        return Ok(refuse(400, &message));
    }
    let github = super::github_for(env, config, caller);
    let read = match pull_request::read_pull_with_files(
        env,
        &github,
        &pull.owner,
        &pull.repo,
        pull.number,
    )
    .await
    {
        Ok(read) => read,
        Err(error) => {
            let label = format!("{}/{}#{}", pull.owner, pull.repo, pull.number);
            return Ok(refuse(404, &errors::github_failure(&error, &label)));
        }
    };
    if context {
        return Ok(match context_reply(&query, &github, pull, &read).await {
            Ok(reply) => reply,
            Err((status, message)) => refuse(status, &message),
        });
    }
    let entry = query.entry.as_deref().unwrap_or_default();
    let order = order_at(env, pull, query.version).await?;
    let comments = comments(&github, pull, read.pull.review_comments).await;
    let Some((path, html)) = diff_view::fragment(
        order.as_ref(),
        &read.snapshot.files,
        entry,
        &read.pull.html_url,
        &comments,
        &|_, _| String::new(),
    ) else {
        return Ok(refuse(
            404,
            "This file entry is no longer on the review page (the order or the pull request changed); reload the review page.",
        ));
    };
    if query.fragment {
        return Ok(super::html(200, html));
    }
    let mut back = pull_path(&pull.owner, &pull.repo, pull.number);
    if let Some(version) = query.version {
        back.push_str(&format!("?version={version}"));
    }
    back.push('#');
    back.push_str(entry);
    let title = format!("{path} · {}/{}#{}", pull.owner, pull.repo, pull.number);
    Ok(super::html(
        200,
        diff_view::fragment_page(&title, &back, &path, &html, base_url),
    ))
}

/// Lines of the file at the pull request's head that its diff doesn't show, as JSON
/// `{"lines": [{"old", "new", "text"}], "total"}`, at most [`MAX_CONTEXT_LINES`] a request; or
/// the status and message of a refusal.
async fn context_reply(
    query: &Query,
    github: &GitHub<'_>,
    pull: &PullPath,
    read: &pull_request::PullRead,
) -> Result<HttpReply, (u16, String)> {
    let file_path = query.path.as_deref().unwrap_or_default();
    let Some(file) = read
        .snapshot
        .files
        .iter()
        .find(|f| f.path == file_path && f.status != "removed")
    else {
        return Err((
            404,
            "This file is not changed at the pull request's head; reload the review page.".into(),
        ));
    };
    let contents_path = RepoPath::new(&pull.owner, &pull.repo)
        .and_then(|repo| path::contents(&repo, &file.path, &read.pull.head.sha))
        .ok_or((404, "This file can't be read from GitHub.".to_string()))?;
    let contents = github
        .get::<Contents>(&contents_path)
        .await
        .map_err(|error| {
            let label = format!("{}/{}#{}", pull.owner, pull.repo, pull.number);
            (502, errors::github_failure(&error, &label))
        })?;
    let text = contents.text().ok_or((
        422,
        "GitHub sent this file as something other than UTF-8 text (binary, or over 1 MB); open it on GitHub.".to_string(),
    ))?;
    let (lines, total) = context_lines(
        file.patch.as_deref(),
        &text,
        query.from.unwrap_or_default(),
        query.to.unwrap_or_default(),
    )
    .map_err(|error| (400, error.message()))?;
    let lines: Vec<serde_json::Value> = lines
        .iter()
        .map(|line| serde_json::json!({ "old": line.old, "new": line.new, "text": line.text }))
        .collect();
    Ok(HttpReply::json(
        200,
        &serde_json::json!({ "lines": lines, "total": total }),
    ))
}

/// The order the page showed: version `version`, or the latest.
async fn order_at(
    env: &Env,
    pull: &PullPath,
    version: Option<u64>,
) -> worker::Result<Option<Order>> {
    let record = match version {
        Some(version) => {
            saved_store::order_version(env, &pull.owner, &pull.repo, pull.number, version).await?
        }
        None => {
            saved_store::current(env, &pull.owner, &pull.repo, pull.number)
                .await?
                .order
        }
    };
    Ok(record.and_then(|record| Order::from_json(record.body).ok()))
}

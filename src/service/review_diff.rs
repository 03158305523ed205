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
use crate::github::api::{comment_pages, path, Contents, GitHubError, RepoPath, ReviewComment};
use crate::github::client::GitHub;
use crate::http::HttpReply;
use crate::json::FromJson;
use crate::review::order::Order;
use crate::router::PullPath;
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

/// The query's value for `name`, when present, not empty and not too long.
fn query(req: &Request, name: &str) -> worker::Result<Option<String>> {
    Ok(req
        .url()?
        .query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
        .filter(|value| !value.is_empty() && value.len() <= MAX_QUERY_VALUE_BYTES))
}

/// `GET …/diff?entry={anchor}[&version=N][&fragment=1]`: one file entry's diff, as the page
/// would show it inline. `fragment=1` (the page's script) gets just the HTML to put in place;
/// without it (the "Load diff" link without JavaScript) a page with that one diff.
pub async fn diff(
    req: &Request,
    env: &Env,
    config: &Config,
    caller: &Caller,
    pull: &PullPath,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let fragment = query(req, "fragment")?.as_deref() == Some("1");
    let refuse = |status: u16, message: &str| {
        let text = format!("<p class=\"muted\">{}</p>", escape(message));
        if fragment {
            super::html(status, text)
        } else {
            super::html(
                status,
                crate::web::html::page("Diff not shown", &text, base_url),
            )
        }
    };
    let Some(entry) = query(req, "entry")? else {
        return Ok(refuse(
            400,
            "entry is required: the id of a file entry of the review page (its #file-… anchor).",
        ));
    };
    let version = query(req, "version")?.and_then(|v| v.parse::<u64>().ok());
    let github = super::github_for(env, config, caller);
    let read = match read(env, &github, pull).await {
        Ok(read) => read,
        Err(message) => return Ok(refuse(404, &message)),
    };
    let order = order_at(env, pull, version).await?;
    let comments = comments(&github, pull, read.pull.review_comments).await;
    let Some((path, html)) = diff_view::fragment(
        order.as_ref(),
        &read.snapshot.files,
        &entry,
        &read.pull.html_url,
        &comments,
        &|_, _| String::new(),
    ) else {
        return Ok(refuse(
            404,
            "This file entry is no longer on the review page (the order or the pull request changed); reload the review page.",
        ));
    };
    if fragment {
        return Ok(super::html(200, html));
    }
    let mut back = pull_path(&pull.owner, &pull.repo, pull.number);
    if let Some(version) = version {
        back.push_str(&format!("?version={version}"));
    }
    back.push('#');
    back.push_str(&entry);
    let title = format!("{path} · {}/{}#{}", pull.owner, pull.repo, pull.number);
    Ok(super::html(
        200,
        diff_view::fragment_page(&title, &back, &path, &html, base_url),
    ))
}

/// `GET …/context?path=&from=&to=`: lines of the file at the pull request's head that its diff
/// doesn't show, as JSON `{"lines": [{"old", "new", "text"}], "total"}`, at most
/// [`MAX_CONTEXT_LINES`] a request.
pub async fn context(
    req: &Request,
    env: &Env,
    config: &Config,
    caller: &Caller,
    pull: &PullPath,
) -> worker::Result<HttpReply> {
    let refuse = |status: u16, message: &str| {
        HttpReply::json(status, &serde_json::json!({ "error": message }))
    };
    let number = |name: &str| -> worker::Result<Option<u32>> {
        Ok(query(req, name)?.and_then(|v| v.parse().ok()))
    };
    let (Some(file_path), Some(from), Some(to)) =
        (query(req, "path")?, number("from")?, number("to")?)
    else {
        return Ok(refuse(
            400,
            &format!("path, from and to are required: a changed file and new-file line numbers, at most {MAX_CONTEXT_LINES} lines."),
        ));
    };
    let github = super::github_for(env, config, caller);
    let read = match read(env, &github, pull).await {
        Ok(read) => read,
        Err(message) => return Ok(refuse(404, &message)),
    };
    let Some(file) = read
        .snapshot
        .files
        .iter()
        .find(|f| f.path == file_path && f.status != "removed")
    else {
        return Ok(refuse(
            404,
            "This file is not changed at the pull request's head; reload the review page.",
        ));
    };
    let contents_path = RepoPath::new(&pull.owner, &pull.repo)
        .and_then(|repo| path::contents(&repo, &file.path, &read.pull.head.sha));
    let Some(contents_path) = contents_path else {
        return Ok(refuse(404, "This file can't be read from GitHub."));
    };
    let text = match github.get::<Contents>(&contents_path).await {
        Ok(contents) => contents.text(),
        Err(error) => {
            let label = format!("{}/{}#{}", pull.owner, pull.repo, pull.number);
            return Ok(refuse(502, &errors::github_failure(&error, &label)));
        }
    };
    let Some(text) = text else {
        return Ok(refuse(
            422,
            "GitHub sent this file as something other than UTF-8 text (binary, or over 1 MB); open it on GitHub.",
        ));
    };
    match context_lines(file.patch.as_deref(), &text, from, to) {
        Ok((lines, total)) => {
            let lines: Vec<serde_json::Value> = lines
                .iter()
                .map(|line| serde_json::json!({ "old": line.old, "new": line.new, "text": line.text }))
                .collect();
            Ok(HttpReply::json(
                200,
                &serde_json::json!({ "lines": lines, "total": total }),
            ))
        }
        Err(error) => Ok(refuse(400, &error.message())),
    }
}

/// The viewer's read of the pull request, as the page makes it, or the message saying why not.
async fn read(
    env: &Env,
    github: &GitHub<'_>,
    pull: &PullPath,
) -> Result<pull_request::PullRead, String> {
    pull_request::read_pull_with_files(env, github, &pull.owner, &pull.repo, pull.number)
        .await
        .map_err(|error: GitHubError| {
            let label = format!("{}/{}#{}", pull.owner, pull.repo, pull.number);
            errors::github_failure(&error, &label)
        })
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

//! The review page's diff requests, run in the pull request's object: one entry's diff on
//! demand (`…/diff?path=&hunks=&first=`, as its "Load diff" link names it) and lines around a
//! change (`…/context?path=&from=&to=`).
//!
//! Each request is authorized exactly like the page: the viewer's own GitHub read of the
//! repository and the pull request, with the file snapshot (built here once per head), so nobody
//! sees a diff, a comment or a line GitHub would not show them. GitHub requests: the page and a
//! deferred diff add 0 to `MAX_COMMENT_PAGES` (`ceil(review_comments / 100)`, at most 3) for
//! the comments (`review_reads`) and 1 for their threads when the file has comments; context adds
//! 1 (the file's contents at the head). A diff carries the viewer's drafts (from this object's
//! storage) and comment forms.

use super::calls::{ContextQuery, DiffQuery, CSRF_COOKIE_HEADER};
use super::object::{Object, Storage, Viewer};
use super::read::PullRead;
use super::reply::html;
use super::review_reads::{comments, threads};
use crate::errors;
use crate::github::api::{path, Contents, GitHubError, RepoPath};
use crate::github::client::GitHub;
use crate::http::HttpReply;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::ports::sql::SqlError;
use crate::router::PullPath;
use crate::web::review_page::context_lines::context_lines;
use crate::web::review_page::discussion::{Discussion, Forms};
use crate::web::review_page::{diff_view, pull_path};

/// What a diff request asks for: an entry's diff, or lines of context.
#[derive(Debug, Clone, Copy)]
pub enum Asked<'a> {
    Diff(&'a DiffQuery),
    Context(&'a ContextQuery),
}

/// `GET …/diff` and `GET …/context`: one entry point, so both share one read of the pull
/// request (and the wasm one copy of it). `…/diff` with `fragment=1` (the page's script) gets
/// just the diff's HTML to put in place; without it (the link without JavaScript) a page with
/// that one diff.
pub async fn diff<St: Storage, P: Surroundings, T: GitHubTransport>(
    object: &Object<'_, St, P>,
    viewer: &Viewer<'_, T>,
    asked: Asked<'_>,
) -> Result<HttpReply, SqlError> {
    let (call, github, pull) = (viewer.call, viewer.github, viewer.pull);
    let base_url = call.base_url.as_str();
    // Refusals are plain text: the script shows the text, and a browser without it shows it too.
    let refuse =
        |status: u16, message: &str| HttpReply::new(status, "text/plain; charset=utf-8", message);
    let path = match asked {
        Asked::Diff(query) => query.path.as_deref(),
        Asked::Context(query) => query.path.as_deref(),
    };
    let Some(path) = path else {
        return Ok(refuse(
            400,
            "path is required: a file the pull request changes.",
        ));
    };
    let read = match object.viewer_read(viewer).await? {
        Ok(read) => read,
        Err(message) => return Ok(refuse(404, &message)),
    };
    let query = match asked {
        Asked::Diff(query) => query,
        Asked::Context(query) => {
            let range = (query.from, query.to);
            return Ok(
                match context_reply(path, range, github, pull, &read).await {
                    Ok(reply) => reply,
                    Err((status, message)) => refuse(status, &message),
                },
            );
        }
    };
    let hunks: Vec<&str> = query.hunks.iter().map(String::as_str).collect();
    let comments = comments(&object.platform, github, pull, read.pull.review_comments).await;
    let on_file = comments.iter().filter(|c| c.path == path).count();
    let threads = threads(&object.platform, github, pull, on_file).await;
    let drafts = object.records().drafts(&call.person).unwrap_or_default();
    let back = pull_path(&pull.owner, &pull.repo, pull.number);
    let discussion = Discussion {
        forms: Forms::new(&back, &call.csrf, &read.pull.head.sha).may_write(call.may_write),
        drafts: &drafts,
        threads: &threads,
    };
    let Some(fragment) = diff_view::fragment(
        &read.snapshot.files,
        path,
        &hunks,
        query.first,
        &read.pull.html_url,
        &comments,
        &|_, _| String::new(),
        Some(&discussion),
    ) else {
        return Ok(refuse(
            404,
            "The pull request no longer changes this file; reload the review page.",
        ));
    };
    if query.fragment {
        return Ok(html(200, fragment));
    }
    let title = format!("{path} · {}/{}#{}", pull.owner, pull.repo, pull.number);
    Ok(html(
        200,
        diff_view::fragment_page(&title, &back, path, &fragment, (base_url, call.may_write)),
    )
    .with_header(CSRF_COOKIE_HEADER, "1"))
}

/// Lines of the file at the pull request's head that its diff doesn't show, as JSON
/// `{"total": lines in the file, "lines": [[old, new, "text"], …]}`, at most `MAX_CONTEXT_LINES` (20) a request; or
/// the status and message of a refusal.
async fn context_reply<T: GitHubTransport>(
    file_path: &str,
    (from, to): (Option<u32>, Option<u32>),
    github: &GitHub<'_, T>,
    pull: &PullPath,
    read: &PullRead,
) -> Result<HttpReply, (u16, String)> {
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
    // The pull request was just read, so a refusal here is about the file: say which.
    let contents = github
        .get::<Contents>(&contents_path)
        .await
        .map_err(|error| {
            let status = match error {
                GitHubError::NotFound | GitHubError::Forbidden(_) => 404,
                _ => 502,
            };
            (status, errors::github_file_failure(&error, &file.path))
        })?;
    let text = contents.text().ok_or((
        422,
        "GitHub sent this file as something other than UTF-8 text (binary, or over 1 MB); open it on GitHub.".to_string(),
    ))?;
    let (lines, total) = context_lines(
        file.patch.as_deref(),
        &text,
        from.unwrap_or_default(),
        to.unwrap_or_default(),
    )
    .map_err(|error| (400, error.message()))?;
    /// `{"total": N, "lines": [[old, new, "text"], …]}`.
    #[derive(serde::Serialize)]
    struct Reply<'t> {
        total: u32,
        lines: Vec<(u32, u32, &'t str)>,
    }
    let reply = Reply {
        total,
        lines: lines
            .iter()
            .map(|line| (line.old, line.new, line.text))
            .collect(),
    };
    let json = serde_json::to_string(&reply).map_err(|error| (500, error.to_string()))?;
    Ok(HttpReply::new(200, "application/json", json))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

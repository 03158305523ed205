//! Arrange on the web: the page shell at `/r/{owner}/{repo}/pull/{n}/arrange` and the reading of
//! what its editor posts back (issue 6; MCP reference: `save_reading_order`).
//!
//! Why: a reviewer who disagrees with the agent's order should not need an agent to fix it. The
//! editor itself is a static script (`src/static/arrange.js`): the server only renders a shell
//! with the saved order and the pull request's files as JSON data, and reads back
//! `{base_version, order}`. Editing is browser work: moving sections and files, one keystroke at a
//! time, without a round trip per change.
//!
//! What not: no editing (the script does it, and keeps what it does not edit: layers, checks,
//! focus, hunks), no validation of the order (the Worker runs it through the same validator as the
//! tool), no conflict check, no saving, no `worker` types. Without JavaScript the page says that
//! arranging needs it and links back to the review.

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::fmt::Write as _;

use serde_json::{json, Value};

use crate::review::model::snapshot::SnapshotFile;
use crate::review::order::{Order, MAX_NOTE_CHARS, MAX_OVERVIEW_CHARS, MAX_TITLE_CHARS};
use crate::web::html::{escape, page};
use crate::web::review_page::pull_path;

/// The editor's script, a Workers Static Asset.
pub const SCRIPT_PATH: &str = "/static/arrange.js";

/// Everything the arrange page shows. All text is untrusted: it is escaped in the markup and
/// embedded as JSON data with every `<` escaped.
pub struct ArrangePage<'a> {
    pub base_url: &'a str,
    pub owner: &'a str,
    pub repo: &'a str,
    pub number: u64,
    /// The pull request's title.
    pub title: &'a str,
    /// The order of `base_version`: the one being rearranged.
    pub order: &'a Order,
    pub base_version: u64,
    /// The pull request's files now; the editor offers those the order does not list.
    pub files: &'a [SnapshotFile],
    pub csrf: &'a str,
}

/// Renders the page shell as a full document.
pub fn render(arrange: &ArrangePage<'_>) -> String {
    let pull = pull_path(arrange.owner, arrange.repo, arrange.number);
    let files: Vec<Value> = arrange
        .files
        .iter()
        .map(|file| {
            json!({
                "path": file.path,
                "status": file.status,
                "additions": file.additions,
                "deletions": file.deletions,
            })
        })
        .collect();
    let data = json!({
        "pull": pull,
        "action": format!("{pull}/arrange"),
        "baseVersion": arrange.base_version,
        "order": arrange.order,
        "files": files,
        "limits": { "title": MAX_TITLE_CHARS, "note": MAX_NOTE_CHARS, "overview": MAX_OVERVIEW_CHARS },
    });
    let mut out = String::with_capacity(4 * 1024);
    out.push_str("<link rel=\"stylesheet\" href=\"/static/arrange.css\">\n");
    let _ = writeln!(
        out,
        "<p class=\"crumbs\"><a href=\"{0}\">← Back to the review</a></p>\n\
         <h1>Arrange the reading order</h1>\n\
         <p class=\"lead\">{1}/{2}#{3}: {4}</p>\n\
         <p>Move sections and files with the buttons, and edit the overview, titles and notes. \
         Layers, checklists, focus marks and split parts stay as they are. Saving creates version \
         {5}; earlier ones stay in the history.</p>\n\
         <div id=\"arrange-root\"><p class=\"notice\" id=\"arrange-nojs\">Arranging needs \
         JavaScript, which is off or didn't load in this browser. \
         <a href=\"{0}\">Back to the review</a></p></div>\n\
         <input type=\"hidden\" id=\"arrange-csrf\" value=\"{6}\">\n\
         <script type=\"application/json\" id=\"arrange-data\">{7}</script>\n\
         <script src=\"{SCRIPT_PATH}\" defer></script>",
        escape(&pull),
        escape(arrange.owner),
        escape(arrange.repo),
        arrange.number,
        escape(arrange.title),
        arrange.base_version + 1,
        escape(arrange.csrf),
        script_json(&data),
    );
    let title = format!(
        "Arrange {}/{}#{}",
        arrange.owner, arrange.repo, arrange.number
    );
    page(&title, &out, arrange.base_url)
}

/// JSON for a `<script type="application/json">` element: every `<` is written `\u003c`, so no
/// text in it can close the element or open a comment.
fn script_json(value: &Value) -> String {
    value.to_string().replace('<', "\\u003c")
}

/// What the editor posts: the version it started from and the order in the `save_reading_order`
/// shape (checked by the caller with the tool's validator).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Submission {
    pub base_version: u64,
    pub order: Value,
}

/// Reads the editor's JSON body `{ "base_version": n, "order": {...} }`.
pub fn submission(body: &[u8]) -> Result<Submission, String> {
    let Some(Value::Object(mut fields)) = crate::json::value(body) else {
        return Err("the request must be a JSON object with base_version and order".into());
    };
    let base_version = match fields.get("base_version") {
        Some(version) => version
            .as_u64()
            .ok_or("base_version must be a whole number")?,
        None => return Err("base_version is required".into()),
    };
    match fields.remove("order") {
        Some(order @ Value::Object(_)) => Ok(Submission {
            base_version,
            order,
        }),
        Some(_) => Err("order must be an object with sections".into()),
        None => Err("order is required".into()),
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::panic)]
mod tests;

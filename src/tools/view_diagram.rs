//! `view_diagram` (app-only): the saved flow diagram with its layout computed on the server by
//! `review::layout`, the same layout the review page's **Diagram** tab draws.
//!
//! Why: the view draws the diagram with DOM APIs (`createElementNS`, `textContent`) from numbers
//! and strings, never from an SVG string the server wrote, so no diagram text can become markup;
//! and the layout stays one piece of Rust rather than a second copy in the view's script.
//!
//! What not: no colours (the view owns its style), no drawing (`src/static/diagram.js`, inlined
//! into the view), no links (the view maps a node's file to the entry in its own list).

use serde::Serialize;
use serde_json::Value;

use super::get_pull_request::review_url;
use super::show_reading_order::ViewTarget;
use crate::github::api::PullRequest;
use crate::review::layout::{self, Layout, METRICS};
use crate::review::model::saved::{updated_by, SavedRecord};

/// The answer; everything but the URL and the (null) layout is left out when no diagram is saved.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Answer<'a> {
    version: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    updated_by: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    updated_at: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    saved_before_latest_commits: Option<bool>,
    diagram_url: String,
    layout: Option<Layout>,
}

/// The result: the diagram's version and layout, or `version` 0 and a null layout when none is
/// saved (the view then says so instead of failing).
pub fn shape_result(
    target: &ViewTarget,
    base_url: &str,
    pull: &PullRequest,
    record: Option<&SavedRecord>,
) -> String {
    let answer = Answer {
        version: record.map_or(0, |r| r.version),
        updated_by: record.map(updated_by),
        updated_at: record.map(|r| r.saved_at.as_str()),
        saved_before_latest_commits: record.map(|r| r.head_sha != pull.head.sha),
        diagram_url: format!(
            "{}#diagram",
            review_url(base_url, &target.owner, &target.repo, target.number)
        ),
        layout: record.map(|r| layout::layout(&layout::input_from_json(&r.body))),
    };
    // The metrics join the answer as the text they are: a struct's JSON ends with its `}`.
    let mut text = super::answer::to_json(&answer);
    if text.ends_with('}') {
        text.pop();
        text.push_str(",\"metrics\":");
        text.push_str(METRICS);
        text.push('}');
    }
    text
}

#[cfg(test)]
mod tests;

#[cfg(test)]
#[test]
fn metrics_are_the_layouts_constants() {
    let metrics: Value = serde_json::from_str(METRICS).unwrap_or(Value::Null);
    let expected = [
        ("titleFontPx", layout::TITLE_FONT_PX),
        ("titleLinePx", layout::TITLE_LINE_PX),
        ("rowFontPx", layout::ROW_FONT_PX),
        ("rowLinePx", layout::ROW_LINE_PX),
        ("rowCharPx", layout::ROW_CHAR_PX),
        ("rowsGapPx", layout::ROWS_GAP_PX),
        ("nodePadX", layout::NODE_PAD_X),
        ("nodePadY", layout::NODE_PAD_Y),
        ("labelFontPx", layout::LABEL_FONT_PX),
        ("labelCharPx", layout::LABEL_CHAR_PX),
        ("labelPadX", layout::LABEL_PAD_X),
        ("labelHPx", layout::LABEL_H_PX),
        ("groupTitlePx", layout::GROUP_TITLE_PX),
        ("decisionInsetPx", layout::DECISION_INSET_PX),
        ("dataCapPx", layout::DATA_CAP_PX),
    ];
    assert_eq!(metrics.as_object().map(|m| m.len()), Some(expected.len()));
    for (key, value) in expected {
        assert_eq!(metrics[key].as_f64(), Some(value), "{key}");
    }
}

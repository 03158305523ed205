//! The MCP Apps tools as one family: `show_reading_order` and the view's app-only tools
//! (`view_reading_order`, `view_diagram`, `view_change`) read the same things (the pull request
//! as the caller sees it and what is saved for it), so the adapter reads them in one place
//! (`app::pull_request::tools`, in the pull request's object) and this module decides what
//! each call needs and shapes its answer.
//!
//! Why one family: the four need the same reads, so one reader serves all four;
//! `view_reading_order` alone also reads the review threads (`wants_threads`).

use serde_json::{Map, Value};

use super::show_reading_order::{self as show, ViewTarget};
use super::{view_change, view_diagram, view_reading_order};
use crate::github::api::PullRequest;
use crate::github::review_threads::Review;
use crate::mcp::catalog::ToolName;
use crate::review::model::saved::{CurrentState, SavedRecord};
use crate::review::model::snapshot::Snapshot;

/// A parsed call of one of the family's tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewCall {
    Show(ViewTarget),
    Order(ViewTarget),
    Diagram(ViewTarget),
    Change(view_change::Args),
}

impl ViewCall {
    /// The call, or the message about its arguments; `None` when `tool` is not of the family.
    pub fn parse(tool: ToolName, args: &Map<String, Value>) -> Option<Result<ViewCall, String>> {
        Some(match tool {
            ToolName::ShowReadingOrder => show::parse_args(args, true).map(ViewCall::Show),
            ToolName::ViewReadingOrder => show::parse_args(args, true).map(ViewCall::Order),
            ToolName::ViewDiagram => show::parse_args(args, false).map(ViewCall::Diagram),
            ToolName::ViewChange => view_change::parse_args(args).map(ViewCall::Change),
            _ => return None,
        })
    }

    pub fn target(&self) -> &ViewTarget {
        match self {
            ViewCall::Show(target) | ViewCall::Order(target) | ViewCall::Diagram(target) => target,
            ViewCall::Change(args) => &args.target,
        }
    }

    /// Whether the call shows a saved reading order (and fails without one).
    pub fn wants_order(&self) -> bool {
        matches!(self, ViewCall::Show(_) | ViewCall::Order(_))
    }

    /// Whether the call shows the review threads beside the order (`view_reading_order`): only it
    /// costs the GraphQL request.
    pub fn wants_threads(&self) -> bool {
        matches!(self, ViewCall::Order(_))
    }

    /// Which order version must be read from history, when the latest (in `current`) is not the
    /// one asked for; an error when there is nothing to show. `None` for calls without an order.
    pub fn version_to_read(&self, current: &CurrentState) -> Result<Option<u64>, String> {
        if !self.wants_order() {
            return Ok(None);
        }
        show::version_to_read(
            self.target(),
            current.order.as_ref().map(|record| record.version),
        )
    }
}

/// What the adapter read for a call.
pub struct ViewData<'a> {
    pub base_url: &'a str,
    pub pull: &'a PullRequest,
    pub snapshot: &'a Snapshot,
    pub current: &'a CurrentState,
    /// The order version read from history, when [`ViewCall::version_to_read`] asked for one.
    pub older_order: Option<&'a SavedRecord>,
    /// The review threads, read for `view_reading_order` alone ([`ViewCall::wants_threads`]);
    /// `None` when not read or when GitHub's read failed.
    pub review: Option<&'a Review>,
}

/// The call's answer (`structuredContent`, as JSON text), or the message the agent or the view
/// is shown.
pub fn answer(call: &ViewCall, data: &ViewData<'_>) -> Result<String, String> {
    let current = data.current;
    let latest_version = current.order.as_ref().map_or(0, |record| record.version);
    let diagram_version = current.diagram.as_ref().map_or(0, |record| record.version);
    // The version asked for: an older one must have been read; it is never replaced by the latest.
    let order = || -> Result<&SavedRecord, String> {
        let target = call.target();
        let missing =
            || show::no_such_version(&target.label(), target.version.unwrap_or(0), latest_version);
        match call.version_to_read(current)? {
            Some(_) => data.older_order.ok_or_else(missing),
            None => current.order.as_ref().ok_or_else(missing),
        }
    };
    Ok(match call {
        ViewCall::Show(target) => show::shape_result(show::ShowInputs {
            target,
            base_url: data.base_url,
            pull: data.pull,
            record: order()?,
            latest_version,
            diagram_version,
        }),
        ViewCall::Order(target) => {
            view_reading_order::shape_result(view_reading_order::ViewInputs {
                target,
                base_url: data.base_url,
                pull: data.pull,
                snapshot: data.snapshot,
                record: order()?,
                latest_version,
                diagram_version,
                review: data.review,
            })
        }
        ViewCall::Diagram(target) => {
            view_diagram::shape_result(target, data.base_url, data.pull, current.diagram.as_ref())
        }
        ViewCall::Change(args) => view_change::shape_result(args, &data.snapshot.files)?,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::tools::show_reading_order::tests::{order_body, pull, record, snapshot};

    /// The answer parsed, as a host reads it.
    fn answer(call: &ViewCall, data: &ViewData<'_>) -> Result<Value, String> {
        super::answer(call, data).map(|text| serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn only_the_family_parses() {
        let pr = args(json!({ "owner": "acme", "repo": "app", "number": 7 }));
        assert!(ViewCall::parse(ToolName::GetPullRequest, &pr).is_none());
        assert!(ViewCall::parse(ToolName::SaveDiagram, &pr).is_none());
        let show = ViewCall::parse(ToolName::ShowReadingOrder, &pr);
        assert!(matches!(show, Some(Ok(ViewCall::Show(_)))));
        let order = ViewCall::parse(ToolName::ViewReadingOrder, &pr);
        assert!(matches!(&order, Some(Ok(call)) if call.wants_order()));
        let diagram = ViewCall::parse(ToolName::ViewDiagram, &pr);
        assert!(matches!(&diagram, Some(Ok(call)) if !call.wants_order()));
        // Only the order the view shows costs the review threads' GraphQL request.
        let wants = |tool| {
            ViewCall::parse(tool, &pr)
                .and_then(Result::ok)
                .is_some_and(|call| call.wants_threads())
        };
        assert!(wants(ToolName::ViewReadingOrder));
        assert!(!wants(ToolName::ShowReadingOrder) && !wants(ToolName::ViewDiagram));
        let change = ViewCall::parse(ToolName::ViewChange, &pr);
        assert!(matches!(change, Some(Err(message)) if message.contains("path is required")));
    }

    #[test]
    fn an_order_is_needed_only_where_one_is_shown() {
        let pr = args(json!({ "owner": "acme", "repo": "app", "number": 7, "version": 2 }));
        let empty = CurrentState::default();
        let show = ViewCall::parse(ToolName::ShowReadingOrder, &pr)
            .and_then(Result::ok)
            .map(|call| call.version_to_read(&empty));
        assert!(
            matches!(show, Some(Err(message)) if message.starts_with("No reading order is saved"))
        );
        let saved = CurrentState {
            order: Some(record(3, order_body(), "h")),
            diagram: None,
        };
        let show = ViewCall::parse(ToolName::ShowReadingOrder, &pr)
            .and_then(Result::ok)
            .map(|call| call.version_to_read(&saved));
        assert_eq!(show, Some(Ok(Some(2))));
        let pr = args(json!({ "owner": "acme", "repo": "app", "number": 7 }));
        let diagram = ViewCall::parse(ToolName::ViewDiagram, &pr)
            .and_then(Result::ok)
            .map(|call| call.version_to_read(&empty));
        assert_eq!(diagram, Some(Ok(None)));
    }

    #[test]
    fn an_older_version_that_could_not_be_read_is_not_replaced_by_the_latest() {
        let pr = args(json!({ "owner": "acme", "repo": "app", "number": 7, "version": 2 }));
        let current = CurrentState {
            order: Some(record(3, order_body(), "h")),
            diagram: None,
        };
        let snapshot = snapshot();
        let pull = pull("h");
        let older = record(2, order_body(), "h");
        let call = ViewCall::parse(ToolName::ShowReadingOrder, &pr).and_then(Result::ok);
        let answer_with = |older_order| {
            let data = ViewData {
                base_url: "https://x.dev",
                pull: &pull,
                snapshot: &snapshot,
                current: &current,
                older_order,
                review: None,
            };
            call.as_ref().map(|call| answer(call, &data))
        };
        let missing = answer_with(None);
        assert!(
            matches!(&missing, Some(Err(message)) if message.contains("no reading order version 2")),
            "{missing:?}"
        );
        let found = answer_with(Some(&older)).and_then(Result::ok);
        assert_eq!(found.map(|v| v["version"].clone()), Some(json!(2)));
    }

    #[test]
    fn answers_come_from_what_was_read() {
        let pr = args(json!({ "owner": "acme", "repo": "app", "number": 7 }));
        let current = CurrentState {
            order: Some(record(3, order_body(), "h")),
            diagram: None,
        };
        let snapshot = snapshot();
        let pull = pull("h");
        let data = ViewData {
            base_url: "https://x.dev",
            pull: &pull,
            snapshot: &snapshot,
            current: &current,
            older_order: None,
            review: None,
        };
        let answer_for = |tool| {
            ViewCall::parse(tool, &pr)
                .and_then(Result::ok)
                .map(|call| answer(&call, &data))
        };
        let shown = answer_for(ToolName::ShowReadingOrder).and_then(Result::ok);
        assert_eq!(shown.map(|v| v["version"].clone()), Some(json!(3)));
        let order = answer_for(ToolName::ViewReadingOrder).and_then(Result::ok);
        assert_eq!(
            order.map(|v| v["order"]["sections"][0]["title"].clone()),
            Some(json!("Flag"))
        );
        let diagram = answer_for(ToolName::ViewDiagram).and_then(Result::ok);
        assert_eq!(diagram.map(|v| v["layout"].clone()), Some(Value::Null));
    }

    #[test]
    fn the_review_threads_read_go_to_the_order_alone() {
        let pr = args(json!({ "owner": "acme", "repo": "app", "number": 7 }));
        let current = CurrentState {
            order: Some(record(3, order_body(), "h")),
            diagram: None,
        };
        let snapshot = snapshot();
        let pull = pull("h");
        let review = Review::default();
        let answer_for = |tool, review| {
            let data = ViewData {
                base_url: "https://x.dev",
                pull: &pull,
                snapshot: &snapshot,
                current: &current,
                older_order: None,
                review,
            };
            ViewCall::parse(tool, &pr)
                .and_then(Result::ok)
                .and_then(|call| answer(&call, &data).ok())
                .unwrap_or(Value::Null)
        };
        let read = answer_for(ToolName::ViewReadingOrder, Some(&review));
        assert_eq!(read["reviewThreads"]["read"], true);
        assert_eq!(read["reviewThreads"]["sections"][1]["open"], 0);
        let failed = answer_for(ToolName::ViewReadingOrder, None);
        assert_eq!(failed["reviewThreads"]["read"], false);
        assert_eq!(
            failed["order"]["sections"][0]["title"], "Flag",
            "the order still shows"
        );
        let shown = answer_for(ToolName::ShowReadingOrder, Some(&review));
        assert!(shown.get("reviewThreads").is_none());
    }
}

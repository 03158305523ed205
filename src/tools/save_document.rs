//! The document a save carries (an order or a diagram), the words its messages use, and the
//! check of a save's arguments that needs no pull request: the two save tools share one path
//! (`app::pull_request::saves`), and what differs between them is chosen here by the
//! [`DocumentKind`], as values rather than type parameters, so the path is written once.
//!
//! Why its own module: a save's arguments are read once, in the pull request's object
//! ([`checked`], before any GitHub request); the Worker reads only their target
//! (`tools::pull_target`), and this same check words its refusal when that is wrong.

use serde_json::{Map, Value};

use super::save_reading_order::{self as save, SaveTarget};
use crate::review::diagram::{check_diagram, diagram_shape, Diagram};
use crate::review::model::saved::DocumentKind;
use crate::review::order::{check_order, order_shape, Order, PullFacts};

/// How a save's messages name its document (the MCP reference's Errors table).
pub struct Words {
    /// Starts the message for problems found before the pull request is read.
    pub invalid: &'static str,
    /// The message for a document that is missing although no problem was found (not reached).
    pub missing: &'static str,
    /// The document in the write-access refusal.
    pub what: &'static str,
    /// Before "version" in a conflict ("saved diagram version 2"), and the result field whose
    /// version to build on.
    pub conflict_document: &'static str,
    pub base_field: &'static str,
}

impl Words {
    pub fn of(kind: DocumentKind) -> Words {
        match kind {
            DocumentKind::Order => Words {
                invalid: "The order is invalid",
                missing: "The order is invalid: sections is required",
                what: "an order",
                conflict_document: "",
                base_field: "baseVersion",
            },
            DocumentKind::Diagram => Words {
                invalid: "The diagram is invalid",
                missing: "The diagram is invalid: diagram is required",
                what: "a diagram",
                conflict_document: "diagram ",
                base_field: "diagramBaseVersion",
            },
        }
    }
}

/// The document a save carries.
pub enum Document {
    Order(Order),
    Diagram(Diagram),
}

impl Document {
    /// Reads the document's shape from the arguments, once, before any GitHub request: the
    /// document, or every problem that needs no pull request (for a diagram, unknown keys first).
    fn read(kind: DocumentKind, args: &Map<String, Value>) -> Result<Document, Vec<String>> {
        match kind {
            DocumentKind::Order => {
                order_shape(&save::document_arguments(args)).map(Document::Order)
            }
            DocumentKind::Diagram => {
                let mut problems = save::unknown_diagram_keys(args);
                match save::diagram_argument(args) {
                    Ok(input) => match diagram_shape(input) {
                        Ok(diagram) if problems.is_empty() => Ok(Document::Diagram(diagram)),
                        Ok(_) => Err(problems),
                        Err(shape) => {
                            problems.extend(shape);
                            Err(problems)
                        }
                    },
                    Err(problem) => {
                        problems.push(problem);
                        Err(problems)
                    }
                }
            }
        }
    }

    /// Checks the document against the pull request's files: the message when it does not fit.
    pub fn check(self, facts: &PullFacts) -> Result<Document, String> {
        match self {
            Document::Order(order) => check_order(order, facts)
                .map(Document::Order)
                .map_err(|rejection| rejection.message()),
            Document::Diagram(diagram) => check_diagram(diagram, facts)
                .map(Document::Diagram)
                .map_err(|rejection| rejection.message()),
        }
    }

    /// The stored form: an order with its checklist identities, a diagram as it is.
    pub fn body(&self) -> Value {
        match self {
            Document::Order(order) => save::stored_order(order),
            Document::Diagram(diagram) => serde_json::to_value(diagram).unwrap_or_default(),
        }
    }
}

/// A save's document and target from its arguments, or the one message with every problem
/// that needs no pull request (the target's first, then the document's shape).
pub fn checked(
    kind: DocumentKind,
    args: &Map<String, Value>,
) -> Result<(Document, SaveTarget), String> {
    let words = Words::of(kind);
    let (document, problems) = match Document::read(kind, args) {
        Ok(document) => (Some(document), Vec::new()),
        Err(problems) => (None, problems),
    };
    let target = save::checked_target(args, problems, words.invalid)?;
    match document {
        Some(document) => Ok((document, target)),
        // Not reached: a shape problem is reported with the target's above.
        None => Err(words.missing.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Map<String, Value> {
        match serde_json::from_str(text) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        }
    }

    #[test]
    fn target_problems_come_before_the_documents() {
        let refused = checked(DocumentKind::Order, &args(r#"{"owner":"acme"}"#));
        let Err(message) = refused else {
            panic!("a call without repo, number and sections was accepted")
        };
        assert!(message.starts_with("The order is invalid"), "{message}");
        let repo = message.find("repo").unwrap_or(usize::MAX);
        let sections = message.find("sections").unwrap_or(0);
        assert!(repo < sections, "{message}");
    }

    #[test]
    fn a_diagram_save_names_its_document() {
        let refused = checked(
            DocumentKind::Diagram,
            &args(r#"{"owner":"acme","repo":"app","number":1,"base_version":0}"#),
        );
        let Err(message) = refused else {
            panic!("a diagram save without a diagram was accepted")
        };
        assert!(message.starts_with("The diagram is invalid"), "{message}");
    }
}

//! What is stored for a pull request, and the messages between the tools and its Durable Object.
//!
//! The object stores every version of the reading order and of the diagram, append-only, and
//! decides `base_version` conflicts: a save whose base is not the latest version writes nothing.
//! These types are shared by the object (wasm) and the tools (pure), so both sides agree.
//!
//! Why here, not in `tools`: the saved versions are the review's records; the review page
//! (`web`), the object (`store`, `app`) and the tools all read and write them (issue #37).
//! What not: the SQL that stores them, or a tool's answer built from them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Which of the two versioned documents a save or read is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DocumentKind {
    Order,
    Diagram,
}

impl DocumentKind {
    pub fn table(self) -> &'static str {
        match self {
            DocumentKind::Order => "orders",
            DocumentKind::Diagram => "diagrams",
        }
    }
}

/// One stored version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedRecord {
    pub version: u64,
    /// The validated document as saved (order with checklist ids, or diagram).
    pub body: Value,
    /// GitHub login of the person who saved it.
    pub person: String,
    /// The agent's client name, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client: Option<String>,
    /// `agent` (an MCP tool) or `web` (the review page).
    pub source: String,
    /// The pull request's head commit when it was saved.
    pub head_sha: String,
    /// RFC 3339 time of the save.
    pub saved_at: String,
}

/// A save request to the object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SaveRequest {
    pub kind: DocumentKind,
    pub base_version: u64,
    pub body: Value,
    pub person: String,
    pub client: Option<String>,
    pub source: String,
    pub head_sha: String,
    pub saved_at: String,
}

/// The object's answer to a save.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "lowercase")]
pub enum SaveOutcome {
    /// `has_diagram`: a diagram is saved for the pull request once this save is done (the
    /// order's next step depends on it; answered here, it saves a second call to the object).
    Saved {
        version: u64,
        #[serde(default, deserialize_with = "crate::json::or_default")]
        has_diagram: bool,
    },
    Conflict {
        latest: VersionSummary,
    },
}

/// A version without its body, for conflicts and history lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VersionSummary {
    pub version: u64,
    pub person: String,
    pub client: Option<String>,
    pub source: String,
    pub head_sha: String,
    pub saved_at: String,
}

/// The latest order and diagram.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CurrentState {
    pub order: Option<SavedRecord>,
    pub diagram: Option<SavedRecord>,
}

/// Decides a save against the latest stored version: the one rule of optimistic concurrency.
pub fn decide_save(
    latest: Option<&VersionSummary>,
    base_version: u64,
) -> Result<u64, Box<VersionSummary>> {
    let latest_version = latest.map_or(0, |summary| summary.version);
    if base_version == latest_version {
        Ok(latest_version + 1)
    } else {
        Err(Box::new(latest.cloned().unwrap_or(VersionSummary {
            version: 0,
            person: String::new(),
            client: None,
            source: String::new(),
            head_sha: String::new(),
            saved_at: String::new(),
        })))
    }
}

/// `updatedBy` as the spec shapes it.
pub fn updated_by(record: &SavedRecord) -> Value {
    let mut by = serde_json::json!({ "person": record.person });
    if let Some(client) = &record.client {
        by["client"] = Value::String(client.clone());
    }
    by
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(version: u64) -> VersionSummary {
        VersionSummary {
            version,
            person: "octo".into(),
            client: None,
            source: "agent".into(),
            head_sha: "abc".into(),
            saved_at: "2026-11-29T00:00:00Z".into(),
        }
    }

    #[test]
    fn saves_need_the_latest_base() {
        assert_eq!(decide_save(None, 0), Ok(1));
        assert_eq!(decide_save(None, 1).map_err(|s| s.version), Err(0));
        assert_eq!(decide_save(Some(&summary(3)), 3), Ok(4));
        assert_eq!(
            decide_save(Some(&summary(3)), 2).map_err(|s| s.version),
            Err(3)
        );
        assert_eq!(
            decide_save(Some(&summary(3)), 4).map_err(|s| s.version),
            Err(3)
        );
    }

    #[test]
    fn outcomes_round_trip() {
        let saved = SaveOutcome::Saved {
            version: 2,
            has_diagram: true,
        };
        let text = serde_json::to_string(&saved).unwrap_or_default();
        assert_eq!(
            text,
            r#"{"outcome":"saved","version":2,"has_diagram":true}"#
        );
        assert_eq!(round_trip(&saved), saved);
        let conflict = SaveOutcome::Conflict { latest: summary(5) };
        assert_eq!(round_trip(&conflict), conflict);
        let mut with_client = summary(6);
        with_client.client = Some("Claude".into());
        let conflict = SaveOutcome::Conflict {
            latest: with_client,
        };
        assert_eq!(round_trip(&conflict), conflict);
        let unknown = crate::json::read::<SaveOutcome>(&serde_json::json!({"outcome": "lost"}));
        assert_eq!(
            unknown.err().map(|e| e.to_string()).as_deref(),
            Some("unknown variant `lost`, expected `saved` or `conflict` at line 1 column 17, after `{\"outcome\":\"lost\"`")
        );
    }

    /// Writes with serde, reads back with `json::read`: a field name spelled differently fails here.
    fn round_trip<T: Serialize + serde::de::DeserializeOwned>(value: &T) -> T {
        let json = serde_json::to_value(value).unwrap_or_default();
        crate::json::read::<T>(&json).unwrap_or_else(|e| panic!("{e}"))
    }

    fn record(client: Option<&str>) -> SavedRecord {
        SavedRecord {
            version: 4,
            body: serde_json::json!({"steps": [{"title": "Model"}]}),
            person: "octo".into(),
            client: client.map(str::to_string),
            source: "web".into(),
            head_sha: "h".repeat(40),
            saved_at: "2026-11-29T00:00:00Z".into(),
        }
    }

    #[test]
    fn records_and_requests_round_trip() {
        for client in [Some("Claude"), None] {
            let state = CurrentState {
                order: Some(record(client)),
                diagram: None,
            };
            assert_eq!(round_trip(&state), state);
            let both = CurrentState {
                diagram: Some(record(client)),
                ..state
            };
            assert_eq!(round_trip(&both), both);
            for kind in [DocumentKind::Order, DocumentKind::Diagram] {
                let request = SaveRequest {
                    kind,
                    base_version: 3,
                    body: serde_json::json!({"nodes": []}),
                    person: "octo".into(),
                    client: client.map(str::to_string),
                    source: "agent".into(),
                    head_sha: "abc".into(),
                    saved_at: "2026-11-29T00:00:00Z".into(),
                };
                assert_eq!(round_trip(&request), request);
            }
        }
        assert_eq!(
            round_trip(&CurrentState::default()),
            CurrentState::default()
        );
        assert_eq!(
            round_trip(&vec![summary(2), summary(1)]),
            vec![summary(2), summary(1)]
        );
    }

    #[test]
    fn reading_follows_the_stored_shapes() {
        // A body saved as `null` reads back as `null`; a missing body is an error.
        let mut stored = serde_json::to_value(record(None)).unwrap_or_default();
        stored["body"] = Value::Null;
        assert_eq!(
            crate::json::read::<SavedRecord>(&stored).map(|r| r.body),
            Ok(Value::Null)
        );
        if let Some(fields) = stored.as_object_mut() {
            fields.remove("body");
        }
        assert!(crate::json::read::<SavedRecord>(&stored).is_err());
        let kind = crate::json::read::<DocumentKind>(&serde_json::json!("Order"));
        assert_eq!(
            kind.err().map(|e| e.to_string()).as_deref(),
            Some("unknown variant `Order`, expected `order` or `diagram` at line 1 column 7, after `\"Order\"`")
        );
    }
}

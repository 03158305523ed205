//! What is stored for a pull request, and the messages between the tools and its Durable Object.
//!
//! The object stores every version of the reading order and of the diagram, append-only, and
//! decides `base_version` conflicts: a save whose base is not the latest version writes nothing.
//! These types are shared by the object (wasm) and the tools (pure), so both sides agree.

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
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
    #[serde(default)]
    pub client: Option<String>,
    pub source: String,
    pub head_sha: String,
    pub saved_at: String,
}

/// The object's answer to a save.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "lowercase")]
pub enum SaveOutcome {
    Saved { version: u64 },
    Conflict { latest: VersionSummary },
}

/// A version without its body, for conflicts and history lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VersionSummary {
    pub version: u64,
    pub person: String,
    #[serde(default)]
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
        let saved = SaveOutcome::Saved { version: 2 };
        let text = serde_json::to_string(&saved).unwrap_or_default();
        assert_eq!(text, r#"{"outcome":"saved","version":2}"#);
        let conflict = SaveOutcome::Conflict { latest: summary(5) };
        let back: SaveOutcome =
            serde_json::from_str(&serde_json::to_string(&conflict).unwrap_or_default())
                .expect("round trip");
        assert_eq!(back, conflict);
    }
}

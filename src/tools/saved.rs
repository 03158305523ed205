//! What is stored for a pull request, and the messages between the tools and its Durable Object.
//!
//! The object stores every version of the reading order and of the diagram, append-only, and
//! decides `base_version` conflicts: a save whose base is not the latest version writes nothing.
//! These types are shared by the object (wasm) and the tools (pure), so both sides agree.

use serde::Serialize;
use serde_json::Value;

use crate::json::compact::Compact;
use crate::json::{DecodeError, Fields, FromJson};

/// Which of the two versioned documents a save or read is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DocumentKind {
    Order,
    Diagram,
}

impl FromJson for DocumentKind {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        crate::json::from_name(value, |name| match name {
            "order" => Some(DocumentKind::Order),
            "diagram" => Some(DocumentKind::Diagram),
            _ => None,
        })
    }
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
#[derive(Debug, Clone, PartialEq, Serialize)]
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

impl FromJson for SavedRecord {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(SavedRecord {
            version: f.required("version")?,
            body: f.required("body")?,
            person: f.required("person")?,
            client: f.optional("client")?,
            source: f.required("source")?,
            head_sha: f.required("head_sha")?,
            saved_at: f.required("saved_at")?,
        })
    }
}

/// A save request to the object.
#[derive(Debug, Clone, PartialEq, Serialize)]
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

/// Reads a save request in any form (`SaveText::read`'s fallback).
impl FromJson for SaveRequest {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(SaveRequest {
            kind: f.required("kind")?,
            base_version: f.required("base_version")?,
            body: f.required("body")?,
            person: f.required("person")?,
            client: f.optional("client")?,
            source: f.required("source")?,
            head_sha: f.required("head_sha")?,
            saved_at: f.required("saved_at")?,
        })
    }
}

/// A save request as the object reads it: the body as the JSON text it stores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveText {
    pub kind: DocumentKind,
    pub base_version: u64,
    /// The document as `serde_json` writes it, which is the text the object stores.
    pub body: String,
    pub person: String,
    pub client: Option<String>,
    pub source: String,
    pub head_sha: String,
    pub saved_at: String,
}

impl SaveText {
    /// Reads a save request: in the form its writer ([`SaveRequest`]'s `Serialize`) gives it,
    /// straight, the body's text kept as it came; any other text through `json::decode`, the
    /// body written again, as before.
    ///
    /// Why: parsing a 50-section order into a `Value` tree and writing it again to store it was
    /// a tenth of a save's isolate time (issue #19). `Compact::value` reads only text that
    /// writing the parsed body again would give, so the stored record is the same, byte for byte.
    pub fn read(text: &str) -> Result<SaveText, DecodeError> {
        match SaveText::compact(text) {
            Some(request) => Ok(request),
            None => crate::json::decode::<SaveRequest>(text).map(|request| SaveText {
                kind: request.kind,
                base_version: request.base_version,
                body: request.body.to_string(),
                person: request.person,
                client: request.client,
                source: request.source,
                head_sha: request.head_sha,
                saved_at: request.saved_at,
            }),
        }
    }

    /// The request in the compact form, fields in `SaveRequest`'s order; `None` for any other.
    fn compact(text: &str) -> Option<SaveText> {
        let mut r = Compact::new(text);
        r.expect("{\"kind\":");
        let kind = match r.string().as_str() {
            "order" => DocumentKind::Order,
            "diagram" => DocumentKind::Diagram,
            _ => return None,
        };
        r.expect(",\"base_version\":");
        let base_version = r.u64();
        r.expect(",\"body\":");
        let body = r.value().to_string();
        r.expect(",\"person\":");
        let person = r.string();
        r.expect(",\"client\":");
        let client = (!r.word("null")).then(|| r.string());
        r.expect(",\"source\":");
        let source = r.string();
        r.expect(",\"head_sha\":");
        let head_sha = r.string();
        r.expect(",\"saved_at\":");
        let saved_at = r.string();
        r.expect("}");
        r.finish()?;
        Some(SaveText {
            kind,
            base_version,
            body,
            person,
            client,
            source,
            head_sha,
            saved_at,
        })
    }
}

/// The object's answer to a save.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "lowercase")]
pub enum SaveOutcome {
    /// `has_diagram`: a diagram is saved for the pull request once this save is done (the
    /// order's next step depends on it; answered here, it saves a second call to the object).
    Saved {
        version: u64,
        has_diagram: bool,
    },
    Conflict {
        latest: VersionSummary,
    },
}

/// Internally tagged: `outcome` names the variant, and its fields sit beside it.
impl FromJson for SaveOutcome {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        let outcome: String = f.required("outcome")?;
        match outcome.as_str() {
            "saved" => Ok(SaveOutcome::Saved {
                version: f.required("version")?,
                has_diagram: f.or_default("has_diagram")?,
            }),
            "conflict" => Ok(SaveOutcome::Conflict {
                latest: f.required("latest")?,
            }),
            other => Err(crate::json::unknown_variant(other)),
        }
    }
}

/// A version without its body, for conflicts and history lists.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VersionSummary {
    pub version: u64,
    pub person: String,
    pub client: Option<String>,
    pub source: String,
    pub head_sha: String,
    pub saved_at: String,
}

impl FromJson for VersionSummary {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(VersionSummary {
            version: f.required("version")?,
            person: f.required("person")?,
            client: f.optional("client")?,
            source: f.required("source")?,
            head_sha: f.required("head_sha")?,
            saved_at: f.required("saved_at")?,
        })
    }
}

/// The latest order and diagram.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CurrentState {
    pub order: Option<SavedRecord>,
    pub diagram: Option<SavedRecord>,
}

impl FromJson for CurrentState {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(CurrentState {
            order: f.optional("order")?,
            diagram: f.optional("diagram")?,
        })
    }
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
        let unknown = SaveOutcome::from_json(serde_json::json!({"outcome": "lost"}));
        assert_eq!(
            unknown.err().map(|e| e.to_string()).as_deref(),
            Some("unknown variant \"lost\"")
        );
    }

    /// Writes with serde, reads with `FromJson`: a field name spelled differently fails here.
    fn round_trip<T: Serialize + FromJson>(value: &T) -> T {
        let json = serde_json::to_value(value).unwrap_or_default();
        T::from_json(json).unwrap_or_else(|e| panic!("{e}"))
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

    fn request(kind: DocumentKind, client: Option<&str>, body: Value) -> SaveRequest {
        SaveRequest {
            kind,
            base_version: 12,
            body,
            person: "octo-cat".into(),
            client: client.map(str::to_string),
            source: "agent".into(),
            head_sha: "a".repeat(40),
            saved_at: "2026-11-29T00:00:00Z".into(),
        }
    }

    fn order_body() -> Value {
        serde_json::json!({
            "overview": "Start with `flags`: \"quoted\", tabbed\t, é 日本 🦀.",
            "sections": [
                {"title": "One", "layer": "logic", "note": "Line one\nline two\r\n", "checks": ["a", "b\\c"],
                 "files": [{"path": "src/a b.rs", "note": "n", "focus": "key", "hunks": ["h1", "h2"]}]},
                {"files": [{"path": "x/y.rs"}]},
            ],
            "checklist": [{"id": "c1k2", "scope": "section:One", "text": "a"}],
        })
    }

    fn diagram_body() -> Value {
        serde_json::json!({
            "title": null,
            "nodes": [{"id": "a", "title": "A", "kind": "logic", "lines": [{"label": "l", "text": "t"}]}],
            "edges": [{"from": "a", "to": "b", "dashed": true, "label": "x/y"}],
            "groups": [],
        })
    }

    /// The object's reading as it was: `decode`, then the body written again to store it.
    fn read_before(text: &str) -> Option<SaveText> {
        let request = crate::json::decode::<SaveRequest>(text).ok()?;
        Some(SaveText {
            kind: request.kind,
            base_version: request.base_version,
            body: request.body.to_string(),
            person: request.person,
            client: request.client,
            source: request.source,
            head_sha: request.head_sha,
            saved_at: request.saved_at,
        })
    }

    /// The compact reading answers only what the reading before answers, and `read` answers
    /// exactly that.
    fn check_same(text: &str) {
        if let Some(read) = SaveText::compact(text) {
            assert_eq!(Some(read), read_before(text), "{text}");
        }
        assert_eq!(SaveText::read(text).ok(), read_before(text), "{text}");
    }

    #[test]
    fn save_requests_read_as_their_writer_wrote_them() {
        for kind in [DocumentKind::Order, DocumentKind::Diagram] {
            for client in [None, Some("Claude \"Code\"\t")] {
                for body in [order_body(), diagram_body(), Value::Null] {
                    let written = request(kind, client, body.clone());
                    let text = serde_json::to_string(&written).unwrap_or_default();
                    let read = SaveText::compact(&text).unwrap_or_else(|| panic!("{text}"));
                    assert_eq!(read.body, body.to_string());
                    assert_eq!(read.kind, kind);
                    assert_eq!(read.client.as_deref(), client);
                    check_same(&text);
                }
            }
        }
    }

    #[test]
    fn save_requests_in_other_forms_read_as_before() {
        let text = serde_json::to_string(&request(
            DocumentKind::Diagram,
            Some("bell \u{7}"),
            serde_json::json!({"a": "\u{1}/", "b": [1, 2.5, -3]}),
        ))
        .unwrap_or_default();
        assert_eq!(SaveText::compact(&text), None, "{text}");
        check_same(&text);
        let spaced =
            serde_json::to_string_pretty(&request(DocumentKind::Order, None, order_body()))
                .unwrap_or_default();
        assert_eq!(SaveText::compact(&spaced), None);
        check_same(&spaced);
        assert!(SaveText::read(&spaced).is_ok());
    }

    #[test]
    fn damaged_save_requests_are_refused_or_read_as_before() {
        // Every cut, and every ASCII byte replaced by each of a few that change the meaning.
        let text = serde_json::to_string(&request(DocumentKind::Order, Some("c"), order_body()))
            .unwrap_or_default();
        let bytes = text.as_bytes();
        for end in 0..bytes.len() {
            if let Some(cut) = text.get(..end) {
                assert_eq!(SaveText::read(cut).ok(), None, "{cut}");
            }
        }
        for at in 0..bytes.len() {
            if !bytes[at].is_ascii() {
                continue;
            }
            for byte in *b" \"0an{}[],:\\ub" {
                let mut damaged = bytes.to_vec();
                damaged[at] = byte;
                if let Ok(damaged) = String::from_utf8(damaged) {
                    check_same(&damaged);
                }
            }
        }
    }

    #[test]
    fn reading_follows_the_stored_shapes() {
        // A body saved as `null` reads back as `null`; a missing body is an error.
        let mut stored = serde_json::to_value(record(None)).unwrap_or_default();
        stored["body"] = Value::Null;
        assert_eq!(
            SavedRecord::from_json(stored.clone()).map(|r| r.body),
            Ok(Value::Null)
        );
        if let Some(fields) = stored.as_object_mut() {
            fields.remove("body");
        }
        assert!(SavedRecord::from_json(stored).is_err());
        let kind = DocumentKind::from_json(serde_json::json!("Order"));
        assert_eq!(
            kind.err().map(|e| e.to_string()).as_deref(),
            Some("unknown variant \"Order\"")
        );
    }
}

/// The most ticks one person keeps on one pull request: far above any real page (a 3,000-file
/// pull request with its checklist), low enough that nobody can fill an object with them.
pub const MAX_TICKS_PER_PERSON: usize = 5_000;

/// What the pull request's object did with a tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TickOutcome {
    /// Stored (or, for an untick, removed).
    Stored,
    /// Refused: the person would hold more than [`MAX_TICKS_PER_PERSON`] ticks here.
    Full,
}

impl FromJson for TickOutcome {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        crate::json::from_name(value, |name| match name {
            "stored" => Some(TickOutcome::Stored),
            "full" => Some(TickOutcome::Full),
            _ => None,
        })
    }
}

/// The object's answer to a tick: the outcome, and whether it already holds the change ids of
/// the head the tick was made at (when not, the Worker records them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TickReply {
    pub outcome: TickOutcome,
    pub known_head: bool,
}

impl FromJson for TickReply {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(TickReply {
            outcome: f.required("outcome")?,
            known_head: f.or_default("known_head")?,
        })
    }
}

/// One stored tick: the item, the head it was ticked at (`None` for ticks from before content
/// keys), and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TickRow {
    pub item: String,
    pub head_sha: Option<String>,
    pub at: String,
}

impl FromJson for TickRow {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(TickRow {
            item: f.required("item")?,
            head_sha: f.optional("head_sha")?,
            at: f.or_default("at")?,
        })
    }
}

/// A reviewer's stored state on one pull request: their ticks, and the change ids of every file
/// at the heads those ticks were made at (`{head sha: {path: [change ids]}}`), as far as kept.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ReviewerState {
    pub ticks: Vec<TickRow>,
    pub heads: std::collections::BTreeMap<String, Value>,
}

impl FromJson for ReviewerState {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(ReviewerState {
            ticks: f.or_default("ticks")?,
            heads: f.or_default("heads")?,
        })
    }
}

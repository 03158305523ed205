//! Flow diagrams: their types and validation against a pull request (MCP reference:
//! `save_diagram` and the Errors table; limits also in the ordering guide's Limits table).
//!
//! Why: a diagram is drawn by an agent and rendered for reviewers, so its shape is checked before
//! it is stored: 2–40 nodes, up to 80 edges and 12 groups, ids of 1–40 letters, digits, `-` or
//! `_` unique across groups and nodes, bounded titles, labels and lines, known `kind` values, and
//! edges and groups that point at ids that exist. Every problem is reported at once with its JSON
//! path ("The diagram is invalid: edges[2].to \"x\" is not a node id"). Only a diagram of valid
//! shape has its links checked: each `file` must be a changed file and each `hunk` a change id of
//! that file ("The diagram points at files or changes that aren't in the pull request: …").
//!
//! What not: no layout or rendering, no versions or conflicts, no suggestions (`save_diagram`
//! returns none). Diagrams never change the reading order.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::review::order::input::{comma_names, field, item, join_names, plain, shown, Problems};
use crate::review::order::{render_message, PullFacts};

/// Fewest and most nodes.
pub const MIN_NODES: usize = 2;
pub const MAX_NODES: usize = 40;
/// Most edges.
pub const MAX_EDGES: usize = 80;
/// Most groups.
pub const MAX_GROUPS: usize = 12;
/// Longest id, in characters.
pub const MAX_ID_CHARS: usize = 40;
/// Longest diagram or node title.
pub const MAX_TITLE_CHARS: usize = 200;
/// Longest group title.
pub const MAX_GROUP_TITLE_CHARS: usize = 80;
/// Longest group note.
pub const MAX_GROUP_NOTE_CHARS: usize = 4_000;
/// Longest edge label.
pub const MAX_EDGE_LABEL_CHARS: usize = 40;
/// Most `lines` per node.
pub const MAX_LINES: usize = 4;
/// Longest line label and text.
pub const MAX_LINE_LABEL_CHARS: usize = 40;
pub const MAX_LINE_TEXT_CHARS: usize = 300;

const DIAGRAM_KEYS: &[&str] = &["title", "groups", "nodes", "edges"];
const GROUP_KEYS: &[&str] = &["id", "title", "note"];
const NODE_KEYS: &[&str] = &["id", "title", "kind", "group", "lines", "file", "hunk"];
const LINE_KEYS: &[&str] = &["label", "text"];
const EDGE_KEYS: &[&str] = &["from", "to", "label", "dashed"];

/// A diagram, in the shape `save_diagram` takes and `currentDiagram.diagram` returns.
/// `Deserialize` reads a stored diagram back; agents' input is validated by
/// [`validate_diagram`] instead, which reports every problem with the reference's messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagram {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::json::or_default"
    )]
    pub groups: Vec<Group>,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

/// A box around nodes: a layer, service or process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Group {
    pub id: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One step of the flow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Node {
    pub id: String,
    pub title: String,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub kind: NodeKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::json::or_default"
    )]
    pub lines: Vec<Line>,
    /// A changed file this step lives in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// A change id of `file` that carries this step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hunk: Option<String>,
}

/// A labelled row of a node, such as a sample request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Line {
    pub label: String,
    pub text: String,
}

/// An arrow between two nodes; `dashed` for indirect links.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Edge {
    pub from: String,
    pub to: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "is_false",
        deserialize_with = "crate::json::or_default"
    )]
    pub dashed: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// A node's `kind` (the ordering guide's Diagrams table); `logic` when left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    Trigger,
    #[default]
    Logic,
    Decision,
    Data,
    Ui,
    Test,
    Config,
    External,
    Warning,
}

impl NodeKind {
    /// Every kind with its spelling, in the reference's order.
    pub const ALL: [(&'static str, NodeKind); 9] = [
        ("trigger", NodeKind::Trigger),
        ("logic", NodeKind::Logic),
        ("decision", NodeKind::Decision),
        ("data", NodeKind::Data),
        ("ui", NodeKind::Ui),
        ("test", NodeKind::Test),
        ("config", NodeKind::Config),
        ("external", NodeKind::External),
        ("warning", NodeKind::Warning),
    ];

    /// The spelling the reference uses.
    pub fn as_str(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, kind)| *kind == self)
            .map_or("logic", |(name, _)| name)
    }
}

/// Which check refused a diagram; each has its own message prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiagramRejectionKind {
    /// Shapes, types, values, limits or ids: "The diagram is invalid".
    Invalid,
    /// `file` or `hunk` not in the pull request: "The diagram points at files or changes that
    /// aren't in the pull request".
    References,
}

/// Why [`validate_diagram`] refused a diagram: every problem of the check that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagramRejection {
    pub kind: DiagramRejectionKind,
    pub problems: Vec<String>,
}

impl DiagramRejection {
    /// The message prefix of the reference's Errors table.
    pub fn prefix(&self) -> &'static str {
        match self.kind {
            DiagramRejectionKind::Invalid => "The diagram is invalid",
            DiagramRejectionKind::References => {
                "The diagram points at files or changes that aren't in the pull request"
            }
        }
    }

    /// The tool error text: the prefix, `: `, then the problems joined by `; `.
    pub fn message(&self) -> String {
        render_message(self.prefix(), &self.problems)
    }
}

/// The shape checks of the `diagram` argument of `save_diagram` (MCP reference: `save_diagram`,
/// Errors), which need no pull request: run before reading GitHub, so a malformed diagram is
/// told so at once (with the target's problems), not after or behind a GitHub failure. The
/// parsed diagram goes on to [`check_diagram`] once the pull request is read.
///
/// `input` is the `diagram` object itself; problem paths start inside it (`nodes[2].kind`).
pub fn diagram_shape(input: &Value) -> Result<Diagram, Vec<String>> {
    parse_diagram(input)
}

/// Validates the `diagram` argument of `save_diagram`: [`diagram_shape`], then
/// [`check_diagram`].
pub fn validate_diagram(input: &Value, facts: &PullFacts) -> Result<Diagram, DiagramRejection> {
    let diagram = diagram_shape(input).map_err(|problems| DiagramRejection {
        kind: DiagramRejectionKind::Invalid,
        problems,
    })?;
    check_diagram(diagram, facts)
}

/// Checks a diagram of the right shape against the pull request: the files and changes its
/// nodes point at exist.
pub fn check_diagram(diagram: Diagram, facts: &PullFacts) -> Result<Diagram, DiagramRejection> {
    let problems = check_references(&diagram, facts);
    if problems.is_empty() {
        Ok(diagram)
    } else {
        Err(DiagramRejection {
            kind: DiagramRejectionKind::References,
            problems,
        })
    }
}

/// The counts of the `save_diagram` result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiagramCounts {
    pub nodes: usize,
    pub edges: usize,
    pub groups: usize,
    /// Distinct files the nodes point at.
    pub linked_files: usize,
}

/// Counts a diagram for the `save_diagram` result.
pub fn diagram_counts(diagram: &Diagram) -> DiagramCounts {
    let files: HashSet<&str> = diagram
        .nodes
        .iter()
        .filter_map(|node| node.file.as_deref())
        .collect();
    DiagramCounts {
        nodes: diagram.nodes.len(),
        edges: diagram.edges.len(),
        groups: diagram.groups.len(),
        linked_files: files.len(),
    }
}

/// Whether `id` is 1 to 40 letters, digits, `-` or `_`.
fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_CHARS
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn parse_diagram(input: &Value) -> Result<Diagram, Vec<String>> {
    let mut problems = Problems::default();
    let Some(map) = problems.object(input, "") else {
        return Err(problems.list);
    };
    problems.unknown_keys(map, "", DIAGRAM_KEYS, &[]);
    let title = problems
        .optional_string(map, "", "title", MAX_TITLE_CHARS)
        .map(str::to_string);

    // Where each id is declared, for uniqueness across groups and nodes.
    let mut declared: HashMap<String, String> = HashMap::new();

    let groups_value = map.get("groups").filter(|value| !value.is_null());
    let groups_list = groups_value.and_then(|value| problems.array(value, "groups"));
    let groups_list: &[Value] = groups_list.map_or(&[], Vec::as_slice);
    if groups_list.len() > MAX_GROUPS {
        problems.push(format!(
            "groups must have at most {MAX_GROUPS} items, got {}",
            groups_list.len()
        ));
    }
    let mut groups = Vec::new();
    for (index, value) in groups_list.iter().enumerate() {
        let path = item("groups", index);
        if let Some(group) = parse_group(value, &path, &mut problems, &mut declared) {
            groups.push(group);
        }
    }
    // Ids declared so far are the groups' (each group's first valid id, even when another field
    // of the group has a problem), so a node isn't blamed for a group's mistake.
    let group_ids: HashSet<String> = declared.keys().cloned().collect();

    let mut nodes = Vec::new();
    match map.get("nodes") {
        None => problems.push("nodes is required".to_string()),
        Some(value) => {
            if let Some(list) = problems.array(value, "nodes") {
                if list.len() < MIN_NODES || list.len() > MAX_NODES {
                    problems.push(format!(
                        "nodes must have {MIN_NODES} to {MAX_NODES} items, got {}",
                        list.len()
                    ));
                }
                for (index, value) in list.iter().enumerate() {
                    let path = item("nodes", index);
                    if let Some(node) =
                        parse_node(value, &path, &mut problems, &mut declared, &group_ids)
                    {
                        nodes.push(node);
                    }
                }
            }
        }
    }
    let node_ids: HashSet<String> = declared
        .iter()
        .filter(|(_, place)| place.starts_with("nodes["))
        .map(|(id, _)| id.clone())
        .collect();

    let mut edges = Vec::new();
    match map.get("edges") {
        None => problems.push("edges is required".to_string()),
        Some(value) => {
            if let Some(list) = problems.array(value, "edges") {
                if list.len() > MAX_EDGES {
                    problems.push(format!(
                        "edges must have at most {MAX_EDGES} items, got {}",
                        list.len()
                    ));
                }
                for (index, value) in list.iter().enumerate() {
                    let path = item("edges", index);
                    if let Some(edge) = parse_edge(value, &path, &mut problems, &node_ids) {
                        edges.push(edge);
                    }
                }
            }
        }
    }

    if problems.list.is_empty() {
        Ok(Diagram {
            title,
            groups,
            nodes,
            edges,
        })
    } else {
        Err(problems.list)
    }
}

/// Reads an `id`, checks its form and that no group or node declared it before.
fn parse_id(
    map: &Map<String, Value>,
    path: &str,
    problems: &mut Problems,
    declared: &mut HashMap<String, String>,
) -> Option<String> {
    let id_path = field(path, "id");
    let id = match map.get("id") {
        None => {
            problems.push(format!("{id_path} is required"));
            return None;
        }
        Some(value) => problems.string(value, &id_path, 0, usize::MAX)?,
    };
    if !valid_id(id) {
        problems.push(format!(
            "{id_path} must be 1 to {MAX_ID_CHARS} ASCII letters, digits, - or _, got {}",
            shown(id)
        ));
        return None;
    }
    if let Some(first) = declared.get(id) {
        problems.push(format!(
            "{id_path} {} is already used by {first} (ids must be unique across groups and nodes)",
            shown(id)
        ));
    } else {
        declared.insert(id.to_string(), path.to_string());
    }
    Some(id.to_string())
}

fn parse_group(
    value: &Value,
    path: &str,
    problems: &mut Problems,
    declared: &mut HashMap<String, String>,
) -> Option<Group> {
    let map = problems.object(value, path)?;
    problems.unknown_keys(map, path, GROUP_KEYS, &[]);
    let id = parse_id(map, path, problems, declared);
    let title = problems.required_string(map, path, "title", 1, MAX_GROUP_TITLE_CHARS);
    let note = problems.optional_string(map, path, "note", MAX_GROUP_NOTE_CHARS);
    Some(Group {
        id: id?,
        title: title?.to_string(),
        note: note.map(str::to_string),
    })
}

fn parse_node(
    value: &Value,
    path: &str,
    problems: &mut Problems,
    declared: &mut HashMap<String, String>,
    group_ids: &HashSet<String>,
) -> Option<Node> {
    let map = problems.object(value, path)?;
    problems.unknown_keys(map, path, NODE_KEYS, &[]);
    let id = parse_id(map, path, problems, declared);
    let title = problems.required_string(map, path, "title", 1, MAX_TITLE_CHARS);
    let kind = match map.get("kind") {
        None | Some(Value::Null) => Some(NodeKind::Logic),
        Some(value) => problems.one_of(value, &field(path, "kind"), &NodeKind::ALL),
    };
    let group = problems.optional_string(map, path, "group", usize::MAX);
    if let Some(group) = group {
        if !group_ids.contains(group) {
            let mut known: Vec<String> = group_ids.iter().cloned().collect();
            crate::sorting::sort_by(&mut known, &Ord::cmp);
            let hint = if known.is_empty() {
                "the diagram has no groups".to_string()
            } else {
                format!("groups: {}", comma_names(&known, MAX_GROUPS))
            };
            problems.push(format!(
                "{} {} is not a group id ({hint})",
                field(path, "group"),
                shown(group)
            ));
        }
    }
    let mut lines = Vec::new();
    let lines_path = field(path, "lines");
    if let Some(list) = problems.optional_array(map, path, "lines") {
        if list.len() > MAX_LINES {
            problems.push(format!(
                "{lines_path} must have at most {MAX_LINES} items, got {}",
                list.len()
            ));
        }
        for (index, value) in list.iter().enumerate() {
            let line_path = item(&lines_path, index);
            let Some(line_map) = problems.object(value, &line_path) else {
                continue;
            };
            problems.unknown_keys(line_map, &line_path, LINE_KEYS, &[]);
            let label =
                problems.required_string(line_map, &line_path, "label", 1, MAX_LINE_LABEL_CHARS);
            let text =
                problems.required_string(line_map, &line_path, "text", 0, MAX_LINE_TEXT_CHARS);
            if let (Some(label), Some(text)) = (label, text) {
                lines.push(Line {
                    label: label.to_string(),
                    text: text.to_string(),
                });
            }
        }
    }
    let file = problems.optional_string(map, path, "file", usize::MAX);
    let hunk = problems.optional_string(map, path, "hunk", usize::MAX);
    if let (Some(hunk), None) = (hunk, file) {
        // A shape problem, not a reference one: whatever the change, it needs its file.
        problems.push(format!(
            "{} {} needs {}, the changed file the change belongs to",
            field(path, "hunk"),
            shown(hunk),
            field(path, "file")
        ));
    }
    Some(Node {
        id: id?,
        title: title?.to_string(),
        kind: kind?,
        group: group.map(str::to_string),
        lines,
        file: file.map(str::to_string),
        hunk: hunk.map(str::to_string),
    })
}

fn parse_edge(
    value: &Value,
    path: &str,
    problems: &mut Problems,
    node_ids: &HashSet<String>,
) -> Option<Edge> {
    let map = problems.object(value, path)?;
    problems.unknown_keys(map, path, EDGE_KEYS, &[]);
    let end = |key: &str, problems: &mut Problems| -> Option<String> {
        let id = problems.required_string(map, path, key, 0, usize::MAX)?;
        if !node_ids.contains(id) {
            problems.push(format!(
                "{} {} is not a node id",
                field(path, key),
                shown(id)
            ));
        }
        Some(id.to_string())
    };
    let from = end("from", problems);
    let to = end("to", problems);
    let label = problems.optional_string(map, path, "label", MAX_EDGE_LABEL_CHARS);
    let dashed = match map.get("dashed") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(dashed)) => *dashed,
        Some(other) => {
            problems.push(format!(
                "{} must be true or false, got {}",
                field(path, "dashed"),
                crate::review::order::input::type_name(other)
            ));
            false
        }
    };
    Some(Edge {
        from: from?,
        to: to?,
        label: label.map(str::to_string),
        dashed,
    })
}

/// The `file` and `hunk` of every node against the pull request.
fn check_references(diagram: &Diagram, facts: &PullFacts) -> Vec<String> {
    let changed: HashMap<&str, &crate::review::order::PullFileFacts> = facts
        .files
        .iter()
        .rev()
        .map(|file| (file.path.as_str(), file))
        .collect();
    let mut problems = Vec::new();
    for (index, node) in diagram.nodes.iter().enumerate() {
        let path = item("nodes", index);
        let file = match node.file.as_deref() {
            None => None,
            Some(file) => match changed.get(file) {
                Some(facts) => Some(*facts),
                None => {
                    problems.push(format!(
                        "{path}.file {} isn't a changed file of the pull request",
                        shown(file)
                    ));
                    continue;
                }
            },
        };
        let Some(hunk) = node.hunk.as_deref() else {
            continue;
        };
        let Some(file) = file else {
            continue; // refused by `parse_node`
        };
        if file.change_ids.iter().any(|id| id == hunk) {
            continue;
        }
        let valid = match file.change_ids.len() {
            0 => "it has no diff GitHub can show, so point at the file only".to_string(),
            1 => format!(
                "its only change is {}",
                file.change_ids.first().map(String::as_str).unwrap_or("")
            ),
            n if n <= 10 => format!("its changes are {}", join_names(&file.change_ids, n)),
            _ => "call get_pull_request for its change ids".to_string(),
        };
        problems.push(format!(
            "{path}.hunk {} isn't a change of {} ({valid})",
            shown(hunk),
            plain(&file.path)
        ));
    }
    problems
}

#[cfg(test)]
mod tests;

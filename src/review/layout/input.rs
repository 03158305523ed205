//! What the layout reads: a diagram's groups, nodes and edges ([`LayoutInput`]), from the stored
//! JSON ([`input_from_json`]), and how much of it is laid out at most.
//!
//! Why: the layout must accept any stored or in-flight diagram without failing, so reading is
//! forgiving (wrong types read as absent, unknown kinds become `logic`) and bounded (long text
//! and long lists are cut before any other work).
//! What not: no validation (`review::diagram`), no merging of duplicates (`prepare`).

use serde_json::Value;

/// Node kinds, in the reference's order; anything else is drawn as `logic`.
pub const KINDS: [&str; 9] = [
    "trigger", "logic", "decision", "data", "ui", "test", "config", "external", "warning",
];

/// Most nodes, edges, groups and rows per node laid out; the rest is ignored.
///
/// These sit above the validated limits (40, 80, 12 and 4) so every stored diagram fits, and bound
/// the work for anything else.
pub const MAX_LAYOUT_NODES: usize = 60;
pub const MAX_LAYOUT_EDGES: usize = 120;
pub const MAX_LAYOUT_GROUPS: usize = 16;
pub const MAX_LAYOUT_LINES: usize = 4;

/// Longest string kept from the input; longer text is cut before any other work.
const INPUT_CHARS: usize = 400;

/// What the layout needs from a diagram; [`input_from_json`] builds it from the stored JSON.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LayoutInput {
    pub title: String,
    pub groups: Vec<LayoutGroup>,
    pub nodes: Vec<LayoutNode>,
    pub edges: Vec<LayoutEdge>,
}

/// A group box to draw around its nodes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LayoutGroup {
    pub id: String,
    pub title: String,
}

/// One node; `kind` is one of [`KINDS`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LayoutNode {
    pub id: String,
    pub title: String,
    pub kind: &'static str,
    pub group: Option<String>,
    /// `(label, text)` rows.
    pub lines: Vec<(String, String)>,
    pub file: Option<String>,
    pub hunk: Option<String>,
}

/// One arrow, by node ids.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LayoutEdge {
    pub from: String,
    pub to: String,
    pub label: Option<String>,
    pub dashed: bool,
}

/// Reads the `diagram` object of `save_diagram` (or `currentDiagram.diagram`) into a
/// [`LayoutInput`]. Never fails: wrong types read as absent, entries without a string id are
/// skipped and unknown kinds become `logic`.
pub fn input_from_json(diagram: &Value) -> LayoutInput {
    let groups = array(diagram, "groups")
        .filter_map(|group| {
            Some(LayoutGroup {
                id: string(group, "id")?,
                title: string(group, "title").unwrap_or_default(),
            })
        })
        .take(MAX_LAYOUT_GROUPS * 2)
        .collect();
    let nodes = array(diagram, "nodes")
        .filter_map(|node| {
            let kind = node.get("kind").and_then(Value::as_str).unwrap_or("logic");
            Some(LayoutNode {
                id: string(node, "id")?,
                title: string(node, "title").unwrap_or_default(),
                kind: KINDS
                    .iter()
                    .copied()
                    .find(|k| *k == kind)
                    .unwrap_or("logic"),
                group: string(node, "group"),
                lines: array(node, "lines")
                    .filter(|line| line.is_object())
                    .map(|line| {
                        (
                            string(line, "label").unwrap_or_default(),
                            string(line, "text").unwrap_or_default(),
                        )
                    })
                    .take(MAX_LAYOUT_LINES)
                    .collect(),
                file: string(node, "file").filter(|file| !file.is_empty()),
                hunk: string(node, "hunk").filter(|hunk| !hunk.is_empty()),
            })
        })
        .take(MAX_LAYOUT_NODES * 2)
        .collect();
    let edges = array(diagram, "edges")
        .filter_map(|edge| {
            Some(LayoutEdge {
                from: string(edge, "from")?,
                to: string(edge, "to")?,
                label: string(edge, "label").filter(|label| !label.trim().is_empty()),
                dashed: edge.get("dashed").and_then(Value::as_bool).unwrap_or(false),
            })
        })
        .take(MAX_LAYOUT_EDGES * 4)
        .collect();
    LayoutInput {
        title: string(diagram, "title").unwrap_or_default(),
        groups,
        nodes,
        edges,
    }
}

fn array<'a>(value: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    value
        .get(key)
        .and_then(Value::as_array)
        .map(|items| items.iter())
        .into_iter()
        .flatten()
}

fn string(value: &Value, key: &str) -> Option<String> {
    let text = value.get(key)?.as_str()?;
    Some(match text.char_indices().nth(INPUT_CHARS) {
        Some((end, _)) => text.get(..end).unwrap_or_default().to_string(),
        None => text.to_string(),
    })
}

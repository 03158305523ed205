//! Layered layout of flow diagrams: where each node, edge, label and group box goes, top to bottom
//! (MCP reference: `save_diagram`; the ordering guide's Diagrams section).
//!
//! Why: the **Diagram** tab (review page and MCP Apps view) draws the stored diagram with one
//! small script, `src/static/diagram.js`, so positions are computed here, once, on the server,
//! and the drawing only turns numbers into SVG elements. The method is the classic Sugiyama pipeline, sized for the
//! diagram limits (40 nodes, 80 edges, 12 groups):
//!
//! 1. Break cycles: a depth-first search in input order reverses every back edge.
//! 2. Assign layers by longest path, then pull each source down next to its nearest successor.
//!    Nodes with no edges fill short layers instead of making one very wide row.
//! 3. Split edges that span several layers with virtual nodes, so they bend around other nodes.
//! 4. Order each layer with barycenter sweeps, keeping the ordering with the fewest crossings.
//!    A group's nodes stay adjacent in every layer, and groups keep one left-to-right order.
//! 5. Place x by pooling adjacent violators (the closest positions to the neighbours' mean that keep
//!    the spacing), then move nodes out of other groups' boxes with difference constraints.
//! 6. Size nodes from their text, stack the layers, route edges through their virtual nodes, put
//!    labels on a middle segment and draw each group as the padded box of its nodes.
//!
//! The same input always gives the same layout: every sort has a total tie-break and nothing
//! iterates over a hash map. Any input is accepted: unknown kinds become `logic`, edges to unknown
//! nodes are dropped, duplicate edges are merged, and inputs beyond the diagram limits are cut
//! (with room to spare) so the work stays bounded.
//!
//! What not: no validation (`review::diagram` does that before a diagram is stored), no SVG (that
//! is `src/static/diagram.js`, in the browser), no links (the page decides where a node's file
//! points).

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::collections::{BTreeMap, HashMap, VecDeque};

use serde::Serialize;
use serde_json::Value;

#[cfg(test)]
mod tests;

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

/// Text metrics shared with the renderer, in pixels. Widths assume about 0.6em per character.
pub const TITLE_FONT_PX: f64 = 13.0;
pub const TITLE_LINE_PX: f64 = 17.0;
pub const TITLE_CHAR_PX: f64 = 7.8;
pub const ROW_FONT_PX: f64 = 11.0;
pub const ROW_LINE_PX: f64 = 14.0;
pub const ROW_CHAR_PX: f64 = 6.6;
/// Space between a node's border and its text.
pub const NODE_PAD_X: f64 = 12.0;
pub const NODE_PAD_Y: f64 = 9.0;
/// Space between the title (and file) and the `lines` rows.
pub const ROWS_GAP_PX: f64 = 4.0;
/// How far a `decision` hexagon's side points reach in from its box.
pub const DECISION_INSET_PX: f64 = 14.0;
/// The vertical radius of a `data` cylinder's ends.
pub const DATA_CAP_PX: f64 = 7.0;
/// Padding of a group box around its nodes, and the band for its title above them.
pub const GROUP_PAD_PX: f64 = 14.0;
pub const GROUP_TITLE_PX: f64 = 20.0;
/// Edge labels: font, character width, horizontal padding and box height.
pub const LABEL_FONT_PX: f64 = 11.0;
pub const LABEL_CHAR_PX: f64 = 6.6;
pub const LABEL_PAD_X: f64 = 5.0;
pub const LABEL_H_PX: f64 = 16.0;
/// How far a self-loop reaches out of its node's right side.
pub const SELF_LOOP_PX: f64 = 22.0;

/// Title characters per line, title lines, row characters, rows per `lines` entry, and the longest
/// row label, file label and (merged) edge label shown.
const TITLE_WRAP: usize = 24;
const TITLE_MAX_LINES: usize = 3;
const ROW_WRAP: usize = 34;
const ROWS_PER_LINE: usize = 2;
const ROW_LABEL_CHARS: usize = 16;
const FILE_LABEL_CHARS: usize = 34;
const EDGE_LABEL_CHARS: usize = 48;
/// Longest string kept from the input; longer text is cut before any other work.
const INPUT_CHARS: usize = 400;

const MARGIN: f64 = 16.0;
const MIN_NODE_W: f64 = 112.0;
const LAYER_GAP: f64 = 72.0;
const NODE_GAP: f64 = 28.0;
const VIRTUAL_GAP: f64 = 14.0;
const VIRTUAL_W: f64 = 8.0;
/// Extra gap between neighbours of different groups.
const GROUP_GAP: f64 = 8.0;
/// Clearing group boxes may widen the drawing by this factor plus this much, or not at all.
const MAX_GROUP_STRETCH: f64 = 2.0;
const GROUP_STRETCH_PX: f64 = 240.0;
const ORDER_SWEEPS: usize = 8;
const PLACE_ROUNDS: usize = 6;
/// Where along its segment a label may sit, in order of preference.
const LABEL_SPOTS: [f64; 7] = [0.5, 0.35, 0.65, 0.25, 0.75, 0.15, 0.85];

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

/// A laid-out diagram. Coordinates are SVG user units with the origin at the top left; everything
/// lies within `0..width` and `0..height`. Serialized (camelCase) for the MCP Apps view, which
/// draws it with DOM calls (`tools::view_diagram`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Layout {
    pub title: String,
    pub width: f64,
    pub height: f64,
    pub nodes: Vec<PlacedNode>,
    pub edges: Vec<PlacedEdge>,
    pub groups: Vec<PlacedGroup>,
}

/// A node's box (`x`, `y` its top left) and its text, already wrapped and shortened.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlacedNode {
    pub id: String,
    /// The full title, for a tooltip.
    pub title: String,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub title_lines: Vec<String>,
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The file's base name, shortened, shown under the title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_label: Option<String>,
    pub lines: Vec<PlacedLine>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hunk: Option<String>,
}

#[cfg(test)]
impl PlacedNode {
    /// The y offset, from the node's top, where its first title line starts (the drawing,
    /// `src/static/diagram.js`, starts there too).
    pub fn text_top(&self) -> f64 {
        content_top(self.kind)
    }
}

/// A `lines` row: the label, then the text wrapped into `rows` (the first follows the label).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlacedLine {
    pub label: String,
    pub rows: Vec<String>,
}

/// An arrow drawn through `points` (at least two), ending at `to`'s border.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlacedEdge {
    pub from: String,
    pub to: String,
    pub points: Vec<(f64, f64)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The centre of the label box (see [`label_size`]).
    pub label_at: (f64, f64),
    pub dashed: bool,
}

/// A group's box; its title goes in the band at the top.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlacedGroup {
    pub id: String,
    pub title: String,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
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

/// The width and height of the box drawn behind an edge label.
fn label_size(label: &str) -> (f64, f64) {
    let chars = label.chars().count() as f64;
    (chars * LABEL_CHAR_PX + 2.0 * LABEL_PAD_X, LABEL_H_PX)
}

/// `text` on one line of at most `max_chars` characters, ending in `…` when shortened.
pub fn fit(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max_chars.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Control characters become spaces and runs of white space one space.
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|word| !word.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Word-wraps `text` to `first` characters on the first line and `rest` after, at most `max_lines`
/// lines; words longer than a line are broken, and cut text ends in `…`.
fn wrap(text: &str, first: usize, rest: usize, max_lines: usize) -> Vec<String> {
    let width_of = |line: usize| if line == 0 { first.max(1) } else { rest.max(1) };
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut current_len = 0;
    let mut cut = false;
    'words: for word in text.split_whitespace() {
        let chars: Vec<char> = word.chars().collect();
        let mut start = 0;
        while start < chars.len() {
            let width = width_of(lines.len());
            let room = if current_len == 0 {
                width
            } else {
                width.saturating_sub(current_len + 1)
            };
            let remaining = chars.len() - start;
            if remaining <= room {
                if current_len > 0 {
                    current.push(' ');
                    current_len += 1;
                }
                current.extend(chars.iter().skip(start));
                current_len += remaining;
                start = chars.len();
            } else if current_len > 0 && remaining > width_of(lines.len() + 1) && room >= 4 {
                // The word must be broken anyway: start it on this line.
                current.push(' ');
                current.extend(chars.iter().skip(start).take(room));
                current_len += room + 1;
                start += room;
            } else if current_len == 0 {
                // The word alone is wider than a line: break it.
                current.extend(chars.iter().skip(start).take(width));
                current_len = width;
                start += width;
            } else if lines.len() + 1 >= max_lines {
                cut = true;
                break 'words;
            } else {
                lines.push(std::mem::take(&mut current));
                current_len = 0;
                continue;
            }
            if start < chars.len() {
                if lines.len() + 1 >= max_lines {
                    cut = true;
                    break 'words;
                }
                lines.push(std::mem::take(&mut current));
                current_len = 0;
            }
        }
    }
    if current_len > 0 {
        lines.push(current);
    }
    if cut {
        let width = width_of(lines.len().saturating_sub(1));
        if let Some(last) = lines.last_mut() {
            let mut shortened: String = last.chars().take(width.saturating_sub(1)).collect();
            shortened.push('…');
            *last = shortened;
        }
    }
    lines.truncate(max_lines);
    lines
}

/// The y offset, from a node's top, of its first title line.
fn content_top(kind: &str) -> f64 {
    NODE_PAD_Y
        + if kind == "data" {
            2.0 * DATA_CAP_PX
        } else {
            0.0
        }
}

/// A node with its text laid out and its size known, before placement.
struct Sized {
    id: String,
    title: String,
    kind: &'static str,
    group: Option<usize>,
    title_lines: Vec<String>,
    file_label: Option<String>,
    lines: Vec<PlacedLine>,
    file: Option<String>,
    hunk: Option<String>,
    w: f64,
    h: f64,
}

fn size_node(node: &LayoutNode, group: Option<usize>) -> Sized {
    let title = clean(&node.title);
    let title_lines = wrap(&title, TITLE_WRAP, TITLE_WRAP, TITLE_MAX_LINES);
    let file_label = node.file.as_deref().map(|file| {
        let base = file
            .rsplit('/')
            .find(|part| !part.is_empty())
            .unwrap_or(file);
        fit(&clean(base), FILE_LABEL_CHARS)
    });
    let lines: Vec<PlacedLine> = node
        .lines
        .iter()
        .take(MAX_LAYOUT_LINES)
        .map(|(label, text)| {
            let label = fit(&clean(label), ROW_LABEL_CHARS);
            let prefix = if label.is_empty() {
                0
            } else {
                label.chars().count() + 2
            };
            let first = ROW_WRAP.saturating_sub(prefix).max(8);
            let mut rows = wrap(&clean(text), first, ROW_WRAP, ROWS_PER_LINE);
            if rows.is_empty() {
                rows.push(String::new());
            }
            PlacedLine { label, rows }
        })
        .collect();

    let mut text_w = 0.0_f64;
    for line in &title_lines {
        text_w = text_w.max(line.chars().count() as f64 * TITLE_CHAR_PX);
    }
    if let Some(label) = &file_label {
        text_w = text_w.max(label.chars().count() as f64 * ROW_CHAR_PX);
    }
    let mut row_count = 0;
    for line in &lines {
        for (index, row) in line.rows.iter().enumerate() {
            let mut chars = row.chars().count();
            if index == 0 && !line.label.is_empty() {
                chars += line.label.chars().count() + 2;
            }
            text_w = text_w.max(chars as f64 * ROW_CHAR_PX);
            row_count += 1;
        }
    }
    let inset = if node.kind == "decision" {
        2.0 * DECISION_INSET_PX
    } else {
        0.0
    };
    let w = (text_w + 2.0 * NODE_PAD_X + inset).max(MIN_NODE_W).ceil();
    let mut h = content_top(node.kind) + NODE_PAD_Y;
    h += title_lines.len().max(1) as f64 * TITLE_LINE_PX;
    if file_label.is_some() {
        h += ROW_LINE_PX;
    }
    if row_count > 0 {
        h += ROWS_GAP_PX + row_count as f64 * ROW_LINE_PX;
    }
    if node.kind == "data" {
        h += DATA_CAP_PX;
    }
    Sized {
        id: node.id.clone(),
        title,
        kind: node.kind,
        group,
        title_lines,
        file_label,
        lines,
        file: node.file.clone(),
        hunk: node.hunk.clone(),
        w,
        h: h.ceil(),
    }
}

/// An edge between node indices after merging duplicates.
struct Link {
    from: usize,
    to: usize,
    label: Option<String>,
    dashed: bool,
}

/// The input with duplicates, unknown references and overflow removed.
struct Prepared {
    title: String,
    groups: Vec<(String, String)>,
    nodes: Vec<Sized>,
    links: Vec<Link>,
}

fn prepare(input: &LayoutInput) -> Prepared {
    let mut groups: Vec<(String, String)> = Vec::new();
    let mut group_index: HashMap<&str, usize> = HashMap::new();
    for group in &input.groups {
        if groups.len() >= MAX_LAYOUT_GROUPS {
            break;
        }
        if !group_index.contains_key(group.id.as_str()) {
            group_index.insert(group.id.as_str(), groups.len());
            groups.push((group.id.clone(), clean(&group.title)));
        }
    }
    let mut nodes: Vec<Sized> = Vec::new();
    let mut node_index: HashMap<&str, usize> = HashMap::new();
    for node in &input.nodes {
        if nodes.len() >= MAX_LAYOUT_NODES {
            break;
        }
        if !node_index.contains_key(node.id.as_str()) {
            node_index.insert(node.id.as_str(), nodes.len());
            let group = node
                .group
                .as_deref()
                .and_then(|id| group_index.get(id).copied());
            nodes.push(size_node(node, group));
        }
    }
    let mut links: Vec<Link> = Vec::new();
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    for edge in &input.edges {
        let (Some(&from), Some(&to)) = (
            node_index.get(edge.from.as_str()),
            node_index.get(edge.to.as_str()),
        ) else {
            continue;
        };
        let label = edge
            .label
            .as_deref()
            .map(clean)
            .filter(|label| !label.is_empty());
        if let Some(link) = seen
            .get(&(from, to))
            .and_then(|&index| links.get_mut(index))
        {
            // A duplicate: one arrow, solid if any copy is, with every distinct label.
            link.dashed &= edge.dashed;
            if let Some(label) = label {
                link.label = Some(match link.label.take() {
                    Some(old) if old == label => old,
                    Some(old) => format!("{old}, {label}"),
                    None => label,
                });
            }
            continue;
        }
        if links.len() >= MAX_LAYOUT_EDGES {
            continue;
        }
        seen.insert((from, to), links.len());
        links.push(Link {
            from,
            to,
            label,
            dashed: edge.dashed,
        });
    }
    for link in &mut links {
        link.label = link
            .label
            .as_deref()
            .map(|label| fit(label, EDGE_LABEL_CHARS));
    }
    Prepared {
        title: clean(&input.title),
        groups,
        nodes,
        links,
    }
}

/// Marks the edges a depth-first search, from each node in input order and along edges in input
/// order, finds pointing back at a node still on its path. Self-loops are never marked.
fn back_edges(n: usize, links: &[Link]) -> Vec<bool> {
    let mut out: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (index, link) in links.iter().enumerate() {
        if link.from != link.to {
            if let Some(list) = out.get_mut(link.from) {
                list.push((index, link.to));
            }
        }
    }
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; n];
    let mut reversed = vec![false; links.len()];
    for root in 0..n {
        if state.get(root) != Some(&NEW) {
            continue;
        }
        if let Some(slot) = state.get_mut(root) {
            *slot = OPEN;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&(node, next)) = stack.last() {
            match out.get(node).and_then(|list| list.get(next)).copied() {
                Some((edge, to)) => {
                    if let Some(top) = stack.last_mut() {
                        top.1 = next + 1;
                    }
                    match state.get(to).copied() {
                        Some(OPEN) => {
                            if let Some(flag) = reversed.get_mut(edge) {
                                *flag = true;
                            }
                        }
                        Some(NEW) => {
                            if let Some(slot) = state.get_mut(to) {
                                *slot = OPEN;
                            }
                            stack.push((to, 0));
                        }
                        _ => {}
                    }
                }
                None => {
                    if let Some(slot) = state.get_mut(node) {
                        *slot = DONE;
                    }
                    stack.pop();
                }
            }
        }
    }
    reversed
}

/// Layers by longest path from the sources, sources pulled down to just above their nearest
/// successor, and nodes without edges spread over the shortest layers.
fn assign_layers(n: usize, dag: &[Option<(usize, usize)>]) -> Vec<usize> {
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indegree = vec![0_usize; n];
    for &(from, to) in dag.iter().flatten() {
        if let (Some(list), Some(count)) = (succ.get_mut(from), indegree.get_mut(to)) {
            list.push(to);
            *count += 1;
        }
    }
    let has_pred: Vec<bool> = indegree.iter().map(|&count| count > 0).collect();
    let mut layer = vec![0_usize; n];
    let mut queue: VecDeque<usize> = (0..n)
        .filter(|&node| indegree.get(node) == Some(&0))
        .collect();
    while let Some(node) = queue.pop_front() {
        let next = layer.get(node).copied().unwrap_or(0) + 1;
        for &to in succ.get(node).map(Vec::as_slice).unwrap_or_default() {
            if let Some(slot) = layer.get_mut(to) {
                *slot = (*slot).max(next);
            }
            if let Some(count) = indegree.get_mut(to) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    queue.push_back(to);
                }
            }
        }
    }
    for node in 0..n {
        let Some(list) = succ.get(node) else { continue };
        if has_pred.get(node) == Some(&true) || list.is_empty() {
            continue;
        }
        let nearest = list
            .iter()
            .filter_map(|&to| layer.get(to).copied())
            .min()
            .unwrap_or(1);
        if let Some(slot) = layer.get_mut(node) {
            *slot = nearest.saturating_sub(1);
        }
    }

    let isolated: Vec<bool> = (0..n)
        .map(|node| {
            has_pred.get(node) != Some(&true) && succ.get(node).is_none_or(|list| list.is_empty())
        })
        .collect();
    let mut counts: Vec<usize> = Vec::new();
    for node in 0..n {
        if isolated.get(node) == Some(&false) {
            let at = layer.get(node).copied().unwrap_or(0);
            if counts.len() <= at {
                counts.resize(at + 1, 0);
            }
            if let Some(count) = counts.get_mut(at) {
                *count += 1;
            }
        }
    }
    let mut side = 1;
    while side * side < n {
        side += 1;
    }
    let target = counts.iter().copied().max().unwrap_or(0).max(side);
    for node in 0..n {
        if isolated.get(node) != Some(&true) {
            continue;
        }
        let best = counts
            .iter()
            .enumerate()
            .filter(|(_, &count)| count < target)
            .min_by_key(|(index, &count)| (count, *index))
            .map(|(index, _)| index);
        let at = match best {
            Some(at) => at,
            None => {
                counts.push(0);
                counts.len() - 1
            }
        };
        if let Some(count) = counts.get_mut(at) {
            *count += 1;
        }
        if let Some(slot) = layer.get_mut(node) {
            *slot = at;
        }
    }
    layer
}

/// A real node or a virtual node of a long edge, in the layered graph.
#[derive(Debug, Clone)]
struct Item {
    layer: usize,
    w: f64,
    h: f64,
    group: Option<usize>,
    real: bool,
    /// Room kept free on the right for a self-loop and its label.
    extra_right: f64,
}

/// Each item's index within its layer.
fn positions(layers: &[Vec<usize>], count: usize) -> Vec<usize> {
    let mut pos = vec![0; count];
    for layer in layers {
        for (index, &item) in layer.iter().enumerate() {
            if let Some(slot) = pos.get_mut(item) {
                *slot = index;
            }
        }
    }
    pos
}

/// Each group's rank in one left-to-right order shared by all layers: by the mean relative
/// position of its members.
fn group_ranks(items: &[Item], layers: &[Vec<usize>], group_count: usize) -> Vec<usize> {
    let mut sum = vec![0.0_f64; group_count];
    let mut count = vec![0_usize; group_count];
    for layer in layers {
        let len = layer.len().max(1) as f64;
        for (index, &item) in layer.iter().enumerate() {
            let Some(group) = items.get(item).and_then(|item| item.group) else {
                continue;
            };
            if let (Some(total), Some(n)) = (sum.get_mut(group), count.get_mut(group)) {
                *total += (index as f64 + 0.5) / len;
                *n += 1;
            }
        }
    }
    let mean: Vec<f64> = sum
        .iter()
        .zip(&count)
        .map(|(&total, &n)| if n == 0 { 0.0 } else { total / n as f64 })
        .collect();
    let mut order: Vec<usize> = (0..group_count).collect();
    crate::sorting::sort_by(&mut order, |&a, &b| {
        let ma = mean.get(a).copied().unwrap_or(0.0);
        let mb = mean.get(b).copied().unwrap_or(0.0);
        ma.total_cmp(&mb).then(a.cmp(&b))
    });
    let mut rank = vec![0; group_count];
    for (position, &group) in order.iter().enumerate() {
        if let Some(slot) = rank.get_mut(group) {
            *slot = position;
        }
    }
    rank
}

/// Reorders one layer so each group's members are adjacent and groups follow `rank`; ungrouped
/// items keep their place among the group blocks.
fn arrange_groups(layer: &mut Vec<usize>, items: &[Item], rank: &[usize]) {
    struct Block {
        key: f64,
        tie: usize,
        first: usize,
        members: Vec<usize>,
    }
    let mut by_group: BTreeMap<usize, (f64, usize, Vec<usize>)> = BTreeMap::new();
    let mut blocks: Vec<Block> = Vec::new();
    for (index, &item) in layer.iter().enumerate() {
        match items.get(item).and_then(|item| item.group) {
            Some(group) => {
                let entry = by_group.entry(group).or_insert((0.0, index, Vec::new()));
                entry.0 += index as f64;
                entry.2.push(item);
            }
            None => blocks.push(Block {
                key: index as f64,
                tie: usize::MAX,
                first: index,
                members: vec![item],
            }),
        }
    }
    let mut grouped: Vec<Block> = by_group
        .into_iter()
        .map(|(group, (sum, first, members))| Block {
            key: sum / members.len().max(1) as f64,
            tie: rank.get(group).copied().unwrap_or(group),
            first,
            members,
        })
        .collect();
    crate::sorting::sort_by_key(&mut grouped, |block| block.tie);
    let mut floor = f64::NEG_INFINITY;
    for block in &mut grouped {
        block.key = block.key.max(floor);
        floor = block.key;
    }
    blocks.extend(grouped);
    crate::sorting::sort_by(&mut blocks, |a, b| {
        a.key
            .total_cmp(&b.key)
            .then(a.tie.cmp(&b.tie))
            .then(a.first.cmp(&b.first))
    });
    let arranged: Vec<usize> = blocks.into_iter().flat_map(|block| block.members).collect();
    if arranged.len() == layer.len() {
        *layer = arranged;
    }
}

/// Sorts the items of a layer that have neighbours in the reference layer by the mean position of
/// those neighbours; items without any keep their slot.
fn barycenter_sort(layer: &mut Vec<usize>, neighbours: &[Vec<usize>], pos: &[usize]) {
    let mut slots: Vec<Option<usize>> = Vec::with_capacity(layer.len());
    let mut movable: Vec<(f64, usize, usize)> = Vec::new();
    for (index, &item) in layer.iter().enumerate() {
        let list = neighbours.get(item).map(Vec::as_slice).unwrap_or_default();
        if list.is_empty() {
            slots.push(Some(item));
        } else {
            let sum: f64 = list
                .iter()
                .map(|&other| pos.get(other).copied().unwrap_or(0) as f64)
                .sum();
            movable.push((sum / list.len() as f64, index, item));
            slots.push(None);
        }
    }
    crate::sorting::sort_by(&mut movable, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut movable = movable.into_iter();
    let sorted: Vec<usize> = slots
        .into_iter()
        .filter_map(|slot| slot.or_else(|| movable.next().map(|(_, _, item)| item)))
        .collect();
    if sorted.len() == layer.len() {
        *layer = sorted;
    }
}

/// Edge crossings between adjacent layers.
fn crossings(layers: &[Vec<usize>], down: &[Vec<usize>], pos: &[usize]) -> u64 {
    let mut total = 0_u64;
    for layer in layers {
        let mut segments: Vec<(usize, usize)> = Vec::new();
        for &item in layer {
            let from = pos.get(item).copied().unwrap_or(0);
            for &to in down.get(item).map(Vec::as_slice).unwrap_or_default() {
                segments.push((from, pos.get(to).copied().unwrap_or(0)));
            }
        }
        for (index, &(a1, b1)) in segments.iter().enumerate() {
            for &(a2, b2) in segments.iter().skip(index + 1) {
                if (a1 < a2 && b1 > b2) || (a1 > a2 && b1 < b2) {
                    total += 1;
                }
            }
        }
    }
    total
}

/// Barycenter sweeps, alternately down and up, keeping the ordering with the fewest crossings;
/// then one pass so every layer follows the final group ranks.
fn order_layers(graph: &mut Graph, group_count: usize) -> Vec<usize> {
    let items = &graph.items;
    let layers = &mut graph.layers;
    let rank = group_ranks(items, layers, group_count);
    for layer in layers.iter_mut() {
        arrange_groups(layer, items, &rank);
    }
    let mut pos = positions(layers, items.len());
    let mut best = layers.clone();
    let mut best_crossings = crossings(layers, &graph.down, &pos);
    for sweep in 0..ORDER_SWEEPS {
        if best_crossings == 0 {
            break;
        }
        let rank = group_ranks(items, layers, group_count);
        let downward = sweep % 2 == 0;
        let order: Vec<usize> = if downward {
            (1..layers.len()).collect()
        } else {
            (0..layers.len().saturating_sub(1)).rev().collect()
        };
        let neighbours = if downward { &graph.up } else { &graph.down };
        for index in order {
            let Some(layer) = layers.get_mut(index) else {
                continue;
            };
            barycenter_sort(layer, neighbours, &pos);
            arrange_groups(layer, items, &rank);
            for (at, &item) in layer.iter().enumerate() {
                if let Some(slot) = pos.get_mut(item) {
                    *slot = at;
                }
            }
        }
        let count = crossings(layers, &graph.down, &pos);
        if count < best_crossings {
            best_crossings = count;
            best = layers.clone();
        }
    }
    *layers = best;
    let rank = group_ranks(items, layers, group_count);
    for layer in layers.iter_mut() {
        arrange_groups(layer, items, &rank);
    }
    rank
}

/// The least distance between the centres of neighbours `a` (left) and `b` in a layer.
fn separation(a: &Item, b: &Item) -> f64 {
    let base = match (a.real, b.real) {
        (true, true) => NODE_GAP,
        (false, false) => VIRTUAL_GAP,
        _ => (NODE_GAP + VIRTUAL_GAP) / 2.0,
    };
    let groups = if a.group == b.group {
        0.0
    } else {
        let pad = |item: &Item| {
            if item.group.is_some() {
                GROUP_PAD_PX
            } else {
                0.0
            }
        };
        pad(a) + pad(b) + GROUP_GAP
    };
    (a.w + b.w) / 2.0 + a.extra_right + base + groups
}

/// The positions closest (weighted least squares) to `desired` that keep each neighbour at least
/// `gaps[i]` right of the previous one: isotonic regression by pooling adjacent violators.
fn pool_adjacent(desired: &[f64], weights: &[f64], gaps: &[f64]) -> Vec<f64> {
    let mut offsets = Vec::with_capacity(desired.len());
    let mut total = 0.0;
    offsets.push(0.0);
    for gap in gaps.iter().take(desired.len().saturating_sub(1)) {
        total += gap;
        offsets.push(total);
    }
    // (weight, weighted sum, count)
    let mut blocks: Vec<(f64, f64, usize)> = Vec::new();
    for ((&want, &weight), &offset) in desired.iter().zip(weights).zip(&offsets) {
        blocks.push((weight, weight * (want - offset), 1));
        while blocks.len() >= 2 {
            let (Some(&last), Some(&prev)) = (blocks.last(), blocks.iter().rev().nth(1)) else {
                break;
            };
            if prev.1 / prev.0 <= last.1 / last.0 {
                break;
            }
            blocks.pop();
            if let Some(merged) = blocks.last_mut() {
                *merged = (prev.0 + last.0, prev.1 + last.1, prev.2 + last.2);
            }
        }
    }
    let mut out = Vec::with_capacity(desired.len());
    let mut offsets = offsets.iter();
    for (weight, sum, count) in blocks {
        let mean = sum / weight;
        for _ in 0..count {
            out.push(mean + offsets.next().copied().unwrap_or(0.0));
        }
    }
    out
}

#[derive(Clone, Copy)]
enum Pull {
    Up,
    Down,
    Both,
}

/// Moves each layer towards the mean x of its items' neighbours in the chosen direction.
fn place_pass(graph: &Graph, x: &mut [f64], pull: Pull) {
    let order: Vec<usize> = match pull {
        Pull::Down => (0..graph.layers.len()).rev().collect(),
        Pull::Up | Pull::Both => (0..graph.layers.len()).collect(),
    };
    for index in order {
        let Some(layer) = graph.layers.get(index) else {
            continue;
        };
        let mut desired = Vec::with_capacity(layer.len());
        let mut weights = Vec::with_capacity(layer.len());
        let mut gaps = Vec::with_capacity(layer.len());
        let mut previous: Option<&Item> = None;
        for &item in layer {
            let none: &[usize] = &[];
            let above = graph.up.get(item).map(Vec::as_slice).unwrap_or(none);
            let below = graph.down.get(item).map(Vec::as_slice).unwrap_or(none);
            let (first, second) = match pull {
                Pull::Up => (above, none),
                Pull::Down => (below, none),
                Pull::Both => (above, below),
            };
            let count = first.len() + second.len();
            let current = x.get(item).copied().unwrap_or(0.0);
            desired.push(if count == 0 {
                current
            } else {
                first
                    .iter()
                    .chain(second)
                    .map(|&other| x.get(other).copied().unwrap_or(0.0))
                    .sum::<f64>()
                    / count as f64
            });
            let this = graph.items.get(item);
            weights.push(if this.is_some_and(|item| !item.real) {
                2.0
            } else {
                1.0
            });
            if let (Some(left), Some(this)) = (previous, this) {
                gaps.push(separation(left, this));
            }
            previous = this;
        }
        let placed = pool_adjacent(&desired, &weights, &gaps);
        for (&item, value) in layer.iter().zip(placed) {
            if let Some(slot) = x.get_mut(item) {
                *slot = value;
            }
        }
    }
}

/// Centre x of every item: layers packed around 0, then pulled towards their neighbours.
fn place_x(graph: &Graph) -> Vec<f64> {
    let mut x = vec![0.0; graph.items.len()];
    for layer in &graph.layers {
        let mut at = 0.0;
        let mut previous: Option<&Item> = None;
        for &item in layer {
            let this = graph.items.get(item);
            if let (Some(left), Some(this)) = (previous, this) {
                at += separation(left, this);
            }
            if let Some(slot) = x.get_mut(item) {
                *slot = at;
            }
            previous = this;
        }
        for &item in layer {
            if let Some(slot) = x.get_mut(item) {
                *slot -= at / 2.0;
            }
        }
    }
    for _ in 0..PLACE_ROUNDS {
        place_pass(graph, &mut x, Pull::Up);
        place_pass(graph, &mut x, Pull::Down);
    }
    place_pass(graph, &mut x, Pull::Both);
    place_pass(graph, &mut x, Pull::Both);
    x
}

/// The horizontal extent of all items.
fn span(items: &[Item], x: &[f64]) -> f64 {
    let mut left = f64::INFINITY;
    let mut right = f64::NEG_INFINITY;
    for (item, &at) in items.iter().zip(x) {
        let (l, r) = extent(item, at);
        left = left.min(l);
        right = right.max(r);
    }
    if left.is_finite() && right.is_finite() {
        right - left
    } else {
        0.0
    }
}

/// Left and right edge of an item, including room for a self-loop.
fn extent(item: &Item, x: f64) -> (f64, f64) {
    (x - item.w / 2.0, x + item.w / 2.0 + item.extra_right)
}

/// A difference constraint: `x[right] >= x[left] + distance`.
struct Constraint {
    left: usize,
    right: usize,
    distance: f64,
}

/// A group's real members, its layer span and the centre of its members, in rank order.
struct Span {
    rank: usize,
    members: Vec<usize>,
    top: usize,
    bottom: usize,
    centre: f64,
}

fn group_spans(items: &[Item], x: &[f64], rank: &[usize]) -> Vec<Span> {
    let mut spans = Vec::new();
    for (group, &position) in rank.iter().enumerate() {
        let members: Vec<usize> = (0..items.len())
            .filter(|&index| {
                items
                    .get(index)
                    .is_some_and(|item| item.real && item.group == Some(group))
            })
            .collect();
        let mut top = usize::MAX;
        let mut bottom = 0;
        let mut left = f64::INFINITY;
        let mut right = f64::NEG_INFINITY;
        for &member in &members {
            if let Some(item) = items.get(member) {
                top = top.min(item.layer);
                bottom = bottom.max(item.layer);
                let (l, r) = extent(item, x.get(member).copied().unwrap_or(0.0));
                left = left.min(l);
                right = right.max(r);
            }
        }
        if top <= bottom {
            spans.push(Span {
                rank: position,
                members,
                top,
                bottom,
                centre: (left + right) / 2.0,
            });
        }
    }
    crate::sorting::sort_by_key(&mut spans, |span| span.rank);
    // Centres that never decrease in rank order, so an ungrouped node right of one group is also
    // right of every group ranked before it.
    let mut floor = f64::NEG_INFINITY;
    for span in &mut spans {
        span.centre = span.centre.max(floor);
        floor = span.centre;
    }
    spans
}

/// The constraints that keep group boxes clear: each layer keeps its order and spacing; two groups
/// whose layer spans overlap sit side by side in rank order; and an ungrouped node in a layer a
/// group spans stays on its side of that group's box.
fn box_constraints(graph: &Graph, x: &[f64], rank: &[usize]) -> Vec<Constraint> {
    let items = &graph.items;
    let mut constraints = Vec::new();
    let mut push_all = |lefts: &[usize], rights: &[usize]| {
        for &left in lefts {
            for &right in rights {
                if let (Some(a), Some(b)) = (items.get(left), items.get(right)) {
                    constraints.push(Constraint {
                        left,
                        right,
                        distance: separation(a, b),
                    });
                }
            }
        }
    };
    for layer in &graph.layers {
        for pair in layer.windows(2) {
            if let [left, right] = *pair {
                push_all(&[left], &[right]);
            }
        }
    }
    let spans = group_spans(items, x, rank);
    for (index, span) in spans.iter().enumerate() {
        for other in spans.iter().skip(index + 1) {
            if other.top <= span.bottom && span.top <= other.bottom {
                push_all(&span.members, &other.members);
            }
        }
    }
    let rank_of = |item: usize| {
        items
            .get(item)
            .and_then(|item| item.group)
            .and_then(|group| rank.get(group).copied())
    };
    for span in &spans {
        for layer in graph.layers.iter().take(span.bottom + 1).skip(span.top) {
            // The slots of this group's block: exactly its members when it has some here, else
            // between the members of groups ranked before and after it.
            let here: Vec<usize> = layer
                .iter()
                .enumerate()
                .filter(|(_, item)| span.members.contains(item))
                .map(|(index, _)| index)
                .collect();
            let (start, end) = match (here.first(), here.last()) {
                (Some(&first), Some(&last)) => (first, last + 1),
                _ => {
                    let mut start = 0;
                    let mut end = layer.len();
                    for (index, &item) in layer.iter().enumerate() {
                        match rank_of(item) {
                            Some(other) if other < span.rank => start = index + 1,
                            Some(other) if other > span.rank => end = end.min(index),
                            _ => {}
                        }
                    }
                    (start, end)
                }
            };
            let mut right_side = false;
            for (index, &other) in layer.iter().enumerate() {
                let Some(item) = items.get(other) else {
                    continue;
                };
                if !item.real || item.group.is_some() {
                    continue;
                }
                // Once one node is right of the box, every later one is too.
                right_side = right_side
                    || index >= end
                    || (index >= start
                        && here.is_empty()
                        && x.get(other).copied().unwrap_or(0.0) >= span.centre);
                if right_side {
                    push_all(&span.members, &[other]);
                } else {
                    push_all(&[other], &span.members);
                }
            }
        }
    }
    constraints
}

/// The least positions at or right of `x` (or, `leftward`, the greatest at or left of it) that
/// meet every constraint; `None` when they contradict each other.
fn relax(x: &[f64], constraints: &[Constraint], leftward: bool) -> Option<Vec<f64>> {
    let mut out = x.to_vec();
    for _ in 0..=x.len() {
        let mut changed = false;
        let mut visit = |constraint: &Constraint| {
            let (Some(&left), Some(&right)) = (out.get(constraint.left), out.get(constraint.right))
            else {
                return;
            };
            if right + 0.001 >= left + constraint.distance {
                return;
            }
            changed = true;
            let update = if leftward {
                out.get_mut(constraint.left)
                    .map(|slot| (slot, right - constraint.distance))
            } else {
                out.get_mut(constraint.right)
                    .map(|slot| (slot, left + constraint.distance))
            };
            if let Some((slot, value)) = update {
                *slot = value;
            }
        };
        if leftward {
            constraints.iter().rev().for_each(&mut visit);
        } else {
            constraints.iter().for_each(&mut visit);
        }
        if !changed {
            return Some(out);
        }
    }
    None
}

/// Moves nodes out of other groups' boxes: the mean of the least move right and the least move
/// left that meet [`box_constraints`] (the mean of two solutions of difference constraints is one
/// too). `None` when no order-keeping placement exists.
fn separate_groups(graph: &Graph, x: &[f64], rank: &[usize]) -> Option<Vec<f64>> {
    let constraints = box_constraints(graph, x, rank);
    let right = relax(x, &constraints, false)?;
    let left = relax(x, &constraints, true)?;
    Some(
        right
            .iter()
            .zip(&left)
            .map(|(r, l)| (r + l) / 2.0)
            .collect(),
    )
}

/// Spreads the ends of several edges along a node's bottom (or top) border, in the order of the
/// items they lead to.
fn spread_ports(ends: &mut [(f64, usize)], width: f64, offsets: &mut [f64]) {
    crate::sorting::sort_by(ends, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let count = ends.len();
    if count < 2 {
        return;
    }
    let span = (width * 0.6).min(18.0 * (count - 1) as f64);
    for (index, &(_, edge)) in ends.iter().enumerate() {
        if let Some(slot) = offsets.get_mut(edge) {
            *slot = -span / 2.0 + span * index as f64 / (count - 1) as f64;
        }
    }
}

/// The layered graph: real nodes first (same indices as the prepared nodes), then virtual ones.
struct Graph {
    items: Vec<Item>,
    /// Per edge, the items it passes through in layer order; empty for self-loops.
    chains: Vec<Vec<usize>>,
    layers: Vec<Vec<usize>>,
    up: Vec<Vec<usize>>,
    down: Vec<Vec<usize>>,
}

fn build_graph(prepared: &Prepared, dag: &[Option<(usize, usize)>], node_layer: &[usize]) -> Graph {
    let mut items: Vec<Item> = prepared
        .nodes
        .iter()
        .zip(node_layer)
        .map(|(node, &layer)| Item {
            layer,
            w: node.w,
            h: node.h,
            group: node.group,
            real: true,
            extra_right: 0.0,
        })
        .collect();
    for link in &prepared.links {
        if link.from == link.to {
            let label_w = link
                .label
                .as_deref()
                .map_or(0.0, |label| label_size(label).0);
            if let Some(item) = items.get_mut(link.from) {
                item.extra_right = item
                    .extra_right
                    .max(SELF_LOOP_PX + (label_w / 2.0).max(8.0));
            }
        }
    }
    let mut chains: Vec<Vec<usize>> = Vec::with_capacity(dag.len());
    for &edge in dag {
        let Some((from, to)) = edge else {
            chains.push(Vec::new());
            continue;
        };
        let start = node_layer.get(from).copied().unwrap_or(0);
        let end = node_layer.get(to).copied().unwrap_or(0);
        let mut chain = vec![from];
        for layer in (start + 1)..end {
            chain.push(items.len());
            items.push(Item {
                layer,
                w: VIRTUAL_W,
                h: 0.0,
                group: None,
                real: false,
                extra_right: 0.0,
            });
        }
        chain.push(to);
        chains.push(chain);
    }
    let layer_count = items.iter().map(|item| item.layer + 1).max().unwrap_or(0);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); layer_count];
    for (index, item) in items.iter().enumerate() {
        if let Some(layer) = layers.get_mut(item.layer) {
            layer.push(index);
        }
    }
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
    for chain in &chains {
        for pair in chain.windows(2) {
            if let [a, b] = *pair {
                if let Some(list) = down.get_mut(a) {
                    list.push(b);
                }
                if let Some(list) = up.get_mut(b) {
                    list.push(a);
                }
            }
        }
    }
    Graph {
        items,
        chains,
        layers,
        up,
        down,
    }
}

/// Final positions: each item's centre x, and each layer's row.
struct Frame {
    x: Vec<f64>,
    row_top: Vec<f64>,
    row_h: Vec<f64>,
}

impl Frame {
    /// Rows as tall as their tallest node, `LAYER_GAP` apart.
    fn new(graph: &Graph, x: Vec<f64>) -> Frame {
        let mut row_top = Vec::with_capacity(graph.layers.len());
        let mut row_h = Vec::with_capacity(graph.layers.len());
        let mut at = 0.0;
        for layer in &graph.layers {
            let height = layer
                .iter()
                .filter_map(|&item| graph.items.get(item))
                .map(|item| item.h)
                .fold(0.0, f64::max);
            row_top.push(at);
            row_h.push(height);
            at += height + LAYER_GAP;
        }
        Frame { x, row_top, row_h }
    }

    fn x(&self, item: usize) -> f64 {
        self.x.get(item).copied().unwrap_or(0.0)
    }

    /// The top and height of a layer's row.
    fn row(&self, layer: usize) -> (f64, f64) {
        (
            self.row_top.get(layer).copied().unwrap_or(0.0),
            self.row_h.get(layer).copied().unwrap_or(0.0),
        )
    }

    /// An item's box (left, top, width, height), centred in its row.
    fn rect(&self, items: &[Item], index: usize) -> (f64, f64, f64, f64) {
        let Some(item) = items.get(index) else {
            return (0.0, 0.0, 0.0, 0.0);
        };
        let (top, height) = self.row(item.layer);
        (
            self.x(index) - item.w / 2.0,
            top + (height - item.h) / 2.0,
            item.w,
            item.h,
        )
    }
}

/// Where each edge leaves its first node and enters its last, as offsets from the node centres.
fn ports(graph: &Graph, frame: &Frame, n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut out_offset = vec![0.0; graph.chains.len()];
    let mut in_offset = vec![0.0; graph.chains.len()];
    let mut outgoing: Vec<Vec<(f64, usize)>> = vec![Vec::new(); n];
    let mut incoming: Vec<Vec<(f64, usize)>> = vec![Vec::new(); n];
    for (edge, chain) in graph.chains.iter().enumerate() {
        if let (Some(&first), Some(&second)) = (chain.first(), chain.get(1)) {
            if let Some(list) = outgoing.get_mut(first) {
                list.push((frame.x(second), edge));
            }
        }
        let mut back = chain.iter().rev();
        if let (Some(&last), Some(&before)) = (back.next(), back.next()) {
            if let Some(list) = incoming.get_mut(last) {
                list.push((frame.x(before), edge));
            }
        }
    }
    for (node, ends) in outgoing.iter_mut().enumerate() {
        spread_ports(ends, frame.rect(&graph.items, node).2, &mut out_offset);
    }
    for (node, ends) in incoming.iter_mut().enumerate() {
        spread_ports(ends, frame.rect(&graph.items, node).2, &mut in_offset);
    }
    (out_offset, in_offset)
}

/// An edge with the segment its label belongs on.
struct Routed {
    edge: PlacedEdge,
    from: (f64, f64),
    to: (f64, f64),
}

/// Every edge's polyline, and the segment for its label: the middle gap between layers (or, for a
/// self-loop, the point right of its node).
fn route_edges(
    prepared: &Prepared,
    graph: &Graph,
    frame: &Frame,
    reversed: &[bool],
) -> Vec<Routed> {
    let (out_offset, in_offset) = ports(graph, frame, prepared.nodes.len());
    let mut routed = Vec::with_capacity(prepared.links.len());
    for (index, link) in prepared.links.iter().enumerate() {
        let chain = graph
            .chains
            .get(index)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let (points, from, to) = if let [first, .., last] = *chain {
            let (fx, fy, fw, fh) = frame.rect(&graph.items, first);
            let (lx, ly, lw, _) = frame.rect(&graph.items, last);
            let mut points = vec![(
                fx + fw / 2.0 + out_offset.get(index).copied().unwrap_or(0.0),
                fy + fh,
            )];
            // Gap segments: from the bottom of one layer to the top of the next.
            let mut gaps: Vec<(usize, usize)> = Vec::new();
            for &virtual_node in chain.iter().skip(1).take(chain.len().saturating_sub(2)) {
                let layer = graph.items.get(virtual_node).map_or(0, |item| item.layer);
                let (top, height) = frame.row(layer);
                let vx = frame.x(virtual_node);
                gaps.push((points.len().saturating_sub(1), points.len()));
                points.push((vx, top));
                if height > 0.0 {
                    points.push((vx, top + height));
                }
            }
            gaps.push((points.len().saturating_sub(1), points.len()));
            points.push((
                lx + lw / 2.0 + in_offset.get(index).copied().unwrap_or(0.0),
                ly,
            ));
            let (a, b) = gaps
                .get(gaps.len().saturating_sub(1) / 2)
                .copied()
                .unwrap_or((0, 0));
            let pa = points.get(a).copied().unwrap_or((0.0, 0.0));
            let pb = points.get(b).copied().unwrap_or(pa);
            if reversed.get(index) == Some(&true) {
                points.reverse();
            }
            (points, pa, pb)
        } else {
            // A self-loop on the node's right side.
            let (nx, ny, nw, nh) = frame.rect(&graph.items, link.from);
            let right = nx + nw;
            let out = right + SELF_LOOP_PX;
            let points = vec![
                (right, ny + nh * 0.3),
                (out, ny + nh * 0.3),
                (out, ny + nh * 0.7),
                (right, ny + nh * 0.7),
            ];
            (points, (out, ny + nh / 2.0), (out, ny + nh / 2.0))
        };
        let name = |node: usize| {
            prepared
                .nodes
                .get(node)
                .map(|n| n.id.clone())
                .unwrap_or_default()
        };
        routed.push(Routed {
            edge: PlacedEdge {
                from: name(link.from),
                to: name(link.to),
                points,
                label: link.label.clone(),
                label_at: ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0),
                dashed: link.dashed,
            },
            from,
            to,
        });
    }
    routed
}

type Rect = (f64, f64, f64, f64);

fn overlaps(a: Rect, b: Rect) -> bool {
    a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + b.3 && b.1 < a.1 + a.3
}

/// Slides each label along its segment, away from the middle only when it would cover a node or
/// a label placed before it.
fn place_labels(routed: Vec<Routed>, nodes: &[Rect]) -> Vec<PlacedEdge> {
    let mut taken: Vec<Rect> = nodes.to_vec();
    let mut edges = Vec::with_capacity(routed.len());
    for Routed { mut edge, from, to } in routed {
        if let Some(label) = &edge.label {
            let (w, h) = label_size(label);
            let boxed = |(cx, cy): (f64, f64)| (cx - w / 2.0, cy - h / 2.0, w, h);
            let best = LABEL_SPOTS
                .iter()
                .map(|&t| (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t))
                .find(|&point| !taken.iter().any(|&other| overlaps(boxed(point), other)))
                .unwrap_or(edge.label_at);
            edge.label_at = best;
            taken.push(boxed(best));
        }
        edges.push(edge);
    }
    edges
}

/// Each group's box: its members' bounding box, padded, with a title band on top.
fn group_boxes(prepared: &Prepared, graph: &Graph, frame: &Frame) -> Vec<PlacedGroup> {
    let mut groups = Vec::new();
    for (group, (id, title)) in prepared.groups.iter().enumerate() {
        let mut bounds: Option<(f64, f64, f64, f64)> = None;
        for (index, item) in graph.items.iter().enumerate() {
            if !item.real || item.group != Some(group) {
                continue;
            }
            let (nx, ny, nw, nh) = frame.rect(&graph.items, index);
            let right = nx + nw + item.extra_right;
            bounds = Some(match bounds {
                None => (nx, ny, right, ny + nh),
                Some((l, t, r, b)) => (l.min(nx), t.min(ny), r.max(right), b.max(ny + nh)),
            });
        }
        if let Some((l, t, r, b)) = bounds {
            groups.push(PlacedGroup {
                id: id.clone(),
                title: title.clone(),
                x: l - GROUP_PAD_PX,
                y: t - GROUP_PAD_PX - GROUP_TITLE_PX,
                w: r - l + 2.0 * GROUP_PAD_PX,
                h: b - t + 2.0 * GROUP_PAD_PX + GROUP_TITLE_PX,
            });
        }
    }
    groups
}

/// Lays out a diagram; see the module documentation for the method.
pub fn layout(input: &LayoutInput) -> Layout {
    let prepared = prepare(input);
    let n = prepared.nodes.len();
    let reversed = back_edges(n, &prepared.links);
    let dag: Vec<Option<(usize, usize)>> = prepared
        .links
        .iter()
        .zip(&reversed)
        .map(|(link, &back)| {
            if link.from == link.to {
                None
            } else if back {
                Some((link.to, link.from))
            } else {
                Some((link.from, link.to))
            }
        })
        .collect();
    let node_layer = assign_layers(n, &dag);
    let mut graph = build_graph(&prepared, &dag, &node_layer);
    let rank = order_layers(&mut graph, prepared.groups.len());
    let mut x = place_x(&graph);
    // Groups that interleave badly would need a very wide drawing to keep their boxes clear of
    // other nodes; then overlapping boxes are the lesser evil.
    if let Some(separated) = separate_groups(&graph, &x, &rank) {
        let limit = span(&graph.items, &x) * MAX_GROUP_STRETCH + GROUP_STRETCH_PX;
        if span(&graph.items, &separated) <= limit {
            x = separated;
        }
    }
    let frame = Frame::new(&graph, x);

    let rects: Vec<Rect> = (0..n)
        .map(|index| frame.rect(&graph.items, index))
        .collect();
    let edges = place_labels(route_edges(&prepared, &graph, &frame, &reversed), &rects);
    let groups = group_boxes(&prepared, &graph, &frame);
    let mut nodes = Vec::with_capacity(n);
    for (node, (nx, ny, nw, nh)) in prepared.nodes.into_iter().zip(rects) {
        nodes.push(PlacedNode {
            id: node.id,
            title: node.title,
            x: nx,
            y: ny,
            w: nw,
            h: nh,
            title_lines: node.title_lines,
            kind: node.kind,
            group: node
                .group
                .and_then(|group| prepared.groups.get(group))
                .map(|(id, _)| id.clone()),
            file_label: node.file_label,
            lines: node.lines,
            file: node.file,
            hunk: node.hunk,
        });
    }
    let mut result = Layout {
        title: prepared.title,
        width: 0.0,
        height: 0.0,
        nodes,
        edges,
        groups,
    };
    normalize(&mut result, &graph.items);
    result
}

/// Moves everything so the drawing starts at the margin, and sets the size to fit it all.
fn normalize(layout: &mut Layout, items: &[Item]) {
    let mut min = (f64::INFINITY, f64::INFINITY);
    let mut max = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut take = |left: f64, top: f64, right: f64, bottom: f64| {
        min = (min.0.min(left), min.1.min(top));
        max = (max.0.max(right), max.1.max(bottom));
    };
    for (node, item) in layout.nodes.iter().zip(items) {
        take(
            node.x,
            node.y,
            node.x + node.w + item.extra_right,
            node.y + node.h,
        );
    }
    for group in &layout.groups {
        take(group.x, group.y, group.x + group.w, group.y + group.h);
    }
    for edge in &layout.edges {
        for &(px, py) in &edge.points {
            take(px, py, px, py);
        }
        if let Some(label) = &edge.label {
            let (w, h) = label_size(label);
            let (cx, cy) = edge.label_at;
            take(cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0);
        }
    }
    if !(min.0.is_finite() && min.1.is_finite() && max.0.is_finite() && max.1.is_finite()) {
        layout.width = 2.0 * MARGIN;
        layout.height = 2.0 * MARGIN;
        return;
    }
    let dx = MARGIN - min.0;
    let dy = MARGIN - min.1;
    for node in &mut layout.nodes {
        node.x += dx;
        node.y += dy;
    }
    for group in &mut layout.groups {
        group.x += dx;
        group.y += dy;
    }
    for edge in &mut layout.edges {
        for point in &mut edge.points {
            point.0 += dx;
            point.1 += dy;
        }
        edge.label_at.0 += dx;
        edge.label_at.1 += dy;
    }
    layout.width = (max.0 - min.0 + 2.0 * MARGIN).ceil();
    layout.height = (max.1 - min.1 + 2.0 * MARGIN).ceil();
}

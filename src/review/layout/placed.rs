//! What the layout returns: the [`Layout`] of a diagram, with every node's box and text, every
//! edge's points and label, and every group's box.
//!
//! Why: the review page embeds it as JSON for `src/static/diagram.js`, and the MCP Apps view gets
//! it in `view_diagram`'s result; both only turn these numbers into SVG elements.
//! What not: no links (the page decides where a node's file points).

use serde::Serialize;

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
        super::text::content_top(self.kind)
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
    /// The centre of the label box (sized by `text::label_size`).
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

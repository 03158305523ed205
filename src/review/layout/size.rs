//! Sizes one node from its text: the title wrapped into lines, the file's base name, the `lines`
//! rows, and the box around them (wider for a `decision`, taller for a `data` cylinder).
//!
//! Why: layers are spaced by their tallest node and neighbours by their widths, so every size is
//! known before placement starts.
//! What not: no positions (`place`, `frame`).

use super::input::{LayoutNode, MAX_LAYOUT_LINES};
use super::metrics::{
    DATA_CAP_PX, DECISION_INSET_PX, NODE_PAD_X, NODE_PAD_Y, ROWS_GAP_PX, ROW_CHAR_PX, ROW_LINE_PX,
    TITLE_CHAR_PX, TITLE_LINE_PX,
};
use super::placed::PlacedLine;
use super::text::{clean, content_top, fit, wrap};

/// Title characters per line, title lines, row characters, rows per `lines` entry, and the longest
/// row label and file label shown.
const TITLE_WRAP: usize = 24;
const TITLE_MAX_LINES: usize = 3;
const ROW_WRAP: usize = 34;
const ROWS_PER_LINE: usize = 2;
const ROW_LABEL_CHARS: usize = 16;
const FILE_LABEL_CHARS: usize = 34;
const MIN_NODE_W: f64 = 112.0;

/// A node with its text laid out and its size known, before placement.
pub(super) struct Sized {
    pub(super) id: String,
    pub(super) title: String,
    pub(super) kind: &'static str,
    pub(super) group: Option<usize>,
    pub(super) title_lines: Vec<String>,
    pub(super) file_label: Option<String>,
    pub(super) lines: Vec<PlacedLine>,
    pub(super) file: Option<String>,
    pub(super) hunk: Option<String>,
    pub(super) w: f64,
    pub(super) h: f64,
}

pub(super) fn size_node(node: &LayoutNode, group: Option<usize>) -> Sized {
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

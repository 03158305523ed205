//! The last step of the layout, from the final positions: each group's padded box with its title
//! band, and the finished [`Layout`] moved so the drawing starts at the margin, with a size that
//! fits it all.
//!
//! Why: every coordinate the drawing gets lies within `0..width` and `0..height`, and a group box
//! holds its members whatever their size.
//! What not: no node boxes (`frame`) or edges (`route`, `labels`); the pipeline puts the nodes
//! and edges in the [`Layout`] before it is moved here.

use super::frame::Frame;
use super::graph::{Graph, Item};
use super::metrics::{GROUP_PAD_PX, GROUP_TITLE_PX};
use super::placed::{Layout, PlacedGroup};
use super::prepare::Prepared;
use super::text::label_size;

/// The space around the drawing.
const MARGIN: f64 = 16.0;

/// Each group's box: its members' bounding box, padded, with a title band on top.
pub(super) fn group_boxes(prepared: &Prepared, graph: &Graph, frame: &Frame) -> Vec<PlacedGroup> {
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

/// Moves everything so the drawing starts at the margin, and sets the size to fit it all.
pub(super) fn normalize(layout: &mut Layout, items: &[Item]) {
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

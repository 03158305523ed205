//! Step 6 of the layout: the frame of final positions, with rows stacked as tall as their
//! tallest node.
//!
//! Why: edges, labels and group boxes are all drawn from the same boxes, so each box is computed
//! in one place.
//! What not: no edges (`route`).

use super::graph::{Graph, Item};

/// The space between one row and the next.
const LAYER_GAP: f64 = 72.0;

/// A box: left, top, width, height.
pub(super) type Rect = (f64, f64, f64, f64);

/// Final positions: each item's centre x, and each layer's row.
pub(super) struct Frame {
    x: Vec<f64>,
    row_top: Vec<f64>,
    row_h: Vec<f64>,
}

impl Frame {
    /// Rows as tall as their tallest node, `LAYER_GAP` apart.
    pub(super) fn new(graph: &Graph, x: Vec<f64>) -> Frame {
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

    pub(super) fn x(&self, item: usize) -> f64 {
        self.x.get(item).copied().unwrap_or(0.0)
    }

    /// The top and height of a layer's row.
    pub(super) fn row(&self, layer: usize) -> (f64, f64) {
        (
            self.row_top.get(layer).copied().unwrap_or(0.0),
            self.row_h.get(layer).copied().unwrap_or(0.0),
        )
    }

    /// An item's box (left, top, width, height), centred in its row.
    pub(super) fn rect(&self, items: &[Item], index: usize) -> (f64, f64, f64, f64) {
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

//! Step 6, continued: where each edge's label sits along its middle segment.
//!
//! Why: a label covering a node or another label cannot be read; sliding it along its own segment
//! keeps it next to its edge.
//! What not: no routing (`route`).

use super::frame::Rect;
use super::placed::PlacedEdge;
use super::route::Routed;
use super::text::label_size;

/// Where along its segment a label may sit, in order of preference.
const LABEL_SPOTS: [f64; 7] = [0.5, 0.35, 0.65, 0.25, 0.75, 0.15, 0.85];

fn overlaps(a: Rect, b: Rect) -> bool {
    a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + b.3 && b.1 < a.1 + a.3
}

/// Slides each label along its segment, away from the middle only when it would cover a node or
/// a label placed before it.
pub(super) fn place_labels(routed: Vec<Routed>, nodes: &[Rect]) -> Vec<PlacedEdge> {
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

//! Step 5 of the layout: each item's x, by pooling adjacent violators: in each layer, the
//! positions closest to the mean of the item's neighbours that keep the spacing.
//!
//! Why: nodes sit over the nodes they connect to, so edges run as straight as the spacing allows.
//! What not: no group boxes (`groups` clears them afterwards), no y (`frame`).

use super::graph::{Graph, Item};
use super::metrics::GROUP_PAD_PX;

const NODE_GAP: f64 = 28.0;
const VIRTUAL_GAP: f64 = 14.0;
/// Extra gap between neighbours of different groups.
const GROUP_GAP: f64 = 8.0;
/// Rounds of pulls up and down before the final pulls both ways.
const PLACE_ROUNDS: usize = 6;

/// The least distance between the centres of neighbours `a` (left) and `b` in a layer.
pub(super) fn separation(a: &Item, b: &Item) -> f64 {
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
pub(super) fn place_x(graph: &Graph) -> Vec<f64> {
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
pub(super) fn span(items: &[Item], x: &[f64]) -> f64 {
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
pub(super) fn extent(item: &Item, x: f64) -> (f64, f64) {
    (x - item.w / 2.0, x + item.w / 2.0 + item.extra_right)
}

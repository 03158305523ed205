//! Step 5, continued: moves nodes out of other groups' boxes with difference constraints. The
//! pipeline ([`super::layout`]) keeps the result only while the drawing stays within
//! [`MAX_GROUP_STRETCH`] times its width plus [`GROUP_STRETCH_PX`].
//!
//! Why: a group box that covers a node of another group (or of none) misleads the reader about
//! what belongs together.
//! What not: no boxes themselves (`output` draws them from the final positions).

use super::graph::{Graph, Item};
use super::place::{extent, separation};

/// Clearing group boxes may widen the drawing by this factor plus this much, or not at all.
pub(super) const MAX_GROUP_STRETCH: f64 = 2.0;
pub(super) const GROUP_STRETCH_PX: f64 = 240.0;

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
    crate::sorting::sort_by_key(&mut spans, &|span| span.rank);
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
pub(super) fn separate_groups(graph: &Graph, x: &[f64], rank: &[usize]) -> Option<Vec<f64>> {
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

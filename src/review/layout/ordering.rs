//! Step 4 of the layout: the order of items within each layer, by barycenter sweeps that keep the
//! ordering with the fewest crossings.
//!
//! Why: crossings are what make a flow diagram hard to follow. A group's members stay adjacent in
//! every layer, and groups keep one left-to-right order, so each group can be drawn as one box.
//! What not: no coordinates (`place`).

use std::collections::BTreeMap;

use crate::sorting;

use super::graph::{Graph, Item};

/// Sweeps down and up the layers before the best ordering found is kept.
const ORDER_SWEEPS: usize = 8;

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
    sorting::sort_by(&mut order, &|&a, &b| {
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
    sorting::sort_by_key(&mut grouped, &|block| block.tie);
    let mut floor = f64::NEG_INFINITY;
    for block in &mut grouped {
        block.key = block.key.max(floor);
        floor = block.key;
    }
    blocks.extend(grouped);
    sorting::sort_by(&mut blocks, &|a, b| {
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
    sorting::sort_by(&mut movable, &|a, b| {
        a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
    });
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
pub(super) fn order_layers(graph: &mut Graph, group_count: usize) -> Vec<usize> {
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

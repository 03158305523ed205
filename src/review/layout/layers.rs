//! Step 2 of the layout: each node's layer (its row), by longest path from the sources.
//!
//! Why: longest-path layering makes every edge point down; pulling each source down next to its
//! nearest successor keeps edges short, and spreading nodes without edges over the shortest layers
//! keeps them from making one very wide row.
//! What not: no order within a layer (`ordering`).

use std::collections::VecDeque;

/// Layers by longest path from the sources, sources pulled down to just above their nearest
/// successor, and nodes without edges spread over the shortest layers.
pub(super) fn assign_layers(n: usize, dag: &[Option<(usize, usize)>]) -> Vec<usize> {
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

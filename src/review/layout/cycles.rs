//! Step 1 of the layout: break cycles by turning round every back edge a depth-first search finds.
//!
//! Why: layering needs a directed acyclic graph; a turned edge is still drawn from its own start
//! to its own end (`route`), so the reader sees the loop pointing back up.
//! What not: no layers (`layers`).

use super::prepare::Link;

/// Marks the edges a depth-first search, from each node in input order and along edges in input
/// order, finds pointing back at a node still on its path. Self-loops are never marked.
pub(super) fn back_edges(n: usize, links: &[Link]) -> Vec<bool> {
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

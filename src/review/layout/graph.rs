//! Step 3 of the layout: the layered graph, with a virtual node on every layer a long edge
//! crosses.
//!
//! Why: with an item on every layer it passes, a long edge is ordered and placed like a node, so
//! it bends around other nodes instead of crossing them.
//! What not: no order within layers (`ordering`) and no coordinates (`place`).

use super::metrics::SELF_LOOP_PX;
use super::prepare::Prepared;
use super::text::label_size;

/// The width kept for a long edge's virtual node.
const VIRTUAL_W: f64 = 8.0;

/// A real node or a virtual node of a long edge, in the layered graph.
#[derive(Debug, Clone)]
pub(super) struct Item {
    pub(super) layer: usize,
    pub(super) w: f64,
    pub(super) h: f64,
    pub(super) group: Option<usize>,
    pub(super) real: bool,
    /// Room kept free on the right for a self-loop and its label.
    pub(super) extra_right: f64,
}

/// The layered graph: real nodes first (same indices as the prepared nodes), then virtual ones.
pub(super) struct Graph {
    pub(super) items: Vec<Item>,
    /// Per edge, the items it passes through in layer order; empty for self-loops.
    pub(super) chains: Vec<Vec<usize>>,
    pub(super) layers: Vec<Vec<usize>>,
    pub(super) up: Vec<Vec<usize>>,
    pub(super) down: Vec<Vec<usize>>,
}

pub(super) fn build_graph(
    prepared: &Prepared,
    dag: &[Option<(usize, usize)>],
    node_layer: &[usize],
) -> Graph {
    let mut items: Vec<Item> = prepared
        .nodes
        .iter()
        .zip(node_layer)
        .map(|(node, &layer)| Item {
            layer,
            w: node.w,
            h: node.h,
            group: node.group,
            real: true,
            extra_right: 0.0,
        })
        .collect();
    for link in &prepared.links {
        if link.from == link.to {
            let label_w = link
                .label
                .as_deref()
                .map_or(0.0, |label| label_size(label).0);
            if let Some(item) = items.get_mut(link.from) {
                item.extra_right = item
                    .extra_right
                    .max(SELF_LOOP_PX + (label_w / 2.0).max(8.0));
            }
        }
    }
    let mut chains: Vec<Vec<usize>> = Vec::with_capacity(dag.len());
    for &edge in dag {
        let Some((from, to)) = edge else {
            chains.push(Vec::new());
            continue;
        };
        let start = node_layer.get(from).copied().unwrap_or(0);
        let end = node_layer.get(to).copied().unwrap_or(0);
        let mut chain = vec![from];
        for layer in (start + 1)..end {
            chain.push(items.len());
            items.push(Item {
                layer,
                w: VIRTUAL_W,
                h: 0.0,
                group: None,
                real: false,
                extra_right: 0.0,
            });
        }
        chain.push(to);
        chains.push(chain);
    }
    let layer_count = items.iter().map(|item| item.layer + 1).max().unwrap_or(0);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); layer_count];
    for (index, item) in items.iter().enumerate() {
        if let Some(layer) = layers.get_mut(item.layer) {
            layer.push(index);
        }
    }
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
    for chain in &chains {
        for pair in chain.windows(2) {
            if let [a, b] = *pair {
                if let Some(list) = down.get_mut(a) {
                    list.push(b);
                }
                if let Some(list) = up.get_mut(b) {
                    list.push(a);
                }
            }
        }
    }
    Graph {
        items,
        chains,
        layers,
        up,
        down,
    }
}

//! Step 6, continued: each edge's polyline, from its first node's bottom border through its virtual
//! nodes to its last node's top border (or around the right side, for a self-loop).
//!
//! Why: the drawing only joins the points; several edges leaving or entering one node get their
//! own spots along its border, in the order of where they go, so they do not cross there.
//! What not: no label positions (`labels`).

use super::frame::Frame;
use super::graph::Graph;
use super::metrics::SELF_LOOP_PX;
use super::placed::PlacedEdge;
use super::prepare::Prepared;

/// Spreads the ends of several edges along a node's bottom (or top) border, in the order of the
/// items they lead to.
fn spread_ports(ends: &mut [(f64, usize)], width: f64, offsets: &mut [f64]) {
    crate::sorting::sort_by(ends, &|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let count = ends.len();
    if count < 2 {
        return;
    }
    let span = (width * 0.6).min(18.0 * (count - 1) as f64);
    for (index, &(_, edge)) in ends.iter().enumerate() {
        if let Some(slot) = offsets.get_mut(edge) {
            *slot = -span / 2.0 + span * index as f64 / (count - 1) as f64;
        }
    }
}

/// Where each edge leaves its first node and enters its last, as offsets from the node centres.
fn ports(graph: &Graph, frame: &Frame, n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut out_offset = vec![0.0; graph.chains.len()];
    let mut in_offset = vec![0.0; graph.chains.len()];
    let mut outgoing: Vec<Vec<(f64, usize)>> = vec![Vec::new(); n];
    let mut incoming: Vec<Vec<(f64, usize)>> = vec![Vec::new(); n];
    for (edge, chain) in graph.chains.iter().enumerate() {
        if let (Some(&first), Some(&second)) = (chain.first(), chain.get(1)) {
            if let Some(list) = outgoing.get_mut(first) {
                list.push((frame.x(second), edge));
            }
        }
        let mut back = chain.iter().rev();
        if let (Some(&last), Some(&before)) = (back.next(), back.next()) {
            if let Some(list) = incoming.get_mut(last) {
                list.push((frame.x(before), edge));
            }
        }
    }
    for (node, ends) in outgoing.iter_mut().enumerate() {
        spread_ports(ends, frame.rect(&graph.items, node).2, &mut out_offset);
    }
    for (node, ends) in incoming.iter_mut().enumerate() {
        spread_ports(ends, frame.rect(&graph.items, node).2, &mut in_offset);
    }
    (out_offset, in_offset)
}

/// An edge with the segment its label belongs on.
pub(super) struct Routed {
    pub(super) edge: PlacedEdge,
    pub(super) from: (f64, f64),
    pub(super) to: (f64, f64),
}

/// Every edge's polyline, and the segment for its label: the middle gap between layers (or, for a
/// self-loop, the point right of its node).
pub(super) fn route_edges(
    prepared: &Prepared,
    graph: &Graph,
    frame: &Frame,
    reversed: &[bool],
) -> Vec<Routed> {
    let (out_offset, in_offset) = ports(graph, frame, prepared.nodes.len());
    let mut routed = Vec::with_capacity(prepared.links.len());
    for (index, link) in prepared.links.iter().enumerate() {
        let chain = graph
            .chains
            .get(index)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let (points, from, to) = if let [first, .., last] = *chain {
            let (fx, fy, fw, fh) = frame.rect(&graph.items, first);
            let (lx, ly, lw, _) = frame.rect(&graph.items, last);
            let mut points = vec![(
                fx + fw / 2.0 + out_offset.get(index).copied().unwrap_or(0.0),
                fy + fh,
            )];
            // Gap segments: from the bottom of one layer to the top of the next.
            let mut gaps: Vec<(usize, usize)> = Vec::new();
            for &virtual_node in chain.iter().skip(1).take(chain.len().saturating_sub(2)) {
                let layer = graph.items.get(virtual_node).map_or(0, |item| item.layer);
                let (top, height) = frame.row(layer);
                let vx = frame.x(virtual_node);
                gaps.push((points.len().saturating_sub(1), points.len()));
                points.push((vx, top));
                if height > 0.0 {
                    points.push((vx, top + height));
                }
            }
            gaps.push((points.len().saturating_sub(1), points.len()));
            points.push((
                lx + lw / 2.0 + in_offset.get(index).copied().unwrap_or(0.0),
                ly,
            ));
            let (a, b) = gaps
                .get(gaps.len().saturating_sub(1) / 2)
                .copied()
                .unwrap_or((0, 0));
            let pa = points.get(a).copied().unwrap_or((0.0, 0.0));
            let pb = points.get(b).copied().unwrap_or(pa);
            if reversed.get(index) == Some(&true) {
                points.reverse();
            }
            (points, pa, pb)
        } else {
            // A self-loop on the node's right side.
            let (nx, ny, nw, nh) = frame.rect(&graph.items, link.from);
            let right = nx + nw;
            let out = right + SELF_LOOP_PX;
            let points = vec![
                (right, ny + nh * 0.3),
                (out, ny + nh * 0.3),
                (out, ny + nh * 0.7),
                (right, ny + nh * 0.7),
            ];
            (points, (out, ny + nh / 2.0), (out, ny + nh / 2.0))
        };
        let name = |node: usize| {
            prepared
                .nodes
                .get(node)
                .map(|n| n.id.clone())
                .unwrap_or_default()
        };
        routed.push(Routed {
            edge: PlacedEdge {
                from: name(link.from),
                to: name(link.to),
                points,
                label: link.label.clone(),
                label_at: ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0),
                dashed: link.dashed,
            },
            from,
            to,
        });
    }
    routed
}

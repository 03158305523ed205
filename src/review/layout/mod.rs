//! Layered layout of flow diagrams: where each node, edge, label and group box goes, top to bottom
//! (MCP reference: `save_diagram`; the ordering guide's Diagrams section).
//!
//! Why: the **Diagram** tab (review page and MCP Apps view) draws the stored diagram with one
//! small script, `src/static/diagram.js`, so positions are computed here, once, on the server,
//! and the drawing only turns numbers into SVG elements. The method is the classic Sugiyama pipeline, sized for the
//! diagram limits (40 nodes, 80 edges, 12 groups), one module per stage, each handing its result
//! to the next ([`layout`] runs them in order; no stage names a later one):
//!
//! 0. Read the input (`input`), drop what cannot be drawn and size each node from its text
//!    (`prepare`, `size`, `text`).
//! 1. Break cycles (`cycles`): a depth-first search in input order reverses every back edge.
//! 2. Assign layers (`layers`) by longest path, then pull each source down next to its nearest
//!    successor. Nodes with no edges fill short layers instead of making one very wide row.
//! 3. Split edges that span several layers with virtual nodes (`graph`), so they bend around other
//!    nodes.
//! 4. Order each layer with barycenter sweeps (`ordering`), keeping the ordering with the fewest
//!    crossings. A group's nodes stay adjacent in every layer, and groups keep one left-to-right
//!    order.
//! 5. Place x by pooling adjacent violators (`place`: the closest positions to the neighbours'
//!    mean that keep the spacing), then move nodes out of other groups' boxes with difference
//!    constraints (`groups`).
//! 6. Stack the layers (`frame`), route edges through their virtual nodes (`route`), put labels
//!    on a middle segment (`labels`), draw each group as the padded box of its nodes and move
//!    the drawing to the margin (`output`); the result is a [`Layout`] (`placed`).
//!
//! The same input always gives the same layout: every sort has a total tie-break and nothing
//! iterates over a hash map. Any input is accepted: unknown kinds become `logic`, edges to unknown
//! nodes are dropped, duplicate edges are merged, and inputs beyond the diagram limits are cut
//! (with room to spare) so the work stays bounded.
//!
//! What not: no validation (`review::diagram` does that before a diagram is stored), no SVG (that
//! is `src/static/diagram.js`, in the browser), no links (the page decides where a node's file
//! points).

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

mod cycles;
mod frame;
mod graph;
mod groups;
mod input;
mod labels;
mod layers;
mod metrics;
mod ordering;
mod output;
mod place;
mod placed;
mod prepare;
mod route;
mod size;
mod text;

#[cfg(test)]
mod tests;

pub use input::{
    input_from_json, LayoutEdge, LayoutGroup, LayoutInput, LayoutNode, KINDS, MAX_LAYOUT_EDGES,
    MAX_LAYOUT_GROUPS, MAX_LAYOUT_LINES, MAX_LAYOUT_NODES,
};
pub use metrics::*;
pub use placed::{Layout, PlacedEdge, PlacedGroup, PlacedLine, PlacedNode};
pub use text::fit;

/// Lays out a diagram; see the module documentation for the method.
pub fn layout(input: &LayoutInput) -> Layout {
    let prepared = prepare::prepare(input);
    let n = prepared.nodes.len();
    let reversed = cycles::back_edges(n, &prepared.links);
    let dag: Vec<Option<(usize, usize)>> = prepared
        .links
        .iter()
        .zip(&reversed)
        .map(|(link, &back)| {
            if link.from == link.to {
                None
            } else if back {
                Some((link.to, link.from))
            } else {
                Some((link.from, link.to))
            }
        })
        .collect();
    let node_layer = layers::assign_layers(n, &dag);
    let mut graph = graph::build_graph(&prepared, &dag, &node_layer);
    let rank = ordering::order_layers(&mut graph, prepared.groups.len());
    let mut x = place::place_x(&graph);
    // Groups that interleave badly would need a very wide drawing to keep their boxes clear of
    // other nodes; then overlapping boxes are the lesser evil.
    if let Some(separated) = groups::separate_groups(&graph, &x, &rank) {
        let limit =
            place::span(&graph.items, &x) * groups::MAX_GROUP_STRETCH + groups::GROUP_STRETCH_PX;
        if place::span(&graph.items, &separated) <= limit {
            x = separated;
        }
    }
    let frame = frame::Frame::new(&graph, x);

    let rects: Vec<frame::Rect> = (0..n)
        .map(|index| frame.rect(&graph.items, index))
        .collect();
    let edges = labels::place_labels(
        route::route_edges(&prepared, &graph, &frame, &reversed),
        &rects,
    );
    let groups = output::group_boxes(&prepared, &graph, &frame);
    let mut nodes = Vec::with_capacity(n);
    for (node, (nx, ny, nw, nh)) in prepared.nodes.into_iter().zip(rects) {
        nodes.push(PlacedNode {
            id: node.id,
            title: node.title,
            x: nx,
            y: ny,
            w: nw,
            h: nh,
            title_lines: node.title_lines,
            kind: node.kind,
            group: node
                .group
                .and_then(|group| prepared.groups.get(group))
                .map(|(id, _)| id.clone()),
            file_label: node.file_label,
            lines: node.lines,
            file: node.file,
            hunk: node.hunk,
        });
    }
    let mut result = Layout {
        title: prepared.title,
        width: 0.0,
        height: 0.0,
        nodes,
        edges,
        groups,
    };
    output::normalize(&mut result, &graph.items);
    result
}

//! The input made ready for layout: duplicate ids and edges to unknown nodes dropped, duplicate
//! edges merged into one arrow, everything beyond the layout limits cut, and each node sized.
//!
//! Why: every later stage works on node indices and can assume each edge is distinct and names
//! two known nodes, and the work stays bounded whatever the input.
//! What not: no cycles or layers yet (`cycles`, `layers`).

use std::collections::HashMap;

use super::input::{LayoutInput, MAX_LAYOUT_EDGES, MAX_LAYOUT_GROUPS, MAX_LAYOUT_NODES};
use super::size::{size_node, Sized};
use super::text::{clean, fit};

/// The longest (merged) edge label shown.
const EDGE_LABEL_CHARS: usize = 48;

/// An edge between node indices after merging duplicates.
pub(super) struct Link {
    pub(super) from: usize,
    pub(super) to: usize,
    pub(super) label: Option<String>,
    pub(super) dashed: bool,
}

/// The input with duplicates, unknown references and overflow removed.
pub(super) struct Prepared {
    pub(super) title: String,
    pub(super) groups: Vec<(String, String)>,
    pub(super) nodes: Vec<Sized>,
    pub(super) links: Vec<Link>,
}

pub(super) fn prepare(input: &LayoutInput) -> Prepared {
    let mut groups: Vec<(String, String)> = Vec::new();
    let mut group_index: HashMap<&str, usize> = HashMap::new();
    for group in &input.groups {
        if groups.len() >= MAX_LAYOUT_GROUPS {
            break;
        }
        if !group_index.contains_key(group.id.as_str()) {
            group_index.insert(group.id.as_str(), groups.len());
            groups.push((group.id.clone(), clean(&group.title)));
        }
    }
    let mut nodes: Vec<Sized> = Vec::new();
    let mut node_index: HashMap<&str, usize> = HashMap::new();
    for node in &input.nodes {
        if nodes.len() >= MAX_LAYOUT_NODES {
            break;
        }
        if !node_index.contains_key(node.id.as_str()) {
            node_index.insert(node.id.as_str(), nodes.len());
            let group = node
                .group
                .as_deref()
                .and_then(|id| group_index.get(id).copied());
            nodes.push(size_node(node, group));
        }
    }
    let mut links: Vec<Link> = Vec::new();
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    for edge in &input.edges {
        let (Some(&from), Some(&to)) = (
            node_index.get(edge.from.as_str()),
            node_index.get(edge.to.as_str()),
        ) else {
            continue;
        };
        let label = edge
            .label
            .as_deref()
            .map(clean)
            .filter(|label| !label.is_empty());
        if let Some(link) = seen
            .get(&(from, to))
            .and_then(|&index| links.get_mut(index))
        {
            // A duplicate: one arrow, solid if any copy is, with every distinct label.
            link.dashed &= edge.dashed;
            if let Some(label) = label {
                link.label = Some(match link.label.take() {
                    Some(old) if old == label => old,
                    Some(old) => format!("{old}, {label}"),
                    None => label,
                });
            }
            continue;
        }
        if links.len() >= MAX_LAYOUT_EDGES {
            continue;
        }
        seen.insert((from, to), links.len());
        links.push(Link {
            from,
            to,
            label,
            dashed: edge.dashed,
        });
    }
    for link in &mut links {
        link.label = link
            .label
            .as_deref()
            .map(|label| fit(label, EDGE_LABEL_CHARS));
    }
    Prepared {
        title: clean(&input.title),
        groups,
        nodes,
        links,
    }
}

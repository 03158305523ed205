//! Layout tests: small graphs written as text, checked against the rows they should produce, and
//! properties every layout must keep (no overlaps, groups around their nodes, edges that start and
//! end on node borders, everything inside the drawing), over fixed and random inputs.

#![allow(clippy::indexing_slicing, clippy::panic, clippy::unwrap_used)]

use serde_json::{json, Value};

use super::*;

/// Builds an input from tokens separated by spaces: `a` declares a node, `a@g` puts it in group
/// `g`, `a>b` is an edge, `a~>b` a dashed one, and `:label` after an edge labels it. Nodes are
/// declared on first mention; groups take their id as title.
fn parse(spec: &str) -> LayoutInput {
    let mut input = LayoutInput::default();
    let declare = |input: &mut LayoutInput, id: &str| {
        if !input.nodes.iter().any(|node| node.id == id) {
            input.nodes.push(LayoutNode {
                id: id.to_string(),
                title: format!("Step {id}"),
                kind: "logic",
                ..LayoutNode::default()
            });
        }
    };
    for token in spec.split_whitespace() {
        let (token, label) = match token.split_once(':') {
            Some((token, label)) => (token, Some(label.replace('_', " "))),
            None => (token, None),
        };
        let edge = token
            .split_once("~>")
            .map(|(a, b)| (a, b, true))
            .or_else(|| token.split_once('>').map(|(a, b)| (a, b, false)));
        if let Some((from, to, dashed)) = edge {
            declare(&mut input, from);
            declare(&mut input, to);
            input.edges.push(LayoutEdge {
                from: from.to_string(),
                to: to.to_string(),
                label,
                dashed,
            });
        } else if let Some((id, group)) = token.split_once('@') {
            declare(&mut input, id);
            if !input.groups.iter().any(|g| g.id == group) {
                input.groups.push(LayoutGroup {
                    id: group.to_string(),
                    title: group.to_string(),
                });
            }
            for node in input.nodes.iter_mut().filter(|node| node.id == id) {
                node.group = Some(group.to_string());
            }
        } else {
            declare(&mut input, token);
        }
    }
    input
}

/// The node ids by row, top to bottom, left to right within a row.
fn rows(layout: &Layout) -> String {
    let mut nodes: Vec<&PlacedNode> = layout.nodes.iter().collect();
    nodes.sort_by(|a, b| {
        let ca = a.y + a.h / 2.0;
        let cb = b.y + b.h / 2.0;
        ca.total_cmp(&cb).then(a.x.total_cmp(&b.x))
    });
    let mut out: Vec<Vec<&str>> = Vec::new();
    let mut last_center = f64::NEG_INFINITY;
    for node in nodes {
        let center = node.y + node.h / 2.0;
        if (center - last_center).abs() > 1.0 || out.is_empty() {
            out.push(Vec::new());
            last_center = center;
        }
        if let Some(row) = out.last_mut() {
            row.push(&node.id);
        }
    }
    out.iter()
        .map(|row| row.join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn overlaps(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
    a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + b.3 && b.1 < a.1 + a.3
}

/// Properties every layout keeps, whatever the input.
fn assert_sound(layout: &Layout) {
    let inside = |x: f64, y: f64| {
        x.is_finite()
            && y.is_finite()
            && x >= -0.01
            && y >= -0.01
            && x <= layout.width + 0.01
            && y <= layout.height + 0.01
    };
    assert!(layout.width > 0.0 && layout.height > 0.0);
    let node = |id: &str| layout.nodes.iter().find(|node| node.id == id);
    for (index, a) in layout.nodes.iter().enumerate() {
        assert!(
            inside(a.x, a.y) && inside(a.x + a.w, a.y + a.h),
            "{a:?} outside"
        );
        assert!(a.w > 0.0 && a.h > 0.0);
        assert!(!a.title_lines.is_empty() || a.title.is_empty());
        assert!(a.title_lines.len() <= 3);
        for b in layout.nodes.iter().skip(index + 1) {
            assert!(
                !overlaps((a.x, a.y, a.w, a.h), (b.x, b.y, b.w, b.h)),
                "{} overlaps {}",
                a.id,
                b.id
            );
        }
    }
    for group in &layout.groups {
        assert!(inside(group.x, group.y) && inside(group.x + group.w, group.y + group.h));
        for member in layout
            .nodes
            .iter()
            .filter(|n| n.group.as_deref() == Some(&group.id))
        {
            assert!(
                member.x >= group.x
                    && member.y >= group.y
                    && member.x + member.w <= group.x + group.w
                    && member.y + member.h <= group.y + group.h,
                "{} not inside group {}",
                member.id,
                group.id
            );
        }
    }
    for edge in &layout.edges {
        assert!(edge.points.len() >= 2, "{edge:?}");
        for &(x, y) in &edge.points {
            assert!(inside(x, y), "{edge:?} outside");
        }
        assert!(inside(edge.label_at.0, edge.label_at.1));
        let (Some(from), Some(to)) = (node(&edge.from), node(&edge.to)) else {
            panic!("edge between unknown nodes {edge:?}");
        };
        let on_border = |point: Option<&(f64, f64)>, n: &PlacedNode| {
            point.is_some_and(|&(x, y)| {
                let horizontal = x >= n.x && x <= n.x + n.w;
                let vertical = y >= n.y && y <= n.y + n.h;
                (horizontal && ((y - n.y).abs() < 0.01 || (y - n.y - n.h).abs() < 0.01))
                    || (vertical && (x - n.x - n.w).abs() < 0.01)
            })
        };
        assert!(
            on_border(edge.points.first(), from),
            "{edge:?} starts off {from:?}"
        );
        assert!(
            on_border(edge.points.last(), to),
            "{edge:?} ends off {to:?}"
        );
    }
}

/// Lays out `spec`, checks the layout's properties and its rows.
fn check(spec: &str, expected_rows: &str) -> Layout {
    let layout = layout(&parse(spec));
    assert_sound(&layout);
    assert_eq!(rows(&layout), expected_rows, "spec: {spec}");
    layout
}

fn edge<'a>(layout: &'a Layout, from: &str, to: &str) -> &'a PlacedEdge {
    let found = layout.edges.iter().find(|e| e.from == from && e.to == to);
    found.unwrap_or_else(|| panic!("no edge {from} -> {to}"))
}

#[test]
fn rows_of_small_graphs() {
    let cases = [
        ("chain", "a>b b>c c>d", "a\nb\nc\nd"),
        ("fork", "a>b a>c", "a\nb c"),
        ("join", "a>c b>c", "a b\nc"),
        ("diamond", "a>b a>c b>d c>d", "a\nb c\nd"),
        ("cycle", "a>b b>c c>a", "a\nb\nc"),
        ("two-cycle", "a>b b>a", "a\nb"),
        ("self-loop", "a>a a>b", "a\nb"),
        ("long edge", "a>b b>c a>c", "a\nb\nc"),
        ("isolated nodes fill rows", "a b c d e", "a b c\nd e"),
        ("one node", "a", "a"),
        ("components", "a>b c>d", "a c\nb d"),
        (
            "source sits above its successor",
            "a>b b>c c>d x>d",
            "a\nb\nc x\nd",
        ),
        ("crossing removed", "a>d b>c a>x b>y", "a b\nd x c y"),
    ];
    for (name, spec, expected) in cases {
        let layout = layout(&parse(spec));
        assert_sound(&layout);
        assert_eq!(rows(&layout), expected, "case {name}: {spec}");
    }
}

#[test]
fn chain_goes_down() {
    let layout = check("a>b b>c c>d", "a\nb\nc\nd");
    let ys: Vec<f64> = layout.nodes.iter().map(|n| n.y).collect();
    assert!(ys.windows(2).all(|pair| pair[0] < pair[1]), "{ys:?}");
    // A straight chain is drawn straight.
    let xs: Vec<f64> = layout.nodes.iter().map(|n| n.x + n.w / 2.0).collect();
    assert!(
        xs.windows(2).all(|pair| (pair[0] - pair[1]).abs() < 0.5),
        "{xs:?}"
    );
}

#[test]
fn fork_children_share_a_layer() {
    let layout = check("a>b a>c", "a\nb c");
    let (b, c) = (&layout.nodes[1], &layout.nodes[2]);
    assert_eq!(b.y + b.h / 2.0, c.y + c.h / 2.0);
    // The parent is centred above its children.
    let a = &layout.nodes[0];
    let middle = (b.x + b.w / 2.0 + c.x + c.w / 2.0) / 2.0;
    assert!((a.x + a.w / 2.0 - middle).abs() < 1.0);
    // Two edges leave the parent at different points.
    assert_ne!(
        edge(&layout, "a", "b").points[0],
        edge(&layout, "a", "c").points[0]
    );
}

#[test]
fn cycle_keeps_every_edge_and_points_back_up() {
    let layout = check("a>b b>c c>a", "a\nb\nc");
    assert_eq!(layout.edges.len(), 3);
    let back = edge(&layout, "c", "a");
    let (first, last) = (back.points[0], back.points[back.points.len() - 1]);
    assert!(
        last.1 < first.1,
        "the back edge should end above its start: {back:?}"
    );
    let a = &layout.nodes[0];
    assert!((last.1 - (a.y + a.h)).abs() < 0.01, "enters a from below");
    // Both directions of a two-cycle are drawn apart.
    let layout = check("a>b b>a", "a\nb");
    assert_ne!(edge(&layout, "a", "b").points, {
        let mut reversed = edge(&layout, "b", "a").points.clone();
        reversed.reverse();
        reversed
    });
}

#[test]
fn long_edges_bend_around_nodes() {
    let layout = check("a>b b>c a>c", "a\nb\nc");
    let long = edge(&layout, "a", "c");
    assert!(long.points.len() > 2, "{long:?}");
    let b = &layout.nodes[1];
    for &(x, y) in &long.points {
        assert!(
            !(x > b.x && x < b.x + b.w && y > b.y && y < b.y + b.h),
            "{long:?} crosses b"
        );
    }
    assert_eq!(edge(&layout, "a", "b").points.len(), 2);
}

#[test]
fn self_loops_and_duplicates() {
    let layout = check("a>a:retry a>b:x a>b:y a~>b", "a\nb");
    assert_eq!(layout.edges.len(), 2);
    let lp = edge(&layout, "a", "a");
    assert_eq!(lp.points.len(), 4);
    let merged = edge(&layout, "a", "b");
    assert_eq!(merged.label.as_deref(), Some("x, y"));
    assert!(!merged.dashed, "solid wins over a dashed duplicate");
}

#[test]
fn unknown_nodes_and_duplicate_ids_are_ignored() {
    let mut input = parse("a>b");
    input.edges.push(LayoutEdge {
        from: "a".into(),
        to: "nowhere".into(),
        ..LayoutEdge::default()
    });
    input.nodes.push(LayoutNode {
        id: "a".into(),
        title: "Second a".into(),
        kind: "logic",
        group: Some("missing".into()),
        ..LayoutNode::default()
    });
    let layout = layout(&input);
    assert_sound(&layout);
    assert_eq!(rows(&layout), "a\nb");
    assert_eq!(layout.edges.len(), 1);
    assert_eq!(layout.nodes[0].title, "Step a");
    assert!(layout.groups.is_empty());
}

#[test]
fn empty_input() {
    let layout = layout(&LayoutInput::default());
    assert!(layout.nodes.is_empty() && layout.edges.is_empty() && layout.groups.is_empty());
    assert_eq!((layout.width, layout.height), (32.0, 32.0));
    let one = check("a", "a");
    assert_eq!((one.nodes[0].x, one.nodes[0].y), (16.0, 16.0));
    assert_eq!(one.width, one.nodes[0].w + 32.0);
}

#[test]
fn groups_contain_their_nodes_and_stay_together() {
    let spec = "a@g b@h c@g d@h e@g x>a x>b x>c x>d x>e a>y b>y c>y d>y e>y";
    let layout = layout(&parse(spec));
    assert_sound(&layout);
    assert_eq!(layout.groups.len(), 2);
    let row = rows(&layout);
    let middle = row.lines().nth(1).unwrap_or_default();
    let groups: Vec<&str> = middle
        .split(' ')
        .map(|id| if "ace".contains(id) { "g" } else { "h" })
        .collect();
    let changes = groups.windows(2).filter(|w| w[0] != w[1]).count();
    assert_eq!(changes, 1, "group members should be adjacent: {middle}");
    let [g, h] = [&layout.groups[0], &layout.groups[1]];
    assert!(
        !overlaps((g.x, g.y, g.w, g.h), (h.x, h.y, h.w, h.h)),
        "{g:?} {h:?}"
    );
}

#[test]
fn group_boxes_avoid_other_nodes() {
    // The group spans three layers; `free` sits in the middle layer and must stay outside.
    let spec = "a@g b@g c@g a>b b>c a>free free>c";
    for spec in [
        spec,
        "s>a s>b s>c s>d a@g c@g b@h d@h a>e b>e c>f d>f e@g f@h",
    ] {
        let placed = layout(&parse(spec));
        assert_sound(&placed);
        assert_eq!(foreign_nodes_in_groups(&placed), 0, "{spec}: {placed:#?}");
    }
}

fn foreign_nodes_in_groups(layout: &Layout) -> usize {
    let mut count = 0;
    for group in &layout.groups {
        for node in &layout.nodes {
            if node.group.as_deref() != Some(&group.id)
                && overlaps(
                    (group.x, group.y, group.w, group.h),
                    (node.x, node.y, node.w, node.h),
                )
            {
                count += 1;
            }
        }
    }
    count
}

#[test]
fn text_is_wrapped_and_sized() {
    let mut input = parse("a>b");
    input.nodes[0].title =
        "Validate the invitation token against the stored record and its expiry".into();
    input.nodes[0].lines = vec![
        (
            "example".into(),
            "GET /invite/abc123?redirect=/teams/42/settings/members".into(),
        ),
        (String::new(), "no label".into()),
    ];
    input.nodes[0].file = Some("services/invite/invite-service.ts".into());
    input.nodes[1].kind = "data";
    let layout = layout(&input);
    assert_sound(&layout);
    let a = &layout.nodes[0];
    assert_eq!(
        a.title_lines,
        [
            "Validate the invitation",
            "token against the stored",
            "record and its expiry"
        ]
    );
    assert_eq!(a.file_label.as_deref(), Some("invite-service.ts"));
    assert_eq!(a.lines[0].label, "example");
    assert_eq!(
        a.lines[0].rows,
        ["GET /invite/abc123?redire", "ct=/teams/42/settings/members"]
    );
    assert_eq!(a.lines[1].rows, ["no label"]);
    assert!(a.h > layout.nodes[1].h);
    assert!(
        layout.nodes[1].text_top() > a.text_top(),
        "data nodes leave room for the cap"
    );
}

#[test]
fn reads_the_stored_json() {
    let input = input_from_json(&json!({
        "title": "Flow",
        "groups": [{ "id": "g", "title": "G" }, { "title": "no id" }],
        "nodes": [
            { "id": "a", "title": "A", "kind": "decision", "group": "g",
              "lines": [{ "label": "l", "text": "t" }, "bad", { "text": 3 }],
              "file": "src/a.rs", "hunk": "h1" },
            { "id": "b", "title": 7, "kind": "weird" },
            { "title": "no id" }
        ],
        "edges": [
            { "from": "a", "to": "b", "label": "go", "dashed": true },
            { "from": "a", "to": 3 },
            { "from": "b", "to": "a", "label": "  ", "dashed": "yes" }
        ]
    }));
    let expected = LayoutInput {
        title: "Flow".into(),
        groups: vec![LayoutGroup {
            id: "g".into(),
            title: "G".into(),
        }],
        nodes: vec![
            LayoutNode {
                id: "a".into(),
                title: "A".into(),
                kind: "decision",
                group: Some("g".into()),
                lines: vec![("l".into(), "t".into()), (String::new(), String::new())],
                file: Some("src/a.rs".into()),
                hunk: Some("h1".into()),
            },
            LayoutNode {
                id: "b".into(),
                title: String::new(),
                kind: "logic",
                ..LayoutNode::default()
            },
        ],
        edges: vec![
            LayoutEdge {
                from: "a".into(),
                to: "b".into(),
                label: Some("go".into()),
                dashed: true,
            },
            LayoutEdge {
                from: "b".into(),
                to: "a".into(),
                label: None,
                dashed: false,
            },
        ],
    };
    assert_eq!(input, expected);
}

/// A small deterministic generator (xorshift64*), so random tests replay exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// A valid-looking diagram with `nodes` nodes, `edges` random edges and `groups` groups.
fn random_diagram(rng: &mut Rng, nodes: usize, edges: usize, groups: usize) -> Value {
    let group_list: Vec<Value> = (0..groups)
        .map(
            |g| json!({ "id": format!("g{g}"), "title": format!("Group {g} with a longer title") }),
        )
        .collect();
    let node_list: Vec<Value> = (0..nodes)
        .map(|i| {
            let mut node = json!({
                "id": format!("n{i}"),
                "title": format!("Step number {i} does something useful"),
                "kind": KINDS[rng.below(KINDS.len())],
            });
            if groups > 0 && rng.chance(60) {
                node["group"] = json!(format!("g{}", rng.below(groups)));
            }
            if rng.chance(30) {
                node["lines"] = json!([{ "label": "example", "text": "GET /api/items?page=2" }]);
            }
            if rng.chance(50) {
                node["file"] = json!(format!("src/module_{i}.rs"));
            }
            node
        })
        .collect();
    let edge_list: Vec<Value> = (0..edges)
        .map(|_| {
            let from = rng.below(nodes);
            let to = rng.below(nodes);
            let mut edge = json!({ "from": format!("n{from}"), "to": format!("n{to}") });
            if rng.chance(40) {
                edge["label"] = json!("if valid");
            }
            if rng.chance(20) {
                edge["dashed"] = json!(true);
            }
            edge
        })
        .collect();
    json!({ "title": "Random", "groups": group_list, "nodes": node_list, "edges": edge_list })
}

#[test]
fn largest_diagram_stays_reasonable() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..5 {
        let diagram = random_diagram(&mut rng, 40, 80, 12);
        let layout = layout(&input_from_json(&diagram));
        assert_sound(&layout);
        assert_eq!(layout.nodes.len(), 40);
        assert!(
            layout.width < 8000.0 && layout.height < 6000.0,
            "round {round}: {} x {}",
            layout.width,
            layout.height
        );
    }
    // A forward-only graph (edges from lower to higher index) is the common case.
    let mut spec = String::new();
    for i in 0..40 {
        for step in [1, 3] {
            if i + step < 40 {
                spec.push_str(&format!("n{i}>n{} ", i + step));
            }
        }
    }
    let layout = layout(&parse(&spec));
    assert_sound(&layout);
    assert!(
        layout.width < 3000.0 && layout.height < 6000.0,
        "{} x {}",
        layout.width,
        layout.height
    );
}

#[test]
fn isolated_nodes_make_a_grid() {
    let spec: Vec<String> = (0..40).map(|i| format!("n{i}")).collect();
    let layout = check(
        &spec.join(" "),
        "n0 n1 n2 n3 n4 n5 n6\nn7 n8 n9 n10 n11 n12 n13\nn14 n15 n16 n17 n18 n19 n20\n\
         n21 n22 n23 n24 n25 n26 n27\nn28 n29 n30 n31 n32 n33 n34\nn35 n36 n37 n38 n39",
    );
    assert!(layout.width < 1800.0, "{}", layout.width);
}

#[test]
fn same_input_same_layout() {
    let mut rng = Rng(42);
    for _ in 0..20 {
        let n = 2 + rng.below(20);
        let (edges, groups) = (rng.below(40), rng.below(5));
        let diagram = random_diagram(&mut rng, n, edges, groups);
        let first = layout(&input_from_json(&diagram));
        let second = layout(&input_from_json(&diagram));
        assert_eq!(first, second);
        // The page and the view draw from these bytes.
        assert_eq!(
            serde_json::to_string(&first).ok(),
            serde_json::to_string(&second).ok()
        );
    }
}

/// Any JSON value: the generator mixes the expected shape with wrong types, odd text, repeated
/// and unknown ids, and more entries than the limits allow.
fn random_value(rng: &mut Rng, depth: usize) -> Value {
    let strings = [
        "a",
        "b",
        "c",
        "d",
        "",
        "<script>",
        "ü€😀",
        "\u{0}\u{7}\n\t",
        "x\"'&",
        "file.rs",
        "logic",
        "decision",
        "data",
        "warning",
        "trigger",
    ];
    match rng.below(if depth > 2 { 5 } else { 8 }) {
        0 => Value::Null,
        1 => json!(rng.chance(50)),
        2 => json!(rng.next() as i64),
        3 => json!(strings[rng.below(strings.len())]),
        4 => json!("w".repeat(rng.below(600))),
        5 => Value::Array(
            (0..rng.below(6))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        _ => {
            let keys = [
                "id", "title", "kind", "group", "lines", "label", "text", "from", "to", "dashed",
            ];
            let mut map = serde_json::Map::new();
            for _ in 0..rng.below(6) {
                map.insert(
                    keys[rng.below(keys.len())].to_string(),
                    random_value(rng, depth + 1),
                );
            }
            Value::Object(map)
        }
    }
}

fn random_id(rng: &mut Rng, pool: usize) -> Value {
    match rng.below(20) {
        0 => Value::Null,
        1 => json!(7),
        _ => json!(format!("n{}", rng.below(pool))),
    }
}

fn random_shape(rng: &mut Rng) -> Value {
    let pool = 1 + rng.below(70);
    let groups: Vec<Value> = (0..rng.below(20))
        .map(|g| match rng.below(6) {
            0 => random_value(rng, 1),
            _ => json!({ "id": format!("g{}", rng.below(g + 2)), "title": random_value(rng, 2) }),
        })
        .collect();
    let nodes: Vec<Value> = (0..rng.below(80))
        .map(|_| {
            if rng.chance(10) {
                return random_value(rng, 1);
            }
            let mut node = json!({ "id": random_id(rng, pool), "title": random_value(rng, 2) });
            if rng.chance(60) {
                node["kind"] = json!(KINDS.get(rng.below(12)).copied().unwrap_or("bogus"));
            }
            if rng.chance(50) {
                node["group"] = json!(format!("g{}", rng.below(14)));
            }
            if rng.chance(30) {
                node["lines"] = random_value(rng, 1);
            }
            if rng.chance(30) {
                node["lines"] =
                    json!([{ "label": random_value(rng, 2), "text": random_value(rng, 2) }]);
            }
            if rng.chance(40) {
                node["file"] = random_value(rng, 2);
                node["hunk"] = random_value(rng, 2);
            }
            node
        })
        .collect();
    let edges: Vec<Value> = (0..rng.below(160))
        .map(|_| {
            if rng.chance(5) {
                return random_value(rng, 1);
            }
            json!({
                "from": random_id(rng, pool),
                "to": random_id(rng, pool),
                "label": random_value(rng, 2),
                "dashed": random_value(rng, 2),
            })
        })
        .collect();
    json!({ "title": random_value(rng, 1), "groups": groups, "nodes": nodes, "edges": edges })
}

#[test]
fn never_panics_on_random_input() {
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    for round in 0..400 {
        let diagram = if round % 4 == 0 {
            random_value(&mut rng, 0)
        } else {
            random_shape(&mut rng)
        };
        let layout = layout(&input_from_json(&diagram));
        assert_sound(&layout);
        assert!(layout.nodes.len() <= MAX_LAYOUT_NODES);
        assert!(layout.edges.len() <= MAX_LAYOUT_EDGES);
        assert_drawable(&layout, round);
    }
}

/// What `src/static/diagram.js` draws from, as the page and the view receive it: every number
/// finite (serde_json writes a NaN or an infinity as `null`), every edge with at least two
/// points, every node, edge and group there.
fn assert_drawable(layout: &Layout, round: usize) {
    let text = serde_json::to_string(layout).unwrap_or_default();
    let json: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    let number = |value: &Value, what: &str| {
        assert!(
            value.as_f64().is_some_and(f64::is_finite),
            "round {round}: {what} is {value}"
        );
    };
    for key in ["width", "height"] {
        number(&json[key], key);
    }
    let items = |key: &str| json[key].as_array().cloned().unwrap_or_default();
    assert_eq!(items("nodes").len(), layout.nodes.len(), "round {round}");
    assert_eq!(items("edges").len(), layout.edges.len(), "round {round}");
    assert_eq!(items("groups").len(), layout.groups.len(), "round {round}");
    for item in items("nodes").iter().chain(&items("groups")) {
        for key in ["x", "y", "w", "h"] {
            number(&item[key], key);
        }
    }
    for edge in items("edges") {
        let points = edge["points"].as_array().cloned().unwrap_or_default();
        assert!(points.len() >= 2, "round {round}: {edge}");
        for value in points
            .iter()
            .flat_map(|p| p.as_array().cloned().unwrap_or_default())
        {
            number(&value, "a point");
        }
        for value in edge["labelAt"].as_array().cloned().unwrap_or_default() {
            number(&value, "labelAt");
        }
    }
}

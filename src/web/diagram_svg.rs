//! Draws a laid-out flow diagram as inline SVG for the pull request's **Diagram** tab (MCP
//! reference: `save_diagram`; the ordering guide's Diagrams section and its `kind` table).
//!
//! Why: the diagram must work without script, so it is plain markup, styled by a static style
//! sheet the page links ([`DIAGRAM_CSS_PATH`]: CSS custom properties with light and dark
//! palettes, scoped to `.lkf-diagram`): group boxes behind edges, edges with arrowheads and
//! labels, and one `<g id="node-…" data-node="…">` per node, linked to its file in the reading
//! order when the page gives a link. Each `kind` has its own class and shape:
//! `decision` is a hexagon, `data` a cylinder, `trigger` a pill, `external` dashed and `config`
//! dotted, `warning` warm.
//!
//! What not: no layout (that is `review::layout`), no page shell, no scripts, nothing loaded
//! from another site.
//! Every text and attribute goes through `html::escape`; links other than fragments, same-site
//! paths and http(s) URLs are dropped.

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::fmt::Write as _;

use serde_json::Value;

use crate::review::layout::{
    self, Layout, PlacedEdge, PlacedGroup, PlacedNode, DATA_CAP_PX, DECISION_INSET_PX,
    LABEL_FONT_PX, NODE_PAD_X, ROWS_GAP_PX, ROW_CHAR_PX, ROW_FONT_PX, ROW_LINE_PX, TITLE_FONT_PX,
    TITLE_LINE_PX,
};
use crate::web::html::escape;

/// The id of the arrowhead marker; one diagram per page.
const ARROW_ID: &str = "lkf-arrow";
/// The largest radius of a rounded bend in an edge.
const CORNER_RADIUS: f64 = 10.0;

/// Lays out `diagram_json` (the `diagram` object `save_diagram` takes) and draws it.
pub fn render_diagram(
    diagram_json: &Value,
    link_for: &dyn Fn(&str, Option<&str>) -> Option<String>,
) -> String {
    let input = layout::input_from_json(diagram_json);
    render_svg(&layout::layout(&input), link_for)
}

/// Draws `layout` as one `<svg>` element.
///
/// `link_for(file, hunk)` gives the link of a node with a `file`; `None` leaves it unlinked.
pub fn render_svg(
    layout: &Layout,
    link_for: &dyn Fn(&str, Option<&str>) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(4096 + layout.nodes.len() * 600);
    let width = num(layout.width);
    let height = num(layout.height);
    let title = if layout.title.is_empty() {
        "Flow diagram"
    } else {
        layout.title.as_str()
    };
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"lkf-diagram\" viewBox=\"0 0 {width} {height}\" \
         width=\"{width}\" height=\"{height}\" role=\"img\" \
         aria-labelledby=\"lkf-diagram-title lkf-diagram-desc\">"
    );
    let _ = writeln!(
        out,
        "<title id=\"lkf-diagram-title\">{}</title>",
        escape(title)
    );
    let _ = writeln!(
        out,
        "<desc id=\"lkf-diagram-desc\">{}</desc>",
        escape(&describe(layout))
    );
    let _ = writeln!(
        out,
        "<defs><marker id=\"{ARROW_ID}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" \
         markerWidth=\"8\" markerHeight=\"8\" markerUnits=\"userSpaceOnUse\" \
         orient=\"auto-start-reverse\"><path class=\"arrowhead\" d=\"M0,1L10,5L0,9z\"/></marker></defs>"
    );

    out.push_str("<g class=\"groups\">\n");
    for group in &layout.groups {
        group_svg(&mut out, group);
    }
    out.push_str("</g>\n<g class=\"edges\">\n");
    for edge in &layout.edges {
        edge_svg(&mut out, edge);
    }
    out.push_str("</g>\n<g class=\"nodes\">\n");
    for node in &layout.nodes {
        node_svg(&mut out, node, link_for);
    }
    out.push_str("</g>\n<g class=\"edge-labels\">\n");
    for edge in &layout.edges {
        label_svg(&mut out, edge);
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// A one-sentence summary for the `<desc>`.
fn describe(layout: &Layout) -> String {
    let plural = |count: usize, one: &str, many: &str| {
        format!("{count} {}", if count == 1 { one } else { many })
    };
    let mut text = format!(
        "Flow diagram with {} and {}",
        plural(layout.nodes.len(), "step", "steps"),
        plural(layout.edges.len(), "link", "links"),
    );
    if !layout.groups.is_empty() {
        text.push_str(" in ");
        text.push_str(&plural(layout.groups.len(), "group", "groups"));
    }
    text
}

/// A coordinate with at most one decimal; anything not finite is drawn at 0.
fn num(value: f64) -> String {
    if !value.is_finite() {
        return "0".to_string();
    }
    let rounded = (value * 10.0).round() / 10.0;
    if rounded == rounded.trunc() {
        format!("{}", rounded as i64)
    } else {
        // In tenths, formatted as integers: the same text as `{rounded:.1}` without pulling in
        // the float formatter. (Not an integer, so |rounded| < 2^52 and this is exact.)
        let tenths = (rounded * 10.0).round() as i64;
        let sign = if tenths < 0 { "-" } else { "" };
        let tenths = tenths.unsigned_abs();
        format!("{sign}{}.{}", tenths / 10, tenths % 10)
    }
}

/// Only links that stay on this site or go to an http(s) URL.
fn safe_href(href: &str) -> bool {
    href.starts_with('#')
        || (href.starts_with('/') && !href.starts_with("//") && !href.starts_with("/\\"))
        || href.starts_with("https://")
        || href.starts_with("http://")
}

fn group_svg(out: &mut String, group: &PlacedGroup) {
    let max_chars = ((group.w - 20.0) / ROW_CHAR_PX).floor().max(1.0) as usize;
    let _ = writeln!(
        out,
        "<g class=\"group\" data-group=\"{id}\"><title>{title}</title>\
         <rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"10\"/>\
         <text class=\"group-title\" x=\"{tx}\" y=\"{ty}\">{shown}</text></g>",
        id = escape(&group.id),
        title = escape(&group.title),
        x = num(group.x),
        y = num(group.y),
        w = num(group.w),
        h = num(group.h),
        tx = num(group.x + 10.0),
        ty = num(group.y + 18.0),
        shown = escape(&layout::fit(&group.title, max_chars)),
    );
}

/// Path data through `points`, with each bend rounded by a quadratic curve.
fn path_data(points: &[(f64, f64)]) -> Option<String> {
    let (&(x0, y0), rest) = points.split_first()?;
    let mut path = format!("M{},{}", num(x0), num(y0));
    let mut previous = (x0, y0);
    for (index, &point) in rest.iter().enumerate() {
        let Some(&next) = rest.get(index + 1) else {
            let _ = write!(path, " L{},{}", num(point.0), num(point.1));
            break;
        };
        let towards = |from: (f64, f64), to: (f64, f64), by: f64| {
            let length = (to.0 - from.0).hypot(to.1 - from.1);
            if length < 0.01 {
                from
            } else {
                (
                    from.0 + (to.0 - from.0) * by / length,
                    from.1 + (to.1 - from.1) * by / length,
                )
            }
        };
        let before = (point.0 - previous.0).hypot(point.1 - previous.1);
        let after = (next.0 - point.0).hypot(next.1 - point.1);
        let radius = CORNER_RADIUS.min(before / 2.0).min(after / 2.0);
        let start = towards(point, previous, radius);
        let end = towards(point, next, radius);
        let _ = write!(
            path,
            " L{},{} Q{},{} {},{}",
            num(start.0),
            num(start.1),
            num(point.0),
            num(point.1),
            num(end.0),
            num(end.1)
        );
        previous = point;
    }
    Some(path)
}

fn edge_svg(out: &mut String, edge: &PlacedEdge) {
    let Some(path) = path_data(&edge.points) else {
        return;
    };
    let (class, dash) = if edge.dashed {
        ("edge dashed", " stroke-dasharray=\"6 4\"")
    } else {
        ("edge", "")
    };
    let _ = writeln!(
        out,
        "<path class=\"{class}\" data-from=\"{from}\" data-to=\"{to}\" d=\"{path}\"{dash} \
         marker-end=\"url(#{ARROW_ID})\"/>",
        from = escape(&edge.from),
        to = escape(&edge.to),
    );
}

fn label_svg(out: &mut String, edge: &PlacedEdge) {
    let Some(label) = &edge.label else {
        return;
    };
    let (w, h) = layout::label_size(label);
    let (cx, cy) = edge.label_at;
    let _ = writeln!(
        out,
        "<g class=\"edge-label\"><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"4\"/>\
         <text x=\"{cx}\" y=\"{ty}\" text-anchor=\"middle\">{text}</text></g>",
        x = num(cx - w / 2.0),
        y = num(cy - h / 2.0),
        w = num(w),
        h = num(h),
        cx = num(cx),
        ty = num(cy + LABEL_FONT_PX * 0.35),
        text = escape(label),
    );
}

/// The outline of a node, by kind.
fn shape(node: &PlacedNode) -> String {
    let (x, y, w, h) = (node.x, node.y, node.w, node.h);
    match node.kind {
        "decision" => {
            let inset = DECISION_INSET_PX.min(w / 4.0);
            format!(
                "<polygon class=\"shape\" points=\"{},{} {},{} {},{} {},{} {},{} {},{}\"/>",
                num(x + inset),
                num(y),
                num(x + w - inset),
                num(y),
                num(x + w),
                num(y + h / 2.0),
                num(x + w - inset),
                num(y + h),
                num(x + inset),
                num(y + h),
                num(x),
                num(y + h / 2.0),
            )
        }
        "data" => {
            let rx = w / 2.0;
            let ry = DATA_CAP_PX;
            format!(
                "<path class=\"shape\" d=\"M{x0},{top} A{rx},{ry} 0 0 1 {x1},{top} V{bottom} \
                 A{rx},{ry} 0 0 1 {x0},{bottom} Z\"/>\
                 <path class=\"cap\" d=\"M{x0},{top} A{rx},{ry} 0 0 0 {x1},{top}\"/>",
                x0 = num(x),
                x1 = num(x + w),
                top = num(y + ry),
                bottom = num(y + h - ry),
                rx = num(rx),
                ry = num(ry),
            )
        }
        kind => {
            let radius = if kind == "trigger" {
                (h / 2.0).min(22.0)
            } else {
                8.0
            };
            format!(
                "<rect class=\"shape\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\"/>",
                num(x),
                num(y),
                num(w),
                num(h),
                num(radius),
            )
        }
    }
}

fn node_svg(
    out: &mut String,
    node: &PlacedNode,
    link_for: &dyn Fn(&str, Option<&str>) -> Option<String>,
) {
    let href = node
        .file
        .as_deref()
        .and_then(|file| link_for(file, node.hunk.as_deref()))
        .filter(|href| safe_href(href));
    if let Some(href) = &href {
        let _ = write!(out, "<a class=\"node-link\" href=\"{}\">", escape(href));
    }
    let id = escape(&node.id);
    let _ = write!(
        out,
        "<g class=\"node k-{kind}\" id=\"node-{id}\" data-node=\"{id}\">",
        kind = node.kind,
    );
    let mut tooltip = node.title.clone();
    if let Some(file) = &node.file {
        tooltip.push_str(" — ");
        tooltip.push_str(file);
    }
    let _ = write!(out, "<title>{}</title>", escape(&tooltip));
    out.push_str(&shape(node));

    let cx = num(node.x + node.w / 2.0);
    let mut top = node.y + node.text_top();
    for line in &node.title_lines {
        let _ = write!(
            out,
            "<text class=\"title\" x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            num(top + (TITLE_LINE_PX + TITLE_FONT_PX * 0.7) / 2.0),
            escape(line),
        );
        top += TITLE_LINE_PX;
    }
    if node.title_lines.is_empty() {
        top += TITLE_LINE_PX;
    }
    let row_baseline = (ROW_LINE_PX + ROW_FONT_PX * 0.7) / 2.0;
    if let Some(label) = &node.file_label {
        let _ = write!(
            out,
            "<text class=\"file\" x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            num(top + row_baseline),
            escape(label),
        );
        top += ROW_LINE_PX;
    }
    if !node.lines.is_empty() {
        top += ROWS_GAP_PX;
    }
    let inset = if node.kind == "decision" {
        DECISION_INSET_PX.min(node.w / 4.0)
    } else {
        0.0
    };
    let left = num(node.x + NODE_PAD_X + inset);
    for line in &node.lines {
        for (index, row) in line.rows.iter().enumerate() {
            let _ = write!(
                out,
                "<text class=\"row\" x=\"{left}\" y=\"{}\">",
                num(top + row_baseline)
            );
            if index == 0 && !line.label.is_empty() {
                let _ = write!(
                    out,
                    "<tspan class=\"row-label\">{}:</tspan> ",
                    escape(&line.label)
                );
            }
            out.push_str(&escape(row));
            out.push_str("</text>");
            top += ROW_LINE_PX;
        }
    }
    out.push_str("</g>");
    if href.is_some() {
        out.push_str("</a>");
    }
    out.push('\n');
}

/// Where the diagram's style is served (`src/static/diagram.css`, a Workers Static Asset):
/// inline SVG shares the page's style sheets, so its rules, scoped to `.lkf-diagram`, live in a
/// file the review page links rather than in every diagram (and in the wasm).
pub const DIAGRAM_CSS_PATH: &str = "/static/diagram.css";

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::panic, clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn no_links(_: &str, _: Option<&str>) -> Option<String> {
        None
    }

    fn anchor_links(file: &str, hunk: Option<&str>) -> Option<String> {
        if file.ends_with(".md") {
            return None;
        }
        Some(match hunk {
            Some(hunk) => format!("#file-{}-{hunk}", file.replace('/', "-")),
            None => format!("#file-{}", file.replace('/', "-")),
        })
    }

    fn sample() -> Value {
        json!({
            "title": "How an invite is accepted",
            "groups": [{ "id": "server", "title": "Server" }, { "id": "tests", "title": "Coverage" }],
            "nodes": [
                { "id": "link", "title": "Invite link opened", "kind": "trigger",
                  "lines": [{ "label": "example", "text": "/invite/abc123" }] },
                { "id": "accept", "title": "Accept invite", "kind": "logic", "group": "server",
                  "file": "services/invite-service.ts", "hunk": "c1",
                  "lines": [{ "label": "change", "text": "closes the invite after joining" }] },
                { "id": "expired", "title": "Reject expired", "kind": "warning", "group": "server",
                  "file": "services/invite-service.ts" },
                { "id": "spec", "title": "Invite service spec", "kind": "test", "group": "tests",
                  "file": "services/invite-service.test.ts" },
                { "id": "readme", "title": "Docs", "kind": "external", "file": "README.md" }
            ],
            "edges": [
                { "from": "link", "to": "accept", "label": "token" },
                { "from": "accept", "to": "expired", "label": "if expired" },
                { "from": "accept", "to": "spec", "label": "covered by", "dashed": true },
                { "from": "spec", "to": "readme" }
            ]
        })
    }

    /// Renders `diagram` and checks that every fragment of `expected` appears and none of
    /// `absent` does.
    fn check(
        diagram: &Value,
        link_for: &dyn Fn(&str, Option<&str>) -> Option<String>,
        expected: &[&str],
        absent: &[&str],
    ) -> String {
        let svg = render_diagram(diagram, link_for);
        for fragment in expected {
            assert!(svg.contains(fragment), "missing {fragment:?} in:\n{svg}");
        }
        for fragment in absent {
            assert!(
                !svg.contains(fragment),
                "unexpected {fragment:?} in:\n{svg}"
            );
        }
        svg
    }

    #[test]
    fn has_the_svg_frame() {
        check(
            &sample(),
            &no_links,
            &[
                "<svg xmlns=\"http://www.w3.org/2000/svg\"",
                "viewBox=\"0 0 ",
                "role=\"img\"",
                "<title id=\"lkf-diagram-title\">How an invite is accepted</title>",
                "Flow diagram with 5 steps and 4 links in 2 groups",
                "<marker id=\"lkf-arrow\"",
                "marker-end=\"url(#lkf-arrow)\"",
            ],
            &["<script", "<image", "xlink", "@import", "url(http"],
        );
    }

    #[test]
    fn every_node_has_an_id_and_kind_class() {
        check(
            &sample(),
            &no_links,
            &[
                "class=\"node k-trigger\" id=\"node-link\" data-node=\"link\"",
                "class=\"node k-logic\" id=\"node-accept\" data-node=\"accept\"",
                "class=\"node k-warning\" id=\"node-expired\" data-node=\"expired\"",
                "class=\"node k-test\" id=\"node-spec\" data-node=\"spec\"",
                "class=\"node k-external\" id=\"node-readme\" data-node=\"readme\"",
                "<g class=\"group\" data-group=\"server\"><title>Server</title>",
                "<tspan class=\"row-label\">example:</tspan> /invite/abc123",
                "<text class=\"file\"",
                "invite-service.ts</text>",
            ],
            &[],
        );
    }

    #[test]
    fn every_kind_is_drawn() {
        let kinds = layout::KINDS;
        let nodes: Vec<Value> = kinds
            .iter()
            .map(|kind| json!({ "id": kind, "title": kind, "kind": kind }))
            .collect();
        let svg = check(
            &json!({ "nodes": nodes, "edges": [] }),
            &no_links,
            &["<polygon class=\"shape\"", "<path class=\"cap\""],
            &[],
        );
        for kind in kinds {
            assert!(svg.contains(&format!("class=\"node k-{kind}\" id=\"node-{kind}\"")));
        }
    }

    #[test]
    fn escapes_all_text() {
        let diagram = json!({
            "title": "<script>alert(1)</script>",
            "groups": [{ "id": "g\"x", "title": "<b>group</b>" }],
            "nodes": [
                { "id": "a\"><script>", "title": "<script>alert('a')</script>", "group": "g\"x",
                  "lines": [{ "label": "<i>", "text": "a & b" }], "file": "x<y>.rs" },
                { "id": "b", "title": "B" }
            ],
            "edges": [{ "from": "a\"><script>", "to": "b", "label": "<img src=x>" }]
        });
        check(
            &diagram,
            &|_: &str, _: Option<&str>| Some("#file-<x>\"".to_string()),
            &[
                "&lt;script&gt;alert(1)&lt;/script&gt;",
                "&lt;script&gt;alert(&#39;a&#39;)&lt;/script&gt;",
                "id=\"node-a&quot;&gt;&lt;script&gt;\"",
                "&lt;b&gt;group&lt;/b&gt;",
                "&lt;i&gt;:",
                "a &amp; b",
                "&lt;img src=x&gt;",
                "href=\"#file-&lt;x&gt;&quot;\"",
            ],
            &["<script", "<b>", "<i>", "<img"],
        );
    }

    #[test]
    fn dashed_edges_have_a_dasharray() {
        let svg = check(
            &sample(),
            &no_links,
            &["class=\"edge dashed\" data-from=\"accept\" data-to=\"spec\""],
            &[],
        );
        for line in svg
            .lines()
            .filter(|line| line.starts_with("<path class=\"edge"))
        {
            assert_eq!(
                line.contains("stroke-dasharray"),
                line.contains("edge dashed"),
                "{line}"
            );
        }
        assert_eq!(svg.matches("<path class=\"edge").count(), 4);
    }

    #[test]
    fn links_only_when_link_for_gives_one() {
        check(
            &sample(),
            &anchor_links,
            &[
                "<a class=\"node-link\" href=\"#file-services-invite-service.ts-c1\"><g class=\"node k-logic\" id=\"node-accept\"",
                "<a class=\"node-link\" href=\"#file-services-invite-service.ts\"><g class=\"node k-warning\"",
                "<a class=\"node-link\" href=\"#file-services-invite-service.test.ts\"><g class=\"node k-test\"",
            ],
            &["<a class=\"node-link\" href=\"#file-README.md\""],
        );
        let svg = check(&sample(), &no_links, &[], &["<a "]);
        assert!(svg.contains("id=\"node-readme\""));
        // A node without a file is never linked, whatever link_for says.
        let svg = render_diagram(&sample(), &|_: &str, _: Option<&str>| {
            Some("#x".to_string())
        });
        assert_eq!(svg.matches("<a ").count(), 4);
        assert!(!svg.contains("<a class=\"node-link\" href=\"#x\"><g class=\"node k-trigger\""));
    }

    #[test]
    fn unsafe_links_are_dropped() {
        for href in [
            "javascript:alert(1)",
            "//evil.example/x",
            "data:text/html,x",
            " #x",
        ] {
            let svg = render_diagram(&sample(), &|_: &str, _: Option<&str>| {
                Some(href.to_string())
            });
            assert!(!svg.contains("<a "), "{href}");
        }
        for href in [
            "#file-a",
            "/r/acme/app/pull/1#file-a",
            "https://example.com/x",
        ] {
            let svg = render_diagram(&sample(), &|_: &str, _: Option<&str>| {
                Some(href.to_string())
            });
            assert!(svg.contains("<a "), "{href}");
        }
    }

    #[test]
    fn empty_and_odd_input_still_draw() {
        for diagram in [
            json!(null),
            json!({}),
            json!({ "nodes": [] , "edges": []}),
            json!({ "nodes": "x", "edges": 3, "groups": {} }),
            json!([1, 2, 3]),
        ] {
            let svg = check(
                &diagram,
                &no_links,
                &[
                    "<svg ",
                    "<title id=\"lkf-diagram-title\">Flow diagram</title>",
                    "</svg>",
                ],
                &["NaN", "inf"],
            );
            assert!(!svg.contains("data-node"));
        }
    }

    type Points = &'static [(f64, f64)];

    #[test]
    fn bends_are_rounded() {
        let cases: [(Points, Option<&str>); 5] = [
            (&[], None),
            (&[(1.0, 2.0)], Some("M1,2")),
            (&[(0.0, 0.0), (0.0, 50.0)], Some("M0,0 L0,50")),
            (
                &[(0.0, 0.0), (0.0, 50.0), (40.0, 50.0)],
                Some("M0,0 L0,40 Q0,50 10,50 L40,50"),
            ),
            (
                &[(0.0, 0.0), (0.0, 0.0), (0.0, 6.0)],
                Some("M0,0 L0,0 Q0,0 0,0 L0,6"),
            ),
        ];
        for (points, expected) in cases {
            assert_eq!(path_data(points).as_deref(), expected, "{points:?}");
        }
    }

    #[test]
    fn numbers_match_the_float_formatter() {
        for step in -20_000..20_000 {
            for value in [step as f64 * 0.037, step as f64 * 12.3456 + 0.05] {
                let rounded = (value * 10.0).round() / 10.0;
                let expected = if rounded == rounded.trunc() {
                    format!("{}", rounded as i64)
                } else {
                    format!("{rounded:.1}")
                };
                assert_eq!(num(value), expected, "{value}");
            }
        }
    }

    #[test]
    fn numbers_are_short_and_finite() {
        let cases = [
            (0.0, "0"),
            (-0.0, "0"),
            (1.25, "1.3"),
            (12.04, "12"),
            (-3.5, "-3.5"),
            (f64::NAN, "0"),
            (f64::INFINITY, "0"),
        ];
        for (value, expected) in cases {
            assert_eq!(num(value), expected, "{value}");
        }
    }
}

"use strict";
// Draws a flow diagram laid out on the server (review::layout) as SVG, with DOM calls only.
// One copy serves two places:
// - the review page's Diagram tab, as the static asset /static/diagram.js: it reads the layout,
//   the text metrics and each node's link from the page's JSON data block
//   (<script type="application/json" id="diagram-layout">) and puts the drawing in place of the
//   page's text list of the steps (what readers without JavaScript get);
// - the MCP Apps view (src/mcp/apps/reading-order.html), where build.rs inlines this file at its
//   `@logikflow/diagram.js` marker; the view calls window.LogiKFlowDiagram.draw itself and finds
//   no data block here.
// Every text (titles, labels, file names, all of it written by agents) becomes a text node: no
// markup is ever parsed. A node's link is taken only as a fragment (#…) of the page.
// The style is the page's: /static/diagram.css on the review page, the view's own rules in the
// view. Shapes by kind: decision a hexagon, data a cylinder, trigger a pill, the rest rounded.
(function () {
  var NS = "http://www.w3.org/2000/svg";
  var ARROW_ID = "lkf-arrow";
  // The largest radius of a rounded bend in an edge.
  var CORNER_RADIUS = 10;

  // A coordinate with at most one decimal; anything not finite is drawn at 0.
  function num(value) {
    return typeof value === "number" && isFinite(value) ? Math.round(value * 10) / 10 : 0;
  }

  function svg(tag, attributes, text) {
    var node = document.createElementNS(NS, tag);
    for (var name in attributes) {
      if (Object.prototype.hasOwnProperty.call(attributes, name)) node.setAttribute(name, String(attributes[name]));
    }
    if (text !== undefined) node.appendChild(document.createTextNode(String(text)));
    return node;
  }

  function list(value) {
    return Array.isArray(value) ? value : [];
  }

  function text(value) {
    return typeof value === "string" ? value : "";
  }

  // Characters, not UTF-16 units, as the layout counts them.
  function length(value) {
    return Array.from(value).length;
  }

  // `value` on one line of at most `max` characters, ending in … when shortened.
  function fit(value, max) {
    var chars = Array.from(value);
    return chars.length <= max ? value : chars.slice(0, Math.max(max - 1, 0)).join("") + "…";
  }

  function plural(count, one, many) {
    return count + " " + (count === 1 ? one : many);
  }

  // A one-sentence summary for the <desc>.
  function describe(layout) {
    var out = "Flow diagram with " + plural(list(layout.nodes).length, "step", "steps") +
      " and " + plural(list(layout.edges).length, "link", "links");
    var groups = list(layout.groups).length;
    return groups ? out + " in " + plural(groups, "group", "groups") : out;
  }

  // Path data through `points`, with each bend rounded by a quadratic curve.
  function pathData(points) {
    if (!points.length) return null;
    var first = points[0];
    var path = "M" + num(first[0]) + "," + num(first[1]);
    var previous = first;
    function towards(from, to, by) {
      var span = Math.hypot(to[0] - from[0], to[1] - from[1]);
      if (span < 0.01) return from;
      return [from[0] + (to[0] - from[0]) * by / span, from[1] + (to[1] - from[1]) * by / span];
    }
    for (var index = 1; index < points.length; index++) {
      var point = points[index];
      var next = points[index + 1];
      if (!next) {
        path += " L" + num(point[0]) + "," + num(point[1]);
        break;
      }
      var before = Math.hypot(point[0] - previous[0], point[1] - previous[1]);
      var after = Math.hypot(next[0] - point[0], next[1] - point[1]);
      var radius = Math.min(CORNER_RADIUS, before / 2, after / 2);
      var start = towards(point, previous, radius);
      var end = towards(point, next, radius);
      path += " L" + num(start[0]) + "," + num(start[1]) + " Q" + num(point[0]) + "," + num(point[1]) +
        " " + num(end[0]) + "," + num(end[1]);
      previous = point;
    }
    return path;
  }

  function drawGroup(group, m) {
    var max = Math.max(Math.floor((num(group.w) - 20) / m.rowCharPx), 1);
    var g = svg("g", { "class": "group", "data-group": text(group.id) });
    g.appendChild(svg("title", {}, text(group.title)));
    g.appendChild(svg("rect", { x: num(group.x), y: num(group.y), width: num(group.w), height: num(group.h), rx: 10 }));
    g.appendChild(svg("text", { "class": "group-title", x: num(group.x + 10), y: num(group.y + m.groupTitlePx - 2) },
      fit(text(group.title), max)));
    return g;
  }

  function drawEdge(edge) {
    var points = list(edge.points).filter(function (p) { return Array.isArray(p) && p.length === 2; });
    var d = pathData(points);
    if (!d) return null;
    var attributes = { "class": edge.dashed ? "edge dashed" : "edge", "data-from": text(edge.from), "data-to": text(edge.to), d: d };
    if (edge.dashed) attributes["stroke-dasharray"] = "6 4";
    attributes["marker-end"] = "url(#" + ARROW_ID + ")";
    return svg("path", attributes);
  }

  function drawLabel(edge, m) {
    var label = text(edge.label);
    if (!label || !Array.isArray(edge.labelAt)) return null;
    var w = length(label) * m.labelCharPx + 2 * m.labelPadX;
    var h = m.labelHPx;
    var cx = edge.labelAt[0];
    var cy = edge.labelAt[1];
    var g = svg("g", { "class": "edge-label" });
    g.appendChild(svg("rect", { x: num(cx - w / 2), y: num(cy - h / 2), width: num(w), height: num(h), rx: 4 }));
    g.appendChild(svg("text", { x: num(cx), y: num(cy + m.labelFontPx * 0.35), "text-anchor": "middle" }, label));
    return g;
  }

  // The outline of a node, by kind.
  function shape(node, m) {
    var x = num(node.x), y = num(node.y), w = num(node.w), h = num(node.h);
    if (node.kind === "decision") {
      var inset = Math.min(m.decisionInsetPx, w / 4);
      var corners = [[x + inset, y], [x + w - inset, y], [x + w, y + h / 2], [x + w - inset, y + h], [x + inset, y + h], [x, y + h / 2]];
      return [svg("polygon", { "class": "shape", points: corners.map(function (p) { return num(p[0]) + "," + num(p[1]); }).join(" ") })];
    }
    if (node.kind === "data") {
      var rx = num(w / 2), ry = m.dataCapPx;
      var top = num(y + ry), bottom = num(y + h - ry), left = num(x), right = num(x + w);
      return [
        svg("path", { "class": "shape", d: "M" + left + "," + top + " A" + rx + "," + ry + " 0 0 1 " + right + "," + top +
          " V" + bottom + " A" + rx + "," + ry + " 0 0 1 " + left + "," + bottom + " Z" }),
        svg("path", { "class": "cap", d: "M" + left + "," + top + " A" + rx + "," + ry + " 0 0 0 " + right + "," + top })
      ];
    }
    var radius = node.kind === "trigger" ? Math.min(h / 2, 22) : 8;
    return [svg("rect", { "class": "shape", x: x, y: y, width: w, height: h, rx: num(radius) })];
  }

  function drawNode(node, m, href, activate) {
    var id = text(node.id);
    var file = text(node.file);
    var g = svg("g", { "class": "node k-" + text(node.kind) + (file && activate ? " linked" : ""), id: "node-" + id, "data-node": id });
    g.appendChild(svg("title", {}, text(node.title) + (file ? " — " + file : "")));
    shape(node, m).forEach(function (part) { g.appendChild(part); });
    var cx = num(num(node.x) + num(node.w) / 2);
    var top = num(node.y) + m.nodePadY + (node.kind === "data" ? 2 * m.dataCapPx : 0);
    var titleLines = list(node.titleLines);
    titleLines.forEach(function (line) {
      g.appendChild(svg("text", { "class": "title", x: cx, y: num(top + (m.titleLinePx + m.titleFontPx * 0.7) / 2), "text-anchor": "middle" }, text(line)));
      top += m.titleLinePx;
    });
    if (!titleLines.length) top += m.titleLinePx;
    var baseline = (m.rowLinePx + m.rowFontPx * 0.7) / 2;
    if (typeof node.fileLabel === "string") {
      g.appendChild(svg("text", { "class": "file", x: cx, y: num(top + baseline), "text-anchor": "middle" }, node.fileLabel));
      top += m.rowLinePx;
    }
    var lines = list(node.lines);
    if (lines.length) top += m.rowsGapPx;
    var inset = node.kind === "decision" ? Math.min(m.decisionInsetPx, num(node.w) / 4) : 0;
    var left = num(num(node.x) + m.nodePadX + inset);
    lines.forEach(function (line) {
      list(line && line.rows).forEach(function (row, index) {
        var rowText = svg("text", { "class": "row", x: left, y: num(top + baseline) });
        if (index === 0 && text(line.label)) {
          rowText.appendChild(svg("tspan", { "class": "row-label" }, line.label + ":"));
          rowText.appendChild(document.createTextNode(" "));
        }
        rowText.appendChild(document.createTextNode(text(row)));
        g.appendChild(rowText);
        top += m.rowLinePx;
      });
    });
    if (file && activate) {
      // The MCP Apps view: the node itself is the control.
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.addEventListener("click", function () { activate(node); });
      g.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          activate(node);
        }
      });
    }
    if (file && typeof href === "string" && href.charAt(0) === "#") {
      var a = svg("a", { "class": "node-link", href: href });
      a.appendChild(g);
      return a;
    }
    return g;
  }

  // The text metrics the layout was computed for (tools::view_diagram's METRICS); the defaults
  // are the same numbers, for a caller that has none.
  var DEFAULTS = {
    titleFontPx: 13, titleLinePx: 17, rowFontPx: 11, rowLinePx: 14, rowCharPx: 6.6, rowsGapPx: 4,
    nodePadX: 12, nodePadY: 9, labelFontPx: 11, labelCharPx: 6.6, labelPadX: 5, labelHPx: 16,
    groupTitlePx: 20, decisionInsetPx: 14, dataCapPx: 7
  };

  // Draws `layout` as one <svg> element. `options.href(node, index)` gives the link of a node
  // tied to a file (the review page); `options.activate(node)` makes such a node a button
  // instead (the MCP Apps view).
  function draw(layout, metrics, options) {
    layout = layout && typeof layout === "object" ? layout : {};
    options = options || {};
    var m = {};
    for (var key in DEFAULTS) {
      var given = metrics && metrics[key];
      m[key] = typeof given === "number" && isFinite(given) ? given : DEFAULTS[key];
    }
    var width = num(layout.width);
    var height = num(layout.height);
    var root = svg("svg", { "class": "lkf-diagram", viewBox: "0 0 " + width + " " + height, width: width, height: height });
    root.appendChild(svg("title", { id: "lkf-diagram-title" }, text(layout.title) || "Flow diagram"));
    root.appendChild(svg("desc", { id: "lkf-diagram-desc" }, describe(layout)));
    var defs = svg("defs", {});
    var marker = svg("marker", {
      id: ARROW_ID, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 8, markerHeight: 8,
      markerUnits: "userSpaceOnUse", orient: "auto-start-reverse"
    });
    marker.appendChild(svg("path", { "class": "arrowhead", d: "M0,1L10,5L0,9z" }));
    defs.appendChild(marker);
    root.appendChild(defs);
    function layer(name, items, each) {
      var g = svg("g", { "class": name });
      items.forEach(function (item, index) {
        var drawn = item && typeof item === "object" ? each(item, index) : null;
        if (drawn) g.appendChild(drawn);
      });
      root.appendChild(g);
    }
    layer("groups", list(layout.groups), function (group) { return drawGroup(group, m); });
    layer("edges", list(layout.edges), drawEdge);
    layer("nodes", list(layout.nodes), function (node, index) {
      return drawNode(node, m, options.href ? options.href(node, index) : null, options.activate);
    });
    layer("edge-labels", list(layout.edges), function (edge) { return drawLabel(edge, m); });
    // One image, named by its title and described by its summary; with links or buttons inside,
    // a group with that name and description, so its controls stay reachable (an image's
    // content is presentational, and axe-core calls focusable content in it a serious problem).
    if (root.querySelector("a, [tabindex]")) {
      root.setAttribute("role", "group");
      root.setAttribute("aria-labelledby", "lkf-diagram-title");
      root.setAttribute("aria-describedby", "lkf-diagram-desc");
    } else {
      root.setAttribute("role", "img");
      root.setAttribute("aria-labelledby", "lkf-diagram-title lkf-diagram-desc");
    }
    return root;
  }

  window.LogiKFlowDiagram = { draw: draw };

  // The review page: the data block the server wrote, drawn in place of the list of steps.
  var data = document.getElementById("diagram-layout");
  var place = document.getElementById("diagram-drawing");
  if (!data || !place) return;
  var parsed;
  try {
    parsed = JSON.parse(data.textContent || "");
  } catch (error) {
    return;
  }
  if (!parsed || typeof parsed !== "object") return;
  var links = list(parsed.links);
  place.replaceChildren(draw(parsed.layout, parsed.metrics, {
    href: function (node, index) { return links[index]; }
  }));
})();

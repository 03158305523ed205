"use strict";
// The review page's diffs, enhanced (served as /static/review-view.js from Workers Static Assets;
// the page works without it): "Load diff" links fetch the entry's diff in place, diff lines are
// syntax-highlighted one by one as they scroll into view (window.hljs, /static/highlight.js), and
// "Expand" buttons show up to 20 more lines of the file around a change (at most 20 requests a
// page view). Every line keeps its +/- marker and its line numbers: only the text node after
// the marker is replaced by highlighted markup.
(function () {
  var MAX_EXPANSIONS = 20;
  var CONTEXT_LINES = 20;
  // Longer lines (minified code) stay plain: highlighting them costs more than it helps.
  var MAX_HIGHLIGHT_CHARS = 1000;
  var expansions = 0;
  // File extension to highlight.js language (the bundle in src/web/highlight-bundle.mjs).
  var LANGUAGES = {
    ts: "typescript", tsx: "typescript", mts: "typescript", cts: "typescript",
    js: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript",
    py: "python", pyi: "python", rs: "rust", go: "go", java: "java", kt: "kotlin", kts: "kotlin",
    rb: "ruby", rake: "ruby", gemspec: "ruby", c: "c", h: "c",
    cc: "cpp", cpp: "cpp", cxx: "cpp", hpp: "cpp", hh: "cpp", hxx: "cpp",
    cs: "csharp", php: "php", swift: "swift", css: "css", scss: "scss",
    html: "xml", htm: "xml", xml: "xml", svg: "xml", vue: "xml", json: "json",
    yaml: "yaml", yml: "yaml", toml: "ini", ini: "ini", cfg: "ini",
    md: "markdown", markdown: "markdown", sh: "bash", bash: "bash", zsh: "bash", sql: "sql"
  };
  var pull = (location.pathname.match(/^\/r\/[^/]+\/[^/]+\/pull\/\d+/) || [""])[0];

  var live = document.createElement("p");
  live.className = "vh";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  document.body.appendChild(live);
  function say(text) { live.textContent = text; }

  // The language of a diff's file, by its extension, when the highlighter knows it.
  function language(wrap) {
    var name = (wrap.getAttribute("data-path") || "").split("/").pop();
    var dot = name.lastIndexOf(".");
    var lang = dot > 0 ? LANGUAGES[name.slice(dot + 1).toLowerCase()] : null;
    var hljs = window.hljs;
    return lang && hljs && hljs.getLanguage(lang) ? lang : null;
  }

  // Highlights the text of one code cell: <td class="code"><span class="mk">+</span>TEXT…
  function highlightCell(cell, lang) {
    var mark = cell.firstChild;
    var text = mark && mark.nextSibling;
    if (!text || text.nodeType !== 3 || !text.nodeValue || text.nodeValue.length > MAX_HIGHLIGHT_CHARS) {
      return;
    }
    var result;
    try {
      result = window.hljs.highlight(text.nodeValue, { language: lang, ignoreIllegals: true });
    } catch (error) {
      return;
    }
    var span = document.createElement("span");
    span.className = "hl";
    // highlight.js escapes the text it is given (&, <, >, " and ') and adds only its own
    // <span class="hljs-…"> tags, so its output is the one HTML we parse from untrusted text.
    span.innerHTML = result.value;
    cell.replaceChild(span, text);
  }

  function highlightRows(rows, lang) {
    Array.prototype.forEach.call(rows, function (row) {
      var cell = row.querySelector("td.code");
      if (cell) { highlightCell(cell, lang); }
    });
  }

  function highlight(wrap) {
    if (wrap.getAttribute("data-hl") === "done") { return; }
    var lang = language(wrap);
    if (!lang) { return; }
    wrap.setAttribute("data-hl", "done");
    highlightRows(wrap.querySelectorAll("tr.add, tr.del, tr.ctx"), lang);
  }

  var observer = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (entry.isIntersecting) {
        observer.unobserve(entry.target);
        highlight(entry.target);
      }
    });
  }, { rootMargin: "400px 0px" }) : null;

  function context(wrap, from, to) {
    var url = pull + "/context?path=" + encodeURIComponent(wrap.getAttribute("data-path")) +
      "&from=" + from + "&to=" + to;
    return fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) {
        if (response.redirected) { throw new Error("you were signed out; reload the page"); }
        if (!response.ok) {
          return response.text().then(function (text) { throw new Error(text || "status " + response.status); });
        }
        return response.json();
      });
  }

  // A row for a line the diff didn't show, [old, new, text], built from text (never parsed as
  // HTML).
  function contextRow(line) {
    var row = document.createElement("tr");
    row.className = "ctx ctx-more";
    [line[0], line[1]].forEach(function (number) {
      var cell = document.createElement("td");
      cell.className = "ln";
      cell.textContent = String(number);
      row.appendChild(cell);
    });
    var code = document.createElement("td");
    code.className = "code";
    var mark = document.createElement("span");
    mark.className = "mk";
    mark.textContent = " ";
    code.appendChild(mark);
    code.appendChild(document.createTextNode(line[2]));
    row.appendChild(code);
    return row;
  }

  // One "Expand" button: `gap.from`..`gap.to` (new-file lines; `to` null: up to the end of the
  // file) are not shown; `above` takes lines from the bottom of the gap, else from its top.
  function expander(wrap, cell, gap, above) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "expand";
    button.textContent = above ? "Expand above" : "Expand below";
    button.title = above ? "Show up to 20 more lines of the file above this change" : "Show up to 20 more lines of the file below the last change";
    var before = above ? cell.parentNode : null;
    button.addEventListener("click", function () {
      if (expansions >= MAX_EXPANSIONS) {
        say("You expanded " + MAX_EXPANSIONS + " times on this page; open the file on GitHub for more.");
        return;
      }
      var from = above ? Math.max(gap.from, gap.to - CONTEXT_LINES + 1) : gap.from;
      var to = above ? gap.to : gap.from + CONTEXT_LINES - 1;
      expansions += 1;
      button.disabled = true;
      context(wrap, from, to).then(function (body) {
        var lines = body.lines || [];
        var lang = language(wrap);
        var rows = lines.map(contextRow);
        var at = above ? before : cell.parentNode;
        var tbody = at.parentNode;
        rows.forEach(function (row) { tbody.insertBefore(row, at); });
        if (lang) { highlightRows(rows, lang); }
        if (above) {
          if (rows.length) { before = rows[0]; }
          gap.to = from - 1;
        } else {
          gap.from = to + 1;
        }
        var done = above ? gap.to < gap.from : gap.from > (body.total || 0);
        button.disabled = false;
        if (done || expansions >= MAX_EXPANSIONS) { button.parentNode.removeChild(button); }
        say(lines.length ? "Showing lines " + lines[0][1] + " to " + lines[lines.length - 1][1] + "." : "No more lines.");
      }).catch(function (error) {
        button.disabled = false;
        say("Those lines couldn't be loaded: " + error.message);
      });
    });
    cell.insertBefore(button, cell.firstChild);
  }

  function addExpanders(wrap) {
    if (!pull || !wrap.getAttribute("data-path") || wrap.getAttribute("data-expand") === "done") { return; }
    wrap.setAttribute("data-expand", "done");
    var next = 1;
    var table = wrap.querySelector("table");
    var heads = wrap.querySelectorAll("tr.hunk-head");
    Array.prototype.forEach.call(heads, function (head) {
      var parts = (head.getAttribute("data-new") || "").split(",");
      var start = parseInt(parts[0], 10);
      var count = parseInt(parts[1], 10);
      if (!(start >= 1) || !(count >= 0)) { return; }
      if (start > next) { expander(wrap, head.firstElementChild, { from: next, to: start - 1 }, true); }
      next = count === 0 ? start + 1 : start + count;
    });
    if (table && heads.length) {
      var tail = document.createElement("tbody");
      var row = document.createElement("tr");
      row.className = "hunk-head";
      var cell = document.createElement("td");
      cell.colSpan = 3;
      row.appendChild(cell);
      tail.appendChild(row);
      table.appendChild(tail);
      expander(wrap, cell, { from: next, to: null }, false);
    }
  }

  function setUp(root) {
    Array.prototype.forEach.call(root.querySelectorAll(".diff-wrap"), function (wrap) {
      addExpanders(wrap);
      if (!language(wrap)) { return; }
      if (observer) { observer.observe(wrap); } else { highlight(wrap); }
    });
  }

  function load(link) {
    var holder = link.parentNode;
    if (link.getAttribute("aria-busy") === "true") { return; }
    link.setAttribute("aria-busy", "true");
    link.textContent = "Loading…";
    fetch(link.href + "&fragment=1", { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) {
        // A redirect means the session ended (to the sign-in page): never put that in place.
        if (!response.ok || response.redirected) { throw new Error("status " + response.status); }
        return response.text();
      })
      .then(function (html) {
        // Our own server's HTML for this entry, every untrusted text in it escaped there. It is
        // parsed as an inert document (nothing in it runs) and its nodes are moved in.
        var doc = new DOMParser().parseFromString(html, "text/html");
        var box = document.createElement("div");
        box.className = "loaded-diff";
        while (doc.body.firstChild) { box.appendChild(document.adoptNode(doc.body.firstChild)); }
        holder.parentNode.replaceChild(box, holder);
        setUp(box);
        var first = box.querySelector(".diff-wrap");
        if (first) { first.focus(); }
        say("Diff loaded.");
      })
      .catch(function () {
        link.removeAttribute("aria-busy");
        link.textContent = "Load diff";
        say("The diff couldn't be loaded. Try again, or open the link in a new tab (you may need to sign in again).");
      });
  }

  document.addEventListener("click", function (event) {
    var link = event.target && event.target.closest ? event.target.closest("a.load-diff") : null;
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    event.preventDefault();
    load(link);
  });
  setUp(document);
})();

"use strict";
// The review page's diffs, enhanced (served as /static/review-view.js from Workers Static Assets;
// the page works without it): "Load diff" links fetch the entry's diff in place, diff lines are
// syntax-highlighted one by one as they scroll into view (window.hljs, /static/highlight.js), and
// "Expand" buttons show up to 20 more lines of the file around a change (at most 20 requests a
// page view). Every line keeps its +/- marker and its line numbers: only the text node after
// the marker is replaced by highlighted markup. On a large page it also loads the other windows
// of entries in place ("Load more files", and outline links to their entries), and gives diffs
// loaded on demand their changes' own ticks; /static/review.js hears of what came in through a
// `review:loaded` event.
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

  // Our own server's HTML (every untrusted text in it escaped there), parsed as an inert
  // document: nothing in it runs, and its nodes are moved in.
  function fetchDocument(url) {
    return fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) {
        // A redirect means the session ended (to the sign-in page): never put that in place.
        if (!response.ok || response.redirected) { throw new Error("status " + response.status); }
        return response.text();
      })
      .then(function (html) { return new DOMParser().parseFromString(html, "text/html"); });
  }
  // Tells the tick script (/static/review.js) that entries or ticks came in under `root`.
  function loaded(root) {
    document.dispatchEvent(new CustomEvent("review:loaded", { detail: root }));
  }

  var madeTicks = 0;
  // A diff loaded on demand gets its changes' own ticks as the page gives inlined diffs: each a
  // copy of the entry's tick (the same form: action, CSRF token, fields) for the item
  // `change:{path}#{id}`, reviewed when the page listed the id in `data-done`, with "New" when
  // it listed it in `data-new`. The page leaves `data-done` out when the entry's tick is its
  // only change's.
  function changeTicks(holder, box) {
    var done = holder.getAttribute("data-done");
    var article = holder.closest("article.file");
    var entry = article && article.querySelector('.file-body > .tick[data-scope="entry"]');
    var wrap = box.querySelector(".diff-wrap");
    if (done === null || !entry || !wrap) { return; }
    var path = wrap.getAttribute("data-path");
    var doneIds = done.split(",");
    var newIds = (holder.getAttribute("data-new") || "").split(",");
    Array.prototype.forEach.call(wrap.querySelectorAll("tbody[data-change]"), function (tbody, index) {
      var id = tbody.getAttribute("data-change");
      var head = tbody.querySelector("tr.hunk-head td");
      var header = head && head.querySelector(".hunk-header");
      if (!id || !header) { return; }
      var isDone = doneIds.indexOf(id) >= 0;
      var tick = entry.cloneNode(true);
      tick.setAttribute("data-scope", "change");
      tick.classList.toggle("is-done", isDone);
      var item = tick.querySelector('input[name="item"]');
      var next = tick.querySelector('input[name="done"]');
      var checkbox = tick.querySelector(".tick-box");
      var label = tick.querySelector("label");
      var button = tick.querySelector(".tick-save");
      var tickId = "c" + (++madeTicks);
      if (item) { item.value = "change:" + path + "#" + id; }
      if (next) { next.value = isDone ? "0" : "1"; }
      if (checkbox) { checkbox.id = tickId; checkbox.checked = isDone; }
      if (label) {
        label.id = tickId + "-l";
        label.htmlFor = tickId;
        label.textContent = "Reviewed";
        var hidden = document.createElement("span");
        hidden.className = "vh";
        hidden.textContent = " change " + (index + 1) + " of " + path;
        label.appendChild(hidden);
      }
      if (button) {
        button.setAttribute("aria-describedby", tickId + "-l");
        button.textContent = isDone ? "Undo" : "Mark done";
      }
      var control = document.createElement("div");
      control.className = "hunk-tick";
      if (newIds.indexOf(id) >= 0) {
        var badge = document.createElement("span");
        badge.className = "badge new";
        badge.textContent = "New";
        control.appendChild(badge);
      }
      control.appendChild(tick);
      head.insertBefore(control, header);
    });
  }

  function load(link) {
    var holder = link.parentNode;
    if (link.getAttribute("aria-busy") === "true") { return; }
    link.setAttribute("aria-busy", "true");
    link.textContent = "Loading…";
    fetchDocument(link.href + "&fragment=1")
      .then(function (doc) {
        var box = document.createElement("div");
        box.className = "loaded-diff";
        while (doc.body.firstChild) { box.appendChild(document.adoptNode(doc.body.firstChild)); }
        setUp(box);
        changeTicks(holder, box);
        holder.parentNode.replaceChild(box, holder);
        loaded(box);
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

  // A large page renders one window of its entries; every other window is a "Load more files"
  // link per section (div.run.more, `data-window`) to the page of that window. Loading one
  // fetches that page's entries alone (`&fragment=1`) and puts each of its runs where this page
  // has the link with the same `data-run`.
  var windows = {};
  // The `from` of a link to a window of this page (`?from=N`, N its first entry), else null.
  function fromOf(link) {
    if (!link.search || link.pathname !== location.pathname) { return null; }
    var from = /[?&]from=(\d+)/.exec(link.search);
    return from ? from[1] : null;
  }
  function loadWindow(from) {
    if (!windows[from]) {
      var holders = Array.prototype.filter.call(document.querySelectorAll(".run.more"), function (holder) {
        var a = holder.querySelector("a.load-files");
        return a && fromOf(a) === from;
      });
      if (!holders.length) { return Promise.resolve(); }
      holders.forEach(function (holder) {
        var a = holder.querySelector("a.load-files");
        a.setAttribute("aria-busy", "true");
        a.textContent = "Loading…";
      });
      var url = holders[0].querySelector("a.load-files").href.split("#")[0] + "&fragment=1";
      windows[from] = fetchDocument(url).then(function (doc) {
        holders.forEach(function (holder) {
          var run = doc.querySelector('.run[data-run="' + holder.getAttribute("data-run") + '"]');
          if (!run || run.classList.contains("more")) { return; }
          run = document.adoptNode(run);
          holder.parentNode.replaceChild(run, holder);
          setUp(run);
          loaded(run);
        });
        say("More files loaded.");
      }).catch(function () {
        delete windows[from];
        holders.forEach(function (holder) {
          var a = holder.querySelector("a.load-files");
          a.removeAttribute("aria-busy");
          a.textContent = "Load more files";
        });
        say("Those files couldn't be loaded. Try again, or open the link (you may need to sign in again).");
      });
    }
    return windows[from];
  }
  // Goes to an entry (`#file-…`) once its window is on the page.
  function goTo(hash) {
    var target = hash && document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) { return; }
    if (location.hash !== hash) { history.pushState(null, "", hash); }
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
  }

  document.addEventListener("click", function (event) {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    var link = event.target && event.target.closest ? event.target.closest("a") : null;
    if (!link) { return; }
    if (link.classList.contains("load-diff")) {
      event.preventDefault();
      load(link);
      return;
    }
    var from = document.querySelector(".run") ? fromOf(link) : null;
    if (from === null) { return; }
    event.preventDefault();
    var hash = link.hash;
    loadWindow(from).then(function () { goTo(hash); });
  });
  setUp(document);
  // A link to an entry of a window that isn't on the page (shared, or from the diagram): the
  // outline knows its window.
  function follow() {
    var hash = location.hash;
    if (!hash || hash.length < 2 || document.getElementById(decodeURIComponent(hash.slice(1)))) { return; }
    var links = document.querySelectorAll(".outline a[href]");
    for (var i = 0; i < links.length; i++) {
      var from = fromOf(links[i]);
      if (links[i].hash === hash && from !== null) {
        loadWindow(from).then(function () { goTo(hash); });
        return;
      }
    }
  }
  window.addEventListener("hashchange", follow);
  follow();
})();

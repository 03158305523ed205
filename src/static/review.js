// The review page's only script (served as a static asset, /static/review.js): tick forms post
// in the background (fetch, Accept: application/json, the form's own fields, the ticks of the
// last second in one request) and update in place, each put back if the server refused it;
// marking a file marks each of its changes, and marking its last change marks the file; the
// "X of Y done" counter, each file's state and the outline follow. Keys: j/k next and previous
// file, n next file not reviewed, x toggles the focused change or file, ? lists the keys. Without
// it every form posts normally and the outline's links still work. It never builds markup from
// text: it sets textContent and attributes only. Entries and ticks that /static/review-view.js
// loads later (a window of entries, a diff's changes) come with a `review:loaded` event; the
// handlers here are the document's, so they serve those too.
"use strict";
(function () {
  var doneText = document.getElementById("progress-done");
  var bar = document.getElementById("progress-bar");
  var status = document.getElementById("tick-status");
  var files = [];
  var focusedFile = null;
  function refresh() {
    files = Array.prototype.slice.call(document.querySelectorAll("article.file"));
  }
  refresh();

  function field(form, name) {
    return form.querySelector('input[type="hidden"][name="' + name + '"]');
  }
  function isDone(form) {
    var done = field(form, "done");
    return !!done && done.value === "0";
  }
  // Counts toward "X of Y done": checklist items and file entries, not single changes.
  function counted(form) {
    var scope = form.getAttribute("data-scope");
    return scope === "check" || scope === "entry";
  }
  // Sets a tick's look and next value; a counted tick that changes moves the counter by one
  // (not a recount: a large page holds only some of its entries).
  function show(form, done) {
    var was = isDone(form);
    if (was !== done && counted(form) && doneText) {
      var value = Math.max(0, parseInt(doneText.textContent, 10) + (done ? 1 : -1));
      doneText.textContent = String(value);
      if (bar) { bar.value = value; }
    }
    var box = form.querySelector(".tick-box");
    var button = form.querySelector(".tick-save");
    var next = field(form, "done");
    if (box) { box.checked = done; }
    if (next) { next.value = done ? "0" : "1"; }
    if (button) { button.textContent = done ? "Undo" : "Mark done"; }
    form.classList.toggle("is-done", done);
  }
  function say(text) {
    if (status) { status.textContent = text; }
  }
  function setState(article, state) {
    article.setAttribute("data-state", state);
    var labels = { reviewed: ["\u2713", "Reviewed"], changed: ["\u25D0", "Changed since you reviewed"], todo: ["\u25CB", "Not reviewed yet"] };
    var badge = article.querySelector(".badge.state");
    if (badge) {
      badge.className = "badge state state-" + state;
      badge.textContent = "";
      var sym = document.createElement("span");
      sym.setAttribute("aria-hidden", "true");
      sym.textContent = labels[state][0];
      badge.appendChild(sym);
      badge.appendChild(document.createTextNode(" " + labels[state][1]));
    }
    // The outline's line (its style sheet draws the symbol from `data-state`); its link ends in
    // `#id`, with `?from=` before it when the entry came from another window.
    var links = document.querySelectorAll(".outline a[href]");
    for (var i = 0; i < links.length; i++) {
      if (links[i].hash === "#" + article.id && links[i].parentNode) {
        links[i].parentNode.setAttribute("data-state", state);
        var vh = links[i].querySelector(".vh");
        if (vh) { vh.textContent = labels[state][1] + ": "; }
        break;
      }
    }
  }
  // Keeps a file's entry tick and its changes' ticks consistent after `form` changed.
  function settle(form, done) {
    var article = form.closest("article.file");
    if (!article) { return; }
    var entry = article.querySelector('form.tick[data-scope="entry"]');
    var changes = article.querySelectorAll('form.tick[data-scope="change"]');
    if (form.getAttribute("data-scope") === "entry") {
      Array.prototype.forEach.call(changes, function (change) { show(change, done); });
    } else if (entry) {
      var all = true;
      Array.prototype.forEach.call(changes, function (change) { if (!isDone(change)) { all = false; } });
      show(entry, all);
    }
    if (entry) {
      var was = article.getAttribute("data-state");
      setState(article, isDone(entry) ? "reviewed" : (was === "changed" ? "changed" : "todo"));
    }
  }
  function snapshot(form) {
    var article = form.closest("article.file");
    var forms = article ? article.querySelectorAll("form.tick") : [form];
    return {
      article: article,
      state: article ? article.getAttribute("data-state") : null,
      done: Array.prototype.map.call(forms, function (f) { return [f, isDone(f)]; })
    };
  }
  function restore(saved) {
    saved.done.forEach(function (pair) { show(pair[0], pair[1]); });
    if (saved.article) { setState(saved.article, saved.state); }
  }
  // Ticks wait here up to FLUSH_MS and go in one request (`batch=1`, item and done in pairs;
  // the server answers one result per tick), so quick ticking costs one request a second. The
  // queue is sent at once when full, and when the page is hidden or left (keepalive).
  var FLUSH_MS = 1000;
  var MAX_BATCH = 100;
  var queue = [];
  var timer = null;
  function send(form, done) {
    if (form.getAttribute("aria-busy") === "true" || isDone(form) === done) {
      show(form, isDone(form));
      return;
    }
    var csrf = field(form, "csrf");
    var item = field(form, "item");
    if (!csrf || !item) { return; }
    var saved = snapshot(form);
    form.setAttribute("aria-busy", "true");
    show(form, done);
    settle(form, done);
    queue.push({ form: form, item: item.value, done: done, csrf: csrf.value, saved: saved });
    if (queue.length >= MAX_BATCH) { flush(false); }
    else if (!timer) { timer = setTimeout(function () { flush(false); }, FLUSH_MS); }
  }
  function flush(leaving) {
    if (timer) { clearTimeout(timer); timer = null; }
    if (!queue.length) { return; }
    var sent = queue.splice(0, MAX_BATCH);
    var body = new URLSearchParams();
    body.append("csrf", sent[0].csrf);
    body.append("batch", "1");
    sent.forEach(function (tick) {
      body.append("item", tick.item);
      body.append("done", tick.done ? "1" : "0");
    });
    fetch(sent[0].form.getAttribute("action"), {
      method: "POST",
      body: body,
      credentials: "same-origin",
      keepalive: leaving,
      headers: { "Accept": "application/json" }
    }).then(function (response) {
      if (!response.ok) { throw new Error("status " + response.status); }
      return response.json();
    }).then(function (reply) {
      var results = (reply && reply.results) || [];
      var failed = null;
      sent.forEach(function (tick, i) {
        var result = results[i];
        if (!result || result.status !== 200) {
          restore(tick.saved);
          failed = (result && result.error) || failed;
        }
      });
      if (failed) { say("That tick wasn't saved: " + failed); }
      else { say(sent[sent.length - 1].done ? "Marked reviewed." : "Marked not reviewed."); }
    }).catch(function () {
      sent.slice().reverse().forEach(function (tick) { restore(tick.saved); });
      say("That tick wasn't saved. Check your connection and try again.");
    }).then(function () {
      sent.forEach(function (tick) { tick.form.removeAttribute("aria-busy"); });
    });
    if (queue.length) { flush(leaving); }
  }
  window.addEventListener("pagehide", function () { flush(true); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") { flush(true); }
  });

  function enable(root) {
    Array.prototype.forEach.call(root.querySelectorAll("form.tick .tick-box"), function (box) { box.disabled = false; });
  }
  document.addEventListener("change", function (event) {
    var box = event.target;
    var form = box && box.classList && box.classList.contains("tick-box") ? box.closest("form.tick") : null;
    if (form) { send(form, box.checked); }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || !form.matches || !form.matches("form.tick")) { return; }
    event.preventDefault();
    send(form, !isDone(form));
  });
  enable(document);
  document.addEventListener("review:loaded", function (event) {
    if (event.detail && event.detail.querySelectorAll) { enable(event.detail); }
    refresh();
  });

  // The outline starts folded on narrow screens.
  var outline = document.querySelector(".outline-box");
  if (outline && window.matchMedia && window.matchMedia("(max-width: 63.99rem)").matches) {
    outline.removeAttribute("open");
  }

  function visible(article) {
    return article.offsetParent !== null;
  }
  function focusFile(index) {
    if (index < 0 || index >= files.length) { return; }
    var article = files[index];
    focusedFile = article;
    var old = document.querySelector("tbody.focused");
    if (old) { old.classList.remove("focused"); }
    article.focus({ preventScroll: true });
    article.scrollIntoView({ block: "start" });
  }
  function current() {
    var active = document.activeElement;
    var article = active && active.closest ? active.closest("article.file") : null;
    return files.indexOf(article || focusedFile);
  }
  // Goes to the next (or previous) visible file that `wanted` accepts; when a window of entries
  // that isn't loaded yet comes first, loads it instead (the next press goes on into it).
  function step(delta, wanted) {
    var index = current();
    var from = index >= 0 ? files[index] : null;
    var side = delta > 0 ? 4 : 2; // Node.DOCUMENT_POSITION_FOLLOWING : PRECEDING
    var more = Array.prototype.filter.call(document.querySelectorAll(".run.more a.load-files"), function (link) {
      return !from || (from.compareDocumentPosition(link) & side);
    });
    var next = delta > 0 ? more[0] : more[more.length - 1];
    for (var i = index + delta; i >= 0 && i < files.length; i += delta) {
      if (next && (next.compareDocumentPosition(files[i]) & side)) { break; }
      if (visible(files[i]) && (!wanted || wanted(files[i]))) { focusFile(i); return; }
    }
    if (next) {
      say("Loading more files…");
      next.click();
      return;
    }
    say(wanted ? "No file left to review below." : (delta > 0 ? "This is the last file." : "This is the first file."));
  }
  var closer = document.querySelector("#keys [data-close]");
  if (closer) { closer.addEventListener("click", function () { document.getElementById("keys").close(); }); }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target;
    var tag = target && target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) { return; }
    var keys = document.getElementById("keys");
    if (event.key === "j") { step(1); }
    else if (event.key === "k") { step(-1); }
    else if (event.key === "n") { step(1, function (a) { return a.getAttribute("data-state") !== "reviewed" && a.querySelector('form.tick[data-scope="entry"]'); }); }
    else if (event.key === "x") {
      var index = current();
      if (index < 0) { return; }
      var article = files[index];
      var hunk = target && target.closest ? target.closest("tbody[data-change]") : null;
      var form = (hunk && hunk.querySelector('form.tick[data-scope="change"]')) || article.querySelector('form.tick[data-scope="entry"]');
      if (form) { send(form, !isDone(form)); }
    }
    else if (event.key === "?") {
      if (keys && keys.showModal && !keys.open) { keys.showModal(); }
    }
    else { return; }
    event.preventDefault();
  });
})();

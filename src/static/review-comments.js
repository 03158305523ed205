"use strict";
// Finishing the review where it is read (issue 29; served as /static/review-comments.js from
// Workers Static Assets). Every line of a diff gets a "Comment" button (also `c` on a focused
// line; shift-click a second line for a range); the box has Write and Preview tabs, "Start a
// review"/"Add review comment" (a draft) and "Add single comment" (sent at once). Replies,
// Resolve, draft edits and deletes, and the Finish review panel post their plain forms in the
// background with `Accept: application/json`; `r` opens the reply box of the focused thread and
// Ctrl/Cmd-Enter sends the box being typed in.
// Without this script each of those is a plain form that posts and comes back to the page.
// The HTML put in place comes from our own server, which renders comment text as escaped,
// sanitized Markdown; text typed here is only ever set as a value or textContent. On any failure
// the text stays in its box and GitHub's reason is shown beside it, with a link to the line on
// GitHub when GitHub refused the viewer's write.
(function () {
  var live = document.createElement("p");
  live.className = "vh";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  document.body.appendChild(live);
  function say(text) { live.textContent = text; }

  var template = document.getElementById("cmt-box");
  var open = null; // { row, wrap, box, start }

  function fileForm(wrap) {
    var next = wrap.nextElementSibling;
    while (next && !(next.matches && next.matches("details.cmt-file"))) { next = next.nextElementSibling; }
    return next ? next.querySelector("form") : null;
  }

  // A diff row's line: its number and side as GitHub names them, and its GitHub link.
  function lineOf(row) {
    var cells = row.querySelectorAll("td.ln");
    if (cells.length < 2) { return null; }
    var old = parseInt(cells[0].textContent, 10);
    var now = parseInt(cells[1].textContent, 10);
    var removed = row.classList.contains("del");
    var number = removed ? old : now;
    if (!(number > 0)) { return null; }
    var link = row.querySelector("td.ln a");
    return { line: number, side: removed ? "LEFT" : "RIGHT", href: link ? link.href : "" };
  }

  function decorate(root) {
    var rows = root.querySelectorAll(".diff-wrap table.diff tr.add, .diff-wrap table.diff tr.del, .diff-wrap table.diff tr.ctx");
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      if (row.querySelector(".cmt-add")) { continue; }
      var wrap = row.closest(".diff-wrap");
      if (!wrap || !fileForm(wrap)) { continue; }
      var where = lineOf(row);
      if (!where) { continue; }
      var code = row.querySelector("td.code");
      if (!code) { continue; }
      var button = document.createElement("button");
      button.type = "button";
      button.className = "cmt-add";
      button.setAttribute("aria-label", "Comment on line " + where.line + (where.side === "LEFT" ? " (old)" : ""));
      button.title = "Comment (c); shift-click another line for a range";
      code.appendChild(button);
    }
  }

  function draftCount() {
    var count = document.querySelector(".draft-count");
    return count ? parseInt(count.getAttribute("data-count") || "0", 10) : 0;
  }
  function setDraftCount(n) {
    var count = document.querySelector(".draft-count");
    if (count) {
      count.setAttribute("data-count", String(n));
      count.textContent = n === 0 ? "· no draft comments" : n === 1 ? "· 1 draft comment" : "· " + n + " draft comments";
    }
    var labels = document.querySelectorAll('button[name="mode"][value="draft"]');
    for (var i = 0; i < labels.length; i++) { labels[i].textContent = n > 0 ? "Add review comment" : "Start a review"; }
  }

  function closeBox() {
    if (!open) { return; }
    var picked = document.querySelectorAll("tr.is-picked");
    for (var i = 0; i < picked.length; i++) { picked[i].classList.remove("is-picked"); }
    open.box.remove();
    open = null;
  }

  // The row below which things about `row` go: after its comment rows.
  function after(row) {
    var at = row;
    while (at.nextElementSibling && at.nextElementSibling.classList.contains("cmt-row") && !at.nextElementSibling.classList.contains("cmt-box-row")) {
      at = at.nextElementSibling;
    }
    return at;
  }

  function describe(start, end) {
    var side = end.side === "LEFT" ? "old" : "new";
    if (start && start.line !== end.line) { return "Commenting on lines " + start.line + "–" + end.line + " (" + side + ")"; }
    return "Commenting on line " + end.line + " (" + side + ")";
  }

  function openBox(row, range) {
    var wrap = row.closest(".diff-wrap");
    var source = wrap && fileForm(wrap);
    var where = lineOf(row);
    if (!template || !source || !where) { return; }
    var start = null;
    var text = "";
    if (range && open && open.wrap === wrap && open.row !== row) {
      // A range: from the line the box is on (or the range's start) to this one, down the diff.
      var first = open.start || open.row;
      var ordered = first.compareDocumentPosition(row) & Node.DOCUMENT_POSITION_FOLLOWING;
      start = ordered ? first : row;
      row = ordered ? row : first;
      where = lineOf(row);
      text = open.box.querySelector("textarea").value;
    }
    closeBox();
    var box = template.content.firstElementChild.cloneNode(true);
    var form = box.querySelector("form");
    form.setAttribute("action", target(source));
    ["csrf", "path", "head"].forEach(function (name) {
      form.elements[name].value = source.elements[name].value;
    });
    form.elements.line.value = String(where.line);
    form.elements.side.value = where.side;
    var from = start ? lineOf(start) : null;
    if (from) {
      form.elements.start_line.value = String(from.line);
      form.elements.start_side.value = from.side;
    }
    box.querySelector(".cmt-where").textContent = describe(from, where);
    box.querySelector(".cmt-tabs").hidden = false;
    var id = "cmt-box-body";
    var area = form.querySelector("textarea");
    area.value = text;
    area.id = id;
    after(row).after(box);
    setDraftCount(draftCount());
    row.classList.add("is-picked");
    if (start) {
      var at = start;
      while (at && at !== row) {
        if (at.classList && !at.classList.contains("cmt-row")) { at.classList.add("is-picked"); }
        at = at.nextElementSibling;
      }
    }
    open = { row: row, wrap: wrap, box: box, start: start, href: where.href };
    area.focus();
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) { return; }
    var add = target.closest(".cmt-add");
    if (add) {
      openBox(add.closest("tr"), event.shiftKey);
      return;
    }
    if (target.closest(".cmt-cancel")) {
      var row = open && open.row;
      closeBox();
      if (row) { var link = row.querySelector("td.ln a, .cmt-add"); if (link) { link.focus(); } }
      return;
    }
    var tab = target.closest(".cmt-tab");
    if (tab) { showTab(tab.closest("form"), tab.getAttribute("data-tab")); }
  });

  function showTab(form, which) {
    var tabs = form.querySelectorAll(".cmt-tab");
    for (var i = 0; i < tabs.length; i++) { tabs[i].setAttribute("aria-selected", String(tabs[i].getAttribute("data-tab") === which)); }
    var area = form.querySelector("textarea");
    var preview = form.querySelector(".cmt-preview");
    if (which === "write") {
      preview.hidden = true;
      area.hidden = false;
      area.focus();
      return;
    }
    var data = new URLSearchParams(new FormData(form));
    preview.textContent = "Rendering…";
    preview.hidden = false;
    area.hidden = true;
    post(target(form).replace(/\/comments$/, "/preview"), data).then(function (answer) {
      if (answer.ok) { preview.innerHTML = answer.json.html || "<p>Nothing to preview.</p>"; }
      else { preview.textContent = answer.json.error || "The preview couldn't be made."; }
    });
  }

  // Where a form posts. Not `form.action`: a draft's forms have a field named "action", which
  // that property would name instead.
  function target(form) { return form.getAttribute("action") || ""; }

  function post(url, data) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "accept": "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: data.toString()
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (json) {
        return { ok: response.ok, status: response.status, json: json };
      });
    }, function () {
      return { ok: false, status: 0, json: { error: "The network failed; your text is still here. Send again." } };
    });
  }

  function status(form, text, isError) {
    var line = form.querySelector(".cmt-status") || form.parentElement.querySelector(".cmt-status");
    if (!line) { say(text); return; }
    line.textContent = text;
    line.classList.toggle("is-error", Boolean(isError));
    say(text);
  }

  // A refusal: GitHub's reason beside the box, and where the viewer may not write, the line on
  // GitHub to comment there instead.
  function refused(form, answer) {
    var text = answer.json.error || "Not sent (status " + answer.status + "); your text is still here.";
    status(form, text, true);
    if (answer.json.no_access) {
      document.body.setAttribute("data-no-write", "1");
      var line = form.querySelector(".cmt-status");
      var href = open && open.box.contains(form) ? open.href : "";
      if (!href) {
        var thread = form.closest(".thread");
        var link = thread && thread.querySelector(".cmt-by a");
        href = link ? link.href : "";
      }
      if (line && href) {
        line.appendChild(document.createTextNode(" "));
        var a = document.createElement("a");
        a.href = href;
        a.textContent = "Comment on this line on GitHub";
        line.appendChild(a);
      }
    }
  }

  // Folds a resolved thread as the server renders one (`discussion::thread_html`): everything in a
  // closed <details class="resolved"> whose summary counts the comments and names the first
  // author; unresolving takes the fold away. Opened so the reviewer who just resolved it keeps
  // their place; the next load shows it closed.
  function fold(thread, resolved) {
    var details = thread.querySelector(":scope > details.resolved");
    if (!resolved) {
      if (!details) { return; }
      var summary = details.querySelector(":scope > summary");
      if (summary) { summary.remove(); }
      while (details.firstChild) { thread.insertBefore(details.firstChild, details); }
      details.remove();
      return;
    }
    if (details) { return; }
    var comments = thread.querySelectorAll(".cmt:not(.draft)");
    var first = thread.querySelector(".cmt-by strong");
    details = document.createElement("details");
    details.className = "resolved";
    details.open = true;
    var head = document.createElement("summary");
    head.textContent = "Resolved thread · " + comments.length + (comments.length === 1 ? " comment" : " comments") +
      " · " + (first ? first.textContent : "");
    details.appendChild(head);
    while (thread.firstChild) { details.appendChild(thread.firstChild); }
    thread.appendChild(details);
  }

  function place(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    return holder.firstElementChild;
  }

  // The comments cell under a row, made when missing.
  function commentsUnder(row) {
    var next = row.nextElementSibling;
    if (next && next.classList.contains("cmt-row") && !next.classList.contains("cmt-box-row")) {
      return next.querySelector(".cmts");
    }
    var tr = document.createElement("tr");
    tr.className = "cmt-row";
    var td = document.createElement("td");
    td.colSpan = 3;
    var div = document.createElement("div");
    div.className = "cmts";
    td.appendChild(div);
    tr.appendChild(td);
    row.after(tr);
    return div;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) { return; }
    var kind = form.classList.contains("cmt-new") ? "comment"
      : form.classList.contains("reply-form") ? "reply"
      : form.classList.contains("draft-form") ? "edit"
      : form.classList.contains("draft-delete") ? "delete"
      : form.classList.contains("thread-form") ? "thread"
      : form.classList.contains("finish-form") ? "review" : null;
    if (!kind) { return; }
    event.preventDefault();
    var data = new URLSearchParams(new FormData(form));
    var submitter = event.submitter;
    if (submitter && submitter.name) { data.set(submitter.name, submitter.value); }
    if (kind === "comment" && !data.get("mode")) { data.set("mode", "draft"); }
    var buttons = form.querySelectorAll("button");
    for (var i = 0; i < buttons.length; i++) { buttons[i].disabled = true; }
    status(form, "Sending…", false);
    post(target(form), data).then(function (answer) {
      for (var j = 0; j < buttons.length; j++) { buttons[j].disabled = false; }
      if (!answer.ok) { refused(form, answer); return; }
      done(kind, form, data, answer.json);
    });
  });

  function done(kind, form, data, json) {
    if (kind === "comment") {
      var row = open && open.box.contains(form) ? open.row : null;
      var made = place(json.html);
      if (row && made) {
        closeBox();
        commentsUnder(row).appendChild(made);
      } else if (made) {
        var details = form.closest("details");
        if (details) { details.before(made); details.open = false; }
        form.reset();
      }
      if (data.get("mode") === "draft") {
        setDraftCount(typeof json.drafts === "number" ? json.drafts : draftCount() + 1);
        say("Draft saved. Finish the review to send it.");
      } else {
        say("Comment sent to GitHub.");
      }
      return;
    }
    if (kind === "reply") {
      var thread = form.closest(".thread");
      var reply = place(json.html);
      var actions = thread && thread.querySelector(".thread-actions");
      if (actions && reply) { actions.before(reply); }
      form.reset();
      var box = form.closest("details");
      if (box) { box.open = false; }
      say("Reply sent to GitHub.");
      return;
    }
    if (kind === "edit") {
      var old = form.closest(".cmt.draft");
      var fresh = place(json.html);
      if (old && fresh) { old.replaceWith(fresh); }
      say("Draft saved.");
      return;
    }
    if (kind === "delete") {
      var gone = form.closest(".cmt.draft");
      if (gone) { gone.remove(); }
      setDraftCount(typeof json.drafts === "number" ? json.drafts : Math.max(0, draftCount() - 1));
      say("Draft deleted.");
      return;
    }
    if (kind === "thread") {
      var resolved = Boolean(json.resolved);
      var holder = form.closest(".thread");
      form.elements.resolve.value = resolved ? "0" : "1";
      var button = form.querySelector("button");
      if (button) { button.textContent = resolved ? "Unresolve" : "Resolve conversation"; }
      if (holder) { fold(holder, resolved); }
      status(form, resolved ? "Resolved." : "Unresolved.", false);
      if (button) { button.focus(); }
      return;
    }
    if (kind === "review") {
      var drafts = document.querySelectorAll(".cmt.draft");
      for (var k = 0; k < drafts.length; k++) { drafts[k].remove(); }
      setDraftCount(0);
      form.reset();
      var message = json.message || "Review sent.";
      status(form, message, false);
      if (json.html_url && /^https:\/\//.test(json.html_url)) {
        var line = form.querySelector(".cmt-status");
        var a = document.createElement("a");
        a.href = json.html_url;
        a.textContent = "See it on GitHub";
        line.appendChild(document.createTextNode(" "));
        line.appendChild(a);
      }
    }
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) { return; }
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter" && target.tagName === "TEXTAREA") {
      var form = target.closest("form");
      if (form && form.requestSubmit) {
        event.preventDefault();
        form.requestSubmit(form.querySelector('button[type="submit"]') || undefined);
      }
      return;
    }
    if (event.key === "Escape" && open && open.box.contains(target)) {
      var row = open.row;
      closeBox();
      var link = row.querySelector("td.ln a, .cmt-add");
      if (link) { link.focus(); }
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var tag = target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable) { return; }
    if (event.key === "c" || event.key === "C") {
      var line = target.closest("tr.add, tr.del, tr.ctx");
      if (line && line.querySelector(".cmt-add")) {
        event.preventDefault();
        openBox(line, event.shiftKey);
      }
    } else if (event.key === "r") {
      var thread = target.closest(".thread");
      var details = thread && thread.querySelector("details.reply");
      if (details) {
        event.preventDefault();
        var fold = thread.querySelector("details.resolved");
        if (fold) { fold.open = true; }
        details.open = true;
        details.querySelector("textarea").focus();
      }
    }
  });

  decorate(document);
  setDraftCount(draftCount());
  document.addEventListener("review:loaded", function (event) {
    if (event.detail && event.detail.querySelectorAll) { decorate(event.detail); }
  });
})();

// Arrange on the web (served as a static asset, /static/arrange.js): the editor of
// /r/{owner}/{repo}/pull/{n}/arrange. The server renders only a shell with the saved order and the
// pull request's files as JSON (#arrange-data); this script builds the editor from it, and saving
// posts {base_version, order} as JSON with the page's CSRF token in X-CSRF-Token. The server runs
// the order through the same validation and save as the save_reading_order tool and answers with
// JSON: {location, commitStatus} on success, {error} otherwise (400 validation, 403 expired form,
// 409 conflict). commitStatus says whether the LogiKFlow status was set on the pull request's
// head; when it wasn't, the editor says why and links to the review instead of going there.
//
// What it edits: the order of sections, the order of files and their section, the overview,
// section titles and notes, file notes, and files the order doesn't list yet. Everything else of
// a section or entry (layer, checks, focus, hunks, and any key it doesn't know) is copied from the
// saved order untouched; an unchanged text is sent back byte for byte, and a blank one is removed.
// A section left without files is dropped, with its checklist, as the old form did.
//
// Order notes are untrusted: text is only ever set with textContent or value, never as markup.
"use strict";
(function () {
  var root = document.getElementById("arrange-root");
  var dataNode = document.getElementById("arrange-data");
  var csrfNode = document.getElementById("arrange-csrf");
  if (!root || !dataNode || !csrfNode) { return; }
  var data;
  try { data = JSON.parse(dataNode.textContent); } catch (e) { return; }
  var noJs = document.getElementById("arrange-nojs");
  if (noJs) { noJs.remove(); }

  var limits = data.limits || {};
  var filesByPath = {};
  (data.files || []).forEach(function (file) {
    if (!(file.path in filesByPath)) { filesByPath[file.path] = file; }
  });
  var counts = {};
  var nextKey = 0;
  function key() { nextKey += 1; return "k" + nextKey; }

  // The editor's state: the saved objects (`src`) beside the edited texts.
  var order = data.order || { sections: [] };
  order.sections.forEach(function (section) {
    (section.files || []).forEach(function (entry) { counts[entry.path] = (counts[entry.path] || 0) + 1; });
  });
  var state = {
    overview: order.overview == null ? "" : order.overview,
    sections: order.sections.map(function (section) {
      return {
        key: key(),
        src: section,
        title: section.title == null ? "" : section.title,
        note: section.note == null ? "" : section.note,
        entries: (section.files || []).map(function (entry) {
          return { key: key(), src: entry, note: entry.note == null ? "" : entry.note };
        })
      };
    })
  };
  var listed = {};
  Object.keys(counts).forEach(function (path) { listed[path] = true; });
  var unlisted = [];
  (data.files || []).forEach(function (file) {
    if (!listed[file.path]) { listed[file.path] = true; unlisted.push({ key: key(), path: file.path }); }
  });

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text != null) { node.textContent = text; }
    return node;
  }
  function status(text) {
    var live = document.getElementById("arrange-status");
    if (live) { live.textContent = ""; live.textContent = text; }
  }
  function sectionName(index) {
    var title = state.sections[index].title.trim();
    return (index + 1) + ". " + (title || "Untitled");
  }
  function partText(entry) {
    if (!entry.src || (counts[entry.src.path] || 0) < 2) { return ""; }
    var hunks = entry.src.hunks;
    if (!hunks) { return "part: the rest of the file"; }
    return "part: " + hunks.length + (hunks.length === 1 ? " change" : " changes");
  }
  function pathOf(entry) { return entry.src ? entry.src.path : entry.path; }

  function field(id, label, control) {
    var wrap = el("div", { "class": "field" });
    wrap.appendChild(el("label", { "for": id }, label));
    wrap.appendChild(control);
    return wrap;
  }
  function textarea(id, value, rows, max, onInput) {
    var area = el("textarea", { id: id, rows: String(rows) });
    if (max) { area.setAttribute("maxlength", String(max)); }
    area.value = value;
    area.addEventListener("input", function () { onInput(area.value); });
    return area;
  }
  function button(text, action, disabled, describedBy) {
    var b = el("button", { type: "button", "class": "button", "data-action": action }, text);
    if (describedBy) { b.setAttribute("aria-describedby", describedBy); }
    if (disabled) { b.disabled = true; }
    return b;
  }
  function sectionSelect(id, selected) {
    var select = el("select", { id: id });
    state.sections.forEach(function (_, index) {
      var option = el("option", { value: String(index) }, sectionName(index));
      if (index === selected) { option.selected = true; }
      select.appendChild(option);
    });
    return select;
  }
  function pathLine(path, id, part) {
    var line = el("p", { "class": "path", id: id });
    line.appendChild(el("code", null, path));
    var file = filesByPath[path];
    if (file) {
      line.appendChild(document.createTextNode(" "));
      line.appendChild(el("span", { "class": "meta" }, file.status + " · +" + file.additions + " \u2212" + file.deletions));
    }
    if (part) {
      line.appendChild(document.createTextNode(" "));
      line.appendChild(el("span", { "class": "meta" }, "· " + part));
    }
    return line;
  }
  function refreshSectionNames() {
    root.querySelectorAll("select[data-sections]").forEach(function (select) {
      Array.prototype.forEach.call(select.options, function (option, index) {
        option.textContent = sectionName(index);
      });
    });
    state.sections.forEach(function (section, index) {
      var heading = document.getElementById("h-" + section.key);
      if (heading) { heading.textContent = "Section " + (index + 1) + ": " + (section.title.trim() || "Untitled"); }
    });
  }

  // Moves, each followed by a new rendering that puts focus back on the control used.
  function moveSection(index, by) {
    var to = index + by;
    if (to < 0 || to >= state.sections.length) { return; }
    var moved = state.sections.splice(index, 1)[0];
    state.sections.splice(to, 0, moved);
    render(moved.key, by < 0 ? "up" : "down");
    status("Moved section " + (moved.title.trim() || "Untitled") + " to position " + (to + 1) + ".");
  }
  function moveEntry(si, ei, by) {
    var entries = state.sections[si].entries;
    var to = ei + by;
    if (to < 0 || to >= entries.length) { return; }
    var moved = entries.splice(ei, 1)[0];
    entries.splice(to, 0, moved);
    render(moved.key, by < 0 ? "up" : "down");
    status("Moved " + pathOf(moved) + " to position " + (to + 1) + " of section " + sectionName(si) + ".");
  }
  function entryToSection(si, ei, target) {
    if (target === si || !state.sections[target]) { return; }
    var moved = state.sections[si].entries.splice(ei, 1)[0];
    state.sections[target].entries.push(moved);
    render(moved.key, "section");
    status("Moved " + pathOf(moved) + " to the end of section " + sectionName(target) + ".");
  }
  function addUnlisted(ui, target) {
    var added = unlisted.splice(ui, 1)[0];
    if (!added || !state.sections[target]) { return; }
    state.sections[target].entries.push({ key: added.key, path: added.path, note: "" });
    render(added.key, "section");
    status("Added " + added.path + " to the end of section " + sectionName(target) + ".");
  }

  function renderSection(section, si) {
    var count = state.sections.length;
    var box = el("section", { "class": "sec", "data-key": section.key, "aria-labelledby": "h-" + section.key });
    box.appendChild(el("h2", { id: "h-" + section.key }, "Section " + (si + 1) + ": " + (section.title.trim() || "Untitled")));
    var tools = el("div", { "class": "row moves" });
    var up = button("Move section up", "up", si === 0, "h-" + section.key);
    up.addEventListener("click", function () { moveSection(si, -1); });
    var down = button("Move section down", "down", si === count - 1, "h-" + section.key);
    down.addEventListener("click", function () { moveSection(si, 1); });
    tools.appendChild(up);
    tools.appendChild(down);
    box.appendChild(tools);
    var title = el("input", { type: "text", id: "t-" + section.key });
    if (limits.title) { title.setAttribute("maxlength", String(limits.title)); }
    title.value = section.title;
    title.addEventListener("input", function () { section.title = title.value; });
    title.addEventListener("change", refreshSectionNames);
    box.appendChild(field("t-" + section.key, "Title", title));
    var kept = [];
    if (section.src.layer) { kept.push("layer " + section.src.layer); }
    var checks = (section.src.checks || []).length;
    if (checks) { kept.push(checks + " checklist " + (checks === 1 ? "item" : "items")); }
    if (kept.length) { box.appendChild(el("p", { "class": "kept" }, "Kept as saved: " + kept.join(", ") + ".")); }
    box.appendChild(field("n-" + section.key, "Note", textarea("n-" + section.key, section.note, 3, limits.note, function (v) { section.note = v; })));
    var list = el("ol", { "class": "entries", "aria-label": "Files of section " + (si + 1) });
    section.entries.forEach(function (entry, ei) {
      var item = el("li", { "class": "entry", "data-key": entry.key, "data-path": pathOf(entry) });
      var pathId = "p-" + entry.key;
      item.appendChild(pathLine(pathOf(entry), pathId, partText(entry)));
      if (!entry.src) { item.appendChild(el("p", { "class": "kept" }, "Added here: it wasn't in the saved order.")); }
      var row = el("div", { "class": "row moves" });
      var eup = button("Move up", "up", ei === 0, pathId);
      eup.addEventListener("click", function () { moveEntry(si, ei, -1); });
      var edown = button("Move down", "down", ei === section.entries.length - 1, pathId);
      edown.addEventListener("click", function () { moveEntry(si, ei, 1); });
      row.appendChild(eup);
      row.appendChild(edown);
      var select = sectionSelect("s-" + entry.key, si);
      select.setAttribute("data-sections", "");
      select.setAttribute("data-action", "section");
      var pick = el("div", { "class": "field grow" });
      pick.appendChild(el("label", { "for": "s-" + entry.key }, "Section"));
      pick.appendChild(select);
      row.appendChild(pick);
      var go = button("Move to section", "go", count < 2, pathId);
      go.addEventListener("click", function () { entryToSection(si, ei, parseInt(select.value, 10)); });
      row.appendChild(go);
      item.appendChild(row);
      item.appendChild(field("en-" + entry.key, "Note", textarea("en-" + entry.key, entry.note, 2, limits.note, function (v) { entry.note = v; })));
      list.appendChild(item);
    });
    box.appendChild(list);
    if (!section.entries.length) {
      box.appendChild(el("p", { "class": "kept" }, "No files left: this section is removed when you save."));
    }
    return box;
  }

  function renderUnlisted() {
    var box = el("section", { "class": "sec new", "aria-labelledby": "h-new" });
    box.appendChild(el("h2", { id: "h-new" }, "Not in the order yet"));
    box.appendChild(el("p", { "class": "kept" }, "These files changed after the order was saved. Add each one to a section before saving."));
    var list = el("ol", { "class": "entries" });
    unlisted.forEach(function (file, ui) {
      var item = el("li", { "class": "entry", "data-key": file.key, "data-path": file.path });
      item.appendChild(pathLine(file.path, "p-" + file.key, ""));
      var row = el("div", { "class": "row moves" });
      var select = sectionSelect("s-" + file.key, state.sections.length - 1);
      select.setAttribute("data-sections", "");
      var pick = el("div", { "class": "field grow" });
      pick.appendChild(el("label", { "for": "s-" + file.key }, "Section"));
      pick.appendChild(select);
      row.appendChild(pick);
      var add = button("Add to section", "add", false, "p-" + file.key);
      add.addEventListener("click", function () { addUnlisted(ui, parseInt(select.value, 10)); });
      row.appendChild(add);
      item.appendChild(row);
      list.appendChild(item);
    });
    box.appendChild(list);
    return box;
  }

  var editor = el("form", { "class": "arrange", novalidate: "" });
  var error = el("div", { "class": "error", id: "arrange-error", role: "alert", tabindex: "-1" });
  error.hidden = true;
  var live = el("p", { "class": "visually-hidden", id: "arrange-status", role: "status" });
  var sectionsBox = el("div", { id: "arrange-sections" });
  var saveButton = el("button", { type: "submit", "class": "button primary" }, "Save order");

  function render(focusKey, action) {
    while (sectionsBox.firstChild) { sectionsBox.removeChild(sectionsBox.firstChild); }
    state.sections.forEach(function (section, si) { sectionsBox.appendChild(renderSection(section, si)); });
    if (unlisted.length && state.sections.length) { sectionsBox.appendChild(renderUnlisted()); }
    if (!focusKey) { return; }
    var holder = sectionsBox.querySelector('[data-key="' + focusKey + '"]');
    if (!holder) { return; }
    // Only the holder's own controls: a section's buttons, not those of its files.
    var own = ":scope > .moves ";
    var wanted = action === "section" ? [own + '[data-action="section"]', own + "button"]
      : [own + '[data-action="' + action + '"]:not([disabled])', own + '[data-action="' + (action === "up" ? "down" : "up") + '"]:not([disabled])', own + "button:not([disabled])"];
    for (var i = 0; i < wanted.length; i += 1) {
      var target = holder.querySelector(wanted[i]);
      if (target) { target.focus(); return; }
    }
  }

  // An edited text: the saved one when unchanged (browsers give textareas LF line ends and
  // strip line breaks from text inputs), nothing when blank, else the new text.
  function edited(original, value, oneLine) {
    if (original != null) {
      var same = oneLine ? original.replace(/[\r\n]/g, "") : original.replace(/\r\n?/g, "\n");
      if (same === value) { return original; }
    }
    return value.trim() ? value : null;
  }
  function withText(object, name, value) {
    if (value == null) { delete object[name]; } else { object[name] = value; }
    return object;
  }
  function copy(object) {
    var out = {};
    Object.keys(object).forEach(function (name) { out[name] = object[name]; });
    return out;
  }
  function built() {
    var result = copy(order);
    withText(result, "overview", edited(order.overview, state.overview, false));
    result.sections = state.sections.filter(function (section) { return section.entries.length > 0; }).map(function (section) {
      var out = copy(section.src);
      withText(out, "title", edited(section.src.title, section.title, true));
      withText(out, "note", edited(section.src.note, section.note, false));
      out.files = section.entries.map(function (entry) {
        var file = entry.src ? copy(entry.src) : { path: entry.path };
        return withText(file, "note", edited(entry.src ? entry.src.note : null, entry.note, false));
      });
      return out;
    });
    return result;
  }

  function showError(message, reload) {
    while (error.firstChild) { error.removeChild(error.firstChild); }
    error.appendChild(el("p", null, null)).appendChild(el("strong", null, "The order wasn't saved."));
    error.appendChild(el("p", { "class": "message" }, message));
    if (reload) {
      var again = el("p");
      again.appendChild(el("a", { href: window.location.pathname }, "Reload to arrange the latest version"));
      error.appendChild(again);
    }
    error.hidden = false;
    error.focus();
  }

  // Saved, but no commit status: the reason, and the way on to the review.
  function showSaved(location, reason) {
    var saved = el("div", { "class": "notice", id: "arrange-saved", role: "status", tabindex: "-1" });
    saved.appendChild(el("p", null, null)).appendChild(el("strong", null, "The order was saved."));
    saved.appendChild(el("p", { "class": "message" }, "No LogiKFlow status was set on GitHub: " + (reason || "GitHub didn't say why.")));
    var on = el("p");
    on.appendChild(el("a", { href: location }, "Go to the review"));
    saved.appendChild(on);
    editor.parentNode.replaceChild(saved, editor);
    saved.focus();
  }

  editor.addEventListener("submit", function (event) {
    event.preventDefault();
    saveButton.disabled = true;
    status("Saving\u2026");
    fetch(data.action, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrfNode.value },
      body: JSON.stringify({ base_version: data.baseVersion, order: built() })
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        if (response.ok && body.location) {
          var commit = body.commitStatus;
          if (commit && commit.set === false) {
            showSaved(body.location, commit.reason);
            return;
          }
          status("Saved; the LogiKFlow status on GitHub links to the review.");
          window.location.assign(body.location);
          return;
        }
        saveButton.disabled = false;
        status("");
        showError(body.error || "The server refused the order (HTTP " + response.status + ").", response.status === 409);
      });
    }, function () {
      saveButton.disabled = false;
      status("");
      showError("The order couldn't be sent; check your connection and try again.", false);
    });
  });

  editor.appendChild(error);
  var overview = textarea("overview", state.overview, 3, limits.overview, function (v) { state.overview = v; });
  editor.appendChild(field("overview", "Overview", overview));
  editor.appendChild(sectionsBox);
  var submit = el("p", { "class": "submit" });
  submit.appendChild(saveButton);
  submit.appendChild(el("a", { href: data.pull }, "Cancel"));
  editor.appendChild(submit);
  root.appendChild(live);
  root.appendChild(editor);
  render(null, null);
})();

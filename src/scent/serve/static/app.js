// scent web UI: plain JS, no build step. User data only ever reaches the page via textContent.
"use strict";

const $ = (sel) => document.querySelector(sel);
const DEBOUNCE_MS = 180;
const SEARCHING_AFTER_MS = 400;  // a search still unanswered this long says "searching…"
let timer = null;
let seq = 0;
let controller = null;
const PAGE = 10;
const MAX_K = 100;
let limit = PAGE;       // results asked for: "More results" adds a page
let shown = [];         // the results on screen, in the order shown
let selected = -1;      // the result the arrow keys are on
let current = null;     // the result in the preview pane
let hit = -1;           // the match the preview pane is on
let lastAsked = "";     // the question (its words and filters) of the results shown
let statusTimer = null;

function el(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

function params() {
  const p = new URLSearchParams();
  p.set("q", $("#q").value);
  p.set("k", String(limit));
  for (const box of document.querySelectorAll('#kinds input[name="only"]:checked')) p.append("only", box.value);
  for (const name of ["path", "after", "before", "lang"]) {
    const value = $("#" + name).value.trim();
    if (value) p.set(name, value);
  }
  if ($("#explain").checked) p.set("explain", "true");
  return p;
}

// The page's address: the search's parameters and the order it is shown in (kept in the browser,
// so a link or a reload shows the newest first again).
function pageParams(p) {
  const page = new URLSearchParams(p);
  if ($("#sort").value) page.set("sort", $("#sort").value);
  return page;
}

// Dates arrive as ISO text or, from older servers, as Unix seconds.
function when(value) {
  if (value === null || value === undefined || value === "") return null;
  const d = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  return isNaN(d) ? null : d;
}

function sorted(results) {
  const order = $("#sort").value;
  if (!order) return results;
  const t = (r) => (when(r.date) || new Date(0)).getTime();
  return [...results].sort((a, b) => (order === "newest" ? t(b) - t(a) : t(a) - t(b)) || a.rank - b.rank);
}

function fileUrl(r) {
  const url = "/api/file?path=" + encodeURIComponent(r.path);
  return r.page ? url + "#page=" + r.page : url;
}

function thumbUrl(r) {
  let url = "/api/thumb?path=" + encodeURIComponent(r.path);
  if (r.kind === "pdf" && r.page) url += "&page=" + r.page;
  return url;
}

function snippetNode(text, highlights) {
  const p = el("p", { class: "snippet" });
  let pos = 0;
  for (const [a, b] of highlights || []) {
    if (a < pos || b <= a) continue;
    p.append(document.createTextNode(text.slice(pos, a)));
    p.append(el("mark", {}, text.slice(a, b)));
    pos = b;
  }
  p.append(document.createTextNode(text.slice(pos)));
  return p;
}

function explainNode(explain) {
  const table = el("table", { class: "explain" });
  for (const [list, e] of Object.entries(explain)) {
    const row = el("tr");
    row.append(el("th", {}, list));
    row.append(el("td", {}, e ? "rank " + e.rank : "not in list"));
    row.append(el("td", {}, e ? "score " + Number(e.score).toFixed(4) : ""));
    row.append(el("td", {}, e ? "+" + Number(e.contribution).toFixed(4) : ""));
    row.append(el("td", {}, e && e.page ? "p. " + e.page : ""));
    table.append(row);
  }
  return table;
}

function resultNode(r) {
  const li = el("li", { class: r.weak ? "result weak" : "result", "data-path": r.path, "data-kind": r.kind,
                        tabindex: "-1" });
  if (r.page) li.setAttribute("data-page", String(r.page));
  const slash = r.path.lastIndexOf("/");
  const head = el("div", { class: "head" });
  // A file inside another (a mailbox's message, Inbox.mbox#3.eml; an Evernote export's note,
  // Notes.enex#1.md) is named by its title, its path beside it; so is a file whose name holds no
  // word (a Keep note's 2025-03-09T09_41_12.512+00_00.json).
  const stem = r.path.slice(slash + 1).replace(/\.[^.]*$/, "");
  const message = Boolean(r.title) && (r.path.includes("#") || !/\p{L}{3}/u.test(stem));
  // The name opens the preview, as the Preview button and Enter do (a click on it did nothing).
  const name = el("button", { type: "button", class: "name", title: "Preview" }, message ? r.title : r.path.slice(slash + 1));
  name.addEventListener("click", () => showPreview(r));
  head.append(name);
  head.append(el("span", { class: "folder" }, message ? r.path : slash >= 0 ? r.path.slice(0, slash + 1) : "./"));
  head.append(el("span", { class: "kind" }, r.kind));
  const meta = [];
  if (r.date) meta.push(typeof r.date === "string" ? r.date.slice(0, 10) : when(r.date).toISOString().slice(0, 10));
  if (r.place) meta.push(r.place);
  if (r.line) meta.push("line " + r.line);
  if (r.confidence != null || r.score) meta.push("score " + Number(r.score).toFixed(4));  // a listing has none
  // Never 100%: scent's SURE_AT_MOST (commands.py).
  if (r.confidence != null) meta.push("confidence " + Math.min(99, Math.round(r.confidence * 100)) + "%");
  head.append(el("span", { class: "meta" }, meta.join(" \u00b7 ")));
  // Each action names its file for a screen reader: ten "Preview" buttons said nothing of which.
  const atPage = r.page && r.kind === "pdf";
  const open = el("a", { class: "open", href: fileUrl(r), target: "_blank", rel: "noopener noreferrer",
                         "aria-label": atPage ? `Open page ${r.page} of ${r.path}` : "Open " + r.path },
                  atPage ? "Open page " + r.page : "Open");
  head.append(open);
  const look = el("button", { type: "button", class: "look", "aria-label": "Preview " + r.path }, "Preview");
  look.addEventListener("click", () => showPreview(r));
  head.append(look);
  const like = el("button", { type: "button", class: "like", "aria-label": "Files similar to " + r.path }, "Similar");
  like.addEventListener("click", () => similarTo(r.path));
  head.append(like);
  li.append(head);
  li.append(snippetNode(r.snippet, r.highlights));
  if (r.gone) li.append(el("div", { class: "gone" }, "Deleted since the folder was indexed (the next index run drops it)."));
  if (r.translated) {
    const english = snippetNode(r.translated, r.translated_highlights);
    english.classList.add("translated");
    english.prepend(el("span", { class: "label" }, "In English, machine-translated: "));
    li.append(english);
  }
  if (r.copies && r.copies.length) {
    // The same bytes elsewhere in the folder: one result, each copy a link of its own.
    const also = el("div", { class: "copies" }, "also at: ");
    r.copies.forEach((path, i) => {
      if (i) also.append(", ");
      also.append(el("a", { href: fileUrl({ path, page: r.page }), target: "_blank", rel: "noopener noreferrer" }, path));
    });
    li.append(also);
  }
  if (r.kind === "image" || r.kind === "pdf" || r.kind === "video") {
    const img = el("img", { class: "thumb", src: thumbUrl(r), alt: "preview of " + r.path, loading: "lazy" });
    // No picture to show (too large, damaged, a video without a frame): nothing, not a broken icon.
    img.addEventListener("error", () => img.remove());
    img.addEventListener("click", () => showPreview(r));
    li.append(img);
  }
  if (r.explain) li.append(explainNode(r.explain));
  return li;
}

function showMessage(text, isError = false) {
  const m = $("#message");
  m.textContent = text;
  m.classList.toggle("error", isError);
}

// The answer to the newest request only: one still in flight when another is made is aborted, and
// one that answers after a newer was made is dropped (null). The newest one's error is thrown.
async function latest(url) {
  const mine = ++seq;
  if (controller) controller.abort();
  controller = new AbortController();
  try {
    let response;
    try {
      response = await fetch(url, { signal: controller.signal });
    } catch (err) {
      if (err.name === "AbortError") throw err;
      // The browser says only "Failed to fetch".
      throw new Error("the scent server is not answering: start it again with scent serve, then reload this page");
    }
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    return mine === seq ? body : null;
  } catch (err) {
    if (err.name === "AbortError" || mine !== seq) return null;
    throw err;
  }
}

// A filter set (a kind ticked, a folder, a date, a language) with no words lists the files it keeps.
function filtering(p) {
  return ["only", "path", "after", "before", "lang"].some((name) => p.has(name));
}

async function search() {
  const q = $("#q").value.trim();
  const p = params();
  const asked = Boolean(q) || filtering(p);
  history.replaceState(null, "", asked ? "?" + pageParams(p).toString() : location.pathname);
  $("#suggestions").hidden = asked;
  if (!asked) {
    show([]);
    showMessage("");
    showCorrected("", {});
    return;
  }
  let body;
  // A search that takes a while (the server's first, while its model loads; a large folder) says
  // so; a quick one does not flash the word.
  const results = $("#results");
  const slow = setTimeout(() => {
    showMessage("searching…");
    results.setAttribute("aria-busy", "true");
  }, SEARCHING_AFTER_MS);
  try {
    body = await latest("/api/search?" + p.toString());
  } catch (err) {
    show([]);
    showMessage(err.message, true);
    showCorrected("", {});
    return;
  } finally {
    clearTimeout(slow);
    results.removeAttribute("aria-busy");
  }
  if (!body) return;
  // Another question closes the last one's preview (on a phone it stood above the new results);
  // more results of the same one keep it.
  const asking = new URLSearchParams(p);
  asking.delete("k");
  if (current && asking.toString() !== lastAsked) closePreview();
  lastAsked = asking.toString();
  show(body.results);
  $("#more").hidden = body.results.length < limit || limit >= MAX_K;
  const good = body.results.filter((r) => !r.weak).length;
  showMessage(!body.results.length ? "no results"
    : body.listed ? `${body.results.length} ${body.results.length === 1 ? "file" : "files"} the filters keep, newest first (no words to rank by)`
    : good ? `${body.results.length} results in ${body.took_ms} ms`
    : `no good match: ${body.results.length} weak matches in ${body.took_ms} ms`);
  showCorrected(body.query, body.corrected || {}, body.translation || "");
  document.body.setAttribute("data-query", body.query);
}

// Files like a result, by what they are about (/api/search's filters hold); the query box keeps its words.
async function similarTo(path) {
  const p = params();
  p.delete("q");
  p.delete("explain");
  p.set("file", path);
  let body;
  try {
    body = await latest("/api/similar?" + p.toString());
  } catch (err) {
    showMessage(err.message, true);
    return;
  }
  if (!body) return;
  show(body.results);
  $("#more").hidden = true;
  showCorrected("", {});
  showMessage(body.results.length ? `${body.results.length} files like ${path} (by what they are about)`
    : `no other file is like ${path}`);
  document.body.setAttribute("data-similar", path);
}

// Words no file holds were searched as the word one slip away (scent.spelling): say which, and
// offer the query as typed, those words quoted (a quoted word is never corrected).
// A Portuguese, Spanish or French query was machine-translated into English and searched by those words
// too (scent.translate): say so, beside any correction.
function showCorrected(query, fixed, translation = "") {
  const box = $("#corrected");
  const typed = Object.keys(fixed);
  box.hidden = !typed.length && !translation;
  const translated = [];
  if (translation) {
    const span = el("span", { id: "translation" });
    span.append("Also searched in English as ", el("b", {}, translation), typed.length ? ". " : "");
    translated.push(span);
  }
  if (!typed.length) {
    box.replaceChildren(...translated);
    return;
  }
  const escaped = typed.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const asTyped = query.replace(new RegExp(`\\b(${escaped.join("|")})\\b`, "gi"), (w) => `"${w}"`);
  const link = el("a", { href: "#", id: "as-typed" }, asTyped);
  link.addEventListener("click", (event) => {
    event.preventDefault();
    $("#q").value = asTyped;
    search();
  });
  box.replaceChildren(...translated, "Searched for ", el("b", {}, typed.map((w) => fixed[w]).join(", ")),
    ` (no file holds ${typed.join(", ")}). Search as typed: `, link);
}

function show(results) {
  // Results below the confidence floor come after the others, under a "weak matches" line.
  shown = [...sorted(results.filter((r) => !r.weak)), ...sorted(results.filter((r) => r.weak))];
  selected = -1;
  const nodes = shown.map(resultNode);
  const firstWeak = shown.findIndex((r) => r.weak);
  if (firstWeak >= 0) nodes.splice(firstWeak, 0, el("li", { class: "weak-line", role: "separator" }, "weak matches"));
  $("#results").replaceChildren(...nodes);
  if (!results.length) $("#more").hidden = true;
}

function select(i) {
  const items = document.querySelectorAll("#results .result");
  if (!items.length) return;
  selected = Math.max(0, Math.min(items.length - 1, i));
  items.forEach((li, j) => li.classList.toggle("selected", j === selected));
  items.forEach((li, j) => li.setAttribute("aria-selected", String(j === selected)));
  items[selected].focus();
  items[selected].scrollIntoView({ block: "nearest" });
}

// ---- the preview pane ------------------------------------------------------------------------

function blockNode(b) {
  const tags = { h1: "h2", h2: "h3", h3: "h4", h4: "h5", h5: "h6", h6: "h6", p: "p", li: "li", pre: "pre",
                 blockquote: "blockquote", tr: "p", hr: "hr" };
  const node = snippetNode(b.text, b.highlights);
  const out = el(tags[b.tag] || "p", { class: "block " + b.tag });
  if (b.page) out.setAttribute("data-page", String(b.page));
  out.append(...node.childNodes);
  return out;
}

async function showPreview(r) {
  current = r;
  hit = -1;
  document.body.classList.add("previewing");
  $("#preview").hidden = false;
  $("#status-panel").hidden = true;
  $("#preview-name").textContent = r.path;
  $("#preview-hits").textContent = "";
  $("#preview-body").replaceChildren();
  $("#preview-raw").href = fileUrl(r);
  const image = $("#preview-image");
  image.hidden = !(r.kind === "image" || r.kind === "pdf");
  // Large enough to read a page at the pane's width on a sharp screen (the list's thumbnail is 320 px).
  if (!image.hidden) { image.src = thumbUrl(r) + "&size=1200"; image.alt = "picture of " + r.path + (r.page ? " page " + r.page : ""); }
  // A video or a sound plays here, from the file the server hands out (its own type, no script).
  stopPlaying();
  const player = r.kind === "video" ? $("#preview-video") : r.kind === "audio" ? $("#preview-audio") : null;
  if (player) {
    if (r.kind === "video") player.poster = thumbUrl(r);
    player.src = "/api/file?path=" + encodeURIComponent(r.path);
    player.hidden = false;
  }
  $("#preview-message").textContent = "loading ...";
  const p = new URLSearchParams({ path: r.path, q: $("#q").value });
  try {
    const response = await fetch("/api/preview?" + p.toString());
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    if (current !== r) return;
    const box = $("#preview-body");
    let list = null;
    for (const b of body.blocks) {
      const node = blockNode(b);
      if (b.tag === "li") {
        const kind = b.ordered ? "OL" : "UL";
        if (!list || list.tagName !== kind) { list = el(kind.toLowerCase()); box.append(list); }
        list.append(node);
      } else {
        list = null;
        box.append(node);
      }
    }
    box.querySelectorAll("mark").forEach((m, i) => { m.id = "hit-" + i; });
    const marks = box.querySelectorAll("mark").length;
    $("#preview-hits").textContent = marks ? `${marks} match${marks === 1 ? "" : "es"}` : "no match of the words";
    $("#preview-message").textContent = body.cut ? "The preview shows the start of a long file; download it for the rest." : "";
    // Start at the result's own page (a PDF), at its first match.
    let first = 0;
    if (r.page) {
      const marksOnPage = [...box.querySelectorAll(`[data-page="${r.page}"] mark`)];
      if (marksOnPage.length) first = Number(marksOnPage[0].id.slice(4));
      else {
        const page = box.querySelector(`[data-page="${r.page}"]`);
        if (page) scrollWithin(page, "start");
      }
    }
    if (marks) moveHit(first - hit);
  } catch (err) {
    $("#preview-message").textContent = "cannot show a preview: " + err.message;
  }
}

// Scrolls the preview pane alone: scrollIntoView scrolled the page too, and the results and the
// preview's own buttons went off the screen.
function scrollWithin(element, where) {
  const pane = $("#preview");
  const below = element.getBoundingClientRect().top - pane.getBoundingClientRect().top + pane.scrollTop;
  pane.scrollTop = where === "center" ? below - pane.clientHeight / 2 : below - $("#preview-head").offsetHeight;
}

function moveHit(step) {
  const marks = document.querySelectorAll("#preview-body mark");
  if (!marks.length) return;
  marks[hit]?.classList.remove("current");
  hit = ((hit + step) % marks.length + marks.length) % marks.length;
  marks[hit].classList.add("current");
  scrollWithin(marks[hit], "center");
  $("#preview-hits").textContent = `match ${hit + 1} of ${marks.length}`;
}

function stopPlaying() {
  for (const player of [$("#preview-video"), $("#preview-audio")]) {
    player.pause();
    player.removeAttribute("src");
    player.removeAttribute("poster");
    player.hidden = true;
    player.load();  // lets go of the file
  }
}

function closePreview() {
  current = null;
  stopPlaying();
  document.body.classList.remove("previewing");
  $("#preview").hidden = true;
  $("#status-panel").hidden = false;
  if (selected >= 0) select(selected);
}

async function openOnDesktop(how) {
  if (!current) return;
  try {
    const response = await fetch("/api/open", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path: current.path, how }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    $("#preview-message").textContent = how === "folder" ? "shown in its folder" : "opened in its app";
  } catch (err) {
    $("#preview-message").textContent = err.message;
  }
}

function typing(target) {
  return target.matches("input, select, textarea") && !(target.id === "q");
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const inQuery = e.target.id === "q";
  if (e.key === "/" && !typing(e.target) && !inQuery) {
    e.preventDefault();
    $("#q").focus();
    $("#q").select();
  } else if (e.key === "Escape") {
    if (current) closePreview();
    else if ($("#q").value) { $("#q").value = ""; limit = PAGE; search(); $("#q").focus(); }
  } else if ((e.key === "ArrowDown" || e.key === "ArrowUp") && !typing(e.target) && shown.length) {
    e.preventDefault();
    select(e.key === "ArrowDown" ? selected + 1 : (selected <= 0 ? 0 : selected - 1));
    // An open preview follows the selection (it stayed on the first result while ↓ moved on).
    if (current && shown[selected] && shown[selected] !== current) showPreview(shown[selected]);
  } else if (e.key === "Enter" && selected >= 0 && !inQuery && !typing(e.target) && !e.target.matches("button, a")) {
    e.preventDefault();
    showPreview(shown[selected]);
  } else if (inQuery || typing(e.target)) {
    return;
  } else if (e.key === "o" && selected >= 0) {
    window.open(fileUrl(shown[selected]), "_blank", "noopener");
  } else if ((e.key === "n" || e.key === "N") && current) {
    moveHit(e.key === "n" ? 1 : -1);
  }
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(search, DEBOUNCE_MS);
}

async function loadStatus() {
  const box = $("#status-body");
  try {
    const response = await fetch("/api/status");
    const st = await response.json();
    if (!response.ok) throw new Error(st.error || response.statusText);
    const dl = el("dl");
    const row = (k, v) => { dl.append(el("dt", {}, k)); dl.append(el("dd", {}, v)); };
    const kinds = (o) => Object.entries(o).map(([k, v]) => `${k} ${v}`).join(", ");
    row("folder", st.folder);
    row("files", `${st.files} (${kinds(st.files_by_kind)})`);
    row("units", `${st.units} (${kinds(st.units_by_kind)})`);
    if (st.not_indexed && st.not_indexed.length) {
      row("not indexed", st.not_indexed.map((c) => `${c.files} ${c.ext}` +
        (c.cause === "unsupported kind" ? "" : ` (${c.cause})`)).join(", "));
    }
    const updated = when(st.last_indexed);
    row("updated", updated ? updated.toLocaleString() : "never");
    const run = st.unfinished_run;
    if (run) {
      const begun = new Date(run.started * 1000).toLocaleString();
      row("last run", run.running ? `indexing now (began ${begun})`
        : `began ${begun} and stopped before it finished: some files may be missing; index the folder again to finish it`);
    }
    row("size", (st.index_bytes / 1e6).toFixed(1) + " MB");
    row("model", st.model);
    if (st.live) {
      const last = when(st.live.last_refresh);
      row("live", st.live.problem ? st.live.problem
        : !st.live.watching ? "not watching" : !st.live.ready ? "watching; bringing the index up to date ..."
        : "watching for changes" + (last ? ", last refresh " + last.toLocaleTimeString() : ""));
      clearTimeout(statusTimer);
      if (st.live.watching) statusTimer = setTimeout(loadStatus, 10000);
    }
    box.replaceChildren(dl);
    languages(st.units_by_lang || {});
    for (const id of ["#open-app", "#open-folder"]) $(id).hidden = st.desktop === false;
    if (st.errors.length) {
      box.append(el("p", {}, `problems with ${st.errors.length} files:`));
      const ul = el("ul", { id: "skipped" });
      for (const e of st.errors) ul.append(el("li", {}, `${e.level || "skipped"}: ${e.path}: ${e.reason}`));
      box.append(ul);
    }
  } catch (err) {
    box.textContent = "cannot read the index status: " + err.message;
  }
}

const LANGUAGE_NAMES = { en: "English", de: "German", fr: "French", es: "Spanish", pt: "Portuguese", it: "Italian",
  nl: "Dutch", hi: "Hindi", ta: "Tamil", zh: "Chinese", ja: "Japanese", ko: "Korean", ru: "Russian", ar: "Arabic" };

function languages(counts) {
  const select = $("#lang");
  const chosen = select.value || new URLSearchParams(location.search).get("lang") || "";
  const options = [el("option", { value: "" }, "any")];
  for (const [code, n] of Object.entries(counts)) {
    options.push(el("option", { value: code }, `${LANGUAGE_NAMES[code] || code} (${n})`));
  }
  select.replaceChildren(...options);
  select.value = chosen;
}

async function loadSuggestions() {
  const box = $("#suggestions");
  try {
    const response = await fetch("/api/suggestions?limit=12");
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    const chips = body.suggestions.map((s) => {
      const where = s.page ? `from ${s.path}, page ${s.page}` : "from " + s.path;
      const chip = el("button", { type: "button", class: "chip", title: where }, s.text);
      chip.addEventListener("click", () => { $("#q").value = s.text; clearTimeout(timer); search(); });
      return chip;
    });
    if (chips.length) box.replaceChildren(el("span", { class: "try" }, "Try:"), ...chips);
    else if (body.note) box.replaceChildren(el("span", { class: "try" }, body.note));
  } catch (err) {
    box.replaceChildren();  // suggestions are a nicety; search works without them
  }
}

function number(v) {
  return typeof v === "number" && !Number.isInteger(v) ? v.toFixed(3) : String(v);
}

async function loadEval() {
  const box = $("#eval-body");
  try {
    const response = await fetch("/api/eval");
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    if (!body.report) {
      const p = el("p", { id: "no-report" }, "No evaluation report yet. Make one with ");
      p.append(el("code", {}, "scent eval QUERIES --folder FOLDER --report DIR"));
      p.append(document.createTextNode(" and reload this page."));
      box.replaceChildren(p);
      return;
    }
    const metrics = Object.keys(body.overall).filter((m) => m !== "n");
    const table = el("table", { id: "eval-table" });
    const head = el("tr");
    for (const name of ["", "n", ...metrics]) head.append(el("th", {}, name));
    table.append(head);
    const rows = [["overall", body.overall], ...Object.entries(body.by_category).map(([c, v]) => ["  " + c, v])];
    if (body.hard && body.hard.n) rows.push(["hard", body.hard]);
    for (const [name, vals] of rows) {
      const tr = el("tr");
      tr.append(el("td", {}, name));
      for (const m of ["n", ...metrics]) tr.append(el("td", {}, number(vals[m])));
      table.append(tr);
    }
    const when = new Date(body.written * 1000).toLocaleString();
    box.replaceChildren(el("p", {}, `Report in ${body.report}, written ${when}.`));
    const run = body.run || {};
    if (run.folder) {
      const changed = Object.entries(run.settings || {}).map(([k, v]) => `${k}=${v}`).join(", ");
      box.append(el("p", { id: "eval-run" }, `${run.queries} queries from ${run.queries_file} over ${run.folder}; ` +
        `scent ${run.version}, model ${run.model}; settings: ${changed || "all defaults"}.`));
    }
    box.append(table);
    for (const [name, url] of Object.entries(body.charts)) {
      box.append(el("img", { class: "chart", src: url, alt: name + " chart" }));
    }
    // The misses: what a person reads to see what to fix (the answer, what came instead).
    const missed = (body.queries || []).filter((q) => q.rank !== 1);
    box.append(el("h3", {}, missed.length ? `Misses (${missed.length} of ${body.queries.length})` : "No misses"));
    if (missed.length) {
      const list = el("table", { id: "eval-misses" });
      const mh = el("tr");
      for (const name of ["query", "category", "what happened"]) mh.append(el("th", {}, name));
      list.append(mh);
      for (const q of missed) {
        const tr = el("tr");
        tr.append(el("td", {}, q.query), el("td", {}, q.category),
                  el("td", {}, q.why || (q.rank ? `ranked ${q.rank}` : "not found")));
        list.append(tr);
      }
      box.append(list);
    }
  } catch (err) {
    box.textContent = "cannot read the evaluation report: " + err.message;
  }
}

function showView() {
  const evalView = location.hash === "#eval";
  $("#search-view").hidden = evalView;
  $("#eval-view").hidden = !evalView;
  document.body.classList.toggle("eval", evalView);
  $("#tab-eval").toggleAttribute("aria-current", evalView);
  $("#tab-search").toggleAttribute("aria-current", !evalView);
  if (evalView) { $("#tab-eval").setAttribute("aria-current", "page"); loadEval(); }
  else $("#tab-search").setAttribute("aria-current", "page");
}

function restore() {
  const p = new URLSearchParams(location.search);
  $("#q").value = p.get("q") || "";
  const only = new Set(p.getAll("only"));
  for (const box of document.querySelectorAll('#kinds input[name="only"]')) box.checked = only.has(box.value);
  for (const name of ["path", "after", "before"]) $("#" + name).value = p.get(name) || "";
  const lang = p.get("lang");
  if (lang) $("#lang").replaceChildren(el("option", { value: "" }, "any"), el("option", { value: lang }, lang));
  $("#lang").value = lang || "";
  $("#explain").checked = p.get("explain") === "true";
  $("#sort").value = ["newest", "oldest"].includes(p.get("sort")) ? p.get("sort") : "";
}

document.addEventListener("DOMContentLoaded", async () => {
  try {
    await window.scentSession;  // token.js: a token given in the address becomes a cookie first
  } catch (err) {
    showMessage("cannot use the access token in the address: " + err.message, true);
  }
  restore();
  // A phone folds the filters under their summary (they took the first screen), unless some are set.
  if (window.matchMedia("(max-width: 800px)").matches && !filtering(params())) $("#filter-box").open = false;
  $("#search-form").addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(timer); search(); });
  $("#q").addEventListener("input", () => { limit = PAGE; schedule(); });
  $("#sort").addEventListener("change", () => {
    show(shown.slice().sort((a, b) => a.rank - b.rank));
    if (location.search) history.replaceState(null, "", "?" + pageParams(params()).toString());
  });
  $("#more").addEventListener("click", () => { limit = Math.min(MAX_K, limit + PAGE); search(); });
  $("#preview-close").addEventListener("click", closePreview);
  $("#preview-image").addEventListener("error", () => { $("#preview-image").hidden = true; });
  $("#next-hit").addEventListener("click", () => moveHit(1));
  $("#prev-hit").addEventListener("click", () => moveHit(-1));
  $("#open-app").addEventListener("click", () => openOnDesktop("app"));
  $("#open-folder").addEventListener("click", () => openOnDesktop("folder"));
  document.addEventListener("keydown", onKey);
  for (const input of document.querySelectorAll("#filters input")) input.addEventListener("change", schedule);
  $("#path").addEventListener("input", schedule);
  $("#lang").addEventListener("change", schedule);
  $("#tab-search").addEventListener("click", (e) => {
    e.preventDefault();
    history.pushState(null, "", location.pathname + location.search);
    showView();
  });
  window.addEventListener("hashchange", showView);
  loadStatus();
  loadSuggestions();
  showView();
  if ($("#q").value.trim() || filtering(params())) search();
});

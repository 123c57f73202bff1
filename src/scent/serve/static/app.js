// scent web UI: plain JS, no build step. User data only ever reaches the page via textContent.
"use strict";

const $ = (sel) => document.querySelector(sel);
const DEBOUNCE_MS = 180;
let timer = null;
let seq = 0;
let controller = null;

function el(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

function params() {
  const p = new URLSearchParams();
  p.set("q", $("#q").value);
  p.set("k", "10");
  for (const box of document.querySelectorAll('#kinds input[name="only"]:checked')) p.append("only", box.value);
  for (const name of ["path", "after", "before"]) {
    const value = $("#" + name).value.trim();
    if (value) p.set(name, value);
  }
  if ($("#explain").checked) p.set("explain", "true");
  return p;
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
  const li = el("li", { class: "result", "data-path": r.path, "data-kind": r.kind });
  if (r.page) li.setAttribute("data-page", String(r.page));
  const slash = r.path.lastIndexOf("/");
  const head = el("div", { class: "head" });
  head.append(el("span", { class: "name" }, r.path.slice(slash + 1)));
  head.append(el("span", { class: "folder" }, slash >= 0 ? r.path.slice(0, slash + 1) : "./"));
  head.append(el("span", { class: "kind" }, r.kind));
  const meta = [];
  if (r.date) meta.push(r.date.slice(0, 10));  // ISO 8601, in the server's zone
  if (r.page) meta.push("page " + r.page);
  meta.push("score " + Number(r.score).toFixed(4));
  head.append(el("span", { class: "meta" }, meta.join(" \u00b7 ")));
  const open = el("a", { class: "open", href: fileUrl(r), target: "_blank", rel: "noopener noreferrer" },
                  r.page ? "Open page " + r.page : "Open");
  head.append(open);
  li.append(head);
  li.append(snippetNode(r.snippet, r.highlights));
  if (r.kind === "image" || r.kind === "pdf") {
    const img = el("img", { class: "thumb", src: thumbUrl(r), alt: "preview of " + r.path, loading: "lazy" });
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

async function search() {
  const q = $("#q").value.trim();
  const p = params();
  history.replaceState(null, "", q ? "?" + p.toString() : location.pathname);
  $("#suggestions").hidden = Boolean(q);
  if (!q) {
    $("#results").replaceChildren();
    showMessage("");
    return;
  }
  const mine = ++seq;
  if (controller) controller.abort();
  controller = new AbortController();
  let body;
  try {
    const response = await fetch("/api/search?" + p.toString(), { signal: controller.signal });
    body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
  } catch (err) {
    if (err.name === "AbortError" || mine !== seq) return;
    $("#results").replaceChildren();
    showMessage(err.message, true);
    return;
  }
  if (mine !== seq) return;
  $("#results").replaceChildren(...body.results.map(resultNode));
  showMessage(body.results.length ? `${body.results.length} results in ${body.took_ms} ms` : "no results");
  document.body.setAttribute("data-query", body.query);
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
    row("updated", st.last_indexed ? new Date(st.last_indexed * 1000).toLocaleString() : "never");
    row("size", (st.index_bytes / 1e6).toFixed(1) + " MB");
    row("model", st.model);
    box.replaceChildren(dl);
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

async function loadSuggestions() {
  const box = $("#suggestions");
  try {
    const response = await fetch("/api/suggestions?limit=12");
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    const chips = body.suggestions.map((s) => {
      const chip = el("button", { type: "button", class: "chip", title: "from " + s.path }, s.text);
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
  $("#explain").checked = p.get("explain") === "true";
}

document.addEventListener("DOMContentLoaded", () => {
  restore();
  $("#search-form").addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(timer); search(); });
  $("#q").addEventListener("input", schedule);
  for (const input of document.querySelectorAll("#filters input")) input.addEventListener("change", schedule);
  $("#path").addEventListener("input", schedule);
  $("#tab-search").addEventListener("click", (e) => {
    e.preventDefault();
    history.pushState(null, "", location.pathname + location.search);
    showView();
  });
  window.addEventListener("hashchange", showView);
  loadStatus();
  loadSuggestions();
  showView();
  if ($("#q").value.trim()) search();
});

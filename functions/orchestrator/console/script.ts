/**
 * The console's script, plain JavaScript sent as it is (no bundler, no
 * template literals inside: this file is one). It reads `/v1/query`'s event
 * stream with `fetch`, so the API key travels in a header and never in a URL.
 */
export const CONSOLE_SCRIPT = String.raw`
"use strict";
(() => {
const KEY = "sift-api-key";
const $ = (selector, root) => (root || document).querySelector(selector);

// Where a passage sits in its document: ", § Training, p. 6" (the answer's citations carry a full label).
function placeOf(metadata) {
  if (!metadata) return "";
  const parts = [];
  if (metadata.section) parts.push("§ " + String(metadata.section).split(" > ").pop());
  if (metadata.page) {
    parts.push(metadata.page_end && metadata.page_end !== metadata.page
      ? "pp. " + metadata.page + "-" + metadata.page_end : "p. " + metadata.page);
  }
  return parts.length ? ", " + parts.join(", ") : "";
}

function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children || []) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}
const fmt = (value, digits) => Number(value.toFixed(digits === undefined ? 3 : digits)).toString();

// ---- the API key: asked for on a 401, kept in this tab only
let keyWaiter = null;
function askForKey() {
  const form = $("#key-form");
  form.hidden = false;
  $("input", form).focus();
  return new Promise((resolve) => { keyWaiter = resolve; });
}
$("#key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  sessionStorage.setItem(KEY, form.elements.key.value.trim());
  form.reset();
  form.hidden = true;
  if (keyWaiter) keyWaiter();
  keyWaiter = null;
});
$("#key-button").addEventListener("click", () => askForKey());

async function api(path, init) {
  for (let attempt = 0; ; attempt++) {
    const headers = new Headers(init && init.headers);
    const key = sessionStorage.getItem(KEY);
    if (key) headers.set("authorization", "Bearer " + key);
    const response = await fetch(path, Object.assign({}, init, { headers }));
    if (response.status !== 401 || attempt > 2) return response;
    await response.body?.cancel();
    await askForKey();
  }
}
const postJson = (path, body, signal) => api(path, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
  signal,
});
async function errorText(response) {
  try {
    const body = await response.json();
    return body.error.type + ": " + body.error.message;
  } catch {
    return "HTTP " + response.status;
  }
}
const failure = (text) => el("p", { class: "error", role: "alert", text });

// ---- tabs
const tabs = [...document.querySelectorAll("[role=tab]")];
function show(tab) {
  for (const other of tabs) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    document.getElementById(other.getAttribute("aria-controls")).hidden = !selected;
  }
}
tabs.forEach((tab, index) => {
  tab.addEventListener("click", () => show(tab));
  tab.addEventListener("keydown", (event) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    const next = tabs[(index + step + tabs.length) % tabs.length];
    show(next);
    next.focus();
  });
});

// ---- reading the pipeline's options from a form
function pipelineOf(form, prefix) {
  const field = (name) => form.elements[(prefix || "") + name];
  const pipeline = {
    retrieval: { mode: field("mode").value },
    namespace: form.elements.namespace.value || "default",
  };
  if (field("top_k").value) pipeline.retrieval.top_k = Number(field("top_k").value);
  if (field("fusion").checked) pipeline.retrieval.fusion = Number(field("variations").value || 4);
  if (field("strategy").value) {
    pipeline.rerank = { strategy: field("strategy").value, top_n: Number(field("top_n").value || 3) };
  }
  return pipeline;
}

// ---- one run of /v1/query, rendered as its events arrive
let runs = 0;
function createRun(container, label, pipeline) {
  const run = { id: "run" + ++runs, stage: "retrieval", retrieved: [], ranked: null, weights: null };
  // Strategy none keeps the first top_n as they came: that is the ranking the answer sees.
  const keep = pipeline && pipeline.rerank && pipeline.rerank.strategy === "none" ? pipeline.rerank.top_n : Infinity;
  container.replaceChildren();
  if (label) container.append(el("h2", { text: label }));
  const part = (title, className) => {
    const section = el("section", { class: "part " + (className || "") }, [el("h3", { text: title })]);
    container.append(section);
    return section;
  };
  const badge = (text) => el("span", { class: "badge", text });
  run.fail = (text) => container.append(failure(text));

  run.on = {
    "retrieval-end": (data) => {
      run.retrieved = data.results;
      if (data.queries.length > 1) {
        part("Query variations", "variations").append(el("ol", {}, data.queries.map((query) =>
          el("li", {}, [query.text, query.origin === "original" ? badge("original") : null]))));
      }
      const section = part("Retrieved", "retrieved");
      if (data.degraded) section.querySelector("h3").append(badge("degraded: " + data.reason));
      const fused = data.results.some((hit) => hit.ranks);
      const head = ["#", "passage", fused ? "fused score" : "score"];
      if (fused) data.queries.forEach((_, i) => head.push("q" + (i + 1)));
      section.append(el("table", {}, [
        el("thead", {}, [el("tr", {}, head.map((text) => el("th", { text })))]),
        el("tbody", {}, data.results.map((hit, i) => el("tr", { "data-id": hit.id, tabindex: -1 }, [
          el("td", { class: "num", text: i + 1 }),
          el("td", {}, [(hit.metadata.title || hit.doc_id) + placeOf(hit.metadata), el("span", { class: "muted", text: " " + hit.id })]),
          el("td", { class: "num", text: fmt(fused ? hit.rrf_score : hit.score, 4) }),
          ...(fused ? hit.ranks.map((rank) => el("td", { class: "num", text: rank ?? "–" })) : []),
        ]))),
      ]));
      run.stage = "rerank";
    },
    "rubric-end": (data) => {
      const rubric = data.rubric;
      run.weights = Object.fromEntries(rubric.criteria.map((c) => [c.name, c.weight]));
      const section = part("Rubric", "rubric");
      if (data.degraded) section.querySelector("h3").append(badge("degraded: default rubric"));
      section.append(
        el("p", {}, [el("strong", { text: "relevance (0-10): " }), rubric.relevance.definition]),
        el("p", { class: "muted", text: "kept when relevance ≥ " + rubric.relevance_threshold +
          "; ties broken by " + rubric.tie_break }),
        el("table", {}, [
          el("thead", {}, [el("tr", {}, ["criterion (0-5)", "definition", "weight"]
            .map((text) => el("th", { text })))]),
          el("tbody", {}, rubric.criteria.map((c) => el("tr", { class: "criterion" }, [
            el("td", { text: c.name }),
            el("td", { text: c.definition }),
            el("td", { class: "num weight", text: fmt(c.weight) }),
          ]))),
        ]),
      );
    },
    "rerank-end": (data) => {
      const section = part("Reranked", "reranked");
      if (data.degraded) section.querySelector("h3").append(badge("degraded"));
      for (const warning of data.warnings || []) section.append(el("p", { class: "muted", text: warning }));
      run.ranked = data.results.map((result, i) => {
        const hit = run.retrieved[result.index] || { id: result.id, text: "" };
        const card = el("article", { class: "passage", id: run.id + "-p" + (i + 1), tabindex: -1,
          "data-id": hit.id }, [el("h4", {}, [
            "#" + (i + 1) + " " + (result.title || hit.metadata?.title || hit.doc_id || hit.id),
            el("span", { class: "muted", text: " (retrieved #" + (result.index + 1) + ")" }),
            result.degraded ? badge("kept its place: batch degraded") : null,
          ])]);
        card.append(breakdown(result.scores));
        if (result.reason) card.append(el("p", { class: "muted", text: "why: " + result.reason }));
        card.append(el("p", { text: hit.text.length > 320 ? hit.text.slice(0, 320) + "…" : hit.text }));
        section.append(card);
        return hit;
      });
      if (data.discarded.length) {
        part("Discarded", "discarded").append(el("ul", {}, data.discarded.map((d) => {
          const hit = run.retrieved[d.index] || {};
          return el("li", {}, [el("strong", { text: hit.metadata?.title || hit.id || "#" + (d.index + 1) }),
            " — " + d.reason]);
        })));
      }
      if (data.results.length) {
        const moved = drawMoves(labelled(run.retrieved, run.retrieved.map((hit) => hit.id)),
          labelled(run.retrieved, run.finalIds()), "retrieved", "reranked");
        section.after(moved);
      }
      run.stage = "answer";
    },
    "answer-delta": (data) => {
      if (!run.answer) run.answer = part("Answer", "answer-part").appendChild(el("div", { class: "answer" }));
      run.answer.append(data.text);
      run.stage = "answer";
    },
    "answer-end": (data) => {
      if (!run.answer) run.answer = part("Answer", "answer-part").appendChild(el("div", { class: "answer" }));
      run.answer.replaceChildren(...linkCitations(data.answer, data.citations));
      if (data.citations.length) {
        run.answer.after(el("ul", { class: "citations" }, data.citations.map((citation) =>
          el("li", { text: "[" + citation.index + "] " + (citation.label || citation.title || citation.id || "") }))));
      }
      if (!data.answered) run.answer.after(el("p", { class: "muted", text: "The passages do not answer this." }));
      run.stage = "usage";
    },
    usage: (data) => part("Timeline", "timeline-part").append(timeline(data)),
    error: (data) => run.fail((data.step ? "step " + data.step : "the " + run.stage + " step") +
      " failed: " + data.type + ": " + data.message),
    done: () => { run.done = true; },
  };

  function breakdown(scores) {
    const grid = el("div", { class: "breakdown" });
    if (!scores || scores.relevance === null) {
      grid.append(el("span", { text: "final" }), el("span"),
        el("span", { class: "final", text: scores ? fmt(scores.final) : "—" }));
      return grid;
    }
    const bar = (value, max, kind) => {
      const fill = el("div", { class: "fill " + kind });
      fill.style.width = Math.max(0, Math.min(100, (value / max) * 100)) + "%";
      return el("div", { class: "track" }, [fill]);
    };
    grid.append(el("span", { text: "relevance" }), bar(scores.relevance, 10, "relevance"),
      el("span", { class: "num relevance-score", text: fmt(scores.relevance) }));
    let computed = scores.relevance;
    let known = true;
    for (const [name, value] of Object.entries(scores.criteria)) {
      const weight = run.weights ? run.weights[name] : undefined;
      if (weight === undefined) known = false;
      else computed += weight * value;
      grid.append(el("span", { text: name }), bar(value, 5, "criterion"),
        el("span", { class: "num criterion-line" }, [
          el("span", { class: "criterion-score", text: fmt(value) }), " × ",
          el("span", { class: "criterion-weight", text: weight === undefined ? "?" : fmt(weight) }),
          weight === undefined ? "" : " = " + fmt(weight * value),
        ]));
    }
    const shown = known ? computed : scores.final;
    grid.append(el("span", { class: "final", text: "final" }), bar(shown, 10 + 5 * Object.keys(scores.criteria).length, "relevance"),
      el("span", { class: "num final final-score", text: fmt(shown) }));
    if (known && Math.abs(computed - scores.final) > 1e-4) {
      grid.append(el("span", { class: "error", text: "the server's final is " + fmt(scores.final) }));
    }
    return grid;
  }

  function linkCitations(answer, citations) {
    const pieces = [];
    let last = 0;
    for (const match of answer.matchAll(/\[(\d+)\]/g)) {
      const n = Number(match[1]);
      const citation = citations.find((c) => c.index === n);
      if (!citation) continue;
      pieces.push(answer.slice(last, match.index));
      const link = el("a", { class: "cite", href: "#" + run.id + "-p" + n, "data-n": n,
        title: citation.label || citation.title || citation.id || "" , text: "[" + n + "]" });
      link.addEventListener("click", (event) => {
        event.preventDefault();
        highlight(citation, n);
      });
      pieces.push(link);
      last = match.index + match[0].length;
    }
    pieces.push(answer.slice(last));
    return pieces;
  }

  // The answer's [n] is the n-th passage it was given: the reranked order, else the retrieved one.
  function highlight(citation, n) {
    const selector = run.ranked ? "article.passage" : "tr[data-id]";
    const candidates = [...container.querySelectorAll(selector)];
    const target = candidates.find((node) => citation.id && node.dataset.id === citation.id) ||
      candidates[n - 1];
    for (const node of container.querySelectorAll(".hl")) node.classList.remove("hl");
    if (!target) return;
    target.classList.add("hl");
    target.scrollIntoView({ block: "nearest" });
    target.focus({ preventScroll: true });
  }

  run.finalIds = () => (run.ranked || run.retrieved.slice(0, keep)).map((hit) => hit.id);
  return run;
}

function timeline(data) {
  const total = Math.max(data.total_ms, 1e-3);
  const grid = el("div", { class: "timeline" });
  for (const step of data.steps) {
    const fill = el("div", { class: "fill" });
    fill.style.left = (step.started_ms / total) * 100 + "%";
    fill.style.width = Math.max(0.5, ((step.ended_ms - step.started_ms) / total) * 100) + "%";
    grid.append(
      el("span", { text: step.name + " · " + step.via }),
      el("div", { class: "track", title: fmt(step.ended_ms - step.started_ms, 1) + " ms, " +
        step.tokens_in + " tokens in, " + step.tokens_out + " out" }, [fill]),
    );
  }
  const overlaps = [];
  data.steps.forEach((a, i) => data.steps.slice(i + 1).forEach((b) => {
    if (a.started_ms < b.ended_ms && b.started_ms < a.ended_ms) overlaps.push(a.name + " ∥ " + b.name);
  }));
  const note = el("p", { class: "muted", text: "total " + fmt(data.total_ms, 1) + " ms" +
    (overlaps.length ? "; ran concurrently: " + overlaps.join(", ") : "") });
  return el("div", {}, [grid, note]);
}

async function stream(body, run, signal) {
  let response;
  try {
    response = await postJson("/v1/query", body, signal);
  } catch (error) {
    return run.fail("sift could not be reached: " + error.message);
  }
  if (!response.ok) return run.fail(await errorText(response));
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n/g, "\n");
      for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let name = "message";
        const lines = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) lines.push(line.slice(5).replace(/^ /, ""));
        }
        const handler = run.on[name];
        if (handler && lines.length) handler(JSON.parse(lines.join("\n")));
      }
    }
  } catch (error) {
    if (signal && signal.aborted) return;
    return run.fail("the connection broke during the " + run.stage + " step: " + error.message);
  }
  if (!run.done) run.fail("the stream ended during the " + run.stage + " step, before it was done");
}

function busy(form, on) {
  for (const button of form.querySelectorAll("button")) button.disabled = on;
}

let asking = null;
$("#ask-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  if (asking) asking.abort();
  asking = new AbortController();
  const pipeline = pipelineOf(form);
  const run = createRun($("#ask-run"), "", pipeline);
  await stream({ query: form.elements.query.value, pipeline }, run, asking.signal);
});

// ---- Compare: two runs side by side, then lines from A's ranking to B's
function drawMoves(left, right, leftTitle, rightTitle) {
  const row = 24; // .moves li's height in the stylesheet
  const rows = Math.max(left.length, right.length, 1);
  const svgNs = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNs, "svg");
  svg.setAttribute("viewBox", "0 0 100 " + rows * row);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "how each passage moved from " + leftTitle + " to " + rightTitle);
  svg.style.height = rows * row + "px";
  const list = (items, lost) => el("ol", {}, items.map((item, i) => el("li", {
    class: lost(item) ? "dropped" : "", title: item.id, text: (i + 1) + ". " + item.label })));
  left.forEach((item, i) => {
    const j = right.findIndex((other) => other.id === item.id);
    const line = document.createElementNS(svgNs, "line");
    line.setAttribute("x1", "0");
    line.setAttribute("y1", String((i + 0.5) * row));
    line.setAttribute("x2", j < 0 ? "40" : "100");
    line.setAttribute("y2", String(j < 0 ? (i + 0.5) * row : (j + 0.5) * row));
    if (j < 0) line.setAttribute("class", "dropped");
    line.setAttribute("data-from", String(i + 1));
    line.setAttribute("data-to", j < 0 ? "dropped" : String(j + 1));
    svg.append(line);
  });
  return el("section", { class: "part moved" }, [
    el("h3", { text: "How the passages moved: " + leftTitle + " → " + rightTitle }),
    el("div", { class: "moves" }, [
      list(left, (item) => !right.some((other) => other.id === item.id)), svg,
      list(right, (item) => !left.some((other) => other.id === item.id)),
    ]),
  ]);
}
function labelled(retrieved, ids) {
  return ids.map((id) => {
    const hit = retrieved.find((h) => h.id === id) || {};
    return { id, label: (hit.metadata && hit.metadata.title) || id };
  });
}

let comparing = null;
$("#compare-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  if (comparing) comparing.abort();
  comparing = new AbortController();
  const query = form.elements.query.value;
  const sides = ["a_", "b_"].map((prefix) => {
    const pipeline = pipelineOf(form, prefix);
    const name = (prefix === "a_" ? "A: " : "B: ") + (pipeline.rerank ? pipeline.rerank.strategy : "no rerank");
    return { pipeline, run: createRun($(prefix === "a_" ? "#compare-a" : "#compare-b"), name, pipeline), name };
  });
  $("#compare-moves").replaceChildren();
  busy(form, true);
  await Promise.all(sides.map((side) => stream({ query, pipeline: side.pipeline }, side.run, comparing.signal)));
  busy(form, false);
  const [a, b] = sides;
  if (a.run.retrieved.length || b.run.retrieved.length) {
    $("#compare-moves").replaceChildren(drawMoves(labelled(a.run.retrieved, a.run.finalIds()),
      labelled(b.run.retrieved, b.run.finalIds()), a.name, b.name));
  }
});

// ---- Documents: ingest pasted text, files (PDF, Word, HTML, Markdown, text) or .jsonl, then find it
function documentsOf(text, fileName, form) {
  const lines = text.split("\n").map((line) => line.trim()).filter(Boolean);
  const jsonl = /\.jsonl$/i.test(fileName || "") ||
    (lines.length > 0 && lines.every((line) => line.startsWith("{") && line.endsWith("}")));
  if (jsonl) return lines.map((line) => JSON.parse(line));
  const document = { text };
  if (form.elements.id.value) document.id = form.elements.id.value;
  if (form.elements.title.value) document.title = form.elements.title.value;
  return [document];
}
// Files go as they are (multipart, what curl -F sends): sift tells their type from their bytes.
function uploadOf(files, namespace) {
  const upload = new FormData();
  for (const file of files) upload.append("file", file, file.name);
  upload.append("namespace", namespace);
  return upload;
}
$("#documents-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const out = $("#documents-result");
  const namespace = form.elements.namespace.value || "default";
  const files = [...form.elements.file.files];
  const jsonl = files.length === 1 && /\.jsonl$/i.test(files[0].name);
  let documents;
  if (!files.length || jsonl) {
    const text = jsonl ? await files[0].text() : form.elements.text.value;
    try {
      documents = documentsOf(text, jsonl && files[0].name, form);
    } catch (error) {
      return out.replaceChildren(failure("a line is not JSON: " + error.message));
    }
  }
  busy(form, true);
  try {
    const response = documents
      ? await postJson("/v1/documents", { namespace, documents })
      : await api("/v1/documents", { method: "POST", body: uploadOf(files, namespace) });
    if (!response.ok) return out.replaceChildren(failure(await errorText(response)));
    const body = await response.json();
    out.replaceChildren(el("section", { class: "part ingested" }, [
      el("h3", { text: "Ingested into " + body.namespace + ": " + body.chunks + " chunks" }),
      el("table", {}, [el("thead", {}, [el("tr", {}, [el("th", { text: "document" }), el("th", { text: "chunks" })])]),
        el("tbody", {}, body.documents.map((doc) => el("tr", {}, [el("td", { text: doc.id }),
          el("td", { class: "num", text: doc.chunks })])))]),
    ]));
  } catch (error) {
    out.replaceChildren(failure("sift could not be reached: " + error.message));
  } finally {
    busy(form, false);
  }
});
$("#search-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const out = $("#search-result");
  try {
    const response = await postJson("/v1/search", { query: form.elements.query.value,
      namespace: form.elements.namespace.value || "default" });
    if (!response.ok) return out.replaceChildren(failure(await errorText(response)));
    const body = await response.json();
    out.replaceChildren(el("section", { class: "part found" }, [el("h3", { text: body.results.length + " found" }),
      el("ol", {}, body.results.map((hit) => el("li", { "data-id": hit.id }, [
        el("strong", { text: (hit.metadata.title || hit.doc_id) + placeOf(hit.metadata) + " " }), el("span", { class: "muted", text: hit.id + " · " + fmt(hit.score, 4) }),
        el("p", { text: hit.text.slice(0, 240) }),
      ])))]));
  } catch (error) {
    out.replaceChildren(failure("sift could not be reached: " + error.message));
  }
});

// ---- Evaluations: opened by id (sift keeps no list of runs to page through)
const OPENED = "sift-evaluations";
function listOpened() {
  const ids = JSON.parse(sessionStorage.getItem(OPENED) || "[]");
  $("#evaluation-list").replaceChildren(...ids.map((id) => {
    const button = el("button", { type: "button", text: id });
    button.addEventListener("click", () => openEvaluation(id));
    return el("li", {}, [button]);
  }));
}
async function openEvaluation(id) {
  const out = $("#evaluation-result");
  try {
    const response = await api("/v1/evaluations/" + encodeURIComponent(id));
    if (!response.ok) return out.replaceChildren(failure(await errorText(response)));
    const job = await response.json();
    const ids = JSON.parse(sessionStorage.getItem(OPENED) || "[]").filter((other) => other !== id);
    sessionStorage.setItem(OPENED, JSON.stringify([id, ...ids].slice(0, 20)));
    listOpened();
    const progress = job.progress ? " · " + JSON.stringify(job.progress) : "";
    out.replaceChildren(el("section", { class: "part" }, [
      el("h3", { text: id + ": " + job.status + progress }),
      job.status === "done" ? el("a", { href: job.report_url, text: "the report" }) : null,
      job.summary ? el("pre", { text: JSON.stringify(job.summary, null, 2) }) : null,
    ]));
  } catch (error) {
    out.replaceChildren(failure("sift could not be reached: " + error.message));
  }
}
$("#evaluation-form").addEventListener("submit", (event) => {
  event.preventDefault();
  openEvaluation(event.currentTarget.elements.id.value.trim());
});
listOpened();

// A cheap call that needs the key: ask for one up front when the server wants it.
api("/v1/models").then((response) => response.body?.cancel(), () => {});
})();
`;

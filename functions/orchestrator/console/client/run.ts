/**
 * One run of `/v1/query`, rendered as its events arrive: the query
 * variations and what was retrieved, the rubric, the reranked passages with
 * each score's breakdown, the answer with its citations linked to the
 * passages, and the steps' timeline.
 */
import { el, failure, fmt, must, placeOf } from "./dom.ts";
import type { Pipeline } from "./forms.ts";
import { drawMoves, labelled } from "./moves.ts";
import type {
  ChunkMetadata,
  Citation,
  FusedHit,
  QueryEvents,
  QueryHandlers,
  Scores,
  SearchHit,
} from "./wire.ts";

/** A passage as the reranked list holds it: a retrieved hit, or what the reranker said of one. */
export interface RankedHit {
  id: string | undefined;
  text: string;
  doc_id?: string;
  metadata?: ChunkMetadata;
}

export interface Run {
  /** Unique in the page: the reranked passages' element ids start with it. */
  id: string;
  /** The step under way, for a failure's message. */
  stage: string;
  retrieved: (SearchHit | FusedHit)[];
  /** The reranked order, once `rerank-end` came. */
  ranked: RankedHit[] | null;
  /** The rubric's weight of each criterion, once `rubric-end` came. */
  weights: Record<string, number> | null;
  answer?: HTMLDivElement;
  done?: boolean;
  /** Shows a failure below what the run rendered so far. */
  fail(text: string): void;
  on: QueryHandlers;
  /** The passages the answer was given, in order: reranked, or the retrieved ones kept. */
  finalIds(): (string | undefined)[];
}

let runs = 0;

/** A run rendered into `container`, under `label` if any. */
export function createRun(container: HTMLElement, label: string, pipeline?: Pipeline): Run {
  // Strategy none keeps the first top_n as they came: that is the ranking the answer sees.
  const keep = pipeline && pipeline.rerank && pipeline.rerank.strategy === "none"
    ? pipeline.rerank.top_n
    : Infinity;
  container.replaceChildren();
  if (label) container.append(el("h2", { text: label }));
  const part = (title: string, className?: string) => {
    const section = el("section", { class: "part " + (className || "") }, [
      el("h3", { text: title }),
    ]);
    container.append(section);
    return section;
  };
  const heading = (section: HTMLElement) => must(section.querySelector("h3"), "h3");
  const badge = (text: string) => el("span", { class: "badge", text });
  const answerPart = () =>
    part("Answer", "answer-part").appendChild(el("div", { class: "answer" }));

  const on: QueryHandlers = {
    "retrieval-end": (data) => {
      run.retrieved = data.results;
      if (data.queries.length > 1) {
        part("Query variations", "variations").append(el(
          "ol",
          {},
          data.queries.map((query) =>
            el("li", {}, [query.text, query.origin === "original" ? badge("original") : null])
          ),
        ));
      }
      const section = part("Retrieved", "retrieved");
      if (data.degraded) heading(section).append(badge("degraded: " + data.reason));
      const fused = data.results.some((hit) => "ranks" in hit && hit.ranks);
      const head = ["#", "passage", fused ? "fused score" : "score"];
      if (fused) data.queries.forEach((_, i) => head.push("q" + (i + 1)));
      section.append(el("table", {}, [
        el("thead", {}, [el("tr", {}, head.map((text) => el("th", { text })))]),
        el(
          "tbody",
          {},
          data.results.map((hit, i) =>
            el("tr", { "data-id": hit.id, tabindex: -1 }, [
              el("td", { class: "num", text: i + 1 }),
              el("td", {}, [
                (hit.metadata.title || hit.doc_id) + placeOf(hit.metadata),
                el("span", { class: "muted", text: " " + hit.id }),
              ]),
              el("td", {
                class: "num",
                text: fmt(fused ? (hit as FusedHit).rrf_score : hit.score, 4),
              }),
              ...(fused
                ? (hit as FusedHit).ranks.map((rank) =>
                  el("td", { class: "num", text: rank ?? "–" })
                )
                : []),
            ])
          ),
        ),
      ]));
      run.stage = "rerank";
    },
    "rubric-end": (data) => {
      const rubric = data.rubric;
      run.weights = Object.fromEntries(rubric.criteria.map((c) => [c.name, c.weight]));
      const section = part("Rubric", "rubric");
      if (data.degraded) heading(section).append(badge("degraded: default rubric"));
      section.append(
        el("p", {}, [el("strong", { text: "relevance (0-10): " }), rubric.relevance.definition]),
        el("p", {
          class: "muted",
          text: "kept when relevance ≥ " + rubric.relevance_threshold +
            "; ties broken by " + rubric.tie_break,
        }),
        el("table", {}, [
          el("thead", {}, [
            el(
              "tr",
              {},
              ["criterion (0-5)", "definition", "weight"].map((text) => el("th", { text })),
            ),
          ]),
          el(
            "tbody",
            {},
            rubric.criteria.map((c) =>
              el("tr", { class: "criterion" }, [
                el("td", { text: c.name }),
                el("td", { text: c.definition }),
                el("td", { class: "num weight", text: fmt(c.weight) }),
              ])
            ),
          ),
        ]),
      );
    },
    "rerank-end": (data) => {
      const section = part("Reranked", "reranked");
      if (data.degraded) heading(section).append(badge("degraded"));
      for (const warning of data.warnings || []) {
        section.append(el("p", { class: "muted", text: warning }));
      }
      run.ranked = data.results.map((result, i) => {
        const hit: RankedHit = run.retrieved[result.index] || { id: result.id, text: "" };
        const card = el("article", {
          class: "passage",
          id: run.id + "-p" + (i + 1),
          tabindex: -1,
          "data-id": hit.id,
        }, [el("h4", {}, [
          "#" + (i + 1) + " " + (result.title || hit.metadata?.title || hit.doc_id || hit.id),
          el("span", { class: "muted", text: " (retrieved #" + (result.index + 1) + ")" }),
          result.degraded ? badge("kept its place: batch degraded") : null,
        ])]);
        card.append(breakdown(result.scores));
        if (result.reason) card.append(el("p", { class: "muted", text: "why: " + result.reason }));
        card.append(
          el("p", { text: hit.text.length > 320 ? hit.text.slice(0, 320) + "…" : hit.text }),
        );
        section.append(card);
        return hit;
      });
      if (data.discarded.length) {
        part("Discarded", "discarded").append(el(
          "ul",
          {},
          data.discarded.map((d) => {
            const hit: Partial<SearchHit> = run.retrieved[d.index] || {};
            return el("li", {}, [
              el("strong", { text: hit.metadata?.title || hit.id || "#" + (d.index + 1) }),
              " — " + d.reason,
            ]);
          }),
        ));
      }
      if (data.results.length) {
        const moved = drawMoves(
          labelled(run.retrieved, run.retrieved.map((hit) => hit.id)),
          labelled(run.retrieved, run.finalIds()),
          "retrieved",
          "reranked",
        );
        section.after(moved);
      }
      run.stage = "answer";
    },
    "answer-delta": (data) => {
      if (!run.answer) run.answer = answerPart();
      run.answer.append(data.text);
      run.stage = "answer";
    },
    "answer-end": (data) => {
      if (!run.answer) run.answer = answerPart();
      run.answer.replaceChildren(...linkCitations(data.answer, data.citations));
      if (data.citations.length) {
        run.answer.after(el(
          "ul",
          { class: "citations" },
          data.citations.map((citation) =>
            el("li", {
              text: "[" + citation.index + "] " +
                (citation.label || citation.title || citation.id || ""),
            })
          ),
        ));
      }
      if (!data.answered) {
        run.answer.after(el("p", { class: "muted", text: "The passages do not answer this." }));
      }
      run.stage = "usage";
    },
    usage: (data) => part("Timeline", "timeline-part").append(timeline(data)),
    error: (data) =>
      run.fail(
        (data.step ? "step " + data.step : "the " + run.stage + " step") +
          " failed: " + data.type + ": " + data.message,
      ),
    done: () => {
      run.done = true;
    },
  };

  const run: Run = {
    id: "run" + ++runs,
    stage: "retrieval",
    retrieved: [],
    ranked: null,
    weights: null,
    fail: (text) => container.append(failure(text)),
    on,
    finalIds: () => {
      const hits: readonly RankedHit[] = run.ranked || run.retrieved.slice(0, keep);
      return hits.map((hit) => hit.id);
    },
  };

  /** A passage's scores: relevance, each criterion times its weight, and the final sum. */
  function breakdown(scores: Scores | null): HTMLElement {
    const grid = el("div", { class: "breakdown" });
    if (!scores || scores.relevance === null) {
      grid.append(
        el("span", { text: "final" }),
        el("span"),
        el("span", { class: "final", text: scores ? fmt(scores.final) : "—" }),
      );
      return grid;
    }
    const bar = (value: number, max: number, kind: string) => {
      const fill = el("div", { class: "fill " + kind });
      fill.style.width = Math.max(0, Math.min(100, (value / max) * 100)) + "%";
      return el("div", { class: "track" }, [fill]);
    };
    grid.append(
      el("span", { text: "relevance" }),
      bar(scores.relevance, 10, "relevance"),
      el("span", { class: "num relevance-score", text: fmt(scores.relevance) }),
    );
    let computed = scores.relevance;
    let known = true;
    for (const [name, value] of Object.entries(scores.criteria)) {
      const weight = run.weights ? run.weights[name] : undefined;
      if (weight === undefined) known = false;
      else computed += weight * value;
      grid.append(
        el("span", { text: name }),
        bar(value, 5, "criterion"),
        el("span", { class: "num criterion-line" }, [
          el("span", { class: "criterion-score", text: fmt(value) }),
          " × ",
          el("span", { class: "criterion-weight", text: weight === undefined ? "?" : fmt(weight) }),
          weight === undefined ? "" : " = " + fmt(weight * value),
        ]),
      );
    }
    const shown = known ? computed : scores.final;
    grid.append(
      el("span", { class: "final", text: "final" }),
      bar(shown, 10 + 5 * Object.keys(scores.criteria).length, "relevance"),
      el("span", { class: "num final final-score", text: fmt(shown) }),
    );
    if (known && Math.abs(computed - scores.final) > 1e-4) {
      grid.append(
        el("span", { class: "error", text: "the server's final is " + fmt(scores.final) }),
      );
    }
    return grid;
  }

  /** The answer's text with each `[n]` it cites made a link to the passage. */
  function linkCitations(answer: string, citations: readonly Citation[]): (string | Node)[] {
    const pieces: (string | Node)[] = [];
    let last = 0;
    for (const match of answer.matchAll(/\[(\d+)\]/g)) {
      const n = Number(match[1]);
      const citation = citations.find((c) => c.index === n);
      if (!citation) continue;
      pieces.push(answer.slice(last, match.index));
      const link = el("a", {
        class: "cite",
        href: "#" + run.id + "-p" + n,
        "data-n": n,
        title: citation.label || citation.title || citation.id || "",
        text: "[" + n + "]",
      });
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
  function highlight(citation: Citation, n: number): void {
    const selector = run.ranked ? "article.passage" : "tr[data-id]";
    const candidates = [...container.querySelectorAll<HTMLElement>(selector)];
    const target = candidates.find((node) => citation.id && node.dataset.id === citation.id) ||
      candidates[n - 1];
    for (const node of container.querySelectorAll(".hl")) node.classList.remove("hl");
    if (!target) return;
    target.classList.add("hl");
    target.scrollIntoView({ block: "nearest" });
    target.focus({ preventScroll: true });
  }

  return run;
}

/** The steps on one time axis, and which of them ran at the same time. */
function timeline(data: QueryEvents["usage"]): HTMLElement {
  const total = Math.max(data.total_ms, 1e-3);
  const grid = el("div", { class: "timeline" });
  for (const step of data.steps) {
    const fill = el("div", { class: "fill" });
    fill.style.left = (step.started_ms / total) * 100 + "%";
    fill.style.width = Math.max(0.5, ((step.ended_ms - step.started_ms) / total) * 100) + "%";
    grid.append(
      el("span", { text: step.name + " · " + step.via }),
      el("div", {
        class: "track",
        title: fmt(step.ended_ms - step.started_ms, 1) + " ms, " +
          step.tokens_in + " tokens in, " + step.tokens_out + " out",
      }, [fill]),
    );
  }
  const overlaps: string[] = [];
  data.steps.forEach((a, i) =>
    data.steps.slice(i + 1).forEach((b) => {
      if (a.started_ms < b.ended_ms && b.started_ms < a.ended_ms) {
        overlaps.push(a.name + " ∥ " + b.name);
      }
    })
  );
  const note = el("p", {
    class: "muted",
    text: "total " + fmt(data.total_ms, 1) + " ms" +
      (overlaps.length ? "; ran concurrently: " + overlaps.join(", ") : ""),
  });
  return el("div", {}, [grid, note]);
}

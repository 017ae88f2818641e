/** Ask: one run of the pipeline. Compare: two side by side, then lines from A's ranking to B's. */
import { $, busy, field } from "./dom.ts";
import { pipelineOf } from "./forms.ts";
import { drawMoves, labelled } from "./moves.ts";
import { createRun } from "./run.ts";
import { stream } from "./stream.ts";

export function setUpAsk(): void {
  const form = $<HTMLFormElement>("#ask-form");
  let asking: AbortController | null = null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (asking) asking.abort();
    asking = new AbortController();
    const pipeline = pipelineOf(form);
    const run = createRun($("#ask-run"), "", pipeline);
    await stream({ query: field(form, "query").value, pipeline }, run, asking.signal);
  });
}

export function setUpCompare(): void {
  const form = $<HTMLFormElement>("#compare-form");
  let comparing: AbortController | null = null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (comparing) comparing.abort();
    comparing = new AbortController();
    const signal = comparing.signal;
    const query = field(form, "query").value;
    const sides = ["a_", "b_"].map((prefix) => {
      const pipeline = pipelineOf(form, prefix);
      const name = (prefix === "a_" ? "A: " : "B: ") +
        (pipeline.rerank ? pipeline.rerank.strategy : "no rerank");
      const container = $(prefix === "a_" ? "#compare-a" : "#compare-b");
      return { pipeline, run: createRun(container, name, pipeline), name };
    });
    $("#compare-moves").replaceChildren();
    busy(form, true);
    await Promise.all(
      sides.map((side) => stream({ query, pipeline: side.pipeline }, side.run, signal)),
    );
    busy(form, false);
    const [a, b] = sides as [typeof sides[number], typeof sides[number]];
    if (a.run.retrieved.length || b.run.retrieved.length) {
      $("#compare-moves").replaceChildren(drawMoves(
        labelled(a.run.retrieved, a.run.finalIds()),
        labelled(b.run.retrieved, b.run.finalIds()),
        a.name,
        b.name,
      ));
    }
  });
}

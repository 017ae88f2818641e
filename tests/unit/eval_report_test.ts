import assert from "node:assert/strict";
import { readConfig } from "../../shared/config.ts";
import { fakeSteps } from "../helpers/eval_fakes.ts";
import { cacheHistory, recordRun } from "../../functions/evaluate/history.ts";
import { escapeHtml } from "../../functions/evaluate/report/escape.ts";
import { renderReportHtml } from "../../functions/evaluate/report/html.ts";
import { placeLabels } from "../../functions/evaluate/report/labels.ts";
import { niceTicks } from "../../functions/evaluate/report/scale.ts";
import { frontierOf } from "../../functions/evaluate/report/scatter.ts";
import { summaryText } from "../../functions/evaluate/report/text.ts";
import { verdictOf } from "../../functions/evaluate/report/verdict.ts";
import { rankingDisagreements } from "../../functions/evaluate/report/ranking-note.ts";
import { runEvaluation } from "../../functions/evaluate/run.ts";
import { Runtime } from "../../compose/runtime.ts";

const HOSTILE = `<script>alert(1)</script><img src=x onerror="alert(2)">' " &`;
const VARIANTS = ["none", "one-turn", "two-turn", "relevance+fusion"];

async function hostileReport(runId = "report-1") {
  const deps = new Runtime().deps(readConfig({}));
  const { steps } = fakeSteps({ answerSuffix: ` ${HOSTILE}` });
  const report = await runEvaluation(deps, {
    dataset: {
      name: `set ${HOSTILE}`,
      questions: [
        {
          id: `q1${HOSTILE}`,
          question: `What is ${HOSTILE}?`,
          reference_answer: HOSTILE,
          target_doc: "doc-a",
        },
        { id: "q2", question: "Is this unanswerable?", reference_answer: "No.", target_doc: null },
        { id: "q3", question: "A third?", reference_answer: "Yes.", target_doc: "doc-b" },
      ],
    },
    variants: VARIANTS,
    namespace: "default",
    run_id: runId,
  }, { steps });
  return { deps, report };
}

/** Every tag the page may contain: anything else got in unescaped. */
const ALLOWED_TAGS = new Set(
  ("html head meta title style body main h1 h2 h3 p code div section table thead tbody tr th td span " +
    "details summary b i ul li dl dt dd svg g line text rect circle polyline").split(" "),
);

Deno.test("the HTML report escapes answers, questions, ids and names, and holds no script", async () => {
  const { report } = await hostileReport();
  const html = renderReportHtml(report);
  const tags = new Set(
    [...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((match) => match[1]!.toLowerCase()),
  );
  assert.deepEqual([...tags].filter((tag) => !ALLOWED_TAGS.has(tag)), []);
  assert.ok(!/<script|<img|onerror="alert/i.test(html));
  assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
  assert.ok(html.includes("onerror=&quot;alert(2)&quot;"));
  assert.ok(html.includes(`Content-Security-Policy" content="default-src 'none'`));
  assert.ok(!/https?:\/\/(?!www\.w3\.org\/2000\/svg)/.test(html), "no external asset");
});

Deno.test("the HTML report draws both REBEL charts with a labelled point per variant", async () => {
  const { report } = await hostileReport();
  const html = renderReportHtml(report);
  for (const id of ["chart-precision-similarity", "chart-quality-speed", "chart-elo"]) {
    const svg = html.match(new RegExp(`<svg[^>]*id="${id}"[\\s\\S]*?</svg>`))?.[0];
    assert.ok(svg, `${id} is missing`);
    assert.equal(svg.match(/<circle class="point"/g)?.length, VARIANTS.length, id);
    for (const name of VARIANTS) {
      assert.ok(svg.includes(`data-variant="${name}"`), `${id}: ${name}`);
    }
  }
  const left = html.match(/<svg[^>]*id="chart-precision-similarity"[\s\S]*?<\/svg>/)![0];
  assert.equal(left.match(/class="error-bar"/g)?.length, VARIANTS.length * 2);
  assert.ok(html.includes('class="heatmap"'));
  assert.ok(html.includes("First run"));
});

Deno.test("a second run shows its change against the first and flags a regression", async () => {
  const { deps, report: first } = await hostileReport("history-1");
  const history = cacheHistory(deps.cache, first.dataset.name);
  assert.deepEqual(await recordRun(first, history), { first_run: true });
  const { report: second } = await hostileReport("history-2");
  const worse = second.summary.find((summary) => summary.variant === "two-turn")!;
  worse.system_quality = worse.system_quality! / 2;
  const comparison = await recordRun(second, history);
  assert.equal(comparison.first_run, false);
  if (comparison.first_run) return;
  assert.equal(comparison.previous_run_id, "history-1");
  assert.deepEqual(
    comparison.regressions.map((delta) => `${delta.variant} ${delta.metric}`),
    ["two-turn system_quality"],
  );
  const html = renderReportHtml(second);
  assert.ok(html.includes("1 regression(s) against run history-1"));
  assert.ok(html.includes('class="regression"'));
  assert.match(summaryText(second), /two-turn system_quality: .*fell more than 10%/);
  assert.equal((await history.list()).length, 2);
});

Deno.test("escapeHtml, niceTicks and the frontier behave at their edges", () => {
  assert.equal(escapeHtml(`<a href='x'>&"`), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;");
  assert.equal(escapeHtml(undefined), "");
  assert.deepEqual(niceTicks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(niceTicks(0.12, 0.31), [0.1, 0.15, 0.2, 0.25, 0.3, 0.35]);
  const points = [{ x: 1, y: 1 }, { x: 2, y: 3 }, { x: 3, y: 2 }, { x: 1.5, y: 0.5 }];
  assert.deepEqual(frontierOf(points), [{ x: 2, y: 3 }, { x: 3, y: 2 }]);
});

Deno.test("placeLabels keeps labels off each other and off other points", () => {
  const area = { left: 0, right: 400, top: 0, bottom: 300 };
  const points = [
    { cx: 100, cy: 100, label: "none" },
    { cx: 100, cy: 100, label: "one-turn" }, // the same spot
    { cx: 140, cy: 104, label: "two-turn" }, // where the first label would go
    { cx: 395, cy: 150, label: "relevance" }, // at the right edge
  ];
  const placed = placeLabels(points, area);
  const boxes = placed.map((place, i) => {
    const width = points[i]!.label.length * 7;
    const x1 = place.anchor === "start" ? place.x : place.x - width;
    return { x1, x2: x1 + width, y1: place.y - 10, y2: place.y + 3 };
  });
  boxes.forEach((a, i) => {
    assert.ok(a.x1 >= 0 && a.x2 <= 400, `${points[i]!.label} stays inside`);
    boxes.forEach((b, j) => {
      if (i < j) {
        assert.ok(
          a.x2 <= b.x1 || b.x2 <= a.x1 || a.y2 <= b.y1 || b.y2 <= a.y1,
          `${i} and ${j} overlap`,
        );
      }
    });
    points.forEach((point, j) => {
      const covers = a.x1 < point.cx + 7 && point.cx - 7 < a.x2 && a.y1 < point.cy + 7 &&
        point.cy - 7 < a.y2;
      if (j !== i && !(point.cx === points[i]!.cx && point.cy === points[i]!.cy)) {
        assert.ok(!covers, `${i} covers point ${j}`);
      }
    });
  });
});

Deno.test("the frontier for cost keeps the cheaper of two equal-quality variants", () => {
  const points = [{ x: 100, y: 1 }, { x: 300, y: 1 }, { x: 500, y: 2 }, { x: 400, y: 0.5 }];
  assert.deepEqual(frontierOf(points, "lower-x"), [{ x: 100, y: 1 }, { x: 500, y: 2 }]);
});

Deno.test("placeLabels parts five labels on one spot at the chart's edge, with leader lines", () => {
  const area = { left: 0, right: 300, top: 0, bottom: 200 };
  const names = ["none", "one-turn", "two-turn", "item", "tot"];
  const placed = placeLabels(names.map((label) => ({ cx: 290, cy: 100, label })), area);
  const boxes = placed.map((place, i) => {
    const width = names[i]!.length * 7.5;
    const x1 = place.anchor === "start" ? place.x : place.x - width;
    return { x1, x2: x1 + width, y1: place.y - 10, y2: place.y + 3 };
  });
  boxes.forEach((a, i) => {
    assert.ok(a.x1 >= 0 && a.x2 <= 300 && a.y1 >= 0 && a.y2 <= 200, `${names[i]} inside`);
    boxes.slice(i + 1).forEach((b, j) =>
      assert.ok(a.x2 <= b.x1 || b.x2 <= a.x1 || a.y2 <= b.y1 || b.y2 <= a.y1, `${i}, ${i + j + 1}`)
    );
  });
  assert.ok(placed.filter((place) => place.leader).length >= 3, "nudged labels point back");
});

Deno.test("the verdict ships the leader when its interval is clear, else the cheapest of the tied", async () => {
  const { report } = await hostileReport("verdict-1");
  const rating = (agent: string, score: number, low: number, high: number) => ({
    agent,
    score,
    std: 1,
    ci_low: low,
    ci_high: high,
    wins: 0,
    losses: 0,
    ties: 0,
  });
  report.elo = [
    rating("two-turn", 1100, 1060, 1140),
    rating("one-turn", 1040, 1000, 1059),
    rating("none", 950, 900, 1000),
    rating("relevance+fusion", 910, 880, 940),
  ];
  const clear = verdictOf(report);
  assert.equal(clear.certainty, "clear");
  assert.equal(clear.ship, "two-turn");
  assert.match(renderReportHtml(report), /Ship two-turn<\/b> <span class="badge clear">clear/);

  report.elo[1] = rating("one-turn", 1040, 1000, 1060); // touches 1060: overlap
  const cheap = report.summary.find((s) => s.variant === "one-turn")!;
  cheap.tokens = { in: 1, out: 1 };
  const unsure = verdictOf(report);
  assert.equal(unsure.certainty, "not enough evidence");
  assert.deepEqual(unsure.tied, ["two-turn", "one-turn"]);
  assert.deepEqual(unsure.worse, ["none", "relevance+fusion"]);
  assert.equal(unsure.ship, "one-turn");
  const html = renderReportHtml(report);
  assert.match(html, /data-certainty="not enough evidence" data-ship="one-turn"/);
  assert.ok(html.indexOf('class="verdict"') < html.indexOf("chart-precision-similarity"));
});

Deno.test("a note names the pairs win rate and Elo order differently, and says why", async () => {
  const { report } = await hostileReport("ranking-1");
  const matrix = {
    agents: ["a", "b", "c"],
    rate: [[null, 0.5, 0.5], [0.5, null, 0.5], [0, 0.25, null]],
    games: [[0, 4, 4], [4, 0, 4], [4, 4, 0]],
    average: [0.5, 0.5, 0.125],
    total_games: 12,
    position_bias: 0,
  };
  const rating = (agent: string, score: number) => ({
    agent,
    score,
    std: 1,
    ci_low: score - 10,
    ci_high: score + 10,
    wins: 0,
    losses: 0,
    ties: 0,
  });
  const elo = [rating("a", 1040), rating("c", 1000.4), rating("b", 960)];
  assert.deepEqual(
    rankingDisagreements(matrix, elo).map((d) => `${d.a}-${d.b}`),
    ["a-b", "b-c"], // equal win rates split by Elo; b over c by win rate, under it by Elo
  );
  report.win_rates = matrix;
  report.elo = elo;
  assert.match(renderReportHtml(report), /counts a tie like a loss/);
  assert.deepEqual(
    rankingDisagreements(matrix, [rating("a", 1000), rating("b", 1000.5), rating("c", 900)]),
    [],
  );
});

Deno.test("the report explains judged MRR@5 (≥1 / =2) and both Elo protocols in its glossary", async () => {
  const { report } = await hostileReport("glossary-1");
  const glossary =
    renderReportHtml(report).match(/<section class="glossary">[\s\S]*?<\/section>/)![0];
  for (
    const term of [
      "MRR@5, retrieved (≥1 / =2)",
      "kept MRR (≥1 / =2)",
      "Elo (both orders)",
      "Elo (first order)",
      "tie rate",
      "win rate",
    ]
  ) {
    assert.ok(glossary.includes(`<dt>${term}</dt>`), term);
  }
});

Deno.test("the terminal summary opens with the report's verdict", async () => {
  const { report } = await hostileReport("summary-verdict");
  const verdict = verdictOf(report);
  const first = summaryText(report).split("\n")[0]!;
  assert.match(first, /^verdict: /);
  if (verdict.ship) assert.ok(first.includes(`ship ${verdict.ship}`), first);
  const clear = verdict.certainty === "clear";
  assert.equal(first.includes("not enough evidence"), !clear && verdict.ship !== null, first);
});

/**
 * The HTML report in a real browser: Debian's headless `chromium` parses it
 * (`--dump-dom`: the charts are SVG elements with a point per variant, and
 * no injected markup became an element) and paints it (`--screenshot`: each
 * variant's colour is on screen, so the charts were drawn, not just parsed).
 * Its layout is measured too: the page carries no script (its CSP forbids
 * one), so the test measures a copy with a measuring script added, whose
 * findings `--dump-dom` reads back.
 */
import assert from "node:assert/strict";
import { readConfig } from "../../shared/config.ts";
import { fakeSteps } from "../helpers/eval_fakes.ts";
import { colorOf } from "../../functions/evaluate/report/escape.ts";
import { renderReportHtml } from "../../functions/evaluate/report/html.ts";
import { runEvaluation } from "../../functions/evaluate/run.ts";
import { Runtime } from "../../compose/runtime.ts";

const CHROMIUM = Deno.env.get("CHROMIUM") ?? "/usr/bin/chromium";
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();
if (!hasChromium) {
  if (Deno.env.get("CI")) {
    throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);
  }
  console.warn(`report_chromium_test skipped: no ${CHROMIUM} (apt-get install chromium)`);
}

const VARIANTS = ["none", "one-turn", "two-turn"];
/** Every reranker: enough points to crowd the charts. */
const ALL_VARIANTS = ["none", "one-turn", "two-turn", "item", "tot"];

async function chromium(profile: string, ...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(CHROMIUM, {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
      ...args,
    ],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(90_000),
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return new TextDecoder().decode(stdout);
}

/** The decoded pixels of an 8-bit RGB or RGBA, non-interlaced PNG (what chromium writes). */
async function readPng(bytes: Uint8Array<ArrayBuffer>) {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  const channels = bytes[25] === 6 ? 4 : 3;
  assert.ok(
    bytes[24] === 8 && (bytes[25] === 2 || bytes[25] === 6) && bytes[28] === 0,
    "8-bit RGB(A)",
  );
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = view.getUint32(at);
    if (new TextDecoder().decode(bytes.subarray(at + 4, at + 8)) === "IDAT") {
      chunks.push(bytes.subarray(at + 8, at + 8 + length));
    }
    at += 12 + length;
  }
  const inflated = new Uint8Array(
    await new Response(new Blob(chunks).stream().pipeThrough(new DecompressionStream("deflate")))
      .arrayBuffer(),
  );
  const stride = width * channels;
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = inflated[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const raw = inflated[y * (stride + 1) + 1 + x]!;
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const corner = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0;
      const p = left + up - corner;
      const paeth = [left, up, corner].map((v) => Math.abs(p - v));
      const predictor = [
        0,
        left,
        up,
        (left + up) >> 1,
        paeth[0]! <= paeth[1]! && paeth[0]! <= paeth[2]!
          ? left
          : paeth[1]! <= paeth[2]!
          ? up
          : corner,
      ][filter]!;
      pixels[y * stride + x] = (raw + predictor) & 0xff;
    }
  }
  const count = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    let found = 0;
    for (let i = 0; i < pixels.length; i += channels) {
      if (pixels[i] === r && pixels[i + 1] === g && pixels[i + 2] === b) found++;
    }
    return found;
  };
  return { width, height, count };
}

Deno.test({
  name:
    "headless chromium renders the report's charts with a point per variant and no injected markup",
  ignore: !hasChromium,
  async fn() {
    const directory = await Deno.makeTempDir();
    try {
      const deps = new Runtime().deps(readConfig({}));
      const hostile = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;
      const report = await runEvaluation(deps, {
        dataset: {
          name: "chromium",
          questions: ["one", "two", "three", "four"].map((word, i) => ({
            id: `q${i}`,
            question: `Question ${word} ${hostile}?`,
            reference_answer: `Answer ${word}.`,
            target_doc: "doc-a",
          })),
        },
        variants: VARIANTS,
        namespace: "default",
        run_id: "chromium-1",
      }, { steps: fakeSteps({ answerSuffix: hostile }).steps });
      const page = `${directory}/report.html`;
      await Deno.writeTextFile(page, renderReportHtml(report));

      const dom = await chromium(`${directory}/profile`, "--dump-dom", `file://${page}`);
      for (const id of ["chart-precision-similarity", "chart-quality-speed", "chart-elo"]) {
        const svg = dom.match(new RegExp(`<svg[^>]*id="${id}"[\\s\\S]*?</svg>`))?.[0];
        assert.ok(svg, `${id} is not in the rendered DOM`);
        assert.equal(
          svg.match(/<circle /g)?.length,
          VARIANTS.length,
          `${id}: a circle per variant`,
        );
        for (const name of VARIANTS) {
          assert.ok(svg.includes(`data-variant="${name}"`), `${id}: ${name}`);
        }
      }
      assert.match(dom, /<table class="heatmap">/);
      assert.ok(!/<img|<script/i.test(dom), "answers stayed text");

      const shot = `${directory}/report.png`;
      await chromium(
        `${directory}/profile`,
        "--window-size=1280,2400",
        "--hide-scrollbars",
        `--screenshot=${shot}`,
        `file://${page}`,
      );
      const png = await readPng(await Deno.readFile(shot));
      assert.equal(png.width, 1280);
      VARIANTS.forEach((name, index) => {
        const pixels = png.count(colorOf(index));
        assert.ok(pixels > 150, `${name}'s colour ${colorOf(index)} covers only ${pixels} pixels`);
      });
    } finally {
      await Deno.remove(directory, { recursive: true });
    }
  },
});

/** Runs in the page: label boxes per chart, the frontiers, and each table against its card. */
const MEASURE = `
const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
const charts = [...document.querySelectorAll("svg.chart")].map((svg) => ({
  id: svg.id,
  frame: box(svg),
  labels: [...svg.querySelectorAll("g.point text.label")].map((t) => ({ text: t.textContent, ...box(t) })),
  frontier: [...svg.querySelectorAll(".frontier")].map((f) => ({
    variants: f.getAttribute("data-variants"), tag: f.tagName,
    length: f.getTotalLength(), dash: getComputedStyle(f).strokeDasharray,
  })),
}));
const tables = [...document.querySelectorAll("table")].map((table) => {
  const card = table.parentElement.closest("section, .card, details");
  const wrapper = table.parentElement.classList.contains("table-scroll") ? table.parentElement : null;
  const inner = card.getBoundingClientRect().right - parseFloat(getComputedStyle(card).paddingRight) -
    parseFloat(getComputedStyle(card).borderRightWidth);
  return {
    table: table.className,
    tableRight: table.getBoundingClientRect().right,
    cardRight: inner,
    wrapperRight: wrapper ? wrapper.getBoundingClientRect().right : null,
    scrolls: wrapper ? ["auto", "scroll"].includes(getComputedStyle(wrapper).overflowX) : false,
    overflowing: wrapper ? wrapper.scrollWidth > wrapper.clientWidth : false,
  };
});
const out = document.createElement("pre");
out.id = "measured";
out.textContent = JSON.stringify({ charts, tables });
document.body.append(out);
`;

type Box = { left: number; right: number; top: number; bottom: number };
type Measured = {
  charts: {
    id: string;
    frame: Box;
    labels: (Box & { text: string })[];
    frontier: { variants: string; tag: string; length: number; dash: string }[];
  }[];
  tables: {
    table: string;
    tableRight: number;
    cardRight: number;
    wrapperRight: number | null;
    scrolls: boolean;
    overflowing: boolean;
  }[];
};

/** The page as chromium lays it out `width` px wide, measured by `MEASURE`. */
async function measure(directory: string, html: string, width = 1280): Promise<Measured> {
  const page = `${directory}/measured.html`;
  const withScript = html
    .replace("default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';")
    .replace("</main></body>", `</main><script>${MEASURE}</script></body>`);
  assert.notEqual(withScript, html, "the measuring script went in");
  await Deno.writeTextFile(page, withScript);
  const dom = await chromium(
    `${directory}/profile`,
    `--window-size=${width},1600`,
    "--dump-dom",
    `file://${page}`,
  );
  const json = dom.match(/<pre id="measured">([\s\S]*?)<\/pre>/)?.[1];
  assert.ok(json, "the measuring script ran");
  const text = json.replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
  return JSON.parse(text) as Measured;
}

const overlapping = (a: Box, b: Box) =>
  a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 &&
  b.top < a.bottom - 0.5;

function assertLayout(measured: Measured, variants: string[]) {
  const scatter = measured.charts.filter((chart) => chart.labels.length > 0);
  assert.deepEqual(
    scatter.map((chart) => chart.id).sort(),
    ["chart-precision-similarity", "chart-quality-cost", "chart-quality-speed"],
  );
  for (const chart of scatter) {
    assert.equal(chart.labels.length, variants.length, `${chart.id}: a label per variant`);
    chart.labels.forEach((a, i) => {
      assert.ok(
        a.left >= chart.frame.left && a.right <= chart.frame.right &&
          a.top >= chart.frame.top && a.bottom <= chart.frame.bottom,
        `${chart.id}: ${a.text} stays inside the chart`,
      );
      chart.labels.slice(i + 1).forEach((b) =>
        assert.ok(!overlapping(a, b), `${chart.id}: ${a.text} and ${b.text} overlap`)
      );
    });
  }
  for (const id of ["chart-quality-speed", "chart-quality-cost"]) {
    const [frontier] = measured.charts.find((chart) => chart.id === id)!.frontier;
    assert.ok(frontier, `${id}: the frontier is drawn`);
    if (frontier.tag === "polyline") {
      assert.ok(frontier.length > 0, `${id}: the frontier has length`);
      assert.ok(frontier.variants.split(" ").length > 1);
    }
    assert.notEqual(frontier.dash, "none", `${id}: the frontier is dashed`);
  }
  assert.ok(measured.tables.length >= 4);
  for (const table of measured.tables) {
    const fits = table.tableRight <= table.cardRight + 0.5;
    const scrolls = table.scrolls && table.wrapperRight !== null &&
      table.wrapperRight <= table.cardRight + 0.5;
    assert.ok(
      fits || scrolls,
      `table ${table.table} spills out of its card: ${JSON.stringify(table)}`,
    );
  }
}

Deno.test({
  name:
    "headless chromium lays the report out with no overlapping labels, dashed frontiers and no table out of its card",
  ignore: !hasChromium,
  async fn() {
    const directory = await Deno.makeTempDir();
    try {
      const deps = new Runtime().deps(readConfig({}));
      const report = await runEvaluation(deps, {
        dataset: {
          name: "crowded",
          questions: ["one", "two", "three", "four", "five"].map((word, i) => ({
            id: `q${i}`,
            question: `Question ${word}?`,
            reference_answer: `Answer ${word}.`,
            target_doc: "doc-a",
          })),
        },
        variants: ALL_VARIANTS,
        namespace: "default",
        run_id: "crowded-1",
      }, { steps: fakeSteps().steps });
      const natural = await measure(directory, renderReportHtml(report));
      assertLayout(natural, ALL_VARIANTS);
      // Every point on one spot at the axis' edge: the labels must still part.
      for (const summary of report.summary) {
        summary.retrieval_precision = { mean: 1, ci_low: 1, ci_high: 1, n: 5 };
        summary.answer_similarity = { mean: 2.5, ci_low: 2, ci_high: 3, n: 5 };
        summary.system_quality = 0.5;
        summary.speed_chars_per_second = 1000;
      }
      const crowded = await measure(directory, renderReportHtml(report));
      assertLayout(crowded, ALL_VARIANTS);
      const speed = crowded.charts.find((chart) => chart.id === "chart-quality-speed")!;
      assert.equal(speed.frontier[0]!.variants.split(" ").length, ALL_VARIANTS.length);
      // The per-variant aggregates, once one table cut off at 1,200 px, fit there in two.
      const narrow = await measure(directory, renderReportHtml(report), 1200);
      assertLayout(narrow, ALL_VARIANTS);
      const summaries = narrow.tables.filter((table) => table.table.split(" ").includes("summary"));
      assert.equal(summaries.length, 2);
      for (const table of summaries) {
        assert.ok(table.scrolls, `${table.table} sits in a scrolling wrapper for narrower windows`);
        assert.ok(
          !table.overflowing,
          `${table.table} is cut off at 1,200 px: ${JSON.stringify(table)}`,
        );
      }
    } finally {
      await Deno.remove(directory, { recursive: true });
    }
  },
});

/**
 * The HTML report in a real browser: Debian's headless `chromium` parses it
 * (`--dump-dom`: the charts are SVG elements with a point per variant, and
 * no injected markup became an element) and paints it (`--screenshot`: each
 * variant's colour is on screen, so the charts were drawn, not just parsed).
 */
import assert from "node:assert/strict";
import { readConfig } from "../../shared/config.ts";
import { fakeSteps } from "../helpers/eval_fakes.ts";
import { colorOf } from "../../functions/evaluate/report/escape.ts";
import { renderReportHtml } from "../../functions/evaluate/report/html.ts";
import { runEvaluation } from "../../functions/evaluate/run.ts";
import { Runtime } from "../../shared/runtime.ts";

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
        "--window-size=1280,1600",
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

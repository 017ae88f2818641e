/**
 * The console (`GET /`) in Debian's headless `chromium`, driven through
 * puppeteer-core against a real `main.ts`, as a new user would use it: a
 * two-turn question, a comparison, a pasted document found again. Every
 * request the browser makes is logged, and none may leave this server.
 */
import assert from "node:assert/strict";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { startService } from "./service.ts";

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
  console.warn(`console_test skipped: no ${CHROMIUM} (apt-get install chromium)`);
}

async function launch(profile: string): Promise<Browser> {
  return await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    pipe: true,
    userDataDir: profile,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

const number = (text: string | null | undefined) => Number((text ?? "").trim());

/** The first reranked card's numbers as the page shows them: relevance, each score × weight, final. */
function firstBreakdown(page: Page) {
  return page.$eval("#ask-run article.passage", (card) => ({
    relevance: card.querySelector(".relevance-score")?.textContent,
    criteria: [...card.querySelectorAll(".criterion-line")].map((line) => ({
      score: line.querySelector(".criterion-score")?.textContent,
      weight: line.querySelector(".criterion-weight")?.textContent,
    })),
    final: card.querySelector(".final-score")?.textContent,
  }));
}

Deno.test({
  name:
    "the console asks with two-turn reranking, compares, ingests and finds, all on its own host",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const directory = await Deno.makeTempDir({ prefix: "sift-console-" });
    await using service = await startService({ SIFT_DATA_DIR: `${directory}/data` });
    const browser = await launch(`${directory}/profile`);
    try {
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on("request", (request) => void requested.push(request.url()));
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => void pageErrors.push(String(error)));
      page.on("console", (message) => {
        if (message.type() === "error") pageErrors.push(message.text());
      });
      await page.setViewport({ width: 1440, height: 1000 });
      await page.goto(`${service.url}/`, { waitUntil: "load" });
      assert.equal(await page.title(), "sift console");
      await page.waitForNetworkIdle();
      assert.equal(await page.$eval("#key-form", (form) => form.hidden), true, "no key needed");

      // The question box suggests a question and holds none: typing starts from empty.
      const box = await page.$eval("#ask-form [name=query]", (node) => {
        const area = node as unknown as { value: string; placeholder: string };
        return { value: area.value, placeholder: area.placeholder };
      });
      assert.deepEqual(box, { value: "", placeholder: "What is reciprocal rank fusion?" });
      // Ask: the demo question, typed as a person would, two-turn reranking.
      await page.select("#ask-form [name=strategy]", "two-turn");
      await page.type("#ask-form [name=query]", "What is reciprocal rank fusion?", { delay: 0 });
      await page.click("#ask-form button.primary");
      await page.waitForSelector("#ask-run .timeline-part", { timeout: 60_000 });
      assert.ok((await page.$$("#ask-run .rubric tr.criterion")).length > 0, "rubric criteria");
      assert.ok(await page.$("#ask-run .moved svg line"), "lines from retrieved to reranked");

      const shown = await firstBreakdown(page);
      assert.ok(shown.criteria.length > 0, "criteria in the breakdown");
      const sum = shown.criteria.reduce(
        (total, line) => total + number(line.weight) * number(line.score),
        number(shown.relevance),
      );
      assert.ok(
        Math.abs(sum - number(shown.final)) < 0.01,
        `${JSON.stringify(shown)} sums to ${sum}`,
      );
      const rubricWeights = await page.$$eval(
        "#ask-run .rubric td.weight",
        (cells) => cells.map((cell) => cell.textContent),
      );
      assert.deepEqual(shown.criteria.map((line) => line.weight).sort(), rubricWeights.sort());

      const answer = await page.$eval("#ask-run .answer", (node) => node.textContent ?? "");
      assert.match(answer, /\[1\]/, answer);
      await page.click("#ask-run a.cite");
      // The page's own globals, in a string: this file is type-checked without the DOM library.
      const highlighted = await page.evaluate(`(() => {
        const target = document.querySelector(document.querySelector("#ask-run a.cite").hash);
        return { marked: target.classList.contains("hl"), focused: document.activeElement === target };
      })()`);
      assert.deepEqual(highlighted, { marked: true, focused: true });

      // 360 px wide, then 1440: the screenshots a person looks at.
      await page.setViewport({ width: 360, height: 1400 });
      const narrow = `${directory}/console-360.png`;
      await page.screenshot({ path: narrow, fullPage: false });
      await page.setViewport({ width: 1440, height: 1000 });
      const wide = `${directory}/console-1440.png`;
      await page.screenshot({ path: wide, fullPage: true });

      // Compare: no rerank against two-turn, with a line per passage.
      await page.click("#tab-compare");
      await page.type("#compare-form [name=query]", "What is reciprocal rank fusion?", {
        delay: 0,
      });
      await page.click("#compare-form button.primary");
      await page.waitForSelector("#compare-moves svg line", { timeout: 60_000 });
      // A (no rerank) keeps its first three; each gets a line, to B's place or to "dropped".
      const lines = await page.$$eval(
        "#compare-moves line",
        (all) => all.map((line) => line.getAttribute("data-to")),
      );
      assert.equal(lines.length, 3, lines.join());
      assert.ok(lines.some((to) => to !== "dropped"), lines.join());
      for (const side of ["#compare-a", "#compare-b"]) {
        assert.ok(await page.$(`${side} .answer`), `${side} answered`);
      }
      assert.ok(await page.$("#compare-b article.passage"), "B shows its reranked passages");
      const wideCompare = `${directory}/console-compare-1440.png`;
      await page.screenshot({ path: wideCompare, fullPage: true });

      // Documents: paste, ingest, find.
      await page.click("#tab-documents");
      await page.type("#documents-form [name=namespace]", "-console", { delay: 0 });
      await page.type("#documents-form [name=id]", "quokka-note");
      await page.type("#documents-form [name=title]", "Quokkas");
      await page.type(
        "#documents-form [name=text]",
        "Quokkas are small marsupials that live on Rottnest Island near Perth.",
      );
      await page.click("#documents-form button.primary");
      await page.waitForSelector("#documents-result .ingested", { timeout: 30_000 });
      const ingested = await page.$eval("#documents-result", (node) => node.textContent ?? "");
      assert.match(ingested, /quokka-note\s*1/);
      await page.type("#search-form [name=namespace]", "-console");
      await page.type("#search-form [name=query]", "marsupials on Rottnest Island");
      await page.click("#search-form button");
      await page.waitForSelector("#search-result .found li", { timeout: 30_000 });
      const found = await page.$eval("#search-result li", (node) => node.getAttribute("data-id"));
      assert.equal(found, "quokka-note#0");

      // Files go as they are: a PDF is read by sift, a PNG named .txt is refused, saying why.
      const fileInput = await page.$("#documents-form [name=file]");
      // deno-lint-ignore no-explicit-any
      await (fileInput as any).uploadFile(
        new URL("../fixtures/documents/newsletter.pdf", import.meta.url).pathname,
      );
      await page.click("#documents-form button.primary");
      await page.waitForFunction(
        '/newsletter\\s*\\d/.test(document.querySelector("#documents-result").textContent)',
        { timeout: 30_000 },
      );
      // deno-lint-ignore no-explicit-any
      await (fileInput as any).uploadFile(
        new URL("../fixtures/documents/photo.txt", import.meta.url).pathname,
      );
      await page.click("#documents-form button.primary");
      await page.waitForSelector("#documents-result .error", { timeout: 30_000 });
      const refused = await page.$eval("#documents-result", (node) => node.textContent ?? "");
      assert.match(refused, /photo\.txt: is a PNG image, not text/);
      // The browser logs the refusal's 415 as a failed load: expected here, and only here.
      const expected = pageErrors.findIndex((text) => /status of 415/.test(text));
      assert.ok(expected !== -1, pageErrors.join("\n"));
      pageErrors.splice(expected, 1);

      const foreign = requested.filter((url) => !url.startsWith(`${service.url}/`));
      assert.deepEqual(foreign, [], "requests to another host");
      assert.ok(requested.some((url) => url.endsWith("/v1/query")));
      assert.deepEqual(pageErrors, []);
      console.log(`screenshots:\n  ${narrow}\n  ${wide}\n  ${wideCompare}`);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "with API_KEYS the console asks for a key and keeps it in session storage only",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const directory = await Deno.makeTempDir({ prefix: "sift-console-key-" });
    try {
      await using service = await startService({
        SIFT_DATA_DIR: `${directory}/data`,
        API_KEYS: "console-key",
      });
      const browser = await launch(`${directory}/profile`);
      try {
        const page = await browser.newPage();
        await page.goto(`${service.url}/`, { waitUntil: "load" });
        await page.waitForSelector("#key-form:not([hidden])");
        await page.type("#key-form [name=key]", "console-key");
        await page.keyboard.press("Enter");
        await page.waitForSelector("#key-form", { hidden: true });
        await page.select("#ask-form [name=strategy]", "");
        await page.type("#ask-form [name=query]", "What is sift?", { delay: 0 });
        await page.click("#ask-form button.primary");
        await page.waitForSelector("#ask-run .timeline-part", { timeout: 60_000 });
        assert.equal(await page.$("#ask-run .error"), null);
        const stored = await page.evaluate(
          `[sessionStorage.getItem("sift-api-key"), localStorage.length, document.cookie]`,
        );
        assert.deepEqual(stored, ["console-key", 0, ""]);
      } finally {
        await browser.close();
      }
    } finally {
      await Deno.remove(directory, { recursive: true });
    }
  },
});

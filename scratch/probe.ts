import { createSiftApp } from "../app.ts";
import { indexLogIn } from "../shared/deno/data-dir.ts";
const lines = (await Deno.readTextFile("../shared/datasets/aragog/corpus.jsonl")).split("\n")
  .filter(Boolean).map((l) => JSON.parse(l));
const words = lines.map((d) => d.text ?? d.content ?? "").join(" ").split(/\s+/);
const N = Number(Deno.args[0] ?? 20000);
const dir = await Deno.makeTempDir();
const app = createSiftApp({ log: indexLogIn(dir) });
const env = { DEMO_CORPUS: "false" };
const post = (path: string, body: unknown) =>
  app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }, env);
let seed = 1;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const doc = (i: number) => {
  const start = Math.floor(rnd() * (words.length - 300));
  return {
    id: `s${i}`,
    title: `Synthetic ${i % 50}`,
    text: words.slice(start, start + 250).join(" "),
  };
};
const times: number[] = [];
for (let b = 0; b < N / 100; b++) {
  const t = performance.now();
  const r = await post("/v1/documents", {
    documents: Array.from({ length: 100 }, (_, i) => doc(b * 100 + i)),
  });
  if (r.status !== 201) throw new Error(await r.text());
  await r.body?.cancel();
  times.push(performance.now() - t);
}
const tenth = Math.max(1, Math.floor(times.length / 10));
const avg = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
console.log(
  `ingest ${N}: total ${(avg(times) * times.length / 1000).toFixed(1)}s, first tenth ${
    avg(times.slice(0, tenth)).toFixed(0)
  }ms/batch, last ${avg(times.slice(-tenth)).toFixed(0)}ms/batch`,
);
console.log(
  "rss MB",
  (Deno.memoryUsage().rss / 1e6).toFixed(0),
  "log MB",
  (Deno.statSync(`${dir}/index.log`).size / 1e6).toFixed(0),
);
for (const mode of ["dense", "sparse", "hybrid"]) {
  const ts: number[] = [];
  for (let q = 0; q < 30; q++) {
    const t = performance.now();
    const r = await post("/v1/search", {
      query: words.slice(q * 37, q * 37 + 8).join(" "),
      mode,
      top_k: 10,
    });
    await r.json();
    ts.push(performance.now() - t);
  }
  ts.sort((a, b) => a - b);
  console.log(mode, "p50", ts[15]!.toFixed(1), "p95", ts[28]!.toFixed(1));
}
const t0 = performance.now();
const app2 = createSiftApp({ log: indexLogIn(dir) });
const r2 = await app2.request("/v1/search", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ query: "bert", top_k: 5 }),
}, env);
await r2.json();
console.log(
  "reload + first search ms",
  (performance.now() - t0).toFixed(0),
  "rss MB",
  (Deno.memoryUsage().rss / 1e6).toFixed(0),
);
await Deno.remove(dir, { recursive: true });

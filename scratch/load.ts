import { decodeRecords } from "../shared/vector/local/record.ts";
import { NamespaceIndex } from "../shared/vector/local/namespace.ts";
import { createSiftApp } from "../app.ts";
import { indexLogIn } from "../shared/deno/data-dir.ts";
const lines = (await Deno.readTextFile("../shared/datasets/aragog/corpus.jsonl")).split("\n")
  .filter(Boolean).map((l) => JSON.parse(l));
const words = lines.map((d) => d.text ?? d.content ?? "").join(" ").split(/\s+/);
const dir = await Deno.makeTempDir();
const app = createSiftApp({ log: indexLogIn(dir) });
const env = { DEMO_CORPUS: "false" };
let seed = 1;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
for (let b = 0; b < 100; b++) {
  const documents = Array.from({ length: 100 }, (_, i) => {
    const s = Math.floor(rnd() * (words.length - 300));
    return { id: `s${b}-${i}`, text: words.slice(s, s + 250).join(" ") };
  });
  const r = await app.request("/v1/documents", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ documents }),
  }, env);
  await r.body?.cancel();
}
(globalThis as any).gc?.();
console.log(
  "heapUsed MB after 10k",
  (Deno.memoryUsage().heapUsed / 1e6).toFixed(0),
  "rss",
  (Deno.memoryUsage().rss / 1e6).toFixed(0),
);
let t = performance.now();
const bytes = await Deno.readFile(`${dir}/index.log`);
console.log("read ms", (performance.now() - t).toFixed(0), "MB", (bytes.length / 1e6).toFixed(1));
t = performance.now();
const { records } = decodeRecords(bytes);
console.log("decode ms", (performance.now() - t).toFixed(0));
t = performance.now();
NamespaceIndex.build(records.flatMap((r) => r.put));
console.log("put ms", (performance.now() - t).toFixed(0));
{
  const chunks = records.flatMap((r) => r.put);
  let t2 = performance.now();
  const m = new Map<string, number>();
  let k = 0;
  for (const c of chunks) for (const term of c.terms) if (!m.has(term)) m.set(term, k++);
  console.log("term map only ms", (performance.now() - t2).toFixed(0), m.size);
  t2 = performance.now();
  const arrs: number[][] = [];
  for (let s = 0; s < chunks.length; s++) {
    const c = chunks[s]!;
    for (let i = 0; i < c.dims.length; i++) (arrs[c.dims[i]!] ??= []).push(s, c.values[i]!);
  }
  console.log("dims push plain arrays ms", (performance.now() - t2).toFixed(0));
  t2 = performance.now();
  let n = 0;
  for (const c of chunks) n += c.terms.length + c.dims.length;
  console.log("entries", n, (performance.now() - t2).toFixed(0));
}
await Deno.remove(dir, { recursive: true });

import { decodeRecords } from "../shared/vector/local/record.ts";
import { NamespaceIndex } from "../shared/vector/local/namespace.ts";
import { createSiftApp } from "../app.ts";
import { indexLogIn } from "../shared/deno/data-dir.ts";
const dir = "/tmp/buildprobe";
try {
  Deno.statSync(`${dir}/index.log`);
} catch {
  await Deno.mkdir(dir, { recursive: true });
  const lines = (await Deno.readTextFile("../shared/datasets/aragog/corpus.jsonl")).split("\n")
    .filter(Boolean).map((l) => JSON.parse(l));
  const words = lines.map((d) => d.text ?? d.content ?? "").join(" ").split(/\s+/);
  const app = createSiftApp({ log: indexLogIn(dir) });
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
    }, { DEMO_CORPUS: "false" });
    await r.body?.cancel();
  }
}
const bytes = await Deno.readFile(`${dir}/index.log`);
for (let k = 0; k < 3; k++) {
  let t = performance.now();
  const { records } = decodeRecords(bytes);
  const d = performance.now() - t;
  t = performance.now();
  NamespaceIndex.build(records.flatMap((r) => r.put));
  console.log("decode", d.toFixed(0), "build", (performance.now() - t).toFixed(0));
}

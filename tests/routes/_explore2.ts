import { createSiftApp } from "../../app.ts";
const env = { DEMO_CORPUS: "false" };
const app = createSiftApp();
const post = (p: string, b: unknown) => app.request(p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(b) }, env);
for (const body of [{ input: "rank fusion" }, { input: "rank fusion", encoding_format: "base64" }, { input: "rank fusion", dimensions: 64 }]) {
  const r = await post("/v1/embeddings", body);
  const j = await r.json();
  const e = j.data[0].embedding;
  console.log(r.status, typeof e, Array.isArray(e), e.length, JSON.stringify(e).slice(0, 200));
}

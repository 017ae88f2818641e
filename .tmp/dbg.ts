import { readDataset } from "/work/wt/22b/scripts/retrieval-eval.ts";
import { windowChunks } from "/work/wt/22b/scripts/chunking-eval.ts";
import { chunkDocuments } from "/work/wt/22b/shared/documents/ingest.ts";
import { LocalIndex } from "/work/wt/22b/shared/vector/local.ts";
import { hashedEmbedding } from "/work/wt/22b/shared/embeddings/hashed.ts";
import { searchableText } from "/work/wt/22b/shared/vector/port.ts";
import { countTokens } from "/work/wt/22b/shared/text/tokenize.ts";
const ds = await readDataset("/work/wt/shared/datasets/aragog");
const chunking = { size: 400, overlap: 50 };
const sets = { windows: windowChunks(ds.documents, chunking), structure: (await chunkDocuments(ds.documents, chunking)).flatMap(d => d.chunks) };
const res: Record<string, Map<string,string[]>> = {};
for (const [name, drafts] of Object.entries(sets)) {
  const toks = drafts.map(d => countTokens(d.text)); toks.sort((a,b)=>a-b);
  console.log(name, drafts.length, "median tokens", toks[toks.length>>1], "p10", toks[Math.floor(toks.length*0.1)], "mean", toks.reduce((a,b)=>a+b)/toks.length);
  const index = new LocalIndex();
  await index.upsert(drafts.map(d => ({...d, vector: hashedEmbedding(searchableText(d), 2048)})), {namespace:"n"});
  const m = new Map<string,string[]>();
  for (const q of ds.questions.filter(q=>q.target_doc)) {
    const top = await index.query({text:q.question, mode:"sparse", topK:5, namespace:"n"});
    m.set(q.id, top.map(h=>h.doc_id));
  }
  res[name]=m;
}
for (const q of ds.questions.filter(q=>q.target_doc)) {
  const w = res.windows!.get(q.id)!, s = res.structure!.get(q.id)!;
  const rw = w.indexOf(q.target_doc!), rs = s.indexOf(q.target_doc!);
  if (rw !== rs) console.log(q.id, q.target_doc, "win", rw, "struct", rs, q.question);
}

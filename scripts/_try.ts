import { parsePdf } from "../functions/embed/parsers/pdf.ts";
const limits = { maxBytes: 1e8, maxPdfPages: 100, maxExpandedBytes: 1e8 };
for (const f of Deno.args) {
  try {
    const doc = await parsePdf(await Deno.readFile(f), f, limits);
    console.log("TITLE", doc.title);
    for (const b of doc.blocks) console.log(`--- p${b.page} ${b.kind} [${b.section.join(" > ")}]\n${b.text}`);
  } catch (e) { console.log("ERR", (e as Error).message); }
}

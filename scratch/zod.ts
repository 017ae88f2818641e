import { decodeRecords } from "../shared/vector/local/record.ts";
const bytes = await Deno.readFile("/tmp/buildprobe/index.log");
for (let k = 0; k < 3; k++) {
  const t = performance.now();
  decodeRecords(bytes);
  console.log("decode", (performance.now() - t).toFixed(0));
}

/** A worker of `deno task ingest --bulk`: `linesToPiece` over the pool's messages. */
import { serveInWorker } from "../lib/vector-index/deno/mod.ts";
import { linesToPiece } from "./bulk-lines.ts";

serveInWorker(linesToPiece, (output) => [output.frame.buffer as ArrayBuffer]);

import { createServer } from "../../compose/server.ts";
import type { Runtime } from "../../compose/runtime.ts";
import { mountEmbed } from "./app.ts";

/** Ingest (`/v1/documents`) and OpenAI-compatible embeddings (`/v1/embeddings`), as a server of its own. */
export function createEmbedServer(runtime: Runtime) {
  return createServer({ runtime, mounts: [mountEmbed], serves: ["EMBED"], demoCorpus: true });
}

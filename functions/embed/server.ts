import { createServer } from "../../shared/http/server.ts";
import type { Runtime } from "../../shared/runtime.ts";
import { mountEmbed } from "./app.ts";

/** Ingest (`/v1/documents`) and OpenAI-compatible embeddings (`/v1/embeddings`), as a server of its own. */
export function createEmbedServer(runtime: Runtime) {
  return createServer({ runtime, mounts: [mountEmbed], serves: ["EMBED"], demoCorpus: true });
}

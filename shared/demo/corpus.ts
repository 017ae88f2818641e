import type { DocumentInput } from "../documents/ingest.ts";

/**
 * sift's own documentation, loaded into an empty local index so a fresh
 * `deno task start` can answer questions before anything is ingested.
 */
export const DEMO_CORPUS: DocumentInput[] = [
  {
    id: "sift-overview",
    title: "What sift is",
    published: "2026-11-22",
    authors: "sift team",
    text:
      "sift is a retrieval-augmented generation service that ranks passages by more than relevance. " +
      "It is built as small TypeScript functions (embed, fuse, answer and an orchestrator) that run on " +
      "Deno and on Cloudflare Workers from the same code. An application sends a question to POST /v1/query " +
      "and receives a streamed answer with numbered citations such as [1] that point at the retrieved passages.",
  },
  {
    id: "sift-retrieval",
    title: "Retrieval modes: dense, sparse and hybrid",
    published: "2026-11-22",
    authors: "sift team",
    text:
      "sift retrieves chunks in three modes. Dense retrieval compares embedding vectors by cosine similarity. " +
      "Sparse retrieval scores chunks with Okapi BM25 over their terms. Hybrid retrieval, the default, runs both " +
      "and merges the two rankings with reciprocal rank fusion, so a chunk found by both methods rises to the top. " +
      "Documents are cut into overlapping token windows (512 tokens with 64 overlapping by default) before embedding.",
  },
  {
    id: "sift-fusion",
    title: "RAG-Fusion and reciprocal rank fusion",
    published: "2026-11-22",
    authors: "sift team",
    text:
      "RAG-Fusion asks the language model to write several variations of the user's question (four by default), " +
      "retrieves passages for the original question and every variation in parallel, and fuses the rankings with " +
      "reciprocal rank fusion. Each passage scores the sum over queries of the query weight divided by k plus its " +
      "rank, with ranks counted from 1 and k equal to 60. POST /v1/fuse runs it; given plain rankings it fuses them directly.",
  },
  {
    id: "sift-offline",
    title: "Running without an account: the offline model",
    published: "2026-11-22",
    authors: "sift team",
    text:
      "With no LLM_API_KEY and no LLM_BASE_URL, sift uses its offline model: a deterministic heuristic that speaks " +
      "the OpenAI HTTP protocol. It answers extractively by quoting the sentences that best cover the question, " +
      "writes query variations from the question's words, and embeds text with a hashed lexical embedding. " +
      "It never calls the network. Set LLM_API_KEY, or LLM_BASE_URL for any OpenAI-compatible server, to use a real model.",
  },
  {
    id: "sift-storage",
    title: "Where sift keeps documents and cache entries",
    published: "2026-11-22",
    authors: "sift team",
    text:
      "Without Upstash credentials sift keeps its vector index in process and saves a snapshot under the .data " +
      "directory, so ingested documents survive a restart; its cache is an in-memory LRU with a time to live. " +
      "Setting UPSTASH_VECTOR_REST_URL and UPSTASH_VECTOR_REST_TOKEN moves the index to Upstash Vector, and " +
      "UPSTASH_REDIS_REST_URL with UPSTASH_REDIS_REST_TOKEN moves the cache to Upstash Redis.",
  },
  {
    id: "sift-ingest",
    title: "Adding your own documents",
    published: "2026-11-22",
    authors: "sift team",
    text:
      "To add documents, POST them to /v1/documents as a list of objects with text and optional id, title, url, " +
      "published date and authors, or run deno task ingest with a .jsonl, .md or .txt file or a folder. " +
      "Ingesting a document again with the same id replaces its chunks. DELETE /v1/documents/:id removes a document.",
  },
];

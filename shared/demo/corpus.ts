import type { DocumentInput } from "../documents/ingest.ts";

const PUBLISHED = "2026-11-22";
const AUTHORS = "sift team";

/** One demo document: each is short, so it is one chunk and answers one kind of question. */
function page(id: string, title: string, sentences: string[]): DocumentInput {
  return { id, title, published: PUBLISHED, authors: AUTHORS, text: sentences.join(" ") };
}

/**
 * sift's own documentation, loaded into an empty local index so a fresh
 * `deno task start` can answer questions before anything is ingested.
 *
 * The offline model answers extractively: for each question it quotes the
 * shortest sentences that cover the question's terms. So each page opens
 * with the sentence that should answer its question ("What is REBEL?" is
 * answered by the REBEL page's first sentence), and the name of a method
 * appears in other pages only inside longer sentences. The README's sample
 * answers come from these pages; `tests/e2e/readme_demo_test.ts` keeps them
 * equal.
 */
export const DEMO_CORPUS: DocumentInput[] = [
  page("sift-overview", "What sift is", [
    "sift is a retrieval-augmented generation service that ranks passages by more than relevance.",
    "It is built as small TypeScript functions (embed, fuse, generate-rubric, rerank, judge, " +
    "answer, evaluate and an orchestrator) that run on Deno and on Cloudflare Workers from the " +
    "same code.",
    "An application sends a question to POST /v1/query and receives a streamed answer with " +
    "numbered citations such as [1] that point at the retrieved passages.",
  ]),
  page("sift-retrieval", "Retrieval modes: dense, sparse and hybrid", [
    "Retrieval runs in three modes.",
    "Dense retrieval compares embedding vectors by cosine similarity.",
    "Sparse retrieval scores chunks with Okapi BM25 over their terms.",
    "Hybrid retrieval, the default, runs both and merges the two rankings with reciprocal rank " +
    "fusion, so a chunk found by both methods rises to the top.",
    "Documents are cut into overlapping token windows (512 tokens with 64 overlapping by default) " +
    "before embedding.",
  ]),
  page("sift-fusion", "RAG-Fusion and reciprocal rank fusion", [
    "RAG-Fusion asks the language model to write several variations of the user's question (four " +
    "by default), retrieves passages for the original question and every variation in parallel, " +
    "and fuses the rankings with reciprocal rank fusion.",
    "Reciprocal rank fusion merges several rankings into one.",
    "A passage's score is computed as the sum over queries of the query weight divided by k plus " +
    "its rank, with ranks counted from 1 and k equal to 60.",
    "POST /v1/fuse runs it; given plain rankings it fuses them directly.",
  ]),
  page("sift-rerank", "How reranking works: one turn or two", [
    "Reranking works in two turns: the first writes a rubric of criteria for the question alone, " +
    "and the second scores every retrieved passage on that rubric and on relevance, then keeps " +
    "the best three.",
    "The one-turn strategy does both in a single prompt, and the relevance strategy scores " +
    "relevance only.",
    "A passage's final score is its relevance plus the weighted sum of its criterion scores, and a " +
    "passage the model discards is dropped.",
    "POST /v1/rerank takes a strategy, POST /v2/rerank speaks Cohere's rerank protocol, and " +
    "deno task ask --rerank two-turn shows the rubric and the new order.",
  ]),
  page("sift-rebel", "REBEL: reranking beyond relevance", [
    "REBEL is a reranking method that scores passages on criteria beyond relevance.",
    "Its rubric mixes query-specific criteria, which the model writes for each question, with " +
    "secondary criteria that hold for every question: depth, diversity, clarity, authoritativeness " +
    "and recency.",
    "Each criterion is scored from 0 to 5 and, as in all of the paper's experiments, weighs 0.5 " +
    "beside relevance.",
    "POST /v1/rubrics shows the rubric that the REBEL paper's first turn writes for a query.",
  ]),
  page("sift-item", "ITEM: iterative utility judgments", [
    "ITEM is a reranker that judges utility: whether a passage helps answer the question.",
    "It loops: the model drafts an answer from the passages, judges which passages were useful " +
    "to that answer, and repeats until the useful set stops changing or a round limit is reached.",
    'Ask for it by name: strategy "item" on POST /v1/rerank, or model "sift-item" on ' +
    "POST /v2/rerank, where every document comes back with the useful set first.",
  ]),
  page("sift-tot", "ToT-RAG: tree-of-thought screening", [
    "ToT-RAG is a reranker that screens passages as a two-level tree of thoughts.",
    "The first level drops passages of low quality or poor coverage, and the second scores the " +
    "survivors by their similarity to the question, passage by passage or sentence by sentence.",
    "Choose it with strategy tot on POST /v1/rerank or the model sift-tot on POST /v2/rerank.",
  ]),
  page("sift-ragelo", "RAGElo: judges and Elo ratings", [
    "RAGElo compares pipelines with an LLM judge and Elo ratings instead of reference answers.",
    "A retrieval judge grades each passage as not, somewhat or very relevant, and an answer judge " +
    "grades relevance, accuracy, completeness and precision.",
    "A pairwise judge reads two pipelines' answers in both orders, and a win counts only when both " +
    "orders agree; anything else is a tie.",
    "The games then run as an Elo tournament, so each pipeline gets a rating with a bootstrap " +
    "interval.",
  ]),
  page("sift-evaluation", "Evaluating which pipeline to ship", [
    "To evaluate which pipeline to ship, run deno task eval: it answers a set of questions with " +
    "every pipeline variant, judges the answers, and writes a report.",
    "The report gives each variant's judged quality, win rate and Elo rating beside its tokens " +
    "and time, so quality can be weighed against cost and speed.",
    "POST /v1/evaluations runs the same evaluation on the service's job queue.",
  ]),
  page("sift-offline", "Running without an account: the offline model", [
    "With no LLM_API_KEY and no LLM_BASE_URL, an offline model answers: a deterministic heuristic " +
    "that speaks the OpenAI HTTP protocol.",
    "It answers extractively by quoting the sentences that best cover the question, writes query " +
    "variations from the question's words, and embeds text with a hashed lexical embedding.",
    "It never calls the network.",
    "Set LLM_API_KEY, or LLM_BASE_URL for any OpenAI-compatible server, to use a real model.",
  ]),
  page("sift-storage", "Where documents and cache entries are kept", [
    "Without Upstash credentials the vector index lives in process and a snapshot is saved under " +
    "the .data directory, so ingested documents survive a restart; the cache is an in-memory LRU " +
    "with a time to live.",
    "Setting UPSTASH_VECTOR_REST_URL and UPSTASH_VECTOR_REST_TOKEN moves the index to Upstash " +
    "Vector, and UPSTASH_REDIS_REST_URL with UPSTASH_REDIS_REST_TOKEN moves the cache to Upstash " +
    "Redis.",
  ]),
  page("sift-ingest", "Adding your own documents", [
    "To add documents, POST them to /v1/documents as a list of objects with text and optional id, " +
    "title, url, published date and authors, or run deno task ingest with a .jsonl, .md or .txt " +
    "file or a folder.",
    "Ingesting a document again with the same id replaces its chunks.",
    "DELETE /v1/documents/:id removes a document.",
  ]),
];

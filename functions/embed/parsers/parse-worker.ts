/**
 * The parse worker (Deno without `--allow-run`): a thread that reads one file
 * at a time for `parse-pool.ts`, so a long parse never holds the request
 * loop. It shares the server's heap, so it bounds time, not memory: where it
 * can, sift parses in a child process instead (`parse-processes.ts`).
 */
import { type ParseJob, type ParseReply, replyTo } from "./parse-reply.ts";

// A worker's global scope, typed without pulling the worker lib into the project's check.
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ParseJob>) => void) | null;
  postMessage: (reply: ParseReply) => void;
};

scope.onmessage = async ({ data: job }) => {
  scope.postMessage(await replyTo(job));
};

import type { Context } from "hono";
import { abortableSSE } from "../../../shared/http/sse.ts";
import type { ChatOutcome } from "../openai/answer.ts";
import { toOpenAIError } from "../openai/errors.ts";
import type { SearchHit } from "../../../shared/vector/port.ts";
import { fileSearchCallItem } from "./file-search.ts";
import { annotationsOf, messageItem, outputText, type ResponseHead, responseOf } from "./output.ts";

type Emit = (type: string, fields: Record<string, unknown>) => Promise<void>;

/**
 * The Responses API's event stream: each event an `event:` line naming its
 * `type` and a `data:` line of JSON with that `type` and a `sequence_number`
 * counted from 0; no `[DONE]`. `produce` gets a signal that aborts when the
 * client leaves. Validate before calling this: once the stream is open the
 * status is 200, so a failure becomes one `error` event (OpenAI's clients
 * throw it as an `APIError`) and the stream ends.
 */
export function responsesStream(
  c: Context,
  produce: (emit: Emit, signal: AbortSignal) => Promise<void>,
): Response {
  return abortableSSE(c, async (stream, signal) => {
    let sequence = 0;
    const emit: Emit = async (type, fields) => {
      if (signal.aborted) return;
      const data = { type, sequence_number: sequence++, ...fields };
      await stream.writeSSE({ event: type, data: JSON.stringify(data) });
    };
    try {
      await produce(emit, signal);
    } catch (error) {
      if (signal.aborted) return;
      console.error(`${c.req.method} ${c.req.path} stream failed:`, error);
      const { message, code, param } = toOpenAIError(error, { status: 502 }).body.error;
      await emit("error", { code, message, param });
    }
  });
}

/** What the answer's producer reports as it goes: text as it arrives, and file_search's hits. */
export type AnswerHooks = {
  onDelta: (text: string) => Promise<void>;
  onRetrieved: (query: string, hits: readonly SearchHit[]) => Promise<void>;
};

/**
 * One answer's events in the order OpenAI's SDKs expect: the response
 * created and in progress; with `file_search`, its call added, in progress
 * and searching, then (once the stores answered) completed and done; the
 * message and its text part opened, a delta per piece of the answer as
 * `answer` yields it, then each citation, the text, the part and the
 * message done, and the completed response.
 */
export async function streamAnswer(
  emit: Emit,
  head: ResponseHead,
  answer: (hooks: AnswerHooks) => Promise<ChatOutcome>,
): Promise<void> {
  const search = head.fileSearch;
  const index = search ? 1 : 0;
  const at = { item_id: head.messageId, output_index: index, content_index: 0 };
  const openMessage = async () => {
    await emit("response.output_item.added", { output_index: index, item: messageItem(head) });
    await emit("response.content_part.added", { ...at, part: outputText("", []) });
  };
  await emit("response.created", { response: responseOf(head) });
  await emit("response.in_progress", { response: responseOf(head) });
  let searchItem: ReturnType<typeof fileSearchCallItem> | undefined;
  if (search) {
    const call = { item_id: search.callId, output_index: 0 };
    await emit("response.output_item.added", {
      output_index: 0,
      item: fileSearchCallItem(search.callId, { queries: [], include: search.include }),
    });
    await emit("response.file_search_call.in_progress", call);
    await emit("response.file_search_call.searching", call);
  } else {
    await openMessage();
  }
  const outcome = await answer({
    onDelta: (delta) => emit("response.output_text.delta", { ...at, delta, logprobs: [] }),
    onRetrieved: async (query, hits) => {
      if (!search) return;
      searchItem = fileSearchCallItem(search.callId, {
        queries: [query],
        hits,
        include: search.include,
      });
      await emit("response.file_search_call.completed", {
        item_id: search.callId,
        output_index: 0,
      });
      await emit("response.output_item.done", { output_index: 0, item: searchItem });
      await openMessage();
    },
  });
  const annotations = annotationsOf(head, outcome);
  for (const [annotation_index, annotation] of annotations.entries()) {
    await emit("response.output_text.annotation.added", { ...at, annotation_index, annotation });
  }
  const text = outcome.content;
  await emit("response.output_text.done", { ...at, text, logprobs: [] });
  await emit("response.content_part.done", { ...at, part: outputText(text, annotations) });
  await emit("response.output_item.done", {
    output_index: index,
    item: messageItem(head, { text, annotations }),
  });
  await emit("response.completed", { response: responseOf(head, outcome, searchItem) });
}

/**
 * `POST /v1/query` with `fetch`, its server-sent events read as they arrive
 * (so the API key goes in a header: `EventSource` would need it in the URL),
 * each handed to the run's handler for it.
 */
import { errorText, postJson } from "./api.ts";
import { messageOf } from "./dom.ts";
import type { Run } from "./run.ts";
import { EventReader } from "./sse.ts";
import type { QueryEventName, QueryHandlers } from "./wire.ts";

/** Hands an event's data to its handler; an event the page does not know is skipped. */
function dispatch(on: QueryHandlers, name: string, data: string): void {
  if (!Object.hasOwn(on, name)) return;
  (on[name as QueryEventName] as (data: unknown) => void)(JSON.parse(data));
}

/** Runs one query into `run`; a broken or short stream is shown as the run's failure. */
export async function stream(body: unknown, run: Run, signal?: AbortSignal): Promise<void> {
  let response;
  try {
    response = await postJson("/v1/query", body, signal);
  } catch (error) {
    return run.fail("sift could not be reached: " + messageOf(error));
  }
  if (!response.ok) return run.fail(await errorText(response));
  if (!response.body) return run.fail("the query's reply has no body");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const events = new EventReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const event of events.push(value)) dispatch(run.on, event.name, event.data);
    }
  } catch (error) {
    if (signal && signal.aborted) return;
    return run.fail("the connection broke during the " + run.stage + " step: " + messageOf(error));
  }
  if (!run.done) run.fail("the stream ended during the " + run.stage + " step, before it was done");
}

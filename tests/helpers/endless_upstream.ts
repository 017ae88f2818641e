import { createOfflineModel } from "../../providers/offline/model.ts";

/**
 * An OpenAI-compatible upstream on loopback: the offline model, except that a
 * chat completion whose request holds `sentinel` (every one when no sentinel
 * is given) streams a token every 20 ms for 5 s (bounded, so a failing run
 * still ends), recording when its reader goes away.
 */
export function startEndlessUpstream(options: { sentinel?: string } = {}) {
  const offline = createOfflineModel();
  let cancelled: () => void;
  const upstreamCancelled = new Promise<void>((resolve) => (cancelled = resolve));
  let endlessRequests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    if (!new URL(request.url).pathname.endsWith("/chat/completions")) {
      return offline.handle(request);
    }
    const body = await request.text();
    if (options.sentinel && !body.includes(options.sentinel)) {
      return offline.handle(
        new Request(request.url, { method: "POST", headers: request.headers, body }),
      );
    }
    endlessRequests++;
    const encoder = new TextEncoder();
    let timer: ReturnType<typeof setInterval> | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        let sent = 0;
        timer = setInterval(() => {
          if (++sent > 250) {
            clearInterval(timer);
            controller.close();
            return;
          }
          const chunk = {
            id: "c",
            object: "chat.completion.chunk",
            created: 0,
            model: "endless",
            choices: [{ index: 0, delta: { content: "word " }, finish_reason: null }],
          };
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
        }, 20);
      },
      cancel() {
        clearInterval(timer);
        cancelled();
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  });
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    upstreamCancelled,
    endlessRequests: () => endlessRequests,
    close: () => server.shutdown(),
  };
}

/** Resolves to "cancelled" when the upstream's reader leaves, or "timeout" after `ms`. */
export async function cancelledWithin(
  upstream: { upstreamCancelled: Promise<void> },
  ms: number,
): Promise<"cancelled" | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      upstream.upstreamCancelled.then(() => "cancelled" as const),
      new Promise<"timeout">((resolve) => timer = setTimeout(() => resolve("timeout"), ms)),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads an event stream until its first `answer-delta`, then cancels it (the client leaves). */
export async function leaveAfterFirstDelta(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  while (!seen.includes("event: answer-delta")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before any answer-delta: ${seen}`);
    seen += decoder.decode(value);
  }
  // Not awaited: the point is what happens upstream, not when cancel() settles.
  reader.cancel().catch(() => {});
}

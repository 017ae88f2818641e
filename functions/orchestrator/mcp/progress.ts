import type { ToolExtra } from "./context.ts";

/**
 * Sends `notifications/progress` for this call when the client asked for
 * them (gave a `progressToken`), with a count that only goes up; otherwise
 * does nothing. A notification that cannot be sent never fails the call.
 */
export function progressReporter(extra: Pick<ToolExtra, "_meta" | "sendNotification">) {
  const token = extra._meta?.progressToken;
  let progress = 0;
  return async (message: string): Promise<void> => {
    if (token === undefined) return;
    progress += 1;
    await extra.sendNotification({
      method: "notifications/progress",
      params: { progressToken: token, progress, message },
    }).catch(() => {});
  };
}

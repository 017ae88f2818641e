/** Ids of the scheduled evaluation: `nightly-YYYY-MM-DD`. */
export const SCHEDULED_RUN_PREFIX = "nightly-";

/** The scheduled run's id for a day. */
export function scheduledRunId(day: Date): string {
  return `${SCHEDULED_RUN_PREFIX}${day.toISOString().slice(0, 10)}`;
}

/** True for ids only the scheduler may write: a caller's run must not overwrite a nightly report. */
export function isScheduledRunId(id: string): boolean {
  return id.toLowerCase().startsWith(SCHEDULED_RUN_PREFIX);
}

/**
 * The `try: curl ...` line `deno task start` prints, runnable as printed.
 *
 * With `API_KEYS` set, the line carries `Authorization: Bearer $SIFT_API_KEY`
 * and a line before it says to export one of the keys. The key itself is
 * never printed: start-up output goes to terminals' scrollback, service logs
 * and CI logs, where a secret does not belong. `SIFT_API_KEY` is the variable
 * `deno task ask` and `deno task ingest` already send, so one export serves
 * the hint and the commands.
 */
export function startupHint(options: { url: string; apiKeys: readonly string[] }): string[] {
  const query = `'{"query":"What is sift?"}'`;
  const curl = `curl -N ${options.url}/v1/query -H 'content-type: application/json'`;
  if (options.apiKeys.length === 0) return [`try: ${curl} -d ${query}`];
  return [
    "API_KEYS is set: export SIFT_API_KEY=<one of its keys> (not printed here: logs keep " +
    "start-up output); deno task ask and ingest send it too.",
    `try: ${curl} -H "Authorization: Bearer $SIFT_API_KEY" -d ${query}`,
  ];
}

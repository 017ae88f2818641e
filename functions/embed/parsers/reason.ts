/** A library error's first line, short: what was wrong with the file. */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split("\n")[0]!.trim().replace(/\.$/, "");
  return (line.length > 200 ? `${line.slice(0, 200)}…` : line) || "unknown error";
}

/**
 * `sift <command>`: the terminal commands in one entry, for `deno compile`
 * (`deno task compile` builds `bin/sift` from it). Each command is the task of
 * the same name, with the same options:
 *
 *   sift ask "What is sift?"      deno task ask
 *   sift ingest docs/             deno task ingest
 *   sift start                    deno task start
 */
import { startSift } from "../main.ts";

/** The commands and what each runs; the launcher `deno task compile` writes lists the same. */
export const SIFT_COMMANDS = {
  ask: { task: "ask", about: "ask a question and stream the cited answer" },
  ingest: { task: "ingest", about: "add files or JSONL documents to the index" },
  start: { task: "start", about: "the service on http://127.0.0.1:$PORT (8787)" },
} as const;

export type SiftCommand = keyof typeof SIFT_COMMANDS;

export function siftUsage(): string {
  const width = Math.max(...Object.keys(SIFT_COMMANDS).map((name) => name.length));
  return [
    "usage: sift <command> [options]    (sift <command> --help for its options)",
    "",
    ...Object.entries(SIFT_COMMANDS).map(([name, { about }]) =>
      `  ${name.padEnd(width)}  ${about}`
    ),
  ].join("\n");
}

function isCommand(name: string | undefined): name is SiftCommand {
  return name !== undefined && Object.hasOwn(SIFT_COMMANDS, name);
}

if (import.meta.main) {
  const [name, ...rest] = Deno.args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(siftUsage());
    Deno.exit(0);
  }
  if (!isCommand(name)) {
    console.error(`error: unknown command ${name}\n${siftUsage()}`);
    Deno.exit(2);
  }
  // The command's own flags: ask and ingest read Deno.args, as under `deno task`.
  Object.defineProperty(Deno, "args", { value: Object.freeze(rest), configurable: true });
  if (name === "start") await startSift(rest);
  // Literal specifiers: `deno compile` puts both in the binary.
  else if (name === "ask") await import("./ask.ts");
  else await import("./ingest.ts");
}

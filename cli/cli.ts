import { type Command, type Flag, parseFlags, UsageError, usageText, wantsHelp } from "./flags.ts";

export type { Command, Flag } from "./flags.ts";

/**
 * Flags for a terminal command: `--help` (or `-h`) prints the usage and exits
 * 0 before the command does anything; an unknown or malformed flag prints one
 * line (naming the nearest flag) and the usage line, and exits 2. No stack
 * traces for mistakes people make at a prompt.
 */
export function commandArgs<F extends Record<string, Flag>>(
  command: Command<F>,
  args: readonly string[] = Deno.args,
) {
  exitOnHelp(command, args);
  try {
    return parseFlags(command, args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    usageMistake(command, error.message);
  }
}

/** `--help` or `-h` among `args`: the usage on stdout, exit 0. */
export function exitOnHelp(command: Command, args: readonly string[] = Deno.args): void {
  if (!wantsHelp(args)) return;
  console.log(usageText(command));
  Deno.exit(0);
}

/** A mistake at the prompt: one line, the usage line, exit code 2. */
export function usageMistake(command: Command, message: string): never {
  console.error(`error: ${message}\nusage: ${command.usage} (--help for every option)`);
  Deno.exit(2);
}

/**
 * The one line a known failure deserves (what went wrong, and what to do),
 * or undefined for a real bug, whose stack trace stays.
 */
export function explainFailure(error: unknown): string | undefined {
  if (error instanceof Deno.errors.NotFound) {
    return `${error.message.replace(/^No such file or directory \(os error 2\): /, "")}: ` +
      "no such file or folder (check the path)";
  }
  if (error instanceof Deno.errors.AddrInUse) {
    return "the port is already in use: stop what runs there, or set PORT to another port";
  }
  if (error instanceof Deno.errors.ConnectionRefused) {
    return "no server answers there: start one with `deno task start`, or unset SIFT_URL";
  }
  if (error instanceof Deno.errors.PermissionDenied) return `${error.message}: permission denied`;
  if (error instanceof Error && error.name === "CliError") return error.message;
  return undefined;
}

/** A failure to report as one line (the message says what to do). */
export class CliError extends Error {
  override name = "CliError";
}

/** Runs a command's body; a known failure becomes one line on stderr and exit code 1. */
export async function runCommand(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    const line = explainFailure(error);
    if (!line) throw error;
    console.error(`error: ${line}`);
    Deno.exit(1);
  }
}

/** `promise`'s value; a known failure becomes one line on stderr and exit code 1. */
export async function orExit<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    const line = explainFailure(error);
    if (!line) throw error;
    console.error(`error: ${line}`);
    Deno.exit(1);
  }
}

/** The first words of a text, for a one-line preview. */
export function firstWords(text: string, words = 12): string {
  const all = text.trim().split(/\s+/);
  return all.slice(0, words).join(" ") + (all.length > words ? " …" : "");
}

/** One line on stderr, exit code 1. */
export function fail(message: string): never {
  console.error(`error: ${message}`);
  Deno.exit(1);
}

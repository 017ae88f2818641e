/**
 * The flags of every terminal command, parsed one way: `--help` and `-h` print
 * the usage (every flag with its default), and a mistyped flag or value names
 * the nearest one (`unknown option --mdoe (did you mean --mode?)`).
 *
 * Pure: `parseFlags` returns or throws a `UsageError`; `commandArgs` in
 * `cli.ts` prints and exits.
 */

/** One flag, as `--help` shows it and the parser checks it. */
export type Flag = {
  type: "string" | "boolean";
  /** One line for `--help`. */
  help: string;
  /** What happens without the flag, as `--help` says it. */
  default?: string;
  /** The word after the flag in `--help` (`N`, `PATH`); the choices when there are any. */
  value?: string;
  /** The values a string flag takes: another is refused, with the nearest named. */
  choices?: readonly string[];
  /** With `choices`: a comma-separated list of them. */
  list?: boolean;
  /** A one-letter alias (`-n`). */
  short?: string;
};

/** A command's usage line, its paragraph, flags and any closing text (env vars, examples). */
export type Command<F extends Record<string, Flag> = Record<string, Flag>> = {
  /** After `usage: `, e.g. `deno task ask "your question" [flags]`. */
  usage: string;
  about?: string;
  flags: F;
  more?: string;
};

export type FlagValues<F extends Record<string, Flag>> = {
  [K in keyof F]?: F[K]["type"] extends "boolean" ? boolean : string;
};

/** A mistake on the command line: the message is the one line to print (exit code 2). */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment), so
 * `mdoe` is one step from `mode`.
 */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => {
    const row = new Array<number>(b.length + 1).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = rows[i]!;
      const above = rows[i - 1]!;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
      }
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate `word` was most likely meant to be: within a third of its
 * length in edits (at least one), or one it starts (`--name` for `--namespace`).
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (best && best.distance <= Math.max(1, Math.floor(best.candidate.length / 3))) {
    return best.candidate;
  }
  if (lower.length >= 3) return candidates.find((candidate) => candidate.startsWith(lower));
  return undefined;
}

const hint = (word: string | undefined, prefix = "") =>
  word === undefined ? "" : ` (did you mean ${prefix}${word}?)`;

/** The project's line width (deno fmt's): help texts stay readable in an 100-column terminal. */
const LINE_WIDTH = 100;

/** `text` as lines of at most `width` characters, broken between words. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** `--help`'s text: the usage line, the paragraph, every flag with its default, the rest. */
export function usageText(command: Command): string {
  const rows = Object.entries(command.flags).map(([name, flag]) => {
    const value = flag.type === "boolean"
      ? ""
      : ` ${flag.value ?? (flag.choices ? flag.choices.join("|") : "VALUE")}`;
    const left = `${flag.short ? `-${flag.short}, ` : ""}--${name}${value}`;
    const right = flag.help + (flag.default === undefined ? "" : ` (default: ${flag.default})`);
    return [left, right] as const;
  });
  rows.push(["-h, --help", "print this help and exit"]);
  const width = Math.min(32, Math.max(...rows.map(([left]) => left.length)));
  const indent = " ".repeat(width + 4);
  const lines = rows.map(([left, right]) => {
    const text = wrapWords(right, LINE_WIDTH - indent.length).join(`\n${indent}`);
    return left.length > width ? `  ${left}\n${indent}${text}` : `  ${left.padEnd(width)}  ${text}`;
  });
  return [
    `usage: ${command.usage}`,
    ...(command.about ? ["", command.about] : []),
    "",
    "options:",
    ...lines,
    ...(command.more ? ["", command.more] : []),
  ].join("\n");
}

/** True when the arguments ask for help (before any `--`). */
export function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

function checkValue(name: string, flag: Flag, value: string): void {
  if (!flag.choices) return;
  for (const item of flag.list ? value.split(",").filter(Boolean) : [value]) {
    if (flag.choices.includes(item)) continue;
    throw new UsageError(
      `--${name}: unknown value "${item}"${hint(nearest(item, flag.choices))}; ` +
        `one of ${flag.choices.join(", ")}`,
    );
  }
}

/**
 * The arguments as flag values and positionals; throws a `UsageError` naming
 * the mistake (and the nearest flag or value) for anything it does not know.
 *
 * @example
 * parseFlags({ usage: "x", flags: { mode: { type: "string", help: "" } } }, ["--mdoe", "a"]);
 * // throws UsageError: unknown option --mdoe (did you mean --mode?)
 */
export function parseFlags<F extends Record<string, Flag>>(
  command: Command<F>,
  args: readonly string[],
): { values: FlagValues<F>; positionals: string[] } {
  const flags: Record<string, Flag> = command.flags;
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  const names = [...Object.keys(flags), "help"];
  const shorts = new Map(
    Object.entries(flags).flatMap(([name, flag]) => flag.short ? [[flag.short, name]] : []),
  );
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    // `-` alone and negative numbers are values, not flags.
    if (!arg.startsWith("-") || arg === "-" || /^-\d/.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const long = arg.startsWith("--");
    const [written, inline] = long
      ? [arg.slice(2).split("=")[0]!, arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : null]
      : [arg.slice(1), null];
    const name = long ? written : shorts.get(written);
    const flag = name === undefined ? undefined : flags[name];
    if (name === undefined || !flag) {
      throw new UsageError(
        `unknown option ${long ? "--" : "-"}${written}${hint(nearest(written, names), "--")}`,
      );
    }
    if (flag.type === "boolean") {
      if (inline !== null) throw new UsageError(`--${name} takes no value`);
      values[name] = true;
      continue;
    }
    const value = inline ?? args[i + 1];
    if (value === undefined || (inline === null && value.startsWith("--"))) {
      throw new UsageError(
        `--${name} needs a value${flag.choices ? ` (${flag.choices.join(", ")})` : ""}`,
      );
    }
    if (inline === null) i++;
    checkValue(name, flag, value);
    values[name] = value;
  }
  return { values: values as FlagValues<F>, positionals };
}

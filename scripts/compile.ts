/**
 * `bin/sift`: the terminal commands without npx and without resolving
 * anything at run time.
 *
 *   deno task compile [--out bin/sift] [--launcher]
 *
 * First `deno compile` of scripts/sift.ts, the intended path: one binary
 * with the sources and the runtime inside. It needs Deno's `denort` runtime,
 * which `deno compile` downloads from dl.deno.land; where that cannot be
 * reached (or with `--launcher`), it writes a launcher instead: a small shell
 * script that runs the sources, cached here first, with the Deno binary
 * already on this machine (`Deno.execPath()`), `--cached-only`, the same
 * permissions as each `deno task`.
 */
import { SIFT_MOUNTS, SIFT_OPEN_MOUNTS } from "../app.ts";
import { type Command, commandArgs, usageMistake } from "../cli/cli.ts";
import { SIFT_COMMANDS, type SiftCommand, siftUsage } from "./sift.ts";

const COMMAND = {
  usage: "deno task compile [options]",
  about: `Builds bin/sift (sift ask, sift ingest, sift start) with deno compile; where deno compile
cannot download its runtime (dl.deno.land), writes a launcher script that runs the cached sources
with this machine's deno, --cached-only, instead.`,
  flags: {
    out: { type: "string", value: "PATH", help: "where to write it", default: "bin/sift" },
    launcher: { type: "boolean", help: "write the launcher without trying deno compile" },
  },
} satisfies Command;

const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
/** Modules loaded with a computed specifier (app.ts, main.ts): `deno compile` must be told. */
const LAZY_MODULES = [
  ...[...SIFT_MOUNTS, ...SIFT_OPEN_MOUNTS].map((entry) => entry.module),
  "./shared/jobs/consume.ts",
  "./functions/evaluate/scheduled-entry.ts",
  "./app.ts", // scripts/client.ts, when no server answers
];
const COMPILE_TIMEOUT_MS = 180_000;
/** How the launcher begins, so a later run knows the file is its own. */
const LAUNCHER_HEADER = "#!/bin/sh\n# sift, written by `deno task compile`";

/** A task's `deno run` flags and entry file, read from deno.json (one place for both). */
export type TaskRun = { flags: string[]; entry: string };

export function taskRun(command: string): TaskRun {
  const [program, run, ...rest] = command.split(/\s+/);
  const entry = rest.at(-1);
  if (program !== "deno" || run !== "run" || !entry?.endsWith(".ts")) {
    throw new Error(`not a "deno run <flags> <file>" task: ${command}`);
  }
  return { flags: rest.slice(0, -1), entry };
}

async function tasks(): Promise<Record<SiftCommand, TaskRun>> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`)) as {
    tasks: Record<string, string>;
  };
  const runs = {} as Record<SiftCommand, TaskRun>;
  for (const [name, { task }] of Object.entries(SIFT_COMMANDS)) {
    const command = config.tasks[task];
    if (!command) throw new Error(`deno.json has no task ${task}`);
    runs[name as SiftCommand] = taskRun(command);
  }
  return runs;
}

/** `'...'` for sh, any character inside. */
function shQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The launcher: cd to the project (as `deno task` does, `INIT_CWD` set to
 * where it was called from), then exec deno with the task's flags.
 */
export function launcherScript(deno: string, root: string, runs: Record<SiftCommand, TaskRun>) {
  const cases = Object.entries(runs).map(([name, run]) => {
    const args = ["run", "--cached-only", ...run.flags, run.entry].map(shQuote).join(" ");
    return `  ${name}) shift; exec "$deno" ${args} "$@" ;;`;
  });
  return `${LAUNCHER_HEADER}: runs sift's sources, cached when this was written, with
# the Deno binary below, --cached-only (no npx, no download, no module resolution). Written again
# by \`deno task compile\` after an upgrade; \`deno compile\` builds a real binary where it can
# download its runtime.
deno=${shQuote(deno)}
INIT_CWD="\${INIT_CWD:-$PWD}"
export INIT_CWD
cd ${shQuote(root)} || exit 1
case "$1" in
${cases.join("\n")}
  ""|-h|--help|help) cat <<'USAGE'
${siftUsage()}
USAGE
    ;;
  *) echo "error: unknown command $1 (sift --help lists them)" >&2; exit 2 ;;
esac
`;
}

/** The union of the tasks' permissions, and start's V8 flags (`deno compile` takes one set). */
function compileFlags(runs: Record<SiftCommand, TaskRun>): string[] {
  return [...new Set(Object.values(runs).flatMap((run) => run.flags))];
}

async function run(args: string[], timeoutMs?: number) {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
    ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
  }).output();
  const text = new TextDecoder().decode(output.stderr) + new TextDecoder().decode(output.stdout);
  return { success: output.success, text };
}

/** `deno compile`; the reason in one line when it cannot. */
async function tryCompile(out: string, runs: Record<SiftCommand, TaskRun>) {
  // deno compile overwrites only its own binaries: a launcher written before goes first.
  const previous = await Deno.readTextFile(out).catch(() => "");
  if (previous.startsWith(LAUNCHER_HEADER)) await Deno.remove(out);
  const includes = LAZY_MODULES.flatMap((module) => ["--include", module]);
  const result = await run(
    ["compile", ...compileFlags(runs), ...includes, "--output", out, "scripts/sift.ts"],
    COMPILE_TIMEOUT_MS,
  ).catch((error) => ({ success: false, text: String(error) }));
  if (result.success) return undefined;
  // deno's own error (uncoloured, NO_COLOR): the deepest cause says why (a DNS failure, a 404...).
  const lines = result.text.split("\n").map((line) => line.trim()).filter(Boolean);
  const cause = lines.find((line) =>
    /error sending request|dns error|not found|denied/i.test(line)
  );
  return cause?.replace(/^\d+: /, "") ?? lines.find((line) => line.startsWith("error:")) ??
    lines[0] ?? "deno compile failed";
}

export async function writeLauncher(out: string): Promise<void> {
  const runs = await tasks();
  // Everything a command loads, in Deno's cache now, so --cached-only finds it later.
  const entries = [...new Set(Object.values(runs).map((run) => run.entry)), ...LAZY_MODULES];
  const cached = await run(["cache", ...entries]);
  if (!cached.success) throw new Error(`deno cache failed:\n${cached.text}`);
  await Deno.mkdir(out.includes("/") ? out.slice(0, out.lastIndexOf("/")) : ".", {
    recursive: true,
  });
  await Deno.writeTextFile(out, launcherScript(Deno.execPath(), ROOT, runs), { mode: 0o755 });
  await Deno.chmod(out, 0o755);
}

if (import.meta.main) {
  const { values, positionals } = commandArgs(COMMAND);
  if (positionals.length) usageMistake(COMMAND, `unexpected argument ${positionals[0]}`);
  const given = String(values.out ?? "bin/sift");
  const out = given.startsWith("/") ? given : `${Deno.env.get("INIT_CWD") ?? Deno.cwd()}/${given}`;
  if (!values.launcher) {
    console.error("deno compile scripts/sift.ts (it downloads Deno's runtime, denort, once)...");
    const problem = await tryCompile(out, await tasks());
    if (problem === undefined) {
      console.log(`${given}: a compiled binary. Try: ${given} ask "What is sift?"`);
      Deno.exit(0);
    }
    console.error(`deno compile could not build it: ${problem}`);
    console.error("Writing a launcher instead (the cached sources, run by this deno).");
  }
  await writeLauncher(out);
  console.log(`${given}: a launcher for ${Deno.execPath()}. Try: ${given} ask "What is sift?"`);
}

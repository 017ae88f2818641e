/**
 * `deno task ok`: fmt, lint, type check and the tests, stopping at the first
 * that fails. A task's arguments go to its last command, so as a one-line
 * task `ok --help` ran the first three before `deno test` printed its help;
 * here `--help` answers before anything runs, and other arguments still go to
 * `deno task test`.
 *
 *   deno task ok
 *   deno task ok tests/unit/     # the checks, then only these tests
 */
import { type Command, exitOnHelp } from "../cli/cli.ts";

const COMMAND = {
  usage: "deno task ok [deno test arguments]",
  about: `Runs, stopping at the first that fails:
  deno fmt --check
  deno lint
  deno check .
  deno task test [arguments]   (deno test --allow-all --parallel)
Arguments other than --help go to deno test (deno test --help lists them), e.g. a test file or
folder, or --filter "name".`,
  flags: {},
} satisfies Command;

exitOnHelp(COMMAND);

const STEPS = [
  ["fmt", "--check"],
  ["lint"],
  ["check", "."],
  ["task", "test", ...Deno.args],
];

for (const args of STEPS) {
  const { code } = await new Deno.Command(Deno.execPath(), { args }).spawn().status;
  if (code !== 0) Deno.exit(code);
}

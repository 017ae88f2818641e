/**
 * Every command the README and docs/ show is run by a test: by the docs
 * runner (`run_commands_test.ts`), or by the test `RUN_ELSEWHERE` names,
 * which must exist and drive what the command does.
 */
import assert from "node:assert/strict";
import {
  commandsOf,
  docPages,
  elsewhere,
  ROOT,
  RUN_ELSEWHERE,
  runnable,
  serverOf,
} from "./commands.ts";

Deno.test("commandsOf() reads sh blocks only, joins continued lines and open quotes, drops comments", () => {
  const markdown = [
    "```sh",
    "deno task start    # the service",
    "# a comment line",
    "",
    "curl http://x/v1 -H 'a: b' \\",
    "  -d '{\"q\": 1}'",
    'curl http://x -d \'{"a": 1,',
    '  "b": "# not a comment"}\'',
    "```",
    "```json",
    '{"not": "a command"}',
    "```",
    "```",
    "$ deno task bench:retrieval",
    "```",
  ].join("\n");
  assert.deepEqual(commandsOf(markdown), [
    "deno task start",
    "curl http://x/v1 -H 'a: b' -d '{\"q\": 1}'",
    'curl http://x -d \'{"a": 1,\n  "b": "# not a comment"}\'',
  ]);
});

Deno.test("runnable() and serverOf() read the pinned Deno as the running one and know the servers", () => {
  assert.equal(runnable("npx -y deno@2.9.6 task ask x"), "deno task ask x");
  assert.deepEqual(serverOf("PORT=1 deno task start"), { portVariable: "PORT", ready: "/healthz" });
  assert.equal(serverOf("deno task offline-model")?.portVariable, "OFFLINE_MODEL_PORT");
  assert.equal(serverOf("deno task ask start"), undefined);
});

Deno.test("every command in the README and docs/ is run by the docs runner or by a named test", async () => {
  const pages = await docPages();
  assert.ok(pages.includes("README.md") && pages.includes("docs/deployment.md"));
  const found = new Set<string>();
  const problems: string[] = [];
  for (const page of pages) {
    const commands = commandsOf(await Deno.readTextFile(`${ROOT}/${page}`));
    for (const command of commands) {
      found.add(runnable(command));
      // A placeholder cannot run as written: such a command must say which test covers it.
      if (/<[\w-]+>/.test(command) && !elsewhere(command)) {
        problems.push(`${page}: "${command}" has a placeholder and no entry in RUN_ELSEWHERE`);
      }
    }
  }
  assert.ok(found.size >= 15, `only ${found.size} commands found: the reader is broken`);
  for (const [command, { test, evidence }] of Object.entries(RUN_ELSEWHERE)) {
    if (!found.has(command)) problems.push(`RUN_ELSEWHERE lists "${command}", which no page shows`);
    let text = "";
    try {
      text = await Deno.readTextFile(`${ROOT}/${test}`);
    } catch {
      problems.push(`"${command}": its test ${test} does not exist`);
      continue;
    }
    if (!text.includes(evidence)) {
      problems.push(`"${command}": ${test} does not mention ${evidence}, so it does not run it`);
    }
  }
  assert.deepEqual(problems, []);
});

/**
 * Every `deno task` answers `--help` and `-h` with its usage and exit 0, and
 * does nothing else: no server left listening, no data directory, no file
 * written. A mistyped flag gets the nearest one named, and exit code 2.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { freePort } from "./service.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const tasks = z.object({ tasks: z.record(z.string(), z.string()) })
  .parse(JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`))).tasks;
/** Deno's own command: `deno test --help` is Deno's help. */
const DENO_OWN = new Set(["test"]);
/** `-h` is the same code path as `--help` (wantsHelp()): a few tasks show it, to keep this short. */
const SHORT_TOO = new Set(["start", "dev", "ask", "offline-model", "workers:dev"]);

/** Runs `deno task <name> ...args`, bounded: a task that started a server never exits. */
async function task(name: string, args: string[], env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", name, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(90_000),
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/** What a task could leave behind in the project: top-level entries and the generated files. */
async function projectState(): Promise<string> {
  const entries = [];
  for await (const entry of Deno.readDir(ROOT)) entries.push(entry.name);
  const stamps = [];
  for (
    const file of [
      "bench.json",
      "BENCHMARKS.md",
      "lib/vector-index/kernel/dot-wasm.ts",
      "lib/vector-index/kernel/crc-wasm.ts",
      "functions/orchestrator/console/script.gen.ts",
    ]
  ) stamps.push(`${file}@${(await Deno.stat(`${ROOT}/${file}`)).mtime?.getTime()}`);
  return [...entries.filter((name) => name !== ".git").sort(), ...stamps].join("\n");
}

Deno.test({
  name: "every deno task answers --help and -h with its usage, exit 0 and no side effect",
  sanitizeResources: false,
  async fn() {
    const names = Object.keys(tasks).filter((name) => !DENO_OWN.has(name));
    assert.ok(names.length >= 15, names.join(", "));
    const scratch = await Deno.makeTempDir({ prefix: "sift-cli-help-" });
    try {
      const before = await projectState();
      for (const name of names) {
        for (const flag of SHORT_TOO.has(name) ? ["--help", "-h"] : ["--help"]) {
          const port = freePort();
          const offlinePort = freePort();
          const { code, stdout, stderr } = await task(name, [flag], {
            PORT: String(port),
            OFFLINE_MODEL_PORT: String(offlinePort),
            SIFT_DATA_DIR: `${scratch}/data`,
            SIFT_WRANGLER_STATE: `${scratch}/wrangler`,
          });
          const what = `deno task ${name} ${flag}:\n${stdout}\n${stderr}`;
          assert.equal(code, 0, what);
          assert.match(stdout, /^usage: deno task /, what);
          assert.match(stdout, /-h, --help +print this help and exit/, what);
          for (const listened of [port, offlinePort]) {
            await assert.rejects(
              Deno.connect({ hostname: "127.0.0.1", port: listened }),
              `${name} left port ${listened} listening`,
            );
          }
          assert.equal(await Deno.stat(`${scratch}/data`).catch(() => null), null, what);
        }
      }
      assert.equal(await projectState(), before, "a --help wrote into the project");
      assert.deepEqual([...Deno.readDirSync(scratch)], [], "a --help wrote a file");
    } finally {
      await Deno.remove(scratch, { recursive: true });
    }
  },
});

Deno.test("serve --help names every function and the variables it reads", async () => {
  const { code, stdout } = await task("serve", ["--help"]);
  assert.equal(code, 0);
  for (
    const word of ["index", "orchestrator", "generate-rubric", "STEP_URL_<NAME>", "PORT", "HOST"]
  ) assert.ok(stdout.includes(word), `${word} is not in serve --help:\n${stdout}`);
  for (const variable of ["LLM_API_KEY", "API_KEYS", "UPSTASH_VECTOR_REST_URL", "STEP_URL_FUSE"]) {
    assert.ok(stdout.includes(variable), `${variable} is not in serve --help`);
  }
  assert.ok(stdout.split("\n").length > 20, "more than a usage line");
});

Deno.test("a mistyped flag names the nearest one, with balanced quotes and exit code 2", async () => {
  const cases = [
    ["ask", ["--mdoe", "dense", "What is sift?"], "unknown option --mdoe (did you mean --mode?)"],
    [
      "ask",
      ["--mode", "dnese", "What is sift?"],
      '--mode: unknown value "dnese" (did you mean dense?); one of dense, sparse, hybrid',
    ],
    [
      "ingest",
      ["--namespce", "x", "docs"],
      "unknown option --namespce (did you mean --namespace?)",
    ],
    ["eval", ["--datset", "x"], "unknown option --datset (did you mean --dataset?)"],
    ["bench", ["--only", "workres"], '--only: unknown value "workres" (did you mean workers?)'],
    ["workers:check", ["--onyl", "sift"], "unknown option --onyl (did you mean --only?)"],
    ["serve", ["fsue"], 'no function "fsue" (did you mean fuse?)'],
    ["start", ["--hlep"], "unknown option --hlep (did you mean --help?)"],
  ] as const;
  for (const [name, args, message] of cases) {
    const { code, stderr } = await task(name, [...args], { PORT: String(freePort()) });
    assert.equal(code, 2, `${name} ${args.join(" ")}: ${stderr}`);
    const first = stderr.split("\n")[0]!;
    assert.ok(first.startsWith(`error: ${message}`), `${name}: ${first}`);
    for (const quote of [`"`, `'`]) assert.equal(first.split(quote).length % 2, 1, first);
    assert.match(stderr, /\nusage: deno task .*\(--help for every option\)/);
  }
});

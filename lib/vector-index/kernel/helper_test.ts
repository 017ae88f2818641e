import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { mulberry32 } from "../random.ts";
import { hammingPass, HELPER_FROM_ROWS, helperState, stopHelper } from "./helper.ts";
import { createDotKernel, type DotKernel } from "./kernel.ts";

const STRIDE = 128;
const ROWS = HELPER_FROM_ROWS + 5_000; // not a whole number of chunks

/** `rows` random codes and a query code in a kernel's memory: where each sits. */
function randomCodes(kernel: DotKernel, rows: number, seed: number) {
  const words = new Uint32Array(kernel.memory.buffer, 0, ((rows + 1) * STRIDE) / 4);
  const random = mulberry32(seed);
  for (let i = 0; i < words.length; i++) words[i] = (random() * 2 ** 32) >>> 0;
  return { query: rows * STRIDE, out: (rows + 1) * STRIDE };
}

function expected(kernel: DotKernel, rows: number, query: number, out: number): Int32Array {
  kernel.hamming(0, STRIDE, rows, query, out);
  const distances = new Int32Array(kernel.memory.buffer, out, rows).slice();
  new Int32Array(kernel.memory.buffer, out, rows).fill(-1);
  return distances;
}

/** How many of the `rows` distances at `out` differ from `want` (a diff of 136k numbers would take minutes). */
function mismatches(kernel: DotKernel, out: number, want: Int32Array): number {
  const got = new Int32Array(kernel.memory.buffer, out, want.length);
  let count = 0;
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) count++;
  return count;
}

/** Blocks this thread (bounded) until the helper has counted a chunk more than `before`. */
function blockUntilHelped(before: number, ms: number): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (helperState().chunksHelped !== before) return;
    Atomics.wait(pause, 0, 0, 1);
  }
}

/** Waits (polling, bounded) until `check` holds. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !check();) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("hammingPass() splits a large pass with the helper thread and counts what one thread counts", async () => {
  try {
    const kernel = createDotKernel((ROWS + 1) * STRIDE + ROWS * 4, { shared: true });
    const { query, out } = randomCodes(kernel, ROWS, 1);
    const want = expected(kernel, ROWS, query, out);
    // The first large passes start the helper and hand it the memory; they run on this thread.
    let ran = 0;
    hammingPass(kernel, 0, STRIDE, ROWS, query, out, () => ran++);
    assert.equal(ran, 1);
    assert.equal(mismatches(kernel, out, want), 0);
    await until(() => helperState().running, "the helper started");
    let helped = 0;
    for (let pass = 0; pass < 50 && helped === 0; pass++) {
      hammingPass(kernel, 0, STRIDE, ROWS, query, out, () => {
        // This thread's other work: it waits (bounded) until the helper has counted a chunk.
        blockUntilHelped(helperState().chunksHelped, 2000);
        ran++;
      });
      assert.equal(mismatches(kernel, out, want), 0, `pass ${pass}`);
      helped = helperState().chunksHelped;
      if (helped === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(helped > 0, "the helper counted some of the chunks");
    assert.ok(ran >= 2);
    assert.equal(helperState().disabled, false);
  } finally {
    stopHelper();
  }
});

Deno.test("hammingPass() with the helper finishes the pass before it throws `meanwhile`'s error", async () => {
  try {
    const kernel = createDotKernel((ROWS + 1) * STRIDE + ROWS * 4, { shared: true });
    const { query, out } = randomCodes(kernel, ROWS, 2);
    const want = expected(kernel, ROWS, query, out);
    hammingPass(kernel, 0, STRIDE, ROWS, query, out);
    await until(() => helperState().running, "the helper started");
    let helpedWhileThrowing = 0;
    for (let pass = 0; pass < 50 && helpedWhileThrowing === 0; pass++) {
      const before = helperState().chunksHelped;
      assert.throws(
        () =>
          hammingPass(kernel, 0, STRIDE, ROWS, query, out, () => {
            blockUntilHelped(before, 200);
            throw new Error("sparse side failed");
          }),
        /sparse side failed/,
      );
      if (helperState().chunksHelped > before) {
        helpedWhileThrowing++;
        // Every chunk is done when it returns: nothing writes the distances afterwards.
        assert.equal(mismatches(kernel, out, want), 0, `pass ${pass}`);
        new Int32Array(kernel.memory.buffer, out, ROWS).fill(-1);
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(mismatches(kernel, out, want), ROWS);
      } else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(helpedWhileThrowing, 1, "a throwing pass the helper took part in");
  } finally {
    stopHelper();
  }
});

Deno.test("hammingPass() runs on this thread alone for small passes and unshared memories, `meanwhile` once", () => {
  const rows = 1000;
  for (const shared of [true, false]) {
    const kernel = createDotKernel((rows + 1) * STRIDE + rows * 4, { shared });
    const { query, out } = randomCodes(kernel, rows, 3);
    const want = expected(kernel, rows, query, out);
    let ran = 0;
    hammingPass(kernel, 0, STRIDE, rows, query, out, () => ran++);
    assert.equal(ran, 1);
    assert.equal(mismatches(kernel, out, want), 0);
  }
  assert.equal(helperState().running, false);
});

Deno.test("a process whose searches started the helper still exits by itself", async () => {
  const script = fileURLToPath(new URL("./helper_exit_fixture.ts", import.meta.url));
  const started = Date.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", script],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  try {
    const { code, stdout, stderr } = await child.output();
    const said = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    assert.equal(code, 0, said);
    assert.match(said, /helped: [1-9]/, "the fixture's searches used the helper");
    assert.ok(Date.now() - started < 60_000, "exited before the test's kill");
  } finally {
    clearTimeout(timer);
  }
});

/**
 * What end-to-end tests of files watch on a real server: its memory, its
 * `/healthz` while an upload runs, and the upload's answer.
 */
import assert from "node:assert/strict";
import type { RunningService } from "./service.ts";

/** The process's resident memory in bytes, from `/proc/<pid>/status`. */
export async function residentBytes(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  assert.ok(kib, "no VmRSS line");
  return Number(kib) * 1024;
}

/**
 * Asks `/healthz` every 200 ms (and reads the server's memory) until
 * `stop()`: each answer's time, the slowest, and the highest RSS seen.
 */
export function watchHealth(service: RunningService) {
  const times: number[] = [];
  let peak = 0;
  let running = true;
  const watching = (async () => {
    while (running) {
      const started = performance.now();
      // Bounded: a server that never answers fails the test instead of hanging it.
      const response = await fetch(`${service.url}/healthz`, {
        signal: AbortSignal.timeout(15_000),
      });
      await response.body?.cancel();
      assert.equal(response.status, 200);
      times.push(performance.now() - started);
      peak = Math.max(peak, await residentBytes(service.pid));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await watching;
      return { times, slowest: Math.max(...times), peak };
    },
  };
}

export async function uploadFile(service: RunningService, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append("file", new Blob([bytes as BlobPart]), name);
  const started = performance.now();
  const response = await fetch(`${service.url}/v1/documents`, {
    method: "POST",
    body: form,
    signal: AbortSignal.timeout(120_000),
  });
  const body = await response.json() as { error?: { message: string } };
  return { status: response.status, body, seconds: (performance.now() - started) / 1000 };
}

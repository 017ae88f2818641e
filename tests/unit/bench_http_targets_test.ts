import assert from "node:assert/strict";
import { type HttpReport, httpTargets } from "../../scripts/bench-http.ts";

const row = (target: string, requestsPerSecond: number, client = "keep-alive") =>
  ({
    client,
    target,
    requests_per_second: requestsPerSecond,
    cpu_ms_per_request: 0.01,
  }) as HttpReport["rows"][number];

Deno.test("httpTargets() states each keep-alive ratio against issue #44's target, met or below", () => {
  const report: HttpReport = {
    tool: "wrk",
    seconds: 5,
    rounds: 2,
    rows: [
      row("trivial", 50_000),
      row("sift /healthz", 16_000),
      row("sift /v1/search", 6_000),
      row("trivial", 10_000, "close"),
      row("sift /v1/search", 9_000, "close"),
    ],
    in_process_ms: { "/healthz": 0.02, "/v1/search": 0.05 },
  };
  assert.deepEqual(httpTargets(report), [
    "sift /healthz: 0.32 × the trivial handler's requests/s with keep-alive (target ≥ 0.3): met",
    "sift /v1/search: 0.12 × the trivial handler's requests/s with keep-alive (target ≥ 0.15): BELOW",
  ]);
});

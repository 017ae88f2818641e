import { z } from "zod";
import type { Hono } from "hono";
import type { AppEnv } from "../shared/http/app-env.ts";
import { describe, json } from "../shared/http/openapi.ts";
import { withoutDemoCorpus } from "../shared/demo/lazy-index.ts";
import { ForbiddenError } from "../shared/errors.ts";
import { recoveredTailSchema } from "../shared/responses.ts";
import { LocalIndex } from "../adapters/vector-index/local.ts";
import type { IndexStatus } from "../adapters/vector-index/local.ts";
import type { HealthReport } from "../shared/health/report.ts";

/**
 * `DELETE` here: an operator has seen what the embedded index's starts cut
 * (`/healthz`'s `index.recovered`) and acknowledges it.
 */
export const RECOVERED_PATH = "/v1/index/recovered";

type Recovered = NonNullable<Extract<IndexStatus, { status: "ok" }>["recovered"]>;

/**
 * The probe's report, with the index graded `degraded` (when it is not worse)
 * while a start's cut of the log's end is unacknowledged: the cut record may
 * have been an acknowledged write (a flipped byte looks like a torn one), so
 * the service answers but may miss a document. Not cached with the probe: an
 * acknowledgement shows on the next `/healthz`.
 *
 * @example
 * withRecovery(report, index.status()).checks.index; // "degraded" after a cut
 */
export function withRecovery(report: HealthReport, state: IndexStatus | undefined): HealthReport {
  const recovered = state?.status === "ok" ? state.recovered : undefined;
  if (!recovered || report.checks.index !== "ok") return report;
  return {
    checks: { ...report.checks, index: "degraded" },
    problems: { ...report.problems, index: recoveryProblem(recovered) },
  };
}

/** What the cuts were, in words an operator acts on. */
export function recoveryProblem(recovered: Recovered): string {
  const cuts = [...(recovered.earlier ?? []), recovered];
  const records = cuts.reduce((sum, cut) => sum + cut.dropped_records, 0);
  const bytes = cuts.reduce((sum, cut) => sum + cut.dropped_bytes, 0);
  const what = `${records} record${records === 1 ? "" : "s"} (${bytes} bytes)`;
  const where = cuts.length === 1
    ? `a start at ${recovered.at} cut ${what} from the end of ${recovered.file}`
    : `${cuts.length} starts since ${cuts[0]!.at} cut ${what} from the end of the index log ` +
      `(the latest at ${recovered.at}, ${recovered.file})`;
  return `${where}: torn by a crash, or an acknowledged write that fails its checksum. ` +
    `Ingest again what was written just before, then DELETE ${RECOVERED_PATH} to acknowledge`;
}

/**
 * `DELETE /v1/index/recovered`: an operator has seen `/healthz`'s
 * `index.recovered` and dealt with it; the embedded index forgets it, on disk
 * too, so `/healthz` says `ok` again and no restart raises it. A key of a
 * tenant may not (it is the deployment's notice, not the tenant's). Any other
 * index (Upstash, Postgres, the Durable Object) never cuts a log: nothing to
 * acknowledge.
 */
export function mountRecoveryAcknowledgement(app: Hono<AppEnv>): void {
  app.delete(
    RECOVERED_PATH,
    describe({
      tag: "service",
      summary: "Acknowledge what the embedded index's starts cut from its log",
      description: "Clears `/healthz`'s `index.recovered` (and the `degraded` it causes) for " +
        "good: the note in the data directory goes too. Answers the cuts acknowledged (none " +
        "when there were none, or the index is not the embedded one). 403 for a tenant's key.",
      responses: {
        200: json(
          "What was acknowledged",
          z.object({ acknowledged: z.array(recoveredTailSchema) }),
        ),
      },
    }),
    async (c) => {
      if (c.var.tenant !== undefined) {
        throw new ForbiddenError("A tenant's key cannot acknowledge the index's recovery");
      }
      const index = withoutDemoCorpus(c.var.deps.index);
      const acknowledged = index instanceof LocalIndex ? await index.acknowledgeRecovered() : [];
      if (acknowledged.length > 0) {
        console.error(`index recovery acknowledged: ${JSON.stringify(acknowledged)}`);
      }
      return c.json({ acknowledged });
    },
  );
}

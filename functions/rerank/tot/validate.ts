import { InvalidRequestError } from "../../../shared/errors.ts";
import type { TotOptions } from "../../../shared/rerank/tot/options.ts";
import { MAX_TOT_CANDIDATES } from "./candidates.ts";

/**
 * The checks `/v1/rerank` and `/v2/rerank` make for strategy tot beyond its
 * schema: `tot` options go with strategy tot only, the tree scores without
 * weights or a rubric, and each passage costs calls, so their number is
 * capped (sentences past the cap are left out with a warning instead).
 */
export function checkTotRequest(body: {
  strategy: string;
  documents: readonly unknown[];
  tot?: TotOptions | undefined;
  weights?: unknown;
}): void {
  if (body.tot !== undefined && body.strategy !== "tot") {
    throw new InvalidRequestError("tot: only strategy tot takes these options");
  }
  if (body.strategy !== "tot") return;
  if (body.weights !== undefined) {
    throw new InvalidRequestError(
      "weights: strategy tot scores on the dimensions its agent picks and takes no weights",
    );
  }
  if ((body.tot?.unit ?? "passage") === "passage" && body.documents.length > MAX_TOT_CANDIDATES) {
    throw new InvalidRequestError(
      `documents: strategy tot takes at most ${MAX_TOT_CANDIDATES} documents`,
    );
  }
}

import { InvalidRequestError } from "../../../shared/errors.ts";
import type { TotOptions } from "../../../shared/rerank/tot/options.ts";
import { MAX_TOT_CANDIDATES } from "./candidates.ts";

/**
 * Strategy tot's check beyond what every strategy's fit checks
 * (`checkRerankRequest`): each passage costs calls, so their number is
 * capped (sentences past the cap are left out with a warning instead).
 */
export function checkTotDocuments(
  body: { documents: readonly unknown[]; tot?: TotOptions | undefined },
): void {
  if ((body.tot?.unit ?? "passage") === "passage" && body.documents.length > MAX_TOT_CANDIDATES) {
    throw new InvalidRequestError(
      `documents: strategy tot takes at most ${MAX_TOT_CANDIDATES} documents`,
    );
  }
}

import { InvalidRequestError } from "../../../shared/errors.ts";
import { ITEM_MAX_DOCUMENTS } from "../../../shared/rerank/item-options.ts";

/**
 * Strategy item's check beyond what every strategy's fit checks
 * (`checkRerankRequest`): its listwise prompts hold every document at once,
 * so their number is capped.
 */
export function checkItemDocuments(body: { documents: readonly unknown[] }): void {
  if (body.documents.length > ITEM_MAX_DOCUMENTS) {
    throw new InvalidRequestError(
      `documents: strategy item takes at most ${ITEM_MAX_DOCUMENTS} documents`,
    );
  }
}

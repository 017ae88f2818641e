import { InvalidRequestError } from "../../../shared/errors.ts";
import { ITEM_MAX_DOCUMENTS, type ItemOptions } from "../../../shared/rerank/item-options.ts";

/**
 * The checks `/v1/rerank` and `/v2/rerank` make for strategy item beyond its
 * schema: `item` options go with strategy item only, ITEM scores without
 * weights, and its listwise prompts hold every document at once.
 */
export function checkItemRequest(body: {
  strategy: string;
  documents: readonly unknown[];
  item?: ItemOptions | undefined;
  weights?: unknown;
}): void {
  if (body.item !== undefined && body.strategy !== "item") {
    throw new InvalidRequestError("item: only strategy item takes these options");
  }
  if (body.strategy !== "item") return;
  if (body.weights !== undefined) {
    throw new InvalidRequestError("weights: strategy item judges utility and takes no weights");
  }
  if (body.documents.length > ITEM_MAX_DOCUMENTS) {
    throw new InvalidRequestError(
      `documents: strategy item takes at most ${ITEM_MAX_DOCUMENTS} documents`,
    );
  }
}

import { z } from "zod";

/** OpenAI's cursor list parameters, as its SDKs send them (`after` for the next page). */
export const listQueryFields = {
  limit: z.coerce.number({ error: "must be a number" }).int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" }).max(100, { error: "must be at most 100" }).default(20),
  order: z.enum(["asc", "desc"], { error: "must be asc or desc" }).default("desc"),
  after: z.string().max(200).optional(),
  before: z.string().max(200).optional(),
};

export type ListQuery = {
  limit: number;
  order: "asc" | "desc";
  after?: string | undefined;
  before?: string | undefined;
};

/**
 * One page of ids that sort by creation (`ids.ts`), in OpenAI's order:
 * newest first unless `order: "asc"`; after the `after` id, or the `limit`
 * nearest before the `before` id. Compared by value, so a cursor whose
 * record was deleted meanwhile still pages on from where it stood.
 *
 * @example
 * pageOfIds(["a", "b", "c"], { limit: 2, order: "desc" }); // {ids: ["c", "b"], hasMore: true}
 */
export function pageOfIds(ascending: readonly string[], query: ListQuery) {
  const ordered = query.order === "asc" ? [...ascending] : [...ascending].reverse();
  const comesAfter = (id: string, cursor: string) =>
    query.order === "asc" ? id > cursor : id < cursor;
  const { after, before } = query;
  let candidates = ordered;
  if (after !== undefined) candidates = candidates.filter((id) => comesAfter(id, after));
  if (before !== undefined) {
    const earlier = candidates.filter((id) => comesAfter(before, id));
    return { ids: earlier.slice(-query.limit), hasMore: earlier.length > query.limit };
  }
  return { ids: candidates.slice(0, query.limit), hasMore: candidates.length > query.limit };
}

/** OpenAI's list body: the page, its first and last ids, and whether more follow. */
export function listBody<T extends { id: string }>(data: T[], hasMore: boolean) {
  return {
    object: "list" as const,
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: hasMore,
  };
}

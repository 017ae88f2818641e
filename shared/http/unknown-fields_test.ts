import assert from "node:assert/strict";
import { z } from "zod";
import { closestField, unknownFieldMessage } from "./unknown-fields.ts";

const body = z.strictObject({
  query: z.string(),
  top_n: z.number().optional(),
  item: z.strictObject({ variant: z.string() }).optional(),
});

Deno.test("unknownFieldMessage() suggests a close spelling, or where a nested option goes", () => {
  assert.equal(
    unknownFieldMessage(body, [], "topn"),
    'unknown field "topn"; did you mean "top_n"?',
  );
  assert.equal(
    unknownFieldMessage(body, [], "topN"),
    'unknown field "topN"; did you mean "top_n"?',
  );
  assert.equal(
    unknownFieldMessage(body, [], "variant"),
    'unknown field "variant"; it goes in "item.variant"',
  );
  assert.equal(
    unknownFieldMessage(body, ["item"], "varaint"),
    'unknown field "item.varaint"; did you mean "item.variant"?',
  );
  assert.equal(unknownFieldMessage(body, [], "colour"), 'unknown field "colour"');
  assert.equal(closestField("xyz", ["query", "top_n"]), undefined);
});

Deno.test("unknownFieldMessage() cuts a huge key short and does not match it against the schema", () => {
  // "top_n" followed by a megabyte: matched, it would cost a megabyte per known name.
  const message = unknownFieldMessage(body, [], "top_n" + "q".repeat(1_000_000));
  assert.ok(message.length < 120, message.slice(0, 200));
  assert.match(message, /^unknown field "top_nq+…"$/);
});

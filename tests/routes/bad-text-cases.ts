/**
 * Requests carrying a NUL (U+0000) or a lone surrogate where the index would
 * store or match it, and the field each 400 must name: one table, run on the
 * embedded index (tests/routes/bad_text_test.ts) and on Postgres
 * (tests/postgres/bad_text_test.ts), since the rule is the same for both.
 */
import assert from "node:assert/strict";
import { errorMessageOf } from "./helpers.ts";

type Post = (path: string, body: unknown) => Response | Promise<Response>;

const NUL = "\u0000";
const LONE = "\ud800";

const document = (extra: Record<string, unknown>) => ({
  documents: [{ id: "harbour", text: "The harbour opens at dawn.", ...extra }],
});

export const BAD_TEXT_CASES: { name: string; path: string; body: unknown; field: RegExp }[] = [
  {
    name: "NUL in a document's text",
    path: "/v1/documents",
    body: document({ text: `The harbour${NUL} opens at dawn.` }),
    field: /^documents\.0\.text: holds a NUL character \(U\+0000\) at character 11/,
  },
  {
    name: "lone surrogate in a document's text",
    path: "/v1/documents",
    body: document({ text: `The harbour ${LONE}` }),
    field: /^documents\.0\.text: holds a lone surrogate \(U\+D800\)/,
  },
  {
    name: "NUL in a title",
    path: "/v1/documents",
    body: document({ title: `Harbour${NUL}` }),
    field: /^documents\.0\.title: holds a NUL character/,
  },
  {
    name: "lone surrogate in a title",
    path: "/v1/documents",
    body: document({ title: `Harbour ${"\udc00"}` }),
    field: /^documents\.0\.title: holds a lone surrogate \(U\+DC00\)/,
  },
  {
    name: "NUL in a metadata value",
    path: "/v1/documents",
    body: document({ metadata: { port: `Kiel${NUL}` } }),
    field: /^documents\.0\.metadata\.port: holds a NUL character/,
  },
  {
    name: "lone surrogate in a metadata value inside a list",
    path: "/v1/documents",
    body: document({ metadata: { tags: ["tide", `lock${LONE}`] } }),
    field: /^documents\.0\.metadata\.tags\.1: holds a lone surrogate/,
  },
  {
    name: "NUL in a metadata key",
    path: "/v1/documents",
    body: document({ metadata: { [`po${NUL}rt`]: "Kiel" } }),
    field: /^documents\.0\.metadata\.po\\u0000rt: this key holds a NUL character/,
  },
  {
    name: "lone surrogate in a metadata key",
    path: "/v1/documents",
    body: document({ metadata: { [`port${LONE}`]: "Kiel" } }),
    field: /^documents\.0\.metadata\.port\\uD800: this key holds a lone surrogate/,
  },
  {
    name: "NUL in a search filter value",
    path: "/v1/search",
    body: { query: "harbour", filter: { port: `Kiel${NUL}` } },
    field: /^filter\.port: holds a NUL character/,
  },
  {
    name: "lone surrogate in a search filter's list",
    path: "/v1/search",
    body: { query: "harbour", filter: { port: { in: ["Kiel", LONE] } } },
    field: /^filter\.port\.in\.1: holds a lone surrogate/,
  },
  {
    name: "NUL in a fuse filter value",
    path: "/v1/fuse",
    body: { query: "harbour", filter: { port: { eq: NUL } } },
    field: /^filter\.port\.eq: holds a NUL character/,
  },
];

/** Sends every case: each is a 400, not retryable, naming its field. */
export async function assertBadTextRefused(post: Post): Promise<void> {
  for (const { name, path, body, field } of BAD_TEXT_CASES) {
    const response = await post(path, body);
    const answer = await response.json();
    assert.equal(response.status, 400, `${name}: ${JSON.stringify(answer)}`);
    assert.match(errorMessageOf(answer), field, name);
  }
}

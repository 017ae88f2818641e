/**
 * `GET /v1/documents/:id` as docs/api.md describes it: the reply's fields,
 * top level and per chunk, are each named in the route's section, which
 * says the chunks are under `data` and `chunks` is their count (the page once
 * said the reply held "its chunks in order", and a newcomer looked for them
 * under `chunks`).
 */
import assert from "node:assert/strict";
import { testApp } from "../routes/helpers.ts";
import { ROOT } from "./commands.ts";

Deno.test("docs/api.md names every field GET /v1/documents/:id answers, the chunks under data", async () => {
  const { app, env, post } = testApp();
  const document = {
    id: "glaciers",
    title: "Glaciers",
    text: "# Ice\n\nGlaciers flow slowly.\n\n# Rock\n\nMoraines are what a glacier leaves behind.",
  };
  assert.equal((await post("/v1/documents", { documents: [document] })).status, 201);
  const response = await app.request("/v1/documents/glaciers", {}, env);
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.equal(typeof body.chunks, "number");
  assert.equal(body.data.length, body.chunks);

  const markdown = await Deno.readTextFile(`${ROOT}/docs/api.md`);
  const section = markdown.split("\n### `GET /v1/documents/:id`\n")[1]?.split("\n### ")[0] ?? "";
  const missing = [
    ...Object.keys(body),
    ...new Set(body.data.flatMap((chunk: Record<string, unknown>) => Object.keys(chunk))),
    ...new Set(
      body.data.flatMap((chunk: { metadata: Record<string, unknown> }) =>
        Object.keys(chunk.metadata).filter((key) => key !== "title" && key !== "source")
      ),
    ),
  ].filter((key) => !section.includes(`\`${key}\``));
  assert.deepEqual(missing, [], section);
  assert.match(section, /`chunks`: how\s+many/);
  assert.match(section, /under `data` its chunks in order/);
});

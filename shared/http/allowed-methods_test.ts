import assert from "node:assert/strict";
import { Hono } from "hono";
import { allowedMethods } from "./allowed-methods.ts";

Deno.test("allowedMethods() reads each path's methods from the app's routes", () => {
  const app = new Hono();
  app.use("*", async (_c, next) => await next());
  app.post("/v1/query", (c) => c.text("ok"));
  app.get("/v1/documents/:id", (c) => c.text("ok"));
  app.delete("/v1/documents/:id", (c) => c.text("ok"));
  app.all("/mcp", (c) => c.text("ok"));
  const allowed = allowedMethods(app);
  assert.deepEqual(allowed.of("/v1/query"), ["POST"]);
  assert.deepEqual(allowed.of("/v1/documents/rrf"), ["DELETE", "GET", "HEAD"]);
  assert.equal(allowed.of("/v1/nothing"), undefined);
  assert.equal(allowed.of("/mcp"), undefined, "app.all answers every method itself");
});

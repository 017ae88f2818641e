/**
 * Each function's routes load the first time a request reaches them
 * (app.ts's `SIFT_MOUNTS`): what loads when, that the paths declared cover
 * the routes, and that a Deno start parses none of them.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { createSiftApp, type ImportMount, SIFT_MOUNTS, SIFT_OPEN_MOUNTS } from "../../app.ts";
import { MOUNT_IMPORTS } from "../../mount-imports.ts";
import type { AppEnv, Mount } from "../../shared/http/app-env.ts";
import { lazyMount, LazyRoutes } from "../../shared/http/lazy-mount.ts";

const ENV = { DEMO_CORPUS: "false" };
const ALL = [...SIFT_MOUNTS, ...SIFT_OPEN_MOUNTS];

/** Deno's own loader, recording what it was asked for. */
function recording(): { importMount: ImportMount; loaded: string[] } {
  const loaded: string[] = [];
  return {
    loaded,
    importMount: async (module) => {
      loaded.push(module);
      return await import(new URL(`../../${module}`, import.meta.url).href);
    },
  };
}

Deno.test("each lazy mount's paths cover every route it adds", async () => {
  for (const entry of ALL) {
    const module = await import(new URL(`../../${entry.module}`, import.meta.url).href);
    const app = new Hono<AppEnv>();
    (module[entry.mount] as Mount)(app);
    const lazy = new LazyRoutes(lazyMount(entry.paths, () => Promise.resolve(() => {})), app);
    for (const route of app.routes) {
      const path = route.path.replaceAll(/:\w+/g, "x").replace(/\/\*$/, "/x");
      assert.ok(lazy.covers(path), `${entry.module}: ${route.method} ${route.path} not covered`);
    }
  }
});

Deno.test("mount-imports.ts lists exactly the modules app.ts mounts", () => {
  assert.deepEqual(Object.keys(MOUNT_IMPORTS).sort(), ALL.map((entry) => entry.module).sort());
});

Deno.test("a search loads the search routes and nothing else; /healthz and a 404 load none", async () => {
  const { importMount, loaded } = recording();
  const app = createSiftApp({ importMount });
  assert.equal((await app.request("/healthz", {}, ENV)).status, 200);
  assert.equal((await app.request("/no/such/route", {}, ENV)).status, 404);
  assert.deepEqual(loaded, []);
  const search = await app.request("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "fusion", mode: "sparse" }),
  }, ENV);
  assert.equal(search.status, 200);
  assert.ok(search.headers.get("x-request-id"), "the shell's headers are on the mount's reply");
  assert.deepEqual(loaded, ["./functions/fuse/app.ts"]);
  const wrongMethod = await app.request("/v1/search", { method: "PUT" }, ENV);
  assert.equal(wrongMethod.status, 405);
  assert.equal(wrongMethod.headers.get("allow"), "POST");
  assert.deepEqual(loaded, ["./functions/fuse/app.ts"], "loaded once");
});

Deno.test("a mount that fails to load is a 500 once, and loads on the next request", async () => {
  const { importMount } = recording();
  let failures = 1;
  const app = createSiftApp({
    importMount: async (module) => {
      if (failures-- > 0) throw new Error("disk hiccup");
      return await importMount(module);
    },
  });
  const ask = () => app.request("/v1/models", {}, ENV);
  const errorLog = console.error;
  console.error = () => {};
  try {
    assert.equal((await ask()).status, 500);
  } finally {
    console.error = errorLog;
  }
  assert.equal((await ask()).status, 200);
});

Deno.test("the OpenAPI document lists every mount's routes, in the order mounted", async () => {
  const { importMount, loaded } = recording();
  const document = await (await createSiftApp({ importMount }).request("/openapi.json", {}, ENV))
    .json() as { paths: Record<string, unknown> };
  assert.deepEqual(loaded.sort(), ALL.map((entry) => entry.module).sort());
  const paths = Object.keys(document.paths);
  assert.equal(paths[0], "/healthz");
  assert.equal(paths.at(-1), "/openapi.json");
  assert.ok(paths.indexOf("/v1/documents") < paths.indexOf("/v1/search"));
  assert.ok(paths.indexOf("/v1/search") < paths.indexOf("/v1/evaluations"));
});

Deno.test("main.ts's module graph holds no function's routes: Deno parses none at start", async () => {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: new URL("../../", import.meta.url),
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(success);
  const graph = JSON.parse(new TextDecoder().decode(stdout)) as {
    modules: { specifier: string }[];
  };
  const specifiers = new Set(graph.modules.map((module) => module.specifier));
  for (const entry of ALL) {
    const url = new URL(`../../${entry.module}`, import.meta.url).href;
    assert.ok(!specifiers.has(url), `main.ts loads ${entry.module} at start`);
  }
});

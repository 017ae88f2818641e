/**
 * Every Worker that serves the whole route table loads each function's
 * routes from its own bundle: wrangler's esbuild bundles only literal
 * `import()`s, so an entry calling `createSiftApp` without
 * `importMount: importBundledMount` answers 500 on its first routed request
 * (the Postgres Worker did, in wrangler dev).
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

async function wranglerConfigs(directory: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, directory))) {
    const path = join(directory, entry.name);
    if (entry.isDirectory && !["node_modules", ".git", ".wrangler"].includes(entry.name)) {
      found.push(...await wranglerConfigs(path));
    } else if (entry.isFile && entry.name === "wrangler.toml") found.push(path);
  }
  return found;
}

Deno.test("every Worker entry that builds the whole app imports its mounts from the bundle", async () => {
  const configs = await wranglerConfigs(".");
  assert.ok(configs.length >= 5, configs.join(", "));
  let wholeApps = 0;
  for (const config of configs) {
    const main = /^main\s*=\s*"([^"]+)"/m.exec(await Deno.readTextFile(join(ROOT, config)))?.[1];
    assert.ok(main, `${config} names no main`);
    const entry = join(dirname(config), main);
    const source = await Deno.readTextFile(join(ROOT, entry));
    if (!source.includes("createSiftApp(")) continue;
    wholeApps++;
    assert.match(source, /importMount:\s*importBundledMount/, `${entry} builds the app lazily`);
  }
  assert.ok(wholeApps >= 2, "the all-in-one Workers were not found");
});

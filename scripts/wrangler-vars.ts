/**
 * `wrangler dev` with several configs gives `--var` and `--env-file` to the
 * first Worker only, and each other Worker reads the `.dev.vars` beside its
 * own config. To give every Worker the same variables (a real LLM's
 * LLM_BASE_URL, say), this writes copies of the configs into `directory`
 * with the variables added to their `[vars]` and `main` made absolute.
 */
import { dirname, join, resolve } from "node:path";

/** TOML's basic string, escaped. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

export async function configsWithVars(
  configs: readonly string[],
  vars: Record<string, string>,
  directory: string,
  root: string,
): Promise<string[]> {
  const names = Object.keys(vars);
  for (const name of names) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(name)) throw new Error(`${name}: not a variable name`);
  }
  const lines = names.map((name) => `${name} = ${tomlString(vars[name]!)}`).join("\n");
  return await Promise.all(configs.map(async (config, position) => {
    const path = resolve(root, config);
    let text = await Deno.readTextFile(path);
    text = text.replace(
      /^main = "([^"]+)"$/m,
      (_, main: string) => `main = ${tomlString(resolve(dirname(path), main))}`,
    );
    // TOML forbids a key twice: the config's own value of a variable given here goes.
    for (const name of names) text = text.replace(new RegExp(`^${name} = .*$\\n?`, "m"), "");
    text = /^\[vars\]$/m.test(text)
      ? text.replace(/^\[vars\]$/m, `[vars]\n${lines}`)
      : `${text}\n[vars]\n${lines}\n`;
    const copy = join(directory, `${position}-${config.replaceAll("/", "_")}`);
    await Deno.writeTextFile(copy, text);
    return copy;
  }));
}

/** `NAME=value` lines (a `.dev.vars` file), comments and blanks skipped. */
export function parseDevVars(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Z][A-Z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trim().startsWith("#")) continue;
    vars[match[1]!] = match[2]!.replace(/^"(.*)"$/, "$1").replace(/^'(.*)'$/, "$1");
  }
  return vars;
}

/**
 * docs/configuration.md is the one list of environment variables: every
 * variable the config schema (`shared/config.ts`) reads is on it, so a new
 * variable cannot ship undocumented.
 */
import assert from "node:assert/strict";
import { ROOT } from "./commands.ts";

/** The variable names of `envSchema` in `shared/config.ts`'s source. */
export function schemaVariables(source: string): string[] {
  const block = /const envSchema = z\.object\(\{([\s\S]*?)\n\}\)/.exec(source)?.[1] ?? "";
  return [...block.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!);
}

Deno.test("schemaVariables() reads the top-level keys of the env schema only", () => {
  const source = [
    "const other = z.object({ NOT_THIS: z.string() });",
    "const envSchema = z.object({",
    "  PORT: z.coerce.number(),",
    "  LLM_MODEL: z.string().default(x),",
    "  nested: z.object({",
    "    INNER: z.string(),",
    "  }),",
    "})",
  ].join("\n");
  assert.deepEqual(schemaVariables(source), ["PORT", "LLM_MODEL"]);
});

Deno.test("docs/configuration.md lists every variable the config schema reads", async () => {
  const variables = schemaVariables(await Deno.readTextFile(`${ROOT}/shared/config.ts`));
  assert.ok(
    variables.length >= 30,
    `only ${variables.length} variables read: the reader is broken`,
  );
  const page = await Deno.readTextFile(`${ROOT}/docs/configuration.md`);
  assert.deepEqual(variables.filter((name) => !page.includes(`\`${name}\``)), []);
});

import {
  dimensionsOf,
  levelOf,
  type TotDimension,
  type TotLevelKind,
} from "../../../shared/rerank/tot/dimensions.ts";

/*
 * Reads ToT-RAG's prompts back out (see `functions/rerank/tot/render.ts`).
 * The renderer breaks `<passage>`, `<query>` and `<candidate>` tags inside
 * texts, so the first closing tag after an opening one is the real one.
 */

function block(user: string, name: string): string {
  return new RegExp(`<${name}>\\n([\\s\\S]*?)\\n</${name}>`).exec(user)?.[1] ?? "";
}

/** A scoring prompt: the dimension (`Dimension:` line), the query (if any) and the passage. */
export function readScorePrompt(
  user: string,
): { dimension: TotDimension | undefined; query: string; text: string } {
  const name = /^Dimension:\s*(\w+)\s*$/m.exec(user)?.[1] ?? "";
  return {
    dimension: levelOf(name) ? name as TotDimension : undefined,
    query: block(user, "query"),
    text: block(user, "passage"),
  };
}

const COUNT_WORDS = ["one", "two", "three", "four", "five"];

/**
 * The agent's prompt: its level (from the dimensions it lists), how many to
 * choose ("Choose the three dimensions"; 2 when unsaid), the query and the
 * candidates.
 */
export function readAgentPrompt(
  system: string,
  user: string,
): {
  kind: TotLevelKind;
  pool: readonly TotDimension[];
  count: number;
  query: string;
  candidates: string[];
} {
  const word = /\bchoose the (\w+) dimensions?\b/i.exec(system)?.[1]?.toLowerCase() ?? "";
  const count = COUNT_WORDS.includes(word) ? COUNT_WORDS.indexOf(word) + 1 : Number(word) || 2;
  const first = /^- (\w+):/m.exec(system)?.[1] ?? "";
  const kind = levelOf(first) ?? "quality";
  const candidates = [...user.matchAll(/<candidate index="\d+">\n([\s\S]*?)\n<\/candidate>/g)]
    .map((match) => match[1] ?? "");
  return { kind, pool: dimensionsOf(kind), count, query: block(user, "query"), candidates };
}

/**
 * The evaluator's prompt: `candidate N: name x, name y` rows as score
 * records, and the dimensions in the order the first row names them.
 */
export function readThresholdPrompt(
  user: string,
): { dimensions: string[]; rows: Record<string, number>[] } {
  const rows = [...user.matchAll(/^candidate \d+:(.*)$/gm)].map((match) =>
    Object.fromEntries(
      [...(match[1] ?? "").matchAll(/(\w+) (-?\d+(?:\.\d+)?)/g)].map((pair) => [
        pair[1]!,
        Number(pair[2]),
      ]),
    )
  );
  return { dimensions: Object.keys(rows[0] ?? {}), rows };
}

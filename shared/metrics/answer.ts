/**
 * Short-answer metrics in the style of SQuAD's official evaluation script:
 * both texts are normalized (lowercased; punctuation and symbols removed; the
 * articles a, an, the dropped; whitespace collapsed) before comparing.
 * Punctuation means any Unicode punctuation or symbol, a superset of
 * Python's `string.punctuation` that SQuAD strips.
 */

/**
 * SQuAD's normalization.
 *
 * @example
 * normalizeAnswer("The  Eiffel-Tower!"); // "eiffeltower"
 */
export function normalizeAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, "")
    .replace(/(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu, " ")
    .split(/\s+/u)
    .filter((token) => token.length > 0)
    .join(" ");
}

/**
 * 1 when the normalized prediction equals the normalized gold answer (or
 * any of several gold answers), else 0.
 *
 * @example
 * exactMatch("the Eiffel Tower.", "Eiffel tower"); // 1
 */
export function exactMatch(prediction: string, gold: string | readonly string[]): number {
  const predicted = normalizeAnswer(prediction);
  return golds(gold).some((answer) => normalizeAnswer(answer) === predicted) ? 1 : 0;
}

/**
 * Token-overlap F1 between the normalized texts (tokens counted with
 * multiplicity); the best over several gold answers. When either side has no
 * tokens, 1 if both are empty, else 0 (as SQuAD).
 *
 * @example
 * tokenF1("in Paris France", "Paris"); // 0.5
 */
export function tokenF1(prediction: string, gold: string | readonly string[]): number {
  const predicted = tokens(prediction);
  return Math.max(...golds(gold).map((answer) => f1(predicted, tokens(answer))));
}

function f1(predicted: string[], gold: string[]): number {
  if (predicted.length === 0 || gold.length === 0) {
    return predicted.length === gold.length ? 1 : 0;
  }
  const remaining = new Map<string, number>();
  for (const token of gold) remaining.set(token, (remaining.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of predicted) {
    const left = remaining.get(token) ?? 0;
    if (left > 0) {
      common++;
      remaining.set(token, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / predicted.length;
  const recall = common / gold.length;
  return (2 * precision * recall) / (precision + recall);
}

function tokens(text: string): string[] {
  const normalized = normalizeAnswer(text);
  return normalized === "" ? [] : normalized.split(" ");
}

function golds(gold: string | readonly string[]): readonly string[] {
  const answers = typeof gold === "string" ? [gold] : gold;
  if (answers.length === 0) throw new RangeError("gold: must hold at least one answer");
  return answers;
}

/** A heading that names one document and nothing else: `**Doc 1**`, `### Document 3`, `[2]:`. */
const HEADING =
  /^[^\w[]*(?:(?:doc(?:ument)?|passage)\s*[:=]?\s*#?\s*\[?(\d+)\]?|\[(\d+)\])[^\w[]*$/i;
/** A `Label: value` line inside a block (bullets and emphasis allowed). */
const FIELD = /^[\s>*_`\-•]*([A-Za-z][\w \-/&]*?)[\s*_`]*[:=]\s*(.+)$/;
const SCORE_LABEL = /^(?:final(?:\s+score)?|relevance|score|relevance\s+score)$/i;

/**
 * A reply written as one block per document turned into the line format
 * the rerank reader knows: a heading naming the document, then `Label:
 * value` lines, becomes `Doc: N, Relevance: 9, Topicality: 8, Rigor: 4,
 * Reason: …`. A block without a relevance or score line stays as written.
 *
 * @example
 * blocksAsLines("**Doc 1**\n- Relevance: 9\n- Topicality: 8"); // "Doc: 1, Relevance: 9, Topicality: 8"
 */
export function blocksAsLines(text: string): string {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const heading = HEADING.exec(lines[i]!);
    if (!heading) {
      out.push(lines[i]!);
      continue;
    }
    const fields: [string, string][] = [];
    let end = i + 1;
    for (; end < lines.length; end++) {
      const line = lines[end]!;
      if (line.trim() === "") {
        if (fields.length > 0) break;
        continue;
      }
      const field = FIELD.exec(line);
      if (!field || HEADING.test(line)) break;
      fields.push([field[1]!.trim(), field[2]!.trim()]);
    }
    const scoreAt = fields.findIndex(([label]) => /^final/i.test(label)) !== -1
      ? fields.findIndex(([label]) => /^final/i.test(label))
      : fields.findIndex(([label]) => SCORE_LABEL.test(label));
    if (scoreAt === -1) {
      out.push(lines[i]!);
      continue;
    }
    const [, score] = fields[scoreAt]!;
    const reason = fields.find(([label]) => /^reason/i.test(label));
    const pairs = fields.filter((field, at) => at !== scoreAt && field !== reason)
      .map(([label, value]) => `, ${label}: ${value}`).join("");
    out.push(
      `Doc: ${heading[1] ?? heading[2]}, Relevance: ${score}${pairs}${
        reason ? `, Reason: ${reason[1]}` : ""
      }`,
    );
    i = end - 1;
  }
  return out.join("\n");
}

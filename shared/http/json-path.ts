/**
 * Where in a JSON text that stops at `prefix.length` the next character sits,
 * as a field path (`documents.0.text`), or `body` at the top level. The text
 * need not be complete: only the containers opened so far and their keys count.
 */
export function jsonPathAt(prefix: string): string {
  const stack: Array<{ key?: string; expectKey: boolean } | { index: number }> = [];
  let i = 0;
  while (i < prefix.length) {
    const char = prefix[i]!;
    if (char === '"') {
      let end = i + 1;
      while (end < prefix.length && prefix[end] !== '"') end += prefix[end] === "\\" ? 2 : 1;
      if (end >= prefix.length) break; // the position is inside this string
      const top = stack.at(-1);
      if (top && "expectKey" in top && top.expectKey) {
        try {
          top.key = JSON.parse(prefix.slice(i, end + 1));
        } catch {
          top.key = prefix.slice(i + 1, end);
        }
        top.expectKey = false;
      }
      i = end + 1;
      continue;
    }
    const top = stack.at(-1);
    if (char === "{") stack.push({ expectKey: true });
    else if (char === "[") stack.push({ index: 0 });
    else if (char === "}" || char === "]") stack.pop();
    else if (char === "," && top) {
      if ("index" in top) top.index++;
      else Object.assign(top, { key: undefined, expectKey: true });
    }
    i++;
  }
  const path = stack.map((level) => "index" in level ? String(level.index) : level.key)
    .filter((part): part is string => part !== undefined);
  return path.length ? path.join(".") : "body";
}

/**
 * htmlparser2 (12.0) keeps its open elements newest first, adding with
 * `unshift` and removing with `shift`, so each tag costs time in proportion
 * to the nesting depth: a page of 100,000 nested elements took 10-17 s. This
 * stack offers the same view (index 0 is the newest element) over an array
 * kept oldest first, so adding and removing are O(1). It implements exactly
 * what the parser uses (`unshift`, `shift`, `indexOf`, `includes`, `length`,
 * indexing, `length = 0`); `fastenOpenElements` installs it only where the
 * parser still holds an array named `stack`, and html_test.ts parses nested
 * pages through it.
 */
function newestFirstStack(): unknown {
  const items: string[] = [];
  const methods: Record<string, unknown> = {
    unshift: (name: string) => items.push(name),
    shift: () => items.pop(),
    indexOf: (name: string) => {
      const at = items.lastIndexOf(name);
      return at === -1 ? -1 : items.length - 1 - at;
    },
    includes: (name: string) => items.includes(name),
  };
  return new Proxy(methods, {
    get(target, key) {
      if (key === "length") return items.length;
      if (typeof key === "string" && /^\d+$/.test(key)) {
        return items[items.length - 1 - Number(key)];
      }
      return target[key as string];
    },
    set(_target, key, value) {
      if (key !== "length" || typeof value !== "number") return false;
      items.length = Math.min(value, items.length);
      return true;
    },
  });
}

/** Gives a fresh htmlparser2 `Parser` the O(1) stack of open elements. */
export function fastenOpenElements(parser: object): void {
  const internals = parser as { stack?: unknown };
  if (Array.isArray(internals.stack) && internals.stack.length === 0) {
    internals.stack = newestFirstStack();
  }
}

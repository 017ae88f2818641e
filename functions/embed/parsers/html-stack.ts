/**
 * htmlparser2 (12.0) keeps its open elements newest first, adding with
 * `unshift` and removing with `shift`, so each tag costs time in proportion
 * to the nesting depth: a page of 100,000 nested elements took 10-17 s, a
 * DOCX of 100,000 nested runs 21 s. This stack offers the same view (index 0
 * is the newest element) over an array kept oldest first, so adding and
 * removing are O(1), and it counts the open elements by name, so a closing
 * tag that matches none (`</x>` under 100,000 open `<y>`) is answered without
 * a walk down the stack. It implements exactly what the parser uses
 * (`unshift`, `shift`, `indexOf`, `includes`, `length`, indexing,
 * `length = 0`); `fastenOpenElements` installs it only where the parser
 * still holds an array named `stack`, and html_test.ts and docx_test.ts
 * parse nested files through it.
 */
function newestFirstStack(): unknown {
  const items: string[] = [];
  const open = new Map<string, number>();
  const count = (name: string, change: number) => {
    const left = (open.get(name) ?? 0) + change;
    if (left > 0) open.set(name, left);
    else open.delete(name);
  };
  const methods: Record<string, unknown> = {
    unshift: (name: string) => {
      count(name, 1);
      return items.push(name);
    },
    shift: () => {
      const name = items.pop();
      if (name !== undefined) count(name, -1);
      return name;
    },
    // When the name is open, the walk ends at its newest copy, and the parser
    // then closes every element it walked past: each element is walked once.
    indexOf: (name: string) => {
      if (!open.has(name)) return -1;
      return items.length - 1 - items.lastIndexOf(name);
    },
    includes: (name: string) => open.has(name),
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
      while (items.length > Math.max(0, value)) count(items.pop()!, -1);
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

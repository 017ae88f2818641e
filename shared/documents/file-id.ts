/**
 * The ids files get as documents: one registry for the embed function (a file
 * uploaded without an `id`), the MCP `ingest` tool and the `ingest` CLI (a
 * folder's files), so each finds the same id for the same file.
 */

/** What a part of an id may not hold (see `documentIdSchema`). */
const UNSAFE = /[^A-Za-z0-9._:-]+/g;
const MAX_ID_CHARS = 200;

/**
 * A document id from a file's name: `Tide Tables.pdf` → `Tide-Tables`. Any
 * path before the name is left out.
 *
 * @example
 * fileDocumentId("Tide Tables.pdf"); // "Tide-Tables"
 */
export function fileDocumentId(filename: string): string {
  const name = filename.split(/[\\/]/).pop() ?? filename;
  return name.replace(/\.[^.]+$/, "").replace(UNSAFE, "-")
    .replace(/^[.]+$/, "").slice(0, MAX_ID_CHARS) || "document";
}

/**
 * A document id from a file's path inside a folder: the path with `/` between
 * its parts, each part's other characters as `-`, and the name whole, its
 * extension kept, so `README` and `README.md` beside it, or `NEWS.html` and
 * `NEWS.gz`, stay two documents. Over 200 characters it is cut (and a cut id
 * may then meet another: the callers refuse that, naming both files).
 *
 * @example
 * pathDocumentId("alpha/README"); // "alpha/README"
 * pathDocumentId("notes/Tide Tables.pdf"); // "notes/Tide-Tables.pdf"
 */
export function pathDocumentId(relativePath: string): string {
  const parts = relativePath.split(/[\\/]/).filter((part) => part !== "" && part !== ".")
    .map((part) => part === ".." ? "--" : part.replace(UNSAFE, "-"));
  const id = parts.join("/").slice(0, MAX_ID_CHARS).replace(/\/+$/, "");
  return /(^|\/)\.{1,2}$/.test(id) ? `${id}-` : id || "document";
}

/**
 * The ids in `named` that more than one item has, each with its items in
 * order: empty when every id is one file's.
 *
 * @example
 * sharedIds([{ id: "a", path: "a.md" }, { id: "b", path: "b.md" }, { id: "a", path: "x/a" }]);
 * // [["a", [{ id: "a", path: "a.md" }, { id: "a", path: "x/a" }]]]
 */
export function sharedIds<T extends { id: string }>(named: readonly T[]): [string, T[]][] {
  const byId = new Map<string, T[]>();
  for (const item of named) {
    const items = byId.get(item.id);
    if (items) items.push(item);
    else byId.set(item.id, [item]);
  }
  return [...byId].filter(([, items]) => items.length > 1);
}

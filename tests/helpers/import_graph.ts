/**
 * The repository's import graph, read from the source text (static, dynamic
 * and type-only imports alike), and the cycles in it. The layering test uses
 * both; the cycle finder is a pure function over a graph so it can be tested
 * on a synthetic one.
 */
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;
const SKIPPED = new Set(["node_modules", ".wrangler", ".data", ".git"]);

/** Every .ts/.js/.mjs file under `directory`, as a path from the repository's root. */
export async function* sourceFiles(directory: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(join(ROOT, directory))) {
    const path = directory === "" ? entry.name : join(directory, entry.name);
    if (entry.isDirectory && !SKIPPED.has(entry.name)) yield* sourceFiles(path);
    else if (entry.isFile && /\.(ts|js|mjs)$/.test(entry.name)) yield path;
  }
}

/** Each relative import of a file, as a path from the repository's root. */
export async function importsOf(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(ROOT, file));
  return [...text.matchAll(SPECIFIER)]
    .map((match) => match[1]!)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => normalize(join(dirname(file), specifier)));
}

/** The graph of relative imports between the files under `directories`. */
export async function importGraph(directories: string[]): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const directory of directories) {
    for await (const file of sourceFiles(directory)) graph.set(file, await importsOf(file));
  }
  return graph;
}

/**
 * Every import cycle, one per strongly connected component of more than one
 * file (or a file importing itself), each listed from its smallest name and
 * closed: `["a.ts", "b.ts", "a.ts"]`. Tarjan's algorithm, iterative so a deep
 * graph cannot overflow the stack.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components.map((component) => cycleThrough(graph, component)).sort((a, b) =>
    a[0]!.localeCompare(b[0]!)
  );
}

/** One closed path through a component's files, from its smallest name, to show in a failure. */
function cycleThrough(
  graph: ReadonlyMap<string, readonly string[]>,
  component: string[],
): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  // Breadth-first from the start back to itself, inside the component.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (
          let at: string | undefined = node;
          at !== undefined && at !== start;
          at = previous.get(at)
        ) {
          path.splice(1, 0, at);
        }
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

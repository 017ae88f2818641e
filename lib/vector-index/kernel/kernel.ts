import { DOT_WASM_BASE64 } from "./dot-wasm.ts";
import { DOT_SHARED_WASM_BASE64 } from "./dot-shared-wasm.ts";

/**
 * Dot products of int8 rows (`stride` bytes apart, zero-padded past the
 * vector's width) with an int16 query, over one linear memory: `scan` scores
 * `count` consecutive rows, `gather` the rows whose numbers sit at `slots`;
 * `hamming` counts the differing bits of `count` consecutive bit codes and a
 * query code, `hammingGather` of the codes whose numbers sit at `slots`;
 * `histogram` counts int32 values (small ones: distances) into u32 counts,
 * and `atMost` writes the numbers of the values at most a cut, returning how
 * many. Addresses are byte offsets into `memory`; results are int32 at `out`.
 */
export interface DotKernel {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  scan(rows: number, stride: number, count: number, query: number, out: number): void;
  gather(
    rows: number,
    stride: number,
    slots: number,
    count: number,
    query: number,
    out: number,
  ): void;
  hamming(codes: number, stride: number, count: number, query: number, out: number): void;
  hammingGather(
    codes: number,
    stride: number,
    slots: number,
    count: number,
    query: number,
    out: number,
  ): void;
  histogram(values: number, count: number, counts: number): void;
  atMost(values: number, count: number, cut: number, out: number): number;
}

export const PAGE_BYTES = 65536;
/** wasm32's limit: 4 GiB of rows per namespace (2.7M chunks of 1,536 dimensions). */
const MAX_PAGES = 65536;

let compiled: WebAssembly.Module | null | undefined;
let compiledShared: WebAssembly.Module | null | undefined;

/**
 * The WebAssembly SIMD kernel where the runtime compiles modules from bytes
 * (Deno, browsers); workerd refuses that (code generation is off in Workers),
 * and there the same arithmetic runs in plain JS. Compiled once, on first use.
 * `shared`: over a shared memory, which a helper thread can scan too
 * (`kernel/helper.ts`); where shared memories are missing, a plain one.
 */
export function createDotKernel(
  initialBytes: number,
  options: { shared?: boolean } = {},
): DotKernel {
  const pages = Math.max(1, Math.ceil(initialBytes / PAGE_BYTES));
  const module = options.shared ? sharedDotModule() : plainDotModule();
  if (module) {
    const memory = new WebAssembly.Memory({
      initial: pages,
      maximum: MAX_PAGES,
      ...(options.shared ? { shared: true } : {}),
    });
    return instantiateDotKernel(module, memory);
  }
  if (options.shared) return createDotKernel(initialBytes);
  return new JsDotKernel(pages);
}

/** The kernel's functions over `memory`, from a compiled module (on any thread). */
export function instantiateDotKernel(
  module: WebAssembly.Module,
  memory: WebAssembly.Memory,
): DotKernel {
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  const { scan, gather, hamming, hammingGather, histogram, atMost } = instance
    .exports as unknown as Omit<DotKernel, "memory">;
  return {
    memory: memory as DotKernel["memory"],
    scan,
    gather,
    hamming,
    hammingGather,
    histogram,
    atMost,
  };
}

/** Which kernel this runtime gets (for the server banner and benchmarks). */
export function dotKernelName(): "wasm-simd" | "js" {
  return plainDotModule() ? "wasm-simd" : "js";
}

function plainDotModule(): WebAssembly.Module | null {
  return compiled ??= compileKernel(DOT_WASM_BASE64);
}

/** The kernel over a shared memory, or null where the runtime has no threads for wasm. */
export function sharedDotModule(): WebAssembly.Module | null {
  if (compiledShared !== undefined) return compiledShared;
  compiledShared = null;
  if (typeof SharedArrayBuffer !== "function" || !plainDotModule()) return null;
  const module = compileKernel(DOT_SHARED_WASM_BASE64);
  try {
    if (module) new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    compiledShared = module;
  } catch {
    // A runtime that compiles wasm but refuses shared memories.
  }
  return compiledShared;
}

function compileKernel(base64: string): WebAssembly.Module | null {
  try {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    return new WebAssembly.Module(bytes);
  } catch {
    return null;
  }
}

/** The same contract over an ArrayBuffer, for runtimes without WebAssembly compilation. */
export class JsDotKernel implements DotKernel {
  readonly memory: { buffer: ArrayBuffer; grow(pages: number): number };

  constructor(pages: number) {
    const memory = {
      buffer: new ArrayBuffer(pages * PAGE_BYTES),
      grow(more: number): number {
        const before = memory.buffer.byteLength / PAGE_BYTES;
        if (before + more > MAX_PAGES) throw new RangeError("dense rows: out of memory");
        const buffer = new ArrayBuffer((before + more) * PAGE_BYTES);
        new Uint8Array(buffer).set(new Uint8Array(memory.buffer));
        memory.buffer = buffer;
        return before;
      },
    };
    this.memory = memory;
  }

  scan(rows: number, stride: number, count: number, query: number, out: number): void {
    const bytes = new Int8Array(this.memory.buffer);
    const values = new Int16Array(this.memory.buffer, query, stride);
    const results = new Int32Array(this.memory.buffer, out, count);
    for (let i = 0; i < count; i++) results[i] = dot(bytes, rows + i * stride, values, stride);
  }

  gather(
    rows: number,
    stride: number,
    slots: number,
    count: number,
    query: number,
    out: number,
  ): void {
    const bytes = new Int8Array(this.memory.buffer);
    const numbers = new Uint32Array(this.memory.buffer, slots, count);
    const values = new Int16Array(this.memory.buffer, query, stride);
    const results = new Int32Array(this.memory.buffer, out, count);
    for (let i = 0; i < count; i++) {
      results[i] = dot(bytes, rows + numbers[i]! * stride, values, stride);
    }
  }

  hamming(codes: number, stride: number, count: number, query: number, out: number): void {
    const bytes = new Uint8Array(this.memory.buffer);
    const results = new Int32Array(this.memory.buffer, out, count);
    for (let i = 0; i < count; i++) {
      results[i] = differing(bytes, codes + i * stride, query, stride);
    }
  }

  hammingGather(
    codes: number,
    stride: number,
    slots: number,
    count: number,
    query: number,
    out: number,
  ): void {
    const bytes = new Uint8Array(this.memory.buffer);
    const numbers = new Uint32Array(this.memory.buffer, slots, count);
    const results = new Int32Array(this.memory.buffer, out, count);
    for (let i = 0; i < count; i++) {
      results[i] = differing(bytes, codes + numbers[i]! * stride, query, stride);
    }
  }

  histogram(values: number, count: number, counts: number): void {
    const numbers = new Int32Array(this.memory.buffer, values, count);
    const tally = new Uint32Array(this.memory.buffer, counts);
    for (let i = 0; i < count; i++) tally[numbers[i]!]!++;
  }

  atMost(values: number, count: number, cut: number, out: number): number {
    const numbers = new Int32Array(this.memory.buffer, values, count);
    const picked = new Uint32Array(this.memory.buffer, out, count);
    let n = 0;
    for (let i = 0; i < count; i++) if (numbers[i]! <= cut) picked[n++] = i;
    return n;
  }
}

function differing(bytes: Uint8Array, at: number, query: number, stride: number): number {
  let count = 0;
  for (let b = 0; b < stride; b++) count += BIT_COUNTS[bytes[at + b]! ^ bytes[query + b]!]!;
  return count;
}

const BIT_COUNTS = Uint8Array.from(
  { length: 256 },
  (_, byte) => byte.toString(2).replaceAll("0", "").length,
);

function dot(bytes: Int8Array, at: number, query: Int16Array, stride: number): number {
  let a = 0, b = 0, c = 0, d = 0;
  for (let i = 0; i < stride; i += 4) {
    a += bytes[at + i]! * query[i]!;
    b += bytes[at + i + 1]! * query[i + 1]!;
    c += bytes[at + i + 2]! * query[i + 2]!;
    d += bytes[at + i + 3]! * query[i + 3]!;
  }
  return (a + b + c + d) | 0;
}

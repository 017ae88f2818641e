/**
 * The dense index's kernels on one machine in one run: the WebAssembly SIMD
 * kernel against the same arithmetic in plain JS (what workerd runs), over
 * the same rows: int8 dot products with every 1,536-d row, with rows picked
 * by number, and Hamming distances over 1,024-bit codes.
 */
import { createDotKernel, type DotKernel, JsDotKernel } from "../kernel/kernel.ts";
import { mulberry32 } from "../random.ts";

export type KernelRow = {
  operation: "int8 scan" | "int8 gather" | "hamming" | "hamming gather";
  rows: number;
  wasm_ms: number;
  js_ms: number;
};

const STRIDE = 1536;
const CODE_BYTES = 128;

function median(work: () => void, times = 7): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    work();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[times >> 1]!;
}

export function benchKernel(rows = 100_000): KernelRow[] {
  const random = mulberry32(3);
  const rowBytes = rows * STRIDE;
  const queryAt = rowBytes, slotsAt = queryAt + STRIDE * 2, outAt = slotsAt + rows * 4;
  const gathered = Math.floor(rows / 10);
  const kernels: DotKernel[] = [createDotKernel(outAt + rows * 4), new JsDotKernel(1)];
  const js = kernels[1]!;
  js.memory.grow(Math.ceil((outAt + rows * 4) / 65536));
  const fill = new Int8Array(rowBytes);
  for (let i = 0; i < fill.length; i++) fill[i] = Math.floor(random() * 255) - 127;
  const query = Int16Array.from({ length: STRIDE }, () => Math.floor(random() * 32767) - 16383);
  const slots = Uint32Array.from({ length: gathered }, () => Math.floor(random() * rows));
  for (const kernel of kernels) {
    new Int8Array(kernel.memory.buffer, 0, rowBytes).set(fill);
    new Int16Array(kernel.memory.buffer, queryAt, STRIDE).set(query);
    new Uint32Array(kernel.memory.buffer, slotsAt, gathered).set(slots);
  }
  const time = (run: (kernel: DotKernel) => void) =>
    kernels.map((kernel) => median(() => run(kernel)));
  const [scanWasm, scanJs] = time((kernel) => kernel.scan(0, STRIDE, rows, queryAt, outAt));
  const [gatherWasm, gatherJs] = time((kernel) =>
    kernel.gather(0, STRIDE, slotsAt, gathered, queryAt, outAt)
  );
  const [hammingWasm, hammingJs] = time((kernel) =>
    kernel.hamming(0, CODE_BYTES, rows, queryAt, outAt)
  );
  // The second pass of large namespaces (bit-codes.ts): full codes of a tenth of the rows, by
  // number in ascending order; beside "hamming" it says where the prefix pass starts to pay.
  const ascending = slots.slice().sort();
  for (const kernel of kernels) {
    new Uint32Array(kernel.memory.buffer, slotsAt, gathered).set(ascending);
  }
  const [gatherCodesWasm, gatherCodesJs] = time((kernel) =>
    kernel.hammingGather(0, CODE_BYTES, slotsAt, gathered, queryAt, outAt)
  );
  return [
    { operation: "int8 scan", rows, wasm_ms: scanWasm!, js_ms: scanJs! },
    { operation: "int8 gather", rows: gathered, wasm_ms: gatherWasm!, js_ms: gatherJs! },
    { operation: "hamming", rows, wasm_ms: hammingWasm!, js_ms: hammingJs! },
    {
      operation: "hamming gather",
      rows: gathered,
      wasm_ms: gatherCodesWasm!,
      js_ms: gatherCodesJs!,
    },
  ];
}

if (import.meta.main) console.log(JSON.stringify(benchKernel(), null, 2));

/**
 * For `helper_test.ts`: large passes that start the helper thread, then
 * nothing. The process must exit by itself once the helper has gone idle.
 */
import { hammingPass, HELPER_FROM_ROWS, helperState } from "./helper.ts";
import { createDotKernel } from "./kernel.ts";

const stride = 128;
const rows = HELPER_FROM_ROWS;
const kernel = createDotKernel((rows + 1) * stride + rows * 4, { shared: true });
const query = rows * stride;
const out = query + stride;
for (let pass = 0; pass < 400 && helperState().chunksHelped === 0; pass++) {
  hammingPass(kernel, 0, stride, rows, query, out);
  await new Promise((resolve) => setTimeout(resolve, 25));
}
console.log(`helped: ${helperState().chunksHelped}`);

/**
 * Where tests find the ARAGOG dataset: `../shared/datasets/aragog` beside the
 * checkout. It is third-party text and never enters the repo, so locally a
 * test skips without it; under CI (which has `../shared`) its absence fails.
 */
export const ARAGOG_DIR = new URL("../../../shared/datasets/aragog", import.meta.url).pathname;

/** True when both dataset files are there; throws under CI when they are not. */
export function aragogAvailable(): boolean {
  let present = false;
  try {
    present = Deno.statSync(`${ARAGOG_DIR}/corpus.jsonl`).isFile &&
      Deno.statSync(`${ARAGOG_DIR}/questions.jsonl`).isFile;
  } catch {
    present = false;
  }
  if (!present && Deno.env.get("CI")) {
    throw new Error(
      `The ARAGOG dataset is missing at ${ARAGOG_DIR}: CI needs ../shared beside the checkout`,
    );
  }
  return present;
}

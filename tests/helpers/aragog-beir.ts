import { ARAGOG_DIR } from "./aragog.ts";
import { writeAragogBeir as convert } from "../../scripts/aragog-beir.ts";

/**
 * ARAGOG in the BEIR layout, written into `folder` at test time (its text is
 * third-party and never committed) by the converter the docs run,
 * `scripts/aragog-beir.ts`.
 */
export function writeAragogBeir(folder: string): Promise<{ queries: number }> {
  return convert(folder, ARAGOG_DIR);
}

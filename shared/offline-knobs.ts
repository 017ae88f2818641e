/**
 * The offline model's knobs (configuration, read by shared/config.ts and the
 * offline provider alike), parsed from the `OFFLINE_MODEL_LATENCY` and
 * `OFFLINE_MODEL_FAULTS` strings, and the seeded random source that decides
 * which request gets which fault. Parse errors are plain `Error`s whose
 * message says what is wrong, so the config layer can prefix the variable.
 */

/** Pacing of a reply: wait `ttftMs`, then emit `tokensPerSecond` (Infinity: no pacing). */
export type Latency = { ttftMs: number; tokensPerSecond: number };

/**
 * `empty`: a 200 with nothing in it (chat: empty content; embeddings: an empty
 * body). Last, so adding it left the draws of the others where they were.
 */
export const FAULT_KINDS = ["http429", "http500", "timeout", "malformed", "cut", "empty"] as const;
export type FaultKind = typeof FAULT_KINDS[number];
/** The probability of each fault per request; they exclude each other, so they sum to ≤ 1. */
export type Faults = Record<FaultKind, number>;

/** `"a=1,b=2"` as pairs; empty parts are skipped so a trailing comma is harmless. */
function pairs(text: string): [string, string][] {
  const seen = new Set<string>();
  const result: [string, string][] = [];
  for (const part of text.split(",")) {
    if (part.trim() === "") continue;
    const match = /^\s*([\w-]+)\s*=\s*(\S+)\s*$/.exec(part);
    if (!match) throw new Error(`"${part.trim()}" is not of the form name=value`);
    const [, name = "", value = ""] = match;
    if (seen.has(name)) throw new Error(`"${name}" is given twice`);
    seen.add(name);
    result.push([name, value]);
  }
  return result;
}

const NUMBER = /^\d+(?:\.\d+)?$|^\.\d+$/;

/**
 * Parses a latency spec; `ttft` takes `ms` or `s` (bare numbers are ms),
 * `tps` is tokens per second. Either may be omitted.
 *
 * @example
 * parseLatency("ttft=0.3s,tps=80"); // { ttftMs: 300, tokensPerSecond: 80 }
 */
export function parseLatency(text = ""): Latency {
  const latency: Latency = { ttftMs: 0, tokensPerSecond: Infinity };
  for (const [name, value] of pairs(text)) {
    if (name === "ttft") {
      const match = /^(.*?)(ms|s)?$/.exec(value);
      const amount = match?.[1] ?? "";
      if (!NUMBER.test(amount)) {
        throw new Error(`ttft "${value}" is not a duration like 300ms or 0.3s`);
      }
      latency.ttftMs = Number(amount) * (match?.[2] === "s" ? 1000 : 1);
    } else if (name === "tps") {
      if (!NUMBER.test(value) || Number(value) <= 0) {
        throw new Error(`tps "${value}" is not a positive number of tokens per second`);
      }
      latency.tokensPerSecond = Number(value);
    } else {
      throw new Error(`unknown latency knob "${name}"; known: ttft, tps`);
    }
  }
  return latency;
}

/**
 * Parses a fault spec: each known fault with a probability in [0, 1], at
 * most 1 in total because one draw per request picks at most one fault.
 *
 * @example
 * parseFaults("http429=0.2,cut=0.1").http429; // 0.2
 */
export function parseFaults(text = ""): Faults {
  const faults: Faults = { http429: 0, http500: 0, timeout: 0, malformed: 0, cut: 0, empty: 0 };
  for (const [name, value] of pairs(text)) {
    if (!(FAULT_KINDS as readonly string[]).includes(name)) {
      throw new Error(`unknown fault "${name}"; known: ${FAULT_KINDS.join(", ")}`);
    }
    if (!NUMBER.test(value) || Number(value) > 1) {
      throw new Error(`fault ${name}=${value}: the probability must be a number from 0 to 1`);
    }
    faults[name as FaultKind] = Number(value);
  }
  const total = FAULT_KINDS.reduce((sum, kind) => sum + faults[kind], 0);
  // A small tolerance, so "0.7,0.2,0.1" is not rejected for floating-point dust.
  if (total > 1 + 1e-9) {
    throw new Error(`fault probabilities add up to ${total}; they must add up to at most 1`);
  }
  return faults;
}

/** The fault draws' RNG: seeded, so a run's fault sequence repeats. */
export { mulberry32 as seededRandom } from "./random.ts";

/** One draw: the fault this request suffers, or undefined for a healthy reply. */
export function drawFault(faults: Faults, random: () => number): FaultKind | undefined {
  const draw = random();
  let cumulative = 0;
  for (const kind of FAULT_KINDS) {
    cumulative += faults[kind];
    if (faults[kind] > 0 && draw < cumulative) return kind;
  }
  return undefined;
}

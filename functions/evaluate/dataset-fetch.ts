import { SiftError, UpstreamError } from "../../shared/errors.ts";

/** The most a dataset file may hold: 2,000 questions with references fit many times over. */
export const DATASET_MAX_BYTES = 16 * 1024 * 1024;
/** How long fetching it may take, redirects and body included. */
export const DATASET_TIMEOUT_MS = 30_000;
/** Redirects followed, each to the same host. */
export const DATASET_MAX_REDIRECTS = 5;

export type DatasetFetchOptions = {
  signal?: AbortSignal | undefined;
  maxBytes?: number;
  timeoutMs?: number;
  /** Injected in tests; the global `fetch` otherwise. */
  fetch?: typeof fetch;
};

function datasetError(message: string, cause?: unknown): UpstreamError {
  return new UpstreamError("dataset", { message, cause });
}

/** The next URL of a redirect, when it stays on the dataset's host (and never drops https). */
function sameHostRedirect(from: URL, location: string | null): URL {
  if (!location || !URL.canParse(location, from)) {
    throw datasetError("The evaluation dataset redirected without a usable Location");
  }
  const next = new URL(location, from);
  const downgraded = from.protocol === "https:" && next.protocol !== "https:";
  if (next.host !== from.host || downgraded || !/^https?:$/.test(next.protocol)) {
    throw datasetError(
      "The evaluation dataset redirected to another host; only same-host redirects are followed",
    );
  }
  return next;
}

/** The body as text, cut off with an error once it passes `maxBytes`. */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  const tooLarge = () => datasetError(`The evaluation dataset is larger than ${maxBytes} bytes`);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Fetches an evaluation dataset's text: redirects followed by hand and only
 * to the same host (a dataset URL must not become a way to reach another
 * machine), the whole exchange under a time limit and the body under a
 * byte cap, read as it streams so an endless body costs no more than the cap.
 *
 * @example
 * const text = await fetchDatasetText("https://example.org/questions.jsonl");
 */
export async function fetchDatasetText(
  url: string,
  options: DatasetFetchOptions = {},
): Promise<string> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DATASET_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const fetcher = options.fetch ?? fetch;
  let current = new URL(url);
  try {
    for (let redirects = 0;; redirects++) {
      const response = await fetcher(current, { redirect: "manual", signal });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        if (redirects >= DATASET_MAX_REDIRECTS) {
          throw datasetError(
            `The evaluation dataset redirected more than ${DATASET_MAX_REDIRECTS} times`,
          );
        }
        current = sameHostRedirect(current, response.headers.get("location"));
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw datasetError(`The evaluation dataset answered ${response.status}`);
      }
      return await readCapped(response, options.maxBytes ?? DATASET_MAX_BYTES);
    }
  } catch (error) {
    if (error instanceof SiftError) throw error;
    if (timeout.aborted) {
      throw new SiftError("timeout", 504, "The evaluation dataset did not arrive in time", {
        cause: error,
        isRetryable: true,
      });
    }
    throw datasetError("The evaluation dataset could not be fetched", error);
  }
}

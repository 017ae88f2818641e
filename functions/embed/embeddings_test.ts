import assert from "node:assert/strict";
import { APIError } from "openai";
import { createEmbeddings } from "./embeddings.ts";
import { toLlmError } from "../../shared/llm/errors.ts";
import { InvalidRequestError, UpstreamError } from "../../shared/errors.ts";

/** An embedder whose provider refuses with `status` and `param`, as the SDK reports it. */
function refusingEmbedder(status: number, param: string | null) {
  const refusal = APIError.generate(
    status,
    {
      error: { message: "This model does not support that", param, type: "invalid_request_error" },
    },
    undefined,
    new Headers(),
  );
  return {
    model: "provider-model",
    embed: () => Promise.reject(toLlmError(refusal, "embeddings")),
  };
}

const input = { texts: ["lava"], encoding: "float" as const, dimensions: 4000 };

Deno.test("createEmbeddings() turns the provider's 400 on dimensions into a 400 naming it", async () => {
  const error = await createEmbeddings({ embedder: refusingEmbedder(400, "dimensions") }, input)
    .catch((caught) => caught);
  assert.ok(error instanceof InvalidRequestError, String(error));
  assert.match(error.message, /^dimensions: /);
  assert.doesNotMatch(error.message, /does not support/, "the provider's words stay in cause");
});

Deno.test("createEmbeddings() keeps other provider failures as 502s", async () => {
  for (
    const [embedder, given] of [
      [refusingEmbedder(400, "input"), input],
      [refusingEmbedder(500, "dimensions"), input],
      [refusingEmbedder(400, "dimensions"), { ...input, dimensions: undefined }],
    ] as const
  ) {
    const error = await createEmbeddings({ embedder }, given).catch((caught) => caught);
    assert.ok(error instanceof UpstreamError, String(error));
  }
});

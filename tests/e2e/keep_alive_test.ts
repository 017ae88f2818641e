/**
 * `deno task start` as HTTP clients meet it (#29): one keep-alive connection
 * carries mixed requests, streams included, with no `connection: close` and
 * no header sent twice; a request followed by a half-close is answered; two
 * pipelined requests are both answered, in order. Raw sockets, so nothing a
 * client library does hides what the server sent.
 */
import assert from "node:assert/strict";
import { startService } from "./service.ts";
import { duplicatedHeaders, RawConnection, rawRequest } from "../helpers/raw_http.ts";

const SEARCH = { query: "reciprocal rank fusion", mode: "sparse" };
const QUERY = { query: "What does reciprocal rank fusion do?" };

Deno.test({
  name: "one keep-alive connection carries 30 mixed requests; half-close and pipelining answered",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using service = await startService({
      DEMO_CORPUS: "false",
      SIFT_DATA_DIR: await Deno.makeTempDir(),
    });
    const port = Number(new URL(service.url).port);
    const ingested = await fetch(`${service.url}/v1/documents`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        documents: [{
          id: "rrf",
          text: "Reciprocal rank fusion adds 1 / (k + rank) over the rankings of every query.",
        }],
      }),
    });
    assert.equal(ingested.status, 201, await ingested.text());

    await t.step(
      "30 requests, one connection: /healthz, sparse /v1/search, streamed /v1/query",
      async () => {
        using connection = await RawConnection.open(port);
        for (let i = 0; i < 30; i++) {
          const kind = ["healthz", "search", "query"][i % 3]!;
          await connection.send(
            kind === "healthz"
              ? rawRequest("GET", "/healthz")
              : rawRequest("POST", kind === "search" ? "/v1/search" : "/v1/query", {
                body: kind === "search" ? SEARCH : QUERY,
              }),
          );
          const response = await connection.response();
          const where = `request ${i + 1} (${kind})`;
          assert.equal(response.status, 200, `${where}: ${response.body}`);
          assert.deepEqual(
            duplicatedHeaders(response),
            [],
            `${where}: ${JSON.stringify(response.headers)}`,
          );
          const connectionHeader = response.headers.find(([name]) => name === "connection")?.[1];
          assert.notEqual(
            connectionHeader?.toLowerCase(),
            "close",
            `${where} closes the connection`,
          );
          if (kind === "query") {
            assert.match(response.body, /event: answer-end/, where);
            assert.match(response.body, /event: done/, where);
          } else {
            assert.ok(JSON.parse(response.body), where);
          }
        }
      },
    );

    await t.step("a request and then a half-close (SHUT_WR) is answered", async () => {
      using connection = await RawConnection.open(port);
      await connection.send(rawRequest("POST", "/v1/search", { body: SEARCH }));
      await connection.closeWrite();
      const response = await connection.response();
      assert.equal(response.status, 200, response.body);
      assert.ok(Array.isArray(JSON.parse(response.body).results));
      assert.ok(await connection.closedByServer(20_000), "the server keeps a half-closed socket");
    });

    await t.step(
      "two pipelined requests, sent in one write, are both answered in order",
      async () => {
        using connection = await RawConnection.open(port);
        await connection.send(
          rawRequest("POST", "/v1/search", { body: SEARCH }) + rawRequest("GET", "/healthz"),
        );
        const first = await connection.response();
        const second = await connection.response();
        assert.equal(first.status, 200, first.body);
        assert.ok("results" in JSON.parse(first.body), "the search answered first");
        assert.equal(second.status, 200, second.body);
        assert.ok("providers" in JSON.parse(second.body), "then /healthz");
      },
    );
  },
});

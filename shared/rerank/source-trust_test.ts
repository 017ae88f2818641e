import assert from "node:assert/strict";
import {
  documentSource,
  isTrustedSource,
  withoutAuthority,
  withoutClaimedAuthority,
} from "./source-trust.ts";

Deno.test("documentSource() is the lower-cased host of an http(s) url, else undefined", () => {
  assert.equal(documentSource({ url: "https://ArXiv.org/abs/1" }), "arxiv.org");
  assert.equal(documentSource({ url: "ftp://arxiv.org/x" }), undefined);
  assert.equal(documentSource({ url: "arxiv.org" }), undefined);
  assert.equal(documentSource({ source: "arxiv.org" }), undefined, "a declared source is no host");
  assert.equal(documentSource(undefined), undefined);
});

Deno.test("isTrustedSource() accepts a listed host and its subdomains only", () => {
  const trusted = ["arxiv.org"];
  assert.equal(isTrustedSource({ url: "https://arxiv.org/abs/1" }, trusted), true);
  assert.equal(isTrustedSource({ url: "https://export.arxiv.org/abs/1" }, trusted), true);
  assert.equal(isTrustedSource({ url: "https://notarxiv.org/abs/1" }, trusted), false);
  assert.equal(isTrustedSource({ url: "https://arxiv.org.evil.example/" }, trusted), false);
});

Deno.test("withoutClaimedAuthority() drops authors and source, keeps the rest", () => {
  const document = {
    text: "x",
    metadata: { authors: ["A"], source: "Nature", url: "https://a.example/", title: "T" },
  };
  assert.deepEqual(withoutClaimedAuthority(document).metadata, {
    url: "https://a.example/",
    title: "T",
  });
  assert.deepEqual(document.metadata.authors, ["A"], "the caller's document is not changed");
});

Deno.test("withoutAuthority() zeroes authority criteria by any of their names", () => {
  const judged = withoutAuthority({
    position: 0,
    relevance: 8,
    criteria: { authoritativeness: 5, source_credibility: 4, trustworthiness: 3, depth: 4 },
  });
  assert.deepEqual(judged.criteria, {
    authoritativeness: 0,
    source_credibility: 0,
    trustworthiness: 0,
    depth: 4,
  });
});

import assert from "node:assert/strict";
import { storableText, unstorableStrings, unstorableText } from "./storable.ts";

Deno.test("unstorableText() names a NUL or a lone surrogate and where it is; other text passes", () => {
  assert.equal(unstorableText("tide\u0000tables"), "holds a NUL character (U+0000) at character 4");
  assert.equal(
    unstorableText("ab\ud83d"),
    "holds a lone surrogate (U+D83D) at character 2: not Unicode text",
  );
  assert.match(unstorableText("\udc00") ?? "", /U\+DC00\) at character 0/);
  // The first of the two is named.
  assert.match(unstorableText("\ud800 \u0000") ?? "", /lone surrogate/);
  for (const fine of ["", "plain", "emoji 😀 pairs", "tab\tnewline\n", "\u00ff\uffff"]) {
    assert.equal(unstorableText(fine), undefined, JSON.stringify(fine));
  }
});

Deno.test("storableText() drops NULs and makes lone surrogates U+FFFD", () => {
  assert.equal(storableText("Tide\u0000 tables \ud800😀"), "Tide tables \ufffd😀");
});

Deno.test("unstorableStrings() finds bad strings and keys at any depth, keys escaped in the path", () => {
  const found = unstorableStrings({
    text: "fine",
    metadata: { tags: ["ok", "b\u0000"], ["k\u0000ey"]: 1, nested: { deep: ["\udfff"] } },
  });
  assert.deepEqual(found, [
    {
      path: ["metadata", "k\\u0000ey"],
      problem: "this key holds a NUL character (U+0000) at character 1",
    },
    { path: ["metadata", "tags", 1], problem: "holds a NUL character (U+0000) at character 1" },
    {
      path: ["metadata", "nested", "deep", 0],
      problem: "holds a lone surrogate (U+DFFF) at character 0: not Unicode text",
    },
  ]);
  assert.deepEqual(unstorableStrings({ a: 1, b: [true, null, "x"] }), []);
  assert.equal(unstorableStrings(Array.from({ length: 50 }, () => "\u0000")).length, 5);
});

Deno.test("unstorableStrings() walks a value nested 100,000 deep without overflowing the stack", () => {
  let deep: unknown = "\u0000";
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(unstorableStrings(deep)[0]?.path.length, 100_000);
});

import assert from "node:assert/strict";
import { extractJsonObject } from "../../shared/llm/json.ts";

Deno.test("extractJsonObject() reads an object inside a fenced code block", () => {
  const text = 'Here you go:\n```json\n{"queries": ["a", "b"], "n": 2}\n```\nAnything else?';
  assert.deepEqual(extractJsonObject(text), { queries: ["a", "b"], n: 2 });
});

Deno.test("extractJsonObject() reads a bare object and nested objects", () => {
  assert.deepEqual(extractJsonObject('{"a": {"b": {"c": 1}}}'), { a: { b: { c: 1 } } });
});

Deno.test("extractJsonObject() skips braces and escaped quotes inside strings", () => {
  assert.deepEqual(extractJsonObject('x {"a": "}", "b": "{{"} y'), { a: "}", b: "{{" });
  assert.deepEqual(extractJsonObject('{"a": "say \\"}\\" loudly"}'), { a: 'say "}" loudly' });
});

Deno.test("extractJsonObject() moves past a balanced block that is not JSON", () => {
  assert.deepEqual(extractJsonObject('{not json} then {"ok": true}'), { ok: true });
  assert.deepEqual(extractJsonObject('{ {"inner": 1}'), { inner: 1 });
});

Deno.test("extractJsonObject() returns the first object when there are several", () => {
  assert.deepEqual(extractJsonObject('{"first": 1} {"second": 2}'), { first: 1 });
});

Deno.test("extractJsonObject() returns undefined when there is no object", () => {
  assert.equal(extractJsonObject("no json here"), undefined);
  assert.equal(extractJsonObject(""), undefined);
  assert.equal(extractJsonObject('{"unterminated": '), undefined);
  assert.equal(extractJsonObject("[1, 2, 3]"), undefined);
});

import assert from "node:assert/strict";
import { jsonSyntaxError } from "./json-syntax.ts";
import { jsonPathAt } from "./json-path.ts";
import { invalidUtf8Offset } from "./utf8.ts";

Deno.test("jsonSyntaxError() names the field and position of a literal JSON lacks", () => {
  assert.equal(
    jsonSyntaxError('{"a": [1, Infinity]}'),
    "body: must be valid JSON (a.1, line 1, column 11: Infinity is not a JSON value " +
      "(use null or a number))",
  );
  assert.match(jsonSyntaxError('{"a": 0x10}'), /a, line 1, column 8: unexpected "x"\)$/);
  assert.match(jsonSyntaxError(""), /the body ends before the JSON value does/);
  assert.match(jsonSyntaxError('{"a": 1} x'), /more after the JSON value/);
  assert.match(jsonSyntaxError("[".repeat(200_000)), /^body: must be valid JSON/);
});

Deno.test("jsonPathAt() follows keys and array indexes up to a position", () => {
  assert.equal(jsonPathAt('{"documents": [{"id": "x"}, {"text": "ab'), "documents.1.text");
  assert.equal(jsonPathAt('{"a": {"b": 1}, "c": '), "c");
  assert.equal(jsonPathAt('{"a\\"b": ['), 'a"b.0');
  assert.equal(jsonPathAt(""), "body");
});

Deno.test("invalidUtf8Offset() finds overlongs, surrogates, stray continuations and truncated sequences", () => {
  const at = (...bytes: number[]) => invalidUtf8Offset(new Uint8Array(bytes));
  assert.equal(at(0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80), undefined);
  assert.equal(at(0x61, 0xc0, 0xaf), 1); // overlong "/"
  assert.equal(at(0x61, 0x62, 0xed, 0xa0, 0x80), 2); // a UTF-16 surrogate
  assert.equal(at(0x80), 0);
  assert.equal(at(0x61, 0xe2, 0x82), 1); // cut short
  assert.equal(at(0xf4, 0x90, 0x80, 0x80), 0); // past U+10FFFF
});

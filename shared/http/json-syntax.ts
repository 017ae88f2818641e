import { jsonPathAt } from "./json-path.ts";

/**
 * Why a text that `JSON.parse` refused is not JSON, and where: a short
 * scanner run only after the parse failed, so the common path pays nothing.
 * Names the literals other languages print for JSON but JSON lacks (`NaN`,
 * `Infinity`, `undefined`, single quotes) and never echoes the body back.
 *
 * @example
 * jsonSyntaxError('{"a": NaN}');
 * // "body: must be valid JSON (a, line 1, column 7: NaN is not a JSON value (use null or a number))"
 */
export function jsonSyntaxError(text: string): string {
  const scanner = new Scanner(text);
  try {
    scanner.document();
  } catch (error) {
    if (error instanceof SyntaxProblem) {
      const field = jsonPathAt(text.slice(0, error.at));
      return `body: must be valid JSON (${field}, ${scanner.where(error.at)}: ${error.message})`;
    }
    // Nesting deeper than this scanner's stack: say so without a position.
    return "body: must be valid JSON (nested too deeply to read)";
  }
  return "body: must be valid JSON"; // JSON.parse refused what this scanner took: say no more
}

class SyntaxProblem extends Error {
  constructor(message: string, readonly at: number) {
    super(message);
  }
}

const NOT_JSON = /^(-?NaN|[-+]?Infinity|undefined)\b/;

class Scanner {
  i = 0;
  constructor(readonly text: string) {}

  where(at: number): string {
    const before = this.text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - before.lastIndexOf("\n");
    return `line ${line}, column ${column}`;
  }

  document(): void {
    this.value();
    this.space();
    if (this.i < this.text.length) this.fail("more after the JSON value");
  }

  private fail(message: string, at = this.i): never {
    throw new SyntaxProblem(message, at);
  }

  private space(): void {
    while (/[ \t\n\r]/.test(this.text[this.i] ?? "")) this.i++;
  }

  private unexpected(): never {
    const rest = this.text.slice(this.i, this.i + 16);
    const literal = rest.match(NOT_JSON)?.[1];
    if (literal) {
      this.fail(
        literal === "undefined"
          ? "undefined is not a JSON value (use null or leave the field out)"
          : `${literal} is not a JSON value (use null or a number)`,
      );
    }
    if (rest === "") this.fail("the body ends before the JSON value does");
    if (rest[0] === "'") this.fail("strings take double quotes");
    this.fail(`unexpected ${JSON.stringify(rest[0])}`);
  }

  private value(): void {
    this.space();
    const char = this.text[this.i];
    if (char === "{") return this.container("}", true);
    if (char === "[") return this.container("]", false);
    if (char === '"') return this.string();
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) {
      const number = this.text.slice(this.i).match(/^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/);
      if (!number) this.unexpected();
      this.i += number[0].length;
      if (/^[\w.]/.test(this.text[this.i] ?? "")) this.unexpected();
      return;
    }
    for (const literal of ["true", "false", "null"]) {
      if (this.text.startsWith(literal, this.i)) {
        this.i += literal.length;
        return;
      }
    }
    this.unexpected();
  }

  private string(): void {
    const start = this.i++;
    while (this.i < this.text.length) {
      const char = this.text[this.i]!;
      if (char === '"') {
        this.i++;
        return;
      }
      if (char < " ") this.fail("a control character inside a string (escape it)");
      if (char === "\\") {
        if (!/^(["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(this.text.slice(this.i + 1, this.i + 6))) {
          this.fail("an invalid escape in a string");
        }
      }
      this.i += char === "\\" ? 2 : 1;
    }
    this.fail("a string that is never closed", start);
  }

  private container(close: string, isObject: boolean): void {
    this.i++;
    this.space();
    if (this.text[this.i] === close) {
      this.i++;
      return;
    }
    while (true) {
      if (isObject) {
        this.space();
        if (this.text[this.i] !== '"') {
          if (this.text[this.i] === "'") this.fail("strings take double quotes");
          this.fail("a field name in double quotes expected");
        }
        this.string();
        this.space();
        if (this.text[this.i] !== ":") this.fail('":" expected after a field name');
        this.i++;
      }
      this.value();
      this.space();
      const next = this.text[this.i];
      if (next === ",") {
        this.i++;
        this.space();
        if (this.text[this.i] === close) this.fail(`a trailing comma before "${close}"`);
        continue;
      }
      if (next === close) {
        this.i++;
        return;
      }
      if (next === undefined) this.fail("the body ends before the JSON value does");
      this.fail(`"," or "${close}" expected`);
    }
  }
}

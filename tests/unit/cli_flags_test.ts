/** The one flag parser every `deno task` uses: help, typo hints, values it does not know. */
import assert from "node:assert/strict";
import {
  type Command,
  editDistance,
  nearest,
  parseFlags,
  UsageError,
  usageText,
  wantsHelp,
} from "../../cli/flags.ts";

const ASK = {
  usage: 'deno task ask "question" [options]',
  flags: {
    mode: {
      type: "string",
      help: "retrieval mode",
      choices: ["dense", "sparse", "hybrid"],
      default: "hybrid",
    },
    "top-k": { type: "string", value: "N", help: "chunks to retrieve", default: "5" },
    namespace: { type: "string", value: "NS", help: "the index namespace", default: "default" },
    only: { type: "string", help: "sections", choices: ["index", "workers"], list: true },
    verbose: { type: "boolean", short: "v", help: "say more" },
  },
} satisfies Command;

const mistake = (args: string[]) => {
  try {
    parseFlags(ASK, args);
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return error.message;
  }
  assert.fail(`${args.join(" ")} was accepted`);
};
const balanced = (text: string) => {
  for (const quote of [`"`, `'`]) {
    assert.equal(text.split(quote).length % 2, 1, `unbalanced ${quote} in ${text}`);
  }
};

Deno.test("editDistance() counts a swap of neighbours as one edit", () => {
  assert.equal(editDistance("mdoe", "mode"), 1);
  assert.equal(editDistance("mode", "mode"), 0);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("kitten", "sitting"), 3);
});

Deno.test("nearest() names a close candidate, or one the word starts, and nothing far", () => {
  assert.equal(nearest("mdoe", ["mode", "top-k"]), "mode");
  assert.equal(nearest("topk", ["mode", "top-k"]), "top-k");
  assert.equal(nearest("name", ["namespace", "mode"]), "namespace");
  assert.equal(nearest("xyzzy", ["mode", "top-k"]), undefined);
});

Deno.test("an unknown flag names the nearest one, with balanced quotes", () => {
  const message = mistake(["--mdoe", "dense", "a question"]);
  assert.equal(message, "unknown option --mdoe (did you mean --mode?)");
  balanced(message);
  assert.equal(mistake(["--bogus"]), "unknown option --bogus");
  assert.equal(mistake(["--hlep"]), "unknown option --hlep (did you mean --help?)");
  assert.equal(mistake(["-x"]), "unknown option -x");
});

Deno.test("an unknown value of an enumerated flag names the nearest value and all of them", () => {
  const message = mistake(["--mode", "dnese"]);
  assert.equal(
    message,
    '--mode: unknown value "dnese" (did you mean dense?); one of dense, sparse, hybrid',
  );
  balanced(message);
  assert.match(mistake(["--only", "index,workres"]), /"workres" \(did you mean workers\?\)/);
  assert.match(mistake(["--mode"]), /^--mode needs a value \(dense, sparse, hybrid\)$/);
  assert.match(mistake(["--verbose=yes"]), /^--verbose takes no value$/);
});

Deno.test("parseFlags() reads --flag value, --flag=value, short flags, -- and negative numbers", () => {
  const { values, positionals } = parseFlags(ASK, [
    "what",
    "--mode=sparse",
    "--top-k",
    "7",
    "-v",
    "-3",
    "--",
    "--not-a-flag",
  ]);
  assert.deepEqual(values, { mode: "sparse", "top-k": "7", verbose: true });
  assert.deepEqual(positionals, ["what", "-3", "--not-a-flag"]);
});

Deno.test("usageText() lists every flag with its value, default and --help", () => {
  const text = usageText(ASK);
  assert.match(text, /^usage: deno task ask "question" \[options\]/);
  assert.match(text, /--mode dense\|sparse\|hybrid +retrieval mode \(default: hybrid\)/);
  assert.match(text, /--top-k N +chunks to retrieve \(default: 5\)/);
  assert.match(text, /-v, --verbose +say more/);
  assert.match(text, /-h, --help +print this help and exit/);
  for (const line of text.split("\n")) assert.ok(line.length <= 100, line);
});

Deno.test("wantsHelp() sees --help and -h anywhere before --", () => {
  assert.equal(wantsHelp(["x", "--help"]), true);
  assert.equal(wantsHelp(["-h"]), true);
  assert.equal(wantsHelp(["--", "--help"]), false);
  assert.equal(wantsHelp(["--helpful"]), false);
});

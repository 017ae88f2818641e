import assert from "node:assert/strict";
import {
  QUALITY_DIMENSIONS,
  SIMILARITY_DIMENSIONS,
} from "../../../shared/rerank/tot/dimensions.ts";
import { parseDimensions, parseScore, parseThresholds, readDimensions } from "./parse.ts";

Deno.test("parseScore() reads a bare decimal, JSON, and the number after a score label", () => {
  assert.equal(parseScore("0.72"), 0.72);
  assert.equal(parseScore('```json\n{"score": 0.4}\n```'), 0.4);
  assert.equal(parseScore(".5"), 0.5);
  assert.equal(parseScore("On a scale from 0 to 1, I'd give a score of 0.65."), 0.65);
  assert.equal(parseScore("The passage cites 3 sources. **Score:** 0.9"), 0.9);
});

Deno.test("parseScore() applies percentages, fractions and stated scales; off the scale is unreadable", () => {
  assert.equal(parseScore("8/10"), 0.8);
  assert.equal(parseScore("75%"), 0.75);
  assert.equal(parseScore("7 out of 10"), 0.7);
  assert.equal(parseScore("On a scale from 0 to 10, this passage is an 8."), 0.8);
  assert.equal(parseScore("0,8"), 0.8);
  for (const offScale of ["1.7", "8", "Score: -0.3", '{"score": 12}']) {
    assert.equal(parseScore(offScale), undefined, offScale);
  }
});

Deno.test("parseScore() finds nothing in prose without a number, or in names like gpt-4o", () => {
  assert.equal(parseScore("It reads well, I think."), undefined);
  assert.equal(parseScore(""), undefined);
  assert.equal(parseScore("As gpt-4o I cannot say."), undefined);
});

Deno.test("parseDimensions() reads the label, JSON and inflected names, first named first", () => {
  assert.deepEqual(
    parseDimensions("Dimensions: **Semantic**, lexical", SIMILARITY_DIMENSIONS),
    ["semantic", "lexical"],
  );
  assert.deepEqual(
    parseDimensions('{"dimensions": ["novelty", "fluency"]}', QUALITY_DIMENSIONS),
    ["novelty", "fluency"],
  );
  // Prose before the label is ignored; after it, "structure" and "stylistically" count.
  assert.deepEqual(
    parseDimensions(
      "Lexical overlap is uniform here.\nDimensions: structure, then stylistically",
      SIMILARITY_DIMENSIONS,
    ),
    ["structural", "stylistic"],
  );
});

Deno.test("parseDimensions() drops repeats and another level's names, and may return fewer than two", () => {
  assert.deepEqual(parseDimensions("Dimensions: fluency, fluency", QUALITY_DIMENSIONS), [
    "fluency",
  ]);
  assert.deepEqual(parseDimensions("Dimensions: lexical, semantic", QUALITY_DIMENSIONS), []);
  assert.deepEqual(parseDimensions('{"dimensions": ["lexical", "novel"]}', QUALITY_DIMENSIONS), [
    "novelty",
  ]);
});

Deno.test("parseThresholds() reads name: value lines in any order, JSON, and bare pairs", () => {
  assert.deepEqual(
    parseThresholds("semantic = 55%\n- **lexical**: 0.4", ["lexical", "semantic"]),
    { lexical: 0.4, semantic: 0.55 },
  );
  assert.deepEqual(
    parseThresholds('{"thresholds": {"fluency": 0.7, "novelty": 1.4}}', ["fluency", "novelty"]),
    { fluency: 0.7, novelty: 1 },
  );
  assert.deepEqual(parseThresholds("0.6, 0.35", ["fluency", "novelty"]), {
    fluency: 0.6,
    novelty: 0.35,
  });
});

Deno.test("parseThresholds() leaves out what it cannot read", () => {
  assert.deepEqual(parseThresholds("fluency: high\nnovelty: 0.3", ["fluency", "novelty"]), {
    novelty: 0.3,
  });
  assert.deepEqual(parseThresholds("0.5, 0.4, 0.3", ["fluency", "novelty"]), {});
  assert.deepEqual(parseThresholds("no idea", ["fluency", "novelty"]), {});
});

Deno.test("readDimensions() with a count of 3 reads three, keeps the first three of more, and says so", () => {
  assert.deepEqual(
    readDimensions("Dimensions: semantic, lexical, pragmatic", SIMILARITY_DIMENSIONS, 3),
    { dimensions: ["semantic", "lexical", "pragmatic"], more: [] },
  );
  assert.deepEqual(
    readDimensions('{"dimensions": ["novelty", "fluency", "accuracy"]}', QUALITY_DIMENSIONS, 3),
    { dimensions: ["novelty", "fluency", "accuracy"], more: [] },
  );
  // More than asked, under a label or in JSON: the first three, the rest reported.
  assert.deepEqual(
    readDimensions(
      "Dimensions: fluency, accuracy, novelty, conciseness",
      QUALITY_DIMENSIONS,
      3,
    ),
    { dimensions: ["fluency", "accuracy", "novelty"], more: ["conciseness"] },
  );
  assert.deepEqual(
    readDimensions(
      '{"dimensions": ["stylistic", "lexical", "semantic", "structural"]}',
      SIMILARITY_DIMENSIONS,
      3,
    ),
    { dimensions: ["stylistic", "lexical", "semantic"], more: ["structural"] },
  );
  // Three named without a label is a choice of three; four is weighing options.
  assert.deepEqual(
    parseDimensions("I'd go with lexical, semantic and structural.", SIMILARITY_DIMENSIONS, 3),
    ["lexical", "semantic", "structural"],
  );
  assert.deepEqual(
    parseDimensions(
      "Lexical, semantic, structural and stylistic all vary.",
      SIMILARITY_DIMENSIONS,
      3,
    ),
    [],
  );
});

Deno.test("readDimensions() with a count of 3 returns fewer when fewer are named (the caller corrects)", () => {
  assert.deepEqual(
    readDimensions("Dimensions: fluency, novelty", QUALITY_DIMENSIONS, 3),
    { dimensions: ["fluency", "novelty"], more: [] },
  );
  assert.deepEqual(
    parseDimensions("Dimensions: fluency, fluency, fluency", QUALITY_DIMENSIONS, 3),
    [
      "fluency",
    ],
  );
});

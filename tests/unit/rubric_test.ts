import assert from "node:assert/strict";
import {
  criterionKey,
  MAX_CRITERIA,
  maxFinalScore,
  repairRubric,
  type RubricDraft,
  rubricSchema,
} from "../../shared/rerank/rubric.ts";

type DraftCriterion = RubricDraft["criteria"][number];

function draftCriterion(name: string, weight = 0.5): DraftCriterion {
  return { name, definition: `About ${name}.`, high: "Fully.", low: "Not at all.", weight };
}

function draft(criteria: DraftCriterion[], extra: Partial<RubricDraft> = {}): RubricDraft {
  return {
    criteria,
    relevance: { definition: "Answers the question." },
    relevance_threshold: 3,
    tie_break: criteria[0]?.name ?? "retrieval_rank",
    ...extra,
  };
}

function repaired(value: RubricDraft, allowEmpty = false) {
  const result = repairRubric(value, { allowEmpty });
  assert.ok(result, "expected a usable rubric");
  return result;
}

Deno.test("criterionKey turns labels into lowercase snake_case keys", () => {
  assert.equal(criterionKey("Comparative coverage"), "comparative_coverage");
  assert.equal(criterionKey("  Technical-Accuracy! "), "technical_accuracy");
  assert.equal(criterionKey("***"), "");
});

Deno.test("repairRubric clamps weights into [0, 2] and says so", () => {
  const { rubric, repairs } = repaired(
    draft([
      draftCriterion("depth", 3),
      draftCriterion("recency", -1),
      draftCriterion("clarity", 1),
    ]),
  );
  assert.deepEqual(rubric.criteria.map((c) => [c.name, c.weight]), [
    ["depth", 2],
    ["recency", 0],
    ["clarity", 1],
  ]);
  assert.equal(repairs.filter((repair) => /clamped the weight/.test(repair)).length, 2);
});

Deno.test("repairRubric gives a non-finite weight the default 0.5", () => {
  const { rubric } = repaired(draft([draftCriterion("depth", Number.NaN)]));
  assert.equal(rubric.criteria[0]?.weight, 0.5);
});

Deno.test("repairRubric keeps at most 8 criteria, the first ones", () => {
  const names = Array.from({ length: 11 }, (_, i) => `criterion ${i + 1}`);
  const { rubric, repairs } = repaired(draft(names.map((name) => draftCriterion(name))));
  assert.equal(rubric.criteria.length, MAX_CRITERIA);
  assert.deepEqual(
    rubric.criteria.map((c) => c.name),
    names.slice(0, 8).map(criterionKey),
  );
  assert.ok(repairs.some((repair) => repair.includes("beyond 8")), repairs.join("; "));
});

Deno.test("repairRubric merges duplicate names into the first and drops a relevance criterion", () => {
  const first = { ...draftCriterion("Depth", 1), definition: "The first definition." };
  const { rubric, repairs } = repaired(
    draft([
      first,
      draftCriterion(" depth ", 2),
      draftCriterion("Relevance"),
      draftCriterion("DEPTH"),
    ]),
  );
  assert.deepEqual(rubric.criteria, [{ ...first, name: "depth" }]);
  assert.equal(repairs.length, 3);
});

Deno.test("repairRubric rejects a draft with no usable criterion unless allowEmpty", () => {
  assert.equal(repairRubric(draft([]), { allowEmpty: false }), undefined);
  assert.equal(repairRubric(draft([draftCriterion("!!!")]), { allowEmpty: false }), undefined);
  assert.equal(
    repairRubric(draft([draftCriterion("relevance")]), { allowEmpty: false }),
    undefined,
  );
  const { rubric } = repaired(draft([]), true);
  assert.deepEqual(rubric.criteria, []);
  assert.equal(rubric.tie_break, "retrieval_rank");
});

Deno.test("repairRubric falls back to the retrieval rank when tie_break names no criterion", () => {
  const criteria = [draftCriterion("comparative_coverage"), draftCriterion("recency")];
  const unknown = repaired(draft(criteria, { tie_break: "authority" }));
  assert.equal(unknown.rubric.tie_break, "retrieval_rank");
  assert.ok(unknown.repairs.some((repair) => repair.includes('"authority"')));

  const empty = repaired(draft(criteria, { tie_break: "" }));
  assert.equal(empty.rubric.tie_break, "retrieval_rank");

  const byLabel = repaired(draft(criteria, { tie_break: "Comparative Coverage" }));
  assert.equal(byLabel.rubric.tie_break, "comparative_coverage");
  assert.deepEqual(byLabel.repairs, []);
});

Deno.test("repairRubric falls back to the retrieval rank when tie_break names a dropped criterion", () => {
  const names = Array.from({ length: 9 }, (_, i) => `c${i}`);
  const { rubric } = repaired(
    draft(names.map((name) => draftCriterion(name)), { tie_break: "c8" }),
  );
  assert.equal(rubric.tie_break, "retrieval_rank");
});

Deno.test("repairRubric clamps the relevance threshold into [0, 10]", () => {
  assert.equal(
    repaired(draft([draftCriterion("depth")], { relevance_threshold: 15 })).rubric
      .relevance_threshold,
    10,
  );
  assert.equal(
    repaired(draft([draftCriterion("depth")], { relevance_threshold: -1 })).rubric
      .relevance_threshold,
    0,
  );
});

Deno.test("rubricSchema rejects a weight of 3 with the field's path", () => {
  const parsed = rubricSchema.safeParse({
    criteria: [{ name: "depth", definition: "Thorough." }, {
      name: "recency",
      definition: "Recent.",
      weight: 3,
    }],
    relevance: { definition: "On topic." },
  });
  assert.equal(parsed.success, false);
  const issue = parsed.error!.issues[0]!;
  assert.deepEqual(issue.path, ["criteria", 1, "weight"]);
  assert.match(issue.message, /\[0, 2\]/);
});

Deno.test("rubricSchema rejects 9 criteria with the field's path", () => {
  const parsed = rubricSchema.safeParse({
    criteria: Array.from({ length: 9 }, (_, i) => ({ name: `c${i}`, definition: "Something." })),
    relevance: { definition: "On topic." },
  });
  assert.equal(parsed.success, false);
  const issue = parsed.error!.issues[0]!;
  assert.deepEqual(issue.path, ["criteria"]);
  assert.match(issue.message, /at most 8/);
});

Deno.test("rubricSchema fills defaults and turns names into keys", () => {
  const rubric = rubricSchema.parse({
    criteria: [{ name: "Technical accuracy", definition: "Correct." }],
    relevance: { definition: "On topic." },
    tie_break: "Technical Accuracy",
  });
  assert.deepEqual(rubric, {
    criteria: [{
      name: "technical_accuracy",
      definition: "Correct.",
      high: "Fully meets the criterion.",
      low: "Does not meet the criterion at all.",
      weight: 0.5,
    }],
    relevance: { definition: "On topic." },
    relevance_threshold: 3,
    tie_break: "technical_accuracy",
  });
});

Deno.test("maxFinalScore is 10 plus 5 × each weight", () => {
  const { rubric } = repaired(draft([draftCriterion("depth", 1), draftCriterion("recency", 0.5)]));
  assert.equal(maxFinalScore(rubric), 10 + 5 * 1 + 5 * 0.5);
});

Deno.test({
  name: "rubricSchema rejects criteria whose names repeat a key, are empty or name relevance",
  fn() {
    for (const names of [["Depth", "depth"], ["depth", "Relevance"], ["depth", "!!!"]]) {
      const parsed = rubricSchema.safeParse({
        criteria: names.map((name) => ({ name, definition: "Something." })),
        relevance: { definition: "On topic." },
      });
      assert.equal(parsed.success, false, names.join(", "));
      assert.deepEqual(parsed.error!.issues[0]!.path, ["criteria", 1, "name"]);
    }
  },
});

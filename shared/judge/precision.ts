/**
 * REBEL's retrieval precision over the judgments that have a grade, and how
 * many had none. No documents at all is a precision of 0 (nothing relevant
 * was kept); documents none of which has a grade is null (unknown).
 *
 * @example
 * retrievalPrecision([{ score: 2 }, { score: null }, { score: 0 }]); // { precision: 0.5, excluded: 1 }
 */
export function retrievalPrecision(
  judgments: readonly { score: number | null }[],
): { precision: number | null; excluded: number } {
  const graded = judgments.filter((judgment) => judgment.score !== null);
  const excluded = judgments.length - graded.length;
  if (judgments.length === 0) return { precision: 0, excluded };
  if (graded.length === 0) return { precision: null, excluded };
  return {
    precision: graded.filter((judgment) => judgment.score! >= 1).length / graded.length,
    excluded,
  };
}

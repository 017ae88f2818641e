/** What each number on the page means, in the page's own words and column names. */
const TERMS: [string, string][] = [
  [
    "retrieval precision",
    "The share of the passages the answer was given that the judge graded relevant (≥ 1 on 0-2). REBEL's precision.",
  ],
  [
    "answer similarity (0-5)",
    "How close the answer is to the reference answer, judged 0-5.",
  ],
  [
    "system quality",
    "REBEL's single number: answer similarity / 5 × retrieval precision, from the two means (0-1).",
  ],
  [
    "speed (chars/s)",
    "Answer characters produced per second of the whole pipeline (retrieve, rerank, answer).",
  ],
  [
    "tokens per question",
    "Model tokens in and out over all steps, per run of a question: the cost.",
  ],
  [
    "hit@k (kept)",
    "The share of questions whose target document is among the k passages the answer was given.",
  ],
  [
    "MRR@5, retrieved (≥1 / =2)",
    "RAGElo's judged MRR: 1 / the rank of the first relevant passage among the first five retrieved (0 when none), " +
    "averaged over questions. Before the slash a passage counts as relevant when graded ≥ 1 (somewhat), after it only when graded 2 (very).",
  ],
  [
    "kept MRR (≥1 / =2)",
    "The same judged MRR over the passages the answer was actually given, in their order after reranking: " +
    "how well the reranker put a relevant passage first.",
  ],
  [
    "target MRR@5",
    "1 / the rank of the first chunk of the question's target document among the first five retrieved.",
  ],
  [
    "answer rel / acc / comp / prec (0-2)",
    "The judge's pointwise grades of the answer: relevance, accuracy, completeness, precision.",
  ],
  ["abstained on no-answer", "Questions the documents cannot answer where the answer said so."],
  [
    "win rate",
    "Each cell: the share of the row's games against the column that the row won; ties count as not won. " +
    "AVG: the mean over the opponents met.",
  ],
  [
    "Elo (both orders)",
    "Ours: every game is judged twice, each answer shown first once; a side wins only when both orders agree, " +
    "any disagreement is a tie. A win scores 1, a tie ½; ratings start at 500 (as RAGElo's tables), K = 32, averaged over shuffled tournaments.",
  ],
  [
    "Elo (first order)",
    "RAGElo's protocol: the first judgment of each game decides it alone, as in the paper's tables. " +
    "A judge that favours the first answer shown wins more games here.",
  ],
  [
    "tie rate",
    "The share of games that ended in a tie under each protocol. Both orders ties more often: " +
    "a disagreement between the orders is a tie.",
  ],
  [
    "position bias",
    "The share of games whose two orders disagreed: how much the judge favours one position.",
  ],
  [
    "95% CI",
    "The range the true mean lies in with 95% confidence (Student t over questions, or a bootstrap).",
  ],
];

export function glossarySection(): string {
  return `<section class="glossary"><dl>${
    TERMS.map(([term, meaning]) => `<dt>${term}</dt><dd>${meaning}</dd>`).join("")
  }</dl></section>`;
}

import type { PromptTemplate } from "../shared/llm/prompt.ts";

const example = (query: string, rubric: unknown) =>
  `Query: ${query}\nRubric: ${JSON.stringify(rubric)}`;

const criterion = (
  name: string,
  definition: string,
  high: string,
  low: string,
  weight: number,
) => ({
  name,
  definition,
  high,
  low,
  weight,
});

/**
 * Worked examples for the meta prompt (REBEL §2.2 puts k-shot examples in
 * it): one per kind of query, showing which criteria a query implies, how to
 * define them and how to weigh them.
 */
const EXAMPLES = [
  example("How do PostgreSQL and MySQL differ in how they handle replication?", {
    criteria: [
      criterion(
        "comparative_coverage",
        "Discusses both systems side by side on the same aspects.",
        "Contrasts both systems point by point.",
        "Covers only one system.",
        1.0,
      ),
      criterion(
        "technical_accuracy",
        "States mechanisms correctly and precisely (log shipping, binlog formats, consistency).",
        "Correct, precise mechanisms with configuration detail.",
        "Vague or wrong about how replication works.",
        0.75,
      ),
      criterion(
        "recency",
        "Reflects current major versions rather than long-superseded behaviour.",
        "Describes current versions.",
        "Describes versions a decade old.",
        0.5,
      ),
    ],
    relevance: { definition: "Explains replication in PostgreSQL, MySQL, or both." },
    relevance_threshold: 3,
    tie_break: "comparative_coverage",
  }),
  example("What are the latest results on protein structure prediction since AlphaFold 2?", {
    criteria: [
      criterion(
        "recency",
        "Reports work from the last few years, after AlphaFold 2.",
        "Covers work from the last year or two.",
        "Predates AlphaFold 2.",
        1.5,
      ),
      criterion(
        "authoritativeness",
        "Peer-reviewed papers, benchmark organisers or recognised labs.",
        "A peer-reviewed result or official benchmark report.",
        "An unsourced blog post.",
        0.75,
      ),
      criterion(
        "quantitative_evidence",
        "Gives accuracy figures on named benchmarks (e.g. CASP, GDT).",
        "Reports numbers on named benchmarks.",
        "Makes claims without numbers.",
        0.5,
      ),
    ],
    relevance: {
      definition: "Describes protein structure prediction methods or results after AlphaFold 2.",
    },
    relevance_threshold: 3,
    tie_break: "recency",
  }),
  example("How did the printing press change European society in the 15th and 16th centuries?", {
    criteria: [
      criterion(
        "historical_grounding",
        "Cites period evidence: dates, places, printers, documented effects.",
        "Anchored in specific dated evidence.",
        "General claims with no evidence.",
        1.0,
      ),
      criterion(
        "depth",
        "Traces causes and consequences across religion, science, literacy and economy.",
        "Follows several strands of change in detail.",
        "One sentence of generalities.",
        0.75,
      ),
      criterion(
        "authoritativeness",
        "Work by historians or scholarly sources.",
        "A scholarly history.",
        "An anonymous summary.",
        0.5,
      ),
    ],
    relevance: {
      definition: "Discusses the printing press's effects on European society in that period.",
    },
    relevance_threshold: 3,
    tie_break: "historical_grounding",
  }),
  example("Should cities ban cars from their centres? What are the arguments on both sides?", {
    criteria: [
      criterion(
        "perspective_balance",
        "Presents the arguments for and against fairly.",
        "Gives the strongest case on each side.",
        "Argues one side only.",
        1.5,
      ),
      criterion(
        "evidence",
        "Supports claims with data or case studies of cities that tried it.",
        "Cites measured outcomes from real cities.",
        "Opinion without evidence.",
        1.0,
      ),
      criterion(
        "neutrality",
        "Neutral wording that lets the reader weigh the case.",
        "Even-handed and factual.",
        "Loaded, partisan language.",
        0.5,
      ),
    ],
    relevance: {
      definition: "Discusses car-free or car-restricted city centres and their effects.",
    },
    relevance_threshold: 3,
    tie_break: "perspective_balance",
  }),
  example("How do I set up TLS certificates for nginx with automatic renewal?", {
    criteria: [
      criterion(
        "actionability",
        "Gives concrete, ordered steps, commands and configuration.",
        "Step-by-step commands and config that work as written.",
        "Describes the idea without steps.",
        1.5,
      ),
      criterion(
        "technical_accuracy",
        "Configuration and commands are correct for current software.",
        "Correct for current versions.",
        "Broken or insecure settings.",
        1.0,
      ),
      criterion(
        "recency",
        "Matches current tools and defaults.",
        "Uses current tooling.",
        "Relies on deprecated tools.",
        0.5,
      ),
    ],
    relevance: {
      definition: "Explains configuring TLS in nginx and renewing certificates automatically.",
    },
    relevance_threshold: 3,
    tie_break: "actionability",
  }),
];

/**
 * REBEL's meta prompt, in our words: from the query alone, infer which
 * qualities beyond relevance the context documents should have, and return
 * them as a rubric. Code renders the reranking prompt from the rubric, so
 * what the reranker is told can be audited.
 */
export const rubricPrompt = {
  id: "rubric",
  version: 1,
  system:
    `You design how search results are ranked for one query. You see only the query. Decide which qualities, beyond plain relevance, the documents used to answer it should have, judging from what the query is about and what kind of answer it needs. Candidates include: technical accuracy, authoritative sources, recency, depth and specificity, a balance of perspectives, neutrality, evidence and data, practical steps, historical grounding, reasoning depth.

Return a rubric as a JSON object with:
- "criteria": 2 to 5 criteria (never more than 8), each {"name", "definition", "high" (what a 5 looks like), "low" (what a 0 looks like), "weight" (0 to 2; 0.5 is ordinary, higher for what matters most to this query)}. Do not include relevance itself.
- "relevance": {"definition": what a relevant document for this query must be about}.
- "relevance_threshold": the lowest relevance (0-10) worth keeping; 3 unless the query calls for stricter filtering.
- "tie_break": the name of the criterion that decides ties.

Documents will be scored Relevance (0-10) plus each criterion (0-5); final score = Relevance + Σ weight × criterion.

Examples:
${EXAMPLES.join("\n\n")}

Reply with the JSON object only.`,
  user: `Query: {{query}}
Rubric:`,
} as const satisfies PromptTemplate;

/**
 * The two-turn relevance-only baseline (REBEL Appendix E.4): the meta prompt
 * tailors what "relevant" means for the query, with no secondary criteria
 * and no k-shot examples.
 */
export const rubricRelevancePrompt = {
  id: "rubric-relevance",
  version: 1,
  system:
    `You design how search results are ranked for one query, by relevance alone. You see only the query. Work out what a document must contain to be relevant to it: the subject, the specific facts or explanations the query asks for, and what would make a document only loosely related.

Return a JSON object {"criteria": [], "relevance": {"definition": "<what a relevant document for this query contains>"}, "relevance_threshold": <0-10, usually 3>, "tie_break": "retrieval_rank"}. Reply with the JSON object only.`,
  user: `Query: {{query}}
Rubric:`,
} as const satisfies PromptTemplate;

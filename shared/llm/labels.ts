/**
 * Labels in the language the question came in, read as the English ones
 * every reader knows. A judge asked in Spanish writes `Puntuación: 2`, in
 * German `Bewertung: 1`, in Chinese `评分：2`: what every such reply has in
 * common is a label, a separator and a value, so a label is recognised by
 * its words (a small lexicon per concept, at least English, Spanish, German,
 * French, Portuguese, Italian, Chinese, Japanese and Korean) only where a
 * value follows it, and rewritten in English; its value words (`sí`, `nein`,
 * `égalité`) too. Document names (`Documento 2`, `文档1`, `Passage 2 (dpkg)`,
 * `[Doc 2]`, `First document`) become `Doc N`.
 */

/** Words of a label, accents stripped and lower case, by the concept they name. */
const CONCEPT_WORDS: Readonly<Record<string, readonly string[]>> = {
  score: [
    "score",
    "rating",
    "grade",
    "puntuacion",
    "puntaje",
    "calificacion",
    "nota",
    "valoracion",
    "bewertung",
    "punktzahl",
    "punkte",
    "wertung",
    "note",
    "pontuacao",
    "classificacao",
    "avaliacao",
    "punteggio",
    "valutazione",
    "voto",
    "评分",
    "分数",
    "得分",
    "打分",
    "评级",
    "評分",
    "分數",
    "スコア",
    "点数",
    "評価",
    "점수",
    "평가",
    "등급",
  ],
  relevance: [
    "relevance",
    "relevancy",
    "relevancia",
    "pertinencia",
    "relevanz",
    "pertinence",
    "rilevanza",
    "pertinenza",
    "相关性",
    "相关度",
    "相關性",
    "关联性",
    "関連性",
    "関連度",
    "관련성",
    "적합성",
  ],
  similarity: [
    "similarity",
    "similitud",
    "ahnlichkeit",
    "similarite",
    "similaridade",
    "semelhanca",
    "somiglianza",
    "similarita",
    "相似度",
    "相似性",
    "類似度",
    "類似性",
    "유사도",
    "유사성",
  ],
  accuracy: [
    "accuracy",
    "exactitud",
    "genauigkeit",
    "richtigkeit",
    "korrektheit",
    "exactitude",
    "exatidao",
    "accuratezza",
    "correttezza",
    "准确性",
    "準確性",
    "正确性",
    "正確性",
    "正確さ",
    "정확성",
  ],
  completeness: [
    "completeness",
    "completitud",
    "exhaustividad",
    "vollstandigkeit",
    "completude",
    "completitude",
    "exhaustivite",
    "completezza",
    "完整性",
    "完全性",
    "網羅性",
    "완전성",
    "완성도",
    "완결성",
  ],
  precision: [
    "precision",
    "prazision",
    "precisao",
    "precisione",
    "精确性",
    "精確性",
    "精度",
    "精确度",
    "정밀도",
    "정밀성",
  ],
  verdict: [
    "verdict",
    "veredicto",
    "veredito",
    "urteil",
    "verdetto",
    "裁决",
    "裁定",
    "判决",
    "判定",
    "结论",
    "結論",
    "評決",
    "판정",
    "판결",
    "결론",
  ],
  result: [
    "result",
    "resultado",
    "ergebnis",
    "resultat",
    "risultato",
    "结果",
    "結果",
    "결과",
  ],
  judgment: [
    "judgment",
    "judgement",
    "juicio",
    "jugement",
    "julgamento",
    "giudizio",
    "判断",
    "판단",
  ],
  useful: ["useful", "util", "nutzlich", "utile", "有用", "有用性", "役立つ", "유용", "유용성"],
  answer: [
    "answer",
    "respuesta",
    "antwort",
    "reponse",
    "resposta",
    "risposta",
    "答案",
    "回答",
    "답변",
  ],
  final: ["final", "finale", "endgultig", "endgultige", "endgultiger", "最终", "最終", "최종"],
  initial: [
    "initial",
    "inicial",
    "anfanglich",
    "anfangliche",
    "initiale",
    "iniziale",
    "初始",
    "初步",
    "초기",
  ],
};
/** Words that may stand between a label's words: "Puntuación de relevancia", "最终的评分". */
const FILLER = new Set([
  "de",
  "del",
  "la",
  "el",
  "der",
  "die",
  "das",
  "des",
  "du",
  "da",
  "di",
  "della",
  "do",
  "の",
  "的",
  "의",
]);

const CONCEPT_OF = new Map(
  Object.entries(CONCEPT_WORDS).flatMap(([concept, words]) => words.map((word) => [word, concept])),
);

/** A word as the lexicon holds it: lower case, no accents. */
const bare = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The concepts a label ends with, and the text before them (`muy relevante` of `muy relevante puntuación`). */
function labelConcepts(phrase: string): { before: string; concepts: string[] } {
  const concepts: string[] = [];
  let rest = phrase.trimEnd();
  while (rest !== "") {
    const word = /[\p{L}\p{M}'-]+$/u.exec(rest)?.[0];
    if (!word) break;
    const known = CONCEPT_OF.get(bare(word));
    if (known) {
      concepts.unshift(known);
      rest = rest.slice(0, -word.length).trimEnd();
      continue;
    }
    if (CJK.test(word)) {
      const tail = [4, 3, 2, 1].map((size) => word.slice(-size)).find((end) =>
        CONCEPT_OF.has(end) || (concepts.length > 0 && FILLER.has(end))
      );
      if (tail) {
        if (CONCEPT_OF.has(tail)) concepts.unshift(CONCEPT_OF.get(tail)!);
        rest = rest.slice(0, -tail.length).trimEnd();
        continue;
      }
    }
    if (concepts.length > 0 && FILLER.has(bare(word))) {
      rest = rest.slice(0, -word.length).trimEnd();
      continue;
    }
    break;
  }
  return { before: rest, concepts };
}

/** The English label for concepts: `final` and `initial` first, `score` last. */
function englishLabel(concepts: readonly string[]): string | undefined {
  const main = [...new Set(concepts.filter((c) => c !== "final" && c !== "initial"))];
  if (main.length === 0) return undefined;
  main.sort((x, y) => Number(x === "score") - Number(y === "score"));
  const when = concepts.includes("final")
    ? "final "
    : concepts.includes("initial")
    ? "initial "
    : "";
  const label = `${when}${main.join(" ")}`;
  return label[0]!.toUpperCase() + label.slice(1);
}

/** Value words after a label, by the English word they mean. */
const VALUE_WORDS: Readonly<Record<string, string>> = Object.fromEntries([
  ...["si", "sí", "ja", "oui", "sim", "是", "对", "有用", "はい", "예", "네"].map((
    w,
  ) => [w, "yes"]),
  ...["nein", "non", "nao", "não", "否", "不是", "无用", "いいえ", "아니요", "아니오"].map((
    w,
  ) => [w, "no"]),
  ...[
    "empate",
    "unentschieden",
    "gleichstand",
    "egalite",
    "égalité",
    "pareggio",
    "parita",
    "parità",
    "平局",
    "平手",
    "引き分け",
    "무승부",
    "동점",
  ]
    .map((w) => [w, "tie"]),
]);
const VALUE_WORD = new RegExp(`^(${Object.keys(VALUE_WORDS).join("|")})(?![\\p{L}])`, "iu");

/** What may follow a label's separator for it to be a label: a number, a bracket, a short word. */
const VALUE_AHEAD = /^[ \t*_]*(?:[-+]?\d|\.\d|\[|\(|\p{L})/u;
/** A label: up to 40 letters and spaces, then `:` or `=` (fullwidth ones are ASCII after NFKC). */
const LABEL = /(\p{L}[\p{L}\p{M}' -]{0,40}?)([ \t]*[:=])/gu;

/** Words that name a document, in the languages above. */
const DOCUMENT =
  /(?:\[\s*)?\b(?:doc(?:ument)?o?|dokument|passage[mn]?|passaggio|pasaje|fragmento|abschnitt)\s*(?:#|n[º°o]\.?|nr\.?)?\s*\[?(\d{1,3})\]?(?:\s*\])?(?:\s*\([^()\n]{1,60}\))?|(?:文档|文件|文書|文献|段落|문서|단락|구절)\s*(\d{1,3})(?:\s*\([^()\n]{1,60}\))?/giu;
const ORDINALS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
];
const ORDINAL_DOCUMENT = new RegExp(
  `\\b(${ORDINALS.join("|")})\\s+(?:doc(?:ument)?|passage)\\b`,
  "gi",
);

/**
 * Labels and document names of any of the languages above in English
 * (`Puntuación final: 2` is `Final score: 2`, `文档1：相关性：9` is `Doc 1:
 * Relevance: 9`, `Útil: sí` is `Useful: yes`); a label is only rewritten
 * where a value follows its separator, so prose (`Note: on reflection…`)
 * stays as written.
 *
 * @example
 * canonicalLabels("Bewertung: 1"); // "Score: 1"
 */
export function canonicalLabels(text: string): string {
  const named = text
    .replace(
      ORDINAL_DOCUMENT,
      (_, ordinal: string) => `Doc ${ORDINALS.indexOf(ordinal.toLowerCase()) + 1}`,
    )
    .replace(DOCUMENT, (_, latin?: string, cjk?: string) => `Doc ${latin ?? cjk}`);
  return named.replace(
    LABEL,
    (whole: string, phrase: string, separator: string, at: number, all: string) => {
      const after = all.slice(at + whole.length, at + whole.length + 16);
      if (!VALUE_AHEAD.test(after)) return whole;
      const { before, concepts } = labelConcepts(phrase);
      const english = englishLabel(concepts);
      if (!english) return whole;
      return `${before}${
        before && !/\s$/.test(before) && !CJK.test(before.at(-1)!) ? " " : ""
      }${english}${separator.trim()}`;
    },
  ).replace(
    /((?:Useful|Verdict|Judgment|Answer|Final answer|Final verdict)\s*[:=]\s*)(\p{L}+)/gu,
    (whole, label: string, word: string) => {
      const found = VALUE_WORD.exec(word);
      return found
        ? `${label}${VALUE_WORDS[found[1]!.toLowerCase()] ?? VALUE_WORDS[bare(found[1]!)] ?? word}${
          word.slice(found[1]!.length)
        }`
        : whole;
    },
  );
}

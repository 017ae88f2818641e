/**
 * HELD OUT (issue #42). A judge or reranker asked about a question in
 * another language often answers in it: Spanish, German, French,
 * Portuguese, Italian, Chinese, Japanese and Korean labels, separators and
 * document names. Written before the readers changed; never tuned on.
 */
import type { ScoredReply } from "../score.ts";

export const languageReplies: ScoredReply[] = [
  // ── retrieval (0-2) ──
  {
    category: "Spanish label",
    reader: "retrieval",
    reply: "El pasaje responde directamente a la pregunta.\nPuntuación: 2",
    expected: 2,
  },
  {
    category: "German label",
    reader: "retrieval",
    reply: "Der Text erwähnt das Thema nur am Rande.\nBewertung: 1",
    expected: 1,
  },
  {
    category: "French label",
    reader: "retrieval",
    reply: "Le passage ne parle pas du sujet.\nNote : 0",
    expected: 0,
  },
  {
    category: "Portuguese label",
    reader: "retrieval",
    reply: "O trecho explica exatamente o que foi perguntado.\nPontuação: 2",
    expected: 2,
  },
  {
    category: "Italian label",
    reader: "retrieval",
    reply: "Il passaggio è solo in parte pertinente.\nPunteggio: 1",
    expected: 1,
  },
  {
    category: "Chinese label",
    reader: "retrieval",
    reply: "该段落直接回答了问题。\n评分：2",
    expected: 2,
  },
  {
    category: "Japanese label",
    reader: "retrieval",
    reply: "この文書は質問に部分的に関連しています。\nスコア：1",
    expected: 1,
  },
  {
    category: "Korean label",
    reader: "retrieval",
    reply: "이 문서는 질문과 관련이 없습니다.\n점수: 0",
    expected: 0,
  },
  {
    category: "Spanish label",
    reader: "retrieval",
    reply: "**Relevancia:** 2 — el documento da la fecha exacta.",
    expected: 2,
  },
  {
    category: "German label",
    reader: "retrieval",
    reply: "Relevanz: 2 (sehr relevant)",
    expected: 2,
  },
  {
    category: "Chinese label",
    reader: "retrieval",
    reply: "相关性：1（部分相关）",
    expected: 1,
  },
  {
    category: "French label",
    reader: "retrieval",
    reply: "Pertinence : 2/2",
    expected: 2,
  },
  {
    category: "Spanish final label",
    reader: "retrieval",
    reply: "Puntuación inicial: 2\nTras revisarlo, no menciona el año.\nPuntuación final: 1",
    expected: 1,
  },
  {
    category: "Japanese label",
    reader: "retrieval",
    reply: "関連性：２",
    expected: 2,
  },
  // ── similarity (0-5) ──
  {
    category: "German label",
    reader: "similarity",
    reply: "Beide Antworten sagen dasselbe, die Kandidatin lässt ein Beispiel weg.\nÄhnlichkeit: 4",
    expected: 4,
  },
  {
    category: "French label",
    reader: "similarity",
    reply: "Similarité : 3,5",
    expected: 3.5,
  },
  {
    category: "Portuguese label",
    reader: "similarity",
    reply: "Nota: 4/5",
    expected: 4,
  },
  {
    category: "Korean label",
    reader: "similarity",
    reply: "유사도: 3",
    expected: 3,
  },
  {
    category: "Chinese label",
    reader: "similarity",
    reply: "两个答案意思相同。\n分数：5",
    expected: 5,
  },
  {
    category: "Italian label",
    reader: "similarity",
    reply: "Somiglianza: 2",
    expected: 2,
  },
  // ── answer judge (4 × 0-2) ──
  {
    category: "Spanish labels",
    reader: "answer",
    reply: "Relevancia: 2\nExactitud: 1\nCompletitud: 1\nPrecisión: 2",
    expected: { relevance: 2, accuracy: 1, completeness: 1, precision: 2 },
  },
  {
    category: "German labels",
    reader: "answer",
    reply: "Relevanz: 2\nGenauigkeit: 2\nVollständigkeit: 1\nPräzision: 1",
    expected: { relevance: 2, accuracy: 2, completeness: 1, precision: 1 },
  },
  {
    category: "French labels",
    reader: "answer",
    reply: "Pertinence : 2\nExactitude : 0\nComplétude : 1\nPrécision : 2",
    expected: { relevance: 2, accuracy: 0, completeness: 1, precision: 2 },
  },
  {
    category: "Chinese labels",
    reader: "answer",
    reply: "相关性：2\n准确性：1\n完整性：2\n精确性：1",
    expected: { relevance: 2, accuracy: 1, completeness: 2, precision: 1 },
  },
  {
    category: "Japanese labels",
    reader: "answer",
    reply: "関連性：2\n正確性：2\n完全性：1\n精度：2",
    expected: { relevance: 2, accuracy: 2, completeness: 1, precision: 2 },
  },
  {
    category: "Portuguese labels",
    reader: "answer",
    reply: "Relevância: 1\nExatidão: 1\nCompletude: 0\nPrecisão: 2",
    expected: { relevance: 1, accuracy: 1, completeness: 0, precision: 2 },
  },
  // ── pairwise ──
  {
    category: "Spanish verdict",
    reader: "pairwise",
    reply: "La respuesta del Asistente B es más precisa.\n\nVeredicto: B",
    expected: "B",
  },
  {
    category: "German verdict",
    reader: "pairwise",
    reply: "Assistent A beantwortet die Frage vollständig.\nUrteil: A",
    expected: "A",
  },
  {
    category: "French verdict",
    reader: "pairwise",
    reply: "Les deux réponses se valent.\nVerdict : égalité",
    expected: "C",
  },
  {
    category: "Chinese verdict",
    reader: "pairwise",
    reply: "助手A的回答更准确。\n最终裁决：[[A]]",
    expected: "A",
  },
  {
    category: "Japanese verdict",
    reader: "pairwise",
    reply: "アシスタントBの回答の方が優れています。\n判定：B",
    expected: "B",
  },
  // ── rerank ──
  {
    category: "Spanish document lines",
    reader: "rerank-relevance",
    reply: "Documento 1, Relevancia: 8\nDocumento 2, Relevancia: 3",
    expected: { 1: { final: 8 }, 2: { final: 3 } },
  },
  {
    category: "German document lines",
    reader: "rerank-relevance",
    reply: "Dokument 3: Relevanz: 7\nDokument 1: Relevanz: 2",
    expected: { 3: { final: 7 }, 1: { final: 2 } },
  },
  {
    category: "French document lines",
    reader: "rerank-relevance",
    reply: "Document 2 : Pertinence : 9\nDocument 4 : Pertinence : 4",
    expected: { 2: { final: 9 }, 4: { final: 4 } },
  },
  {
    category: "Chinese document lines",
    reader: "rerank-relevance",
    reply: "文档1：相关性：9\n文档3：相关性：2",
    expected: { 1: { final: 9 }, 3: { final: 2 } },
  },
  {
    category: "Japanese document lines",
    reader: "rerank-relevance",
    reply: "文書2：関連性：6\n文書4：関連性：8",
    expected: { 2: { final: 6 }, 4: { final: 8 } },
  },
  {
    category: "Korean document lines",
    reader: "rerank-relevance",
    reply: "문서 1: 관련성: 5\n문서 2: 관련성: 7",
    expected: { 1: { final: 5 }, 2: { final: 7 } },
  },
  {
    category: "Italian document lines",
    reader: "rerank-relevance",
    reply: "Passaggio 1, Rilevanza: 7\nPassaggio 3, Rilevanza: 6,5",
    expected: { 1: { final: 7 }, 3: { final: 6.5 } },
  },
  {
    category: "Portuguese document lines",
    reader: "rerank-relevance",
    reply: "Documento 4: Relevância: 10\nDocumento 2: Relevância: 1",
    expected: { 4: { final: 10 }, 2: { final: 1 } },
  },
  // ── ITEM and ToT ──
  {
    category: "Spanish yes/no",
    reader: "item-pointwise",
    reply: "Útil: sí — da la fecha exacta.",
    expected: true,
  },
  {
    category: "German yes/no",
    reader: "item-pointwise",
    reply: "Nützlich: nein. Der Abschnitt nennt das Jahr nicht.",
    expected: false,
  },
  {
    category: "Chinese yes/no",
    reader: "item-pointwise",
    reply: "判断：是，该段落给出了答案。",
    expected: true,
  },
  {
    category: "French score",
    reader: "tot-score",
    reply: "Note : 0,75",
    expected: 0.75,
  },
  {
    category: "Japanese score",
    reader: "tot-score",
    reply: "スコア：0.6",
    expected: 0.6,
  },
  {
    category: "Korean score",
    reader: "tot-score",
    reply: "점수: 0.4",
    expected: 0.4,
  },
];

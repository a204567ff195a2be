/**
 * Why a question was answered as it was, read from its trace (DocIndex.trace) stage by stage: the question's
 * words as searched, the documents the retrieval ranked and what each score is made of, the evidence
 * features and their weight in the refusal decision, the confidence, and the units the answer quotes with
 * why each was chosen. For an operator checking docent on
 * their own documentation (`docent ask --explain`); the numbers are the ones the pipeline used.
 */
import { normaliseWhitespace, truncate } from '../net/text.js';
import type { QuoteReason } from './answer.js';
import { SECTION_SEPARATOR } from './chunk.js';
import type { Decision } from './evidence.js';
import type { QueryTrace } from './index.js';
import type { QueryResult } from './types.js';

export interface Explanation {
  /** The question's searched terms, rarest first: as written, as analysed, IDF, found in the documentation. */
  terms: { word: string; term: string; idf: number; found: boolean; name: boolean; aside: boolean }[];
  /** Names the question gives that the documentation never mentions. */
  missingNames: string[];
  /** Other wordings searched beside the question (the caller's keywords, a model's rewrite), as given. */
  alternatives?: string[];
  retrieval: {
    passages: number;
    documents: number;
    /** The best documents: score = passage + second + title (see tuning.ts secondPassageShare, titleWeight). */
    ranked: {
      title: string;
      library: string;
      score: number;
      passage: number;
      second: number;
      title_bonus: number;
      /** From the words other pages link to it with. */
      link_bonus: number;
      /** Heading path of its best passage. */
      section: string;
      /** IDF-weighted share of the question its best three passages hold. */
      coverage: number;
    }[];
  };
  decision?: Decision;
  /** The answer's outcome: answered, or refused (and by what). */
  outcome: string;
  /** The confidence the result reports (capped for a missing name or a model that found no answer). */
  confidence: number;
  /**
   * The units the extractive answer quotes (absent when refused or written by a model): where each is from,
   * its kind, its score (the IDF share of the question it names, weighed by its passage), the question's
   * words it names, and why it was chosen (answer.ts QuoteReason).
   */
  quotes?: { title: string; section: string; kind: string; score: number; covers: string[]; why: QuoteReason; text: string }[];
}

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * `result`: what the caller was actually given, when a language model wrote it after this trace's decision (the
 * trace is taken without one): a model that found no answer in the passages refuses after the decision.
 */
export function explainTrace(trace: QueryTrace, options: { documents?: number; result?: QueryResult } = {}): Explanation {
  const retrieval = trace.retrieval;
  const asides = new Set(trace.asides ?? []);
  const terms = [...(retrieval?.terms ?? [])]
    .filter((t) => !t.part)
    .sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1))
    .map((t) => ({ word: t.surface, term: t.term, idf: round(t.idf, 2), found: t.known, name: t.identifier, aside: asides.has(t.term) }));
  const decision = trace.decision;
  const outcome = !decision
    ? (trace.result.reason ?? 'refused')
    : decision.by === 'missing-name'
      ? `refused: the documentation never mentions ${trace.evidence?.missingStrong.join(', ')}`
      : decision.by === 'no-document'
        ? 'refused: no passage matched'
        : decision.by === 'model-no-answer'
          ? 'refused: the model that read the passages found no answer in them'
          : decision.by === 'model-answered'
            ? `answered: P(answers) ${decision.answers.toFixed(2)} < threshold ${decision.threshold.toFixed(2)}, but the model that read the passages answered from them`
            : decision.refused
              ? `refused: P(answers) ${decision.answers.toFixed(2)} < threshold ${decision.threshold.toFixed(2)}`
              : `answered: P(answers) ${decision.answers.toFixed(2)} ≥ threshold ${decision.threshold.toFixed(2)}`;
  const given = options.result ?? trace.result;
  const modelDeclined = decision && !decision.refused && !given.grounded;
  // A refusal the evidence alone made is the model's to judge when one writes the answers (tuning.modelJudges).
  const modelAnswered = decision?.refused && decision.by === 'model' && given.grounded;
  return {
    terms,
    missingNames: trace.evidence?.missingStrong ?? [],
    ...(trace.alternatives?.length ? { alternatives: trace.alternatives } : {}),
    retrieval: {
      passages: retrieval?.candidates.length ?? 0,
      documents: retrieval?.documents.length ?? 0,
      ranked: (retrieval?.documents ?? []).slice(0, options.documents ?? 5).map((d) => ({
        title: d.doc.title,
        library: d.doc.library,
        score: round(d.score),
        passage: round(d.parts.passage),
        second: round(d.parts.second),
        title_bonus: round(d.parts.title),
        link_bonus: round(d.parts.links),
        section: d.chunks[0]?.chunk.section ?? '',
        coverage: round(d.coverage, 2),
      })),
    },
    decision,
    outcome: modelDeclined
      ? `${outcome}; then refused: the language model that wrote the answer found none in the passages`
      : modelAnswered
        ? `${outcome}; then answered: the language model that read the passages answered from them`
        : outcome,
    confidence: given.confidence,
    // The quotes are what the caller got only when the answer given is the trace's extractive one.
    quotes:
      given.answer === undefined || given.answer !== trace.result.answer
        ? undefined
        : trace.quotes?.map((q) => ({
            title: q.candidate.doc.title,
            section: q.unit.section ?? q.candidate.chunk.section,
            kind: q.unit.excerpt ? 'code excerpt' : q.unit.kind,
            score: round(q.score),
            covers: (retrieval?.terms ?? []).filter((t) => q.covers.has(t.term)).map((t) => t.surface),
            why: q.why ?? 'context',
            text: q.unit.text,
          })),
  };
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const percent = (x: number) => `${Math.round(x * 100)}%`;
const signed = (x: number) => `${x < 0 ? '-' : '+'}${Math.abs(x).toFixed(2)}`;

/** The explanation as text, one stage per block, in pipeline order. */
export function renderExplanation(e: Explanation): string {
  const lines: string[] = ['Why (docent ask --explain):', '', '1. The question, as searched (rarest word first; IDF, and where the documentation lacks it):'];
  if (!e.terms.length) lines.push('   (no searchable words)');
  for (const t of e.terms)
    lines.push(
      `   ${t.word}${t.term !== t.word.toLowerCase() ? ` → ${t.term}` : ''}  idf ${t.idf.toFixed(2)}${t.found ? '' : '  not in the documentation'}${t.name ? '  (name)' : ''}${t.aside ? '  (aside: weighs less)' : ''}`,
    );
  if (e.missingNames.length) lines.push(`   Named but never mentioned: ${e.missingNames.join(', ')}`);
  if (e.alternatives?.length) lines.push(`   Also searched beside the question: ${e.alternatives.join('; ')}`);
  lines.push(
    '',
    `2. Retrieval: ${count(e.retrieval.passages, 'passage')} from ${count(e.retrieval.documents, 'document')}; documents by score = best passage + second passage share + title bonus + link bonus:`,
  );
  e.retrieval.ranked.forEach((d, i) =>
    lines.push(
      `   ${i + 1}. ${d.title} (${d.library})  ${d.score.toFixed(2)} = ${d.passage.toFixed(2)} + ${d.second.toFixed(2)} + ${d.title_bonus.toFixed(2)} + ${d.link_bonus.toFixed(2)}  covers ${percent(d.coverage)}${d.section ? `  best: ${d.section}` : ''}`,
    ),
  );
  const d = e.decision;
  if (d) {
    lines.push('', '3. Evidence (value × weight = what it adds to the log-odds that the documentation answers):');
    for (const f of d.features)
      lines.push(`   ${f.name.padEnd(13)} ${f.value.toFixed(3).padStart(7)} × ${f.weight.toFixed(2).padStart(7)} = ${signed(f.value * f.weight)}`);
    lines.push(`   ${'bias'.padEnd(13)} ${''.padStart(17)} = ${signed(d.bias)}`);
    const logOdds = d.features.reduce((s, f) => s + f.value * f.weight, d.bias);
    lines.push(
      `   ${'log-odds'.padEnd(13)} ${''.padStart(17)} = ${signed(logOdds)}  → P(answers) ${d.answers.toFixed(2)}, threshold ${d.threshold.toFixed(2)}`,
    );
    if (d.alternatives) lines.push(`   (moved ${percent(d.alternatives)} of the way toward the reading with the alternative wordings)`);
  }
  lines.push('', `4. Decision: ${e.outcome}.`, `   Confidence reported: ${percent(e.confidence)}.`);
  if (e.quotes?.length) {
    lines.push('', "5. Answer: the units quoted (score = the question's weight they name × their passage's weight; why chosen):");
    for (const q of e.quotes) {
      const where = `${q.title}${q.section ? `${SECTION_SEPARATOR}${q.section}` : ''}`;
      lines.push(
        `   ${q.why.padEnd(15)} ${q.score.toFixed(3)}  ${q.kind} of ${where}${q.covers.length ? `  names: ${q.covers.join(', ')}` : ''}`,
        `   ${''.padEnd(15)}        "${truncate(normaliseWhitespace(q.text), 90)}"`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * The extractive answerer (no model): the sentences, list items, table rows and code blocks of the best
 * passages that cover the question, quoted verbatim and each marked with the source it came from.
 *
 * Quoted text is data: every line of it is rendered as a `>` quotation under its source, so instructions
 * that a document may contain reach the reader as quoted documentation, never as the answer's own words.
 */
import { analyze, type Stemmer } from './tokens.js';
import type { QueryTerm } from './question.js';
import { RELATED_WEIGHT, type Candidate } from './search.js';

export interface Unit {
  kind: 'sentence' | 'item' | 'row' | 'code';
  text: string;
  /** Position in its chunk. */
  index: number;
  /** The paragraph (list, table, code block) of its chunk that the unit belongs to. */
  block: number;
}

export interface Quote {
  unit: Unit;
  candidate: Candidate;
  /** 1-based index into the result's sources. */
  source: number;
  score: number;
  /** Question terms the unit names, directly or through a related word. */
  covers: Set<string>;
}

const LIST_ITEM = /^\s{0,6}([-*+]|\d+[.)])\s+/;
const SENTENCE_BREAK = /(?<=[.!?])\s+(?=[A-Z`"'(\[*_])/;

/** Cuts a chunk's text into quotable units; code blocks stay whole. */
export function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  const lines = text.split('\n');
  let i = 0;
  let para: string[] = [];
  let block = -1;
  const push = (kind: Unit['kind'], t: string) => {
    const trimmed = t.trim();
    if (trimmed) units.push({ kind, text: trimmed, index: units.length, block });
  };
  const flushPara = () => {
    if (!para.length) return;
    block++;
    const first = para[0]!;
    if (LIST_ITEM.test(first)) {
      let item: string[] = [];
      for (const line of para) {
        if (LIST_ITEM.test(line) && item.length) {
          push('item', item.join(' '));
          item = [];
        }
        item.push(line.trim());
      }
      push('item', item.join(' '));
    } else if (first.trim().startsWith('|')) {
      // Each row is quoted under the table's header row, which says what its cells mean.
      const rows = para.filter((line) => !/^\s*\|?\s*:?-{2,}/.test(line));
      const header = rows.length > 1 && /^\s*\|?\s*:?-{2,}/.test(para[1] ?? '') ? rows.shift()! : undefined;
      for (const line of rows) push('row', header ? `${header.trim()}\n${line.trim()}` : line);
    } else {
      for (const s of para.map((l) => l.trim()).join(' ').split(SENTENCE_BREAK)) push('sentence', s);
    }
    para = [];
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      flushPara();
      const marker = fence[1]!;
      const fenced = [line];
      i++;
      while (i < lines.length) {
        fenced.push(lines[i]!);
        if (lines[i]!.trim() === marker) break;
        i++;
      }
      i++;
      block++;
      push('code', fenced.join('\n'));
      continue;
    }
    if (!line.trim()) flushPara();
    else para.push(line);
    i++;
  }
  flushPara();
  return units;
}

export interface AnswerOptions {
  stemmer: Stemmer;
  /** Most units quoted. */
  maxUnits: number;
  /** Character budget of the quoted text. */
  maxChars: number;
}

export const DEFAULT_ANSWER_OPTIONS: AnswerOptions = { stemmer: 'porter', maxUnits: 6, maxChars: 1200 };

/*
 * Constants below were measured with `npm run eval -- --holdout` (answer match, shared eval / holdout), each
 * against the chosen value of the others.
 */

/**
 * Within-document specificity: a question term found in most chunks of a document (its package name, the
 * words of its title) says little about which of its passages answers, so its weight for that document's
 * units falls towards this floor (BM25 IDF over the document's chunks, scaled to [floor, 1]). 1 (off) →
 * 0.83 / 0.84; 0.3 → 0.88 / 0.86.
 */
const SPECIFICITY_FLOOR = 0.3;
/** Documents of fewer chunks than this have no meaningful within-document IDF. */
const SPECIFICITY_MIN_CHUNKS = 4;
/**
 * The primary passage (best chunk of the best document) leads when its best unit scores at least this share
 * of the best unit anywhere; otherwise the best unit leads. 0 (always the primary) → 0.85 / 0.86; 1 (always
 * the best unit) → 0.88 / 0.84; 0.5 → 0.88 / 0.86.
 */
const LEAD_PRIMARY = 0.5;
/** A further passage's best unit is quoted when it covers at least this share of what the lead covers. */
const SPREAD = 0.7;
/** Further units are quoted while they score at least this share of the lead. 0.35 → 0.83 / 0.84; 0.2 → 0.88 / 0.86. */
const MIN_SHARE = 0.2;
/**
 * Further units are chosen by what they add (question terms no quoted unit names yet, scaled by the unit's
 * score relative to the lead) plus this share of their own score, so that an answer spread over several
 * sentences (the option here, its effect there) is quoted rather than the same words again. Off → 0.85 /
 * 0.86; 0.3 → 0.88 / 0.86.
 */
const NOVELTY_SCORE_SHARE = 0.3;
/**
 * An introducing sentence ending in ":" brings the list or code it introduces, across at most this many
 * sentences in between ("… as shown below:" "Install the executable:" then the command). 0 → 0.87 / 0.86; 2 → 0.88 / 0.86.
 */
const INTRO_GAP_SENTENCES = 2;
/**
 * A question about a default value is answered by the statement of that value: such units are scored with
 * the words of their paragraph before them (what they state the default of), score double (+0.1) and escape the
 * short-unit discount. Off → 0.87 / 0.86.
 */
const DEFAULT_STATEMENT = /\bdefaults? (?:to|is|value)\b|\bdefault:|@default\b|\(default\b|\bby default\b/i;

/** Weight of each question term for the units of one document: IDF times within-document specificity. */
function weightsFor(doc: Candidate['doc'], terms: QueryTerm[]): Map<string, number> {
  const n = doc.chunks;
  const out = new Map<string, number>();
  const maxIdf = Math.log(1 + (n - 0.5) / 1.5);
  for (const t of terms) {
    let specificity = 1;
    if (n >= SPECIFICITY_MIN_CHUNKS) {
      const df = Math.max(1, Math.min(n, doc.chunkFrequency(t.term)));
      specificity = SPECIFICITY_FLOOR + (1 - SPECIFICITY_FLOOR) * (Math.log(1 + (n - df + 0.5) / (df + 0.5)) / maxIdf);
    }
    out.set(t.term, t.idf * specificity);
  }
  return out;
}

function unitScore(unit: Unit, present: Set<string>, terms: QueryTerm[], weights: Map<string, number>, totalIdf: number, asksDefault: boolean): number {
  let s = 0;
  for (const t of terms) {
    const w = weights.get(t.term)!;
    if (present.has(t.term)) s += w;
    else if (t.related.some((r) => present.has(r))) s += RELATED_WEIGHT * w;
  }
  let score = s / totalIdf;
  // "Defaults to `'100kb'`." answers "what is the default …?" however few of the question's words it repeats.
  if (asksDefault && DEFAULT_STATEMENT.test(unit.text)) score = score * 2 + 0.1;
  // Very short fragments ("Default: `undefined`") say little on their own.
  else if (unit.text.length < 25) score *= 0.5;
  // Very long code blocks cost a lot of the budget for what they add.
  if (unit.kind === 'code' && unit.text.length > 600) score *= 0.7;
  return score;
}

/**
 * Picks what to quote from the passages (best first, each with a weight relative to the best): every unit is
 * scored by the question terms it names (IDF times within-document specificity; related words at
 * RELATED_WEIGHT) times its passage's weight. The lead is the primary passage's best unit unless another
 * scores far better; then one unit from each further passage that covers the question about as well, then
 * units by what they add. An introducing sentence ending in ":" brings the list or code it introduces, and a
 * code block the sentence that introduces it. The lead's passage is rendered first.
 */
export function selectQuotes(passages: { candidate: Candidate; source: number; weight: number }[], terms: QueryTerm[], options: AnswerOptions): Quote[] {
  const totalIdf = terms.reduce((s, t) => s + t.idf, 0) || 1;
  const asksDefault = terms.some((t) => t.term === 'default');
  const weightsByDoc = new Map<string, Map<string, number>>();
  const perPassage = passages.map((p) => {
    const doc = p.candidate.doc;
    let weights = weightsByDoc.get(doc.id);
    if (!weights) weightsByDoc.set(doc.id, (weights = weightsFor(doc, terms)));
    let paragraph = { block: -1, terms: new Set<string>() };
    return unitsOf(p.candidate.chunk.text).map((unit): Quote => {
      const own = new Set(analyze(unit.text, { stemmer: options.stemmer }).map((t) => t.term));
      if (unit.block !== paragraph.block) paragraph = { block: unit.block, terms: new Set() };
      // "Defaults to `'100kb'`." is about what its paragraph describes: it is scored with the paragraph's words.
      const present = asksDefault && DEFAULT_STATEMENT.test(unit.text) ? new Set([...paragraph.terms, ...own]) : own;
      for (const t of own) paragraph.terms.add(t);
      const covers = new Set(terms.filter((t) => present.has(t.term) || t.related.some((r) => present.has(r))).map((t) => t.term));
      return { unit, candidate: p.candidate, source: p.source, covers, score: unitScore(unit, present, terms, weights, totalIdf, asksDefault) * p.weight };
    });
  });
  const all = perPassage.flat();
  if (!all.length) return [];
  const ranked = [...all].sort((a, b) => b.score - a.score || a.unit.index - b.unit.index);
  const primaryBest = ranked.find((q) => q.candidate === passages[0]!.candidate);
  const lead = primaryBest && primaryBest.score >= ranked[0]!.score * LEAD_PRIMARY ? primaryBest : ranked[0]!;
  const chosen: Quote[] = [];
  let used = 0;
  const fits = (q: Quote, slack = 1) => used + q.unit.text.length <= options.maxChars * slack;
  const take = (q: Quote) => {
    if (chosen.includes(q)) return;
    chosen.push(q);
    used += q.unit.text.length;
  };
  const siblingsOf = (q: Quote) => perPassage[passages.findIndex((p) => p.candidate === q.candidate)]!;
  const withContext = (q: Quote) => {
    take(q);
    const siblings = siblingsOf(q);
    // "… the following modules:" is answered by the list (or code) after it, also across a sentence or two
    // ("Install the executable:") in between.
    if (q.unit.text.endsWith(':')) {
      const between: Quote[] = [];
      for (const next of siblings.slice(q.unit.index + 1)) {
        if (next.unit.kind === 'sentence') {
          if (between.length >= INTRO_GAP_SENTENCES || chosen.some((c) => c.candidate === q.candidate && c.unit.kind !== 'sentence' && c.unit.index > q.unit.index)) break;
          between.push(next);
          continue;
        }
        if (!fits(next, 1.4)) break;
        for (const b of between.splice(0)) take(b);
        take(next);
      }
    }
    // A code block reads better after the sentence that introduces it.
    const prev = siblings[q.unit.index - 1];
    if (q.unit.kind === 'code' && prev && prev.unit.kind !== 'code' && fits(prev, 1.3)) take(prev);
  };
  withContext(lead);
  // One unit from each further passage that covers the question about as well: answers are often spread
  // over the sections of a page (the option's description here, its default there).
  const leadPassage = passages.findIndex((p) => p.candidate === lead.candidate);
  const leadCoverage = lead.score / (passages[leadPassage]!.weight || 1);
  perPassage.forEach((list, i) => {
    if (!list.length || list.includes(lead) || chosen.length >= options.maxUnits) return;
    const q = list.reduce((a, b) => (b.score > a.score ? b : a));
    if (q.score / (passages[i]!.weight || 1) >= leadCoverage * SPREAD && fits(q)) withContext(q);
  });
  // Then units by what they add: question terms not named yet (scaled by the unit's score relative to the
  // lead), plus a share of their own score.
  const weightOf = new Map(terms.map((t) => [t.term, t.idf]));
  const pool = ranked.filter((q) => q.score > 0 && q.score >= lead.score * MIN_SHARE);
  while (chosen.length < options.maxUnits) {
    const covered = new Set(chosen.flatMap((c) => [...c.covers]));
    let best: Quote | undefined;
    let bestGain = 0;
    for (const q of pool) {
      if (chosen.includes(q) || !fits(q)) continue;
      let novel = 0;
      for (const t of q.covers) if (!covered.has(t)) novel += weightOf.get(t)!;
      const gain = (novel / totalIdf) * (q.score / (lead.score || 1)) + NOVELTY_SCORE_SHARE * q.score;
      if (gain > bestGain) {
        bestGain = gain;
        best = q;
      }
    }
    if (!best) break;
    withContext(best);
  }
  // The lead's passage first, then the others in rank order; units in document order within a passage.
  const order = new Map(passages.map((p, i) => [p.candidate, i === leadPassage ? -1 : i]));
  return chosen.sort((a, b) => order.get(a.candidate)! - order.get(b.candidate)! || a.unit.index - b.unit.index);
}

/** Renders quotes grouped by passage, every quoted line prefixed with `>` and each group naming its source. */
export function renderQuotes(quotes: Quote[], label: (c: Candidate) => string): string {
  const parts: string[] = [];
  let current: Candidate | undefined;
  for (const q of quotes) {
    if (q.candidate !== current) {
      current = q.candidate;
      parts.push(`${parts.length ? '\n' : ''}From ${label(q.candidate)} [${q.source}]:`);
    }
    parts.push(q.unit.text.split('\n').map((l) => `> ${l}`.trimEnd()).join('\n'));
  }
  return parts.join('\n');
}

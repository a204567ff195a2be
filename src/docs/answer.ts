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
}

export interface Quote {
  unit: Unit;
  candidate: Candidate;
  /** 1-based index into the result's sources. */
  source: number;
  score: number;
}

const LIST_ITEM = /^\s{0,6}([-*+]|\d+[.)])\s+/;
const SENTENCE_BREAK = /(?<=[.!?])\s+(?=[A-Z`"'(\[*_])/;

/** Cuts a chunk's text into quotable units; code blocks stay whole. */
export function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  const lines = text.split('\n');
  let i = 0;
  let para: string[] = [];
  const push = (kind: Unit['kind'], t: string) => {
    const trimmed = t.trim();
    if (trimmed) units.push({ kind, text: trimmed, index: units.length });
  };
  const flushPara = () => {
    if (!para.length) return;
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
      const block = [line];
      i++;
      while (i < lines.length) {
        block.push(lines[i]!);
        if (lines[i]!.trim() === marker) break;
        i++;
      }
      i++;
      push('code', block.join('\n'));
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

/** A further passage's best unit is quoted when it covers at least this share of what the lead covers. */
const SPREAD = 0.7;

function unitScore(unit: Unit, terms: QueryTerm[], totalIdf: number, stemmer: Stemmer): number {
  const present = new Set(analyze(unit.text, { stemmer }).map((t) => t.term));
  let s = 0;
  for (const t of terms) {
    if (present.has(t.term)) s += t.idf;
    else if (t.related.some((r) => present.has(r))) s += RELATED_WEIGHT * t.idf;
  }
  let score = s / totalIdf;
  // Very short fragments ("Default: `undefined`") say little on their own.
  if (unit.text.length < 25) score *= 0.5;
  // Very long code blocks cost a lot of the budget for what they add.
  if (unit.kind === 'code' && unit.text.length > 600) score *= 0.7;
  return score;
}

/**
 * Picks what to quote: the units of the passages that best cover the question (the first from the best
 * passage), each unit's weight scaled by its passage's; an introducing sentence ending in ":" brings the
 * list or code it introduces, and a code block the sentence that introduces it.
 */
export function selectQuotes(passages: { candidate: Candidate; source: number; weight: number }[], terms: QueryTerm[], options: AnswerOptions): Quote[] {
  const totalIdf = terms.reduce((s, t) => s + t.idf, 0) || 1;
  const perPassage = passages.map((p) =>
    unitsOf(p.candidate.chunk.text).map((unit): Quote => ({ unit, candidate: p.candidate, source: p.source, score: unitScore(unit, terms, totalIdf, options.stemmer) * p.weight })),
  );
  const all = perPassage.flat();
  if (!all.length) return [];
  const ranked = [...all].sort((a, b) => b.score - a.score || a.unit.index - b.unit.index);
  const lead = ranked.find((q) => q.candidate === passages[0]!.candidate) ?? ranked[0]!;
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
    // "… the following modules:" is answered by the list (or code) after it.
    if (q.unit.text.endsWith(':')) {
      for (const next of siblings.slice(q.unit.index + 1)) {
        if (next.unit.kind === 'sentence' || !fits(next, 1.4)) break;
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
  const leadCoverage = lead.score / (passages[0]!.weight || 1);
  perPassage.forEach((list, i) => {
    if (!list.length || list.includes(lead) || chosen.length >= options.maxUnits) return;
    const q = list.reduce((a, b) => (b.score > a.score ? b : a));
    if (q.score / (passages[i]!.weight || 1) >= leadCoverage * SPREAD && fits(q)) withContext(q);
  });
  for (const q of ranked) {
    if (chosen.length >= options.maxUnits) break;
    if (chosen.includes(q) || q.score <= 0) continue;
    if (q.score < lead.score * 0.35) break;
    if (!fits(q)) continue;
    withContext(q);
  }
  const order = new Map(passages.map((p, i) => [p.candidate, i]));
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

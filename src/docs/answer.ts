/**
 * The extractive answerer (no model): the sentences, list items, table rows and code blocks of the best
 * passages that cover the question, quoted verbatim and each marked with the source it came from.
 *
 * Quoted text is data: every line of it is rendered as a `>` quotation under its source, so instructions
 * that a document may contain reach the reader as quoted documentation, never as the answer's own words.
 */
import { analyze, type Stemmer } from './tokens.js';
import type { QueryTerm } from './question.js';
import type { Candidate } from './search.js';

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
      for (const line of para) if (!/^\s*\|?\s*:?-{2,}/.test(line)) push('row', line);
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

export const DEFAULT_ANSWER_OPTIONS: AnswerOptions = { stemmer: 'porter', maxUnits: 4, maxChars: 900 };

function unitScore(unit: Unit, terms: QueryTerm[], totalIdf: number, stemmer: Stemmer): number {
  const present = new Set(analyze(unit.text, { stemmer }).map((t) => t.term));
  let s = 0;
  for (const t of terms) if (present.has(t.term)) s += t.idf;
  let score = s / totalIdf;
  // Very short fragments ("Default: `undefined`") say little on their own.
  if (unit.text.length < 25) score *= 0.5;
  // Very long code blocks cost a lot of the budget for what they add.
  if (unit.kind === 'code' && unit.text.length > 600) score *= 0.7;
  return score;
}

/**
 * Picks the units that best cover the question from the given passages (best passage first). Passages
 * further down the list count for less; the first unit always comes from the best passage.
 */
export function selectQuotes(passages: { candidate: Candidate; source: number; weight: number }[], terms: QueryTerm[], options: AnswerOptions): Quote[] {
  const totalIdf = terms.reduce((s, t) => s + t.idf, 0) || 1;
  const scored: Quote[] = [];
  for (const p of passages) {
    for (const unit of unitsOf(p.candidate.chunk.text)) {
      scored.push({ unit, candidate: p.candidate, source: p.source, score: unitScore(unit, terms, totalIdf, options.stemmer) * p.weight });
    }
  }
  if (!scored.length) return [];
  const ranked = [...scored].sort((a, b) => b.score - a.score || a.unit.index - b.unit.index);
  const chosen: Quote[] = [];
  let used = 0;
  const firstPassage = passages[0]!.candidate;
  const lead = ranked.find((q) => q.candidate === firstPassage) ?? ranked[0]!;
  const take = (q: Quote) => {
    chosen.push(q);
    used += q.unit.text.length;
  };
  take(lead);
  for (const q of ranked) {
    if (chosen.length >= options.maxUnits) break;
    if (chosen.includes(q) || q.score <= 0) continue;
    if (q.score < lead.score * 0.35) break;
    if (used + q.unit.text.length > options.maxChars && chosen.length) continue;
    take(q);
  }
  // A code block is easier to read after the sentence that introduces it.
  for (const q of [...chosen]) {
    if (q.unit.kind !== 'code') continue;
    const intro = scored.find((s) => s.candidate === q.candidate && s.unit.index === q.unit.index - 1 && s.unit.kind !== 'code');
    if (intro && !chosen.includes(intro) && used + intro.unit.text.length <= options.maxChars * 1.3) take(intro);
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

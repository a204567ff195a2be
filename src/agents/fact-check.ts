/**
 * Deterministic fact-checking of a synthesis against its evidence (tool results, retrieved documentation and
 * the task text). The answer is split into sentences; a sentence is a claim when it states a figure, a name
 * or an identifier (`key_claims`), or always (`every_claim`). A claim holds when every figure and identifier
 * in it appears in some evidence (numbers compared by value, `1,200.50` = `1200.5`), and, under
 * `every_claim`, when at least half its content words do too. The verdict counts how many held.
 */
import type { Claim, Verdict } from './result.js';
import { splitSentences } from '../docs/tokens.js';

export interface Evidence {
  /** Where it came from, e.g. `step 2 (calculator)`, `task`, `documentation`. */
  source: string;
  text: string;
}

export type Strictness = 'every_claim' | 'key_claims';

export interface FactCheck {
  checked: number;
  held: number;
  items: Claim[];
  verdict: Verdict;
}

const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does for from had has have how i if in into is it its ' +
    'may might more most must no not of on or our over should so some such than that the their them then there these ' +
    'they this those through to too under up us was we were what when where which while who why will with would you ' +
    'your also about after all any because before between both each few further here just only other own same very ' +
    'via using used use per across within without however therefore thus'
  ).split(' '),
);
const GENERIC_ACRONYMS = new Set([
  'I',
  'OK',
  'API',
  'APIS',
  'URL',
  'URLS',
  'HTTP',
  'HTTPS',
  'JSON',
  'CSV',
  'UTC',
  'ID',
  'IDS',
  'AM',
  'PM',
  'FAQ',
  'TODO',
  'NOTE',
  'TL;DR',
]);
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'cf', 'approx']);
const NUMBER = /^[-+−]?[$€£]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?%?$/;
const NUMBERS_IN_TEXT = /(?<![\w.])[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])/g;

/** `1,200.50` → `1200.5`; signs, currency and percent dropped (the sign is in the wording). */
export function normaliseNumber(token: string): string {
  let t = token.replace(/[-+−$€£%,]/g, '');
  if (t.includes('.')) t = t.replace(/(?<!0)0+$/, '').replace(/\.$/, '');
  t = t.replace(/^0+(?=\d)/, '');
  return t;
}

function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 5 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith('es')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

interface IndexedEvidence {
  source: string;
  lower: string;
  numbers: Set<string>;
  words: Set<string>;
}

function indexEvidence(evidence: readonly Evidence[]): IndexedEvidence[] {
  return evidence.map((e) => ({
    source: e.source,
    lower: e.text.toLowerCase(),
    numbers: new Set([...e.text.matchAll(NUMBERS_IN_TEXT)].map((m) => normaliseNumber(m[0]))),
    words: new Set((e.text.toLowerCase().match(/[a-z][a-z0-9]+/g) ?? []).map(stem)),
  }));
}

/** Sentences of an answer, markdown decoration removed; headings and code blocks are not claims. */
export function sentencesOf(answer: string): string[] {
  const withoutCode = answer.replace(/```[\s\S]*?```/g, '\n');
  const sentences: string[] = [];
  for (const rawLine of withoutCode.split(/\n+/)) {
    if (/^\s*#{1,6}\s/.test(rawLine)) continue;
    let line = rawLine.replace(/\*\*|__/g, '').trim();
    while (/^(?:[-*+•>]\s+|\d+[.)]\s+)/.test(line)) line = line.replace(/^(?:[-*+•>]\s+|\d+[.)]\s+)/, '').trim();
    if (!line || (/:$/.test(line) && line.split(/\s+/).length <= 6)) continue;
    for (const s of splitSentences(line)) sentences.push(s.trim());
  }
  return sentences;
}

interface Terms {
  numbers: string[];
  identifiers: string[];
  words: string[];
}

/** The checkable terms of one sentence: figures, identifiers and names, and its content words. */
export function termsOf(sentence: string): Terms {
  const numbers: string[] = [];
  const identifiers: string[] = [];
  let rest = sentence.replace(/`([^`]+)`/g, (_, code: string) => {
    identifiers.push(code.trim());
    return ' ';
  });
  rest = rest.replace(/"([^"]{2,60})"/g, (_, quoted: string) => {
    identifiers.push(quoted.trim());
    return ' ';
  });
  const words: string[] = [];
  const tokens = rest.split(/\s+/).filter(Boolean);
  tokens.forEach((raw, i) => {
    const token = raw.replace(/^[("'[{*]+/, '').replace(/(?<![()"'\]},.;:!?*])[()"'\]},.;:!?*]+$/, '');
    if (!token) return;
    const previous = tokens[i - 1]?.toLowerCase().replace(/[^a-z#]/g, '');
    if (NUMBER.test(token)) {
      // "step 2" points at a step of this run, not a figure.
      if (previous === 'step' || previous === 'steps' || previous === '#') return;
      numbers.push(normaliseNumber(token));
      return;
    }
    if (ABBREVIATIONS.has(token.toLowerCase())) return;
    const separated = /\w[._/:\\-]\w/.test(token);
    const identifier =
      /[a-z][A-Z]/.test(token) ||
      token.includes('_') ||
      (separated && (/[._/:\\]/.test(token) || /\d/.test(token))) ||
      (/\d/.test(token) && /[A-Za-z]/.test(token));
    const acronym = /^[A-Z][A-Z0-9]{1,}$/.test(token) && !GENERIC_ACRONYMS.has(token);
    const name = i > 0 && /^[A-Z][a-z][A-Za-z'-]*$/.test(token) && !STOPWORDS.has(token.toLowerCase()) && !/[.!?:]$/.test(tokens[i - 1] ?? '');
    if (identifier || acronym || name) identifiers.push(token);
    else if (/^[A-Za-z][a-z'-]{3,}$/.test(token) && !STOPWORDS.has(token.toLowerCase())) words.push(stem(token));
  });
  return { numbers, identifiers, words };
}

export function verdictOf(checked: number, held: number): Verdict {
  if (checked === 0 || held === 0) return 'unverified';
  return held === checked ? 'verified' : 'partially_verified';
}

export function checkClaims(answer: string, evidence: readonly Evidence[], strictness: Strictness): FactCheck {
  const indexed = indexEvidence(evidence);
  const items: Claim[] = [];
  for (const sentence of sentencesOf(answer)) {
    const terms = termsOf(sentence);
    const keyTerms = terms.numbers.length + terms.identifiers.length;
    if (strictness === 'key_claims' ? keyTerms === 0 : keyTerms === 0 && terms.words.length < 2) continue;
    const sources = new Set<string>();
    const unsupported: string[] = [];
    for (const n of terms.numbers) {
      const hit = indexed.find((e) => e.numbers.has(n));
      if (hit) sources.add(hit.source);
      else unsupported.push(n);
    }
    for (const id of terms.identifiers) {
      const hit = indexed.find((e) => e.lower.includes(id.toLowerCase()));
      if (hit) sources.add(hit.source);
      else unsupported.push(id);
    }
    let held = unsupported.length === 0;
    if (strictness === 'every_claim' && terms.words.length > 0) {
      const missing = terms.words.filter((w) => !indexed.some((e) => e.words.has(w)));
      if (missing.length * 2 > terms.words.length) {
        held = false;
        unsupported.push(...missing);
      }
    }
    items.push({ text: sentence, held, sources: [...sources], unsupported: [...new Set(unsupported)] });
  }
  const held = items.filter((c) => c.held).length;
  return { checked: items.length, held, items, verdict: verdictOf(items.length, held) };
}

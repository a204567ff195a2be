/**
 * What a question asks about: its weighted terms, and the code identifiers it names. An identifier the
 * documentation never mentions is the clearest sign that it cannot answer ("How do I use
 * `pino.rotateFiles()`?" when pino has no such method), so identifiers are found with care:
 *
 * - strong (a refusal on their own when absent): `backticked`, calls `foo()` / `a.b()`, member paths
 *   `a.b` (not `Node.js`, `e.g.`, file names), lower camelCase `nestedKey`, snake_case `DEBUG_COLORS`,
 *   flags `--preid`, environment references `$env:DEBUG`, scoped packages `@koa/cors`;
 * - weak (evidence, not proof): capitalised CamelCase `AsyncLocalStorage` (often a product name),
 *   bracket paths, colon and slash paths.
 */
import { analyze, LATIN_ABBREVIATION, STOP_WORDS, type Stemmer } from './tokens.js';
import type { CorpusStats } from './stats.js';
import { relatedTerms } from './vocabulary.js';

/** Words that name a kind of API element: "the `timeout` option", "its maxKeys setting". */
const ELEMENT_KINDS = 'option|options|setting|settings|flag|flags|parameter|param|argument|method|function|property|hook|event|keyword|field';
/** Words that often stand before those kinds without naming an element. */
const NOT_ELEMENT_NAMES = new Set(
  ('same other new different default right correct best following specific separate extra single first last main ' +
    'global custom certain particular given additional relevant related that this which what any each every such ' +
    'cli command line config configuration recommended preferred suggested proper appropriate standard usual ' +
    'typical official simplest easiest cleanest cheapest quickest fastest safest existing corresponding underlying ' +
    'builtin native whole entire').split(' '),
);

export interface QuestionIdentifier {
  /** As written in the question. */
  surface: string;
  /** Lower-cased full form, as the index stores it. */
  key: string;
  /** For member paths and calls: the last member (`rotatefiles`), with its spelling. */
  member?: { key: string; surface: string };
  strong: boolean;
  /** Named as an API element in prose ("the timeout option"): must exist in the documents that answer. */
  element?: boolean;
  /** For elements: the kind named (`option`, `method`, …). */
  kind?: string;
}

const FILE_OR_DOMAIN = /\.(js|mjs|cjs|ts|mts|cts|jsx|tsx|json|md|mdx|yml|yaml|toml|html?|css|txt|com|org|io|net|dev|sh|py|lock)$/i;

function pushUnique(list: QuestionIdentifier[], id: QuestionIdentifier): void {
  const existing = list.find((x) => x.key === id.key);
  if (existing) {
    existing.strong ||= id.strong;
    return;
  }
  // A shorter identifier inside a longer one already found (`nestedKey` in `opts.nestedKey`) adds nothing.
  if (list.some((x) => x.key.includes(id.key) && x.key !== id.key && id.key.length > 0 && x.member?.key === id.key)) return;
  list.push(id);
}

function memberOf(surface: string): { key: string; surface: string } | undefined {
  const parts = surface.replace(/\(.*$/, '').split('.');
  if (parts.length < 2) return undefined;
  const last = parts.at(-1)!;
  return last ? { key: last.toLowerCase(), surface: last } : undefined;
}

export function questionIdentifiers(question: string): QuestionIdentifier[] {
  const out: QuestionIdentifier[] = [];
  const text = question;
  for (const m of text.matchAll(/`([^`\n]{1,80})`/g)) {
    const span = m[1]!.trim().replace(/\(.*\)$/, '()');
    const bare = span.replace(/\(\)$/, '');
    if (!bare) continue;
    // A span with spaces is a command line or a phrase (`ssh -D`, `npm install x`), evidence but not a name
    // the documentation must have.
    pushUnique(out, { surface: span, key: bare.toLowerCase(), member: memberOf(bare), strong: /[A-Za-z]/.test(bare) && !/\s/.test(bare) });
  }
  const prose = text.replace(/`[^`\n]*`/g, ' ');
  // Calls and member paths: foo(), a.b(), a.b, a.b.c('x')
  for (const m of prose.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(\s*\((?:[^()]{0,40})\))?/g)) {
    const path = m[1]!;
    const call = Boolean(m[2]) && !/\s/.test(m[2]![0]!);
    const dotted = path.includes('.');
    if (!dotted && !call) continue;
    if (dotted && !call && FILE_OR_DOMAIN.test(path)) continue;
    if (LATIN_ABBREVIATION.test(path)) continue;
    // "function (Object)" style prose is not a call: a call has no space and an identifier-like name.
    if (!dotted && call && !/[a-z][A-Z_]|^[a-z_$][\w$]*$/.test(path)) continue;
    const surface = call ? `${path}()` : path;
    pushUnique(out, { surface, key: path.toLowerCase(), member: memberOf(path), strong: true });
  }
  for (const m of prose.matchAll(/(?<![\w$.-])(--[A-Za-z][\w-]*(?:=[\w.@/:-]+)?)/g)) {
    const flag = m[1]!.replace(/[.:,-]+$/, '');
    pushUnique(out, { surface: flag, key: flag.toLowerCase(), strong: true });
  }
  // Scoped npm packages: `@koa/cors` names one package and nothing else.
  for (const m of prose.matchAll(/(?<![\w@/])(@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*[a-z0-9])/gi)) {
    pushUnique(out, { surface: m[1]!, key: m[1]!.toLowerCase(), strong: true });
  }
  for (const m of prose.matchAll(/(\$[A-Za-z_]\w*:[A-Za-z_]\w*)/g)) {
    pushUnique(out, { surface: m[1]!, key: m[1]!.toLowerCase(), strong: true });
  }
  for (const m of prose.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)(?![\w$(]|\.[A-Za-z_$])/g)) {
    const word = m[1]!;
    const lowerCamel = /^[a-z][a-z0-9]*[A-Z][a-z]/.test(word);
    const snake = /[A-Za-z]_[A-Za-z]|^_+[A-Za-z]/.test(word);
    const upperCamel = /^[A-Z][a-z0-9]+[A-Z][a-z]/.test(word) || /^[A-Z]{2,}[a-z]+[A-Z]/.test(word);
    if (!lowerCamel && !snake && !upperCamel) continue;
    const bare = word.replace(/^[_$]+/, '');
    pushUnique(out, { surface: word, key: bare.toLowerCase(), strong: lowerCamel || snake });
  }
  for (const m of prose.matchAll(new RegExp(`\\b(?:the|its|an?|their|my|with|[A-Za-z][\\w.-]*'s)\\s+([a-z][a-z0-9]{2,30})\\s+(${ELEMENT_KINDS})\\b`, 'gi'))) {
    const word = m[1]!;
    if (NOT_ELEMENT_NAMES.has(word.toLowerCase()) || STOP_WORDS.has(word.toLowerCase())) continue;
    if (out.some((x) => x.key === word.toLowerCase())) continue;
    out.push({ surface: word, key: word.toLowerCase(), strong: false, element: true, kind: m[2]!.toLowerCase().replace(/s$/, '') });
  }
  return out;
}

/** Verbs whose "in" is a particle ("opt in", "log in"), not a preposition before a tool. */
const PHRASAL_IN = new Set(['opt', 'opts', 'log', 'logs', 'sign', 'plug', 'plugged', 'built', 'baked', 'fill', 'check', 'chime', 'tune', 'read', 'type', 'pass', 'bring', 'hook', 'hooked', 'wire', 'wired']);
/** Words after which a noun phrase goes on ("languages other than …"): its head is a common noun. */
const NOUN_PHRASE_GOES_ON = new Set(['other', 'than', 'that', 'which', 'who', 'whose', 'such', 'like', 'of']);

/**
 * Tools the question says it works with ("with yargs", "using brotli", "in Koa") that the documentation
 * never mentions: the question is about something else.
 */
export function absentTools(question: string, stats: CorpusStats, stemmer: Stemmer): string[] {
  const out: string[] = [];
  // The tool ends its phrase or owns the next word: "with yargs and …", "using brotli?", "in Python's
  // argparse" — not "in unit tests".
  const phrase = /\b(?:with|using|via|in)\s+(?:the\s+|a\s+)?([A-Za-z][\w.+-]{1,30}?)(?:'s)?(?=\s*(?:[,.?!;:]|$)|\s+(\w+))/g;
  for (const m of question.matchAll(phrase)) {
    const word = m[1]!;
    const next = m[2]?.toLowerCase();
    if (STOP_WORDS.has(word.toLowerCase())) continue;
    // "opt in somehow", "log in with": here "in" belongs to the verb, it does not introduce a tool.
    const before = /(\w+)\s+$/.exec(question.slice(0, m.index))?.[1]?.toLowerCase();
    if (m[0].toLowerCase().startsWith('in') && before && PHRASAL_IN.has(before)) continue;
    if (next !== undefined && !STOP_WORDS.has(next) && !m[0].includes("'s")) continue;
    // "in languages other than English": the noun phrase goes on, its head is a common noun, not a tool.
    if (next !== undefined && NOUN_PHRASE_GOES_ON.has(next)) continue;
    const terms = analyze(word, { stemmer });
    if (terms.length && terms.every((t) => !stats.has(t.term))) out.push(word);
  }
  return out;
}

/** Whether the documentation mentions an identifier (the whole path, or for member paths, the member). */
export function identifierKnown(id: QuestionIdentifier, stats: CorpusStats): boolean {
  if (stats.idents.has(id.key) || (!id.key.includes('.') && stats.has(id.key))) return true;
  if (id.member && stats.idents.has(id.member.key)) return true;
  return false;
}

/**
 * The name a refusal should give, in backticks: for `pino.rotateFiles()` whose receiver exists,
 * `rotateFiles` (with the path it was asked as).
 */
export function missingName(id: QuestionIdentifier, stats: CorpusStats): string {
  if (id.member) {
    const receiver = id.key.slice(0, id.key.length - id.member.key.length - 1);
    if (receiver && (stats.idents.has(receiver) || stats.has(receiver))) return `\`${id.member.surface}\` (asked as \`${id.surface}\`)`;
  }
  return `\`${id.surface}\``;
}

export interface QueryTerm {
  term: string;
  idf: number;
  /** Present somewhere in the corpus. */
  known: boolean;
  identifier: boolean;
  /** A name: written like one in the question (capitalised inside a sentence, MixedCase, ALLCAPS, digits), or by the documentation. */
  nameLike: boolean;
  count: number;
  /** Related words (src/docs/vocabulary.ts) found in the corpus and not in the question: weaker matches for this term. */
  related: string[];
}

/** Words of the question written like names (not merely capitalised at the start of a sentence). */
export function nameLikeWords(question: string): Set<string> {
  const out = new Set<string>();
  for (const m of question.matchAll(/[A-Za-z][A-Za-z0-9]*/g)) {
    const word = m[0];
    const before = question.slice(0, m.index).trimEnd();
    const sentenceStart = before === '' || /[.?!:]$/.test(before);
    const mixed = /[a-z][A-Z]/.test(word) || /[A-Za-z]\d|\d[A-Za-z]/.test(word);
    const caps = /^[A-Z]{2,}$/.test(word);
    if (mixed || caps || (/^[A-Z]/.test(word) && !sentenceStart)) out.add(word.toLowerCase());
  }
  return out;
}

/**
 * Distinct analysed terms of a question with corpus IDF. A term found nowhere gets the IDF of a term found
 * once (unseen is as telling as the rarest seen word, not more). Hyphenated prose found nowhere as a whole
 * (`front-end`) is left to its parts.
 */
export function queryTerms(question: string, stats: CorpusStats, stemmer: Stemmer): QueryTerm[] {
  const terms = new Map<string, QueryTerm>();
  const names = nameLikeWords(question);
  const unseenIdf = stats.idfOf(1);
  // Words in quotes are the asker's example values ('audit', 'v2'): when the documentation does not have
  // them, that says nothing against it, so they are left out.
  const quoted = new Set<string>();
  for (const m of question.matchAll(/(?<![\w])['"‘“]([^'"’”\n]{1,60})['"’”](?![\w])/g)) for (const t of analyze(m[1]!, { stemmer })) quoted.add(t.term);
  for (const t of analyze(question, { stemmer })) {
    const hit = terms.get(t.term);
    if (hit) {
      hit.count++;
      continue;
    }
    const known = stats.has(t.term);
    // A compound found nowhere as a whole (`front-end`, `multipart/form-data`) is carried by its parts when
    // they are all known.
    if (!known && /[-/.:]/.test(t.term) && t.surface) {
      const parts = analyze(t.surface.replace(/[-/.:]+/g, ' '), { stemmer });
      if (parts.length && parts.every((p) => stats.has(p.term))) continue;
    }
    if (!known && !t.identifier && t.term.includes('-')) continue;
    if (!known && quoted.has(t.term)) continue;
    const nameLike = Boolean(t.surface && names.has(t.surface.toLowerCase())) || (t.identifier && !known) || stats.names.has(t.term);
    terms.set(t.term, { term: t.term, idf: known ? stats.idf(t.term) : unseenIdf, known, identifier: t.identifier, nameLike, count: 1, related: [] });
  }
  const related = relatedTerms(stemmer);
  for (const t of terms.values()) {
    if (t.identifier) continue;
    t.related = (related.get(t.term) ?? []).filter((r) => !terms.has(r) && stats.has(r));
  }
  return [...terms.values()];
}

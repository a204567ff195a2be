/**
 * Text analysis shared by indexing and querying, so a question and a passage are always cut the same way.
 *
 * Two kinds of term come out of a text:
 * - words: lower-cased, stop words dropped, stemmed (`rotating` → `rotat`);
 * - identifiers, kept whole next to their parts so code stays findable: `pino.destination`, `--omit=dev`,
 *   `$env:debug`, `$defs` (+ `def`), `targets[i].level`, `nestedkey` (+ `nested`, `key`), `pino-pretty` (+ `pino`,
 *   `pretty`).
 *
 * The index stores these terms space-separated and LanceDB's full-text index splits on whitespace only
 * (no stemming or lower-casing of its own), so what is searchable is exactly what this module emits.
 */
import { pluralStem, porterStem } from './stem.js';

export type Stemmer = 'porter' | 'plural' | 'none';

const STEMMERS: Record<Stemmer, (w: string) => string> = {
  porter: porterStem,
  plural: pluralStem,
  none: (w) => w,
};

/** Function words and question scaffolding: they say nothing about which passage answers. */
export const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing done for from had has have having he her ' +
    'here hers him his how i if in into is it its itself just me my myself no nor not of off on once only or other ' +
    'our ours out over own same she should so some such than that the their theirs them then there these they this ' +
    'those through to too under until up very was we were what when where which while who whom why will with would ' +
    'you your yours yourself also any each few more most both all again further about above after before below ' +
    'between during against because s t don didn doesn isn aren wasn weren won wouldn shouldn couldn ll ve re d m ' +
    'get got gets getting want wants wanted need needs needed im ive id let lets way ways thing things something ' +
    'anything someone one ones like e g eg ie etc via instead still even much many really actually possible ' +
    'please tell know say says said make makes made go goes going'
  ).split(/\s+/),
);

/** A term with the surface form it came from (identifiers keep their original spelling for messages). */
export interface Term {
  term: string;
  /** Original spelling, for identifiers. */
  surface?: string;
  identifier: boolean;
}

const IDENT_CHARS = /[A-Za-z0-9_$]/;
/** "e.g.", "i.e.": abbreviations of prose, not dotted names (in documents and in questions alike). */
export const LATIN_ABBREVIATION = /^(?:e\.g|i\.e|a\.k\.a|n\.b|cf|etc|vs)\.?$/i;
const VERSION = /(?<![\w.])\d+(?:\.(?:\d+|x|\*))+(?:-[A-Za-z0-9.]+)?(?![\w])/g;

/**
 * A candidate code span: dotted paths, calls, flags, env references, bracket paths, slashes and hyphens.
 * Matched on raw text before it is split into words. A name starts where a word does: tried from inside a word
 * as well, a long word would be scanned once per letter.
 */
const COMPOUND =
  /(?:\$[A-Za-z_][\w]*:[A-Za-z_][\w]*)|(?:--?[A-Za-z][\w-]*(?:=[\w.@/:-]+)?)|(?:(?<![\w$@])[A-Za-z_$@][\w$]*(?:(?:\[[^\]\s]{0,12}\])|(?:[./:-][A-Za-z_$][\w$]*))+(?:\(\))?)|(?:(?<![\w$])[A-Za-z_$][\w$]*\(\))/g;

/** A name without the sentence's punctuation after it (`pino.destination.` → `pino.destination`). */
function withoutTrailingPunctuation(span: string): string {
  return span.replace(/(?<![.:-])[.:-]+$/, '');
}

function isCamel(word: string): boolean {
  return /[a-z][A-Z]/.test(word) || /(?<![A-Z])[A-Z]{2,}[a-z]/.test(word);
}

/**
 * `nestedKey` → [nested, key]; `DEBUG_COLORS` → [debug, colors]; `__bundlerPathsOverrides` → parts. An
 * acronym keeps its letters before a version (`IPv4` → [ip, v4], not [i, pv4]) and its plural
 * (`parseURLs` → [parse, urls], not [parse, ur, ls]).
 */
export function identifierParts(word: string): string[] {
  return word
    .replace(/([A-Z]{2,})(v\d+)/g, '$1 $2')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/(?<![A-Z])([A-Z]+)([A-Z](?!s(?![a-z]))[a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p.toLowerCase());
}

/** An acronym's plural (`URLs`, `APIs`, `IDs`) is a plural noun, read as the word (`url`), not as a name. */
const ACRONYM_PLURAL = /^[A-Z]{2,}s$/;

/** Version numbers, numbers with units and plain numbers are not identifiers. */
function looksNumeric(span: string): boolean {
  return /^[v~^<>=]*\d/.test(span) || /^\d/.test(span.replace(/^[-.]+/, ''));
}

/** Hyphenated English (`front-end`, `non-browser`) is prose, not a name, unless it carries code signs. */
function isProseHyphenation(span: string): boolean {
  return /^[a-z]+(?:-[a-z]+)+$/i.test(span) && !span.startsWith('-');
}

function normaliseCompound(span: string): string {
  return span.replace(/\(\)$/, '').toLowerCase();
}

export interface AnalyzeOptions {
  stemmer?: Stemmer;
  /** Keep stop words (used for section titles, where every word counts). */
  keepStopWords?: boolean;
}

/**
 * Cuts text into terms. Identifiers are emitted whole (lower-cased) and as parts; words are stemmed.
 * The result keeps repetitions (term frequency matters to BM25).
 */
export function analyze(text: string, options: AnalyzeOptions = {}): Term[] {
  const stem = STEMMERS[options.stemmer ?? 'porter'];
  const out: Term[] = [];
  const compounds = new Map<number, string>();
  for (const match of text.matchAll(COMPOUND)) {
    const span = match[0];
    const start = match.index;
    const before = start > 0 ? text[start - 1]! : ' ';
    // A flag or a scoped package must start a word: "non-browser" is not the flag "-browser", and the domain
    // of "dev@example.com" is not the package "@example.com".
    if (/^[-@]/.test(span) && IDENT_CHARS.test(before)) continue;
    if (looksNumeric(span)) continue;
    if (LATIN_ABBREVIATION.test(span)) continue;
    compounds.set(start, span);
  }
  // Release lines and versions ("8.x", "1.4.2") are one term each: their digits alone say nothing.
  const versions: [number, number][] = [];
  for (const match of text.matchAll(VERSION)) {
    if (!compounds.has(match.index)) compounds.set(match.index, match[0]);
    versions.push([match.index, match.index + match[0].length]);
  }
  const words = text.split(/[^A-Za-z0-9_$]+/);
  // Walk the text once: compounds first at their offsets, then the words inside them.
  let offset = 0;
  const compoundStarts = [...compounds.keys()].sort((a, b) => a - b);
  let ci = 0;
  // Words come in text order, and so do the versions: one pass over both.
  let vi = 0;
  for (const raw of words) {
    const at = text.indexOf(raw, offset);
    offset = at + raw.length;
    while (ci < compoundStarts.length && compoundStarts[ci]! <= at) {
      const span = compounds.get(compoundStarts[ci]!)!;
      const trimmed = withoutTrailingPunctuation(span);
      if (/^\d/.test(trimmed)) out.push({ term: trimmed.toLowerCase(), surface: trimmed, identifier: false });
      else if (!isProseHyphenation(trimmed)) out.push({ term: normaliseCompound(trimmed), surface: trimmed, identifier: true });
      else out.push({ term: trimmed.toLowerCase(), surface: trimmed, identifier: false });
      ci++;
    }
    if (!raw) continue;
    // `$defs`, `$ref`, `$set`: a leading $ makes a keyword of its own, apart from the plain word.
    if (/^\$[A-Za-z]\w*$/.test(raw) && !compounds.has(at)) out.push({ term: raw.toLowerCase(), surface: raw, identifier: true });
    const word = raw.replace(/^[_$]+|(?<![_$])[_$]+$/g, '');
    if (!word) continue;
    const camel = (isCamel(word) && !ACRONYM_PLURAL.test(word)) || word.includes('_');
    if (camel) {
      out.push({ term: word.toLowerCase(), surface: word, identifier: true });
      // `openApi3`, `jsonSchema7`: the name without its version number is what people ask for.
      const unversioned = word.replace(/(?<!\d)\d+$/, '');
      if (unversioned !== word && /[a-z][A-Z]/.test(unversioned)) out.push({ term: unversioned.toLowerCase(), surface: unversioned, identifier: true });
      for (const part of identifierParts(word)) {
        // Single letters say nothing, as in prose (`OAuth2` → auth2, not also "o").
        if (part.length > 1 && !STOP_WORDS.has(part)) out.push({ term: stem(part), identifier: false });
      }
      continue;
    }
    const lower = word.toLowerCase();
    if (/^\d+$/.test(lower)) {
      // Nor do the numbers inside a version (the 85 of "7.85.0" is no exit code 85).
      while (vi < versions.length && versions[vi]![1] <= at) vi++;
      if (vi < versions.length && versions[vi]![0] <= at) continue;
      // Single digits (the parts of "3.0", "8.x") say nothing on their own.
      if (lower.length > 1) out.push({ term: lower, identifier: false });
      continue;
    }
    if (!options.keepStopWords && STOP_WORDS.has(lower)) continue;
    if (lower.length === 1) continue;
    out.push({ term: stem(lower), surface: word, identifier: false });
  }
  for (; ci < compoundStarts.length; ci++) {
    const span = withoutTrailingPunctuation(compounds.get(compoundStarts[ci]!)!);
    out.push({ term: normaliseCompound(span), surface: span, identifier: !/^\d/.test(span) && !isProseHyphenation(span) });
  }
  return out;
}

/** Space-joined terms, the form stored in the index. */
export function termString(text: string, options?: AnalyzeOptions): string {
  return analyze(text, options)
    .map((t) => t.term)
    .join(' ');
}

/**
 * The title field's terms (a page's title, and the words other pages link to it with): words lower-cased and
 * only their plural stripped, so that a title is matched by the words it has, not by whatever Porter stemming
 * folds onto them (`general` and `generate` both → `gener`).
 */
export function titleTerms(text: string): string {
  return termString(text, { stemmer: 'plural' });
}

/**
 * The other spellings of an English word across British and American usage, by the regular
 * correspondences (-ise/-ize, -yse/-yze, -our/-or, -tre/-ter, -ence/-ense, doubled l before -ed/-ing/-er,
 * -ogue/-og), both ways. Only a variant the documentation itself uses is ever searched (src/docs/question.ts),
 * so a variant that is not a word does no harm.
 */
export function spellingVariants(word: string): string[] {
  const out = new Set<string>();
  const swap = (from: RegExp, to: string) => {
    if (from.test(word)) out.add(word.replace(from, to));
  };
  swap(/is(e|ed|es|ing|ation|ations|er|ers)$/, 'iz$1');
  swap(/iz(e|ed|es|ing|ation|ations|er|ers)$/, 'is$1');
  swap(/ys(e|ed|es|ing|er|ers)$/, 'yz$1');
  swap(/yz(e|ed|es|ing|er|ers)$/, 'ys$1');
  swap(/our(s|ed|ing|able|ite|ites)?$/, 'or$1');
  swap(/([^o])or(s|ed|ing|able|ite|ites)?$/, '$1our$2');
  swap(/tre(s)?$/, 'ter$1');
  swap(/ter(s)?$/, 'tre$1');
  swap(/ence(s)?$/, 'ense$1');
  swap(/ense(s)?$/, 'ence$1');
  swap(/([aeiou])ll(ed|ing|er|ers)$/, '$1l$2');
  swap(/([aeiou])l(ed|ing|er|ers)$/, '$1ll$2');
  swap(/ogue(s)?$/, 'og$1');
  swap(/og(s)?$/, 'ogue$1');
  out.delete(word);
  return [...out];
}

/** Where a sentence may end: after . ! or ? and space, before a capital, a code span, a quote or emphasis. */
const SENTENCE_BREAK = /(?<=[.!?])\s+(?=[A-Z`"'([*_])/g;
/** The same, where a sentence may start in lower case (a question as people type it). */
const CASUAL_SENTENCE_BREAK = /(?<=[.!?])\s+(?=[A-Za-z`"'([*_])/g;
/** Words whose period does not end a sentence: Latin abbreviations, titles, "No.", "Fig.", single initials. */
const NOT_AN_END = /(?:^|[\s(])(?:e\.g|i\.e|a\.k\.a|n\.b|cf|etc|vs|approx|incl|resp|Mr|Mrs|Ms|Dr|St|No|Nos|Fig|Figs|Vol|Sec|Ch|[A-Z])\.$/;

/**
 * The one sentence splitter of documentation text (chunking cuts long paragraphs with it, answers quote
 * its sentences): at . ! ? before a capital, a code span or a quote, never after an abbreviation or an
 * initial ("e.g. `foo`", "Fig. 2", "J. Smith"), nor after an ellipsis unless a capital follows. `casual`:
 * before a lower-case word too, as a question is typed ("… because of rate limiting. can lerna wait between
 * packages?").
 */
export function splitSentences(text: string, options: { casual?: boolean } = {}): string[] {
  const out: string[] = [];
  let start = 0;
  for (const m of text.matchAll(options.casual ? CASUAL_SENTENCE_BREAK : SENTENCE_BREAK)) {
    const before = text.slice(start, m.index);
    if (NOT_AN_END.test(before)) continue;
    // An ellipsis before anything but a capital marks repetition or an omission (`<URL>... [--]`), no end.
    if (/\.\.\.$/.test(before) && !/[A-Z]/.test(text[m.index + m[0].length]!)) continue;
    out.push(before);
    start = m.index + m[0].length;
  }
  out.push(text.slice(start));
  return out.filter((s) => s.trim());
}

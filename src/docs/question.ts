/**
 * What a question asks about: its weighted terms, and the code identifiers it names. An identifier the
 * documentation never mentions is the clearest sign that it cannot answer ("How do I use
 * `pino.rotateFiles()`?" when pino has no such method).
 *
 * Identifiers are found by the one recogniser in tokens.ts (`analyze`, which also indexes them), so a name is
 * the same thing in a question and in a passage; this module only decides which shapes a question's name
 * must have in the documentation, never by a word list:
 *
 * - strong (a refusal on their own when absent): `backticked`, calls `foo()` / `a.b()`, member paths
 *   `a.b` / `a[i].b` (not `Node.js`, `e.g.`, file names or domains), lower camelCase `nestedKey`, snake_case
 *   `DEBUG_COLORS`, flags `--preid`, environment references `$env:DEBUG`, scoped packages `@koa/cors`;
 * - weak (evidence, not proof): capitalised CamelCase `AsyncLocalStorage` (often a product name);
 * - neither: hyphenated, slashed or prefixed words (`utf-8`, `and/or`, `node:http`), one-dash flags, `$`-keywords.
 */
import { analyze, spellingVariants, splitSentences, type Stemmer } from './tokens.js';
import type { CorpusStats } from './stats.js';

export interface QuestionIdentifier {
  /** As written in the question. */
  surface: string;
  /** Lower-cased full form, as the index stores it. */
  key: string;
  /** For member paths and calls: the last member (`rotatefiles`), with its spelling. */
  member?: { key: string; surface: string };
  strong: boolean;
  /**
   * For a phrase in backticks (a command line, an error message: `spawnSync /bin/sh ENOBUFS`), its terms as
   * the index analyses them, in order: the documentation mentions the phrase where they stand together.
   * Absent when the question was read without the corpus's stemmer.
   */
  words?: string[];
}

const FILE_OR_DOMAIN = /\.(js|mjs|cjs|ts|mts|cts|jsx|tsx|json|md|mdx|yml|yaml|toml|html?|css|txt|com|org|io|net|dev|sh|py|lock)$/i;
const NAME = String.raw`[A-Za-z_$][\w$]*`;
const WORD = new RegExp(`^${NAME}$`);
/** A path segment may be kebab-case, as configuration keys are (`build.max-memory`, `cargo-new.vcs`). */
const SEGMENT = String.raw`${NAME}(?:-[\w$]+)*`;
const MEMBER_PATH = new RegExp(String.raw`^${SEGMENT}(?:\[[^\]\s]{0,12}\])*(?:\.${SEGMENT}(?:\[[^\]\s]{0,12}\])*)+$`);

/** Whether a name the question uses must be in the documentation (strong), only hints so (weak), or neither. */
function strength(surface: string): boolean | undefined {
  const call = surface.endsWith('()');
  const bare = surface.replace(/\(\)$/, '');
  if (/^--[A-Za-z]/.test(bare)) return true;
  if (/^\$[A-Za-z_]\w*:[A-Za-z_]\w*$/.test(bare)) return true;
  if (/^@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*$/i.test(bare)) return true;
  if (MEMBER_PATH.test(bare)) return call || !FILE_OR_DOMAIN.test(bare) ? true : undefined;
  if (!WORD.test(bare) || bare.startsWith('$')) return undefined;
  // "See Buffer(...)": a capitalised call is a constructor in prose as often as a name; lower-case calls count.
  if (call) return /[a-z][A-Z_]|^[a-z_$][\w$]*$/.test(bare) ? true : undefined;
  if (/^[a-z][a-z0-9]*[A-Z][a-z]/.test(bare) || /[A-Za-z]_[A-Za-z]/.test(bare)) return true;
  if (/^[A-Z][a-z0-9]+[A-Z][a-z]/.test(bare) || /^[A-Z]{2,}[a-z]+[A-Z]/.test(bare)) return false;
  return undefined;
}

function memberOf(surface: string): { key: string; surface: string } | undefined {
  const parts = surface.replace(/\(.*$/, '').split('.');
  if (parts.length < 2) return undefined;
  const last = parts.at(-1)!.replace(/\[.*$/, '');
  return last ? { key: last.toLowerCase(), surface: last } : undefined;
}

function pushUnique(list: QuestionIdentifier[], id: QuestionIdentifier): void {
  const existing = list.find((x) => x.key === id.key);
  if (existing) {
    existing.strong ||= id.strong;
    return;
  }
  // A name that is a segment of a path already found (`nestedKey` in `opts.nestedKey()`) adds nothing.
  if (list.some((x) => x.key !== id.key && x.key.split(/[.[\]]/).includes(id.key))) return;
  list.push(id);
}

export function questionIdentifiers(question: string, stemmer?: Stemmer): QuestionIdentifier[] {
  const out: QuestionIdentifier[] = [];
  for (const m of question.matchAll(/`([^`\n]{1,80})`/g)) {
    const span = m[1]!.trim().replace(/\(.*\)$/, '()');
    const bare = span.replace(/\(\)$/, '');
    if (!bare) continue;
    // A span with spaces is a command line or a phrase (`ssh -D`, `npm install x`), evidence but not a name
    // the documentation must have.
    const phrase = /\s/.test(bare);
    const words = phrase && stemmer ? analyze(bare, { stemmer }).map((t) => t.term) : undefined;
    pushUnique(out, { surface: span, key: bare.toLowerCase(), member: memberOf(bare), strong: /[A-Za-z]/.test(bare) && !phrase, ...(words ? { words } : {}) });
  }
  const prose = question
    .replace(/`[^`\n]*`/g, ' ')
    // A call's arguments are no part of its name: `fetch(url, opts)` asks about `fetch()`.
    .replace(/([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\([^()\s][^()]{0,39}\)/g, '$1()');
  for (const term of analyze(prose, { stemmer: 'none' })) {
    if (!term.identifier || !term.surface) continue;
    const strong = strength(term.surface);
    if (strong === undefined) continue;
    pushUnique(out, { surface: term.surface, key: term.surface.replace(/\(\)$/, '').toLowerCase(), member: memberOf(term.surface), strong });
  }
  return out;
}

/**
 * Words the question capitalises inside a sentence (`Django`, `FastAPI`), which is how names of products and
 * tools are written; not all-capital abbreviations (`CORS`, `URL`), not the first word of a sentence.
 */
export function capitalisedWords(question: string): Set<string> {
  const out = new Set<string>();
  for (const m of question.matchAll(/[A-Za-z][A-Za-z0-9]*/g)) {
    const word = m[0];
    const before = question.slice(0, m.index).trimEnd();
    if (before === '' || /[.?!:]$/.test(before) || !/^[A-Z]/.test(word) || /^[A-Z0-9]+$/.test(word)) continue;
    out.add(word.toLowerCase());
  }
  return out;
}

/**
 * Whether the documentation mentions an identifier (the whole path, or for member paths, the member). A
 * phrase is mentioned by a passage that has its terms together in its order, looked for among `passages` (the
 * question's retrieved passages, where any passage that has them is): `pnpm install --watch` is not mentioned
 * by pages that say `pnpm install` and `--watch` apart, and an error message quoted from the troubleshooting
 * page is.
 */
export function identifierKnown(id: QuestionIdentifier, stats: CorpusStats, passages: readonly { body_terms: string; head_terms: string }[] = []): boolean {
  if (id.words) {
    const together = ` ${id.words.join(' ')} `;
    return !id.words.length || passages.some((p) => ` ${p.body_terms} `.includes(together) || ` ${p.head_terms} `.includes(together));
  }
  if (stats.idents.has(id.key) || (!id.key.includes('.') && stats.has(id.key))) return true;
  // A kebab-case member is prose-shaped where the documentation writes it bare (`max-memory = 2` in a TOML
  // example), so any use of the word counts.
  if (id.member && (stats.idents.has(id.member.key) || (id.member.key.includes('-') && stats.has(id.member.key)))) return true;
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
  /** The word as the question wrote it (for messages: "postgres", not "postgr"). */
  surface: string;
  /**
   * A piece of a name ("sq" and "lite" of `SQLite`, "postgr" of `PostgreSQL`), searched for the name but not
   * a word the question wrote: never named in a message.
   */
  part?: boolean;
  idf: number;
  /** Present somewhere in the corpus. */
  known: boolean;
  identifier: boolean;
  count: number;
}

/**
 * Distinct analysed terms of a question with corpus IDF. A term found nowhere gets the IDF of a term found
 * once (unseen is as telling as the rarest seen word, not more). A word the documentation spells the other
 * way (British or American) is searched as the documentation spells it. Hyphenated prose found nowhere as a
 * whole (`front-end`) is left to its parts.
 */
export function queryTerms(question: string, stats: CorpusStats, stemmer: Stemmer, options: { spelling?: boolean } = {}): QueryTerm[] {
  const terms = new Map<string, QueryTerm>();
  const unseenIdf = stats.idfOf(1);
  // Words in quotes are the asker's example values ('audit', 'v2'): when the documentation does not have
  // them, that says nothing against it, so they are left out.
  const quoted = new Set<string>();
  for (const m of question.matchAll(/(?<![\w])['"‘“]([^'"’”\n]{1,60})['"’”](?![\w])/g)) for (const t of analyze(m[1]!, { stemmer })) quoted.add(t.term);
  for (const raw of analyze(question, { stemmer })) {
    let t = raw;
    if (!stats.has(t.term) && !t.identifier && t.surface && options.spelling !== false) {
      const variant = spellingVariants(t.surface.toLowerCase())
        .map((v) => analyze(v, { stemmer })[0])
        .find((v) => v && stats.has(v.term));
      if (variant) t = { ...variant, surface: t.surface };
    }
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
    terms.set(t.term, {
      term: t.term,
      surface: t.surface ?? t.term,
      ...(t.surface ? {} : { part: true }),
      idf: known ? stats.idf(t.term) : unseenIdf,
      known,
      identifier: t.identifier,
      count: 1,
    });
  }
  return [...terms.values()];
}

/** Where an example the asker gives begins: "e.g.", "for example", "for instance", "such as". */
const EXAMPLE_MARKER = /\b(?:e\.g\.|eg\.|for example|for instance|such as)(?=[\s,])/gi;
/** Where an aside ends: a clause break, or the end of its sentence. */
const ASIDE_END = /[,;:?!)]|\.(?=\s|$)/;

/**
 * Terms the question uses only in asides: the examples it gives (after "e.g.", "for example", "such as", or
 * "like" used as a preposition: "a folder like logs/2024/01"), each up to the next clause break, and, with
 * `context`, the sentences of a question that asks in another ("My store has grown to 40GB. How do I clean
 * it?"). The documentation lacking such a word says little about whether it answers what is asked.
 * Parentheses are not asides: they restate what is asked as often as they give an example ("HTTP/3 (QUIC)").
 */
export function asideTerms(question: string, stemmer: Stemmer, likeIsPreposition: boolean[], options: { context?: boolean } = {}): Set<string> {
  const spans: [number, number][] = [];
  const until = (from: number) => {
    const m = ASIDE_END.exec(question.slice(from));
    return m ? from + m.index : question.length;
  };
  for (const m of question.matchAll(EXAMPLE_MARKER)) spans.push([m.index, until(m.index + m[0].length)]);
  let like = 0;
  for (const m of question.matchAll(/\blike\b/gi)) {
    const preposition = likeIsPreposition[like++] || /,\s*$/.test(question.slice(0, m.index));
    if (preposition) spans.push([m.index, until(m.index + m[0].length)]);
  }
  if (options.context) {
    const sentences = splitQuestion(question);
    if (sentences.some((s) => s.text.trimEnd().endsWith('?')) && sentences.length > 1)
      for (const s of sentences) if (!s.text.trimEnd().endsWith('?')) spans.push([s.start, s.start + s.text.length]);
  }
  if (!spans.length) return new Set();
  const inside = new Set<string>();
  const outside = new Set<string>();
  let at = 0;
  spans.sort((a, b) => a[0] - b[0]);
  for (const [from, to] of spans) {
    if (from > at) for (const t of analyze(question.slice(at, from), { stemmer })) outside.add(t.term);
    for (const t of analyze(question.slice(Math.max(from, at), to), { stemmer })) inside.add(t.term);
    at = Math.max(at, to);
  }
  for (const t of analyze(question.slice(at), { stemmer })) outside.add(t.term);
  return new Set([...inside].filter((t) => !outside.has(t)));
}

/**
 * The question's names less those it gives only in an aside (`asides`, terms from asideTerms): the code it
 * quotes in a sentence that sets the scene, an example after "e.g.", is what the asker has, not what they ask
 * about, so the documentation lacking it is no evidence either way.
 */
export function namesAsked(identifiers: QuestionIdentifier[], asides: Set<string>, stemmer: Stemmer): QuestionIdentifier[] {
  if (!asides.size) return identifiers;
  return identifiers.filter((id) => !analyze(id.surface, { stemmer }).every((t) => asides.has(t.term)));
}

function splitQuestion(question: string): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  let start = 0;
  for (const text of splitSentences(question, { casual: true })) {
    const at = question.indexOf(text, start);
    out.push({ text, start: at });
    start = at + text.length;
  }
  return out;
}

/**
 * What a question asks about: its weighted terms, and the code identifiers it names. An identifier the
 * documentation never mentions is the clearest sign that it cannot answer ("How do I use
 * `pino.rotateFiles()`?" when pino has no such method). Names are recognised by their shape only, never
 * by a word list:
 *
 * - strong (a refusal on their own when absent): `backticked`, calls `foo()` / `a.b()`, member paths
 *   `a.b` (not `Node.js`, `e.g.`, file names), lower camelCase `nestedKey`, snake_case `DEBUG_COLORS`,
 *   flags `--preid`, environment references `$env:DEBUG`, scoped packages `@koa/cors`;
 * - weak (evidence, not proof): capitalised CamelCase `AsyncLocalStorage` (often a product name).
 */
import { analyze, LATIN_ABBREVIATION, spellingVariants, type Stemmer } from './tokens.js';
import type { CorpusStats } from './stats.js';

export interface QuestionIdentifier {
  /** As written in the question. */
  surface: string;
  /** Lower-cased full form, as the index stores it. */
  key: string;
  /** For member paths and calls: the last member (`rotatefiles`), with its spelling. */
  member?: { key: string; surface: string };
  strong: boolean;
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
  /** The word as the question wrote it (for messages: "postgres", not "postgr"). */
  surface: string;
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
    terms.set(t.term, { term: t.term, surface: t.surface ?? t.term, idf: known ? stats.idf(t.term) : unseenIdf, known, identifier: t.identifier, count: 1 });
  }
  return [...terms.values()];
}

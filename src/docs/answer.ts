/**
 * The extractive answerer (no model): the sentences, list items, table rows and code blocks of the best
 * passages that cover the question, quoted verbatim and each marked with the source it came from.
 *
 * Quoted text is data: every line of it is rendered as a `>` quotation under its source, so instructions
 * that a document may contain reach the reader as quoted documentation, never as the answer's own words.
 */
import { SECTION_SEPARATOR } from './chunk.js';
import { analyze, type Stemmer } from './tokens.js';
import type { QueryTerm } from './question.js';
import { coverageOf, type Candidate } from './search.js';
import { renderExcerpt, unitsOf, type Unit } from './units.js';
import { TUNING, type Tuning } from './tuning.js';

export type { Unit } from './units.js';

export interface Quote {
  unit: Unit;
  candidate: Candidate;
  /** 1-based index into the result's sources. */
  source: number;
  score: number;
  /** Question terms the unit names. */
  covers: Set<string>;
  /** Why the unit was quoted (set on the quotes selectQuotes returns). */
  why?: QuoteReason;
}

/**
 * Why a unit is quoted: it `lead`s (the best document's best unit), belongs to the lead's `section` (found by
 * its heading), is the lead's `continuation` (the unit after it), is the best unit of a `further passage`
 * that covers the question about as well, `adds words` of the question not quoted yet, or is `context` that
 * another quoted unit needs (the list or code a sentence introduces, the sentence that introduces a listing,
 * a sentence that qualifies the one before).
 */
export type QuoteReason = 'lead' | 'section' | 'continuation' | 'further passage' | 'adds words' | 'context';

export interface AnswerOptions {
  stemmer: Stemmer;
  /** Most units quoted; tuning.maxUnits when not given. */
  maxUnits?: number;
  /** Character budget of the quoted text. */
  maxChars: number;
  tuning?: Tuning;
}

/**
 * A code listing longer than maxChars is quoted in parts (see unitsOf). Measured (answer match, eval /
 * holdout): 1,500 characters instead of 1,200 → 0.883 / 0.911 against 0.900 / 0.911 (longer listings are then
 * quoted whole). The most units quoted is tuning.maxUnits (its measurements there).
 */
export const DEFAULT_ANSWER_OPTIONS: AnswerOptions = { stemmer: 'porter', maxChars: 1200 };

/** A paragraph that is only a bold label ("**Claude Code**") introduces what follows it, as a heading would. */
const LABEL = /^(\*\*|__)[^*_\n]{1,60}\1:?$/;
/**
 * A question about a default value is answered by the statement of that value: such units are scored with
 * the words of their paragraph before them (what they state the default of), score double (+0.1) and escape the
 * short-unit discount. Off → 0.87 / 0.86 (answer match, shared / holdout sets). A line that is only a type and
 * its value (`number = 120000`, how webpack's reference heads an option) states a default too: on twenty-one
 * corpora (2026-11-27) webpack answer match +1, no other answer moved.
 */
const DEFAULT_STATEMENT = /\bdefaults? (?:to|is|value)\b|\bdefault:|@default\b|\(default\b|\bby default\b|^`[^`=\n]+ = [^`\n]+`$/i;

/** Weight of each question term for the units of one document: IDF times within-document specificity. */
export function weightsFor(
  doc: Candidate['doc'],
  terms: QueryTerm[],
  { specificityFloor: floor, specificityMinChunks: minChunks }: Pick<Tuning, 'specificityFloor' | 'specificityMinChunks'> = TUNING,
): Map<string, number> {
  const n = doc.chunks;
  const out = new Map<string, number>();
  const maxIdf = Math.log(1 + (n - 0.5) / 1.5);
  for (const t of terms) {
    let specificity = 1;
    if (n >= minChunks) {
      const df = Math.max(1, Math.min(n, doc.chunkFrequency(t.term)));
      specificity = floor + (1 - floor) * (Math.log(1 + (n - df + 0.5) / (df + 0.5)) / maxIdf);
    }
    out.set(t.term, t.idf * specificity);
  }
  return out;
}

/**
 * How much of the question one passage covers, each term weighted as in weightsFor: within its document, a
 * passage is worth quoting for the words that set it apart from the document's other passages, not for the
 * package name they all share.
 */
export function specificCoverage(candidate: Candidate, terms: QueryTerm[], weights: Map<string, number>): number {
  return coverageOf(
    terms,
    (t) => candidate.matched.has(t),
    (t) => weights.get(t.term) ?? t.idf,
  );
}

/** How a sentence that qualifies the one before it begins: a contrast. */
const QUALIFIES = /^(?:However|But|Yet|Otherwise|Instead|Nevertheless|Nonetheless|Still|Though|Although|Except)\b/;
function unitScore(unit: Unit, present: Set<string>, terms: QueryTerm[], weights: Map<string, number>, totalIdf: number, asksDefault: boolean): number {
  let s = 0;
  for (const t of terms) {
    const w = weights.get(t.term)!;
    if (present.has(t.term)) s += w;
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
 * scored by the question terms it names (IDF times within-document specificity) times its passage's weight. The lead is the primary passage's best unit unless another
 * scores far better; then one unit from each further passage that covers the question about as well, then
 * units by what they add. An introducing sentence ending in ":" brings the list or code it introduces, and a
 * code block the sentence that introduces it. The lead's passage is rendered first.
 */
export function selectQuotes(passages: { candidate: Candidate; source: number; weight: number }[], terms: QueryTerm[], options: AnswerOptions): Quote[] {
  const tuning = options.tuning ?? TUNING;
  const maxUnits = options.maxUnits ?? tuning.maxUnits;
  const totalIdf = terms.reduce((s, t) => s + t.idf, 0) || 1;
  const asksDefault = tuning.defaultStatements && terms.some((t) => t.term === 'default');
  const weightsByDoc = new Map<string, Map<string, number>>();
  // The words of each code block, for telling the versions of one example apart from a listing that follows another.
  const codeWords = new Map<Quote, Set<string>>();
  const perPassage = passages.map((p) => {
    const doc = p.candidate.doc;
    let weights = weightsByDoc.get(doc.id);
    if (!weights) weightsByDoc.set(doc.id, (weights = weightsFor(doc, terms, tuning)));
    let paragraph = { block: -1, terms: new Set<string>() };
    return unitsOf(p.candidate.chunk.text, options.maxChars).map((unit): Quote => {
      const own = new Set(analyze(unit.text, { stemmer: options.stemmer }).map((t) => t.term));
      if (unit.block !== paragraph.block) paragraph = { block: unit.block, terms: new Set() };
      // "Defaults to `'100kb'`." is about what its paragraph describes: it is scored with the paragraph's words.
      const present = asksDefault && !unit.excerpt && DEFAULT_STATEMENT.test(unit.text) ? new Set([...paragraph.terms, ...own]) : own;
      for (const t of own) paragraph.terms.add(t);
      const covers = new Set(terms.filter((t) => present.has(t.term)).map((t) => t.term));
      const quote: Quote = {
        unit,
        candidate: p.candidate,
        source: p.source,
        covers,
        score: unitScore(unit, present, terms, weights, totalIdf, asksDefault) * p.weight,
      };
      if (unit.kind === 'code') codeWords.set(quote, own);
      return quote;
    });
  });
  const versions = tuning.codeVersions ? versionsOf(perPassage, codeWords, tuning.codeVersions) : new Map<Quote, Quote[]>();
  const all = perPassage.flat();
  if (!all.length) return [];
  const ranked = [...all].sort((a, b) => b.score - a.score || a.unit.index - b.unit.index);
  const primaryBest = ranked.find((q) => q.candidate === passages[0]!.candidate);
  // The best unit of the best document leads, so that sources[0] is the best-ranked document. Letting a far
  // better unit of another document lead (the primary's at half its score or less) measured hit@1 mean 0.796
  // against 0.805 over the development corpora, answer match the same.
  // A best passage found by its own heading rather than by its sentences (see sectionLeads) leads with its
  // section, unless a unit elsewhere in its document names more of the question than section and heading do.
  const docBest = ranked.find((q) => q.source === passages[0]!.source);
  const bySection =
    tuning.headingSections &&
    primaryBest !== undefined &&
    sectionLeads(primaryBest, docBest, terms, weightsByDoc.get(primaryBest.candidate.doc.id)!, options.stemmer);
  const lead = bySection ? perPassage[0]!.find((q) => q.unit.section === primaryBest.unit.section)! : (docBest ?? primaryBest ?? ranked[0]!);
  const chosen: Quote[] = [];
  let used = 0;
  const fits = (q: Quote, slack = 1) => used + q.unit.text.length <= options.maxChars * slack;
  // A sentence an API reference repeats under sibling sections (a class and its promise twin) is quoted once.
  // So is an example shown again in another language or format (tabs: CommonJS and ES modules, YAML and TOML)
  // once one version of it is quoted.
  const isCopy = (q: Quote) => chosen.some((c) => c !== q && c.unit.text === q.unit.text) || (versions.get(q)?.some((v) => chosen.includes(v)) ?? false);
  // Introducing sentences left out because what they introduce did not fit (see withContext).
  const dangling = new Set<Quote>();
  const take = (q: Quote, why: QuoteReason) => {
    if (chosen.includes(q) || isCopy(q) || dangling.has(q)) return;
    chosen.push(q);
    q.why = why;
    used += q.unit.text.length;
  };
  const siblingsOf = (q: Quote) => perPassage[passages.findIndex((p) => p.candidate === q.candidate)]!;
  const withContext = (q: Quote, why: QuoteReason) => {
    if (dangling.has(q)) return;
    const fresh = !chosen.includes(q);
    take(q, why);
    const siblings = siblingsOf(q);
    // A sentence left out between two quoted sentences of its paragraph is quoted too, as soon as the second
    // is: the quote then reads as the paragraph does, not as two remarks ("… you must replace the previous
    // version. [The process manager will first send a SIGTERM signal …] Once the application gets this
    // signal, …"). It joins two quoted pieces into one, so it is not held to maxUnits.
    if (tuning.sentenceGaps && q.unit.kind === 'sentence' && chosen.includes(q))
      for (const step of [-1, 1]) {
        const [gap, other] = [siblings[q.unit.index + step], siblings[q.unit.index + 2 * step]];
        if (
          gap &&
          other &&
          chosen.includes(other) &&
          !chosen.includes(gap) &&
          gap.unit.kind === 'sentence' &&
          gap.unit.block === q.unit.block &&
          other.unit.block === q.unit.block &&
          fits(gap, tuning.gapSlack)
        )
          take(gap, 'context');
      }
    // A sentence is not quoted without the next one of its paragraph when that one qualifies it ("However,
    // … the stream has already started"): quoted alone, it would say more than the documentation does.
    const qualifier = siblings[q.unit.index + 1];
    if (
      q.unit.kind === 'sentence' &&
      qualifier &&
      qualifier.unit.kind === 'sentence' &&
      qualifier.unit.block === q.unit.block &&
      QUALIFIES.test(qualifier.unit.text) &&
      fits(qualifier)
    )
      take(qualifier, 'context');
    // "… the following modules:" is answered by the list (or code) after it, also across a sentence or two
    // ("Install the executable:") in between.
    if (q.unit.text.endsWith(':') || LABEL.test(q.unit.text)) {
      const before = chosen.length;
      const between: Quote[] = [];
      for (const next of siblings.slice(q.unit.index + 1)) {
        // A long listing is quoted by the parts of it that answer, chosen on their own.
        if (next.unit.excerpt) break;
        if (next.unit.kind === 'sentence') {
          if (
            between.length >= tuning.introGapSentences ||
            chosen.some((c) => c.candidate === q.candidate && c.unit.kind !== 'sentence' && c.unit.index > q.unit.index)
          )
            break;
          between.push(next);
          continue;
        }
        if (!fits(next, 1.4)) break;
        for (const b of between.splice(0)) take(b, 'context');
        take(next, 'context');
      }
      // "… three options can be specified:" without what it introduces would end its quote in mid-air: such a
      // sentence is quoted only with it (or when it leads the answer, for what it says itself).
      if (fresh && chosen.length === before && q !== lead && !q.covers.size && q.unit.text.endsWith(':') && chosen.includes(q)) {
        chosen.splice(chosen.indexOf(q), 1);
        used -= q.unit.text.length;
        dangling.add(q);
        return;
      }
    }
    // An item of a nested list is quoted under the item it belongs to ("4.20.0" above "Fixed XSS in
    // `res.redirect`"), as a table row is under its header.
    if (tuning.itemParents && q.unit.kind === 'item') {
      let child = q;
      for (let k = q.unit.index - 1; k >= 0; k--) {
        const parent = siblings[k]!;
        if (parent.unit.block !== q.unit.block) break;
        if (indentOf(parent.unit.text) >= indentOf(child.unit.text)) continue;
        if (!fits(parent)) break;
        take(parent, 'context');
        child = parent;
        if (!indentOf(parent.unit.text)) break;
      }
    }
    // A paragraph opening in lower case after a listing whose introducing sentence ends unfinished ("It's
    // easy to install additional JDKs by running:" · `jbang jdk install 14` · "which will download and install
    // JDK version 14 …") ends that sentence: it reads only with the listing and the sentence. (A lower-case
    // opening alone may be a name, "uv cannot assert …", and the listing before it another matter.)
    const listing = siblings[q.unit.index - 1];
    const intro = siblings[q.unit.index - 2];
    if (
      tuning.continuedSentences &&
      q.unit.kind === 'sentence' &&
      chosen.includes(q) &&
      /^[a-z]/.test(q.unit.text) &&
      listing?.unit.kind === 'code' &&
      !listing.unit.excerpt &&
      intro?.unit.kind === 'sentence' &&
      !/[.!?]["')\]`*_]*$/.test(intro.unit.text) &&
      used + listing.unit.text.length + intro.unit.text.length <= options.maxChars * 1.3
    ) {
      take(listing, 'context');
      take(intro, 'context');
    }
    // A code block reads better after the sentence that introduces it.
    const start = q.unit.excerpt ? siblings.findIndex((s) => s.unit.block === q.unit.block) : q.unit.index;
    const prev = siblings[start - 1];
    if (q.unit.kind === 'code' && prev && prev.unit.kind !== 'code' && fits(prev, 1.3)) take(prev, 'context');
  };
  withContext(lead, 'lead');
  // Such a section ("What does shrinkwrap do?" under "#### `shrinkwrap`", whose units are a Default / Type
  // list and a sentence that never repeats the name) is about what is asked as a whole: its units are quoted
  // in order, from the first, while they fit.
  if (bySection)
    for (const s of siblingsOf(lead)) {
      if (s.unit.section !== lead.unit.section) continue;
      if (s.unit.excerpt || chosen.length >= maxUnits || !fits(s)) break;
      withContext(s, 'section');
      if (!chosen.includes(s)) break;
    }
  // The rest of the lead's paragraph, in order, while it fits tuning.leadParagraph characters: a paragraph
  // that names what is asked about often states the answer in a sentence after, in words of its own ("… you
  // may bump into an `Encoding::UndefinedConversionError`. To solve this issue, … You can do so by setting
  // the `RUBYOPT` environment variable").
  if (tuning.leadParagraph && lead.unit.kind === 'sentence' && chosen.includes(lead)) {
    let spent = 0;
    for (const s of siblingsOf(lead).slice(lead.unit.index + 1)) {
      if (s.unit.block !== lead.unit.block || s.unit.kind !== 'sentence') break;
      spent += s.unit.text.length;
      if (spent > tuning.leadParagraph || chosen.length >= maxUnits || !fits(s)) break;
      withContext(s, 'continuation');
    }
  }
  // The sentence that names the question's words often only sets up the answer, which comes next: the lead's
  // following unit of the same section comes along.
  const afterLead = siblingsOf(lead)[lead.unit.index + 1];
  if (
    tuning.leadContinuation &&
    chosen.length < maxUnits &&
    lead.unit.kind !== 'code' &&
    afterLead &&
    !afterLead.unit.excerpt &&
    afterLead.unit.section === lead.unit.section &&
    fits(afterLead)
  )
    withContext(afterLead, 'continuation');
  // One unit from each further passage that covers the question about as well: answers are often spread
  // over the sections of a page (the option's description here, its default there).
  const leadPassage = passages.findIndex((p) => p.candidate === lead.candidate);
  const leadCoverage = lead.score / (passages[leadPassage]!.weight || 1);
  perPassage.forEach((list, i) => {
    if (!list.length || list.includes(lead) || chosen.length >= maxUnits) return;
    const q = list.reduce((a, b) => (b.score > a.score ? b : a));
    if (q.score / (passages[i]!.weight || 1) >= leadCoverage * tuning.spread && fits(q) && !isCopy(q)) withContext(q, 'further passage');
  });
  // Then units by what they add: question terms not named yet (scaled by the unit's score relative to the
  // lead), plus a share of their own score, for the characters they take (tuning.quoteCost).
  const weightOf = new Map(terms.map((t) => [t.term, t.idf]));
  const pool = ranked.filter((q) => q.score > 0 && q.score >= lead.score * tuning.minShare);
  while (chosen.length < maxUnits) {
    const covered = new Set(chosen.flatMap((c) => [...c.covers]));
    let best: Quote | undefined;
    let bestGain = 0;
    for (const q of pool) {
      if (chosen.includes(q) || isCopy(q) || dangling.has(q) || !fits(q)) continue;
      let novel = 0;
      for (const t of q.covers) if (!covered.has(t)) novel += weightOf.get(t)!;
      // Per character it costs of the budget: a long unit must add more to be worth what two short ones add.
      const cost = tuning.quoteCost ? 1 + q.unit.text.length / tuning.quoteCost : 1;
      const gain = ((novel / totalIdf) * (q.score / (lead.score || 1)) + tuning.noveltyShare * q.score) / cost;
      if (gain > bestGain) {
        bestGain = gain;
        best = q;
      }
    }
    if (!best) break;
    withContext(best, 'adds words');
    // Whatever was not quoted after all is not offered again.
    if (!chosen.includes(best)) dangling.add(best);
  }
  // An introducing sentence ("… like this:") still without what it introduces reads as cut off: the listing,
  // list item or row after it comes along when it fits (a long listing's first part, too).
  if (tuning.introducedLast)
    for (const q of [...chosen]) {
      if (q.unit.kind !== 'sentence' || !q.unit.text.endsWith(':')) continue;
      const next = siblingsOf(q)[q.unit.index + 1];
      if (next && next.unit.kind !== 'sentence' && !chosen.includes(next) && fits(next, 1.4)) take(next, 'context');
    }
  // The lead's passage first, then the others in rank order; units in document order within a passage.
  const order = new Map(passages.map((p, i) => [p.candidate, i === leadPassage ? -1 : i]));
  return chosen.sort((a, b) => order.get(a.candidate)! - order.get(b.candidate)! || a.unit.index - b.unit.index);
}

const indentOf = (text: string) => /^\s*/.exec(text)![0].length;

/**
 * The versions of one example: code blocks with nothing between them (how tabs read once their markup is
 * gone: the CommonJS and the ES module listing, the YAML and the TOML file, the npm and the yarn command),
 * also across the cut between two passages of a section, that share at least `overlap` of the smaller one's
 * words. Each block maps to the other versions of its run; a listing followed by a different one (a config
 * file, then the code that uses it) has none.
 */
function versionsOf(perPassage: Quote[][], words: Map<Quote, Set<string>>, overlap: number): Map<Quote, Quote[]> {
  const out = new Map<Quote, Quote[]>();
  const similar = (a: Quote, b: Quote) => {
    const [x, y] = [words.get(a)!, words.get(b)!];
    const [small, large] = x.size <= y.size ? [x, y] : [y, x];
    if (!small.size) return false;
    let shared = 0;
    for (const w of small) if (large.has(w)) shared++;
    return shared / small.size >= overlap;
  };
  // The passages in document order, so that a section cut between two of its tabs reads as one run.
  const ordered = perPassage
    .filter((u) => u.length)
    .sort((a, b) => {
      const [x, y] = [a[0]!.candidate.chunk, b[0]!.candidate.chunk];
      return x.doc_id < y.doc_id ? -1 : x.doc_id > y.doc_id ? 1 : x.ord - y.ord;
    });
  let run: Quote[] = [];
  const close = () => {
    for (const q of run) {
      const others = run.filter((o) => o !== q && similar(o, q));
      if (others.length) out.set(q, others);
    }
    run = [];
  };
  // Any other unit closes the run, so its last block is the unit just before `q`: in `q`'s passage, or the
  // last of the passage before it (then `q` is its passage's first unit).
  const follows = (q: Quote, last: Quote) => {
    if (q.candidate === last.candidate) return q.unit.block === last.unit.block + 1;
    const [x, y] = [last.candidate.chunk, q.candidate.chunk];
    return x.doc_id === y.doc_id && y.ord === x.ord + 1 && x.section === y.section && !q.unit.section;
  };
  for (const units of ordered)
    for (const q of units) {
      const whole = q.unit.kind === 'code' && !q.unit.excerpt;
      const last = run.at(-1);
      if (whole && last && follows(q, last)) run.push(q);
      else {
        close();
        if (whole) run.push(q);
      }
    }
  close();
  return out;
}

/**
 * Whether the best passage's best unit leads with its whole section: the section's own heading (the last of
 * its heading path; the headings above it name its neighbours too) names more of the question than the unit
 * does, and unit and heading together name more than the document's best unit (`docBest`) does alone. Terms
 * weigh as the units are scored (weightsFor).
 */
function sectionLeads(primaryBest: Quote, docBest: Quote | undefined, terms: QueryTerm[], weights: Map<string, number>, stemmer: Stemmer): boolean {
  const path = primaryBest.unit.section ?? primaryBest.candidate.chunk.section;
  const heading = new Set(analyze(path.split(SECTION_SEPARATOR).at(-1) ?? '', { stemmer }).map((t) => t.term));
  const weightOf = (named: (term: string) => boolean) => terms.filter((t) => named(t.term)).reduce((n, t) => n + (weights.get(t.term) ?? t.idf), 0);
  const own = weightOf((t) => primaryBest.covers.has(t));
  const section = weightOf((t) => primaryBest.covers.has(t) || heading.has(t));
  return section > 2 * own && (!docBest || section > weightOf((t) => docBest.covers.has(t)));
}

/** What one `[n]` of an answer cites: a document and the section quoted from it. */
export interface Citation {
  candidate: Candidate;
  section: string;
}

/**
 * Renders quotes grouped by passage section, every quoted line prefixed with `>`, each group under
 * `From <document> › <section> [n]:`, where n numbers the (document, section) pairs in the order they are
 * first quoted; returns them as `cited`, so that sources[n-1] is exactly what [n] marks.
 */
export function renderQuotes(given: Quote[], title: (c: Candidate) => string): { text: string; cited: Citation[] } {
  // What one [n] cites is quoted in one place: a section's quotes from several of its passages together, in
  // document order, where the section is first quoted.
  const keyOf = (q: Quote) => `${q.candidate.doc.id}\u0000${q.unit.section ?? q.candidate.chunk.section}`;
  const firstAt = new Map<string, number>();
  given.forEach((q, i) => firstAt.has(keyOf(q)) || firstAt.set(keyOf(q), i));
  const quotes = given
    .map((q, i) => ({ q, i }))
    .sort((a, b) => {
      const ka = firstAt.get(keyOf(a.q))!;
      const kb = firstAt.get(keyOf(b.q))!;
      if (ka !== kb) return ka - kb;
      if (a.q.candidate === b.q.candidate) return a.i - b.i;
      return a.q.candidate.chunk.ord - b.q.candidate.chunk.ord || a.i - b.i;
    })
    .map((x) => x.q);
  const parts: string[] = [];
  const cited: Citation[] = [];
  let current: string | undefined;
  for (let i = 0; i < quotes.length; i++) {
    const q = quotes[i]!;
    const section = q.unit.section ?? q.candidate.chunk.section;
    const key = `${q.candidate.doc.id}\u0000${section}`;
    if (key !== current) {
      current = key;
      let n = cited.findIndex((c) => c.candidate.doc.id === q.candidate.doc.id && c.section === section) + 1;
      if (!n) n = cited.push({ candidate: q.candidate, section });
      parts.push(`${parts.length ? '\n' : ''}From ${title(q.candidate)}${section ? ` › ${section}` : ''} [${n}]:`);
    }
    let text = q.unit.text;
    // The quote before this one is under the same `From …` line (the last part is a quoted line, not the header).
    const before = parts.at(-1)!.startsWith('>') ? quotes[i - 1] : undefined;
    // A nested item keeps its indent only under an item quoted just before it: alone, the indent would make
    // it a code block.
    if (q.unit.kind === 'item' && before?.unit.kind !== 'item') text = text.trimStart();
    const kinds = [before?.unit.kind, q.unit.kind];
    // Rows of one table: of one block, or of one long table cut between passages (each piece under the header).
    const headerOf = (u: { text: string }) => u.text.split('\n', 1)[0];
    const oneTable =
      kinds[0] === 'row' &&
      kinds[1] === 'row' &&
      before!.candidate.doc.id === q.candidate.doc.id &&
      ((before!.candidate === q.candidate && before!.unit.block === q.unit.block) ||
        (before!.unit.text.includes('\n') && headerOf(before!.unit) === headerOf(q.unit)));
    if (q.unit.kind === 'row' && text.includes('\n')) {
      // Rows of one table quoted together share one header (with its separator, so the table still renders).
      const [header, row] = text.split('\n') as [string, string];
      const cells = Math.max(1, header.split('|').length - 2);
      text = oneTable ? row : `${header}\n|${' --- |'.repeat(cells)}\n${row}`;
    }
    if (q.unit.excerpt) {
      // The chosen parts of one code block are shown together, as one excerpt of it.
      const same = [q.unit.excerpt];
      while (quotes[i + 1]?.candidate === q.candidate && quotes[i + 1]!.unit.excerpt && quotes[i + 1]!.unit.block === q.unit.block)
        same.push(quotes[++i]!.unit.excerpt!);
      text = renderExcerpt(same);
    }
    // Prose, a list and a table quoted one after another are set apart by an empty quoted line: a sentence
    // right under a row would render as a row of its table, under an item as the item's own text, and an item
    // numbered 4 right under a sentence as words of its paragraph. Code fences need none.
    if (before && !kinds.includes('code') && (kinds[0] !== kinds[1] || (kinds[0] === 'row' && !oneTable))) parts.push('>');
    parts.push(
      text
        .split('\n')
        .map((l) => `> ${l}`.trimEnd())
        .join('\n'),
    );
  }
  return { text: parts.join('\n'), cited };
}

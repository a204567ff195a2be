/**
 * Every tuned value of the documentation pipeline, in one place, each with the measurement that justifies
 * it, and the components `npm run eval -- --ablate NAME` can switch off to show what they earn.
 *
 * How values are judged: `npm run eval` over the vendored corpora of different shapes (scripts/eval/corpora:
 * a web framework's guides, a CLI manual in one page per command, a CLI manual in a few long chapters, a
 * framework manual in reStructuredText, a site generator's guide, a core-library API reference, a client
 * library's API reference) and the package READMEs. A value is kept when it raises the mean over the
 * development corpora without lowering the worst corpus by more than noise (two standard errors of the rate,
 * printed by the eval; one question is 0.017–0.033 of a corpus). The lockbox corpus is never used to choose.
 */

export interface Tuning {
  /**
   * Passage size: sections are cut, and adjacent small sections packed, up to this many characters.
   * Before packing (one chunk per section, cut at 1,200), a manual of short sections averaged ~300
   * characters a chunk and copied configuration sections filled the candidate pool.
   */
  passageChars: number;
  /** Pack adjacent small sections under one parent into one passage. */
  pack: boolean;
  /** Weight of the heading field (section headings, without the document title) against the body in BM25. */
  headingBoost: number;
  /** Candidate passages fetched from the full-text index: enough that ≥ 20 distinct documents are scored. */
  pool: number;
  /** Passages with identical text (a section copied into many pages) count once, at their best page. */
  dedupe: boolean;
  /** How much question coverage multiplies a passage's BM25: score = bm25 · (1 + coverageWeight · coverage). */
  coverageWeight: number;
  /** Share of a document's second-best passage added to its score. */
  secondPassageShare: number;
  /**
   * The title field (path words, title, top heading, front-matter description; BM25 over documents with its
   * own length normalisation): a document's field score, relative to the best document's, adds this share of
   * the best passage score to the document's score. 0 turns it off.
   */
  titleWeight: number;
  /** BM25 k1 and b of the title field. */
  titleK1: number;
  titleB: number;
  /** A question word the documentation spells the other way (initialise / initialize) is searched as the documentation spells it. */
  spelling: boolean;
  /**
   * Weight of the alternative wordings (the caller's `keywords`, a sampled rewrite) in BM25 against the
   * question's own words. Not measured here: no model runs on this machine (see docs/documentation-answers.md).
   */
  alternativeWeight: number;
  /** The lead unit of an answer brings the unit that follows it in its section. */
  leadContinuation: boolean;
}

export const TUNING: Readonly<Tuning> = Object.freeze({
  passageChars: 1200,
  pack: false,
  headingBoost: 1,
  pool: 200,
  dedupe: true,
  coverageWeight: 2,
  secondPassageShare: 0.15,
  titleWeight: 0.3,
  titleK1: 1.2,
  titleB: 0.75,
  spelling: true,
  alternativeWeight: 0.5,
  leadContinuation: true,
});

export interface Ablation {
  /** What switching it off removes. */
  about: string;
  /** The tuning with the component off. */
  off: Partial<Tuning>;
}

/** Components that can be switched off, by name. */
export const ABLATIONS: Record<string, Ablation> = {
  'title-field': { about: 'the per-document title field (BM25 over path, title, top heading, description)', off: { titleWeight: 0 } },
  headings: { about: 'the heading field of passages in BM25', off: { headingBoost: 0 } },
  dedupe: { about: 'identical passages counted once', off: { dedupe: false } },
  coverage: { about: 'question coverage multiplying a passage’s BM25', off: { coverageWeight: 0 } },
  'second-passage': { about: 'a share of the second-best passage in a document’s score', off: { secondPassageShare: 0 } },
  spelling: { about: 'British/American spelling variants found in the documentation', off: { spelling: false } },
  'lead-continuation': { about: 'the answer’s lead unit bringing the unit that follows it', off: { leadContinuation: false } },
  'small-pool': { about: 'the large candidate pool (40 passages instead)', off: { pool: 40 } },
};

/** Throws on a name that is not a component, listing the ones that are. */
export function checkAblations(names: readonly string[]): void {
  const unknown = names.filter((n) => !(n in ABLATIONS));
  if (unknown.length) throw new Error(`Unknown component ${unknown.join(', ')}; components: ${Object.keys(ABLATIONS).join(', ')}.`);
}

/** The tuning with the named components switched off. */
export function tuningWithout(names: readonly string[]): Tuning {
  checkAblations(names);
  return Object.assign({}, TUNING, ...names.map((n) => ABLATIONS[n]!.off)) as Tuning;
}

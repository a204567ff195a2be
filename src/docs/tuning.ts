/**
 * Every tuned value of the documentation pipeline, in one place, each with the measurement that justifies
 * it, and the components `npm run eval -- --ablate NAME` can switch off to show what they earn.
 *
 * How values are judged: `npm run eval` over the vendored corpora of different shapes (scripts/eval/corpora:
 * a web framework's guides, CLI manuals in one page per command, a CLI manual in a few long chapters, a
 * framework manual in reStructuredText, a site generator's guide, a core-library API reference, a client
 * library's API reference, a logging library's manual, a CLI library's Sphinx manual, a formatter's options
 * reference, a web framework's object reference, a test runner's per-option configuration pages, a CLI
 * manual of short option pages beside long guides, a CLI reference of generated options tables, a bundler's
 * manual of a dozen long chapters, a bundler's MDX site of long configuration pages) and the package READMEs. A value is kept when it raises the mean over the
 * development corpora without lowering the worst corpus by more than noise (two standard errors of the rate,
 * printed by the eval; one question is 0.017–0.033 of a corpus). The lockbox corpus is never used to choose.
 */

export interface Tuning {
  /**
   * Passage size: sections are cut at block boundaries near this many characters (and, with `pack`,
   * adjacent small sections packed up to it). Measured without packing (mean hit@1 / answer match over the
   * development corpora): 1,200 → 0.799 / 0.739, 1,500 → 0.803 / 0.728; with packing 800 → 0.794 / 0.703,
   * 1,000 → 0.794 / 0.721, 1,500 → 0.781 / 0.722. Re-measured on the nine development corpora once long
   * tables and lists were cut between rows and items (2026-11-26; mean hit@1 / answer, worst answer): 1,000 →
   * 0.836 / 0.806, 0.725; 1,200 → 0.852 / 0.820, 0.750; 1,500 → 0.851 / 0.802, 0.667.
   */
  passageChars: number;
  /**
   * Pack adjacent small sections under one parent into one passage. Off: on every development corpus but one
   * it lowered hit@1 or answer match (mean 0.805 / 0.751 → 0.798 / 0.718, correct refusal 0.842 → 0.808);
   * merged siblings dilute the section that answers. Kept buildable (`--set pack=true`) for manuals of many
   * tiny sections, where it may yet pay. Re-measured on the seventeen development corpora (2026-11-27, against
   * off): mean hit@1 0.839 → 0.824, answer match 0.821 → 0.797 (worst 0.725 → 0.667; undici −3, pnpm −3,
   * cargo −2, lerna −1), correct refusal 0.805 → 0.814; only nodeapi and composer gained a question. Still off.
   */
  pack: boolean;
  /**
   * Weight of the heading field (section headings, without the document title) against the body in BM25.
   * 2 → 0.799 / 0.739 mean hit@1 / answer, 1 → 0.801 / 0.743 (worst hit@1 0.567 → 0.600); 0 → 0.805 / 0.748
   * against 1's 0.805 / 0.751 after the other changes: a field of its own that earns little lexically.
   * Tried and not kept (2026-11-27, eighteen corpora): a passage whose own heading the question names whole
   * (every word of a heading of two words or more, or its identifier: "Python Version" in "the minimum
   * Python version …") scoring × 1.2 → hit@1 +5 / −4, answer +5 / −3 (mean 0.830 → 0.831, 0.818 → 0.821),
   * worst recall@5 0.783 → 0.771; × 1.5 → +6 / −12 (lerna −3).
   */
  headingBoost: number;
  /**
   * Candidate passages fetched from the full-text index: enough that ≥ 20 distinct documents are scored. 40
   * instead: mean hit@1 0.813 (+0.008) but worst answer match 0.567 → 0.533 and recall 0.951 → 0.944.
   */
  pool: number;
  /**
   * Passages with identical text (a section copied into many pages) count once, at the page the question
   * names most (the title field), else the first the index returned. Of the development corpora only the
   * Cargo Book copies sections (its command pages repeat the common option sections word for word): crediting
   * the copy to the named page rather than the first returned moved cargo hit@1 0.650 → 0.675 (`cargo new`'s
   * question had been answered from `cargo init`'s copy), no other corpus; test/docs/retrieve.test.ts shows the
   * case (40 pages carrying one configuration section).
   */
  dedupe: boolean;
  /**
   * How much question coverage multiplies a passage's BM25: score = bm25 · (1 + coverageWeight · coverage).
   * 0 → mean hit@1 0.823 but recall 0.945 and worst recall 0.883; 1 → 0.816 / 0.952; 2 → 0.808 / 0.959
   * (with secondPassageShare 0). Kept at 2 for recall and the worst corpus; the mean hit@1 it costs is
   * within noise on every corpus.
   * Re-measured on the nine development corpora (2026-11-25, mean / worst hit@1; worst recall; mean answer,
   * false refusal): 2 → 0.826 / 0.633, 0.917, 0.808, 0.044; 1 → 0.828 / 0.633, 0.883; 0.5 → 0.835 / 0.667,
   * 0.883; 0 → 0.846 / 0.667, 0.883, 0.807, 0.051. Off (0): hit@1 +9/−2 questions with no corpus losing,
   * answer match +8/−8, recall one question lower on undici and pnpm; so 0. Coverage still feeds the evidence.
   * Tried and not kept (2026-11-26): term proximity added to a passage's BM25 (Tao & Zhai's MinDist,
   * λ · log(0.3 + e^−δ), δ the fewest tokens between two different question terms): λ 0.5 → mean hit@1 0.852
   * → 0.852, answer +1; λ 1 → 0.848, worst 0.667 → 0.633 (undici); λ 2 → 0.846; λ 4 → 0.841, answer −6.
   * A length prior (a passage shorter than the pool's mean scoring × (length / mean)^γ, so that a heading and
   * one line does not outrank the section that explains): γ 0.1 → mean hit@1 0.852 → 0.847, worst recall@5
   * 0.913 → 0.867, answer 0.826 → 0.823; γ 0.25 → 0.845, recall worst 0.850, answer 0.827 (worst 0.733).
   * Tried and not kept (2026-11-27, sixteen corpora): proximity at the document level instead, a document
   * gaining β × the IDF-weighted share of the question's neighbouring word pairs that one of its top three
   * passages holds within three words. Its weight, fitted by a listwise model leave-one-corpus-out, came out
   * the same in every fold (0.32 of the best document's score); in the ranking, β 0.15 / 0.3 / 0.5 of the
   * best score → mean hit@1 0.840 → 0.848 / 0.848 / 0.842 (+7 / −2 questions at 0.15, worst 0.667 → 0.700,
   * undici), recall@5 worst 0.783 → 0.771, answer match −3 / +1; as a multiplier of the document's own score
   * (0.15) → hit@1 0.847, +5 / −1, answer −2 / +1; with the model-written keywords, +2 / −1 and answer −1.
   * Inside the noise of every corpus and lost answers elsewhere: not kept.
   */
  coverageWeight: number;
  /**
   * Share of a document's second-best passage added to its score. 0.15 → mean hit@1 / recall / answer
   * 0.805 / 0.951 / 0.751, worst answer 0.567; 0 → 0.808 / 0.959 / 0.764, worst answer 0.633 (seven corpora).
   * Re-measured on the eleven development corpora once the Cargo Book joined them (2026-11-26; its reference
   * pages hold one small section per configuration key, so the page that answers often has several passages
   * that each match part of the question): against 0 (mean / worst hit@1, mean recall@5, mean answer;
   * questions gained / lost in hit@1): 0.1 → 0.842 / 0.667, 0.951, 0.805, +1 / −0; 0.2 → 0.848 / 0.633,
   * 0.957, 0.802; 0.25 → 0.848 / 0.633, 0.957, 0.802, +4 / −1; 0.3 → 0.851 / 0.633, 0.956, 0.805, +7 / −2
   * (cargo +3, pnpm +2, nodeapi +1, click +1 / −1, undici −1: one question, inside its 2·SE of 0.17), worst
   * recall@5 0.738 → 0.783 and worst answer 0.600 → 0.650 (both cargo), answer +5 / −2; 0.35 → 0.845 / 0.667,
   * +6 / −4; 0.4 → 0.846, shared −2; 0.5 → 0.845, shared −2. Now 0.3. The calibration refitted with it and the
   * Cargo Book (633 samples): correct refusal mean 0.817 → 0.828 but false refusal worst 0.133 → 0.167
   * (undici) and answer match mean 0.805 → 0.801 against the constants fitted before: not kept.
   * Re-measured once curl's manual joined (2026-11-27, eighteen corpora; its long guides and FAQ often outrank
   * the short option page that answers): 0.15 → hit@1 +4 / −4 questions; 0 → +7 / −12 (curl itself −2).
   * The long pages win by their best passage, not by the share of their second.
   */
  secondPassageShare: number;
  /**
   * The second passage counts by the share of its question words (IDF) that the best passage lacks: a page
   * earns it for answering more of the question across two sections, less for the same words again (Rollup's
   * tutorial, whose every section repeats `rollup.config.mjs`, outranked the CLI page that answers). A second
   * passage of only repeated words still counts `secondNovelFloor` of its share. Measured on the twenty-one
   * development corpora (2026-11-27, against off; hit@1, answer match, questions gained / lost): floor 0.85
   * → +2 / −1, +2 / −0; 0.75 → +4 / −1 (mean 0.839 → 0.842), +5 / −0 (0.816 → 0.821), a correct refusal
   * lost (poetry), worst corpus unchanged on every ranking and answer figure, the lockbox unchanged; with
   * the keywords hit@1 0.919 → 0.923 (worst 0.700 → 0.725), the lockbox +1 hit@1 and +1 answer; 0.65 →
   * +6 / −5 (curl −2, worst 0.667 → 0.625), +5 / −3; 0.5 → +9 / −10, worst 0.625; 0.25 → worst 0.550. Now
   * on at 0.75.
   */
  secondNovel: boolean;
  secondNovelFloor: number;
  /**
   * The title field (path words, title, top heading, front-matter description; BM25 over documents with its
   * own length normalisation): a document's field score, relative to the best document's, adds this share of
   * the best passage score to the document's score. Mean hit@1 / recall / answer: 0 → 0.780 / 0.925 /
   * 0.732 (worst answer 0.500); 0.3 → 0.805 / 0.951 / 0.751; 0.6 → 0.796 / 0.954 / 0.748. Tried and not kept:
   * the whole document as one BM25 text beside it (0.15–0.6 of the best passage: no change beyond one question).
   * Tried and not kept (2026-11-27, eighteen corpora): a page whose top heading is exactly a name the question
   * gives (`--connect-timeout` over curl's page of that name) earning 0.6 or 1 of the best passage as its
   * title bonus instead: hit@1 +2 / −1 and +2 / −3 (vitest −1 / −2, where the baseline already leads).
   * Tried and not kept (2026-11-27, twenty corpora): the initials of a title of three to five capitalised words
   * in the title field ("Command Line Interface" → CLI, "Frequently Asked Questions" → FAQ): hit@1 +1 / −1.
   * Single digits kept in the title field ("Migrating to Rollup 4" for "… for Rollup 4?"): no question moved.
   */
  titleWeight: number;
  /**
   * The title field's IDF counts the documents that use a word anywhere (BM25F), not only in their titles.
   * Measured on the nine development corpora (2026-11-25, against titles-only IDF): mean hit@1 0.825 →
   * 0.826, worst 0.600 → 0.633 (undici +1), hono −1, shared +1/−1; false refusal 0.046 → 0.044. Within noise,
   * kept because it is the principle (a word most pages use does not say which page is meant) and costs no
   * corpus more than one question.
   */
  titleCorpusIdf: boolean;
  /**
   * A document's title match is its title score over the best document's, or over this share of the score a
   * title naming every question word would get when that is larger, so that a best title matching only a
   * word every page has ("Rollup" in "Migrating to Rollup 4") does not earn the full bonus. Measured on the
   * twenty development corpora (2026-11-27, against 0; hit@1 mean / worst, questions gained / lost): 0.05 →
   * 0.836 / 0.650, +4 / −0, nothing else moved; 0.1 → 0.838 / 0.667, +10 / −2 (no corpus more than one
   * question either way), answer match +3 / −3, a false refusal fewer; 0.15 → 0.835 / 0.633, +11 / −7, answer
   * −0.005; 0.25 → 0.828, answer −0.009; 0.5 → 0.819, answer −0.019. Now 0.1.
   */
  titleFloor: number;
  /**
   * Weight of the link field: BM25 over the words other pages of the documentation use when they link to a
   * page ("[the proxy settings](config.md#httpproxy)", src/docs/links.ts), scored as the title field is (BM25F
   * IDF, k1, b) with the question's words and any further wording (keywords, a rewrite), and added to a
   * document as this share of the best passage's score times its link match relative to the best document's.
   * The readers' words for a page, where the page's own are the author's. Measured on the twenty-five
   * development corpora (2026-11-27, against none; mean / worst, questions gained / lost): 0.05 → hit@1 0.830 /
   * 0.650 → 0.834 / 0.675, +11 / −8; answer match 0.803 / 0.675 → 0.806 / 0.700, +5 / −2; recall@5 0.950 →
   * 0.952; refusals unchanged; with the keywords hit@1 0.916 → 0.918, answer 0.905 → 0.903. 0.03 → hit@1 +7 /
   * −6, answer +4 / −1; 0.07 → hit@1 +15 / −11, answer +5 / −4, two refusals lost; 0.1 → hit@1 +17 / −12,
   * answer +5 / −8, false refusal worst 0.075 → 0.100; 0.2 → hit@1 0.817, answer 0.791. The link words merged
   * into the title field instead (its length normalisation then counts them): hit@1 +15 / −14, answer +5 / −6.
   * Corpora whose pages do not link to each other (Flask, curl, the lockbox) are unaffected. Now 0.05.
   */
  linkWeight: number;
  /** BM25 k1 and b of the title field. */
  titleK1: number;
  titleB: number;
  /** A question word the documentation spells the other way (initialise / initialize) is searched as the documentation spells it. */
  spelling: boolean;
  /**
   * Weight of the alternative wordings (the caller's `keywords`, a sampled rewrite) in BM25 against the
   * question's own words. Measured on the fourteen development corpora (2026-11-26) with the keywords a model
   * wrote from each question alone (`npm run eval -- --keywords scripts/eval/model-help`, alternativeEvidence
   * 0.5; mean / worst hit@1, answer match, correct refusal; false refusal mean; ECE loco worst): 0.3 → 0.881
   * / 0.750, 0.884 / 0.775, 0.831 / 0.550, 0.012, 0.183; 0.5 → 0.917 / 0.750, 0.905 / 0.775, 0.831 / 0.600,
   * 0.008, 0.166; 1 → 0.923 / 0.800, 0.924 / 0.825, 0.835 / 0.600, 0.008, 0.129; 1.5 → 0.927 / 0.775, 0.921 /
   * 0.850, 0.842 / 0.600, 0.012, 0.142; 2 → 0.918 / 0.775, 0.915 / 0.850, 0.841 / 0.600, 0.012, 0.152. With the
   * rewrites, 0.5 → 1: hit@1 0.919 → 0.926, answer 0.896 → 0.911 (worst 0.775 → 0.800), false refusal 0.012 →
   * 0.010. Now 1: the model's words weigh as the asker's.
   */
  alternativeWeight: number;
  /**
   * The share of their IDF at which the alternatives' words (the caller's keywords, a model's rewrite) that the
   * documentation has and the question does not use count when the extractive answer's units are chosen
   * (DocIndex.unitTerms); 0 scores units by the question's words alone, as retrieval's passages still are for
   * a model's prompt. Measured with the recorded keywords on the twenty-five development corpora (2026-11-27;
   * answer match mean / worst, questions gained / lost against 0): 0 → 0.904 / 0.750; 0.5 → 0.935 / 0.750,
   * +50 / −18; 1 → 0.932 / 0.800, +52 / −21 (kept from the top three passages 0.926 → 0.961, ECE loco 0.116
   * / 0.206 → 0.105 / 0.171); the lockbox 0.900 → 0.925 and 0.950. With a model's rewrite (quoted answers) at
   * 1: 0.902 / 0.750 → 0.925 / 0.733, +51 / −26, the lockbox 0.875 → 0.950. Undici's API reference loses most
   * (−3 and −4 of 30: keywords that name every option of a class crowd its one sentence that answers). 1, as
   * the model's words weigh in retrieval (alternativeWeight), and the value that raised the keywords' worst
   * corpus. Questions asked without keywords or a rewrite are not affected.
   */
  alternativeUnits: number;
  /**
   * When the evidence read with the alternatives' words (the caller's keywords, a sampled rewrite; every word,
   * found in the documentation or not) says "answers" more strongly than the question's own, it moves the
   * question's evidence this share of the way (each feature, so the logit, interpolated); with a model
   * writing the answer (which may still find no answer in the passages) all the way. Measured on the
   * fourteen development corpora (2026-11-26) with the keywords and rewrites a model wrote for every question
   * from the question alone (`npm run eval -- --keywords DIR` / `--rewrites DIR`; mean / worst correct
   * refusal, false refusal, answer match; no help: 0.834 / 0.600, 0.027 / 0.100, 0.818). First with only
   * the alternatives' words the documentation has, as it was: keywords at 1 → 0.483 / 0.250, 0.004 / 0.025,
   * 0.908 (the model's names for an off-topic question, "justify-content" in a Flask question, were dropped,
   * so that reading covered everything); 0.5 → 0.775 / 0.450; 0.25 → 0.809 / 0.500, 0.014 / 0.050, 0.899; 0 →
   * 0.845 / 0.600, 0.033 / 0.133, 0.881. With every word: keywords 1 → 0.781 / 0.450, 0.006 / 0.033, 0.905;
   * 0.5 → 0.831 / 0.600, 0.008 / 0.033, 0.905; 0.25 → 0.842 / 0.600, 0.017 / 0.067, 0.896; rewrites 0.5 →
   * 0.849 / 0.650, 0.012 / 0.067, 0.896; 0.25 → 0.852 / 0.650, 0.019 / 0.075, 0.890. 0.5 makes the fewest
   * wrong decisions (false answers plus false refusals) with either, and keeps correct refusal at its level
   * without a model. These at alternativeWeight 0.5; again at 1 (keywords): 0.25 → 0.842 / 0.600, 0.017 /
   * 0.075, 0.918; 0.5 → 0.835 / 0.600, 0.008 / 0.033, 0.924; 1 → 0.781 / 0.400, 0.006 / 0.033, 0.924.
   */
  alternativeEvidence: number;
  /**
   * A question word counts in the refusal and confidence evidence (coverage and absence alike) by its IDF
   * times its specificity in general English (src/docs/commonness.ts), so that an everyday word the
   * documentation happens not to use ("hook", "cap", "hit") weighs little and a specific one ("Turborepo",
   * "encrypt") much. Judged leave-one-corpus-out (each development corpus decided and calibrated by models
   * fitted on the other eight; correct refusal, false refusal, ECE as mean / worst), 2026-11-25:
   * off → 0.829 / 0.700, 0.057 / 0.267, 0.107 / 0.145; on with everydayFloor 0 → 0.827 / 0.700, 0.054 /
   * 0.233, 0.105 / 0.145; 0.3 → 0.829 / 0.700, 0.057 / 0.233, 0.111 / 0.141; 0.5 → 0.838 / 0.700, 0.052 /
   * 0.133, 0.107 / 0.140; 0.6 → 0.841 / 0.700, 0.057 / 0.133, 0.109 / 0.155; 0.7 → 0.839 / 0.650, 0.059 /
   * 0.133, 0.106 / 0.145. Kept at 0.5 (0.5–0.6 is flat; 0.7 costs a corpus's correct refusals). Squaring
   * the specificity instead of a floor: 0.829 / 0.700, 0.059 / 0.233.
   * Then the coverage features (how much of the question the best passage and document hold) weighed the same
   * way, calibration refitted: leave-one-corpus-out 0.840 / 0.700 → 0.855 / 0.750, 0.053 / 0.133 → 0.050 /
   * 0.133, ECE 0.110 / 0.140 → 0.107 / 0.135; refusal decisions +8 / −1, no answer or ranking changed.
   * Tried and not kept: weighing the question's words the same way in the ranking (the pool re-scored by a
   * BM25 whose term weights are IDF × ((1 − a) + a · specificity)): a 0 (the re-scoring alone) → mean hit@1
   * 0.846 → 0.835, worst 0.667 → 0.600; a 0.5 → 0.835 / 0.667; a 1 → 0.813 / 0.633. In the title field's
   * IDF instead (a 0.5, 1): no question changed rank but one recall@5. A word's specificity from its whole
   * word family (counts summed over a Porter stem: "carrying" as common as "carry"): leave-one-corpus-out
   * false refusal worst 0.133 → 0.167. Tokens beginning with a digit ("40GB", "502s") counted as values of no
   * specificity: correct refusal 0.855 → 0.868, worst false refusal 0.133 → 0.100 leave-one-corpus-out, but
   * refitted the shared set's false refusal rose 0.017 → 0.067 and mean answer match fell 0.806 → 0.800 (ECE
   * 0.107 → 0.113): within noise both ways, not kept.
   */
  wordSpecificity: boolean;
  /**
   * The log-rank share under which a word is everyday and counts nothing (see wordSpecificity). Re-measured
   * with coverage weighed too (leave-one-corpus-out correct / false refusal and ECE, mean / worst): 0.4 →
   * 0.836 / 0.750, 0.054 / 0.167, 0.111 / 0.141; 0.5 → 0.855 / 0.750, 0.050 / 0.133, 0.107 / 0.135; 0.6 →
   * 0.853 / 0.750, 0.057 / 0.133, 0.110 / 0.141.
   */
  everydayFloor: number;
  /**
   * A word the question uses only in an aside (an example it gives after "e.g.", "for example", "such as" or
   * a prepositional "like", up to the next clause break; a sentence that does not ask, in a question that
   * asks in another: question.ts asideTerms) keeps this share of its weight in the refusal and confidence
   * evidence: the documentation not having "40GB" in "My store has grown to 40GB. How do I clean it?" says
   * little. Measured on the eleven development corpora (2026-11-26, the shipped calibration; correct / false
   * refusal mean / worst, leave-one-corpus-out ECE mean / worst, answer match mean; questions gained / lost):
   * 1 (off) → 0.830 / 0.600, 0.043 / 0.133, 0.117 / 0.161, 0.805. 0.3 → 0.825 / 0.600, 0.020 / 0.050, 0.097
   * / 0.129, 0.825; refusal decisions +11 / −1 (undici's "NTLM or Kerberos … Can the proxy agent do that
   * handshake?", whose context sentence names what "that" asks about), answer match +8 / −0; leave-one-corpus-out
   * (models refitted without the corpus) correct refusal 0.830 / 0.650 → 0.839 / 0.700, false refusal 0.053 /
   * 0.167 → 0.053 / 0.200 (one undici question); the lockbox's false refusal 0.025 → 0.000, its correct refusal
   * 1.000 both. Neighbours: 0.15 → false refusal 0.028 / 0.100, ECE 0.098 / 0.150; 0.5 → 0.028 / 0.100, ECE
   * 0.113 / 0.152; 0 → 0.049 / 0.133 (the coverage features lose the context words too), ECE 0.118 / 0.163.
   * Examples only (no context sentences), 0.3 → false refusal 0.029 / 0.075, leave-one-corpus-out 0.064 / 0.267.
   * Parentheses as asides too: they restate what is asked as often as they give an example ("Can undici make
   * requests over HTTP/3 (QUIC)?" was answered): correct refusal −1 more. Asides are found for every question
   * (the tagger runs for a "like"), not only those with a word the documentation lacks: no decision moved,
   * ECE unchanged within 0.004 (twelve corpora). Tried and not kept: aside words weighing less when the
   * answer's units are chosen (0.3 → answer match +5 / −12 questions, 0.6 → +3 / −7).
   */
  asideWeight: number;
  /**
   * Whether a question's sentences that do not ask count as asides (see asideWeight). Tried and not kept
   * (2026-11-27, eighteen corpora): not when the asking sentence refers back to them ("Can curl do that?",
   * "How do I fix it?"): any pronoun → false refusal mean 0.037 → 0.045, six corpora +1; a pronoun ending a
   * clause → prettier +1 false refusal, nothing gained.
   */
  asideContext: boolean;
  /**
   * A name the question gives only in an aside, read with "like" only after a comma (the code it quotes in a
   * sentence that sets the scene, an example after "e.g." or "such as"), is not counted missing: "Old code does `var app =
   * koa();` and after upgrading it throws. Why?" was refused because the manual writes `new Koa()`. Measured
   * (2026-11-26, fifteen development corpora, against off): false refusal mean / worst 0.027 / 0.100 → 0.025 /
   * 0.075 (koa +1), answer match +1, no correct refusal lost, the lockbox unchanged. Read with "like" too
   * ("flags like --verbose"): false refusal +2, but a correct refusal lost ("Is there a setting like
   * `storeAutoPruneInterval` …?" asks for the name it gives).
   */
  asideNames: boolean;
  /**
   * The lead unit of an answer brings the unit that follows it in its section. Two or three following units
   * instead (2026-11-25, late): answer match +2 / −2 and +2 / −4 questions (mean 0.806 → 0.806 / 0.802).
   */
  leadContinuation: boolean;
  /**
   * The lead unit, a sentence, brings the rest of its paragraph, in order, up to this many characters (0: off).
   * Of the 35 answers (2026-11-27, thirty corpora) that missed a string their best passage held, most had
   * quoted the sentence naming the question's words and not the one after it that answers in its own. Measured
   * on the thirty development corpora against 0 (answer match, questions gained / lost): 300, 600 and 1,200 →
   * +4 / −0 each (Asciidoctor +2, Docker CLI +1, ESLint +1); hit@1 and refusals do not depend on it; the
   * lockbox did not move. With the keywords, +1 / −1; a model's prompts do not depend on it. The same for the
   * best unit of each further passage as well (300 or 600) → +10 / −16, and reading on past the paragraph
   * within the lead's section (400) → +11 / −19: the budget goes on text that does not answer.
   */
  leadParagraph: number;
  /**
   * After the units are chosen, a sentence ending in ":" that was quoted without what it introduces brings
   * the code, list item or row after it when that fits the budget with the 1.4 slack introductions have.
   * A qualifying sentence ("However, you can set the priority of PyPI:") comes with the sentence it qualifies
   * and so had no room to bring its own listing. Measured (2026-11-26, sixteen development corpora): no
   * question's answer match moved; 4 answers gained the listing their last sentence announced (answers
   * ending on such a sentence 36 → 32 of 693; the rest have no room, or announce an image).
   */
  introducedLast: boolean;
  /**
   * A paragraph that opens in lower case right after a code listing goes on with the sentence that introduced
   * the listing ("It's easy to install additional JDKs by running:" · `jbang jdk install 14` · "which will
   * download and install JDK version 14 …"): quoted, it brings the listing and that sentence, so that no
   * quote starts mid-sentence. Only when that sentence ends unfinished (":" or no stop): a lower-case opening
   * alone may be a name ("uv cannot assert …"). Measured on the thirty-two development corpora (2026-11-28,
   * against off): no figure moved on any corpus (hit@1, answer match, refusals, the lockbox); nine answers
   * changed, each now quoting the listing its sentence goes on from (JBang ×2, Lerna, Rollup, Koa, Flask,
   * pnpm, Prettier, the shared set). Bringing the listing whatever ended the sentence before it: fourteen
   * answers changed, figures the same, but uv's "uv cannot assert …" brought a 600-character Dockerfile
   * and lost two sentences about the lockfile.
   */
  continuedSentences: boolean;
  /**
   * Code blocks with nothing between them that share at least this share of the smaller one's words are
   * versions of one example (tabs: CommonJS / ES module / TypeScript, YAML / TOML / CLI, npm / yarn): once one
   * is quoted, the others are not (src/docs/answer.ts versionsOf). 0 quotes every version. Such runs are
   * common: 574 adjacent pairs in Traefik's passages, 315 in Node's API reference, 199 in Hono's, 147 in
   * Express's. Measured (2026-11-27, twentieth session, twenty-six development corpora, against 0): answer
   * match +1 / −0 (hono); with the keywords +1 / −0. The room it frees mostly goes to other units that do not
   * hold the answer string; kept for quotes that do not show one example twice.
   */
  codeVersions: number;
  /**
   * A quoted item of a nested list brings the items it is nested under (src/docs/answer.ts withContext): a
   * changelog's "Fixed XSS in `res.redirect`" is quoted under its "4.20.0". Measured (2026-11-27, twentieth
   * session, twenty-six development corpora, against off): answer match +2 / −0 (mkdocs, express).
   */
  itemParents: boolean;
  /**
   * A sentence left out between two quoted sentences of its paragraph is quoted too, when it fits, as soon as
   * the second is chosen; it joins two pieces into one, so maxUnits does not hold it. Measured as itemParents:
   * answer match +2 / −0 (lerna, express); filled in only after every unit was chosen, when the budget is
   * mostly spent, +1 / −0; held to maxUnits as well, +0.
   */
  sentenceGaps: boolean;
  /**
   * The share of the character budget the sentence filling such a gap may reach, as the other context units
   * (the sentence introducing a listing 1.3, what a sentence ending in ":" introduces 1.4): it is context of
   * what is quoted. Measured (2026-11-27, twenty-first session, twenty-seven development corpora, against 1):
   * 1.3 → answer match +1 / −0 (Docker CLI), with the keywords +1 / −0 (undici), nothing else moved.
   */
  gapSlack: number;
  /**
   * A best passage whose own heading names more of the question than its best unit does (and than any unit
   * elsewhere in its document) leads the answer with its section, quoted from its start (src/docs/answer.ts
   * sectionLeads): "What does shrinkwrap do?" under "#### `shrinkwrap`", whose body never repeats the name.
   * On the fourteen development corpora (2026-11-26, sixth session): answer match 0.822 → 0.824 (+1 mkdocs,
   * "What license …?" now quotes the "MkDocs License (BSD)" section; none lost), 2 of 900 answers change; on
   * the same corpora as documentation sites (`--html mixed`) +2 / −0. Counting the whole heading path instead
   * of the section's own heading lost a pino answer to its ancestors' words ("pino(…) › options › redact").
   * Tried and not kept (2026-11-27, eighteen corpora): the best document's other quoted passages leading the
   * same way (curl's "exit code 47" under "## 47", found second after the page's introduction), with the
   * document's top heading no longer counted for its best unit: answer match +1 / −0, but 10 other answers
   * changed, several for the worse (a trimmed code listing leading undici's client-certificate answer).
   */
  headingSections: boolean;

  // Compose (src/docs/answer.ts selectQuotes, src/docs/index.ts passages). First measured on the shared set
  // and a held-out README set (answer match, shared / holdout); re-measured on the corpora where noted.
  /**
   * Passages of the best document answers are drawn from (the answer is often in its second to fifth best
   * passage: the option's section rather than the overview that names it most). 3 → 0.82 / 0.80;
   * 4 → 0.85 / 0.82; 5 → 0.88 / 0.86; 6 → 0.90 / 0.84. Re-measured on the nine development corpora after the
   * refusal evidence changed (2026-11-25, late; answer match mean / worst, questions against 5): 4 → 0.810 /
   * 0.733, +3 / −1; 6 → 0.810 / 0.733, +2 / −0; with runnerUps 3 → 0.817 / 0.733, +6 / −1. Now 6.
   */
  primaryPassages: number;
  /**
   * Next documents whose best passage may be quoted, when it scores at least runnerUpShare of the best, its
   * units weighed by runnerUpWeight (0.75 / 0.9 until 2026-11-25). Re-measured with the three below on the
   * nine development corpora (answer match, mean / worst): before 0.776 / 0.600; minShare 0.1 → 0.788 /
   * 0.633; + runnerUpShare 0.6, weight 1 → 0.796 / 0.600; + spread 0.5 (all three) → 0.808 / 0.700, questions
   * gained +15, lost −5 (readmes −2, within its noise of 0.094). Alone: runnerUpShare 0.5 → 0.782 / 0.600;
   * spread 0.5 → 0.782 / 0.667; primaryPassages 8 → 0.777; minShare 0.05 → 0.788; specificityFloor 0.6 →
   * 0.770 / 0.567. Re-measured (2026-11-25, late, against 2 runner-ups, mean / worst; questions gained / lost):
   * runnerUps 1 → 0.799 / 0.725, +2 / −4; 3 → 0.812 / 0.733, +4 / −1; 4 → 0.811 / 0.733, +4 / −2; spread 0.4 →
   * 0.795 / 0.667, +0 / −3; spread 0.6 → 0.795 / 0.667, +1 / −4. Now 3 (with primaryPassages 6: mean 0.806 →
   * 0.817, worst 0.733 both, +6 / −1: hono +1, pnpm +2, mkdocs +2, shared +1, pino −1; leave-one-corpus-out
   * ECE mean 0.107 → 0.114, worst 0.135 → 0.137, within its noise of 0.085–0.124). Its neighbours then
   * (questions against it): runnerUpShare 0.5 → +1 / −3, 0.7 → +0 / −3; minShare 0.05 → ±0, 0.15 → −1;
   * noveltyShare 0.2 → −1, 0.4 → −2: a flat optimum, nothing else changed.
   * Re-measured on the twenty-one development corpora (2026-11-27, fourteenth session; answer match against
   * 0.816): runnerUps 2 → 0.812, +6 / −9; runnerUpShare 0.75 → 0.806 (curl −3); primaryPassages 8 → 0.814,
   * +5 / −6. Still flat.
   */
  runnerUps: number;
  runnerUpShare: number;
  runnerUpWeight: number;

  // A model's answer (src/docs/generate.ts; a chat endpoint, or the MCP client's model through sampling).
  /**
   * What the model reads: the passages the quotes are drawn from, then the next best passages of each of the
   * `modelDocuments` best sources (`modelPassagesPerDocument`), while they stay within `modelChars`. The right
   * page is the first for 0.83 of questions and among the first five for 0.95 (recall@5): a model told to say
   * when the passages do not answer says so when the right page is missing from them, so the page it needs
   * should be there. Measured with recorded model replies (scripts/eval/model-help/answers): see
   * docs/documentation-answers.md, "A model writing the answers".
   */
  modelDocuments: number;
  /**
   * Passages the model reads of each of those documents (the best document has the quotes' six). With one
   * of each, of the 72 answerable questions a model declined on the twenty-four development corpora, 35 had
   * the right page among the five but not the passage that answers. Measured with recorded replies
   * (2026-11-27, sixteenth session; 1 → 3, mean / worst, questions gained / lost): hit@1 0.908 / 0.800 →
   * 0.933 / 0.825 (+27 / −3), answer match 0.890 / 0.775 → 0.923 / 0.825 (+37 / −5), false refusal 0.074 /
   * 0.175 → 0.050 / 0.150, correct refusal 0.998 → 0.996 (one question); the prompt's passages, median
   * 7,400 → 13,400 characters.
   */
  modelPassagesPerDocument: number;
  modelChars: number;
  /**
   * With a model writing the answer, a refusal the lexical evidence alone would make (no name missing from the
   * documentation, only a low probability that it answers) is left to the model, which reads the passages:
   * it answers from them or replies that they do not answer. When the model is unavailable or its answer is
   * rejected, the lexical refusal stands.
   */
  modelJudges: boolean;
  /**
   * Within-document specificity: a question term found in most passages of a document (its name, the words
   * of its title) says little about which passage answers, so its weight for that document's units falls
   * towards this floor. 1 (off) → 0.83 / 0.84; 0.3 → 0.88 / 0.86.
   * Tried and not kept (2026-11-26, nine development corpora): a unit counting the words of its section's
   * heading as its own, for the first unit under the heading only → answer match +2 / −3 (mean 0.826 →
   * 0.823), for every unit → +1 / −7 (0.810, worst 0.750 → 0.725).
   */
  specificityFloor: number;
  /**
   * A further passage's best unit is quoted when it covers at least this share of what the lead covers (was
   * 0.7; see runnerUps). Re-swept with the composition's other constants on the thirty-two development
   * corpora (2026-11-28, against the shipped values; answer match questions gained / lost): spread 0.4 → +4 /
   * −26, 0.55 → +3 / −5, 0.6 → +11 / −13 (worst corpus 0.625 → 0.675), 0.7 → +14 / −26; minShare 0.05 → +2 /
   * −0, 0.2 → +0 / −16; noveltyShare 0.2 → +2 / −1, 0.4 → +1 / −0; quoteCost 200 → +3 / −1, 400 → ±0. Hit@1
   * and refusals do not depend on them. A flat optimum: nothing changed.
   */
  spread: number;
  /** Further units are quoted while they score at least this share of the lead. 0.35 → 0.83 / 0.84; 0.2 → 0.88 / 0.86; on the nine corpora 0.1 (see runnerUps). */
  minShare: number;
  /**
   * Further units are chosen by the question terms they add, plus this share of their own score, so that an
   * answer spread over several sentences is quoted rather than the same words again. 0 → 0.85 / 0.86;
   * 0.3 → 0.88 / 0.86.
   */
  noveltyShare: number;
  /**
   * What a unit chosen for what it adds costs: its gain is divided by 1 + its length / quoteCost characters,
   * so that within the answer's budget a long unit must add more than a short one (value per cost, as a
   * budgeted choice goes). Of the 63 answers that missed a string their three best passages held (2026-11-27),
   * 58 had spent 1,100 of their 1,200 characters or more, and 50 had the unit holding it among those it could
   * choose from (by score, 27 of them among the ten best). Measured on
   * the twenty-five development corpora (answer match mean / worst; questions gained / lost against 0, no
   * cost): 0 → 0.806 / 0.700; 150 → 0.810 / 0.700, +11 / −7; 300 → 0.810 / 0.700, +10 / −6; 500 → 0.808, +8 / −6;
   * 1,000 → 0.808, +6 / −4; the lockbox +1 at each. Kept from the top three passages 0.900 → 0.904. Hit@1
   * and refusals do not depend on it. As HTML sites (`--html mixed`): answer match 0.795 → 0.796 (+7 / −6), one
   * Cargo question's recall@5 lower (the cited sections come first among the sources). With the keywords
   * choosing the units too (alternativeUnits), on the keywords path: 0.934 / 0.800 without the cost, 0.932 /
   * 0.800 with it (+1 / −3): within noise both ways, kept for the lexical default.
   */
  quoteCost: number;
  /** An introducing sentence ending in ":" brings the list or code it introduces across at most this many sentences. 0 → 0.87 / 0.86; 2 → 0.88 / 0.86. */
  introGapSentences: number;
  /**
   * "What is the default …?": units stating a default (`defaults to`, `default:`, `@default`, src/docs/answer.ts
   * DEFAULT_STATEMENT) score double and read with their paragraph's words. On the nine development corpora
   * (2026-11-26, `--ablate default-statements`): answer match 0.826 → 0.822 (readmes −1, shared −1, none
   * gained), ECE 0.098 → 0.105. Both patterns are English phrasing, earning a question or two each on the
   * package READMEs and nothing elsewhere: kept, within noise, because they lose nothing on any corpus.
   */
  defaultStatements: boolean;
  /**
   * Documents of fewer passages than this have no meaningful within-document IDF (see specificityFloor).
   * Measured on the nine development corpora (2026-11-26, answer match against 4's 0.826): 2 → 0.826, no
   * question moved; 8 → 0.818 (flask, undici, shared −1 each).
   */
  specificityMinChunks: number;
  /**
   * Most units an answer quotes, within its 1,200 characters. First measured on the shared set and a held-out
   * README set (answer match; mean answer characters): 6 → 0.900 / 0.857 (1,002); 8 → 0.900 / 0.911 (1,099);
   * 9 → the same matches, longer. On the nine development corpora (2026-11-26, against 8's 0.826): 6 → 0.793
   * (hono −3, pnpm −1, mkdocs −3, readmes −5, shared −2); 9 → 0.829; 10 → 0.831 (hono +1, readmes +1, none lost) with
   * answers 8% longer (mean 1,320 → 1,430 characters rendered); 12 → 0.831, recall one question lower. Left at
   * 8: two questions are inside every corpus's noise, the longer answers are not.
   * Re-measured on the fifteen development corpora (2026-11-26, ninth session), where a reference page's
   * units are short (Cargo's `--root` dir, one option per item): with 8 units an answer often stopped at 557
   * of its 1,200 characters. Answer match mean / worst against 8's 0.813 / 0.625: 10 → 0.823 / 0.675;
   * 12 → 0.826 / 0.725, +8 / −0 (cargo +4, pnpm, nodeapi, composer, readmes +1), the lockbox +2; 16 and no
   * cap → the same as 12 (the character budget binds first). Sources cited per answer, mean 3.56 → 3.79
   * (median 4 both); rendered answers 8% longer. Now 12.
   */
  maxUnits: number;

  // Sources (src/docs/index.ts sourcesOf).
  /**
   * A ranked document is listed as a source only when it scores at least this share of the best one. 0.1,
   * 0.3 and 0.4 change no figure of the nine development corpora (2026-11-26): no right document among the
   * first five scores under 0.4 of the best; the share keeps unrelated documents out of a short list.
   */
  sourceShare: number;
  /**
   * Sources also list documents that name the rarest code names of the quoted primary passage (see
   * relatedDocuments in search.ts): at most relatedDocuments of them, found through its relatedIdentifiers
   * rarest names. First measured on the shared set (recall@5: off 0.983; 1 document 0.992; 2 → 1.000, 3
   * names). On the nine development corpora (2026-11-26; recall@5 mean / worst): none (`--ablate
   * related-sources`) → 0.972 / 0.913; 3 names, 2 documents → 0.969 / 0.867 (undici 0.917 → 0.867: documents
   * naming any of three names pushed the right second document out of the first five); 3 names, 1 document →
   * 0.970 / 0.883, 3 documents → 0.969 / 0.867; 2 names → 0.971 / 0.883; 5 names → 0.969 / 0.867; 1 name, 2
   * documents → 0.976 / 0.913 (pino, shared and mkdocs gain, no corpus loses), 1 document → 0.975 / 0.900,
   * 3 → as 2. Searched by several names at once, the documents that mention any of them outrank the one about
   * the rarest. Now 1 name, 2 documents.
   */
  relatedIdentifiers: number;
  relatedDocuments: number;
}

export const TUNING: Readonly<Tuning> = Object.freeze({
  passageChars: 1200,
  pack: false,
  headingBoost: 1,
  pool: 200,
  dedupe: true,
  coverageWeight: 0,
  secondPassageShare: 0.3,
  secondNovel: true,
  secondNovelFloor: 0.75,
  titleWeight: 0.3,
  titleCorpusIdf: true,
  titleFloor: 0.1,
  linkWeight: 0.05,
  titleK1: 1.2,
  titleB: 0.75,
  spelling: true,
  alternativeWeight: 1,
  alternativeUnits: 1,
  alternativeEvidence: 0.5,
  leadContinuation: true,
  leadParagraph: 600,
  introducedLast: true,
  continuedSentences: true,
  codeVersions: 0.5,
  itemParents: true,
  sentenceGaps: true,
  gapSlack: 1.3,
  headingSections: true,
  wordSpecificity: true,
  everydayFloor: 0.5,
  asideWeight: 0.3,
  asideContext: true,
  asideNames: true,
  primaryPassages: 6,
  runnerUps: 3,
  runnerUpShare: 0.6,
  runnerUpWeight: 1,
  modelDocuments: 5,
  modelPassagesPerDocument: 3,
  modelChars: 16000,
  modelJudges: true,
  specificityFloor: 0.3,
  spread: 0.5,
  minShare: 0.1,
  noveltyShare: 0.3,
  quoteCost: 300,
  introGapSentences: 2,
  defaultStatements: true,
  specificityMinChunks: 4,
  maxUnits: 12,
  sourceShare: 0.2,
  relatedIdentifiers: 1,
  relatedDocuments: 2,
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
  'second-novelty': { about: 'a document’s second passage counting by the question words its best passage lacks', off: { secondNovel: false } },
  spelling: { about: 'British/American spelling variants found in the documentation', off: { spelling: false } },
  'heading-sections': { about: 'a section found by its heading quoted from its start', off: { headingSections: false } },
  'lead-continuation': { about: 'the answer’s lead unit bringing the unit that follows it', off: { leadContinuation: false } },
  'lead-paragraph': { about: 'the answer’s lead sentence bringing the rest of its paragraph', off: { leadParagraph: 0 } },
  'alternative-units': { about: 'the keywords’ or rewrite’s words choosing the quoted units too', off: { alternativeUnits: 0 } },
  'quote-cost': { about: 'a unit chosen for what it adds weighed by the characters it takes', off: { quoteCost: 0 } },
  'code-versions': { about: 'one version of an example shown in tabs quoted, not every version', off: { codeVersions: 0 } },
  'item-parents': { about: 'a quoted item of a nested list bringing the items it is nested under', off: { itemParents: false } },
  'sentence-gaps': { about: 'a sentence between two quoted sentences of its paragraph quoted too', off: { sentenceGaps: false } },
  'continued-sentences': {
    about: 'a lower-case paragraph after a listing bringing the listing and the sentence before it',
    off: { continuedSentences: false },
  },
  'introduced-last': { about: 'a sentence ending in ":" bringing what it introduces after the units are chosen', off: { introducedLast: false } },
  'small-pool': { about: 'the large candidate pool (40 passages instead)', off: { pool: 40 } },
  'default-statements': { about: 'units stating a default ranked up for a question about a default', off: { defaultStatements: false } },
  'related-sources': { about: 'sources that name the rarest code name of the quoted passage', off: { relatedDocuments: 0 } },
  'word-specificity': {
    about: 'question words weighed by their specificity in general English in the refusal and confidence evidence',
    off: { wordSpecificity: false },
  },
  'aside-names': {
    about: 'a name the question gives only in an aside (a sentence that sets the scene, an example) not counted missing',
    off: { asideNames: false },
  },
  asides: { about: 'question words used only in an aside (an example, a sentence that does not ask) weighing less in the evidence', off: { asideWeight: 1 } },
  links: { about: 'the link field (the words other pages use when they link to a page)', off: { linkWeight: 0 } },
  'title-corpus-idf': { about: 'the title field’s IDF over every field (titles-only IDF instead)', off: { titleCorpusIdf: false } },
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

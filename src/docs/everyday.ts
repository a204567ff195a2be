/**
 * Everyday English: how common a word is, from the frequency ranks of src/docs/common-words.ts. Documentation
 * does not use every ordinary word; what it lacks among rarer words tells more.
 */
import { COMMON_WORDS } from './common-words.js';
import { analyze, type Stemmer } from './tokens.js';

/**
 * Frequency ranks in everyday English (src/docs/common-words.ts) between which a question word's absence
 * from the documentation goes from saying nothing to counting in full. A small documentation set simply
 * may not use "sometimes" (rank 523) or "everything" (186); lacking "backoff" or "pandas" (outside the list)
 * says the question is about something else. Measured against counting every absent word in full (false
 * refusal, shared eval / blind / the pino docs alone as a single-product set): 0.033 / 0.033 / 0.308 →
 * 0.017 / 0.000 / 0.192 with ranks 500–5,000; 300–3,000 gives 0.033 / 0.000 / 0.192.
 */
const COMMON_RANKS = { from: 500, to: 5000 };
const rankCache = new Map<Stemmer, Map<string, number>>();

/** 0 for the most common English words, rising with the logarithm of their rank to 1 beyond COMMON_RANKS.to. */
export function absenceWeight(term: string, stemmer: Stemmer): number {
  let ranks = rankCache.get(stemmer);
  if (!ranks) {
    ranks = new Map();
    let rank = 0;
    for (const word of COMMON_WORDS.split(' ')) {
      rank++;
      const t = analyze(word, { stemmer, keepStopWords: true })[0]?.term;
      if (t && !ranks.has(t)) ranks.set(t, rank);
    }
    rankCache.set(stemmer, ranks);
  }
  const rank = ranks.get(term);
  if (rank === undefined) return 1;
  const { from, to } = COMMON_RANKS;
  return Math.min(1, Math.max(0, Math.log(rank / from) / Math.log(to / from)));
}


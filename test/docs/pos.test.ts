import { describe, expect, it } from 'vitest';
import { nonNounWords } from '../../src/docs/pos.js';

describe('parts of speech of a question', () => {
  it('tells the words that are not nouns (adverbs, adjectives, verbs) from names and things', async () => {
    const words = await nonNounWords('Why does pnpm supposedly keep one cheap store while winston lingers, and how do I configure Django?');
    for (const w of ['supposedly', 'cheap', 'lingers', 'configure']) expect(words).toContain(w);
    for (const w of ['pnpm', 'store', 'winston', 'django']) expect(words).not.toContain(w);
  });
});

import { describe, expect, it } from 'vitest';
import { specificity } from '../../src/docs/commonness.js';

describe('how specific a word is in general English', () => {
  it('gives everyday words nothing, rarer words more, and words English does not have (names, terms of art) all', () => {
    const s = specificity(0.5);
    for (const w of ['talk', 'really', 'Thing']) expect(s(w)).toBe(0);
    expect(s('whatever')).toBeLessThan(0.1);
    expect(s('hook')).toBeGreaterThan(0);
    expect(s('daemon')).toBeGreaterThan(s('hook'));
    expect(s('encrypt')).toBeGreaterThan(s('hook'));
    expect(s('daemon')).toBeLessThan(1);
    for (const w of ['turborepo', 'QUIC', 'monorepo']) expect(s(w)).toBe(1);
    // Without a floor, only the commonest words are near 0.
    expect(specificity(0)('talk')).toBeGreaterThan(0.4);
  });
});

import { describe, expect, it } from 'vitest';
import { CorpusStats } from '../../src/docs/stats.js';
import type { DocumentRow } from '../../src/storage/chunks.js';

function row(title: string, vocab: Record<string, number>): DocumentRow {
  return {
    doc_id: title, title, url: null, origin: 'test', content_type: 'markdown', hash: title, version: 'v1',
    chunks: Math.max(1, ...Object.values(vocab)), chars: 100, updated_at: '2026-11-21T00:00:00Z',
    vocab: JSON.stringify(vocab), idents: '', names: '',
  } as DocumentRow;
}

describe('corpus names', () => {
  it('are the uncommon words of nearly every document: what a single-product set is about', () => {
    const docs = ['api.md', 'transports.md', 'browser.md', 'help.md', 'redaction.md'].map((t, i) =>
      row(t, { lumen: 3, log: 2, level: 1, ...(i < 2 ? { stream: 1 } : {}), ...(i === 0 ? { child: 1 } : {}) }),
    );
    // "log" and "level" are everyday English; "stream" is in two of five documents only.
    expect([...new CorpusStats(docs, 'porter').corpusNames]).toEqual(['lumen']);
  });

  it('need several documents, and a word in most of them', () => {
    expect([...new CorpusStats([row('a.md', { lumen: 1 }), row('b.md', { lumen: 1 })], 'porter').corpusNames]).toEqual([]);
    const five = ['a', 'b', 'c', 'd', 'e'].map((t, i) => row(`${t}.md`, i < 3 ? { lumen: 1, x: 1 } : { x: 1 }));
    expect(new CorpusStats(five, 'porter').corpusNames.has('lumen')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { CorpusStats } from '../../src/docs/stats.js';
import { prepareDocument } from '../../src/docs/prepare.js';
import { spellingVariants, titleTerms } from '../../src/docs/tokens.js';
import { queryTerms } from '../../src/docs/question.js';
import type { DocumentRow } from '../../src/storage/chunks.js';
import { documentRow } from './helpers.js';

function row(title: string, vocab: Record<string, number>, title_terms = titleTerms(title)): DocumentRow {
  return documentRow(title, { chunks: Math.max(1, ...Object.values(vocab)), vocab: JSON.stringify(vocab), title_terms });
}

describe('the title field', () => {
  const stats = new CorpusStats([
    row('commands/install.md', { install: 3 }, titleTerms('commands install Installing packages')),
    row('commands/generate.md', { generat: 2 }, titleTerms('commands generate Generate a project')),
    row('guides/general-settings.md', { general: 2 }, titleTerms('guides general-settings General settings of the tool, explained at length for every reader')),
  ]);

  it('scores the documents whose title holds a question word, rarer words more', () => {
    const scores = stats.titleScores(titleTerms('How do I install packages?').split(' '), 1.2, 0.75).scores;
    expect([...scores.keys()]).toEqual(['commands/install.md']);
    expect(stats.titleScores(titleTerms('commands').split(' '), 1.2, 0.75).scores.size).toBe(2);
  });

  it('does not fold unrelated words onto a title as Porter stemming would (general / generate)', () => {
    const scores = stats.titleScores(titleTerms('Which general settings are there?').split(' '), 1.2, 0.75).scores;
    expect([...scores.keys()]).toEqual(['guides/general-settings.md']);
  });

  it('normalises by title length: the same word weighs more in a short title', () => {
    const s = new CorpusStats([row('a.md', {}, 'token'), row('b.md', {}, 'token of the very long title with many words'), row('c.md', {}, 'other')]);
    const scores = s.titleScores(['token'], 1.2, 0.75).scores;
    expect(scores.get('a.md')!).toBeGreaterThan(scores.get('b.md')!);
  });
});

describe('spelling', () => {
  it('gives the other spellings by the regular British/American correspondences', () => {
    expect(spellingVariants('initialise')).toContain('initialize');
    expect(spellingVariants('initialization')).toContain('initialisation');
    expect(spellingVariants('colour')).toContain('color');
    expect(spellingVariants('behavior')).toContain('behaviour');
    expect(spellingVariants('licence')).toContain('license');
    expect(spellingVariants('cancelled')).toContain('canceled');
    expect(spellingVariants('centre')).toContain('center');
    expect(spellingVariants('analyse')).toContain('analyze');
  });

  it('searches a question word as the documentation spells it, and only then', () => {
    const stats = new CorpusStats([row('a.md', { initi: 2, color: 1 }), row('b.md', { other: 1 })]);
    const terms = queryTerms('How do I initialise the colour?', stats);
    expect(terms.map((t) => [t.term, t.surface, t.known])).toEqual([
      ['initi', 'initialise', true],
      ['color', 'colour', true],
    ]);
    expect(queryTerms('How do I initialise the colour?', stats, 'porter', { spelling: false }).every((t) => !t.known)).toBe(true);
  });
});

describe('words only the title field holds', () => {
  it('are known to the documentation, counted in no passage', () => {
    const prepared = prepareDocument({
      title: 'guide.md',
      library: 'docs',
      origin: 'test',
      contentType: 'markdown',
      content: '---\ndescription: Shipping reports nightly\n---\n# Widget\n\n## Colours\n\nSet the colour with the `tint` option.\n',
    });
    const vocab = JSON.parse(prepared.doc.vocab) as Record<string, number>;
    expect(vocab).toMatchObject({ widget: 0, guid: 0, ship: 1, colour: 1, tint: 1 });
    const stats = new CorpusStats([{ ...prepared.doc, doc_id: 'guide' }]);
    const terms = queryTerms('Can the widget guide ship reports?', stats, 'porter');
    expect(terms.filter((t) => !t.known).map((t) => t.surface)).toEqual([]);
    expect(stats.docs.get('guide')!.chunkFrequency('widget')).toBe(0);
  });

  it("include the front matter's other phrases (a command's help line), never its ids, numbers or lists", () => {
    const content = [
      '---',
      'id: max-time',
      'Help: Maximum time allowed for transfer',
      'Category: connection timeout',
      'Added: 4.0',
      'See-also:',
      '  - retry-max-time',
      '---',
      '# `--max-time`',
      '',
      'Set the maximum time in seconds.',
    ].join('\n');
    const prepared = prepareDocument({ title: 'max-time.md', library: 'docs', origin: 'test', contentType: 'markdown', content });
    expect(prepared.doc.title_terms.split(' ')).toEqual(expect.arrayContaining(['maximum', 'allowed', 'transfer', 'connection', 'timeout', '--max-time']));
    expect(prepared.doc.title_terms.split(' ')).not.toContain('4.0');
    expect(prepared.doc.title_terms).not.toContain('retry-max-time');
    // The text quoted in answers is the page's own.
    expect(prepared.chunks.map((c) => c.text)).toEqual(['Set the maximum time in seconds.']);
    const stats = new CorpusStats([{ ...prepared.doc, doc_id: 'max-time' }]);
    expect(queryTerms('Is there a connection timeout?', stats, 'porter').every((t) => t.known)).toBe(true);
    // A value of one 200,000-letter word is no phrase, and is read in one pass (quadratic, it took minutes).
    const help = `---\nHelp: ${'a'.repeat(200_000)}\n---\nText.\n`;
    const long = prepareDocument({ title: 'long.md', library: 'docs', origin: 'test', contentType: 'markdown', content: help });
    expect(long.doc.title_terms).toBe('long');
  });
});

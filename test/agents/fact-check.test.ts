import { describe, expect, it } from 'vitest';
import { checkClaims, normaliseNumber, sentencesOf, termsOf, verdictOf } from '../../src/agents/fact-check.js';
import { missingSections } from '../../src/agents/answer-format.js';
import { batches, readPlan } from '../../src/agents/plan.js';

describe('fact-checking', () => {
  it.each([
    ['1,200.50', '1200.5'],
    ['$3', '3'],
    ['45%', '45'],
    ['007', '7'],
    ['-3', '3'],
    ['0.50', '0.5'],
    ['10.0', '10'],
    ['0', '0'],
  ])('normalises %s to %s', (raw, normal) => {
    expect(normaliseNumber(raw)).toBe(normal);
  });

  it('splits markdown into sentences, skipping headings, labels and code blocks', () => {
    const answer = [
      '## Summary',
      'The index holds 42 documents. It was built in 3.5 s, e.g. quickly.',
      '- **Largest**: guide.md with 120 chunks.',
      '1. Rebuild nightly.',
      'Results:',
      '```ts\nclient.fetchAll(9999);\n```',
    ].join('\n');
    expect(sentencesOf(answer)).toEqual([
      'The index holds 42 documents.',
      'It was built in 3.5 s, e.g. quickly.',
      'Largest: guide.md with 120 chunks.',
      'Rebuild nightly.',
    ]);
    // The documentation's own splitter: no break after an abbreviation before code, or after an initial.
    expect(sentencesOf('Use a pool, e.g. `Pool`. Written by J. Smith. It caps sockets.')).toEqual([
      'Use a pool, e.g. `Pool`.',
      'Written by J. Smith.',
      'It caps sockets.',
    ]);
  });

  it('finds figures, identifiers and names, but not step references or sentence-initial words', () => {
    expect(termsOf('The `ragQuery` method of DocentClient returned 5 sources from docs/api.md in step 2, per Alice.')).toEqual({
      numbers: ['5'],
      identifiers: ['ragQuery', 'DocentClient', 'docs/api.md', 'Alice'],
      words: ['method', 'return', 'sourc', 'step'], // crude stems, applied alike to the evidence
    });
    expect(termsOf('Call client.fetchAll() with "strict mode" on v2.').identifiers).toEqual(['strict mode', 'client.fetchAll', 'v2']);
  });

  const evidence = [
    { source: 'step 1 (rag_query)', text: 'guide.md: Use `ragQuery(question)` on a DocentClient. Results carry up to 1,000 tokens.' },
    { source: 'task', text: 'How do I query docent from TypeScript?' },
  ];

  it('holds a claim whose figures and identifiers all appear in evidence, and names what is missing', () => {
    const check = checkClaims(
      'Use ragQuery on a DocentClient. Results carry up to 1000 tokens. Call client.fetchAll() for everything.',
      evidence,
      'key_claims',
    );
    expect(check.items.map((c) => [c.held, c.sources, c.unsupported])).toEqual([
      [true, ['step 1 (rag_query)'], []],
      [true, ['step 1 (rag_query)'], []],
      [false, [], ['client.fetchAll']],
    ]);
    expect(check).toMatchObject({ checked: 3, held: 2, verdict: 'partially_verified' });
  });

  it('checks plain sentences by their content words only under every_claim', () => {
    const answer = 'Results carry tokens. Bananas are yellow and delicious.';
    expect(checkClaims(answer, evidence, 'key_claims')).toMatchObject({ checked: 0, verdict: 'unverified' });
    const strict = checkClaims(answer, evidence, 'every_claim');
    expect(strict.items.map((c) => [c.text, c.held])).toEqual([
      ['Results carry tokens.', true],
      ['Bananas are yellow and delicious.', false],
    ]);
    expect(strict.verdict).toBe('partially_verified');
  });

  it.each([
    [0, 0, 'unverified'],
    [3, 0, 'unverified'],
    [3, 2, 'partially_verified'],
    [3, 3, 'verified'],
  ] as const)('verdict for %i checked, %i held is %s', (checked, held, verdict) => {
    expect(verdictOf(checked, held)).toBe(verdict);
  });
});

describe('plans', () => {
  it.each([
    ['{"plan": ["Fetch the data", "Sum it"]}', ['Fetch the data', 'Sum it']],
    [
      '```json\n{"steps": [{"description": "Read sales.csv", "tool": "file_operations"}, {"tool": "calculator"}]}\n```',
      ['Read sales.csv (file_operations)', 'calculator'],
    ],
    ['Plan:\n1. Read the file.\n2) Sum the column.\nStep 3: Report.', ['Read the file.', 'Sum the column.', 'Report.']],
    ['- first\n* second', ['first', 'second']],
    ['I would simply answer.', []],
    ['{"plan": [', []],
  ])('reads %j', (text, steps) => {
    expect(readPlan(text)).toEqual(steps);
  });

  it('batches calls by parallel_group only when fanning out', () => {
    const calls = [{ n: 1, group: 'a' }, { n: 2 }, { n: 3, group: 'a' }, { n: 4, group: 'b' }];
    expect(batches(calls, true).map((b) => b.map((c) => c.n))).toEqual([[1, 3], [2], [4]]);
    expect(batches(calls, false).map((b) => b.map((c) => c.n))).toEqual([[1], [2], [3], [4]]);
  });

  it('finds the security sections however they are marked up', () => {
    expect(missingSections('security_auditor', '## Threat Model\n...\n**Findings**\n...\n3. Remediation\n...')).toEqual([]);
    expect(missingSections('security_auditor', 'Findings: none.')).toEqual(['Threat model', 'Remediation']);
    expect(missingSections('general_task', 'anything')).toEqual([]);
  });
});

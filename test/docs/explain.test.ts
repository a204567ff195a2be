import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALIBRATION, FEATURES } from '../../src/docs/evidence.js';
import { explainTrace, renderExplanation } from '../../src/docs/explain.js';
import type { DocIndex } from '../../src/docs/index.js';
import { TUNING } from '../../src/docs/tuning.js';
import { ingestedIndex } from './helpers.js';

const GUIDE = `# Harbor guide

## Ports

Harbor listens on port 7070 by default. Set \`listenPort\` in harbor.toml to move it.

## Retries

A failed upload is retried three times, waiting two seconds between attempts. Set \`uploadRetries\` to change
the count.
`;

const RETRIES = `# Retries

Harbor retries failed uploads. The retry count is \`uploadRetries\`; the wait between attempts doubles each time.
`;

const INSTALL = `# Install

Install harbor with the package manager of your system, then run \`harbor init\` in an empty folder.
`;

let index: DocIndex;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ index, close } = await ingestedIndex('explain', { 'harbor/guide.md': GUIDE, 'harbor/retries.md': RETRIES, 'harbor/install.md': INSTALL }));
});
afterAll(() => close());

describe('explaining an answer from its trace', () => {
  it('shows the question as searched, each document score as the sum of its parts, and the decision as its features add up', async () => {
    const trace = await index.trace('How many times does harbor retry a failed upload?');
    expect(trace.result.grounded).toBe(true);
    const e = explainTrace(trace);
    // The question's words, rarest first (ties by term), each found in the documentation.
    expect(e.terms.map((t) => t.word)).toEqual(
      [...trace.retrieval!.terms]
        .filter((t) => !t.part)
        .sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1))
        .map((t) => t.surface),
    );
    expect(e.terms.every((t) => t.found)).toBe(true);
    // The ranking, best first, as the trace ranked it; each score is its parts' sum.
    expect(e.retrieval.ranked.map((d) => d.title)).toEqual(trace.ranked.slice(0, 5));
    for (const d of e.retrieval.ranked) expect(d.passage + d.second + d.title_bonus + d.link_bonus).toBeCloseTo(d.score, 2);
    const best = trace.retrieval!.documents[0]!;
    expect(e.retrieval.ranked[0]!.second).toBeCloseTo(TUNING.secondPassageShare * (best.chunks[1]?.score ?? 0), 3);
    expect(e.retrieval.documents).toBe(new Set(trace.retrieval!.candidates.map((c) => c.doc.id)).size);
    // The decision: the shipped model's features and weights, and the probability they add up to.
    const d = e.decision!;
    expect(d.features.map((f) => f.name)).toEqual([...FEATURES]);
    expect(d.features.map((f) => f.weight)).toEqual(CALIBRATION.answers.weights);
    expect(d.features.map((f) => f.value)).toEqual(trace.evidence!.values);
    const logOdds = d.features.reduce((s, f) => s + f.value * f.weight, d.bias);
    expect(Math.min(0.99, Math.max(0.01, 1 / (1 + Math.exp(-logOdds))))).toBeCloseTo(d.answers, 6);
    expect(d).toMatchObject({ by: 'model', refused: false, threshold: CALIBRATION.threshold, alternatives: 0 });
    expect(d.confidence).toBeCloseTo(trace.result.confidence, 2);
    expect(e.confidence).toBe(trace.result.confidence);
    expect(e.outcome).toBe(`answered: P(answers) ${d.answers.toFixed(2)} ≥ threshold ${CALIBRATION.threshold.toFixed(2)}`);

    const text = renderExplanation(e);
    expect(text.split('\n').filter((l) => /^\d\. /.test(l))).toEqual([
      '1. The question, as searched (rarest word first; IDF, and where the documentation lacks it):',
      `2. Retrieval: ${e.retrieval.passages} passages from ${e.retrieval.documents} documents; documents by score = best passage + second passage share + title bonus + link bonus:`,
      '3. Evidence (value × weight = what it adds to the log-odds that the documentation answers):',
      `4. Decision: ${e.outcome}.`,
      "5. Answer: the units quoted (score = the question's weight they name × their passage's weight; why chosen):",
    ]);
    const first = e.retrieval.ranked[0]!;
    expect(text).toContain(`   1. ${first.title} (${first.library})  ${first.score.toFixed(2)} = ${first.passage.toFixed(2)} + `);

    // The answer: the units it quotes, each found in the answer, the lead among them, with the words it names.
    const quotes = e.quotes!;
    expect(quotes.map((q) => q.text)).toEqual(trace.quotes!.map((q) => q.unit.text));
    for (const q of quotes) for (const line of q.text.split('\n')) expect(trace.result.answer).toContain(`> ${line}`.trimEnd());
    const lead = quotes.find((q) => q.why === 'lead')!;
    expect(quotes.filter((q) => q.why === 'lead')).toHaveLength(1);
    // The lead is the best document's, so that sources[0] is the document quoted first.
    expect(lead.title).toBe(trace.ranked[0]);
    expect(lead.title).toBe(trace.result.sources[0]!.title);
    expect(lead.covers.length).toBeGreaterThan(0);
    expect(text).toContain(`   lead            ${lead.score.toFixed(3)}  ${lead.kind} of ${lead.title}`);
    // Each unit with why it was chosen: the lead, the unit after it, the best unit of a further passage that
    // covers the question about as well, and one that adds a word not quoted yet.
    expect(quotes.map((q) => [q.why, q.title, q.text])).toEqual([
      ['lead', 'harbor/retries.md', 'Harbor retries failed uploads.'],
      ['continuation', 'harbor/retries.md', 'The retry count is `uploadRetries`; the wait between attempts doubles each time.'],
      ['further passage', 'harbor/guide.md', 'A failed upload is retried three times, waiting two seconds between attempts.'],
      ['adds words', 'harbor/guide.md', 'Set `uploadRetries` to change the count.'],
    ]);
  });

  it('names what refused: a word the documentation lacks weighs in the model; a missing name refuses before it', async () => {
    const absent = explainTrace(await index.trace('How do I encrypt harbor uploads with kubernetes secrets?'));
    expect(absent.terms.filter((t) => !t.found).map((t) => t.word)).toEqual(['encrypt', 'kubernetes', 'secrets']);
    expect(absent.decision).toMatchObject({ by: 'model', refused: true });
    expect(absent.outcome).toMatch(/^refused: P\(answers\) 0\.\d\d < threshold 0\.\d\d$/);
    const missing = absent.decision!.features.find((f) => f.name === 'absent_nouns')!;
    expect(missing.value * missing.weight).toBeLessThan(0);

    const named = explainTrace(await index.trace('How do I set `uploadTimeout` in harbor?'));
    expect(named.missingNames).toEqual(['`uploadTimeout`']);
    expect(named.decision).toMatchObject({ by: 'missing-name', refused: true });
    expect(named.outcome).toBe('refused: the documentation never mentions `uploadTimeout`');
    // A refusal quotes nothing.
    expect([absent.quotes, named.quotes]).toEqual([undefined, undefined]);
    expect(renderExplanation(named)).not.toContain('5. Answer');
    expect(renderExplanation(named)).toContain('   Named but never mentioned: `uploadTimeout`');
    // The confidence shown is the one the result reports: a missing name caps it, whatever the model says.
    expect(named.confidence).toBeLessThanOrEqual(CALIBRATION.missingIdentifier);
    expect(renderExplanation(named)).toContain(`   Confidence reported: ${Math.round(named.confidence * 100)}%.`);
  });

  it('reads a refusal by a model that wrote the answer after the decision, and shows the confidence given', async () => {
    const trace = await index.trace('How many times does harbor retry a failed upload?');
    const declined = { grounded: false, sources: trace.result.sources, confidence: 0.05, reason: 'the model found no answer' };
    const e = explainTrace(trace, { result: declined });
    expect(e.decision).toMatchObject({ by: 'model', refused: false });
    expect(e.outcome).toMatch(
      /^answered: P\(answers\) 0\.\d\d ≥ threshold 0\.\d\d; then refused: the language model that wrote the answer found none in the passages$/,
    );
    expect(e.confidence).toBe(0.05);
    // What was given is not the quotes: none are shown.
    expect(e.quotes).toBeUndefined();
    expect(explainTrace(trace, { result: { ...trace.result, answer: 'Three times.' } }).quotes).toBeUndefined();
    expect(explainTrace(trace, { result: trace.result }).outcome).toMatch(/^answered: /);
    expect(explainTrace(trace, { result: { ...trace.result } }).quotes).toHaveLength(trace.quotes!.length);
  });

  it('reads an answer a model wrote where the evidence alone would have refused', async () => {
    const trace = await index.trace('How do I encrypt harbor uploads with kubernetes secrets?');
    const written = { grounded: true, answer: 'The passages say how uploads are retried [1].', sources: trace.result.sources, confidence: 0.2 };
    const e = explainTrace(trace, { result: written });
    expect(e.decision).toMatchObject({ by: 'model', refused: true });
    expect(e.outcome).toMatch(
      /^refused: P\(answers\) 0\.\d\d < threshold 0\.\d\d; then answered: the language model that read the passages answered from them$/,
    );
    expect(e.quotes).toBeUndefined();
    // As the index itself reports it, when it asks the model.
    const asked = await index.trace('How do I encrypt harbor uploads with kubernetes secrets?', {
      complete: async () => 'Uploads are retried three times [1].',
    });
    expect(asked.result).toMatchObject({ grounded: true, answer: 'Uploads are retried three times [1].' });
    expect(asked.decision).toMatchObject({ by: 'model-answered', refused: false });
    expect(explainTrace(asked).outcome).toMatch(
      /^answered: P\(answers\) 0\.\d\d < threshold 0\.\d\d, but the model that read the passages answered from them$/,
    );
  });

  it('marks the words of an aside, which weigh less in the evidence', async () => {
    const e = explainTrace(await index.trace('Our uploads go through a flaky VPN. How many times does harbor retry a failed upload?'));
    expect(e.terms.filter((t) => t.aside).map((t) => t.word)).toEqual(expect.arrayContaining(['VPN', 'flaky']));
    expect(e.terms.find((t) => t.word === 'retry')!.aside).toBe(false);
  });
});

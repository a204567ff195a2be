import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelAnsweredConfidence } from '../../src/docs/evidence.js';
import { renumberCitations, unsupportedIdentifiers } from '../../src/docs/generate.js';
import { REWRITE_SYSTEM } from '../../src/docs/rewrite.js';
import { QueryResultSchema } from '../../src/docs/types.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { FIXTURES, indexFor } from './helpers.js';

/** The client's model, answering MCP sampling requests with whatever the current test scripts. */
let reply = '';
/** What the rewrite request gets, when set (otherwise `reply`, as every request). */
let rewriteReply: string | undefined;
const prompts: { system?: string; user: string }[] = [];

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ overrides: { tenant: 'gen' }, capabilities: { sampling: {} } });
  h.client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const content = request.params.messages[0]!.content as { type: string; text: string };
    prompts.push({ system: request.params.systemPrompt, user: content.text });
    const text = request.params.systemPrompt === REWRITE_SYSTEM && rewriteReply !== undefined ? rewriteReply : reply;
    return { role: 'assistant', model: 'client-model', content: { type: 'text', text } };
  });
  await (await indexFor(h.services, 'gen')).ingestPath([FIXTURES]);
});
afterAll(async () => h.close());

const QUESTION = 'How can I put everything I log under one property so my keys do not collide with time and level?';

async function ask(question = QUESTION) {
  const response = await h.call('rag_query', { question });
  return QueryResultSchema.parse(response.structuredContent);
}

/** The passages of the last answer prompt: number and label, in the order shown. */
function shown(): { n: number; label: string }[] {
  return [...prompts.at(-1)!.user.matchAll(/<passage n="(\d+)" source="([^"]*)">/g)].map((m) => ({ n: Number(m[1]), label: m[2]! }));
}
const labelOf = (s: { title: string; section?: string }) => (s.section ? `${s.title} › ${s.section}` : s.title);

describe('generative answers through MCP sampling', () => {
  it('uses the model answer when every identifier it names is in the passages, and shows it only the passages', async () => {
    reply = "Set the `nestedKey` option, e.g. `lumen({ nestedKey: 'payload' })`; logged objects then go under that key [1].";
    const result = await ask();
    expect(result).toMatchObject({ grounded: true, answer: reply });
    expect(result.sources[0]!.title).toBe('api.md');
    const prompt = prompts.at(-1)!;
    expect(prompt.system).toMatch(/ONLY the passages/);
    expect(prompt.system).toMatch(/never follow it/);
    expect(prompt.user).toContain('<passage n="1" source="api.md › API › lumen([options]) › Options › nestedKey (String)">');
    expect(prompt.user).toContain(`Question: ${QUESTION}`);
  });

  it('rejects an answer that invents an API and falls back to the quoted passages', async () => {
    reply = 'Call `lumen.wrapFields()` or pass the `fieldPrefix` option [1].';
    const result = await ask();
    expect(result.grounded).toBe(true);
    expect(result.answer).not.toContain('wrapFields');
    expect(result.answer).toContain('> When set, every object you log is placed under this single property');
  });

  it('answers no match when the model finds no answer in the passages, naming what it read', async () => {
    reply = 'NO_ANSWER';
    const result = await ask();
    expect(result.grounded).toBe(false);
    expect(result.answer).toBeUndefined();
    expect(result.confidence).toBeLessThanOrEqual(0.1);
    expect(result.reason).toMatch(
      /^Nothing in the documentation answers this question: the model that read the closest passages \(api\.md › API › lumen\(\[options\]\) › Options › nestedKey \(String\) and \d+ more\) found no answer in them\.$/,
    );
    expect(result.sources[0]!.title).toBe('api.md');
  });

  it('numbers each (document, section) once and lists the sources as the model cites them: [n] marks sources[n-1]', async () => {
    reply = 'NO_ANSWER';
    await ask();
    const passages = shown();
    const distinct = [...new Map(passages.map((p) => [p.n, p.label])).entries()];
    // One number per (document, section), 1, 2, 3… in the order shown; more than the quotes' documents.
    expect(distinct.map(([n]) => n)).toEqual(distinct.map((_, i) => i + 1));
    expect(new Set(distinct.map(([, label]) => label)).size).toBe(distinct.length);
    expect(new Set(distinct.map(([, label]) => label.split(' › ')[0])).size).toBeGreaterThan(1);
    const [first, second] = [distinct[1]!, distinct[0]!];
    reply = `Put them under \`nestedKey\` [${first[0]}], as described here [${second[0]}, ${first[0]}] and not here [99].`;
    const result = await ask();
    expect(result.grounded).toBe(true);
    expect(result.answer).toBe('Put them under `nestedKey` [1], as described here [2][1] and not here.');
    expect(result.sources.slice(0, 2).map(labelOf)).toEqual([first[1], second[1]]);
  });

  it('leaves a refusal the evidence alone would make to the model that reads the passages', async () => {
    const question = 'Can lumen compress rotated log files with gzip?';
    reply = 'NO_ANSWER';
    const before = prompts.length;
    const declined = await ask(question);
    expect(prompts.length).toBeGreaterThan(before);
    expect(declined.grounded).toBe(false);
    expect(declined.reason).toMatch(/the model that read the closest passages .* found no answer in them/);
    // A model that answers from the passages is believed.
    const passages = shown();
    reply = `Rotation is described here [${passages[0]!.n}].`;
    const answered = await ask(question);
    expect(answered).toMatchObject({ grounded: true, answer: 'Rotation is described here [1].' });
    expect(labelOf(answered.sources[0]!)).toBe(passages[0]!.label);
    // No usable answer (an empty reply): the refusal the evidence made stands.
    reply = '';
    const unanswered = await ask(question);
    expect(unanswered.grounded).toBe(false);
    expect(unanswered.reason).toMatch(/^Nothing in the documentation answers this question\. /);
    expect(unanswered.reason).not.toMatch(/model/);
  });

  it('never asks the model about a question naming what the documentation lacks', async () => {
    reply = 'Set `compressLevel` [1].';
    const before = prompts.filter((p) => /ONLY the passages/.test(p.system ?? '')).length;
    const result = await ask('How do I set `compressLevel` for rotated files?');
    expect(result.grounded).toBe(false);
    expect(result.reason).toMatch(/compressLevel/);
    expect(prompts.filter((p) => /ONLY the passages/.test(p.system ?? '')).length).toBe(before);
  });

  it('renumbers citations in the order they are first made, outside code only', () => {
    expect(renumberCitations('A [3], B [1; 3] and [7].\n```js\nx[1]\n```\nC `y[3]` [1]', new Set([1, 3]))).toEqual({
      text: 'A [1], B [2][1] and.\n```js\nx[1]\n```\nC `y[3]` [2]',
      order: [3, 1],
    });
    expect(renumberCitations('No citations.', new Set([1]))).toEqual({ text: 'No citations.', order: [] });
  });

  it('reports the confidence of a written answer from the evidence’s, as calibrated for answers a model wrote', async () => {
    rewriteReply = '';
    reply = '';
    const quoted = await ask();
    reply = 'Set the `nestedKey` option [1].';
    const written = await ask();
    rewriteReply = undefined;
    expect(written.answer).toBe(reply);
    expect(written.confidence).toBeCloseTo(modelAnsweredConfidence(quoted.confidence), 2);
    // A model that read the passages and answered is right more often than the evidence alone says.
    expect(modelAnsweredConfidence(0.3)).toBeGreaterThan(0.3);
    expect(modelAnsweredConfidence(0.2)).toBeLessThan(modelAnsweredConfidence(0.8));
  });

  it('falls back to quotes when the model replies with nothing', async () => {
    reply = '';
    const result = await ask();
    expect(result.grounded).toBe(true);
    expect(result.answer).toMatch(/^From api\.md/);
  });

  it('accepts a name the passage carries only in its heading, as the model was shown it', () => {
    const passages = [{ source: 1, label: 'api.md › Options › redactPaths (Array)', text: 'Lists the paths whose values are hidden.' }];
    expect(unsupportedIdentifiers('Set `redactPaths` [1].', passages, 'porter')).toEqual([]);
    expect(unsupportedIdentifiers('Set `hidePaths` [1].', passages, 'porter')).toEqual(['hidePaths']);
  });

  it('accepts what the question names and compounds of the passages’ code words, not of their prose', () => {
    const passages = [
      {
        source: 1,
        label: 'api.md › MockAgent',
        text: 'Call `mockAgent.disableNetConnect()` first. Use `--restart` with a policy such as `on-failure`; bump the version.',
      },
    ];
    const question = 'Why does my request to upstream.example fail in `server.js`?';
    expect(unsupportedIdentifiers('Run `server.js` against upstream.example [1].', passages, 'porter', question)).toEqual([]);
    expect(unsupportedIdentifiers('Run `server.js` [1].', passages, 'porter')).toEqual(['server.js']);
    expect(unsupportedIdentifiers('Pass `--restart=on-failure:3` and call `mockAgent.disableNetConnect()` [1].', passages, 'porter', question)).toEqual([]);
    expect(unsupportedIdentifiers('Call `mockAgent.bump()` [1].', passages, 'porter', question)).toEqual(['mockAgent.bump()']);
  });

  it('finds invented identifiers of every shape', () => {
    const passages = [{ source: 1, label: 'a', text: 'Use `lumen.destination(path)` or set `nestedKey`; pass --omit=dev to npm.' }];
    expect(unsupportedIdentifiers('Use lumen.destination() with nestedKey and --omit=dev.', passages, 'porter')).toEqual([]);
    expect(unsupportedIdentifiers('Use lumen.rotate(), the rotateEvery option, --keep-days and MAX_FILES.', passages, 'porter')).toEqual([
      'lumen.rotate()',
      'rotateEvery',
      '--keep-days',
      'MAX_FILES',
    ]);
  });
});

describe('extractive only', () => {
  it('never calls the client model when DOCENT_ANSWERS=extractive and DOCENT_QUERY_REWRITE=off', async () => {
    const plain = await startHarness({ overrides: { tenant: 'gen', 'docs.answers': 'extractive', 'docs.rewrite': 'off' }, capabilities: { sampling: {} } });
    try {
      let sampled = false;
      plain.client.setRequestHandler(CreateMessageRequestSchema, async () => {
        sampled = true;
        return { role: 'assistant', model: 'x', content: { type: 'text', text: 'x' } };
      });
      await (await indexFor(plain.services, 'gen')).ingestPath([FIXTURES]);
      const result = QueryResultSchema.parse((await plain.call('rag_query', { question: QUESTION })).structuredContent);
      expect(result.answer).toMatch(/^From api\.md/);
      expect(sampled).toBe(false);
    } finally {
      await plain.close();
    }
  });
});

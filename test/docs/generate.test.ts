import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsupportedIdentifiers } from '../../src/docs/generate.js';
import { QueryResultSchema } from '../../src/docs/types.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { FIXTURES, indexFor } from './helpers.js';

/** The client's model, answering MCP sampling requests with whatever the current test scripts. */
let reply = '';
const prompts: { system?: string; user: string }[] = [];

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ overrides: { tenant: 'gen' }, capabilities: { sampling: {} } });
  h.client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const content = request.params.messages[0]!.content as { type: string; text: string };
    prompts.push({ system: request.params.systemPrompt, user: content.text });
    return { role: 'assistant', model: 'client-model', content: { type: 'text', text: reply } };
  });
  await (await indexFor(h.services, 'gen')).ingestPath([FIXTURES]);
});
afterAll(async () => h.close());

const QUESTION = 'How can I put everything I log under one property so my keys do not collide with time and level?';

async function ask() {
  const response = await h.call('rag_query', { question: QUESTION });
  return QueryResultSchema.parse(response.structuredContent);
}

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

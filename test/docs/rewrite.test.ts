import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REWRITE_SYSTEM } from '../../src/docs/rewrite.js';
import { QueryResultSchema } from '../../src/docs/types.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { FIXTURES, indexFor } from './helpers.js';
import { startLlmFixture } from '../agents/llm-fixture.js';

/**
 * The calling agent's model, scripted: it answers rewrite requests (recognised by their system prompt) with
 * `rewrite`, or never when `stall` is set, and records what it was asked.
 */
let rewrite = '';
/** What the model answers the answer-writing prompt with (when answers are not quoted). */
let answer = '';
let stall = false;
const asked: { system?: string; user: string; maxTokens: number }[] = [];

/**
 * Asked in the user's words: none of them names the option that answers (`redactPaths`), and searched as
 * asked the upgrade guide ranks first.
 */
const QUESTION = 'Can the upgrade hide sensitive values in the output?';
/** The same need, with words the documentation mostly lacks ("passwords"). */
const PARAPHRASE = 'How do I keep passwords out of what gets written?';
const ANSWER = 'Set the `redactPaths` option: the values at those paths are replaced by a placeholder [1].';

async function withHarness(overrides: Record<string, unknown>, answers: 'extractive' | 'model' = 'extractive'): Promise<Harness> {
  const h = await startHarness({
    overrides: { tenant: 'rw', ...(answers === 'extractive' ? { 'docs.answers': 'extractive' } : {}), ...overrides },
    capabilities: { sampling: {} },
  });
  h.client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const content = request.params.messages[0]!.content as { type: string; text: string };
    asked.push({ system: request.params.systemPrompt, user: content.text, maxTokens: request.params.maxTokens });
    if (stall) await new Promise(() => {});
    const text = request.params.systemPrompt === REWRITE_SYSTEM ? rewrite : answer;
    return { role: 'assistant', model: 'client-model', content: { type: 'text', text } };
  });
  await (await indexFor(h.services, 'rw')).ingestPath([FIXTURES]);
  return h;
}

let h: Harness;
beforeAll(async () => {
  h = await withHarness({ 'docs.rewriteTimeoutMs': 300 });
});
afterAll(async () => h.close());

async function ask(harness: Harness, args: Record<string, unknown> = {}) {
  const response = await harness.call('rag_query', { question: QUESTION, ...args });
  expect(response.isError).toBeFalsy();
  return QueryResultSchema.parse(response.structuredContent);
}

describe('query rewrite through the calling agent’s model', () => {
  it('asks the model for the documentation’s wording, briefly, and searches it beside the question', async () => {
    rewrite = 'redactPaths, placeholder, hidden values';
    stall = false;
    asked.length = 0;
    const result = await ask(h);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ system: REWRITE_SYSTEM, user: `Question: ${QUESTION}` });
    expect(asked[0]!.maxTokens).toBeLessThanOrEqual(100);
    expect(result.sources[0]!.title).toBe('api.md');
    // Found by the rewrite's words, and answered: they move the question's own evidence half of the way.
    expect(result.grounded).toBe(true);
    expect(result.answer).toMatch(/^From api\.md › API › lumen\(\[options\]\) › Options › redactPaths \(Array\) \[1\]:/);
  });

  it('still refuses what the documentation does not cover when the model names the product’s words', async () => {
    rewrite = 'log level, logger options, lumen';
    stall = false;
    const result = await ask(h, { question: 'Can lumen send its logs to a Kafka topic?' });
    expect(result.grounded).toBe(false);
    expect(result.reason).toContain('"Kafka"');
  });

  it('searches the question as asked when the model does not answer in time', async () => {
    stall = true;
    asked.length = 0;
    const result = await ask(h);
    expect(asked).toHaveLength(1);
    expect(result.sources[0]!.title).toBe('guides/upgrade.html');
  });

  it('asks nothing when DOCENT_QUERY_REWRITE=off', async () => {
    const off = await withHarness({ 'docs.rewrite': 'off' });
    try {
      asked.length = 0;
      stall = false;
      await ask(off);
      expect(asked).toHaveLength(0);
    } finally {
      await off.close();
    }
  });

  it('lets the rewrite’s reading decide when the model also writes the answer, which may still decline', async () => {
    const model = await withHarness({ 'docs.rewriteTimeoutMs': 300 }, 'model');
    try {
      stall = false;
      rewrite = 'redactPaths, placeholder, hidden values';
      answer = ANSWER;
      asked.length = 0;
      const answered = await ask(model, { question: PARAPHRASE });
      expect(asked.map((a) => a.system === REWRITE_SYSTEM)).toEqual([true, false]);
      expect(answered).toMatchObject({ grounded: true, answer: ANSWER });
      expect(answered.sources[0]!.title).toBe('api.md');
      answer = 'NO_ANSWER';
      const declined = await ask(model, { question: PARAPHRASE });
      expect(declined.grounded).toBe(false);
      expect(declined.reason).toMatch(/found no answer in them/);
    } finally {
      await model.close();
    }
  });
});

describe('query rewrite through the configured chat endpoint', () => {
  it('asks the endpoint for the documentation’s wording when one is configured, not the client', async () => {
    const llm = await startLlmFixture();
    const endpoint = await withHarness({ 'llm.baseUrl': llm.baseUrl, 'llm.model': 'fixture-model', 'docs.rewriteTimeoutMs': 2000 });
    try {
      llm.script((body) =>
        body.messages[0]?.content === REWRITE_SYSTEM
          ? { content: 'redactPaths, placeholder, hidden values' }
          : { status: 500, error: { message: 'unexpected' } },
      );
      asked.length = 0;
      const result = await ask(endpoint);
      expect(asked).toHaveLength(0);
      expect(llm.bodies).toHaveLength(1);
      expect(llm.bodies[0]!.messages.at(-1)).toMatchObject({ role: 'user', content: `Question: ${QUESTION}` });
      expect(llm.bodies[0]!.max_tokens).toBeLessThanOrEqual(100);
      expect(result.sources[0]!.title).toBe('api.md');
      // An endpoint that fails leaves the question searched as asked.
      llm.script(() => ({ status: 503, error: { message: 'overloaded' } }));
      const asAsked = await ask(endpoint);
      expect(asAsked.sources[0]!.title).toBe('guides/upgrade.html');
    } finally {
      await endpoint.close();
      await llm.close();
    }
  });
});

describe('keywords from the caller', () => {
  it('widens the search with the terms the caller says the documentation uses', async () => {
    stall = false;
    rewrite = '';
    rewrite = '';
    const result = await ask(h, { keywords: ['redactPaths', 'placeholder'] });
    expect(result.sources[0]!.title).toBe('api.md');
    expect(result.answer).toContain('redactPaths');
  });

  it('counts the keywords the documentation lacks against an answer', async () => {
    rewrite = '';
    const result = await ask(h, {
      question: 'How do I center a div both horizontally and vertically with CSS flexbox?',
      keywords: ['justify-content', 'align-items', 'flexbox'],
    });
    expect(result.grounded).toBe(false);
    expect(result.reason).toContain('"flexbox"');
  });

  it('refuses keywords that are not a short list of short terms', async () => {
    const tooMany = await h.call('rag_query', { question: QUESTION, keywords: Array.from({ length: 13 }, (_, i) => `k${i}`) });
    expect(tooMany.isError).toBe(true);
    const empty = await h.call('rag_query', { question: QUESTION, keywords: [''] });
    expect(empty.isError).toBe(true);
    const long = await h.call('rag_query', { question: QUESTION, keywords: ['x'.repeat(81)] });
    expect(long.isError).toBe(true);
    expect(JSON.stringify(long.content)).toMatch(/keywords/);
  });
});

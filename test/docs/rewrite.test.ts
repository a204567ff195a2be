import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REWRITE_SYSTEM } from '../../src/docs/rewrite.js';
import { QueryResultSchema } from '../../src/docs/types.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { FIXTURES, indexFor } from './helpers.js';

/**
 * The calling agent's model, scripted: it answers rewrite requests (recognised by their system prompt) with
 * `rewrite`, or never when `stall` is set, and records what it was asked.
 */
let rewrite = '';
let stall = false;
const asked: { system?: string; user: string; maxTokens: number }[] = [];

/** Asked in the user's words: none of them names the option that answers (`redactPaths`). */
const QUESTION = 'How do I keep passwords out of what gets written?';

async function withHarness(overrides: Record<string, unknown>): Promise<Harness> {
  const h = await startHarness({ overrides: { tenant: 'rw', 'docs.answers': 'extractive', ...overrides }, capabilities: { sampling: {} } });
  h.client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const content = request.params.messages[0]!.content as { type: string; text: string };
    asked.push({ system: request.params.systemPrompt, user: content.text, maxTokens: request.params.maxTokens });
    if (stall) await new Promise(() => {});
    return { role: 'assistant', model: 'client-model', content: { type: 'text', text: rewrite } };
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
    expect(result.grounded).toBe(true);
    expect(result.sources[0]!.title).toBe('api.md');
    expect(result.answer).toContain('redactPaths');
  });

  it('searches the question as asked when the model does not answer in time', async () => {
    stall = true;
    asked.length = 0;
    const result = await ask(h);
    expect(asked).toHaveLength(1);
    expect(result.sources.length).toBeGreaterThan(0);
    expect(result.answer ?? '').not.toContain('redactPaths');
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
});

describe('keywords from the caller', () => {
  it('widens the search with the terms the caller says the documentation uses', async () => {
    stall = false;
    rewrite = '';
    const result = await ask(h, { keywords: ['redactPaths', 'placeholder'] });
    expect(result.sources[0]!.title).toBe('api.md');
    expect(result.answer).toContain('redactPaths');
  });

  it('refuses keywords that are not a short list of short terms', async () => {
    const tooMany = await h.call('rag_query', { question: QUESTION, keywords: Array.from({ length: 13 }, (_, i) => `k${i}`) });
    expect(tooMany.isError).toBe(true);
    const empty = await h.call('rag_query', { question: QUESTION, keywords: [''] });
    expect(empty.isError).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { indexFor } from './helpers.js';

/**
 * A stand-in embedding model behind the OpenAI embeddings API shape: words of one concept share a
 * dimension (so "money back" lands near "reimbursement"), other words hash into the remaining ones.
 */
const CONCEPTS = [
  ['refund', 'reimbursement', 'money', 'back', 'repaid'],
  ['car', 'automobile', 'vehicle'],
];
const DIM = 32;
function embed(text: string): number[] {
  const v = new Array<number>(DIM).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const concept = CONCEPTS.findIndex((c) => c.includes(word));
    let i = concept;
    if (i < 0) {
      let h = 0;
      for (const ch of word) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
      i = CONCEPTS.length + (h % (DIM - CONCEPTS.length));
    }
    v[i]! += concept >= 0 ? 3 : 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

let server: FixtureServer;
const calls: { model: string; inputs: string[] }[] = [];
beforeAll(async () => {
  server = await startFixtureServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') return sendJson(res, 404, { error: { message: 'not found' } });
    const body = JSON.parse(req.body) as { model: string; input: string[] };
    calls.push({ model: body.model, inputs: body.input });
    sendJson(res, 200, {
      object: 'list',
      data: body.input.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
      model: body.model,
      usage: { prompt_tokens: 1, total_tokens: 1 },
    });
  });
});
afterAll(async () => server.close());

const DOCS = [
  { title: 'refunds.md', content: '# Refunds\n\nA reimbursement is issued within five business days of the return.' },
  { title: 'shipping.md', content: '# Shipping\n\nParcels leave the warehouse every weekday at noon by courier.' },
  { title: 'warranty.md', content: '# Warranty\n\nThe warranty covers manufacturing defects for two years.' },
];

function harness(model: string, root?: string): Promise<Harness> {
  return startHarness({
    overrides: {
      tenant: 'shop',
      'embeddings.baseUrl': `${server.url}/v1`,
      'embeddings.model': model,
      'embeddings.apiKey': 'test-key',
      ...(root ? { dataDir: root } : {}),
    },
  });
}

describe('hybrid search with embeddings', () => {
  let h: Harness;
  afterAll(async () => h?.close());

  it('embeds chunks at ingest and fuses vector and full-text ranks at query time', async () => {
    h = await harness('fixture-embed');
    const index = await indexFor(h.services, 'shop');
    calls.length = 0;
    for (const doc of DOCS) await index.ingestDocument(doc);
    const embedded = calls.flatMap((c) => c.inputs);
    expect(calls.every((c) => c.model === 'fixture-embed')).toBe(true);
    expect(embedded).toEqual(expect.arrayContaining([expect.stringContaining('A reimbursement is issued within five business days')]));
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer test-key');

    // No word of this question occurs in refunds.md; only the vector side can find it.
    const trace = await index.trace('When will I get my money back?');
    expect(trace.ranked[0]).toBe('refunds.md');
    expect(calls.at(-1)!.inputs).toEqual(['When will I get my money back?']);

    // Scoped to one document set, the vector side searches that set's vectors only.
    await index.ingestDocument({ title: 'loans.md', content: '# Loans\n\nThe automobile loan is repaid in monthly instalments.' }, 'upload', 'cars');
    expect((await index.trace('When will I get my money back?', { library: 'cars' })).ranked).toEqual(['loans.md']);
    expect((await index.trace('When will I get my money back?', { library: 'default' })).ranked[0]).toBe('refunds.md');
  });

  it('never mixes vectors of two models: searches lexically until the next ingest re-embeds every chunk with the new one', async () => {
    const other = await harness('another-model', h.config.dataDir);
    try {
      calls.length = 0;
      const response = await other.call('rag_query', { question: 'How long does shipping take?' });
      expect(response.isError).toBeFalsy();
      expect(calls).toEqual([]);
      const index = await indexFor(other.services, 'shop');
      const progress: { done: number; total: number; title: string }[] = [];
      await index.ingestPath([], { onProgress: (p) => progress.push(p) });
      const reembedded = calls.filter((c) => c.model === 'another-model').flatMap((c) => c.inputs);
      expect(reembedded).toEqual(expect.arrayContaining([expect.stringContaining('A reimbursement is issued within five business days')]));
      expect(progress.at(-1)).toMatchObject({ title: '(embeddings, another-model)' });
      expect(progress.at(-1)!.done).toBe(progress.at(-1)!.total);
      calls.length = 0;
      expect((await index.trace('When will I get my money back?')).ranked[0]).toBe('refunds.md');
      expect(calls.map((c) => c.model)).toEqual(['another-model']);
    } finally {
      await other.close();
    }
  });

  it('gives vectors to documents ingested before embeddings were switched on', async () => {
    const lexical = await startHarness({ overrides: { tenant: 'shop' } });
    const dataDir = lexical.config.dataDir;
    await (await indexFor(lexical.services, 'shop')).ingestDocument(DOCS[0]!);
    await lexical.services.close();
    const hybrid = await harness('fixture-embed', dataDir);
    try {
      calls.length = 0;
      const index = await indexFor(hybrid.services, 'shop');
      await index.ingestDocument(DOCS[1]!);
      expect(calls.flatMap((c) => c.inputs).some((t) => t.includes('A reimbursement is issued'))).toBe(true);
      expect((await index.trace('When will I get my money back?')).ranked[0]).toBe('refunds.md');
    } finally {
      await hybrid.close();
      await lexical.close();
    }
  });
});

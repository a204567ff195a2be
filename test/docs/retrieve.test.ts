import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocIndex } from '../../src/docs/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { indexFor } from './helpers.js';

/**
 * A manual whose every command page carries the same configuration section (as generated CLI manuals do):
 * the copies must neither crowd the page that answers out of the candidate pool nor be scored as many
 * passages. And a page titled with an ordinary word must not win on that word alone.
 */
const SHARED =
  '## Configuration\n\nThe cache folder, registry URL, proxy and timeout settings are read from the config file. ' +
  'Every setting can also be passed as a flag. Settings in the project file override the user file.\n';
const COMMANDS = (
  'archive bundle check clean compose deploy doctor export fetch format graph import index inspect link lint login logout merge ' +
  'migrate mirror pack patch prune publish rebuild release rename report restore search serve shrink sign split sync tag trace verify watch'
).split(' ');
const pages = COMMANDS.map((name, i) => ({
  title: `commands/${name}.md`,
  content: `# ${name}\n\nRuns task number ${i} of the build.\n\n${SHARED}`,
}));
const answer = {
  title: 'guides/offline.md',
  content:
    '# Working offline\n\n## Cache and timeouts\n\nWhen the registry cannot be reached, the cache folder is used and the timeout setting decides how long to wait before falling back.\n',
};
const install = { title: 'commands/install.md', content: '# install\n\nInstalls the packages listed in the project file.\n' };

let h: Harness;
let index: DocIndex;
beforeAll(async () => {
  h = await startHarness({ overrides: { tenant: 'pool' } });
  index = await indexFor(h.services, 'pool');
  await index.ingestDocuments([...pages, answer, install]);
});
afterAll(async () => h.close());

describe('the candidate pool', () => {
  it('scores identical passages once, so twenty and more distinct documents are ranked, and the one that answers leads', async () => {
    const trace = await index.trace('How long does it wait on the registry before it falls back to the cache folder, and which timeout setting?');
    expect(trace.ranked[0]).toBe('guides/offline.md');
    const copies = trace.retrieval!.candidates.filter((c) => c.chunk.text.startsWith('The cache folder, registry URL'));
    expect(copies).toHaveLength(1);
    expect(copies[0]!.copies.length).toBeGreaterThanOrEqual(39);
  });

  it('credits a passage many pages carry to the page the question names, whichever copy the index returned first', async () => {
    for (const name of ['deploy', 'mirror', 'watch']) {
      const question = `Can ${name} pass the proxy setting as a flag instead of the config file?`;
      const trace = await index.trace(question);
      expect(trace.ranked[0]).toBe(`commands/${name}.md`);
      const shared = trace.retrieval!.candidates.find((c) => c.chunk.text.startsWith('The cache folder, registry URL'))!;
      expect(shared.doc.title).toBe(`commands/${name}.md`);
      // As that page's own passage: under its heading path, not the first copy's.
      expect(shared.chunk.section).toBe(`${name} › Configuration`);
      expect(shared.copies).not.toContain(shared.doc.id);
      expect(shared.copies.length).toBeGreaterThanOrEqual(39);
      expect((await index.query(question)).answer).toContain(`From commands/${name}.md`);
    }
  });

  it('does not change the answer with top_k: top_k widens the sources only', async () => {
    const question = 'How long does install wait on the registry before falling back to the cache?';
    const one = await index.query(question, { topK: 1 });
    const twenty = await index.query(question, { topK: 20 });
    expect(twenty.answer).toBe(one.answer);
    expect(one.sources).toHaveLength(1);
    expect(twenty.sources.length).toBeGreaterThan(1);
  });
});

describe('configuration keys', () => {
  it('refuses a kebab-case key the documentation never names, and answers one it writes only in an example', async () => {
    const keys = await indexFor(h.services, 'keys');
    await keys.ingestDocuments([
      {
        title: 'reference/config.md',
        content:
          '# Configuration\n\n## [net]\n\n### net.retry\n\nHow many times a failed download is retried. Default: 3.\n\n' +
          '## [http]\n\nSettings of the HTTP client, for example:\n\n```toml\n[http]\nproxy-cainfo = "/etc/ca.pem"\n```\n\nThe certificate authority file checks the proxy.\n',
      },
    ]);
    const missing = await keys.query('How do I set net.max-parallel-downloads to limit downloads?');
    expect(missing.grounded).toBe(false);
    expect(missing.reason).toContain('`max-parallel-downloads` (asked as `net.max-parallel-downloads`)');
    // Written only as a TOML key under its table, never as `http.proxy-cainfo`: still the documentation's.
    const written = await keys.query('Which certificate authority file does http.proxy-cainfo set for the proxy?');
    expect(written.grounded).toBe(true);
    expect(written.sources[0]!.title).toBe('reference/config.md');
  });
});

describe('the title field', () => {
  it('gives no full title bonus to a page whose title shares only the product name every page uses', async () => {
    const titled = await indexFor(h.services, 'titles');
    const topics = 'cache watch plugins formats paths imports exports workers'.split(' ');
    await titled.ingestDocuments([
      ...topics.map((topic) => ({
        title: `guide/${topic}.md`,
        content: `# ${topic}\n\nLumen reads the ${topic} from its config file. Lumen keeps them between builds.\n`,
      })),
      { title: 'migration.md', content: '# Migrating to Lumen 4\n\nLumen 4 drops the old loader and writes every file as a module.\n' },
      { title: 'options.md', content: '# Options\n\n## banner\n\nA comment put at the top of each output file, such as a licence header.\n' },
    ]);
    const trace = await titled.trace('How do I put a licence comment at the top of every file Lumen writes?');
    const migration = trace.retrieval!.documents.find((d) => d.doc.title === 'migration.md')!;
    // "Lumen" is the only question word its title holds, and every page uses it: a sliver of the question.
    expect(migration.titleMatch).toBeGreaterThan(0);
    expect(migration.titleMatch).toBeLessThan(0.2);
    expect(trace.ranked[0]).toBe('options.md');
  });
});

describe('a document’s second passage', () => {
  it('counts in full for question words its best passage lacks, and at a floor for the same words again', async () => {
    const pages = await indexFor(h.services, 'second');
    await pages.ingestDocuments([
      {
        title: 'tutorial.md',
        content:
          '# Tutorial\n\n## Config files\n\nCreate `rollup.config.mjs` in the project root; the config file is read with --config.\n\n' +
          '## More config files\n\nA second config file, `rollup.config.dev.mjs`, is read with --config too.\n',
      },
      {
        title: 'cli.md',
        content:
          '# CLI\n\n## Config files\n\nThe config file `rollup.config.mjs` is an ES module: __dirname is not defined there.\n\n' +
          '## Current directory\n\nBuild an absolute path with fileURLToPath and import.meta.url instead.\n',
      },
    ]);
    const trace = await pages.trace('__dirname is not defined in my rollup.config.mjs config file; how do I build an absolute path instead?');
    const doc = (title: string) => trace.retrieval!.documents.find((d) => d.doc.title === title)!;
    const [tutorial, cli] = [doc('tutorial.md'), doc('cli.md')];
    // The tutorial's second passage repeats its first's words: it counts at (about) the floor.
    expect(tutorial.parts.second / (0.3 * tutorial.chunks[1]!.score)).toBeLessThan(0.8);
    // The CLI page's second passage holds the words its first lacks (absolute, path): in full.
    expect(cli.parts.second / (0.3 * cli.chunks[1]!.score)).toBeGreaterThan(0.95);
    expect(trace.ranked[0]).toBe('cli.md');
  });
});

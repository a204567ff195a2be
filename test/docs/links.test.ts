import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelKey, linksOf, linkTarget, pageKey } from '../../src/docs/links.js';
import { parseDocument } from '../../src/docs/parse.js';
import { inboundLinks } from '../../src/docs/stats.js';
import type { DocumentRow } from '../../src/storage/chunks.js';
import type { DocIndex } from '../../src/docs/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { documentRow, indexFor, ingestedIndex } from './helpers.js';

describe('page keys', () => {
  it('names a page the same with or without its extension, directory page or slashes', () => {
    expect(pageKey('reference/config.md')).toBe('reference/config');
    expect(pageKey('/reference/config.html')).toBe('reference/config');
    expect(pageKey('reference/config/')).toBe('reference/config');
    expect(pageKey('guide/index.md')).toBe('guide');
    expect(pageKey('guide/README.md')).toBe('guide');
    expect(pageKey('./Guide/Getting-Started.MDX')).toBe('guide/getting-started');
  });
});

describe('link targets', () => {
  it('resolves a relative target against the linking page and drops its fragment and query', () => {
    expect(linkTarget('../reference/config.md#httpproxy', 'guide/proxies.md')).toBe('reference/config');
    expect(linkTarget('profiles.md?tab=1', 'reference/manifest.md')).toBe('reference/profiles');
    expect(linkTarget('/docs/commands/install/', 'guide/start.md')).toBe('docs/commands/install');
    expect(linkTarget('Server%20Options.md', 'Reference/Routes.md')).toBe('reference/server options');
  });

  it('ignores links out of the documentation and within the page', () => {
    expect(linkTarget('https://example.com/docs/config', 'guide/a.md')).toBeUndefined();
    expect(linkTarget('mailto:team@example.com', 'guide/a.md')).toBeUndefined();
    expect(linkTarget('#options', 'guide/a.md')).toBeUndefined();
    expect(linkTarget('a.md#options', 'guide/a.md')).toBeUndefined();
  });

  it('resolves an address on the site a page was fetched from, and nothing on another', () => {
    const url = 'https://docs.example.com/guide/start';
    expect(linkTarget('https://docs.example.com/reference/config#proxy', 'Getting started', url)).toBe('reference/config');
    expect(linkTarget('/reference/config', 'Getting started', url)).toBe('reference/config');
    expect(linkTarget('https://other.example.com/reference/config', 'Getting started', url)).toBeUndefined();
    expect(linkTarget('../reference/config.html', 'Getting started', 'https://docs.example.com/guide/network/')).toBe('guide/reference/config');
    expect(linkTarget('sub/page.html', 'Getting started', 'https://docs.example.com/guide/start')).toBe('guide/sub/page');
    expect(linkTarget('#proxy', 'Getting started', url)).toBeUndefined();
    expect(linkTarget('start?tab=2', 'Getting started', url)).toBeUndefined();
  });
});

describe('a page’s links', () => {
  it('reads inline and reference links with their words, not images, each target and wording once', () => {
    const markdown = [
      'Set the [proxy settings](../reference/config.md#http) first, or see [`http.proxy`][proxy].',
      'Again: the [proxy settings](../reference/config.md).',
      '![diagram](../reference/diagram.md)',
      'Read the [FAQ] and [elsewhere](https://example.com/x).',
      '',
      '[proxy]: ../reference/config.md#httpproxy',
      '[faq]: ../faq.md',
    ].join('\n');
    expect(linksOf(markdown, 'guide/network.md')).toEqual([
      ['reference/config', 'proxy setting'],
      ['reference/config', 'http.proxy http proxy'],
      ['faq', 'faq'],
    ]);
  });

  it('resolves references through the definitions chunking reads: over two lines, in angle brackets, the first of a label, none in code', () => {
    const markdown = [
      'See [the token][pat], [the guide][guide] and [the proxy][proxy].',
      '',
      '[pat]:',
      '  ../reference/tokens.md',
      '[guide]: <../guide/start.md> "Start"',
      '[proxy]: ../reference/config.md',
      '[proxy]: ../reference/other.md',
      '',
      '```markdown',
      '[guide]: ../wrong.md',
      '```',
    ].join('\n');
    expect(linksOf(markdown, 'guide/network.md')).toEqual([
      ['reference/tokens', 'token'],
      ['guide/start', 'guide'],
      ['reference/config', 'proxy'],
    ]);
  });
});

describe('hostile pages', () => {
  it('reads runs of unclosed brackets, links and roles in one pass, finding no link in them', () => {
    // Each of these, about 200,000 characters, is read in under 6 ms (measured, not asserted: tests keep no clocks);
    // a pattern that retried from every bracket would take minutes.
    const pages = [
      '['.repeat(200_000),
      '[a]('.repeat(50_000),
      `[a](${'b'.repeat(200_000)}`,
      '[a]['.repeat(50_000),
      '[[a]'.repeat(50_000),
      '[a]( '.repeat(40_000),
    ];
    for (const page of pages) expect(linksOf(page, 'guide/a.md')).toEqual([]);
    for (const rst of [`:ref:\`${'a'.repeat(200_000)}`, '`a <'.repeat(50_000), '.. _'.repeat(50_000)])
      expect(linksOf('', 'guide/a.rst', undefined, [], rst)).toEqual([]);
    // A target that is not a valid URI escape is read as written, not thrown on.
    expect(linksOf('[bad](%E0%A4%A.md)', 'guide/a.md')).toEqual([['guide/%e0%a4%a', 'bad']]);
  });
});

describe('a reStructuredText page’s links', () => {
  it('reads :doc: and :ref: roles, hyperlinks with their target inline, and the labels it defines', () => {
    const rst = [
      '.. _security-xss:',
      '',
      'Cross-Site Scripting',
      '====================',
      '',
      'See :doc:`/patterns/javascript`, :doc:`the packaging guide <packages>`, :ref:`security-csp`,',
      ':ref:`how to escape <Escaping>`, `the config page <config.html#x>`__, `Jinja <https://jinja.example.org>`_',
      'and :class:`Flask`.',
    ].join('\n');
    expect(linksOf('', 'tutorial/index.rst', undefined, [], rst)).toEqual([
      ['patterns/javascript', 'pattern javascript'],
      ['tutorial/packages', 'packaging guide'],
      [labelKey('security-csp'), 'security csp'],
      [labelKey('escaping'), 'escape'],
      ['tutorial/config', 'config page'],
      [labelKey('security-xss'), ''],
    ]);
  });
});

describe('an HTML page’s links', () => {
  it('reads its anchors (not permalinks, not the navigation) though its body shows them as text', () => {
    const html = [
      '<html><head><title>Network</title></head><body>',
      '<nav><a href="../reference/other.html">Other</a></nav>',
      '<main><h1>Network <a href="#network">¶</a></h1>',
      '<p>Set the <a href="../reference/config.html#proxy">proxy settings</a>, see <a href="https://docs.example.com/faq/">the FAQ</a>.</p>',
      '</main></body></html>',
    ].join('');
    const parsed = parseDocument(html, 'html');
    expect(parsed.body).toContain('Set the proxy settings, see the FAQ.');
    expect(linksOf(parsed.body, 'guide/network.html', undefined, parsed.links)).toEqual([['reference/config', 'proxy setting']]);
    expect(linksOf(parsed.body, 'Network', 'https://docs.example.com/guide/network.html', parsed.links)).toEqual([
      ['reference/config', 'proxy setting'],
      ['faq', 'faq'],
    ]);
  });
});

function row(doc_id: string, links: [string, string][], library = 'docs', url: string | null = null): DocumentRow {
  return documentRow(doc_id, { library, url, links: JSON.stringify(links) });
}

describe('links credited to the page they point at', () => {
  it('finds the one page whose path ends as the target does, and credits nothing when two do', () => {
    const inbound = inboundLinks([
      row('book/reference/config.md', []),
      row('book/guide/config.md', []),
      row('book/reference/profiles.md', []),
      row('book/guide/start.md', [
        ['docs/reference/config', 'configuration file'],
        ['book/reference/profiles', 'release profile'],
        ['config', 'ambiguous'],
        ['book/guide/start', 'itself'],
        ['nowhere/else', 'missing'],
      ]),
      row('book/faq.md', [['book/reference/profiles', 'strip symbols']]),
    ]);
    expect([...inbound.keys()].sort()).toEqual(['book/reference/config.md', 'book/reference/profiles.md']);
    expect([...inbound.get('book/reference/config.md')!]).toEqual(['configuration file']);
    expect([...inbound.get('book/reference/profiles.md')!].sort()).toEqual(['release profile', 'strip symbols']);
  });

  it('keeps document sets apart, and reads a fetched page by its address', () => {
    const inbound = inboundLinks([
      row('a/config.md', [], 'alpha'),
      row('b/start.md', [['config', 'settings']], 'beta'),
      row('Configuration', [], 'gamma', 'https://docs.example.com/reference/config'),
      row('Start', [['reference/config', 'the settings page']], 'gamma', 'https://docs.example.com/start'),
    ]);
    expect([...inbound.keys()]).toEqual(['Configuration']);
  });

  it('credits a reference to a label to the one page that defines it', () => {
    const inbound = inboundLinks([
      row('security.rst', [[labelKey('security-xss'), '']]),
      row('a.rst', [[labelKey('dup'), '']]),
      row('b.rst', [[labelKey('dup'), '']]),
      row('templates.rst', [
        [labelKey('security-xss'), 'cross site scripting'],
        [labelKey('dup'), 'ambiguous'],
        [labelKey('undefined'), 'missing'],
      ]),
    ]);
    expect([...inbound]).toEqual([['security.rst', new Set(['cross site scripting'])]]);
  });

  it('reads rows written before links were kept, or with a damaged value, as having none', () => {
    const old = { ...row('a.md', []), links: '' };
    const damaged = { ...row('b.md', []), links: '{not json' };
    expect(inboundLinks([old, damaged, row('c.md', [['a', 'words']])]).get('a.md')).toEqual(new Set(['words']));
  });
});

describe('the link field in a real index', () => {
  let fixture: Awaited<ReturnType<typeof ingestedIndex>>;
  beforeAll(async () => {
    fixture = await ingestedIndex('links', {
      'reference/timeouts.md': '# Timeouts\n\nSockets that sit unused are closed by the client.\n',
      'reference/pool.md': '# Pool\n\nSockets that sit unused are counted by the client.\n',
      'guide/tuning.md': '# Tuning\n\nBefore raising limits, read about [idle reaping](../reference/timeouts.md) and keep the defaults.\n',
    });
  });
  afterAll(async () => fixture.close());

  // The two reference pages hold the question's words alike (a tie, broken by title, would put pool.md first).
  it('ranks the page other pages link to with the question’s words above an equal page no link names', async () => {
    const trace = await fixture.index.trace('Is there idle reaping of unused sockets in the client?');
    const ranked = trace.retrieval!.documents.map((d) => [d.doc.title, d.parts.links > 0] as const);
    const at = (title: string) => ranked.findIndex(([t]) => t === title);
    expect(at('reference/timeouts.md')).toBeGreaterThanOrEqual(0);
    expect(at('reference/timeouts.md')).toBeLessThan(at('reference/pool.md'));
    expect(ranked.filter(([, linked]) => linked).map(([t]) => t)).toEqual(['reference/timeouts.md']);
  });
});

describe('links across tenants', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ overrides: { tenant: 'links-a' } });
  });
  afterAll(async () => h.close());

  it('credit only pages of the same tenant: another tenant’s links to the same path name nothing', async () => {
    const pages = [
      { title: 'reference/timeouts.md', content: '# Timeouts\n\nSockets that sit unused are closed by the client.\n' },
      { title: 'reference/pool.md', content: '# Pool\n\nSockets that sit unused are counted by the client.\n' },
    ];
    const linking = { title: 'guide/tuning.md', content: '# Tuning\n\nRead about [idle reaping](../reference/timeouts.md) first.\n' };
    const a = await indexFor(h.services, 'links-a');
    const b = await indexFor(h.services, 'links-b');
    await a.ingestDocuments(pages);
    await b.ingestDocuments([...pages, linking]);
    const question = 'Is there idle reaping of unused sockets in the client?';
    const linked = async (index: DocIndex) => (await index.trace(question)).retrieval!.documents.filter((d) => d.parts.links > 0).map((d) => d.doc.title);
    expect(await linked(b)).toEqual(['reference/timeouts.md']);
    expect(await linked(a)).toEqual([]);
  });
});

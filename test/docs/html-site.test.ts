import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYOUTS, isMarkdownCorpus, renderSite } from '../../scripts/html-site.js';
import { parseDocument } from '../../src/docs/parse.js';

/** The eval's `--html`: a markdown corpus as a site; docent must read each page as the markdown it came from. */
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'docent-site-'));
  await mkdir(path.join(root, 'md', 'guide'), { recursive: true });
  await writeFile(
    path.join(root, 'md', 'guide', 'tokens.md'),
    '# Access tokens\n\nRotate a token with `lumen token rotate`.\n\n## Scopes\n\nA `read` token cannot rotate itself.\n',
  );
  await writeFile(path.join(root, 'md', 'upgrade.md'), '---\ntitle: Upgrade\n---\n# Upgrading to lumen 3\n\nVersion 3 drops Node.js 16.\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('a markdown corpus rendered as a site (npm run eval -- --html)', () => {
  it('is read back, in every layout, as each page alone: headings, text and code, none of the frame', async () => {
    expect(await isMarkdownCorpus(path.join(root, 'md'))).toBe(true);
    for (const layout of LAYOUTS) {
      const out = path.join(root, layout);
      const pages = await renderSite(path.join(root, 'md'), out, layout, 'lumen');
      expect([...pages]).toEqual([
        ['guide/tokens.md', 'guide/tokens.html'],
        ['upgrade.md', 'upgrade.html'],
      ]);
      const tokens = parseDocument(await readFile(path.join(out, 'guide', 'tokens.html'), 'utf8'), 'html');
      expect(tokens.body).toBe('# Access tokens\n\nRotate a token with `lumen token rotate`.\n\n## Scopes\n\nA `read` token cannot rotate itself.');
      // The sidebar names the other page and the pager leads to it; neither is part of this page.
      expect(tokens.body).not.toContain('Upgrading');
      expect(parseDocument(await readFile(path.join(out, 'upgrade.html'), 'utf8'), 'html').body).toBe('# Upgrading to lumen 3\n\nVersion 3 drops Node.js 16.');
    }
  });

  it('leaves out a corpus that is not all markdown', async () => {
    await writeFile(path.join(root, 'md', 'notes.rst'), 'Notes\n=====\n');
    expect(await isMarkdownCorpus(path.join(root, 'md'))).toBe(false);
    expect(await isMarkdownCorpus(path.join(root, 'md'), ['notes.rst'])).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../../src/docs/chunk.js';
import { closesFence, fenceAt, fenceLine, fenceOpening } from '../../src/docs/fence.js';
import { parseDocument } from '../../src/docs/parse.js';
import { unitsOf } from '../../src/docs/units.js';

const chunksOf = (markdown: string) => chunkMarkdown(parseDocument(markdown, 'markdown').body).map((c) => c.text);

describe('fenced code: one rule for every stage', () => {
  it('opens on three or more backticks or tildes indented at most three spaces; a backtick info string holds no backtick', () => {
    expect(fenceOpening('```js title="a.js"')).toEqual({ marker: '```', info: 'js title="a.js"' });
    expect(fenceOpening('   ~~~~')).toEqual({ marker: '~~~~', info: '' });
    expect(fenceOpening('~~~ a`b')).toEqual({ marker: '~~~', info: 'a`b' });
    for (const line of ['``', '    ```', '```a` b```', 'text ```', '\t```']) expect(fenceOpening(line)).toBeUndefined();
  });

  it('closes on the same character, at least as many, with nothing after but spaces', () => {
    const fence = { marker: '````' };
    expect(['````', '   `````  ', '````\t'].map((l) => closesFence(l, fence))).toEqual([true, true, true]);
    expect(['```', '~~~~', '````js', '    ````', 'x ````'].map((l) => closesFence(l, fence))).toEqual([false, false, false, false, false]);
  });

  it('reads a fence four spaces into a list item as a block that ends with its container', () => {
    const open = fenceAt('    ```yaml')!;
    expect(open).toEqual({ fence: { marker: '```', info: 'yaml' }, indent: 4 });
    expect(['    site_url: ""', '', '      nested', '    ```', 'next item'].map((l) => fenceLine(l, open))).toEqual(['body', 'body', 'body', 'close', 'end']);
    // A block opened at the margin is closed only by its fence.
    expect(fenceLine('outdented', fenceAt('```')!)).toBe('body');
  });

  it('chunks list-item code as code, without its indentation, and the next item as text', () => {
    const doc = [
      '# Local files',
      '',
      '-   site_url:',
      '',
      '    Set it to an empty string.',
      '',
      '    ```yaml',
      '    site_url: ""',
      '    ```',
      '',
      '-   use_directory_urls:',
      '',
      '    ```yaml',
      '    use_directory_urls: false',
      'A line indented less ends the item and its unclosed block.',
    ].join('\n');
    const text = chunksOf(doc).join('\n');
    expect(text).toContain('```yaml\nsite_url: ""\n```');
    expect(text).toContain('```yaml\nuse_directory_urls: false\n```');
    expect(text).toContain('\n\nA line indented less ends the item and its unclosed block.');
    // Quoting reads the same blocks: each is one code unit.
    const units = unitsOf(text, 10_000).filter((u) => u.kind === 'code');
    expect(units.map((u) => u.text)).toEqual(['```yaml\nsite_url: ""\n```', '```yaml\nuse_directory_urls: false\n```']);
  });

  it('removes as many spaces from a block as its fence had, no more', () => {
    expect(chunksOf('1. Install:\n\n   ```sh\n   npm i lumen\n     --save\n   ```\n').join('\n')).toContain('```sh\nnpm i lumen\n  --save\n```');
  });

  it('takes a line with an info string inside a block as code, not as its close', () => {
    expect(chunksOf('```md\nExample:\n```js\nlet a\n```\n\nAfter.\n').join('\n')).toBe('```md\nExample:\n```js\nlet a\n```\n\nAfter.');
  });

  it('reads twenty thousand indented fences that never close in one pass', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `${' '.repeat(4 + (i % 3))}\`\`\`a${i}`).join('\n');
    const text = chunksOf(`# Many\n\n${lines}\n`).join('\n');
    expect(text.startsWith('```a0\n')).toBe(true);
    expect(text).toContain('a19999');
  });
});

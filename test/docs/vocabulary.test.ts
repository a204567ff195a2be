import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocIndex } from '../../src/docs/index.js';
import { analyze } from '../../src/docs/tokens.js';
import { RELATED_WORDS, relatedTerms } from '../../src/docs/vocabulary.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { indexFor } from './helpers.js';

const term = (word: string) => analyze(word, { keepStopWords: true })[0]!.term;

describe('related words', () => {
  it('maps every word of a group to the others, stemmed like document text, in both directions', () => {
    const related = relatedTerms('porter');
    expect(related.get(term('largest'))).toEqual(expect.arrayContaining([term('limit'), term('maximum')]));
    expect(related.get(term('limit'))).toContain(term('largest'));
    expect(related.get(term('scaffolds'))).toContain(term('generate'));
    expect(related.get(term('generator'))).toContain(term('scaffold'));
    expect(related.get(term('rotation'))).toBeUndefined();
  });

  it('holds single words only, each in its analysed form', () => {
    for (const group of RELATED_WORDS) {
      for (const word of group) expect(analyze(word, { keepStopWords: true }).length, word).toBeGreaterThan(0);
      expect(new Set(group).size).toBe(group.length);
    }
  });
});

const README = `# uploader

Fast file uploads for Node.js servers.

## Usage

Create a new uploader with \`createUploader(options)\` and mount it on a route. A route can take several files at once; uploaded
files are written to a folder.

## Options

### maxFileSize

Sets the limit on the size of one uploaded file, in bytes. Defaults to \`10mb\`.

### tempDir

The folder where uploaded files are written before they are handed to your route.

### keepExtensions

When true, uploaded files keep their original extension.

## Events

### progress

Emitted while a file uploads, with the bytes received so far.
`;

const CLI = `# uploader command line

## Generating a project

Run \`uploader init\` to generate a starter project with a route that accepts uploads.

## Checking a file

Run \`uploader inspect <file>\` to print what the uploader would do with a file.
`;

let h: Harness;
let dir: string;
let index: DocIndex;
beforeAll(async () => {
  h = await startHarness({ overrides: { tenant: 'vocab' } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'docent-vocab-'));
  await mkdir(path.join(dir, 'uploader'));
  await writeFile(path.join(dir, 'uploader', 'README.md'), README);
  await writeFile(path.join(dir, 'uploader', 'cli.md'), CLI);
  index = await indexFor(h.services, 'vocab');
  await index.ingestPath([dir]);
});
afterAll(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

describe('questions in other words than the documentation', () => {
  it('finds the limit when asked for the biggest file, and counts the word as found only through a related word', async () => {
    // Whether a two-document corpus answers is the calibration's call; what is found and quoted is checked here.
    const trace = await index.trace('What is the biggest file uploader will take?', { draft: true });
    expect(trace.result.sources[0]).toMatchObject({ title: 'uploader/README.md', section: 'uploader › Options › maxFileSize' });
    expect(trace.result.answer ?? trace.draft).toContain('Sets the limit on the size of one uploaded file');
    const biggest = trace.retrieval!.terms.find((t) => t.term === term('biggest'))!;
    expect(biggest.known).toBe(false);
    expect(biggest.related).toEqual(expect.arrayContaining([term('limit')]));
    expect(trace.retrieval!.candidates[0]!.related.has(term('biggest'))).toBe(true);
  });

  it('finds the command that generates a project when asked to scaffold one', async () => {
    const result = await index.query('Can uploader scaffold a new project for me?');
    expect(result.grounded).toBe(true);
    expect(result.sources[0]).toMatchObject({ title: 'uploader/cli.md', section: 'uploader command line › Generating a project' });
    expect(result.answer).toContain('`uploader init`');
  });

  it('does not expand identifiers: a named option that does not exist is still refused', async () => {
    const result = await index.query('How do I set the `maxSize` option of uploader?');
    expect(result.grounded).toBe(false);
    expect(result.reason).toContain('`maxSize`');
  });
});

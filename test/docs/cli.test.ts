import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/harness.js';
import { fixtureCopy } from './helpers.js';

const run = promisify(execFile);
const CLI = new URL('../../dist/src/cli/main.js', import.meta.url).pathname;

let root: string;
let folder: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  root = await tempDir();
  folder = await fixtureCopy();
  env = { PATH: process.env.PATH, HOME: root, DOCENT_DATA_DIR: path.join(root, 'data'), DOCENT_LOG_LEVEL: 'silent' };
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(path.dirname(folder), { recursive: true, force: true });
});

async function docent(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('docent ingest / ask / docs (built CLI)', () => {
  it('ingests a folder and prints the summary; a second run changes nothing', async () => {
    const first = await docent('ingest', folder, '--tenant', 'cli');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Ingested into tenant "cli", set "product": 7 added, 0 updated, 0 unchanged, 0 removed; \d+ chunks written in [\d.]+ s\.\n$/);
    const second = await docent('ingest', folder, '--tenant', 'cli', '--json');
    expect(JSON.parse(second.stdout)).toMatchObject({ tenant: 'cli', libraries: ['product'], added: 0, updated: 0, unchanged: 7, removed: 0, chunks: 0 });
  });

  it('answers with sources and a percentage, or prints the no-match message', async () => {
    const answer = await docent('ask', 'How do I install without dev dependencies using --omit=dev?', '--tenant', 'cli');
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain('From install.md › Installation › Production installs [1]:');
    expect(answer.stdout).toMatch(/Sources:\n\[1\] install\.md › Installation › Production installs\nConfidence: \d+%\n$/);
    const none = await docent('ask', 'How do I call lumen.rotateFiles() every night?', '--tenant', 'cli');
    expect(none.stdout).toMatch(/^No match in the documentation\. The documentation has no `rotateFiles`.*\(confidence \d+%\)\n$/);
    const json = JSON.parse((await docent('ask', 'How do I call lumen.rotateFiles() every night?', '--tenant', 'cli', '--json')).stdout);
    expect(json).toEqual({ grounded: false, sources: expect.any(Array), confidence: expect.any(Number), reason: expect.stringContaining('rotateFiles') });
    const other = JSON.parse((await docent('ask', 'How do I install with --omit=dev?', '--tenant', 'other', '--json')).stdout);
    expect(other).toMatchObject({ grounded: false, reason: 'No documentation has been ingested for tenant "other" yet.' });
  });

  it('explains an answer with --explain: the stages as text, or an `explain` field beside the result in JSON', async () => {
    const q = 'How do I install without dev dependencies using --omit=dev?';
    const text = await docent('ask', q, '--tenant', 'cli', '--explain');
    expect(text.code).toBe(0);
    const [answer, why] = text.stdout.split('\nWhy (docent ask --explain):\n');
    expect(answer).toContain('From install.md › Installation › Production installs [1]:');
    expect(
      why!
        .split('\n')
        .filter((l) => /^\d\. /.test(l))
        .map((l) => l.slice(0, 12)),
    ).toEqual(['1. The quest', '2. Retrieval', '3. Evidence ', '4. Decision:', '5. Answer: t']);
    // The answer's stage names the unit that leads it, from the document it cites first.
    expect(why).toMatch(/\n {3}lead {12}\d\.\d{3} {2}\w+ of install\.md › Installation › Production installs/);
    expect(why).toMatch(/\n {3}1\. install\.md \(product\) {2}[\d.]+ = [\d.]+ \+ [\d.]+ \+ [\d.]+ \+ [\d.]+ {2}covers \d+%/);
    expect(why).toMatch(/\n4\. Decision: answered: P\(answers\) 0\.\d\d ≥ threshold 0\.\d\d\.\n/);
    const json = JSON.parse((await docent('ask', q, '--tenant', 'cli', '--json', '--explain')).stdout);
    expect(json.grounded).toBe(true);
    expect(json.explain.retrieval.ranked[0].title).toBe('install.md');
    expect(json.explain.quotes[0]).toMatchObject({ title: 'install.md', why: 'lead' });
    expect(json.explain.decision.features.map((f: { name: string }) => f.name)).toEqual([
      'doc_coverage',
      'absent_nouns',
      'margin',
      'absent_names',
      'topicality',
    ]);
    // The keywords a calling agent would pass are searched beside the question, and the trace says so.
    const withKeywords = await docent(
      'ask',
      'How do I skip the packages only tests need?',
      '--tenant',
      'cli',
      '--keywords=--omit=dev, production',
      '--explain',
    );
    expect(withKeywords.code).toBe(0);
    expect(withKeywords.stdout).toContain('\n   Also searched beside the question: --omit=dev; production\n');
    const keywordsJson = JSON.parse((await docent('ask', q, '--tenant', 'cli', '--keywords', ' production ,, dev ', '--json', '--explain')).stdout);
    expect(keywordsJson.explain.alternatives).toEqual(['production', 'dev']);
    expect(keywordsJson.explain.rewrite_not_traced).toBeUndefined();
    const dash = await docent('ask', q, '--tenant', 'cli', '--keywords', '--omit=dev');
    expect(dash.code).toBe(2);
    expect(dash.stderr).toContain('option --keywords needs a value; one that starts with "-" is written --keywords=VALUE');
    const tooMany = await docent('ask', q, '--tenant', 'cli', '--keywords', Array.from({ length: 13 }, (_, i) => `k${i}`).join(','));
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/keywords/);
    // With a chat endpoint configured (here one nothing listens on: the rewrite and the written answer fail, and
    // the quotes stand), the explanation says that a rewrite it does not trace may have been searched.
    const withEndpoint = { env: { ...env, DOCENT_LLM_BASE_URL: 'http://127.0.0.1:9/v1', DOCENT_LLM_MODEL: 'none' } };
    const endpointText = await run(process.execPath, [CLI, 'ask', q, '--tenant', 'cli', '--explain'], withEndpoint);
    expect(endpointText.stdout).toContain('From install.md › Installation › Production installs [1]:');
    expect(endpointText.stdout).toContain('the trace does not include it: set DOCENT_QUERY_REWRITE=off');
    const endpointJson = JSON.parse((await run(process.execPath, [CLI, 'ask', q, '--tenant', 'cli', '--json', '--explain'], withEndpoint)).stdout);
    expect(endpointJson.explain.rewrite_not_traced).toBe(true);
    const rewriteOff = await run(process.execPath, [CLI, 'ask', q, '--tenant', 'cli', '--explain'], {
      env: { ...withEndpoint.env, DOCENT_QUERY_REWRITE: 'off' },
    });
    expect(rewriteOff.stdout).not.toContain('DOCENT_QUERY_REWRITE');
    const refused = await docent('ask', 'How do I call lumen.rotateFiles() every night?', '--tenant', 'cli', '--explain');
    expect(refused.stdout).toMatch(/^No match in the documentation\. The documentation has no `rotateFiles`/);
    expect(refused.stdout).toContain('4. Decision: refused: the documentation never mentions `rotateFiles`');
    // Another tenant's explanation reads its own (empty) index, never the documents of "cli".
    const other = JSON.parse((await docent('ask', q, '--tenant', 'other', '--json', '--explain')).stdout);
    expect(other.explain).toEqual({
      terms: [],
      missingNames: [],
      retrieval: { passages: 0, documents: 0, ranked: [] },
      outcome: 'No documentation has been ingested for tenant "other" yet.',
      confidence: 0,
    });
  });

  it('lists and removes documents', async () => {
    const list = JSON.parse((await docent('docs', 'list', '--tenant', 'cli', '--json')).stdout) as { id: string; title: string }[];
    expect(list.map((d) => d.title)).toContain('notes.txt');
    const table = await docent('docs', 'list', '--tenant', 'cli');
    expect(table.stdout.split('\n')[0]).toMatch(/^product \(7 documents, \d+ chunks\)$/);
    expect(table.stdout.split('\n')[1]).toMatch(/^ {2}ID\s+TITLE\s+CHUNKS\s+CHARS\s+UPDATED$/);
    const id = list.find((d) => d.title === 'notes.txt')!.id;
    const removed = await docent('docs', 'remove', id, '--tenant', 'cli');
    expect(removed.stdout).toMatch(/^Removed notes\.txt of set "product" \([0-9a-f]+, 1 chunks\) from tenant "cli"\.\n$/);
    const again = await docent('docs', 'remove', id, '--tenant', 'cli');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no document "${id}"`);
  });

  it('keeps equal paths of two folders apart as two sets, groups the list by set, scopes ask and removes a set', async () => {
    const libs = path.join(root, 'libs');
    await mkdir(path.join(libs, 'libA'), { recursive: true });
    await mkdir(path.join(libs, 'libB'), { recursive: true });
    await writeFile(path.join(libs, 'libA', 'README.md'), '# Alpha client\n\nThe alpha client retries a failed request three times before it gives up.\n');
    await writeFile(path.join(libs, 'libB', 'README.md'), '# Beta server\n\nThe beta server listens on port 8443 by default.\n');
    expect((await docent('ingest', path.join(libs, 'libA'), '--tenant', 'sets')).stdout).toMatch(
      /^Ingested into tenant "sets", set "libA": 1 added, 0 updated/,
    );
    expect((await docent('ingest', path.join(libs, 'libB'), '--tenant', 'sets')).stdout).toMatch(
      /^Ingested into tenant "sets", set "libB": 1 added, 0 updated/,
    );
    const named = await docent('ingest', path.join(libs, 'libB', 'README.md'), '--library', 'beta@2', '--tenant', 'sets');
    expect(named.stdout).toMatch(/^Ingested into tenant "sets", set "beta@2": 1 added/);

    const list = (await docent('docs', 'list', '--tenant', 'sets')).stdout.split('\n');
    expect(list.filter((l) => /^\S/.test(l))).toEqual(['beta@2 (1 document, 1 chunks)', 'libA (1 document, 1 chunks)', 'libB (1 document, 1 chunks)']);

    const alpha = JSON.parse((await docent('ask', 'How many times does the alpha client retry a failed request?', '--tenant', 'sets', '--json')).stdout);
    expect(alpha).toMatchObject({ grounded: true, sources: [{ title: 'README.md', library: 'libA', uri: 'docent://libA/README.md' }] });
    const beta = await docent('ask', 'Which port does the beta server listen on by default?', '--library', 'libB', '--tenant', 'sets');
    expect(beta.stdout).toContain('8443');
    expect(beta.stdout).toContain('[1] README.md');
    const unknown = await docent('ask', 'Which port?', '--library', 'nope', '--tenant', 'sets');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no document set "nope"');

    const ambiguous = await docent('docs', 'remove', 'README.md', '--tenant', 'sets');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('several document sets (beta@2, libA, libB)');
    expect((await docent('docs', 'remove', '--library', 'beta@2', '--tenant', 'sets')).stdout).toBe(
      'Removed the document set "beta@2" (1 documents) from tenant "sets".\n',
    );
    expect((await docent('docs', 'remove', 'README.md', '--library', 'libA', '--tenant', 'sets')).stdout).toMatch(/^Removed README\.md of set "libA"/);
    expect((await docent('docs', 'list', '--tenant', 'sets')).stdout.split('\n')[0]).toBe('libB (1 document, 1 chunks)');
    expect((await docent('ingest', path.join(libs, 'libA'), '--library', 'a/b', '--tenant', 'sets')).code).toBe(2);
  }, 300_000); // a generous bound: fourteen cold CLI starts, on a shared machine

  it('skips a binary file named like documentation, naming it, and never answers from its bytes', async () => {
    const docs = path.join(root, 'bin-docs');
    await mkdir(docs, { recursive: true });
    await writeFile(path.join(docs, 'guide.md'), '# Guide\n\nThe guide explains how to start the product.\n');
    await copyFile(existsSync('/usr/bin/ls') ? '/usr/bin/ls' : process.execPath, path.join(docs, 'fake.md'));
    const ingest = await docent('ingest', docs, '--tenant', 'bin');
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toMatch(/: 1 added, 0 updated/);
    expect(ingest.stdout).toContain(`  skipped ${path.join(docs, 'fake.md')}: it is `);
    const json = JSON.parse((await docent('ingest', docs, '--tenant', 'bin', '--json')).stdout);
    expect(json.skipped).toEqual([{ path: path.join(docs, 'fake.md'), reason: expect.stringMatching(/^it is (not UTF-8 text|binary)/) }]);
    const glibc = JSON.parse((await docent('ask', 'GLIBC', '--tenant', 'bin', '--json')).stdout);
    expect(glibc.grounded).toBe(false);
    expect(JSON.stringify(glibc)).not.toContain('fake.md');
  }, 120_000); // a generous bound: three cold CLI starts, on a shared machine

  it('leaves out of a folder what --exclude patterns match, and removes what they now leave out on re-ingest', async () => {
    // A generated site: its pages, a copy of every source under _sources/, an index page of every name.
    const site = path.join(root, 'site');
    await mkdir(path.join(site, '_sources', 'guide'), { recursive: true });
    await mkdir(path.join(site, 'guide'), { recursive: true });
    await writeFile(path.join(site, 'guide', 'tokens.html'), '<main><h1>Access tokens</h1><p>Rotate a token with lumen token rotate.</p></main>');
    await writeFile(path.join(site, '_sources', 'guide', 'tokens.rst.txt'), 'Access tokens\n=============\n\nRotate a token with lumen token rotate.\n');
    await writeFile(path.join(site, 'genindex.html'), '<main><h1>Index</h1><ul><li>rotate</li><li>token</li></ul></main>');
    const titles = async () => (JSON.parse((await docent('docs', 'list', '--tenant', 'site', '--json')).stdout) as { title: string }[]).map((d) => d.title);

    expect((await docent('ingest', site, '--tenant', 'site')).code).toBe(0);
    expect(await titles()).toEqual(['_sources/guide/tokens.rst.txt', 'genindex.html', 'guide/tokens.html']);
    const again = await docent('ingest', site, '--tenant', 'site', '--exclude', '_sources', '--exclude', 'genindex.html', '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ added: 0, updated: 0, unchanged: 1, removed: 2 });
    expect(await titles()).toEqual(['guide/tokens.html']);
    // A pattern with a slash reads from the folder's root: guide/*.html leaves nothing else in.
    const rooted = await docent('ingest', site, '--tenant', 'site', '--exclude', 'guide/*.html', '--exclude', '_sources/**', '--json');
    expect(JSON.parse(rooted.stdout)).toMatchObject({ added: 1, unchanged: 0, removed: 1 });
    expect(await titles()).toEqual(['genindex.html']);

    for (const pattern of [' ', '.', './', '/']) {
      const empty = await docent('ingest', site, '--exclude', pattern);
      expect(empty.code).toBe(2);
      expect(empty.stderr).toContain(`--exclude "${pattern}" matches nothing or everything`);
    }
  });

  it('rejects bad usage with status 2', async () => {
    expect((await docent('ingest')).code).toBe(2);
    expect((await docent('ask')).code).toBe(2);
    const explainValue = await docent('ask', 'How do I install?', '--explain=yes');
    expect(explainValue.code).toBe(2);
    expect(explainValue.stderr).toContain('option --explain takes no value');
    expect((await docent('docs', 'purge')).code).toBe(2);
    const badBase = await docent('ingest', folder, '--url-base', 'docs.example.com');
    expect(badBase.code).toBe(2);
    expect(badBase.stderr).toContain('--url-base must be an http(s) URL');
  });
});

import { describe, expect, it } from 'vitest';
import { questionIdentifiers } from '../../src/docs/question.js';
import { identifiersOf } from '../../src/docs/prepare.js';
import { analyze, identifierParts, splitSentences } from '../../src/docs/tokens.js';

const terms = (text: string) => analyze(text).map((t) => t.term);

describe('analysis keeps code identifiers findable', () => {
  it.each([
    ['Use pino.destination() here', 'pino.destination'],
    ['npm install --omit=dev', '--omit=dev'],
    ['set $env:DEBUG first', '$env:debug'],
    ['the nestedKey option', 'nestedkey'],
    ['targets[i].level per target', 'targets[i].level'],
    ['DEBUG_COLORS=1 node app', 'debug_colors'],
    ['the pino 8.x line', '8.x'],
  ])('%s → %s', (text, term) => {
    expect(terms(text)).toContain(term);
  });

  it('reads a version as one term: the numbers inside it are not numbers of their own', () => {
    // "curl 7.85.0" must not match a section headed "85" (an exit code) through the version's middle number.
    expect(terms('headers of 7.85.0 or newer')).toEqual(['header', '7.85.0', 'newer']);
    expect(terms('exit code 85')).toEqual(['exit', 'code', '85']);
    // One pass over words and versions together: 20,000 versions and their numbers read in linear time.
    const many = '10.20.30 40 '.repeat(20_000);
    expect(terms(many).filter((t) => t === '40')).toHaveLength(20_000);
    expect(terms(many).filter((t) => t === '20')).toHaveLength(0);
  });

  it('reads a word of 100,000 camelCase letters in one pass, as one name and its parts', () => {
    // Tried from every letter of the word, the name pattern scanned the rest of it each time: about 40 s for
    // this word before, 70 ms now (measured, not asserted: tests keep no clocks).
    const word = 'aB'.repeat(50_000);
    const terms = analyze(`see ${word} here`);
    expect(terms.filter((t) => t.identifier).map((t) => t.surface)).toEqual([word]);
    // Its parts: a Ba Ba … Ba B, "a" being a stop word and the last "b" a single letter.
    expect(terms.filter((t) => !t.identifier).map((t) => t.term)).toEqual(['see', ...Array<string>(49_999).fill('ba')]);
  });

  it('reads an acronym with its plural or version as the acronym, not as letters cut apart', () => {
    // "URLs" is the plural of "URL", found where the documentation says either; no stray "ur" or "ls".
    expect(terms('Pass several URLs')).toEqual(['pass', 'sever', 'url']);
    expect(terms('the URL')).toEqual(['url']);
    expect(terms('a list of IDs and APIs')).toEqual(['list', 'id', 'api']);
    expect(analyze('IPs').every((t) => !t.identifier)).toBe(true);
    expect(terms('call parseURLs')).toEqual(['call', 'parseurls', 'pars', 'url']);
    expect(identifierParts('IPv4')).toEqual(['ip', 'v4']);
    expect(identifierParts('XMLHttpRequest')).toEqual(['xml', 'http', 'request']);
    // A single letter is no part: `OAuth2` → auth2.
    expect(terms('OAuth2')).toEqual(['oauth2', 'auth2']);
  });

  it('reads words of 100,000 capitals in one pass', () => {
    // Each capital could start the "capitals, then a capital and a lower-case letter" patterns, which scanned the
    // rest of the run and failed at the end: 15 s for the first word, 27 s for the second before.
    const plain = `${'A'.repeat(100_000)}1a`;
    expect(analyze(`see ${plain}`).map((t) => t.surface ?? t.term)).toEqual(['see', plain]);
    const snake = `${'A'.repeat(100_000)}_a`;
    expect(
      analyze(`see ${snake}`)
        .filter((t) => t.identifier)
        .map((t) => t.surface),
    ).toEqual([snake]);
  });

  it('also emits the parts of identifiers and stems words', () => {
    expect(terms('nestedKey')).toEqual(['nestedkey', 'nest', 'kei']);
    expect(terms('Rotating the logs')).toEqual(['rotat', 'log']);
    expect(terms('pino.destination')).toEqual(['pino.destination', 'pino', 'destin']);
  });

  it('keeps $-keywords such as $defs and $ref whole, next to the word', () => {
    expect(terms('Output $defs, not definitions; follow "$ref"')).toEqual(['output', '$defs', 'def', 'definit', 'follow', '$ref', 'ref']);
  });

  it('drops e.g. and i.e., which are prose, not dotted names', () => {
    expect(terms('Options, e.g. the level (i.e. pino.level), a.k.a. verbosity')).toEqual(['option', 'level', 'pino.level', 'pino', 'level', 'verbos']);
  });

  it('does not mistake prose hyphenation for a flag', () => {
    expect(terms('non-browser clients')).toEqual(['non-browser', 'non', 'browser', 'client']);
  });
});

describe('identifiers a question asks about', () => {
  const ids = (q: string) => questionIdentifiers(q).map((i) => [i.surface, i.strong]);

  it('finds calls, member paths, camelCase, snake_case, flags, env references and backticks as strong', () => {
    expect(ids('How do I use pino.rotateFiles() nightly?')).toEqual([['pino.rotateFiles()', true]]);
    expect(ids('What does the retryOn option do?')).toEqual([['retryOn', true]]);
    expect(ids('Is --preid supported and what is DEBUG_COLORS?')).toEqual([
      ['--preid', true],
      ['DEBUG_COLORS', true],
    ]);
    expect(ids('Set $env:DEBUG in `profile.ps1`')).toEqual([
      ['profile.ps1', true],
      ['$env:DEBUG', true],
    ]);
  });

  it('reads kebab-case configuration keys as member paths, and hyphenated prose as prose', () => {
    expect(ids('Can build.max-memory or cargo-new.vcs be set per project?')).toEqual([
      ['build.max-memory', true],
      ['cargo-new.vcs', true],
    ]);
    expect(ids('Is a well-known front-end non-browser build supported?')).toEqual([]);
  });

  it('takes a backticked command line or phrase as evidence, not as a name the docs must have', () => {
    expect(ids('Can I proxy through an `ssh -D` tunnel or `pino.destination()`?')).toEqual([
      ['ssh -D', false],
      ['pino.destination()', true],
    ]);
  });

  it('does not take an adjective for the name of an element ("the recommended hook")', () => {
    expect(questionIdentifiers("What's the recommended hook, or the simplest option?")).toEqual([]);
  });

  it('finds scoped npm packages as strong, and not an email address', () => {
    expect(ids('How do I enable CORS in Koa with @koa/cors?')).toEqual([['@koa/cors', true]]);
    expect(ids('Register @fastify/cookie, then mail dev@example.com/help')).toEqual([['@fastify/cookie', true]]);
  });

  it('treats product names as weak and ignores Node.js, e.g. and file names', () => {
    expect(ids('Does it run on Node.js, e.g. in AsyncLocalStorage, with package.json?')).toEqual([['AsyncLocalStorage', false]]);
  });

  it('takes a call with arguments as the call, and a bracketed member path as a path', () => {
    expect(ids('What does fetch(url, { method }) return, and is dispatcher.compose(a) chainable?')).toEqual([
      ['fetch()', true],
      ['dispatcher.compose()', true],
    ]);
    expect(questionIdentifiers('Can I set targets[0].level per target?')).toEqual([
      { surface: 'targets[0].level', key: 'targets[0].level', member: { key: 'level', surface: 'level' }, strong: true },
    ]);
  });

  it('finds names where the index finds them: one recogniser (analyze) for questions and passages', () => {
    const question = 'Does pino.transport() take a dedupe flag, --no-color, or DEBUG_COLORS?';
    const indexed = new Set(
      analyze(question)
        .filter((t) => t.identifier)
        .map((t) => t.surface),
    );
    for (const id of questionIdentifiers(question)) expect(indexed).toContain(id.surface);
    expect(ids(question)).toEqual([
      ['pino.transport()', true],
      ['--no-color', true],
      ['DEBUG_COLORS', true],
    ]);
  });

  it('recognises names by their shape only: a plain word before "option" names nothing', () => {
    expect(questionIdentifiers("How do I set minimatch's timeout option?")).toEqual([]);
    expect(questionIdentifiers('How do I set the `timeout` option?')).toEqual([{ surface: 'timeout', key: 'timeout', member: undefined, strong: true }]);
  });
});

describe("a document's code words", () => {
  it('are its identifiers and the words of its inline code and closed code blocks, not its prose', () => {
    const text = [
      'Use `inc` to bump.',
      '```js',
      'const level = semver.inc(v)',
      '```',
      '~~~~',
      'spooler = 1',
      '~~~',
      'a shorter fence closes nothing: flusher',
      '~~~~',
      'after the block',
      '```',
      'a fence never closed opens nothing: dangling',
    ].join('\n');
    expect([...identifiersOf(text, 'porter')].sort()).toEqual([
      'a',
      'closes',
      'const',
      'fence',
      'flusher',
      'inc',
      'level',
      'nothing',
      'semver',
      'semver.inc',
      'shorter',
      'spooler',
      'v',
    ]);
  });

  it('are found in one pass over a passage of 20,000 fences never closed', () => {
    // Each opening fence searched the rest of the passage for its close: 6.2 s for this text before, 0.12 s now.
    const text = '```js\nword\n'.repeat(20_000);
    expect(identifiersOf(text, 'porter').size).toBe(0);
  });
});

describe('the sentence splitter', () => {
  it('ends a sentence at an ellipsis only before a capital', () => {
    expect(splitSentences('wcurl [--curl-options]... [--dry-run] [--] <URL>... Downloads files.')).toEqual([
      'wcurl [--curl-options]... [--dry-run] [--] <URL>...',
      'Downloads files.',
    ]);
    expect(splitSentences('It waits... Then it retries. Use `--retry`.')).toEqual(['It waits...', 'Then it retries.', 'Use `--retry`.']);
  });
});

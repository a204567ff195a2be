import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ANSWER_OPTIONS, renderQuotes, selectQuotes, specificCoverage, weightsFor } from '../../src/docs/answer.js';
import { codeParts, unitsOf } from '../../src/docs/units.js';
import type { DocIndex } from '../../src/docs/index.js';
import type { QueryTerm } from '../../src/docs/question.js';
import type { Candidate } from '../../src/docs/search.js';
import { analyze } from '../../src/docs/tokens.js';
import { FEATURES } from '../../src/docs/evidence.js';
import { TUNING } from '../../src/docs/tuning.js';

/** The selection rules alone, without the lead's continuation (tested on its own below). */
const ALONE = { ...DEFAULT_ANSWER_OPTIONS, tuning: { ...TUNING, leadContinuation: false, leadParagraph: 0 } };
import { ingestedIndex } from './helpers.js';

// ------------------------------------------------------------------ passage choice on hand-made passages

/** A question term as queryTerms makes it (IDF given). */
function qterm(word: string, idf: number): QueryTerm {
  const term = analyze(word)[0]!.term;
  return { term, surface: word, idf, known: true, identifier: false, count: 1 };
}

/** A passage of a document of `chunks` chunks, where `everywhere` terms appear in every chunk and others in one. */
function passage(text: string, options: { doc?: string; chunks?: number; everywhere?: string[]; weight?: number; source?: number } = {}) {
  const everywhere = new Set((options.everywhere ?? []).map((w) => analyze(w)[0]!.term));
  const chunks = options.chunks ?? 10;
  const candidate = {
    chunk: {
      chunk_id: `${text.length}:${text.slice(0, 12)}`,
      doc_id: options.doc ?? 'd',
      version: 'v',
      ord: 0,
      section: '',
      text,
      body_terms: '',
      head_terms: '',
    },
    doc: {
      id: options.doc ?? 'd',
      title: `${options.doc ?? 'd'}.md`,
      version: 'v',
      idents: new Set<string>(),
      chunks,
      chunkFrequency: (t: string) => (everywhere.has(t) ? chunks : 1),
    },
    bm25: 1,
    coverage: 0,
    matched: new Set<string>(),
    copies: [],
    score: 1,
  } satisfies Candidate;
  return { candidate, source: options.source ?? 1, weight: options.weight ?? 1 };
}

const quoted = (quotes: ReturnType<typeof selectQuotes>) => quotes.map((q) => q.unit.text);

/** A quote of one unit of a passage (its first unless given), as selectQuotes would hand it to renderQuotes. */
const quoteOf = (p: ReturnType<typeof passage>, unit = unitsOf(p.candidate.chunk.text, 1200)[0]!, source = 1) => ({
  unit,
  candidate: p.candidate,
  source,
  score: 1,
  covers: new Set<string>(),
});

describe('selectQuotes', () => {
  it('weighs a term found in every chunk of its document (its package name) less than one found in a single chunk', () => {
    const p = passage('The widget renders fast on every page load. Set the colour with the `tint` option.', { everywhere: ['widget'] });
    // "widget" is rarer in the corpus than "colour", but it names every section of its document.
    const quotes = selectQuotes([p], [qterm('widget', 3), qterm('colour', 2)], { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 1 });
    expect(quoted(quotes)).toEqual(['Set the colour with the `tint` option.']);
  });

  it('never quotes a sentence without the next one of its paragraph when that one qualifies it', () => {
    const p = passage(
      'The stream closes after the callback runs. `onError` handles errors before the response is sent. However, once the callback runs the stream has already started, so it cannot be replaced.\n\nStreams are lazy.',
    );
    // Without the lead's continuation, so that only the qualifier brings the next sentence.
    const tuning = { ...TUNING, leadContinuation: false };
    const quotes = selectQuotes([p], [qterm('onError', 3), qterm('errors', 2)], { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 1, tuning });
    expect(quoted(quotes)).toEqual([
      '`onError` handles errors before the response is sent.',
      'However, once the callback runs the stream has already started, so it cannot be replaced.',
    ]);
  });

  it('of two units that add the same words, quotes the one that takes fewer of the budget’s characters', () => {
    const filler = 'while the renderer reads many other unrelated settings as it lays out every page of the site, '.repeat(6);
    const long = `The colour and the tint apply ${filler}and nothing else changes.`;
    const short = 'Both the colour and the tint are read at start.';
    const lead = 'A widget takes its colour from the theme.';
    const p = passage(`${long}\n\n${short}\n\n${lead}`);
    const terms = [qterm('widget', 3), qterm('colour', 3), qterm('tint', 1)];
    const options = { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 2 };
    expect(quoted(selectQuotes([p], terms, options))).toEqual([short, lead]);
    // Weighed by what they add alone, the first in the text wins the tie.
    expect(quoted(selectQuotes([p], terms, { ...options, tuning: { ...TUNING, quoteCost: 0 } }))).toEqual([long, lead]);
  });

  it('quotes a section found by its heading from its start: its units need not repeat the name the heading gives', () => {
    const p = passage('* Default: true\n* Type: Boolean\n\nAlias for `lockfile=true`.\n\nUnrelated closing words here.');
    p.candidate.chunk.section = 'Configuration › shrinkwrap';
    const terms = [qterm('shrinkwrap', 3)];
    expect(quoted(selectQuotes([p], terms, { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 3 }))).toEqual([
      '* Default: true',
      '* Type: Boolean',
      'Alias for `lockfile=true`.',
    ]);
    // Off, the first unit and the one after it (the lead's continuation) are all a heading-only match gets.
    const tuning = { ...TUNING, headingSections: false };
    expect(quoted(selectQuotes([p], terms, { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 3, tuning }))).toEqual(['* Default: true', '* Type: Boolean']);
  });

  it('leads with the best passage’s section when its heading names what is asked, unless a unit elsewhere names more', () => {
    const primary = passage('* Default: true\n* Type: Boolean\n\nAlias for `lockfile=true`.', { doc: 'config' });
    primary.candidate.chunk.section = 'Config › shrinkwrap';
    const other = passage('Dependencies are saved with an exact version.\n\nDeprecated options', { doc: 'config' });
    other.candidate.chunk.section = 'Config › save-exact';
    const shrinkwrap = [qterm('shrinkwrap', 3), qterm('option', 1)];
    expect(quoted(selectQuotes([primary, other], shrinkwrap, { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 3 }))).toEqual([
      '* Default: true',
      '* Type: Boolean',
      'Alias for `lockfile=true`.',
    ]);
    // A unit of another passage that names the heading's word and more leads instead.
    const named = passage('The `shrinkwrap` option also writes a lockfile.', { doc: 'config' });
    named.candidate.chunk.section = 'Config › lockfiles';
    expect(quoted(selectQuotes([primary, named], [...shrinkwrap, qterm('lockfile', 2)], { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 1 }))).toEqual([
      'The `shrinkwrap` option also writes a lockfile.',
    ]);
  });

  it('does not end a heading-found section on a sentence that introduces what does not fit', () => {
    const items = Array.from({ length: 3 }, (_, i) => `* \`opt${i}\`: ${'a long description of the option '.repeat(60)}`).join('\n');
    const p = passage(`* Default: none\n\nIf an object is supplied, three options can be specified:\n${items}`);
    p.candidate.chunk.section = 'Options › redact';
    expect(quoted(selectQuotes([p], [qterm('redact', 3)], { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 4 }))).toEqual(['* Default: none']);
  });

  it('leads with the best unit of a later passage when the primary passage barely answers, and renders it first', () => {
    const primary = passage('Verify webhook payloads before you parse them.', { doc: 'a' });
    const later = passage('Browsers are refused unless `allowBrowser` is set: the key would be exposed in client code.', { doc: 'a', weight: 0.8 });
    const terms = [qterm('browser', 3), qterm('client', 2), qterm('code', 2), qterm('payload', 1)];
    const quotes = selectQuotes([primary, later], terms, DEFAULT_ANSWER_OPTIONS);
    expect(quotes[0]!.candidate).toBe(later.candidate);
    expect(quoted(quotes)[0]).toContain('`allowBrowser`');
  });

  it('quotes a sentence that sibling sections repeat once, and spends the room on what else they say', () => {
    const shared = 'The `output` stream is used to print prompts for user input.';
    const callback = passage(`${shared} Call \`rl.question()\` with a callback to prompt.`, { doc: 'readline' });
    const promises = passage(`${shared} The promise form of \`rl.question()\` resolves with the answer.`, { doc: 'readline', source: 2 });
    const terms = [qterm('prompt', 3), qterm('output', 2), qterm('question', 2), qterm('answer', 1)];
    const texts = quoted(selectQuotes([callback, promises], terms, ALONE));
    expect(texts.filter((t) => t === shared)).toHaveLength(1);
    expect(texts).toContain('The promise form of `rl.question()` resolves with the answer.');
  });

  it('quotes the rest of the lead’s paragraph, where the answer follows the words of the question', () => {
    const p = passage(
      'On a non-English Windows you may hit `Encoding::UndefinedConversionError` when converting. ' +
        'To solve this, override the default character encodings. ' +
        'You can do so by setting the `RUBYOPT` environment variable.\n\n' +
        'Editors have settings of their own.',
    );
    const terms = [qterm('window', 2), qterm('encoding::undefinedconversionerror', 4), qterm('fix', 1)];
    expect(quoted(selectQuotes([p], terms, DEFAULT_ANSWER_OPTIONS))).toEqual([
      'On a non-English Windows you may hit `Encoding::UndefinedConversionError` when converting.',
      'To solve this, override the default character encodings.',
      'You can do so by setting the `RUBYOPT` environment variable.',
    ]);
    // Off, the lead brings only the sentence after it (leadContinuation).
    const tuning = { ...TUNING, leadParagraph: 0 };
    expect(quoted(selectQuotes([p], terms, { ...DEFAULT_ANSWER_OPTIONS, tuning }))).toHaveLength(2);
    // Within its characters only: a long rest of the paragraph is not quoted past them.
    const short = { ...TUNING, leadParagraph: 70 };
    expect(quoted(selectQuotes([p], terms, { ...DEFAULT_ANSWER_OPTIONS, tuning: short }))).toHaveLength(2);
  });

  it('adds the unit that names what the quoted ones do not, before another that repeats them', () => {
    const p = passage(
      'Child bindings are written on every log line of the child. ' +
        'Bindings of a child are written on each line it logs. ' +
        'If two of them set the same key, the last value wins.',
    );
    const terms = [qterm('child', 2), qterm('bind', 2), qterm('line', 1), qterm('value', 1.5), qterm('win', 1.5)];
    // The sentence between them is not filled in here (sentenceGaps), to see which one the choice adds.
    const quotes = selectQuotes([p], terms, { ...ALONE, maxUnits: 2, tuning: { ...ALONE.tuning, sentenceGaps: false } });
    expect(quoted(quotes)).toEqual(['Child bindings are written on every log line of the child.', 'If two of them set the same key, the last value wins.']);
  });

  it('quotes the statement of a default value when the question asks for the default, short as it is', () => {
    const p = passage(
      'Controls the largest request body accepted. Defaults to `1mb`.\n\n' +
        'Raising the request body limit far above the default lets large bodies use memory and time; keep it near the default when possible.',
    );
    const terms = [qterm('request', 1), qterm('body', 1), qterm('default', 1), qterm('largest', 2)];
    const quotes = selectQuotes([p], terms, { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 2 });
    expect(quoted(quotes)).toContain('Defaults to `1mb`.');
  });

  it("reads a type line with its value (`number = 120000`, as webpack heads an option) as a default's statement", () => {
    const p = passage(
      '`number = 120000`\n\nThe number of milliseconds before a chunk request expires.\n\n```js\nexport default {\n  output: { chunkLoadTimeout: 30000 },\n};\n```',
    );
    const terms = [qterm('default', 1), qterm('chunkloadtimeout', 3)];
    const quotes = selectQuotes([p], terms, { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 3 });
    expect(quoted(quotes)).toContain('`number = 120000`');
  });

  it('brings the code after a bold label paragraph, as under a heading', () => {
    const p = passage('**Claude Code**\n\n```sh\nwidget install --host cc\n```\n\n**Cursor**: see its settings.');
    const quotes = selectQuotes([p], [qterm('claude', 3), qterm('code', 2)], { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 1 });
    expect(quoted(quotes)).toEqual(['**Claude Code**', '```sh\nwidget install --host cc\n```']);
  });

  it('brings the code an introducing sentence announces, across the sentences in between', () => {
    const p = passage(
      'The quickest way to start is the project generator, as shown below:\n\n' +
        'Install it once. Its major version follows the server:\n\n' +
        '```bash\nnpm install -g widget-starter\n```\n\n' +
        'Then run it in an empty folder.',
    );
    const quotes = selectQuotes([p], [qterm('generator', 3), qterm('project', 2)], { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 1 });
    expect(quoted(quotes)).toEqual([
      'The quickest way to start is the project generator, as shown below:',
      'Install it once.',
      'Its major version follows the server:',
      '```bash\nnpm install -g widget-starter\n```',
    ]);
  });
});

describe('selectQuotes: introductions', () => {
  it('brings what a qualifying sentence introduces: "However, … with:" is not left hanging', () => {
    const p = passage('The widget keeps the line breaks of prose. However, you can turn that off with:\n\n```bash\nwidget --wrap always\n```');
    const options = { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 1 };
    expect(quoted(selectQuotes([p], [qterm('prose', 3), qterm('breaks', 2)], options))).toEqual([
      'The widget keeps the line breaks of prose.',
      'However, you can turn that off with:',
      '```bash\nwidget --wrap always\n```',
    ]);
    const tuning = { ...TUNING, introducedLast: false };
    expect(quoted(selectQuotes([p], [qterm('prose', 3), qterm('breaks', 2)], { ...options, tuning }))).toEqual([
      'The widget keeps the line breaks of prose.',
      'However, you can turn that off with:',
    ]);
  });
});

describe('selectQuotes: a sentence that goes on after a listing', () => {
  const text =
    'Widgets are cached per user. Extra runtimes are easy to add by running:\n\n' +
    '```bash\nwidget runtime add 14\n```\n\n' +
    'which will download runtime 14 into the cache directory.';
  const terms = [qterm('download', 3), qterm('directory', 2)];

  it('quotes a lower-case paragraph after a listing with the listing and its unfinished introduction', () => {
    const options = { ...ALONE, maxUnits: 1 };
    expect(quoted(selectQuotes([passage(text)], terms, options))).toEqual([
      'Extra runtimes are easy to add by running:',
      '```bash\nwidget runtime add 14\n```',
      'which will download runtime 14 into the cache directory.',
    ]);
    const tuning = { ...ALONE.tuning, continuedSentences: false };
    expect(quoted(selectQuotes([passage(text)], terms, { ...options, tuning }))).toEqual(['which will download runtime 14 into the cache directory.']);
  });

  it('leaves a lower-case opening alone after a listing whose introduction ended: it may be a name', () => {
    const named = text.replace('by running:', 'with the command below.').replace('which will', 'widgetd will');
    expect(quoted(selectQuotes([passage(named)], terms, { ...ALONE, maxUnits: 1 }))).toEqual(['widgetd will download runtime 14 into the cache directory.']);
  });
});

describe('selectQuotes: examples in tabs, nested lists, paragraphs', () => {
  const cjs = "```cjs\nconst widget = require('widget');\nwidget.render({ colour: 'red' });\n```";
  const mjs = "```mjs\nimport widget from 'widget';\nwidget.render({ colour: 'red' });\n```";
  const other = '```yaml\ntheme:\n  palette: dark\n```';

  it('quotes one version of an example shown in tabs, not each of them; a different listing after it stays quotable', () => {
    const p = passage(`Render a widget in a colour like this:\n\n${cjs}\n\n${mjs}\n\n${other}`);
    const options = { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 3 };
    const terms = [qterm('colour', 3), qterm('render', 2)];
    expect(quoted(selectQuotes([p], terms, options))).toEqual(['Render a widget in a colour like this:', cjs, other]);
    expect(quoted(selectQuotes([p], terms, { ...options, tuning: { ...TUNING, codeVersions: 0 } }))).toEqual([
      'Render a widget in a colour like this:',
      cjs,
      mjs,
      other,
    ]);
  });

  it('knows the versions of an example across the cut between two passages of one section', () => {
    const first = passage(`Render a widget in a colour like this:\n\n${cjs}`);
    const second = passage(mjs);
    second.candidate.chunk.ord = 1;
    second.candidate.chunk.chunk_id = 'second';
    const terms = [qterm('colour', 3), qterm('render', 2)];
    expect(quoted(selectQuotes([first, second], terms, DEFAULT_ANSWER_OPTIONS))).toEqual(['Render a widget in a colour like this:', cjs]);
    // Not when the second passage is another section's, or not the next one of the document.
    second.candidate.chunk.ord = 2;
    expect(quoted(selectQuotes([first, second], terms, DEFAULT_ANSWER_OPTIONS))).toContain(mjs);
  });

  it('quotes an item of a nested list under the item it belongs to', () => {
    const p = passage('Releases:\n\n- 4.21.0\n  - Faster routing.\n- 4.20.0\n  - Fixed the widget tint escaping.\n  - Docs.');
    const options = { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 1 };
    const terms = [qterm('tint', 3), qterm('escaping', 2)];
    expect(quoted(selectQuotes([p], terms, options))).toEqual(['- 4.20.0', '  - Fixed the widget tint escaping.']);
    expect(quoted(selectQuotes([p], terms, { ...options, tuning: { ...TUNING, itemParents: false } }))).toEqual(['  - Fixed the widget tint escaping.']);
  });

  it('fills a sentence left out between two quoted sentences of one paragraph', () => {
    const p = passage(
      'Deploying replaces the widget server. The manager first sends a SIGTERM signal. On that signal the widget server stops taking requests and finishes ongoing ones.\n\nUnrelated.',
    );
    const tuning = { ...TUNING, leadContinuation: false };
    const terms = [qterm('widget', 3), qterm('server', 2), qterm('requests', 2)];
    const options = { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 3, tuning };
    expect(quoted(selectQuotes([p], terms, options))).toEqual([
      'Deploying replaces the widget server.',
      'The manager first sends a SIGTERM signal.',
      'On that signal the widget server stops taking requests and finishes ongoing ones.',
    ]);
    expect(quoted(selectQuotes([p], terms, { ...options, tuning: { ...tuning, sentenceGaps: false } }))).toEqual([
      'Deploying replaces the widget server.',
      'On that signal the widget server stops taking requests and finishes ongoing ones.',
    ]);
  });
});

describe('specificCoverage', () => {
  it('values a passage for the question words that set it apart within its document, not for the package name', () => {
    const terms = [qterm('widget', 3), qterm('colour', 2)];
    const named = passage('The widget is fast.', { everywhere: ['widget'] }).candidate;
    named.matched.add(terms[0]!.term);
    const answering = passage('Set the colour with `tint`.', { everywhere: ['widget'] }).candidate;
    answering.matched.add(terms[1]!.term);
    const weights = weightsFor(named.doc, terms);
    // By corpus IDF alone the package name (3) outweighs "colour" (2); within the document it is everywhere.
    expect(specificCoverage(answering, terms, weights)).toBeGreaterThan(specificCoverage(named, terms, weights));
    expect(specificCoverage(named, terms, weights) + specificCoverage(answering, terms, weights)).toBeCloseTo(1, 10);
  });
});

// ------------------------------------------------------------------ long code listings

/** An options object longer than the answer budget: one commented field per entry. */
const FIELDS = [
  'retries',
  'timeout',
  'follow',
  'compress',
  'agent',
  'size',
  'signal',
  'highWaterMark',
  'insecureHTTPParser',
  'referrer',
  'integrity',
  'keepalive',
];
const LISTING = [
  '```js',
  'const defaults = {',
  ...FIELDS.flatMap((f, i) => [
    `  // ${f === 'follow' ? 'maximum redirect count; set 0 to refuse every redirect' : `what the ${f} field of a request controls, explained at some length so that the listing is long`}`,
    `  ${f}: ${i},`,
  ]),
  '}',
  '```',
].join('\n');

describe('long code listings', () => {
  it('cuts a listing into entries, each a field with the comment lines before it; short runs stay whole', () => {
    expect(codeParts(['/**', ' * the time', ' */', 'time?: number;', '', 'a', 'b'])).toEqual([
      { from: 0, to: 3 },
      { from: 5, to: 6 },
    ]);
    expect(codeParts(['{', '  // one', '  one: 1,', '  two: 2, // two', '  // three', '  three: 3,', '}'])).toEqual([
      { from: 0, to: 0 },
      { from: 1, to: 2 },
      { from: 3, to: 3 },
      { from: 4, to: 5 },
      { from: 6, to: 6 },
    ]);
  });

  it('keeps a console command with the output a blank line sets apart from it; a comment or another command stays apart', () => {
    const session = ['$ docker images', '', 'REPOSITORY  TAG', 'alpine      latest', '', '$ docker image prune -a', '$ docker images', '', '# done', 'ok'];
    expect(codeParts(session)).toEqual([
      { from: 0, to: 3 },
      { from: 5, to: 6 },
      { from: 8, to: 9 },
    ]);
    // In one pass: a session of many commands each followed by its output.
    const long = Array.from({ length: 20000 }, (_, i) => [`$ run ${i}`, '', `done ${i}`, '']).flat();
    expect(codeParts(long)).toHaveLength(20000);
  });

  it('reads a list that interrupts a paragraph as a list: its items are not words of the sentence before them', () => {
    const units = unitsOf(
      'If an object is supplied, two options can be specified:\n  * `paths` (array): Required.\n    See the syntax.\n  * `censor` (String): Optional.\nAfter 2. words.',
      1200,
    );
    expect(units.map((u) => [u.kind, u.text])).toEqual([
      ['sentence', 'If an object is supplied, two options can be specified:'],
      ['item', '* `paths` (array): Required. See the syntax.'],
      ['item', '* `censor` (String): Optional. After 2. words.'],
    ]);
    expect(units[1]!.block).toBe(units[0]!.block + 1);
  });

  it('keeps a code block within the answer budget whole, and cuts a longer one into parts of it', () => {
    const short = '```js\nconst a = 1;\nconst b = 2;\n```';
    expect(unitsOf(short, DEFAULT_ANSWER_OPTIONS.maxChars).map((u) => u.text)).toEqual([short]);
    const units = unitsOf(`Options:\n\n${LISTING}`, DEFAULT_ANSWER_OPTIONS.maxChars);
    expect(LISTING.length).toBeGreaterThan(DEFAULT_ANSWER_OPTIONS.maxChars);
    expect(units[0]).toMatchObject({ kind: 'sentence', text: 'Options:' });
    expect(units.slice(1).every((u) => u.kind === 'code' && u.excerpt && u.block === units[1]!.block)).toBe(true);
    expect(units.map((u) => u.text)).toContain('  // maximum redirect count; set 0 to refuse every redirect\n  follow: 2,');
  });

  it('quotes the field that answers, fenced, under the listing’s first line, with … where lines were left out', () => {
    const p = passage(`The defaults are listed below.\n\n${LISTING}`);
    const quotes = selectQuotes([p], [qterm('redirect', 3), qterm('refuse', 2)], { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 2 });
    expect(renderQuotes(quotes, () => 'client.md').text).toBe(
      [
        'From client.md [1]:',
        '> The defaults are listed below.',
        '> ```js',
        '> const defaults = {',
        '>   …',
        '>   // maximum redirect count; set 0 to refuse every redirect',
        '>   follow: 2,',
        '>   …',
        '> ```',
      ].join('\n'),
    );
  });
});

// ------------------------------------------------------------------ end to end over a small documentation set

const README = `# parcel-server

A small HTTP server for static parcels.

## Usage

Create a server with \`createServer(options)\` and call \`listen(port)\`. Every request is logged.

## Options

### bodyLimit

Controls the largest request body the server reads, in bytes or as a string such as \`'2mb'\`.
Defaults to \`'1mb'\`.

> Raising the body limit far above the default lets large request bodies use memory and time, so keep
> requests near the default where you can.

### cacheControl

Sets the \`Cache-Control\` header of every response. Defaults to \`'no-cache'\`.

### compression

When true, responses are compressed with gzip.

## Getting started

The quickest way to start a new parcel project is the generator, as shown below:

Install it globally. Its major version follows the server's:

\`\`\`bash
npm install -g parcel-server-starter
\`\`\`

Then run \`parcel-server-starter my-app\` in an empty folder.
`;

const CHANGELOG = `# Changelog

## 3.0.0

The server now reads request bodies as streams. Every response carries a date header.

## 2.0.0

Logging moved to an option of its own.
`;

const HELP = `# parcel-server help

## Testing

See \`parcel-check\`.

## Debugging

Set \`DEBUG=parcel\` to print every request the server reads.
`;

const ECOSYSTEM = `# parcel-server ecosystem

## Tools

- \`parcel-check\`: records what a server answered, for comparison later.
- \`parcel-cli\`: starts a server from a folder.
`;

const TROUBLESHOOTING = `# parcel-server troubleshooting

## Large uploads

Uploading a folder of many files may fail with:

\`\`\`
Error: spawnSync /bin/sh ENOBUFS during UploadCommand.run
\`\`\`

Raise the buffer with \`--max-buffer\`.

## Reloading

\`parcel-cli serve\` reloads the page on every change. \`parcel-cli build\` takes \`--watch\` to build again.
`;

let index: DocIndex;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ index, close } = await ingestedIndex('answers', {
    'parcel-server/troubleshooting.md': TROUBLESHOOTING,
    'parcel-server/README.md': README,
    'parcel-server/CHANGELOG.md': CHANGELOG,
    'parcel-server/help.md': HELP,
    'parcel-server/ecosystem.md': ECOSYSTEM,
  }));
});
afterAll(() => close());

describe('what a question names that the documentation lacks', () => {
  it('counts a name the question capitalises that the documentation never uses, not an ordinary word it lacks', async () => {
    const absentNames = FEATURES.indexOf('absent_names');
    const tool = await index.trace('How do I compress parcel-server responses with Brotli?');
    expect(tool.evidence!.values[absentNames]).toBe(1);
    const plain = await index.trace('Does parcel-server compress responses by itself, or do I opt in somehow?');
    expect(plain.evidence!.values[absentNames]).toBe(0);
    const abbreviation = await index.trace('Does parcel-server support HTTP2 or QUIC?');
    expect(abbreviation.evidence!.values[absentNames]).toBe(0);
  });

  it('does not count a name the question gives only in an aside missing: quoted code that sets the scene, an example', async () => {
    const scene = await index.trace('Old code calls `parcel.legacyStart()` and it throws after upgrading. Why?');
    expect(scene.evidence!.missingStrong).toEqual([]);
    expect(scene.evidence!.missingWeak).toEqual([]);
    const example = await index.trace('Which flags does parcel-server take, e.g. `--legacy-start`?');
    expect(example.evidence!.missingStrong).toEqual([]);
    // Asked for, the same name decides; and "a setting like `x`" asks for `x`.
    const asked = await index.trace('How do I call `parcel.legacyStart()` after upgrading?');
    expect(asked.evidence!.missingStrong).toEqual(['`legacyStart` (asked as `parcel.legacyStart()`)']);
    expect(asked.result.grounded).toBe(false);
    const like = await index.trace('Is there a setting like `legacyStartTimeout` in parcel-server?');
    expect(like.evidence!.missingStrong).toEqual(['`legacyStartTimeout`']);
  });

  it('finds a backticked phrase where its words stand together: an error message quoted from the page, not a command line made of words said apart', async () => {
    const error = await index.trace('How do I fix `spawnSync /bin/sh ENOBUFS` when uploading big folders?');
    expect(error.evidence!.missingWeak).toEqual([]);
    expect(error.result.reason ?? '').not.toContain('never mentions');
    expect((await index.trace('What does `parcel-cli serve` reload?')).evidence!.missingWeak).toEqual([]);
    const made = await index.trace('Is there a `parcel-cli serve --watch` mode?');
    expect(made.evidence!.missingWeak).toEqual(['`parcel-cli serve --watch`']);
  });

  it('weighs a missing word by how specific it is in English: an everyday one says nothing, and a refusal names the specific ones', async () => {
    const missing = (e: { values: number[] }) => e.values[FEATURES.indexOf('absent_nouns')]!;
    const everyday = await index.trace('Does parcel-server compress responses, really, right now?');
    expect(everyday.evidence!.absentWords).toEqual([]);
    expect(missing(everyday.evidence!)).toBe(0);
    const specific = await index.trace('Does parcel-server compress responses with zstd, really, right now?');
    expect(missing(specific.evidence!)).toBeGreaterThan(0);
    const refused = await index.trace('How do I encrypt the kubernetes daemon of parcel-server, really?');
    expect(refused.result.grounded).toBe(false);
    expect(refused.evidence!.absentWords).toEqual(['kubernetes', 'encrypt', 'daemon']);
    expect(refused.result.reason).toContain('Not found anywhere in the documentation: "kubernetes", "encrypt", "daemon".');
  });

  it('weighs a missing word less when the question uses it only in an aside: an example it gives, or a sentence that does not ask', async () => {
    const missing = (e: { values: number[] }) => e.values[FEATURES.indexOf('absent_nouns')]!;
    const asked = await index.trace('Does parcel-server compress zstd responses?');
    const example = await index.trace('Does parcel-server compress responses, e.g. zstd?');
    const context = await index.trace('Some are zstd. Does parcel-server compress responses?');
    expect(asked.evidence!.absentWords).toEqual(['zstd']);
    expect(missing(asked.evidence!)).toBeGreaterThan(0);
    for (const aside of [example, context]) {
      expect(missing(aside.evidence!)).toBeGreaterThan(0);
      expect(missing(aside.evidence!)).toBeCloseTo(missing(asked.evidence!) * TUNING.asideWeight, 5);
    }
  });

  it('reads how much a question uses the documentation’s own words rather than words it mentions in passing', async () => {
    const topicality = FEATURES.indexOf('topicality');
    const onTopic = await index.trace('Are parcel server responses compressed with gzip?');
    const inPassing = await index.trace('Who will start a new project later, and at what time?');
    expect(onTopic.evidence!.values[topicality]).toBeGreaterThan(0);
    expect(inPassing.evidence!.values[topicality]).toBeLessThan(0);
  });

  it('names a missing name as the question wrote it, never the pieces it is searched by', async () => {
    const refused = await index.trace('How do I keep parcel-server sessions in PostgreSQL or SQLite?');
    expect(refused.result.grounded).toBe(false);
    expect(refused.evidence!.absentWords).toEqual(['PostgreSQL', 'SQLite', 'sessions']);
    expect(refused.result.reason).toContain('Not found anywhere in the documentation: "PostgreSQL", "SQLite", "sessions".');
    expect(refused.result.reason).not.toMatch(/"(postgr|sql|sq|lite)"/i);
  });

  it('names a missing file or path whole, not also the words inside it', async () => {
    const refused = await index.trace('Can parcel-server keep its sessions in /var/lib/zstdcache.db on a kubernetes node?');
    expect(refused.result.grounded).toBe(false);
    expect(refused.evidence!.absentWords).toEqual(['var/lib/zstdcache.db', 'kubernetes', 'node', 'sessions']);
    expect(refused.result.reason).toContain('Not found anywhere in the documentation: "var/lib/zstdcache.db", "kubernetes", "node", "sessions".');
  });
});

describe('extractive answers', () => {
  it('quotes an option’s default value when asked for the default, from the option’s own section', async () => {
    const trace = await index.trace('What is the biggest request body parcel-server reads by default?', { draft: true });
    expect(trace.result.sources[0]).toMatchObject({ title: 'parcel-server/README.md' });
    const answer = trace.result.answer ?? trace.draft!;
    expect(answer).toContain("Defaults to `'1mb'`.");
    expect(answer).toMatch(/^From parcel-server\/README\.md › parcel-server › Options › bodyLimit \[1\]:/);
  });

  it('quotes the install command the getting-started section leads up to when asked for a project generator', async () => {
    const trace = await index.trace('Is there a tool that scaffolds a new parcel-server project?', { draft: true });
    const answer = trace.result.answer ?? trace.draft!;
    expect(answer).toContain('> npm install -g parcel-server-starter');
    expect(answer).toContain('as shown below:');
  });

  it('lists the document that names the quoted passage’s code names among the sources, after those the answer cites', async () => {
    const trace = await index.trace('Is there a helper for asserting on what parcel-server sends back in my tests?', { draft: true });
    expect(trace.retrieval!.documents[0]!.doc.title).toBe('parcel-server/help.md');
    const titles = trace.result.sources.map((s) => s.title);
    expect(titles[0]).toBe('parcel-server/help.md');
    // Listed as related (no retrieval score), right after the documents the answer can cite.
    const cited = Math.max(1, ...[...(trace.result.answer ?? '').matchAll(/\[(\d+)\]:$/gm)].map((m) => Number(m[1])));
    const at = titles.indexOf('parcel-server/ecosystem.md');
    expect(at).toBeGreaterThanOrEqual(1);
    // Quoted itself (the answer reaches the runner-up documents), or listed after the documents it quotes.
    const quoted = [...(trace.result.answer ?? '').matchAll(/^From (\S+)/gm)].map((m) => m[1]);
    if (!quoted.includes('parcel-server/ecosystem.md')) expect(at).toBeGreaterThanOrEqual(cited);
    expect(trace.result.sources[at]).toMatchObject({ title: 'parcel-server/ecosystem.md', section: 'parcel-server ecosystem › Tools' });
    // Every "From <title> … [n]:" of an answer names sources[n - 1].
    for (const m of (trace.result.answer ?? '').matchAll(/^From (\S+).*\[(\d+)\]:$/gm)) expect(titles[Number(m[2]) - 1]).toBe(m[1]);
  });
});

describe('the lead’s continuation', () => {
  it('brings the sentence after the lead, where the answer often is, within the unit count', () => {
    const p = passage(
      'This handler is always passed an InternalServerError, not the original error. The original is available as `e.original_exception`. Unrelated closing words.',
    );
    const terms = [qterm('handler', 2), qterm('original', 2), qterm('error', 1)];
    expect(quoted(selectQuotes([p], terms, { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 2 }))).toEqual([
      'This handler is always passed an InternalServerError, not the original error.',
      'The original is available as `e.original_exception`.',
    ]);
    expect(quoted(selectQuotes([p], terms, { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 1 }))).toHaveLength(1);
  });
});

describe('quotes that read cleanly', () => {
  it('quotes what one [n] cites in one place: a section quoted from two of its passages together, in document order', () => {
    const at = (text: string, section: string, ord: number) => {
      const p = passage(text, { doc: 'guide' });
      Object.assign(p.candidate.chunk, { section, ord, chunk_id: `${section}:${ord}` });
      return p;
    };
    const later = at('Set `depth` to stop early.', 'Guide › Options', 4);
    const other = at('Run it with `walk()`.', 'Guide › Usage', 1);
    const earlier = at('Options are read once.', 'Guide › Options', 3);
    expect(renderQuotes([quoteOf(later), quoteOf(other), quoteOf(earlier)], () => 'guide.md').text).toBe(
      [
        'From guide.md › Guide › Options [1]:',
        '> Options are read once.',
        '> Set `depth` to stop early.',
        '',
        'From guide.md › Guide › Usage [2]:',
        '> Run it with `walk()`.',
      ].join('\n'),
    );
  });

  it('quotes the rows of one table under one header, rows intact', () => {
    const table = '| Option | Default |\n| --- | --- |\n| `retries` | `3` |\n| `timeout` | `10s` |';
    const p = passage(`The options:\n\n${table}`);
    const quotes = selectQuotes([p], [qterm('retri', 2), qterm('timeout', 2)], { ...DEFAULT_ANSWER_OPTIONS, maxUnits: 4 });
    const text = renderQuotes(quotes, () => 'opts.md').text;
    expect(text.match(/\| Option \| Default \|/g)).toHaveLength(1);
    expect(text).toContain('> | `retries` | `3` |');
    expect(text).toContain('> | `timeout` | `10s` |');
  });

  it('quotes rows of one long table cut between passages under one header, as rows of one passage are', () => {
    const header = '| Name | Default |\n| --- | --- |';
    const piece = (row: string, ord: number) => {
      const p = passage(`${header}\n${row}`, { doc: 'build' });
      Object.assign(p.candidate.chunk, { section: 'build › Options', ord, chunk_id: `options:${ord}` });
      return p;
    };
    expect(renderQuotes([quoteOf(piece('| `--cache-from` | |', 1)), quoteOf(piece('| `--no-cache` | `false` |', 2))], () => 'build.md').text).toBe(
      ['From build.md › build › Options [1]:', '> | Name | Default |', '> | --- | --- |', '> | `--cache-from` | |', '> | `--no-cache` | `false` |'].join('\n'),
    );
  });

  it('quotes a table row under its header with the padding that lines cells up in the source squeezed out', () => {
    const table = ['| Option      | Default     |', '| ----------- | ----------- |', '| `retries`   | `3`         |'].join('\n');
    expect(unitsOf(table, 1200).map((u) => u.text)).toEqual(['| Option | Default |\n| `retries` | `3` |']);
  });

  it('sets a list and a table apart from the prose quoted around them, and keeps a nested list nested only under its parent', () => {
    const p = passage(
      'Kinds:\n\n* **hoisted** a flat folder, for:\n  1. tools that break on links\n* **isolated** the default\n\n| Kind | Links |\n| --- | --- |\n| hoisted | no |\n\nHoisted is slower.',
    );
    const all = unitsOf(p.candidate.chunk.text, 1200).map((unit) => quoteOf(p, unit));
    expect(all.map((q) => q.unit.text)).toContain('  1. tools that break on links');
    expect(renderQuotes(all, () => 'kinds.md').text).toBe(
      [
        'From kinds.md [1]:',
        '> Kinds:',
        '>',
        '> * **hoisted** a flat folder, for:',
        '>   1. tools that break on links',
        '> * **isolated** the default',
        '>',
        '> | Kind | Links |',
        '> | --- | --- |',
        '> | hoisted | no |',
        '>',
        '> Hoisted is slower.',
      ].join('\n'),
    );
    // Alone, the nested item is not indented: it would read as a code block.
    expect(renderQuotes([all[2]!], () => 'kinds.md').text).toBe('From kinds.md [1]:\n> 1. tools that break on links');
    // Nor first under a later source's line, after an item quoted under another source.
    const other = passage('* **pnp** no folder at all', { doc: 'other' });
    const item = quoteOf(other, undefined, 2);
    expect(renderQuotes([item, all[2]!], (c) => `${c.doc.id}.md`).text).toBe(
      'From other.md [1]:\n> * **pnp** no folder at all\n\nFrom d.md [2]:\n> 1. tools that break on links',
    );
  });

  it('never starts a quoted sentence after an abbreviation', () => {
    const units = unitsOf('Pass a function, e.g. `(req) => true`, to decide. Use it sparingly.', 1200);
    expect(units.map((u) => u.text)).toEqual(['Pass a function, e.g. `(req) => true`, to decide.', 'Use it sparingly.']);
  });
});

describe('the units an answer quotes, with the caller’s keywords', () => {
  const RANGES = `# Ranges

To pick the versions that fit a range, use the functions below; none of them changes the list.

## Functions

* \`maxSatisfying(versions, range)\`: Return the highest version in the list that satisfies the range.
* \`minSatisfying(versions, range)\`: Return the lowest version in the list that satisfies the range.
* \`sortVersions(versions)\`: Return the list sorted, oldest first.
`;
  let ranges: DocIndex;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ index: ranges, close: done } = await ingestedIndex('keyword-units', { 'semverish/ranges.md': RANGES }));
  });
  afterAll(() => done());

  it('leads with the unit that uses the documentation’s word the keywords give, not the one that repeats the asker’s', async () => {
    const question = 'How do I pick the newest of my versions that fits a range?';
    const lead = (t: Awaited<ReturnType<DocIndex['trace']>>) => t.quotes?.find((q) => q.why === 'lead')?.unit.text;
    const plain = await ranges.trace(question);
    expect(plain.result.grounded).toBe(true);
    expect(lead(plain)).toBe('To pick the versions that fit a range, use the functions below; none of them changes the list.');
    const helped = await ranges.trace(question, { alternatives: ['maxSatisfying', 'highest version that satisfies the range'] });
    expect(lead(helped)).toBe('* `maxSatisfying(versions, range)`: Return the highest version in the list that satisfies the range.');
  });
});

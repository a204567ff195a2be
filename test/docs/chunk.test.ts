import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { chunkMarkdown, referenceDefinitions, SECTION_SEPARATOR } from '../../src/docs/chunk.js';
import { parseDocument, type ContentType } from '../../src/docs/parse.js';

/** The passages' texts of a document of the given format. */
const passages = (text: string, type: ContentType = 'markdown') => chunkMarkdown(parseDocument(text, type).body).map((c) => c.text);

const fixture = (name: string) => readFile(new URL(`../fixtures/docs/product/${name}`, import.meta.url), 'utf8');

describe('structure-aware chunking', () => {
  it('keeps the heading path of every chunk as its section', async () => {
    const parsed = parseDocument(await fixture('api.md'), 'markdown');
    const sections = chunkMarkdown(parsed.body).map((c) => c.section);
    expect(sections).toContain(['API', 'lumen([options])', 'Options', 'nestedKey (String)'].join(SECTION_SEPARATOR));
    expect(sections).toContain(['API', 'Logger methods', 'logger.flushSync()'].join(SECTION_SEPARATOR));
  });

  it('never cuts a code fence, even with blank lines and # lines inside, or when it is far over the size', async () => {
    const parsed = parseDocument(await fixture('api.md'), 'markdown');
    for (const maxChars of [40, 200, 1200]) {
      const chunks = chunkMarkdown(parsed.body, { maxChars });
      const withFence = chunks.filter((c) => c.text.includes('```'));
      for (const c of withFence) expect(c.text.match(/```/g)!.length % 2).toBe(0);
      const fence = chunks.find((c) => c.text.includes("lumen({ nestedKey: 'payload' })"))!;
      expect(fence.text).toContain('# this line starts with a hash inside the fence');
      expect(fence.text).toContain("log.info({ time: 'mine' }, 'hello')");
      expect(fence.section.endsWith('nestedKey (String)')).toBe(true);
    }
  });

  it('cuts long sections at block boundaries near the size', () => {
    const para = (i: number) => `Paragraph ${i} ` + 'word '.repeat(40);
    const body = `# Big\n\n${Array.from({ length: 10 }, (_, i) => para(i)).join('\n\n')}`;
    const chunks = chunkMarkdown(body, { maxChars: 500 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.section).toBe('Big');
      expect(c.text.length).toBeLessThanOrEqual(500);
      expect(c.text.startsWith('Paragraph')).toBe(true);
    }
  });

  it('cuts a table longer than a passage between rows, each piece under the header, and a long list between its items', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `| \`option${i}\` | Sets option number ${i}. Defaults to \`${i}\`. |`);
    const table = ['# Options', '', '| Option | Meaning |', '| --- | --- |', ...rows].join('\n');
    const tablePieces = chunkMarkdown(table, { maxChars: 600 });
    expect(tablePieces.length).toBeGreaterThan(1);
    for (const piece of tablePieces) {
      const lines = piece.text.split('\n');
      expect(lines.slice(0, 2)).toEqual(['| Option | Meaning |', '| --- | --- |']);
      for (const line of lines.slice(2)) expect(rows).toContain(line);
      expect(piece.text.length).toBeLessThanOrEqual(600);
    }
    expect(tablePieces.flatMap((p) => p.text.split('\n').slice(2))).toEqual(rows);

    const items = Array.from({ length: 30 }, (_, i) => [`* \`flag${i}\` turns feature ${i} on.`, `    * > It logs "feature ${i} on".`]);
    const list = ['# Flags', '', ...items.flat()].join('\n');
    const listPieces = chunkMarkdown(list, { maxChars: 500 });
    expect(listPieces.length).toBeGreaterThan(1);
    // Every piece starts at a top-level item and keeps each item's nested line under it, one line each.
    for (const piece of listPieces) expect(piece.text.startsWith('* `flag')).toBe(true);
    expect(listPieces.flatMap((p) => p.text.split('\n'))).toEqual(items.flat());
  });

  it('cuts one list item longer than a passage between its nested items, never running their lines together', () => {
    const nested = Array.from({ length: 12 }, (_, i) => [
      `  * \`option${i}\` {number} What option ${i} sets. It makes sense`,
      `    only when option ${i - 1} is set. **Default:** \`${i}\`.`,
    ]);
    const list = ['# API', '', '## create(options)', '', '* `options` {Object}', ...nested.flat(), '* Returns: {Thing}'].join('\n');
    const pieces = chunkMarkdown(list, { maxChars: 500 });
    expect(pieces.length).toBeGreaterThan(1);
    // Lines stay lines: every line of every piece is a line of the list, and each nested item starts a line.
    const lines = pieces.flatMap((p) => p.text.split('\n')).filter(Boolean);
    expect(lines).toEqual(['* `options` {Object}', ...nested.flat(), '* Returns: {Thing}']);
    for (const piece of pieces) expect(piece.text.length).toBeLessThanOrEqual(500);
  });

  it('cuts a hard-wrapped list item longer than a passage between its sentences, never mid-sentence', () => {
    const sentences = Array.from({ length: 14 }, (_, i) => `Sentence ${i} of the item says what \`setting${i}\` does when it is on.`);
    // Hard-wrapped the way a README's source is: each line ends mid-sentence, and the next opens with inline code.
    const lines = [
      '- Sentence 0 of the item says what',
      ...sentences.map((_, i) => `  \`setting${i}\` does when it is on.${i < sentences.length - 1 ? ` Sentence ${i + 1} of the item says what` : ''}`),
    ];
    const pieces = chunkMarkdown(['# Settings', '', ...lines, '- A short item.'].join('\n'), { maxChars: 400 });
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces) {
      expect(piece.text.length).toBeLessThanOrEqual(400);
      expect(piece.text).toMatch(/^(- )?(Sentence \d|A short item)/);
    }
    const flat = (t: string) => t.replace(/(^|\n)- /g, '$1').replace(/\s+/g, ' ');
    expect(pieces.map((p) => flat(p.text)).join(' ')).toBe(`${sentences.join(' ')} A short item.`);
  });

  it('reads an HTML table written in markdown as a markdown table: a row a line under its header', () => {
    const html = [
      '# Options',
      '',
      'The options are:',
      '<table>',
      '  <thead><tr><th>Option</th><th>Meaning</th></tr></thead>',
      '  <tbody>',
      '    <tr>',
      '      <td><code>bodyLimit</code></td>',
      '      <td>The largest body accepted,<br>in bytes; a | b.</td>',
      '    </tr>',
      '    <tr><td><code>&lt;th&gt;</code></td><td>A header cell.</td></tr>',
      '  </tbody>',
      '</table>',
      'After the table.',
      '',
      '```html',
      '<table><tr><td>code stays</td></tr></table>',
      '```',
    ].join('\n');
    expect(parseDocument(html, 'markdown').body).toBe(
      [
        '# Options',
        '',
        'The options are:',
        '',
        '| Option | Meaning |',
        '| --- | --- |',
        '| `bodyLimit` | The largest body accepted, in bytes; a \\| b. |',
        '| `<th>` | A header cell. |',
        '',
        'After the table.',
        '',
        '```html',
        '<table><tr><td>code stays</td></tr></table>',
        '```',
      ].join('\n'),
    );
    // Unclosed, it is left as it was.
    expect(parseDocument('<table><tr><td>a</td>', 'markdown').body).toBe('<table><tr><td>a</td>');
  });

  it('reads a table written without outer pipes as a table, and leaves what only looks like one', () => {
    // What stays as written: a heading's underline under a line with a pipe (one delimiter cell for two
    // header cells) and a fenced block.
    const untouched = ['Name | Note', '---', '', '```', 'a | b', '--|--', '```'];
    const md = [
      'The output goes into:',
      '',
      'Directory | Description',
      ':---------|------------',
      '<code style="white-space: nowrap">target/debug/</code> | Output of the `dev` profile.',
      '`target/release/` | Output of the `release` profile; `a \\| b` stays one cell.',
      'After the table, a paragraph.',
      '',
      ...untouched,
    ].join('\n');
    expect(parseDocument(md, 'markdown').body).toBe(
      [
        'The output goes into:',
        '',
        '| Directory | Description |',
        '| :--------- | ------------ |',
        '| <code style="white-space: nowrap">target/debug/</code> | Output of the `dev` profile. |',
        '| `target/release/` | Output of the `release` profile; `a \\| b` stays one cell. |',
        'After the table, a paragraph.',
        '',
        ...untouched,
      ].join('\n'),
    );
    // Quoted, a row is under its header and its HTML code reads as code.
    const [passage] = passages(`# Layout\n\n${md.split('\n').slice(2, 6).join('\n')}\n`);
    expect(passage).toContain('| `target/debug/` | Output of the `dev` profile. |');
  });

  it('reads a hostile delimiter row in one pass', () => {
    // A delimiter row's trailing spaces could once be split two ways at every position (quadratic).
    const line = `a | b\n--|--${' '.repeat(100_000)}x`;
    expect(parseDocument(line, 'markdown').body).toBe(line);
  });

  it('keeps an HTML code block that shows markdown with its own fences as one block, its # lines no headings', () => {
    const page =
      '<html><body><main><h1>Markdown scripts</h1><p>Create <code>readme.md</code>:</p>' +
      '<pre><code># My Script\n\n```java\nclass Demo {}\n```\n\n````jsh\nnew Demo();\n````</code></pre>' +
      '<h2>Running</h2><pre><code>tool readme.md\n# Output: Hello</code></pre></main></body></html>';
    const { body } = parseDocument(page, 'html');
    expect(body).toBe(
      [
        '# Markdown scripts',
        '',
        'Create `readme.md`:',
        '',
        '`````',
        '# My Script',
        '',
        '```java',
        'class Demo {}',
        '```',
        '',
        '````jsh',
        'new Demo();',
        '````',
        '`````',
        '',
        '## Running',
        '',
        '```',
        'tool readme.md',
        '# Output: Hello',
        '```',
      ].join('\n'),
    );
    expect(chunkMarkdown(body).map((c) => c.section)).toEqual(['Markdown scripts', 'Markdown scripts › Running']);
    // Docusaurus writes each line of a code block as a span ending in <br>.
    const lines = ['```js', 'x = 1', '```', '## Not a heading'].map((l) => `<span class="token-line">${l}<br></span>`).join('');
    const docusaurus = parseDocument(`<html><body><main><h1>Page</h1><pre><code>${lines}</code></pre><p>After.</p></main></body></html>`, 'html').body;
    expect(docusaurus).toBe('# Page\n\n````\n```js\nx = 1\n```\n## Not a heading\n````\n\nAfter.');
    expect(chunkMarkdown(docusaurus).map((c) => c.section)).toEqual(['Page']);
  });

  it('reads an HTML page’s table as a markdown table, as a table written in markdown is read', () => {
    const page =
      '<html><body><main><h1>Options</h1><table><thead><tr><th>Option</th><th>Meaning</th></tr></thead><tbody>' +
      '<tr><td><code>bodyLimit</code></td><td>The largest body, <a href="/units">in bytes</a>.</td></tr>' +
      '<tr><td><code>caseSensitive</code></td><td>Whether routes match case.</td></tr></tbody></table><p>After.</p></main></body></html>';
    expect(parseDocument(page, 'html').body).toBe(
      [
        '# Options',
        '',
        '| Option | Meaning |',
        '| --- | --- |',
        '| `bodyLimit` | The largest body, in bytes. |',
        '| `caseSensitive` | Whether routes match case. |',
        '',
        'After.',
      ].join('\n'),
    );
  });

  it('reads hostile HTML tables and summaries in one pass: unclosed tables are left as written', () => {
    // Each unclosed <table> once looked ahead up to 2,000 lines for its end: 50,000 of them took 4.9 s;
    // one pass over the lines takes about 150 ms (measured, not asserted: tests keep no clocks).
    const unclosed = '<table>\n'.repeat(50_000);
    expect(parseDocument(unclosed, 'markdown').body).toBe(unclosed);
    const tables = '<table><tr><td>a</td></tr></table>\n'.repeat(20_000);
    expect(
      parseDocument(tables, 'markdown')
        .body.split('\n')
        .filter((l) => l === '| a |'),
    ).toHaveLength(20_000);
    const summary = `<summary>${'</summary> '.repeat(100_000)}x`;
    expect(parseDocument(summary, 'markdown').body).toBe(summary);
  });

  it('reads hostile component tags in one pass: tags never closed are left as written', () => {
    // A tag's lines are looked ahead for its closing `>` over at most a few lines (measured about 70 ms for
    // each case here, not asserted: tests keep no clocks).
    const openings = '<Param\n'.repeat(50_000);
    expect(parseDocument(openings, 'markdown').body).toBe(openings);
    const attributes = `<Param ${'a="b" '.repeat(100_000)}`;
    expect(parseDocument(attributes, 'markdown').body).toBe(attributes);
    const attributeLines = `<Param\n${'  a="b"\n'.repeat(50_000)}`;
    expect(parseDocument(attributeLines, 'markdown').body.split('\n')).toHaveLength(50_002);
    // Elements opened and never closed: their text is read, without its indentation.
    const nested = `${'<Param name="x">\n'.repeat(20_000)}    text`;
    expect(parseDocument(nested, 'markdown').body.split('\n').at(-1)).toBe('text');
  });

  it('reads a hostile run of blank lines inside an indented code block in one pass', () => {
    // Each blank line once looked ahead past the whole run for more code: 20,000 of them took 1.3 s (a 100 KB upload of 100,000, half a minute);
    // looking past the run once takes under 60 ms (measured, not asserted: tests keep no clocks).
    const md = `# Code\n\n    first()\n${'\n'.repeat(20_000)}    second()\n`;
    expect(passages(md)).toEqual([`\`\`\`\nfirst()\n${'\n'.repeat(20_000)}second()\n\`\`\``]);
  });

  it('labels an HTML collapsible block by its summary, as a `::: details` container is', () => {
    const md = '# Setup\n\n<details>\n<summary><b>Example config</b></summary>\n\n```js\nexport default { port: 8080 }\n```\n\n</details>';
    expect(passages(md)).toEqual(['**Example config:**\n\n```js\nexport default { port: 8080 }\n```']);
    // In code it is code.
    expect(passages('# Setup\n\n```html\n<summary>Kept</summary>\n```')).toEqual(['```html\n<summary>Kept</summary>\n```']);
  });

  it('reads front matter title and description, and opens the first chunk with the description', async () => {
    const parsed = parseDocument(await fixture('api.md'), 'markdown');
    expect(parsed.title).toBe('Lumen logger API');
    expect(parsed.description).toBe('Reference of the lumen() factory, its options and the logger methods.');
    expect(parsed.body).not.toContain('title: Lumen logger API');
    const [first] = chunkMarkdown(parsed.body, { maxChars: 1200 }, parsed.description);
    expect(first!.text.startsWith('Reference of the lumen() factory')).toBe(true);
  });

  it('reads a page that is all front matter (a VitePress home page) by its values that are phrases, nested ones too', () => {
    const home = [
      '---',
      'layout: home',
      'hero:',
      '  name: bundle.js',
      '  text: The module bundler',
      '  actions:',
      '    - theme: brand',
      '      text: Get Started',
      '      link: /introduction/',
      'features:',
      "  - title: 'The bundler behind Vite'",
      '    details: Vite pre-configures it for you.',
      '    link: https://vitejs.dev/',
      '---',
      '',
    ].join('\n');
    expect(parseDocument(home, 'markdown').body).toBe(
      ['bundle.js', 'The module bundler', 'Get Started', 'The bundler behind Vite', 'Vite pre-configures it for you.'].join('\n\n'),
    );
    // A page with a body of its own keeps it, whatever its front matter holds.
    expect(parseDocument(home + 'Read me.\n', 'markdown').body.trim()).toBe('Read me.');
  });

  it('reads an ATX heading\'s closing hashes as markup only after a space: "C#" keeps its hash', () => {
    const sections = chunkMarkdown('# C#\n\nOne.\n\n## Setup ##\n\nTwo.\n\n####### seven\n').map((c) => c.section);
    expect(sections).toEqual(['C#', `C#${SECTION_SEPARATOR}Setup`]);
  });

  it('understands setext headings, and drops link targets, images and HTML tags from the text', () => {
    const chunks = chunkMarkdown('Setup\n=====\n\nSee [the guide](https://x.test/g) ![badge](https://x.test/b.svg) <a id="x"></a>now.\n');
    expect(chunks).toEqual([{ section: 'Setup', text: 'See the guide  now.', headings: [['Setup']] }]);
    // A badge is an image inside a link, inline or by reference: both go whole, with no empty brackets left.
    const badges = chunkMarkdown('# Lumen\n\n[![CI](https://x.test/ci.svg)](https://x.test/ci) [![npm](https://x.test/v.svg)][npm-url] [the docs][docs] ok\n');
    expect(badges.map((c) => c.text)).toEqual(['the docs ok']);
  });

  it('turns HTML into headings, paragraphs and fenced code, without head, style or nav', async () => {
    const parsed = parseDocument(await fixture('guides/upgrade.html'), 'html');
    expect(parsed.title).toBe('Upgrading lumen');
    const chunks = chunkMarkdown(parsed.body);
    expect(chunks.map((c) => c.section)).toEqual(['Upgrading to lumen 3', `Upgrading to lumen 3${SECTION_SEPARATOR}Node.js support`]);
    expect(chunks[0]!.text).toContain('removes the `prettyPrint` option');
    expect(chunks[1]!.text).toContain('```\nnpm install lumen@3\n```');
    expect(parsed.body).not.toMatch(/color: red|Home \| Docs/);
  });

  it("reads a documentation site's page as its content: no site header, sidebar, table of contents, pager, footer or permalink marks", async () => {
    const site = (name: string) => readFile(new URL(`../fixtures/sites/${name}.html`, import.meta.url), 'utf8');
    // Sphinx (alabaster): the element marked role="main"; `¶` marks after headings and definitions go.
    expect(parseDocument(await site('sphinx'), 'html')).toEqual({
      title: 'Log rotation — lumen 3.1 documentation',
      description: undefined,
      body: [
        '# Log rotation',
        'Lumen writes one file per day and never deletes old ones.',
        '## Configuring logrotate',
        '```\n/var/log/lumen.log {\n  daily\n  rotate 7\n}\n```',
        'lumen.reopen()',
        'Reopens the log file after `logrotate` moved it.',
      ].join('\n\n'),
      links: [],
    });
    // MkDocs Material: the one <article> of <main>; the copy button and the edit icon's title go, a quote reads as text.
    expect(parseDocument(await site('material'), 'html').body).toBe(
      [
        '# Access tokens',
        'Every request carries a token in the `Authorization` header.',
        'Warning',
        'A token grants everything its owner can do.',
        '## Rotating a token',
        '```\n$ lumen token rotate --expire 30d\n```',
        'The old token keeps working for one hour.',
      ].join('\n\n'),
    );
    // Docusaurus: the article, without its breadcrumbs or edit link; the page's <meta> description.
    const docusaurus = parseDocument(await site('docusaurus'), 'html');
    expect(docusaurus.description).toBe('Version 3 removes the prettyPrint option.');
    expect(docusaurus.body.trim()).toBe(
      [
        '# Upgrading to lumen 3',
        'Version 3 removes the `prettyPrint` option. Pipe the output through lumen-pretty instead.',
        '## Node.js support',
        'Lumen 3 supports Node.js 18, 20 and 22.',
        '```\nnpm install lumen@3\n```',
      ].join('\n\n'),
    );
    // VitePress: <main>, whose outline and pager live outside it; zero-width permalinks go.
    const vitepress = parseDocument(await site('vitepress'), 'html');
    expect(vitepress.title).toBe('Access tokens | lumen');
    expect(vitepress.body).toContain('# Access tokens\n\nCreate a token with `lumen token create`.\n\n## Scopes\n\nTIP');
    expect(vitepress.body).toContain("```\nconst token = await lumen.createToken({ scopes: ['read'] })\n```");
    for (const page of ['sphinx', 'material', 'docusaurus', 'vitepress']) {
      expect(parseDocument(await site(page), 'html').body).not.toMatch(
        /¶|\u200b|Navigation|Table of contents|On this page|Previous|Edit this page|Copyright|Search|Skip to/i,
      );
    }
  });

  it('keeps the whole page when no element holds most of it, and headings that are links', () => {
    // An <article> holding a small share of <main> is a card in the page, not the page.
    const card = parseDocument(
      `<main><h1>Tokens</h1><p>${'Tokens expire after thirty days. '.repeat(5)}</p><article><p>Related: scopes</p></article></main>`,
      'html',
    );
    expect(card.body).toContain('# Tokens');
    expect(card.body).toContain('Related: scopes');
    // No landmark: the page less the site banner (<header> in <body>); a section's own header stays.
    const plain = parseDocument(
      '<html><body><header><a href="/">lumen</a> Home Docs Blog</header><section><header><h2><a href="#install">Install</a></h2></header><p>Run <code>npm i lumen</code>.</p></section></body></html>',
      'html',
    );
    expect(plain.body).toBe('## Install\n\nRun `npm i lumen`.');
  });

  it('fences a reStructuredText literal block that shows a markdown fence of its own as one block', () => {
    const rst = 'Fences\n======\n\nWrite a fenced block::\n\n    ```python\n    print(1)\n    ```\n\nAfter the example, prose again.\n';
    const [chunk] = chunkMarkdown(parseDocument(rst, 'rst').body);
    expect(chunk!.text).toBe('Write a fenced block:\n\n````\n```python\nprint(1)\n```\n````\n\nAfter the example, prose again.');
  });

  it('turns reStructuredText titles into headings and literal blocks into fences', async () => {
    const parsed = parseDocument(await fixture('guides/rotation.rst'), 'rst');
    const chunks = chunkMarkdown(parsed.body);
    expect(chunks.map((c) => c.section)).toEqual(['Log rotation', `Log rotation${SECTION_SEPARATOR}Configuring logrotate`]);
    expect(chunks[1]!.text).toContain('```\n/var/log/app.log {\n  daily');
  });

  it('renders the line that opens a reStructuredText literal block as reStructuredText does', () => {
    const lead = (line: string) => passages(`Title\n=====\n\n${line}\n\n    code()\n`, 'rst')[0]!.split('\n\n')[0];
    expect(lead('Example::')).toBe('Example:');
    expect(lead('Example: ::')).toBe('Example:');
    expect(lead('You can change the formatter of any other handler. ::')).toBe('You can change the formatter of any other handler.');
    expect(passages('Title\n=====\n\n::\n\n    code()\n', 'rst')).toEqual(['```\ncode()\n```']);
  });

  it('reads reStructuredText references, substitutions and wrapped literals as text, without anonymous targets', () => {
    const rst = [
      'Title',
      '=====',
      '',
      'Try a dedicated library such as Dynaconf_, or call |fetch|_ from `the page`__.',
      'Add ``from yourapplication.default_settings',
      'import *`` to the file; `__name__` and ``FLASK_`` stay.',
      '',
      '__ https://example.org/page',
    ].join('\n');
    expect(passages(rst, 'rst')).toEqual([
      'Try a dedicated library such as Dynaconf, or call fetch from the page.\nAdd `from yourapplication.default_settings\nimport *` to the file; `__name__` and `FLASK_` stay.',
    ]);
  });

  it('keeps HTML written as inline code (`<th>`) while dropping real tags', () => {
    const [chunk] = chunkMarkdown('# Tables\n\nUse `<th>` for header cells, not <b>bold</b> `<td>`.\n');
    expect(chunk!.text).toBe('Use `<th>` for header cells, not bold `<td>`.');
  });

  it('reads an embedded frame or player as nothing, and the marks around words as the words', () => {
    const md = [
      '# Output',
      '',
      'The HTML formatter shows this:',
      '',
      '<iframe src="example.html" width="100%"></iframe>',
      '',
      'It is <mark>long</mark>, <abbr title="x">HTML</abbr> only.',
    ].join('\n');
    expect(chunkMarkdown(md).map((c) => c.text)).toEqual(['The HTML formatter shows this:\n\nIt is long, HTML only.']);
  });

  it('packs adjacent small sections under one parent into one passage, each further one under its heading line', () => {
    const body = '# Tool\n\n## install\n\nRun the installer.\n\n## stop\n\nPress q to stop.\n\n## token\n\nSet TOKEN.\n';
    const packed = chunkMarkdown(body, { maxChars: 1200, pack: true });
    expect(packed).toEqual([
      {
        section: 'Tool › install',
        text: 'Run the installer.\n\n## Tool › stop\n\nPress q to stop.\n\n## Tool › token\n\nSet TOKEN.',
        headings: [
          ['Tool', 'install'],
          ['Tool', 'stop'],
          ['Tool', 'token'],
        ],
      },
    ]);
    expect(chunkMarkdown(body, { maxChars: 1200, pack: false }).map((c) => c.section)).toEqual(['Tool › install', 'Tool › stop', 'Tool › token']);
    // Not past the size: a passage that would grow over maxChars starts a new one.
    expect(chunkMarkdown(body, { maxChars: 40, pack: true }).length).toBeGreaterThan(1);
  });

  it('reads reStructuredText inline markup and directives as text: roles and literals as code, notes kept, toctrees dropped', () => {
    const parsed = parseDocument(
      'Intro\n=====\n\nCall :func:`~app.url_for` or ``app.run``; see :ref:`the guide <guide>`.\n\n.. note::\n   Keep ``debug`` off.\n\n.. toctree::\n   :maxdepth: 2\n\n   api\n',
      'rst',
    );
    const [chunk] = chunkMarkdown(parsed.body);
    expect(chunk!.text).toBe('Call `app.url_for` or `app.run`; see the guide.\n\n**Note:**\nKeep `debug` off.');
  });

  it("reads Sphinx's role prefixes as nothing and PEP and RFC roles by their names", () => {
    const rst = 'Intro\n=====\n\nUse :attr:`~.Request.args` or :meth:`!Flask.run`, per :pep:`538` and :rfc:`7230`.\n';
    expect(passages(rst, 'rst')).toEqual(['Use `Request.args` or `Flask.run`, per PEP 538 and RFC 7230.']);
    const myst = '# Intro\n\nThanks to {pep}`538`, use {attr}`~.Request.args`.\n';
    expect(passages(myst)).toEqual(['Thanks to PEP 538, use `Request.args`.']);
  });

  it('reads reStructuredText links and references that wrap onto the next line, and roles in a line that opens a literal block', () => {
    const parsed = parseDocument(
      'Get\n===\n\nDownload it from the `project\nrelease page <https://example.com/releases>`__, then read\n:ref:`the backup\nchapter <backup>`. See\n:attr:`Blueprint.root_path` for the folder::\n\n    >>> bp.root_path\n',
      'rst',
    );
    const [chunk] = chunkMarkdown(parsed.body);
    expect(chunk!.text).toBe(
      'Download it from the project\nrelease page, then read\nthe backup\nchapter. See\n`Blueprint.root_path` for the folder:\n\n```\n>>> bp.root_path\n```',
    );
  });

  it('keeps the text of reStructuredText directives that carry it (options, tables, domain objects)', () => {
    const parsed = parseDocument(
      'Flags\n=====\n\n.. option:: --verbose\n\n   Print every file.\n\n.. py:function:: run(x)\n\n   Runs x.\n\n.. image:: logo.png\n   :alt: logo\n',
      'rst',
    );
    const [chunk] = chunkMarkdown(parsed.body);
    expect(chunk!.text).toBe('`--verbose`: Print every file.\n\n`run(x)`: Runs x.');
  });

  it('reads directives nested in list items and directive bodies (code blocks stay code, notes stay notes)', () => {
    const rst =
      'Debugging\n=========\n\n-   Disable the debugger:\n\n    .. code-block:: python\n\n        app.run(use_debugger=False)\n\n.. py:data:: TIMEOUT\n\n    Seconds to wait.\n\n    .. note::\n       Keep ``TIMEOUT`` short.\n';
    const [chunk] = chunkMarkdown(parseDocument(rst, 'rst').body);
    expect(chunk!.text).toContain('```python\napp.run(use_debugger=False)\n```');
    expect(chunk!.text).toContain('`TIMEOUT`: Seconds to wait.');
    expect(chunk!.text).toContain('**Note:**');
    expect(chunk!.text).not.toContain('..');
  });

  it('reads markdown blockquotes as their content, keeping prompts inside fenced code', () => {
    const md = '# Guide\n\n> [!NOTE]\n> Restart after changes.\n\n> EXAMPLE:\n>\n> ```python\n> x = 1\n> ```\n\n```sh\n> npm install\n```\n';
    const body = parseDocument(md, 'markdown').body;
    expect(body).toContain('**Note:**\nRestart after changes.');
    expect(body).toContain('EXAMPLE:\n\n```python\nx = 1\n```');
    expect(body).toContain('```sh\n> npm install\n```');
  });

  it("reads a heading inside a blockquote as the quote's bold title, so the page's next sections stay under its own headings", () => {
    const md = '# API\n\n## Logger\n\n> ## Note\n> Child loggers share the parent.\n\n### logger.child()\n\nMakes a child.\n';
    expect(chunkMarkdown(parseDocument(md, 'markdown').body).map((c) => [c.section, c.text])).toEqual([
      [`API${SECTION_SEPARATOR}Logger`, '**Note**\nChild loggers share the parent.'],
      [`API${SECTION_SEPARATOR}Logger${SECTION_SEPARATOR}logger.child()`, 'Makes a child.'],
    ]);
    // Its closing hashes go as an ATX heading's do, in one pass: a quoted heading of 40,000 spaces once took
    // 2.7 s (a pattern that looked for the closing sequence from every space); now about a millisecond.
    expect(parseDocument('> ## Note ##\n> text\n\n> ## C#\n', 'markdown').body).toBe('**Note**\ntext\n\n**C#**\n');
    const spaces = `> # a${' '.repeat(100_000)}x`;
    expect(parseDocument(spaces, 'markdown').body).toBe(`**a${' '.repeat(100_000)}x**`);
  });

  it('reads shortcut references the page defines, autolinks and hard line breaks as text; other brackets stay', () => {
    const md = [
      '# Publish',
      '',
      'The default registry is <https://crates.io>, see [crates.io] and [the Manifest][manifest].',
      'Run `cargo [options]` with [options] and [^1].',
      '`cargo` [_options_] _command_\\',
      '`cargo` `--version`',
      '',
      '[Crates.IO]: https://crates.io',
      '[manifest]: manifest.md',
      '[^1]: A note.',
      '',
      '```',
      '[options]: not a definition',
      '```',
    ].join('\n');
    expect(passages(md)[0]).toBe(
      'The default registry is https://crates.io, see crates.io and the Manifest.\nRun `cargo [options]` with [options] and .\n`cargo` [_options_] _command_\n`cargo` `--version`\n\nA note.\n\n```\n[options]: not a definition\n```',
    );
  });

  it('drops a reference definition whose destination is on the next line, and reads its label as a link', () => {
    const md = [
      '# Private repos',
      '',
      'Create a [PAT] and store it as a [repository secret].',
      '',
      '[PAT]:',
      '  https://docs.github.com/en/authentication/managing-your-personal-access-tokens',
      '[repository secret]:',
      '  <https://docs.github.com/en/actions/using-secrets> "Secrets"',
      '',
      'Then run the job.',
      '',
      '[Note]:',
      'this line has spaces, so it is no destination',
      '',
      '[Example]:',
      '```sh',
      'widget run',
      '```',
    ].join('\n');
    expect(passages(md)[0]).toBe(
      'Create a PAT and store it as a repository secret.\n\nThen run the job.\n\n[Note]:\nthis line has spaces, so it is no destination\n\n[Example]:\n\n```sh\nwidget run\n```',
    );
  });

  it('reads the definitions links resolve through as chunking reads them: a destination line is no definition of its own', () => {
    // `[b]:` is the destination of `[a]`, so the indented line after it is text and `[b]` no link, as CommonMark reads it.
    const md = ['See [a] and [b].', '', '[a]:', '[b]:', '  ../b.md', '', '[c]: ../c.md', '[C]: ../other.md'].join('\n');
    expect(referenceDefinitions(md)).toEqual(
      new Map([
        ['a', '[b]:'],
        ['c', '../c.md'],
      ]),
    );
    expect(passages(md)[0]).toBe('See a and [b].\n\n../b.md');
  });

  it('reads hostile definition labels in one pass: a label alone before a line of 40,000 spaces is text', () => {
    const md = `# Hostile\n\n${'[a]:\nb' + ' '.repeat(40_000) + 'x\n\n'}`.repeat(3) + '[b]:\n  https://example.com\n\nThe end.';
    const text = passages(md).join('\n');
    expect(text.match(/\[a\]:/g)).toHaveLength(3);
    expect(text).not.toContain('https://example.com');
    expect(text.endsWith('The end.')).toBe(true);
  });

  it('reads site containers under their label, and drops MDX imports and component-only lines, never inside code', () => {
    const md = [
      '# Catalogs',
      '',
      ':::tip Lockfile behavior in CI',
      'Run with `--frozen-lockfile`.',
      ':::',
      '',
      '::: warning',
      'Removed in v11.',
      ':::',
      '',
      '::: code-group',
      '```sh',
      ':::',
      "import X from './x.mdx'",
      '```',
      ':::',
      '',
      '::: mkdocs.structure.files.Files',
      '',
      "import CpuFlag from '../settings/_cpuFlag.mdx'",
      '',
      '<CpuFlag />',
      '',
      'The end.',
    ].join('\n');
    const [chunk] = chunkMarkdown(parseDocument(md, 'markdown').body);
    expect(chunk!.text).toBe(
      [
        '**Tip:** Lockfile behavior in CI',
        'Run with `--frozen-lockfile`.',
        '',
        '**Warning:**',
        'Removed in v11.',
        '',
        '```sh',
        ':::',
        "import X from './x.mdx'",
        '```',
        '',
        '`mkdocs.structure.files.Files`',
        '',
        'The end.',
      ].join('\n'),
    );
  });

  it("drops a page's <script> and <style> elements (a VitePress page's setup code), however long", () => {
    const md =
      '<script setup>\nimport { useData } from "vitepress"\n\nconst { site } = useData()\n</script>\n\n# Guide\n\nText.\n\n<style scoped>\n.a { color: red }\n</style>\n<script>var x = 1</script>\nMore.\n';
    expect(passages(md)).toEqual(['Text.\n\nMore.']);
  });

  it("reads a VitePress page's references to its front matter as their values and drops its [[toc]] marker, never inside code", () => {
    const md = [
      '---',
      'title: Configuration Options',
      '---',
      '',
      '# {{ $frontmatter.title }}',
      '',
      '[[toc]]',
      '',
      'Written as `{{ $frontmatter.title }}` in the page; {{ $frontmatter.unknown }} stays.',
      '',
      '```md',
      '# {{ $frontmatter.title }}',
      '[[toc]]',
      '```',
    ].join('\n');
    const parsed = parseDocument(md, 'markdown');
    expect(parsed.title).toBe('Configuration Options');
    expect(parsed.body.split('\n').filter(Boolean)).toEqual([
      '# Configuration Options',
      'Written as `{{ $frontmatter.title }}` in the page; {{ $frontmatter.unknown }} stays.',
      '```md',
      '# {{ $frontmatter.title }}',
      '[[toc]]',
      '```',
    ]);
  });

  it('shows twoslash code as the page does: what its cut markers hide goes with them, other code stays', () => {
    const md = [
      '```js',
      '// rollup.config.mjs',
      '// ---cut-start---',
      "/** @type {import('rollup').RollupOptions} */",
      '// ---cut-end---',
      'export default { input: "main.js" };',
      '```',
      '',
      '```ts twoslash',
      "import type { Plugin } from 'rollup';",
      '// ---cut---',
      'const plugin: Plugin = { name: "x" };',
      '// ---cut-after---',
      'export {};',
      '```',
      '',
      '```md',
      'Write `// ---cut---` alone on a line.',
      '```',
    ].join('\n');
    expect(parseDocument(md, 'markdown').body.split('\n').filter(Boolean)).toEqual([
      '```js',
      '// rollup.config.mjs',
      'export default { input: "main.js" };',
      '```',
      '```ts twoslash',
      'const plugin: Plugin = { name: "x" };',
      '```',
      '```md',
      'Write `// ---cut---` alone on a line.',
      '```',
    ]);
  });

  it("reads webpack's and docsify's callout lines under their label and drops MDX comment lines, never inside code", () => {
    const md = [
      'Configure the node option.',
      'W> As of webpack 5, only `global` can be set.',
      '',
      'T> Use `ProvidePlugin` instead.',
      '',
      '!> Read this first.',
      '',
      '{/* eslint-disable no-eval */}',
      '',
      '```js',
      'T> not a callout',
      '{/* kept */}',
      '```',
    ].join('\n');
    expect(parseDocument(md, 'markdown').body.split('\n').filter(Boolean)).toEqual([
      'Configure the node option.',
      '**Warning:** As of webpack 5, only `global` can be set.',
      '**Tip:** Use `ProvidePlugin` instead.',
      '**Important:** Read this first.',
      '```js',
      'T> not a callout',
      '{/* kept */}',
      '```',
    ]);
  });

  it('shows a template call written over several lines as code, and leaves one-line and unclosed ones as they are', () => {
    const md = [
      'Run ESLint on two files like this:',
      '',
      '{{ npx_tabs ({',
      '    package: "eslint",',
      '    args: ["file1.js", "file2.js"]',
      '}) }}',
      '',
      'Version {{ config.extra.version }} is current.',
      '',
      '{{ unclosed({',
      '',
      'Then fix what it reports.',
    ].join('\n');
    expect(passages(md)).toEqual([
      [
        'Run ESLint on two files like this:',
        '',
        '```',
        '{{ npx_tabs ({',
        '    package: "eslint",',
        '    args: ["file1.js", "file2.js"]',
        '}) }}',
        '```',
        '',
        'Version {{ config.extra.version }} is current.',
        '',
        '{{ unclosed({',
        '',
        'Then fix what it reports.',
      ].join('\n'),
    ]);
  });

  it('reads an HTML line break in a table cell as a space between what it separates', () => {
    const md = [
      '| Field | Description |',
      '|---|---|',
      '| `average` | Number of requests.<br /> 0 means **no rate limiting**.<br/>More information [here](#rate). |',
    ].join('\n');
    expect(passages(md)).toEqual([
      ['| Field | Description |', '|---|---|', '| `average` | Number of requests. 0 means **no rate limiting**. More information here. |'].join('\n'),
    ]);
  });

  it('keeps a code span fenced by several backticks whole, inside a link and an HTML anchor too', () => {
    const md = [
      '| Rule | Description |',
      '|---|---|',
      '| <a id="opt-host" href="#opt-host">[```Host(`domain`)```](#host)</a> | Matches `domain`. |',
      '',
      'Write ``a `tick` inside`` and [`x`](https://example.com) <b>here</b>; a lone `` stays.',
    ].join('\n');
    expect(passages(md)).toEqual([
      [
        '| Rule | Description |',
        '|---|---|',
        '| ```Host(`domain`)``` | Matches `domain`. |',
        '',
        'Write ``a `tick` inside`` and `x` here; a lone `` stays.',
      ].join('\n'),
    ]);
    // The marks the spans are set aside with, written in a document, are its text.
    expect(passages('Private \uE0030\uE003 and ``a`` \uE0039\uE003 stay.')).toEqual(['Private \uE0030\uE003 and ``a`` \uE0039\uE003 stay.']);
  });

  it('drops the lines of MDX component tags around tabbed code, keeping the code', () => {
    const md = [
      '# Install',
      '',
      '<Tabs groupId="package-manager">',
      '<TabItem value="npm">',
      '',
      '```sh',
      'npm i lumen',
      '```',
      '',
      '</TabItem>',
      '</Tabs>',
      '',
      'Done.',
    ].join('\n');
    expect(passages(md)).toEqual(['```sh\nnpm i lumen\n```\n\nDone.']);
  });

  it("reads a component's attribute expression over several lines as JavaScript: a template literal is a listing, its comments no headings", () => {
    const md = [
      '',
      '---',
      'title: Getting started',
      '---',
      '',
      '## Usage',
      '',
      'Run the formatter:',
      '',
      '<Tabs>',
      '  <TabItem label="npm">',
      '    <Code frame="none" showLineNumbers={false} code={`',
      '# Format all files',
      'npx lumen format --write',
      '',
      '# Show \\`lumen\\` help',
      'npx lumen --help',
      '    `} lang="bash"  />',
      '  </TabItem>',
      '</Tabs>',
      '',
      '<Card items={[',
      "  { title: 'One', href: '/one' },",
      '  # not a heading either',
      ']} />',
      '',
      '## Editors',
      '',
      'Extensions exist for VS Code.',
    ].join('\n');
    const parsed = parseDocument(md, 'markdown');
    expect(parsed.title).toBe('Getting started');
    const chunks = chunkMarkdown(parsed.body);
    expect(chunks.map((c) => c.section)).toEqual(['Usage', 'Editors']);
    expect(chunks.map((c) => c.text)).toEqual([
      'Run the formatter:\n\n```bash\n# Format all files\nnpx lumen format --write\n\n# Show `lumen` help\nnpx lumen --help\n```',
      'Extensions exist for VS Code.',
    ]);
  });

  it('leaves a component tag whose expression never closes to the ordinary reading, and the page after it intact', () => {
    // An unclosed `{` (a typo, or a hostile page repeating it) is looked for over a bounded number of lines only.
    const md = ['## Usage', '', '<Code code={`', '# Setup', '', 'Text.', ...Array(2000).fill('<Card items={['), '', '## Editors', '', 'VS Code.'].join('\n');
    const chunks = chunkMarkdown(parseDocument(md, 'markdown').body);
    // Read as before expressions were recognised: `# Setup` is a heading, and the page goes on under it.
    expect(chunks.at(-1)).toMatchObject({ section: 'Setup › Editors', text: 'VS Code.' });
  });

  it("reads NestJS's listings (a file-name marker, a JavaScript version after @@switch) and its `> info **Hint**` callouts", () => {
    const md = [
      '### Caching',
      '',
      '```typescript',
      '@@filename(app.module)',
      '@Module({ imports: [CacheModule.register()] })',
      'export class AppModule {}',
      '@@switch',
      '@Module({ imports: [CacheModule.register()] })',
      'export class AppModule {}',
      '```',
      '',
      '> info **Hint** The `Cache` class is imported from the `@nestjs/cache-manager` package.',
      '',
      '> warning **Notice** Keys are shared',
      '> between instances.',
      '',
      '> info when quoted, prose stays prose.',
      '',
      '> Warning **do not** run it as root.',
      '',
      '> Warning **Important** The `ttl` is in milliseconds.',
      '',
      '> attention **Beta** The store may change.',
      '',
      '> ensure **every** key expires.',
    ].join('\n');
    expect(passages(md)).toEqual([
      [
        '```typescript\n@Module({ imports: [CacheModule.register()] })\nexport class AppModule {}\n```',
        '```typescript\n@Module({ imports: [CacheModule.register()] })\nexport class AppModule {}\n```',
        '**Hint:** The `Cache` class is imported from the `@nestjs/cache-manager` package.',
        '**Notice:** Keys are shared\nbetween instances.',
        'info when quoted, prose stays prose.',
        'Warning **do not** run it as root.',
        '**Important:** The `ttl` is in milliseconds.',
        '**Beta:** The store may change.',
        'ensure **every** key expires.',
      ].join('\n\n'),
    ]);
  });

  it('reads the parameter a component documents from its attributes, and its indented body as prose', () => {
    const md = [
      '### res.sendFile()',
      '',
      '<Signature returns="Response">',
      '  <Fragment slot="attributes">',
      '    <Param name="options" type="Object" optional>',
      '      Options for the transfer.',
      '',
      '      <Fragment slot="properties">',
      '        <Param name="maxAge" type="Number | String" default="0">',
      '          Sets the max-age property of the `Cache-Control` header.',
      '        </Param>',
      '        <Param name="dotfiles" type="String" default=\'"ignore"\' className="wide">',
      '          Option for serving dotfiles:',
      '',
      '          ```js',
      '          res.sendFile(file, { dotfiles: "allow" })',
      '          ```',
      '        </Param>',
      '      </Fragment>',
      '    </Param>',
      '  </Fragment>',
      '</Signature>',
      '',
      '<Alert type="warning">',
      'This API reads the file system.',
      '</Alert>',
      '',
      '<Alert type="alert" />',
      '<MiddlewareInfo',
      '  version="2.8.6"',
      '  github="https://github.com/expressjs/cors"',
      '/>',
      '<PackageManagerCommand',
      '  command="npm install express"',
      '/>',
      '',
      '<Alert type="warning">Query strings are not part of the route path.</Alert>',
      '',
      '- An item:',
      '',
      '    <Alert type="info">',
      '    Inside the item.',
      '    </Alert>',
      '',
      '<Param name="links" type="Record<String, String>">',
      '  The links.',
      '</Param>',
    ].join('\n');
    expect(passages(md)).toEqual([
      [
        '`options` (type: Object, optional)',
        'Options for the transfer.',
        '',
        '`maxAge` (type: Number | String, default: 0)',
        'Sets the max-age property of the `Cache-Control` header.',
        '`dotfiles` (type: String, default: "ignore")',
        'Option for serving dotfiles:',
        '',
        '```js',
        'res.sendFile(file, { dotfiles: "allow" })',
        '```',
        '',
        '**Warning:**',
        'This API reads the file system.',
        '',
        'npm install express',
        '',
        '**Warning:** Query strings are not part of the route path.',
        '',
        '- An item:',
        '',
        '**Info:**',
        'Inside the item.',
        '',
        '`links` (type: Record<String, String>)',
        'The links.',
      ].join('\n'),
    ]);
  });

  it('keeps a JSX line of an indented code listing as code, outside any component', () => {
    const md = ['# Store', '', 'Wrap the app:', '', '    <Provider store={store}>', '      <App />', '    </Provider>', '', 'After.'].join('\n');
    expect(passages(md)).toEqual(['Wrap the app:\n\n```\n<Provider store={store}>\n  <App />\n</Provider>\n```\n\nAfter.']);
  });

  it('drops what an MDX import renders (a raw file shown by <CodeBlock>), not an expression the page never imported', () => {
    const md = [
      '# Uninstall',
      '',
      "import CodeBlock from '@theme/CodeBlock';",
      "import UninstallExample, { type Other as Alias } from '!!raw-loader!./uninstall.go';",
      '',
      'Uninstall a release:',
      '',
      '<CodeBlock language="go" title="uninstall.go">{UninstallExample}</CodeBlock>',
      '',
      '{Alias}',
      '',
      '{notImported}',
      '',
      '<Note>{UninstallExample}</Other>',
      '',
      '```jsx',
      '{UninstallExample}',
      '```',
    ].join('\n');
    expect(passages(md)).toEqual(['Uninstall a release:\n\n{notImported}\n\n<Note>{UninstallExample}</Other>\n\n```jsx\n{UninstallExample}\n```']);
  });

  it('reads <code> as code when it holds angle brackets, and drops a stray <code> tag', () => {
    const md = '# Options\n\n| CLI | API |\n| --- | --- |\n| <code>--trailing-comma <all|none></code> | <code>trailingComma</code> |\n\nA <code>broken tag.\n';
    const text = chunkMarkdown(parseDocument(md, 'markdown').body)
      .map((c) => c.text)
      .join('\n');
    expect(text).toContain('`--trailing-comma <all|none>`');
    expect(text).toContain('`trailingComma`');
    expect(text).toContain('A broken tag.');
    // A line of unclosed tags costs its length.
    expect(chunkMarkdown(parseDocument(`# A\n\n${'<code>a<'.repeat(30_000)}\n`, 'markdown').body)[0]!.text).toBe('a<'.repeat(30_000));
  });

  it('reads a heading without its attribute block ({#custom-id}) and its components’ tags, outside code', () => {
    const md = [
      '# TestProject <Version>3.0.0</Version> {#testproject}',
      '',
      'One.',
      '',
      '## `cargo::rustc-link-arg=FLAG` {#rustc-link-arg}',
      '',
      'Two.',
      '',
      '## Options <Badge type="tip" text="new" /> {.unlisted}',
      '',
      'Three.',
      '',
      '## `Map<string, T>` and `{#x}`',
      '',
      'Four.',
    ].join('\n');
    expect(chunkMarkdown(parseDocument(md, 'markdown').body).flatMap((c) => c.headings.map((h) => h.join(' › ')))).toEqual([
      'TestProject 3.0.0',
      'TestProject 3.0.0 › cargo::rustc-link-arg=FLAG',
      'TestProject 3.0.0 › Options',
      'TestProject 3.0.0 › Map<string, T> and {#x}',
    ]);
  });

  it('reads links whose text holds code with brackets, footnotes and attribute lines as text', () => {
    const md = [
      '# Targets',
      '',
      'Linked with the [`[dependencies]`][dependencies] and the [`[[test]]` table][targets].',
      'Either license may apply.[^slash] ![npm]',
      '',
      '{#automocking-algorithm}',
      '',
      '::: warning In-Source Testing {#in-source-testing}',
      'Mind the guard.',
      ':::',
      '',
      '> [!WARNING]',
      '> Mind the port.',
      '{ .warning }',
      '',
      '## `buf.includes(value[, byteOffset][, encoding])`',
      '',
      'Searches.',
      '',
      '[^slash]: Previously licenses were separated with a slash.',
    ].join('\n');
    const chunks = chunkMarkdown(parseDocument(md, 'markdown').body);
    expect(chunks.map((c) => [c.section, c.text])).toEqual([
      [
        'Targets',
        'Linked with the `[dependencies]` and the `[[test]]` table.\nEither license may apply.\n\n**Warning:** In-Source Testing\nMind the guard.\n\n**Warning:**\nMind the port.',
      ],
      ['Targets › buf.includes(value[, byteOffset][, encoding])', 'Searches.\n\nPreviously licenses were separated with a slash.'],
    ]);
  });

  it("drops a page's table of contents (links to its own headings) and keeps lists that say more", () => {
    const page = [
      '# API',
      '',
      '* [pino() => logger](#export)',
      '  * [options](#options)',
      "  * [destination\\[Symbol.for('pino.metadata')\\]](#metadata)",
      '* [Logger Instance](#logger)',
      '',
      '## Guides',
      '',
      '- [Getting started](./start.md)',
      '- [Transports](./transports.md)',
      '- [Redaction](./redaction.md)',
      '',
      '## Options',
      '',
      '- [level](#level): the minimum level logged',
      '- [name](#name)',
      '- [mixin](#mixin)',
      '',
      'See also:',
      '',
      '- [a](#a)',
      '- [b](#b)',
      '',
      '```md',
      '- [one](#one)',
      '- [two](#two)',
      '- [three](#three)',
      '```',
    ].join('\n');
    const body = parseDocument(page, 'markdown').body;
    expect(body).not.toContain('(#export)');
    expect(body).not.toContain('Logger Instance');
    expect(body).not.toContain('pino.metadata');
    // Links to other pages are an index; a list with an item that says more is content; two links are too few.
    for (const kept of ['[Transports](./transports.md)', '[level](#level): the minimum level logged', '- [name](#name)', '- [a](#a)', '- [b](#b)'])
      expect(body).toContain(kept);
    // Code shows markdown as written.
    expect(body).toContain('- [one](#one)\n- [two](#two)\n- [three](#three)');
  });

  it('reads MyST markdown (Sphinx): roles, directives and targets as the same reStructuredText is read', () => {
    const md = [
      '(options)=',
      '',
      '# Options',
      '',
      'See {ref}`the parameters page <parameters>` and {func}`~click.echo`, or {class}`click.Option`; send',
      '`Bearer {token}` as the header.',
      '',
      '```{currentmodule} click',
      '```',
      '',
      '```{note}',
      ':class: tip',
      'Flags are {ref}`options',
      '<flags>` too.',
      '```',
      '',
      '````{versionadded} 8.0',
      'Works with',
      '```python',
      'const s = `${a}{b}`',
      '```',
      '````',
      '',
      '```{code-block} python',
      ':caption: app.py',
      'import click',
      '```',
      '',
      '```{eval-rst}',
      '.. note:: Read as :func:`prompt`.',
      '```',
      '',
      ':::{warning}',
      'Careful.',
      ':::',
      '',
      '```{toctree}',
      'api',
      '```',
    ].join('\n');
    expect(passages(md)).toEqual([
      [
        'See the parameters page and `click.echo`, or `click.Option`; send',
        '`Bearer {token}` as the header.',
        '',
        '**Note:**',
        'Flags are options too.',
        '',
        '**Versionadded:** 8.0',
        'Works with',
        '',
        '```python',
        'const s = `${a}{b}`',
        '```',
        '',
        '```python',
        'import click',
        '```',
        '',
        '**Note:** Read as `prompt`.',
        '',
        '**Warning:**',
        'Careful.',
      ].join('\n'),
    ]);
  });

  it("reads Hugo's shortcodes: an admonition under its label, a cross-reference as its link's target, tabs as nothing", () => {
    const md = [
      '# Install',
      '',
      '{{% note %}}',
      'See the [CLI]({{< relref "cli#install" >}} "The CLI") first.',
      '{{% /note %}}',
      '',
      '{{< tabs tabTotal="2" >}}',
      '{{< tab tabID="pip" >}}',
      '```bash',
      'pip install x',
      '```',
      '{{< /tab >}}',
      '{{< /tabs >}}',
      '',
      '{{% warning %}} Pin it. {{% /warning %}}',
    ].join('\n');
    expect(passages(md)).toEqual(['**Note:**\nSee the CLI first.\n\n```bash\npip install x\n```\n\n**Warning:** Pin it.']);
  });

  it("reads Jekyll's and GitBook's Liquid tags: highlighted code as code, a hint under its label, links to templated targets as text", () => {
    const md = [
      '# Assets',
      '',
      'See the [Sass options]({{ \'/docs/sass/\' | relative_url }}) and [layouts]({% link _docs/layouts.md %}). {%- include badge.html version="3.7.0" -%}',
      'Write `{% raw %}` to escape.',
      '',
      '{% raw %}',
      '{% highlight ruby %}',
      '# not a heading',
      'puts 1',
      '{% endhighlight %}',
      '{% endraw %}',
      '',
      '{% hint style="warning" %}',
      'Restart the server.',
      '{% endhint %}',
    ].join('\n');
    expect(passages(md)).toEqual([
      'See the Sass options and layouts.\nWrite `{% raw %}` to escape.\n\n```ruby\n# not a heading\nputs 1\n```\n\n**Warning:**\nRestart the server.',
    ]);
  });

  it('reads a reStructuredText code role wrapped before its target as code, one whose text runs on as prose', () => {
    const rst =
      'Title\n=====\n\nReplace :meth:`Request.prepare()\n<requests.Request.prepare>` with a call.\n\n:gh:`The project is an example in the\nrepository <examples/tutorial>`, to compare.\n';
    expect(passages(rst, 'rst')).toEqual(['Replace `Request.prepare()`\n with a call.\n\nThe project is an example in the\nrepository, to compare.']);
  });

  it("quotes a project's own reStructuredText directive as code when its body is code, as text when it is prose", () => {
    const rst = [
      'Title',
      '=====',
      '',
      '.. click:example::',
      '',
      '    @click.command()',
      "    @click.argument('name')",
      '    def hello(name):',
      '        click.echo(name)',
      '',
      '.. tab:: Bash',
      '',
      '    .. code-block:: text',
      '',
      '        $ flask run',
      '',
      '.. data:: template_rendered',
      '',
      '    This signal is sent when a template was rendered.',
    ].join('\n');
    expect(passages(rst, 'rst')).toEqual([
      "```\n@click.command()\n@click.argument('name')\ndef hello(name):\n    click.echo(name)\n```\n\nBash\n\n```text\n$ flask run\n```\n\ntemplate_rendered\nThis signal is sent when a template was rendered.",
    ]);
  });

  it("quotes a directive's code as code when its docstring holds sentences: only the lines at the body's own indent are judged", () => {
    const rst = [
      'Title',
      '=====',
      '',
      'Add the escape marker to truncate the help text.',
      '',
      '.. click:example::',
      '',
      '    @click.command()',
      '    def cli():',
      '        """First paragraph.',
      '',
      '        Words to not be included.',
      '        """',
      '',
      '.. myproject:aside::',
      '',
      '    The command reads its name from the call:',
      '',
      '        hello(name)',
    ].join('\n');
    expect(passages(rst, 'rst')).toEqual([
      'Add the escape marker to truncate the help text.\n\n```\n@click.command()\ndef cli():\n    """First paragraph.\n\n    Words to not be included.\n    """\n```\n\nThe command reads its name from the call:\n\nhello(name)',
    ]);
  });

  it('numbers reStructuredText auto-enumerated items (#.) per list, nested lists counted apart', () => {
    const rst = [
      'Steps',
      '=====',
      '',
      '#.  Create the app.',
      '',
      '    #. Set the name.',
      '    #. Set the config.',
      '',
      '#.  Run it.',
      '',
      'Then, in another list:',
      '',
      '#) Stop it.',
    ].join('\n');
    expect(passages(rst, 'rst')).toEqual([
      '1.  Create the app.\n\n1. Set the name.\n    2. Set the config.\n\n2.  Run it.\n\nThen, in another list:\n\n1) Stop it.',
    ]);
  });

  it('reads an indented code block as code, but not an indented paragraph of a list item or a reStructuredText block quote', () => {
    const md =
      '# Test\n\nFor example:\n\n    cargo build --tests\n\n    cargo test --no-fail-fast\n\n1. Install it.\n\n    Then restart the shell.\n\nText\n    continued.\n';
    expect(passages(md)).toEqual([
      'For example:\n\n```\ncargo build --tests\n\ncargo test --no-fail-fast\n```\n\n1. Install it.\n\nThen restart the shell.\n\nText\n    continued.',
    ]);
    const rst = 'Errors\n======\n\nYou will see this error:\n\n    The setup method can no longer be called.\n\nExample::\n\n    app.run()\n';
    expect(passages(rst, 'rst')).toEqual(['You will see this error:\n\nThe setup method can no longer be called.\n\nExample:\n\n```\napp.run()\n```']);
  });

  it("keeps a table cell's escaped pipes escaped, so that they are no column breaks; in prose they read as pipes", () => {
    const md = [
      '# Quote props',
      '',
      '| Default | CLI |',
      '| --- | --- |',
      '| `"as-needed"` | <code>--quote-props \\<as-needed&#124;preserve></code> |',
      '| a | `x \\| y` |',
      '',
      'Text a \\| b &#124; c.',
    ].join('\n');
    expect(passages(md)).toEqual([
      '| Default | CLI |\n| --- | --- |\n| `"as-needed"` | `--quote-props <as-needed\\|preserve>` |\n| a | `x \\| y` |\n\nText a | b | c.',
    ]);
  });

  it('reads a hard-wrapped line that starts with a number as the paragraph it continues, not as a list', () => {
    const md = '# Ports\n\nA service uses port\n5000. Disable it in the settings.\nSteps:\n1. Open the settings.\n2. Turn it off.\n';
    const chunk = chunkMarkdown(md)[0]!;
    expect(chunk.text).toBe('A service uses port\n5000. Disable it in the settings.\nSteps:\n\n1. Open the settings.\n2. Turn it off.');
  });

  it("reads MkDocs' admonitions under their title or kind, their indented body as text", () => {
    const md = '# Deploy\n\n!!! warning "Stale pages"\n    Run `mkdocs build --clean` first.\n\n??? note\n    Collapsed by default.\n';
    const [chunk] = chunkMarkdown(parseDocument(md, 'markdown').body);
    expect(chunk!.text).toBe('**Stale pages:**\nRun `mkdocs build --clean` first.\n\n**Note:**\nCollapsed by default.');
    const fenced = '# Deploy\n\n!!! example\n    Set it:\n\n    ```yaml\n    site_name: x\n    ```\n\nAfter.\n';
    expect(chunkMarkdown(parseDocument(fenced, 'markdown').body)[0]!.text).toBe('**Example:**\nSet it:\n\n```yaml\nsite_name: x\n```\n\nAfter.');
  });

  it("drops MkDocs' snippet includes and the attribute lists after images and links, never inside code", () => {
    const md = [
      '# Preview',
      '',
      'The following features are available:',
      '',
      '--8<-- "docs/reference/.preview-features.md"',
      '',
      '--8<--',
      'docs/a.md',
      'docs/b.md',
      '--8<--',
      '',
      'It runs: ![Run result](../assets/run.png){: style="height:50px"} and [Get started](start.md){ .md-button } too.',
      '',
      '```python',
      'print(f"{x:.2f}")  # --8<-- stays',
      '--8<-- "kept.md"',
      '```',
      '',
    ].join('\n');
    expect(passages(md)).toEqual([
      [
        'The following features are available:',
        '',
        'It runs:  and Get started too.',
        '',
        '```python',
        'print(f"{x:.2f}")  # --8<-- stays',
        '--8<-- "kept.md"',
        '```',
      ].join('\n'),
    ]);
  });

  it("reads MkDocs Material's content tabs under their labels, their indented bodies as prose and fences, also nested", () => {
    const md = [
      '# Install',
      '',
      'Run the installer:',
      '',
      '=== "macOS and Linux"',
      '',
      '    Use `curl` to fetch it:',
      '',
      '    ```console',
      '    $ curl -LsSf https://example.com/install.sh | sh',
      '    ```',
      '',
      '===! "Windows"',
      '',
      '    Use `irm`.',
      '',
      '!!! tip',
      '',
      '    Inspect it first:',
      '',
      '    === "macOS and Linux"',
      '',
      '        ```console',
      '        $ curl https://example.com/install.sh | less',
      '        ```',
      '',
      'After the tabs.',
      '',
      '    indented code again',
      '',
    ].join('\n');
    expect(passages(md)).toEqual([
      [
        'Run the installer:',
        '',
        '**macOS and Linux:**',
        '',
        'Use `curl` to fetch it:',
        '',
        '```console',
        '$ curl -LsSf https://example.com/install.sh | sh',
        '```',
        '',
        '**Windows:**',
        '',
        'Use `irm`.',
        '',
        '**Tip:**',
        '',
        'Inspect it first:',
        '',
        '**macOS and Linux:**',
        '',
        '```console',
        '$ curl https://example.com/install.sh | less',
        '```',
        '',
        'After the tabs.',
        '',
        '```',
        'indented code again',
        '```',
      ].join('\n'),
    ]);
  });

  it('reads a hostile page in one pass: lines built to make its patterns backtrack come out as written', () => {
    // Each of these took minutes to hours before (every opening bracket, tag or backtick scanned to the end of
    // the line or the page); a document is anyone's upload, so each must cost its length.
    const n = 100_000;
    const lines = [
      '['.repeat(n),
      '![a]('.repeat(n / 5),
      '[a]('.repeat(n / 4),
      '<a '.repeat(n / 3),
      `text ${'<!--'.repeat(n / 4)}`,
      `import ${' '.repeat(n)}x from y`,
      '[^a'.repeat(n / 3),
    ];
    for (const line of lines) {
      const chunks = chunkMarkdown(parseDocument(`# Hostile\n\n${line}\n`, 'markdown').body);
      expect(chunks.map((c) => c.text).join('')).toBe(line.trim());
    }
    const wrapped = chunkMarkdown(parseDocument(`Title\n=====\n\n\`word\n${' '.repeat(n)}x\n\n:ref:\`word\n${' '.repeat(n)}x\n`, 'rst').body);
    expect(wrapped.map((c) => c.text)).toEqual([`\`word\n${' '.repeat(n)}x`, `:ref:\`word\n${' '.repeat(n)}x`]);
    // reStructuredText roles and links on one line: a role or link opener followed by spaces and no closing
    // backtick, and a run of ':a' that could each start a role.
    for (const line of [
      `:py:func:\`a${' '.repeat(n)}<b c`,
      `\`a${' '.repeat(n)}<b c`,
      `${':a'.repeat(n / 2)}\`x`,
      'a.'.repeat(n / 2) + 'a',
      'a-'.repeat(n / 2) + 'a',
    ]) {
      const chunks = chunkMarkdown(parseDocument(`Title\n=====\n\n${line}\n`, 'rst').body);
      expect(chunks.map((c) => c.text).join('')).toBe(line);
    }
    // A heading or a fence line holding a line separator the dot of a pattern does not match (U+2028): the
    // heading pattern's three runs of spaces made it cubic (4,000 characters took 29 s).
    const heading = chunkMarkdown(parseDocument(`# a${' '.repeat(n / 2)}\u2028${' '.repeat(n / 2)}x\n\ntext\n`, 'markdown').body);
    expect(heading.map((c) => [c.section, c.text])).toEqual([['a x', 'text']]);
    // Heading attribute blocks and component tags, and contents-list items, never closed.
    for (const title of [`a ${'{#'.repeat(n / 2)}`, `a ${'<B '.repeat(n / 3)}`, `a${' '.repeat(n)}{#x`]) {
      const sections = chunkMarkdown(parseDocument(`# ${title}\n\ntext\n`, 'markdown').body).map((c) => c.section);
      expect(sections).toEqual([title.replace(/\s+/g, ' ').trim()]);
    }
    // Attribute lists never closed after links, and a page of snippet-include markers that never pair up.
    const styled = '[a](b){ .c'.repeat(n / 10);
    expect(passages(`# A\n\n${styled}\n`)).toEqual([styled.replace(/\[a\]\(b\)/g, 'a')]);
    // (Each bare marker closes the block the one before it opened, so every other line of text is a block's.)
    const included = passages(`# A\n\n${'--8<--\ntext\n'.repeat(n / 10)}`).join('\n');
    expect(included).not.toContain('8<');
    expect(included.match(/text/g)).toHaveLength(n / 20);
    const items = `# A\n\n${'* [a\\'.repeat(n / 4)}\n* [b](#b\n* [c](#c)\n`;
    expect(passages(items).at(-1)).toBe('* [b](#b\n* c');
    // (A tilde fence's info string may hold a backtick: this one opens a block, and the block never closes.)
    const fence = chunkMarkdown(parseDocument(`${'~'.repeat(n)}\u2028\`\n`, 'markdown').body);
    expect(fence.map((c) => c.text).join('')).toBe(`${'~'.repeat(n)}\`\n\n${'~'.repeat(n)}`);
    expect(parseDocument(`<html>${'<TITLE>'.repeat(n / 7)}</html>`, 'html').title).toBeUndefined();
    const tags = `${'<a x\n'.repeat(n / 5)}end`;
    expect(
      chunkMarkdown(parseDocument(`# Hostile\n\n${tags}\n`, 'markdown').body)
        .map((c) => c.text)
        .join('\n')
        .endsWith('end'),
    ).toBe(true);
  });

  it('reads HTML entities, <code> and links or tags that wrap onto the next line as the text they show', () => {
    const md =
      '# T\n\nA map of **Record&lt;string, string&gt;** with&nbsp;keys, see <code>SSL_OP_ALL</code> and\n[forking the MkDocs\nrepository](../contributing.md#x), or install some <a\n  href="/plugins/">plugins</a>.\n';
    const [chunk] = chunkMarkdown(parseDocument(md, 'markdown').body);
    expect(chunk!.text).toBe('A map of **Record<string, string>** with keys, see `SSL_OP_ALL` and\nforking the MkDocs\nrepository, or install some plugins.');
    // Any element a tag on one line would lose, wrapped too.
    const [cells] = chunkMarkdown(parseDocument('# T\n\nA <td\n  class="x">cell</td>, <kbd\n  class="k">Ctrl</kbd>.\n', 'markdown').body);
    expect(cells!.text).toBe('A cell, Ctrl.');
    // A reference link whose text wraps (Node's API docs: "see [Nonce-Disrespecting\nAdversaries][]").
    expect(passages('# T\n\nsee [Nonce-Disrespecting\nAdversaries][] and [the\nguide][g] ok\n')).toEqual([
      'see Nonce-Disrespecting\nAdversaries and the\nguide ok',
    ]);
    // HTML lists and <small> read as their text, not as the words "ul", "li", "small".
    expect(passages('# T\n\n<ul>\n  <li>Events are <small>yellow</small>.\n</ul>\n')).toEqual(['Events are yellow.']);
    // Every named entity; a numeric one that is no character reads as U+FFFD instead of throwing.
    const [named] = chunkMarkdown(parseDocument('# T\n\nA &mdash; B &para; &#x2192; &#xFFFFFF; &#0; &amp no semicolon.\n', 'markdown').body);
    expect(named!.text).toBe('A — B ¶ → \ufffd \ufffd &amp no semicolon.');
  });
});

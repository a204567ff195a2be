/**
 * Turns a document in any accepted format into one normalised form: markdown-like text (ATX headings,
 * fenced code) plus the front matter's title and description. Chunking then works on that one form.
 *
 * Accepted: markdown (.md .mdx .markdown), plain text (.txt), reStructuredText (.rst), HTML (.html .htm),
 * AsciiDoc (.adoc .asciidoc; read by Asciidoctor.js into HTML, src/docs/asciidoc.ts).
 */
import { decodeHTML } from 'entities';
import { DomUtils, parseDocument as parseHtml } from 'htmlparser2';
import { convert, type FormatCallback } from 'html-to-text';
import { asciidocToHtml } from './asciidoc.js';
import { fenceAround, fenceAt, fencedBlock, fenceLine, type OpenFence } from './fence.js';

/** The kinds of document read, in the order messages name them. */
export const CONTENT_TYPES = ['markdown', 'text', 'rst', 'html', 'asciidoc'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export const EXTENSIONS: Record<string, ContentType> = {
  '.md': 'markdown',
  '.mdx': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.rst': 'rst',
  '.html': 'html',
  '.htm': 'html',
  '.adoc': 'asciidoc',
  '.asciidoc': 'asciidoc',
};

/** Items as a message names them: "a, b and c", "a, b or c". */
export function listed(items: readonly string[], conjunction: 'and' | 'or'): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}

/** The accepted file name endings, for messages: ".md, .mdx, …, .adoc and .asciidoc". */
export function acceptedKinds(): string {
  return listed(Object.keys(EXTENSIONS), 'and');
}

/** Content type from a file name, or undefined when the format is not accepted. */
export function contentTypeOf(fileName: string): ContentType | undefined {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? undefined : EXTENSIONS[fileName.slice(dot).toLowerCase()];
}

/** Content type from a MIME type or a short name (`markdown`, `text/html`, …). */
export function contentTypeFromMime(value: string | undefined): ContentType | undefined {
  if (!value) return undefined;
  const v = value.toLowerCase().split(';')[0]!.trim();
  if (v === 'markdown' || v === 'md' || v === 'text/markdown' || v === 'text/x-markdown') return 'markdown';
  if (v === 'html' || v === 'text/html' || v === 'application/xhtml+xml') return 'html';
  if (v === 'rst' || v === 'text/x-rst' || v === 'text/prs.fallenstein.rst') return 'rst';
  if (v === 'text' || v === 'txt' || v === 'text/plain') return 'text';
  if (v === 'asciidoc' || v === 'adoc' || v === 'text/asciidoc' || v === 'text/x-asciidoc') return 'asciidoc';
  return undefined;
}

export interface ParsedDocument {
  /** Markdown-like body: `#` headings, fenced code, paragraphs, lists. */
  body: string;
  /** Front matter `title`, else the HTML <title>. */
  title?: string;
  /** Front matter `description` (or `summary`), else the HTML <meta name="description">. */
  description?: string;
  /**
   * The front matter's other values that are phrases (curl's `Help: Maximum time allowed for transfer`, a
   * category): they describe the page, so they join its title field, never its text. Single words and numbers
   * (ids, layouts, flags, dates) are for the site generator, and lists are not read.
   */
  metadata?: string;
  /**
   * Links the body no longer shows as links (an HTML page's anchors, read as their text): each target as
   * written and its text. A markdown body keeps its links in place (src/docs/links.ts reads them there).
   */
  links?: [target: string, text: string][];
}

/**
 * Reads a simple YAML front matter block (`key: value` lines; quoted or bare scalars), which may follow blank
 * lines (Starlight reads one after a blank first line).
 */
export function splitFrontMatter(text: string): { meta: Record<string, string>; body: string; prose: string[] } {
  const match = /^\uFEFF?(?:[ \t]*\r?\n)*---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { meta: {}, body: text, prose: [] };
  const meta: Record<string, string> = {};
  // Every value that reads as a phrase, nested ones too (a VitePress home page's hero and features), in order.
  const prose: string[] = [];
  for (const line of match[1]!.split(/\r?\n/)) {
    const kv = /^([ \t]*(?:-[ \t]+)?)([A-Za-z_][\w-]*)[ \t]*:(.*)$/s.exec(line);
    if (!kv) continue;
    const value = unquoted(kv[3]!.trim());
    if (!value) continue;
    if (!kv[1] && value !== '|' && value !== '>') meta[kv[2]!.toLowerCase()] = value;
    if (PHRASE.test(value) && !/^(?:\w+:\/\/|\/)/.test(value)) prose.push(value);
  }
  return { meta, body: text.slice(match[0].length), prose };
}

function unquoted(value: string): string {
  return (value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")) ? value.slice(1, -1) : value;
}

const headingFormatter: FormatCallback = (elem, walk, builder, formatOptions) => {
  const level = Number((formatOptions as { level?: number }).level ?? 2);
  builder.openBlock({ leadingLineBreaks: 2 });
  builder.addLiteral(`${'#'.repeat(level)} `);
  walk(elem.children, builder);
  builder.closeBlock({ trailingLineBreaks: 2 });
};

/**
 * A code block, fenced with more backticks than any line of it starts with: a page that shows markdown
 * (a README with its own ``` blocks) keeps its example whole instead of closing the fence inside it.
 */
const preFormatter: FormatCallback = (elem, walk, builder) => {
  let longest = 2;
  for (const m of preText(elem as unknown as HtmlNode).matchAll(/^ {0,3}(`{3,})/gm)) longest = Math.max(longest, m[1]!.length);
  const fence = '`'.repeat(longest + 1);
  builder.openBlock({ leadingLineBreaks: 2, isPre: true });
  builder.addLiteral(`${fence}\n`);
  walk(elem.children, builder);
  builder.addLiteral(`\n${fence}`);
  builder.closeBlock({ trailingLineBreaks: 2 });
};

/** A code block's text as it is shown: a `<br>` (Docusaurus ends each line with one) is a line break. */
function preText(node: HtmlNode): string {
  if (node.type === 'text') return (node as { data?: string }).data ?? '';
  if ((node as { name?: string }).name === 'br') return '\n';
  return ((node as { children?: HtmlNode[] }).children ?? []).map(preText).join('');
}

/** A table as markdown table rows (see tableRows), so that a row is quoted whole and under its header. */
const tableFormatter: FormatCallback = (elem, _walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 2, isPre: true });
  builder.addLiteral(tableRows([elem as unknown as HtmlNode]).join('\n'));
  builder.closeBlock({ trailingLineBreaks: 2 });
};

function insidePre(elem: { parent?: unknown }): boolean {
  for (let node = elem.parent as { name?: string; parent?: unknown } | null | undefined; node; node = node.parent as typeof node) {
    if (node.name === 'pre') return true;
  }
  return false;
}

const inlineCodeFormatter: FormatCallback = (elem, walk, builder) => {
  // The code of a code block (`<pre><code>`, as every generator writes one) is the block's, not inline code.
  if (insidePre(elem)) {
    walk(elem.children, builder);
    return;
  }
  builder.addInline('`', { noWordTransform: true });
  walk(elem.children, builder);
  builder.addInline('`', { noWordTransform: true });
};

/** The text of an HTML page's first <title>, found by position (a page of unclosed `<title>`s costs its length). */
function titleOf(html: string): string | undefined {
  const lower = html.toLowerCase();
  const open = lower.indexOf('<title');
  const start = open < 0 ? -1 : lower.indexOf('>', open);
  const end = start < 0 ? -1 : lower.indexOf('</title>', start);
  return end < 0
    ? undefined
    : decodeHTML(html.slice(start + 1, end))
        .replace(/\s+/g, ' ')
        .trim();
}

/**
 * A page's own content, as a documentation site serves it: its one `<article>` when that holds most of the
 * page's main region (Docusaurus, MkDocs Material, Furo), else its `<main>` or `role="main"` element
 * (VitePress, Sphinx), else the whole page. What surrounds it (site header, sidebar listing every page, footer,
 * pager) is the same on every page of the site and says nothing of this one.
 */
function contentOf(html: string): { content: string; description?: string } {
  const dom = parseHtml(html, { withStartIndices: true, withEndIndices: true });
  // The source of an element, cut from the page as written (no re-serialising).
  const source = (e: { startIndex: number | null; endIndex: number | null }) => html.slice(e.startIndex ?? 0, (e.endIndex ?? html.length - 1) + 1);
  // The page's summary (<meta name="description">), as front matter's `description` is read.
  const meta = DomUtils.findOne((e) => e.name === 'meta' && e.attribs.name?.toLowerCase() === 'description', dom.children, true);
  const description = meta?.attribs.content?.replace(/\s+/g, ' ').trim() || undefined;
  const main = DomUtils.findOne((e) => e.name === 'main' || e.attribs.role?.toLowerCase() === 'main', dom.children, true);
  const region = main ? [main] : dom.children;
  const articles = DomUtils.findAll((e) => e.name === 'article', region);
  const letters = (nodes: Parameters<typeof DomUtils.textContent>[0]) => DomUtils.textContent(nodes).replace(/\s+/g, '').length;
  const article = articles.length === 1 && letters(articles[0]!) * 2 >= letters(region) ? articles[0] : undefined;
  const chosen = article ?? main;
  if (chosen) return { content: source(chosen), description };
  // No region marked as the content: the whole page, less the site's banner (a <header> directly in <body>).
  const body = DomUtils.findOne((e) => e.name === 'body', dom.children, true);
  const banners = body ? DomUtils.filter((n) => DomUtils.isTag(n) && n.name === 'header', body.children, false) : [];
  let content = html;
  for (const b of banners.reverse()) content = content.slice(0, b.startIndex ?? 0) + content.slice((b.endIndex ?? -1) + 1);
  return { content, description };
}

/**
 * A link to its own heading or definition (`¶` of Sphinx and MkDocs, Docusaurus's and VitePress's zero-width
 * `#` anchors, GitHub's icon-only anchors): a `#…` target showing no word.
 */
function isPermalink(elem: { attribs?: Record<string, string> }, text: string): boolean {
  return (elem.attribs?.href ?? '').startsWith('#') && !/[\p{L}\p{N}]/u.test(text);
}

/** An anchor read as its text; `links` collects each one's target and text. */
function anchorFormatter(links: [string, string][]): FormatCallback {
  return (elem, walk, builder) => {
    const text = DomUtils.textContent(elem as never);
    if (isPermalink(elem, text)) return;
    const href = (elem as { attribs?: Record<string, string> }).attribs?.href;
    if (href && text.trim()) links.push([href, text.trim()]);
    walk(elem.children, builder);
  };
}

/** Page chrome inside the content region: navigation, search, sidebars, footers, controls, hidden and decorative parts. */
const CHROME = [
  'nav',
  'aside',
  'footer',
  'form',
  'button',
  'search',
  'svg',
  'template',
  'noscript',
  '[role=navigation]',
  '[role=search]',
  '[role=banner]',
  '[role=contentinfo]',
  '[role=complementary]',
  '[aria-hidden=true]',
  '[hidden]',
];

/** A code block's trailing newline (`<pre>` text ends with one) read as no blank last line. */
function withoutTrailingBlankCode(body: string): string {
  const out: string[] = [];
  let open: string | undefined;
  for (const line of body.split('\n')) {
    // The fences preFormatter writes: a line of three or more backticks alone.
    if (/^`{3,}$/.test(line) && (open === undefined || line === open)) {
      if (open) while (out.length && out[out.length - 1] === '') out.pop();
      open = open ? undefined : line;
    }
    out.push(line);
  }
  return out.join('\n');
}

export function htmlToMarkdownish(html: string): { body: string; title?: string; description?: string; links: [string, string][] } {
  const title = titleOf(html);
  const { content, description } = contentOf(html);
  const links: [string, string][] = [];
  const body = convert(content, {
    wordwrap: false,
    formatters: {
      mdHeading: headingFormatter,
      mdPre: preFormatter,
      mdCode: inlineCodeFormatter,
      mdAnchor: anchorFormatter(links),
      mdTable: tableFormatter,
    },
    selectors: [
      ...[1, 2, 3, 4, 5, 6].map((level) => ({ selector: `h${level}`, format: 'mdHeading', options: { level } })),
      { selector: 'pre', format: 'mdPre' },
      { selector: 'code', format: 'mdCode' },
      { selector: 'a', format: 'mdAnchor' },
      { selector: 'img', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'head', format: 'skip' },
      ...CHROME.map((selector) => ({ selector, format: 'skip' })),
      { selector: 'ul', options: { itemPrefix: '- ' } },
      { selector: 'table', format: 'mdTable' },
      // A quotation's text as text, as a markdown blockquote is read (unquoteMarkdown).
      { selector: 'blockquote', format: 'block' },
    ],
  });
  return { body: withoutTrailingBlankCode(body), title: title || undefined, description, links };
}

const RST_ADORNMENT = /^([=\-~^"'`#*+:.<>_])\1{2,}\s*$/;

/**
 * reStructuredText roles whose text is prose, read as that text (a cross-reference's title, a term, an
 * abbreviation); every other role (:func:, :py:class:, :option:) names code and is read as `code`.
 */
const TEXT_ROLES = 'ref|doc|term|abbr|pep|rfc|numref|download';
const TEXT_ROLE = new RegExp(`:(${TEXT_ROLES}):\`([^\`<]*)(?:<[^>\`]*>)?\``, 'g');
/** A text role as it reads: its text, a PEP or an RFC by its name (`:pep:\`538\`` is "PEP 538"). */
const textRole = (role: string, text: string) =>
  (role === 'pep' || role === 'rfc') && /^\s*\d+\s*$/.test(text) ? `${role.toUpperCase()} ${text.trim()}` : text.trimEnd();
/**
 * A role as MyST markdown writes it (`{ref}\`Options <options>\``, `{func}\`~click.echo\``), after a space or
 * an opening bracket or quote; or a code span, matched first so that a role is never looked for inside one
 * (`Bearer {token}` is code).
 */
const MYST_ROLE = /(`[^`]*`)|(?<![^\s(["'])\{([A-Za-z][\w:.-]*)\}`~?([^`<]*)(?:<([^>`]*)>)?`/g;
const MYST_TEXT_ROLES = new Set(TEXT_ROLES.split('|'));
/**
 * A code role's text as code: its name, or its target when it has no text, without Sphinx's prefixes (`~`
 * shortens a dotted path, `.` searches from the current module, `!` leaves out the link): `:attr:\`~.Request.args\``
 * reads `Request.args`.
 */
const codeRole = (_m: string, text: string, target?: string) => `\`${(text.trim() || target || '').replace(/^[~!.]+/, '').trim()}\``;
/**
 * A role (`opener` matches its `:name:` and the backtick) whose text wraps onto the next line: its first line's
 * text, the next line's indent, and the text there before the target (see rstToMarkdownish).
 */
const wrappedRole = (opener: string) =>
  new RegExp(`${opener}([^\`<\\n]+)\\n([ \\t]*)(?:([^\`<\\s](?:[^\`<\\n]*[^\`<\\s])?)\\s*|(?:\\n\\s*)?)(?:<[^>\\n]*>)?\``, 'g');
/** The text roles so wrapped. */
const WRAPPED_TEXT_ROLE = wrappedRole(`:(?:${TEXT_ROLES}):\``);
/** Any other role (code: :meth:, :class:) so wrapped: `:meth:\`Request.prepare()⏎<requests.Request.prepare>\``. */
const WRAPPED_CODE_ROLE = wrappedRole('(?<![\\w:.-]):[\\w:.-]+:`~?');

/**
 * reStructuredText headings (title lines under- or over-and-under-lined) become `#` headings in order of
 * first appearance of each adornment style; `::` literal blocks and `code-block` directives become fences.
 */
export function rstToMarkdownish(text: string): string {
  // A hyperlink or a cross-reference whose text wraps onto the next line keeps its text on both lines. The
  // continuation starts and ends with a non-space, so that no two parts match the same spaces (a line of
  // spaces costs its length, not its square).
  const joined = (_m: string, first: string, indent: string, rest?: string) => `${first}\n${indent}${rest ?? ''}`;
  const unwrapped = text
    .replace(/`([^`<\n]+)\n([ \t]*)(?:([^`<\s](?:[^`<\n]*[^`<\s])?)\s*|(?:\n\s*)?)<[^>\n]+>`__?/g, joined)
    .replace(WRAPPED_TEXT_ROLE, joined)
    // A name is one word: a role whose text runs over the line (`:gh:\`The tutorial project …`) links prose.
    .replace(WRAPPED_CODE_ROLE, (m: string, first: string, indent: string, rest?: string) =>
      rest || /\s/.test(first.trim()) ? joined(m, first, indent, rest) : `\`${first.trim()}\`\n${indent}`,
    );
  const lines = numberAutoEnumerated(unwrapped.split(/\r?\n/));
  const styles: string[] = [];
  const out: string[] = [];
  const levelOf = (style: string) => {
    if (!styles.includes(style)) styles.push(style);
    return Math.min(styles.indexOf(style) + 1, 6);
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const next = lines[i + 1];
    const after = lines[i + 2];
    // Over-and-underlined title.
    if (RST_ADORNMENT.test(line) && next?.trim() && after !== undefined && RST_ADORNMENT.test(after) && after[0] === line[0]) {
      out.push(`${'#'.repeat(levelOf(`over${line[0]}`))} ${next.trim()}`);
      i += 3;
      continue;
    }
    if (line.trim() && !/^\s/.test(line) && next !== undefined && RST_ADORNMENT.test(next) && next.trim().length >= line.trim().length) {
      out.push(`${'#'.repeat(levelOf(next[0]!))} ${line.trim()}`);
      i += 2;
      continue;
    }
    const indentOf = (l: string) => /^\s*/.exec(l)![0].length;
    const at = indentOf(line);
    // A directive's body: the lines after it indented deeper than it (blank lines included), options first.
    const bodyAfter = (from: number) => {
      let j = from;
      while (j < lines.length && /^\s+:[\w-]+:/.test(lines[j]!) && indentOf(lines[j]!) > at) j++;
      const body: string[] = [];
      while (j < lines.length && (!lines[j]!.trim() || indentOf(lines[j]!) > at)) body.push(lines[j++]!);
      while (body.length && !body.at(-1)!.trim()) body.pop();
      while (body.length && !body[0]!.trim()) body.shift();
      const indent = Math.min(...body.filter((l) => l.trim()).map(indentOf));
      return { body: body.map((l) => l.slice(indent)), next: j };
    };
    const directive = /^\s*\.\.\s+(?:code-block|code|sourcecode)::\s*(\S*)/.exec(line);
    const literal = !directive && /::\s*$/.test(line) && !/^\s*\.\./.test(line);
    if (directive || literal) {
      if (literal) out.push(rstInline(literalLead(line)));
      const { body, next: j } = bodyAfter(i + 1);
      if (body.length) {
        out.push('', ...fenceAround(directive?.[1] ?? '', body), '');
        i = j;
        continue;
      }
    }
    const generic = /^\s*\.\.[ \t]+([A-Za-z][\w:-]*)::(.*)$/s.exec(line);
    const comment = !generic && /^\s*\.\.(?:\s|$)/.test(line);
    if (generic || comment) {
      // Directives keep their reading text: admonitions under a label (**Note:**), the others (option,
      // list-table, only, py:function, …) as their argument and body, read as reStructuredText in turn. Those
      // that carry none (toctree, image, autodoc, …), comments, link targets and substitutions are dropped with
      // their bodies. A directive that names something (py:data, option, envvar, …) heads its description as a
      // definition does: "`NAME`: what it is …", so the name and what is said of it are read together.
      const name = generic?.[1]!.toLowerCase() ?? '';
      const keep = Boolean(generic) && !RST_NO_TEXT.has(name) && !name.startsWith('auto');
      const arg = generic?.[2]?.trim() ?? '';
      const { body, next: j } = bodyAfter(i + 1);
      if (keep && !ADMONITIONS.has(name) && looksLikeCode(body)) {
        // A directive of the project's own (`.. click:example::`) whose body is source code: quoted as code.
        out.push('', ...fenceAround('', body), '');
      } else if (keep) {
        const text = body.length ? rstToMarkdownish(body.join('\n')).split('\n') : [];
        out.push('');
        const naming = RST_NAMING.has(name) || name.includes(':');
        if (ADMONITIONS.has(name)) out.push(labelLine(name, arg ? rstInline(arg) : ''));
        else if (arg && naming && text[0]?.trim() && !text[0].startsWith('```')) out.push(`\`${arg}\`: ${text.shift()!}`);
        else if (arg) out.push(naming ? `\`${arg}\`${text.length ? ':' : ''}` : rstInline(arg));
        out.push(...text, '');
      }
      i = j;
      continue;
    }
    // An anonymous link target (`__ https://…`) is where a reference points: no reading text.
    if (/^\s*__ \S+\s*$/.test(line)) {
      i++;
      continue;
    }
    out.push(rstInline(line));
    i++;
  }
  return unindentBlockQuotes(out.join('\n').split('\n')).join('\n');
}

/**
 * reStructuredText block quotes (text indented under a blank line after an unindented paragraph that is no
 * list item) read as paragraphs: left four spaces in, markdown would read them as code. An indented run
 * after a list item continues the item and stays.
 */
function unindentBlockQuotes(lines: string[]): string[] {
  const out: string[] = [];
  let fence: OpenFence | undefined;
  let prev = '';
  let quote: number | undefined;
  let blank = false;
  for (const line of lines) {
    if (fence) {
      const kind = fenceLine(line, fence);
      if (kind !== 'end') {
        out.push(line);
        if (kind === 'close') fence = undefined;
        continue;
      }
      fence = undefined;
    }
    if (!line.trim()) {
      out.push(line);
      blank = true;
      continue;
    }
    const indent = /^\s*/.exec(line)![0].length;
    if (quote !== undefined && indent >= quote) {
      out.push(line.slice(quote));
      blank = false;
      continue;
    }
    quote = undefined;
    if (blank && indent >= 4 && prev && !/^\s/.test(prev) && !LIST_ITEM.test(prev)) quote = indent;
    const read = quote === undefined ? line : line.slice(quote);
    fence = fenceAt(read);
    out.push(read);
    prev = read;
    blank = false;
  }
  return out;
}

/**
 * Auto-enumerated list items (`#.` and `#)`) numbered as a reader sees them, 1, 2, … in each list: a list ends
 * at a line of its own indent that is not an item; an item's body is indented deeper.
 */
function numberAutoEnumerated(lines: string[]): string[] {
  const lists: { indent: number; n: number }[] = [];
  return lines.map((line) => {
    if (!line.trim()) return line;
    const indent = /^\s*/.exec(line)![0].length;
    while (lists.length && lists.at(-1)!.indent > indent) lists.pop();
    const item = /^(\s*)#([.)])(\s+\S.*)$/s.exec(line);
    const open = lists.at(-1)?.indent === indent ? lists.at(-1) : undefined;
    if (!item) {
      if (open) lists.pop();
      return line;
    }
    if (open) open.n++;
    else lists.push({ indent, n: 1 });
    return `${item[1]}${lists.at(-1)!.n}${item[2]}${item[3]}`;
  });
}

/**
 * The paragraph line that opens a literal block, as reStructuredText renders it: `Example::` reads
 * "Example:", `Example: ::` and `handler. ::` lose the marker (it follows a space), a line of `::` alone reads
 * as nothing.
 */
function literalLead(line: string): string {
  const head = line.trimEnd().slice(0, -2);
  return !head.trim() ? '' : head === head.trimEnd() ? `${head}:` : head.trimEnd();
}

/** A line shaped like source code: a decorator, a definition, an import, a prompt, a call, an assignment, a bracket. */
const CODE_LINE =
  /^(?:@\w|def |class |import |from [\w.]+ import |return\b|>>> |\$ |[\])}]|(?:if|for|while|with|try|else|elif|except)\b.*:$)|[([{,]$|^[\w.]+\(.*\)$|^[\w.[\]]+ = /;

/**
 * Whether a directive's body reads as source code rather than text: at least half the lines at its own indent
 * are shaped like code, none of them is a sentence (words ending in a period) and no line is reStructuredText
 * markup. Lines indented under a code line (a docstring, a function's body) belong to that code and are not
 * judged. Only asked of directives docent does not know.
 */
function looksLikeCode(body: string[]): boolean {
  const all = body.filter((l) => l.trim());
  // Markup of its own (a nested directive, a literal block's `::`) makes it text.
  if (!all.length || all.some((l) => l.trim().startsWith('.. ') || l.trimEnd().endsWith('::'))) return false;
  const lines = all.filter((l) => !/^\s/.test(l)).map((l) => l.trim());
  const code = lines.filter((l) => CODE_LINE.test(l)).length;
  const sentences = lines.filter((l) => !l.startsWith('#') && /[A-Za-z]\s+\w+[.!?]$/.test(l) && !/["'`]$/.test(l)).length;
  return code * 2 >= lines.length && sentences === 0;
}

/** Directives that carry no reading text: dropped with their bodies. */
const RST_NO_TEXT = new Set([
  'toctree',
  'image',
  'figure',
  'include',
  'literalinclude',
  'contents',
  'highlight',
  'raw',
  'index',
  'meta',
  'sectionauthor',
  'codeauthor',
  'module',
  'currentmodule',
  'default-role',
  'role',
  'tabularcolumns',
  'target-notes',
  'footer',
  'header',
  'title',
]);
/** Directives whose argument is a name (an option, a variable, a program): shown as code. */
const RST_NAMING = new Set(['option', 'cmdoption', 'envvar', 'describe', 'object', 'program', 'confval']);
/** Admonitions (reStructuredText directives, markdown containers): reading text under a label such as **Note:**. */
const ADMONITIONS = new Set([
  'info',
  'note',
  'warning',
  'tip',
  'important',
  'caution',
  'attention',
  'danger',
  'hint',
  'admonition',
  'seealso',
  'versionadded',
  'versionchanged',
  'deprecated',
]);
/** The admonition a callout line's marker stands for (webpack's `T>` and `W>`, docsify's `?>` and `!>`). */
const CALLOUTS: Record<string, string> = { T: 'tip', W: 'warning', '?': 'tip', '!': 'important' };

/**
 * reStructuredText inline markup to the markdown-like form: ``literal`` and code roles (:func:`x`) become
 * `code`; :ref:/:doc: roles, hyperlinks (`text <url>`_) and emphasis markers keep their text only.
 */
export function rstInline(line: string): string {
  // Each part stops at the next backtick or '<' and text is trimmed afterwards, so that no two parts of a
  // pattern can match the same spaces: a hostile line costs its length, not its length squared.
  return (
    line
      .replace(/``([^`]+)``/g, '`$1`')
      // A literal that wraps onto the next line opens (or closes) on this one: a code span across the break.
      .replace(/``/g, '`')
      .replace(TEXT_ROLE, (_m, role: string, text: string) => textRole(role, text))
      .replace(/(?<![\w:.-]):[\w:.-]+:`~?([^`<]*)(?:<([^>`]*)>)?`/g, codeRole)
      .replace(/`([^`<]+)<[^>`]+>`__?/g, (_m, text: string) => text.trimEnd())
      .replace(/`([^`]+)`__?(?![`\w])/g, '$1')
      // A substitution (`|fetch|_`) reads as its name, and a one-word reference (`Dynaconf_`) as its word
      // (found from the start of its run of word characters, dots and dashes only: one pass over the line).
      .replace(/\|(\w[\w.-]*)\|_{0,2}(?![\w|])/g, '$1')
      .replace(/(?<![\w`.+-])([A-Za-z0-9][\w.+-]*[A-Za-z0-9])__?(?![\w`])/g, '$1')
  );
}

/** An ATX heading's text without its optional closing sequence (`## Title ##`); `C#` keeps its hash. */
export function withoutClosingHashes(text: string): string {
  const trimmed = text.trimEnd();
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1] === '#') end--;
  return end === 0 || /\s/.test(trimmed[end - 1]!) ? trimmed.slice(0, end).trimEnd() : trimmed;
}

/** An admonition's label line: **Note:** and what follows it (`kind` in any case: note, NOTE, Note). */
function labelLine(kind: string, text = ''): string {
  return `**${kind[0]!.toUpperCase()}${kind.slice(1).toLowerCase()}:**${text ? ` ${text}` : ''}`;
}

/**
 * How a markdown line stands to fenced code (src/docs/fence.ts), given the block open before it: whether it
 * is code (a fence, or a line of the open block), and the block open after it.
 */
export function readFence(line: string, open: OpenFence | undefined): { code: boolean; after: OpenFence | undefined } {
  const kind = open && fenceLine(line, open);
  if (kind === 'body') return { code: true, after: open };
  if (kind === 'close') return { code: true, after: undefined };
  const after = fenceAt(line);
  return { code: after !== undefined, after };
}

/** A twoslash cut marker (Shiki's, as VitePress and Docusaurus sites write TypeScript examples). */
const TWOSLASH_CUT = /^\s*\/\/ ?---cut(-before|-after|-start|-end)?---\s*$/;

/**
 * Fenced code as a twoslash page shows it: what `// ---cut---` (or `---cut-before---`) has above it, what
 * `---cut-after---` has below it and what lies between `---cut-start---` and `---cut-end---` are set-up the
 * reader never sees (type imports, `@type` comments), and go with the markers. Code without markers stays as written.
 */
export function twoslashCuts(text: string): string {
  if (!text.includes('---cut')) return text;
  const shown = (block: string[]): string[] => {
    let kept: string[] = [];
    let hidden = false;
    for (const line of block) {
      const cut = TWOSLASH_CUT.exec(line);
      if (!cut) {
        if (!hidden) kept.push(line);
      } else if (cut[1] === undefined || cut[1] === '-before') kept = [];
      else if (cut[1] === '-start') hidden = true;
      else if (cut[1] === '-end') hidden = false;
      else break;
    }
    return kept;
  };
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const open = fenceAt(lines[i]!);
    if (!open) {
      out.push(lines[i++]!);
      continue;
    }
    // The block's lines as written (fencedBlock's body drops the fence's indentation).
    const { closed, next } = fencedBlock(lines, i + 1, open);
    const end = closed ? next - 1 : next;
    out.push(lines[i]!, ...shown(lines.slice(i + 1, end)), ...(closed ? [lines[end]!] : []));
    i = next;
  }
  return out.join('\n');
}

/**
 * A quote's first line naming its kind and then a bold label: `info **Hint** The class is …`, `Warning
 * **Important** …`. A capitalised kind counts only before a label that names a kind too: "> Warning **do
 * not** …" is a sentence.
 */
const QUOTE_CALLOUT = /^([a-z]{2,20})[ \t]+\*\*([^*\n]+)\*\*:?(.*)$/is;
/** The kinds such a quote names: the admonitions, and two words only callouts use. */
const CALLOUT_KINDS = new Set([...ADMONITIONS, 'error', 'notice']);

/**
 * Markdown blockquotes read as their content: the `>` markers go (so a list, a table or code fenced inside a
 * quote is read as one), and a GitHub alert's `[!NOTE]` becomes the label **Note:**. Lines inside a fenced
 * code block that opened outside a quote are code and stay as they are (`> npm install` is a prompt).
 */
export function unquoteMarkdown(text: string): string {
  let fence: OpenFence | undefined;
  return text
    .split('\n')
    .map((line) => {
      const read = readFence(line, fence);
      fence = read.after;
      const quoted = read.code ? undefined : /^ {0,3}>[!?]?(?: |$)?(.*)$/.exec(line);
      if (!quoted) return line;
      // Nested markers (`> > text`) go in one pass.
      const inner = quoted[1]!.replace(/^(?: {0,3}>(?= |$) ?)*/, '');
      const alert = /^\[!(\w+)\](.*)$/s.exec(inner.trim());
      if (alert) return labelLine(alert[1]!, alert[2]!.trim());
      // A quote opening with its kind and a bold label (NestJS's `> info **Hint** …`, `> warning **Notice** …`)
      // is a callout under that label.
      const callout = QUOTE_CALLOUT.exec(inner.trim());
      const calloutKind = callout && CALLOUT_KINDS.has(callout[1]!.toLowerCase());
      if (calloutKind && (/^[a-z]/.test(callout[1]!) || CALLOUT_KINDS.has(callout[2]!.trim().toLowerCase())))
        return labelLine(callout[2]!.trim(), callout[3]!.trim());
      // A heading inside a quote titles the quote, not a section of the page: read as a bold line, so that the
      // page's next sections stay under the page's own headings (pino's `> ## Note` above its API's methods).
      const heading = /^ {0,3}#{1,6}[ \t]+(.*)$/s.exec(inner);
      const title = heading ? withoutClosingHashes(heading[1]!).trim() : '';
      return title ? `**${title}**` : inner;
    })
    .join('\n');
}

/** A list item that is only a link to a heading of the same page: `- [Options](#options)`, `* [\`bodyLimit\`](#bodylimit)`. */
const CONTENTS_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+\[(?:[^\]\\\n]|\\.)+\]\(#[^)\s]*\)\s*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;

/**
 * A page's table of contents (a list of at least three items, each only a link to one of the page's own
 * headings) is navigation, not documentation: it goes. Left in, it is a passage holding the name of every
 * section, which outranks the section that answers and is quoted as a list of names (a reference page's
 * contents above `### connectionTimeout` answered "How do I set a timeout for connections?" with
 * "`connectionTimeout`, `bodyLimit`"). A list of links to other pages (an index page) stays, and so does a
 * list with any item that says more than its link. Fenced code stays as written. Measured (2026-11-26, fifteen
 * development corpora, where eight pages of pino, koa, cargo and composer and some package READMEs have one): no
 * question's ranking, answer or refusal moved, as markdown or as sites.
 */
export function withoutContents(text: string): string {
  const lines = text.split('\n');
  const drop = new Set<number>();
  let fence: OpenFence | undefined;
  let run: number[] = [];
  let links = 0;
  const close = () => {
    if (run.length >= 3 && links === run.length) for (const i of run) drop.add(i);
    run = [];
    links = 0;
  };
  lines.forEach((line, i) => {
    const read = readFence(line, fence);
    fence = read.after;
    if (read.code) return close();
    if (LIST_ITEM.test(line)) {
      run.push(i);
      if (CONTENTS_ITEM.test(line)) links++;
      return;
    }
    // A blank line inside a list (between items) does not end it; anything else does.
    if (!line.trim() && run.length) return;
    close();
  });
  close();
  return drop.size ? lines.filter((_, i) => !drop.has(i)).join('\n') : text;
}

/** Text without a trailing attribute block (`Title {#custom-id}`, `{.class}`), as site generators read it. */
export function withoutAttributes(text: string): string {
  return text.replace(/\{[#.][^{}\n]*\}\s*$/, '').trimEnd();
}

/** A tag's attributes: a quoted value may hold `<` and `>` (`type="Record<String, String[]>"`). */
const TAG_ATTRIBUTES = String.raw`(\s(?:[^<>"']|"[^"\n]*"|'[^'\n]*')*?)?`;
/** A line holding only a component's tag (MDX): closing mark, name, attributes, self-closing mark. */
const COMPONENT_LINE = new RegExp(String.raw`^\s*<(\/)?([A-Z][\w.]*)${TAG_ATTRIBUTES}(\/)?>\s*$`);
/** A line holding one component element and its text (`<Alert type="warning">Query strings are not part of the path.</Alert>`). */
const COMPONENT_ELEMENT = new RegExp(String.raw`^\s*<([A-Z][\w.]*)${TAG_ATTRIBUTES}>(.*)<\/\1>\s*$`);
/** The first line of a component's tag that goes on over the next lines: `<MiddlewareInfo` or `<Param name="a"`. */
const COMPONENT_OPENING = /^\s*<[A-Z][\w.]*(?:\s[^<>]*)?$/;
/** Most lines a component's tag is read over. */
const TAG_LINES = 20;
/** A JSX attribute: its name, and its value when it is a string (an `{expression}` shows no text of its own). */
const JSX_ATTRIBUTE = /([A-Za-z_][\w:.-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|\{[^{}]*\}))?/g;
/** Attributes naming what a component documents: a parameter, a field, a header, a command. */
const NAMING_ATTRIBUTES = ['name', 'path', 'query', 'body', 'header', 'field', 'param', 'command'];
/** Attributes describing it (shown as `type: String`), and flags that do (`optional`). */
const DESCRIBING_ATTRIBUTES = ['type', 'default', 'returns'];
const DESCRIBING_FLAGS = ['optional', 'required', 'deprecated'];

/**
 * What a component's tag shows as text (MDX API pages put a parameter's name and type in its attributes:
 * `<Param name="maxAge" type="Number" default="0">` documents `maxAge`): the named thing, in backticks when
 * it is one word, then what describes it: "`maxAge` (type: Number, default: 0)". A component whose only such
 * attribute is an admonition's kind (`<Alert type="warning">`) opens under its label, as `:::warning` does.
 * Attributes that lay out or wire the page (`groupId`, `slot`, a tab's `value`) show nothing.
 */
function componentText(attributes: string): string {
  const values = new Map<string, string | true>();
  for (const m of attributes.matchAll(JSX_ATTRIBUTE)) {
    const value = m[2] ?? m[3];
    if (value !== undefined) values.set(m[1]!, value.trim());
    else if (!m[0].includes('=')) values.set(m[1]!, true);
  }
  const named = NAMING_ATTRIBUTES.map((k) => values.get(k)).find((v): v is string => typeof v === 'string' && v !== '');
  const described = [
    ...DESCRIBING_ATTRIBUTES.flatMap((k) => {
      const v = values.get(k);
      return typeof v === 'string' && v ? [`${k}: ${v}`] : [];
    }),
    ...DESCRIBING_FLAGS.filter((k) => values.get(k) === true),
  ];
  if (!named) {
    const kind = values.get('type');
    return described.length === 1 && typeof kind === 'string' && ADMONITIONS.has(kind.toLowerCase()) ? labelLine(kind) : '';
  }
  const term = /\s/.test(named) ? named : `\`${named.replace(/`/g, '')}\``;
  return described.length ? `${term} (${described.join(', ')})` : term;
}

/** A component's tag that opens a JavaScript expression (`code={`, `items={[`) it does not close on its line. */
const JSX_EXPRESSION_OPEN = /^\s*<[A-Z][\w.]*\s[^<>]*=\s*\{/;

/**
 * The extent of a component's tag that starts on line `start` and whose attribute expressions run over
 * several lines (MDX: what is between `{` and `}` is JavaScript, not markdown): the line it ends on, its
 * text, and whether it closes itself. Strings, template literals and their `${…}` are skipped as JavaScript
 * does. Undefined when the tag ends on its first line or not within TAG_EXPRESSION_LINES.
 */
function jsxTagSpan(lines: readonly string[], start: number): { end: number; text: string; selfClosing: boolean } | undefined {
  const first = lines[start]!;
  const from = first.search(/<[A-Z]/);
  if (from < 0) return undefined;
  // What is open: '{' an expression, '`' a template literal, '"' and "'" strings.
  const open: string[] = [];
  const text: string[] = [];
  for (let l = start; l < lines.length && l <= start + TAG_EXPRESSION_LINES; l++) {
    const line = lines[l]!;
    for (let c = l === start ? from + 1 : 0; c < line.length; c++) {
      const ch = line[c]!;
      const top = open.at(-1);
      if (top === '`' || top === '"' || top === "'") {
        if (ch === '\\') c++;
        else if (ch === top) open.pop();
        else if (top === '`' && ch === '$' && line[c + 1] === '{') {
          open.push('{');
          c++;
        }
      } else if (ch === '{') open.push('{');
      else if (ch === '}') open.pop();
      else if (ch === '`' || ch === '"' || ch === "'") open.push(ch);
      else if (ch === '>' && !top) {
        if (l === start) return undefined;
        text.push(line.slice(0, c + 1));
        return { end: l, text: text.join('\n'), selfClosing: line[c - 1] === '/' };
      }
    }
    text.push(l === start ? line.slice(from) : line);
  }
  return undefined;
}

/** Most lines a component's tag with expressions over several lines is read over. */
const TAG_EXPRESSION_LINES = 300;

/**
 * A component's tag read whole (jsxTagSpan): each template literal it gives over several lines (Starlight's
 * `<Code code={`…`} lang="bash" />`) as a listing in the tag's `lang`, its other attributes as a tag on one
 * line shows them (componentText).
 */
function jsxTagLines(tag: string): string[] {
  const lang = /\b(?:lang|language)\s*=\s*["']([\w+#.-]+)["']/.exec(tag)?.[1] ?? '';
  const out: string[] = [];
  const attributes = tag.replace(/=\s*\{\s*`((?:[^`\\]|\\.)*)`\s*\}/gs, (_m, literal: string) => {
    if (literal.includes('\n')) {
      const body = literal.replace(/\\([`$\\])/g, '$1').split('\n');
      while (body.length && !body[0]!.trim()) body.shift();
      while (body.length && !body.at(-1)!.trim()) body.pop();
      // Trimmed of blank lines at both ends, a body that has lines has a non-blank one: the indent is finite.
      const indent = Math.min(...body.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length));
      out.push(
        '',
        ...fenceAround(
          lang,
          body.map((l) => l.slice(indent)),
        ),
        '',
      );
    }
    return '={}';
  });
  const label = componentText(
    attributes
      .replace(/^<[A-Z][\w.]*/, '')
      .replace(/\/?>$/, '')
      .replace(/\s+/g, ' '),
  );
  return label ? [label, ...out] : out;
}

/** Words of an MDX `import` line that are not names it binds. */
const MDX_IMPORT_WORDS = new Set(['import', 'as', 'type']);

/**
 * Markdown as documentation sites extend it, read as plain markdown: a container (`::: tip Title`, `:::warning`)
 * opens under its label (**Tip:** Title) and its closing `:::` goes, and so does an admonition of MkDocs'
 * dialect (`!!! note "Title"`: **Title:**); one that only groups code (`::: code-group`)
 * goes; one naming an API object (mkdocstrings' `::: package.module.Name`) keeps the name as code. MDX `import`
 * and `export` lines and lines holding only a component's tag (`<CpuFlag />`, `<Tabs groupId="pm">`, `</TabItem>`)
 * carry no reading text and go, and so does what an imported binding renders (`<CodeBlock>{Example}</CodeBlock>`).
 * A VitePress page's references to its own front matter (`# {{ $frontmatter.title }}`)
 * read as the values they show (one to a key `meta` lacks stays as written).
 * Fenced code stays as written.
 */
export function siteMarkdown(text: string, meta: Readonly<Record<string, string>> = {}): string {
  let fence: OpenFence | undefined;
  const out: string[] = [];
  // How many containers of MkDocs' dialect (admonitions, content tabs) are open around the line: each indents
  // its body by four spaces more.
  let containers = 0;
  // MyST directives whose body is being read as markdown, innermost last: each one's closing fence goes.
  const directives: OpenFence[] = [];
  let directiveOptions = false;
  // Names the page's MDX `import` lines bind.
  const imported = new Set<string>();
  // Component elements open around the line (MDX), and the indentation the open fence's lines lose.
  let components = 0;
  let fenceIndent = 0;
  // The column the content of the list item open around the line starts at (0 outside lists).
  let itemIndent = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    // An admonition's or a content tab's body is indented by four spaces: read without them, so its code fences
    // are fences and its prose is prose. A line indented less closes the containers it is outside of.
    // (A blank line keeps them open; the levels it has end where its indentation does.)
    const levels = containers ? indentLevels(raw, containers) : undefined;
    if (levels && raw.trim()) containers = levels.levels;
    // Inside a component's element, indentation only lays out the JSX (MDX has no indented code): its lines
    // are read without it, and a fenced block opened there loses as much of it as its opening fence had.
    const leading = /^[ \t]*/.exec(raw)![0].length;
    if (!fence) fenceIndent = components ? leading : 0;
    const unindented = levels && containers ? raw.slice(levels.end) : fenceIndent ? raw.slice(Math.min(fenceIndent, leading)) : raw;
    // A Hugo cross-reference (`[the CLI]({{< relref "cli#install" >}})`) is its target, so its link reads as one.
    const liquid = fence || !unindented.includes('{%') ? undefined : liquidTags(unindented);
    const line =
      !fence && !liquid && /\{[{%]/.test(unindented)
        ? unindented
            .replace(FRONT_MATTER_VALUE, (m, span?: string, key?: string) => span ?? meta[key!.toLowerCase()] ?? m)
            .replace(HUGO_REF, '$1')
            .replace(TEMPLATE_INLINE, (m, span?: string, _tag?: string, target?: string) => span ?? (target !== undefined ? '](#)' : ''))
            .trimEnd()
        : unindented;
    // A directive's options (`:class: tip`) come first in its body and carry no reading text.
    if (directiveOptions && MYST_OPTION.test(line)) continue;
    directiveOptions = false;
    const inner = directives.at(-1);
    const toDirective = !fence && inner ? fenceLine(line, inner) : 'body';
    if (toDirective !== 'body') {
      directives.pop();
      if (toDirective === 'close') continue;
    }
    const read = readFence(line, fence);
    const directive = !fence && read.after && /^\{([\w:.-]+)\}[ \t]*(.*)$/s.exec(read.after.fence.info);
    if (directive && read.after) {
      const [, name = '', arg = ''] = directive;
      const kind = mystDirective(name);
      if (kind === 'text') {
        out.push('', ...directiveLabel(name.toLowerCase(), arg.trim()));
        directives.push(read.after);
        directiveOptions = true;
        continue;
      }
      // The other kinds take their body whole: code stays code, reStructuredText is read as such.
      const block = fencedBlock(lines, i + 1, read.after);
      i = block.next - 1;
      const options = block.body.findIndex((l) => !MYST_OPTION.test(l));
      const body = options < 0 ? [] : block.body.slice(options);
      const { marker } = read.after.fence;
      if (kind === 'code') out.push(`${marker}${arg.trim().split(/\s/, 1)[0]}`, ...body, marker);
      else if (kind === 'rst') out.push('', rstToMarkdownish(body.join('\n')), '');
      continue;
    }
    const opened = fence;
    fence = read.after;
    if (read.code) {
      // NestJS's listings: `@@filename(cats.controller)` names the file the site shows above the listing, and
      // `@@switch` starts the same listing in JavaScript, which the site shows as another tab: a listing of its own.
      if (opened && fence && /^\s*@@filename\([^()]*\)\s*$/.test(line)) continue;
      if (opened && fence && /^\s*@@switch\s*$/.test(line)) {
        const { marker, info } = opened.fence;
        const pad = /^[ \t]*/.exec(line)![0];
        out.push(`${pad}${marker}`, '', `${pad}${marker}${info}`);
        continue;
      }
      out.push(line);
      continue;
    }
    // A MyST target (`(options)=`) names the heading after it for links: no reading text.
    if (/^\s{0,3}\([^()\s]+\)=\s*$/.test(line)) continue;
    if (liquid) {
      const [tag] = liquid;
      if (liquid.length === 1 && tag!.name === 'highlight') {
        // Jekyll's highlighted code, to its end tag.
        const body: string[] = [];
        let j = i + 1;
        for (; j < lines.length && liquidTags(lines[j]!)?.[0]?.name !== 'endhighlight'; j++) body.push(lines[j]!);
        i = j;
        out.push('', ...fenceAround(tag!.args.split(/\s/, 1)[0]!, body), '');
      } else if (liquid.length === 1 && tag!.name === 'hint') {
        // GitBook's hint: `{% hint style="warning" %}`.
        const style = /style="(\w+)"/.exec(tag!.args)?.[1]?.toLowerCase() ?? 'note';
        out.push('', labelLine(ADMONITIONS.has(style) ? style : 'note'));
      } else out.push('');
      continue;
    }
    const shortcode = hugoShortcode(line);
    if (shortcode) {
      const { closing, name } = shortcode;
      const rest = shortcode.rest.replace(HUGO_TAG, '').trim();
      if (!closing && ADMONITIONS.has(name)) out.push('', labelLine(name, rest));
      else out.push(rest);
      continue;
    }
    // A template call written over several lines (Nunjucks, Jinja: `{{ npx_tabs({` … `}) }}`, how Eleventy and
    // MkDocs-macros sites write a command's tabs) stands where its output would: shown as the code it is, so
    // its arguments read together and a sentence ending in ":" brings them.
    const call = TEMPLATE_CALL_OPEN.test(line) && !line.includes('}}') ? templateCallEnd(lines, i) : -1;
    if (call > i) {
      out.push('', ...fenceAround('', lines.slice(i, call + 1)), '');
      i = call;
      continue;
    }
    // A callout by its line's marker: webpack's `T>` tip and `W>` warning, docsify's `?>` tip and `!>` important.
    const callout = /^\s{0,3}([TW?!])> ?(.*)$/.exec(line);
    if (callout) {
      out.push('', labelLine(CALLOUTS[callout[1]!]!, callout[2]!.trim()));
      continue;
    }
    // An MDX comment on a line of its own (`{/* eslint-disable no-eval */}`) is not shown.
    if (/^\s{0,3}\{\/\*(?:[^*]|\*(?!\/\}))*\*\/\}\s*$/.test(line)) continue;
    // Python-Markdown's admonitions (`!!! note "Title"`, collapsible `??? tip`) are the same thing in MkDocs' dialect.
    const admonition = /^\s{0,3}(?:!!!|\?\?\?\+?)\s*([A-Za-z][\w-]*)(?:\s+"([^"]*)")?\s*$/.exec(line);
    if (admonition) {
      const [, kind = '', title = ''] = admonition;
      out.push('', title ? `**${title}:**` : labelLine(kind));
      containers++;
      continue;
    }
    // A content tab (pymdownx.tabbed: `=== "macOS and Linux"`, its body indented under it) opens under its
    // label, which says what the body is for.
    const tab = /^\s{0,3}===[!+]?\s+"([^"]*)"\s*$/.exec(line);
    if (tab) {
      out.push('', ...(tab[1]!.trim() ? [`**${tab[1]!.trim()}:**`] : []));
      containers++;
      continue;
    }
    // (MyST writes the same with braces: `:::{note}`.)
    const container = /^\s{0,3}:{3,}[ \t]*\{?([\w.-]*)\}?(.*)$/s.exec(line);
    if (container) {
      const kind = container[1]!;
      const title = withoutAttributes(container[2]!).trim();
      const label = kind.toLowerCase();
      // A collapsible block (`::: details Title`) is labelled by its title alone.
      if (label === 'details' && title) out.push('', `**${title}:**`);
      else if (ADMONITIONS.has(label)) out.push('', labelLine(label, title));
      else if (kind.includes('.')) out.push('', `\`${kind}\``);
      else out.push('');
      directiveOptions = /^\s{0,3}:{3,}[ \t]*\{/.test(line);
      continue;
    }
    // HTML's collapsible block (`<details><summary>Title</summary>`) is labelled by its summary, as `::: details
    // Title` is, so that the label introduces what it hides.
    const summary = /^\s{0,3}(?:<details\b[^<>]*>\s*)?<summary\b[^<>]*>(.*?)<\/summary>\s*$/i.exec(line);
    if (summary) {
      const title = summary[1]!.replace(/<[^<>]*>/g, '').trim();
      out.push('', ...(title ? [`**${title}:**`] : []));
      continue;
    }
    // Written so that no two parts can match the same spaces: a line of spaces costs its length, not its cube.
    if (/^(?:import\s+(?:[\w{},*]+\s+)+from\s+['"][^'"]+['"]|export\s+(?:const|default|function)\b.*);?\s*$/s.test(line)) {
      for (const name of line.replace(/\bfrom\s+['"].*$/s, '').matchAll(/[A-Za-z_$][\w$]*/g)) if (!MDX_IMPORT_WORDS.has(name[0])) imported.add(name[0]);
      continue;
    }
    // What an imported binding renders (`{UninstallExample}`, alone or as a component's only content, how MDX
    // shows a file loaded raw) is not in the page: nothing to read.
    const shown = /^\s*(?:<([A-Z][\w.]*)(?:\s[^<>]*)?>)?\s*\{\s*([A-Za-z_$][\w$]*)\s*\}\s*(?:<\/([A-Z][\w.]*)>)?\s*$/.exec(line);
    if (shown && imported.has(shown[2]!) && shown[1] === shown[3]) continue;
    // A component's tag whose attribute expression runs over several lines is JavaScript to its end, not
    // markdown: a template literal in it (`code={`…`}`) is a listing, whose `# comment` lines are no headings.
    const spanning = JSX_EXPRESSION_OPEN.test(line) ? jsxTagSpan(lines, i) : undefined;
    if (spanning) {
      out.push(...jsxTagLines(spanning.text));
      if (!spanning.selfClosing) components++;
      i = spanning.end;
      continue;
    }
    // A tag written over several lines, one attribute to a line (how Prettier formats a long one), is read as
    // one line, up to its closing `>` (within a few lines). A line indented as code, four columns past the
    // list item it is in (if any), outside any element, is code (`    <Provider store={store}>` of an
    // indented listing), not a tag.
    const indent = /^ */.exec(line)![0].length;
    const item = /^( *)(?:[-*+]|\d{1,9}[.)])( +)\S/.exec(line);
    if (item) itemIndent = item[1]!.length + 1 + Math.min(item[2]!.length, 4);
    else if (line.trim() && indent < itemIndent) itemIndent = 0;
    let tagLine = !components && (indent >= itemIndent + 4 || /^\t/.test(line)) ? '' : line;
    if (COMPONENT_OPENING.test(tagLine))
      for (let j = i + 1; j < Math.min(lines.length, i + 1 + TAG_LINES); j++) {
        if (!lines[j]!.trim() || /</.test(lines[j]!)) break;
        tagLine += ` ${lines[j]!.trim()}`;
        if (lines[j]!.trimEnd().endsWith('>')) {
          if (COMPONENT_LINE.test(tagLine)) i = j;
          break;
        }
      }
    const element = tagLine && COMPONENT_ELEMENT.exec(tagLine);
    if (element) {
      const label = componentText(element[2] ?? '');
      const text = element[3]!.trim();
      out.push(label && text ? `${label} ${text}` : label || text);
      continue;
    }
    const tag = COMPONENT_LINE.exec(tagLine);
    if (tag) {
      const [, closing, , attributes = '', selfClosing] = tag;
      if (closing) components = Math.max(0, components - 1);
      else {
        if (!selfClosing) components++;
        const label = componentText(attributes);
        if (label) out.push(label);
      }
      continue;
    }
    // An attribute block on a line of its own (`{#automocking-algorithm}`, kramdown's `{: .note}`, Goldmark's
    // `{ .warning }`) names the block beside it for links and styles: no reading text.
    if (/^\s{0,3}\{[ \t]*[:#.][^{}\n]*\}\s*$/.test(line)) continue;
    // A table-of-contents marker (`[[toc]]`, markdown-it's) shows the page's headings, which the page has.
    if (/^\s{0,3}\[\[toc\]\]\s*$/i.test(line)) continue;
    // A snippet include (pymdownx.snippets: `--8<-- "CONTRIBUTING.md"`, or a block of them between two bare
    // markers) names another file the site inserts at build time: no reading text here.
    if (/^\s{0,3}-{1,2}8<-{1,2}(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'))?\s*$/.test(line)) {
      if (!/["']/.test(line))
        for (let j = i + 1; j < lines.length && j <= i + 50; j++)
          if (/^\s{0,3}-{1,2}8<-{1,2}\s*$/.test(lines[j]!)) {
            i = j;
            break;
          }
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

/** How many of `most` four-space (or tab) indentation levels a line starts with, and where they end. */
function indentLevels(line: string, most: number): { levels: number; end: number } {
  let levels = 0;
  let end = 0;
  for (; levels < most; levels++) {
    if (line.startsWith('    ', end)) end += 4;
    else if (line[end] === '\t') end += 1;
    else break;
  }
  return { levels, end };
}

/**
 * MyST roles read as reStructuredText's are (rstInline): `{ref}\`Options <options>\`` as its text,
 * `{func}\`~click.echo\`` as code. A role may wrap onto the next line, so each run of lines outside fenced
 * code is read whole; fenced code stays as written (`\`${a}\`` is a template literal there).
 */
export function mystRoles(text: string): string {
  if (!text.includes('}`')) return text;
  const out: string[] = [];
  let prose: string[] = [];
  const flush = () => {
    if (prose.length) {
      out.push(
        prose
          .join('\n')
          .replace(MYST_ROLE, (m, span?: string, role?: string, text = '', target?: string) =>
            span ? span : MYST_TEXT_ROLES.has(role!) ? textRole(role!, text) : codeRole(m, text, target),
          ),
      );
    }
    prose = [];
  };
  let fence: OpenFence | undefined;
  for (const line of text.split('\n')) {
    const read = readFence(line, fence);
    fence = read.after;
    if (!read.code) {
      prose.push(line);
      continue;
    }
    flush();
    out.push(line);
  }
  flush();
  return out.join('\n');
}

/**
 * Template markup inside a line of prose, outside code spans (matched first and kept): a Liquid tag
 * (`{%- include badge.html -%}`), which goes, or a link whose target is a template expression
 * (`[Sass]({{ '/docs/sass/' | relative_url }})`, `[x]({% link _docs/x.md %})`), whose target goes so the link
 * reads as its text.
 */
const TEMPLATE_INLINE = /(`[^`]*`)|((?<!\{)\{%[^{}\n]*%\}(?!\}))|\]\(\s*(\{\{[^{}\n]*\}\}|\{%[^{}\n]*%\})[^()\s]*\)/g;

/**
 * A line made only of Liquid tags (`{% raw %}`, `{%- include note.html -%}`, `{% endhint %}`), as Jekyll and
 * GitBook pages write them: each tag's name (lower case) and arguments; undefined for any other line.
 */
function liquidTags(line: string): { name: string; args: string }[] | undefined {
  const tags: { name: string; args: string }[] = [];
  let at = line.length - line.trimStart().length;
  const end = line.trimEnd().length;
  if (!line.startsWith('{%', at)) return undefined;
  while (at < end) {
    if (!line.startsWith('{%', at)) return undefined;
    const close = line.indexOf('%}', at + 2);
    if (close < 0) return undefined;
    // (Trimmed rather than matched with spaces on both sides of a lazy part: a long tag costs its length.)
    const inner = line
      .slice(at + 2, close)
      .replace(/^-/, '')
      .replace(/-$/, '')
      .trim();
    const name = /^\w+/.exec(inner)?.[0];
    if (!name) return undefined;
    tags.push({ name: name.toLowerCase(), args: inner.slice(name.length).trim() });
    at = close + 2;
    while (line[at] === ' ' || line[at] === '\t') at++;
  }
  return tags;
}

/** A line opening a template expression (`{{ npm_tabs({`), not a Hugo shortcode (`{{<`, `{{%`) or Handlebars block (`{{#`). */
const TEMPLATE_CALL_OPEN = /^\s{0,3}\{\{-?\s*[A-Za-z_]/;

/** The index of the line closing the template expression opened at `start` (one ending in `}}`), within 40 lines and no blank one; -1 if none. */
function templateCallEnd(lines: readonly string[], start: number): number {
  for (let j = start + 1; j < lines.length && j <= start + 40; j++) {
    const l = lines[j]!.trimEnd();
    if (!l) return -1;
    if (l.endsWith('}}')) return j;
  }
  return -1;
}

/** A reference to the page's front matter outside code spans (matched first and kept). */
const FRONT_MATTER_VALUE = /(`[^`]*`)|\{\{[ \t]*\$frontmatter\.([A-Za-z_][\w-]*)[ \t]*\}\}/g;
const HUGO_REF = /\{\{[<%]\s*(?:rel)?ref\s+"([^"\n]*)"\s*[>%]\}\}/g;
/** Any Hugo shortcode tag (`{{% /warning %}}`); not a template's `{{ value }}`. */
const HUGO_TAG = /\{\{[<%][^{}\n]*[>%]\}\}/g;

/**
 * A Hugo shortcode tag opening a line (`{{% note %}}`, `{{< tab tabID="pip" >}}`, `{{% /note %}}`): whether
 * it closes, its name in lower case, and the text after it. An admonition's opens its label; the others
 * (tabs, steps, closing tags) carry no reading text.
 */
function hugoShortcode(line: string): { closing: boolean; name: string; rest: string } | undefined {
  const text = line.trimStart();
  if (line.length - text.length > 3 || !/^\{\{[<%]/.test(text)) return undefined;
  const end = text.search(/[>%]\}\}/);
  const tag = end < 0 ? null : /^(\/?)\s*([\w-]+)/.exec(text.slice(3, end).trim());
  return tag ? { closing: tag[1] === '/', name: tag[2]!.toLowerCase(), rest: text.slice(end + 3).trim() } : undefined;
}

/** A MyST directive's option line (`:class: tip`), which comes first in its body and carries no reading text. */
const MYST_OPTION = /^\s*:[\w-]+:/;

/**
 * What a MyST directive (```` ```{name} argument ````) holds: code (`code-block`), reStructuredText
 * (`eval-rst`), nothing to read (toctree, contents, autodoc; as the same reStructuredText directives), or
 * markdown text read in place under its label (note, admonition, versionadded, option, …).
 */
function mystDirective(name: string): 'code' | 'rst' | 'none' | 'text' {
  const n = name.toLowerCase();
  if (n === 'code-block' || n === 'code' || n === 'sourcecode' || n === 'code-cell') return 'code';
  if (n === 'eval-rst') return 'rst';
  if (RST_NO_TEXT.has(n) || n.startsWith('auto') || n === 'literalinclude') return 'none';
  return 'text';
}

/** The line that heads a directive's text, as reStructuredText's directive of the same name is read. */
function directiveLabel(name: string, arg: string): string[] {
  if (ADMONITIONS.has(name)) return [labelLine(name, arg)];
  if (arg && (RST_NAMING.has(name) || name.includes(':'))) return [`\`${arg}\`:`];
  return arg ? [arg] : [];
}

/** A GFM table's delimiter row: cells of dashes (a colon at either end for alignment), outer pipes optional. */
const DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*(?:\|[ \t]*)?$/;

/** A pipe between two cells of a table row: one not escaped (`\|` is a cell's own). */
const CELL_BREAK = /(?<!\\)\|/;

/** A table row's cells: split at its pipes, escaped ones (`\|`) left in their cell, outer pipes optional. */
function rowCells(line: string): string[] {
  const cells = line.trim().split(CELL_BREAK);
  if (cells[0]?.trim() === '') cells.shift();
  if (cells.length && cells.at(-1)!.trim() === '') cells.pop();
  return cells;
}

/**
 * GitHub-flavoured tables written without outer pipes (`Directory | Description` over `----|----`) read with
 * them, as every other stage reads a table (a row quoted whole under its header): left alone they were one
 * sentence of run-together cells. A table is a header row with as many cells as the delimiter row under it
 * (at least two), and the rows after them up to a blank line or a line without a pipe. Fenced code stays as
 * written.
 */
export function pipedTables(text: string): string {
  if (!text.includes('|')) return text;
  const lines = text.split('\n');
  let fence: OpenFence | undefined;
  let table = false;
  const piped = (line: string) =>
    `| ${rowCells(line)
      .map((c) => c.trim())
      .join(' | ')} |`;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const read = readFence(line, fence);
    fence = read.after;
    if (read.code) {
      table = false;
      continue;
    }
    if (table) {
      table = line.trim() !== '' && CELL_BREAK.test(line);
      if (table) lines[i] = piped(line);
      continue;
    }
    const next = lines[i + 1];
    if (next === undefined || /^\s*\|/.test(line) || !line.includes('|') || !DELIMITER_ROW.test(next)) continue;
    const cells = rowCells(line).length;
    if (cells < 2 || cells !== rowCells(next).length) continue;
    lines[i] = piped(line);
    lines[i + 1] = piped(next);
    i++;
    table = true;
  }
  return lines.join('\n');
}

/** The most lines an HTML table written in markdown may span to be read as a table (beyond: left as lines). */
const HTML_TABLE_LINES = 2000;

/**
 * An HTML table written in markdown (`<table>` … `</table>`, on one line or many) read as a markdown table:
 * a row a line, its cells' text between pipes (`<code>` as code, line breaks as spaces), under a rule when
 * its first row is of header cells, so that a row is quoted whole and under its header. Fenced code stays as
 * written. Text on the lines of its tags outside the table stays, a paragraph of its own.
 */
export function htmlTables(text: string): string {
  if (!/<table\b/i.test(text)) return text;
  const lines = text.split('\n');
  // The first line at or after each that closes a table (-1: none), so that finding a table's end costs one pass.
  const nextClose: number[] = new Array<number>(lines.length + 1).fill(-1);
  for (let j = lines.length - 1; j >= 0; j--) nextClose[j] = /<\/table\s*>/i.test(lines[j]!) ? j : nextClose[j + 1]!;
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = fenceAt(line);
    if (open) {
      const { next } = fencedBlock(lines, i + 1, open);
      out.push(...lines.slice(i, next));
      i = next - 1;
      continue;
    }
    const start = line.search(/<table\b/i);
    if (start < 0) {
      out.push(line);
      continue;
    }
    const sameLine = /<\/table\s*>/i.test(line.slice(start));
    const end = sameLine ? i : (nextClose[i + 1] ?? -1);
    if (end < 0 || end - i >= HTML_TABLE_LINES) {
      out.push(line);
      continue;
    }
    const html = lines.slice(i, end + 1).join('\n');
    const close = /<\/table\s*>/i.exec(html.slice(start))!;
    const tableEnd = start + close.index + close[0].length;
    const before = html.slice(0, start).trim();
    const after = html.slice(tableEnd).trim();
    out.push(...(before ? [before] : []), '', ...tableRows(parseHtml(html.slice(start, tableEnd)).children), '', ...(after ? [after] : []));
    i = end;
  }
  return out.join('\n');
}

type HtmlNode = ReturnType<typeof parseHtml>['children'][number];
/** Elements that run within a line of text: a cell's other elements (paragraphs, lists) are apart from their neighbours. */
const INLINE_ELEMENTS = new Set('a abbr b cite del em i ins kbd mark q s samp small span strong sub sup time u var'.split(' '));

/** The rows of the tables among `nodes` (parsed HTML) as markdown table lines (see htmlTables). */
function tableRows(nodes: HtmlNode[]): string[] {
  const cellText = (nodes: HtmlNode[]): string =>
    nodes
      .map((n) => {
        if (DomUtils.isText(n)) return n.data;
        if (!DomUtils.isTag(n)) return '';
        if (n.name === 'br') return ' ';
        if (n.name === 'code') return `\`${DomUtils.textContent(n).replace(/\s+/g, ' ').trim()}\``;
        return INLINE_ELEMENTS.has(n.name) ? cellText(n.children) : ` ${cellText(n.children)} `;
      })
      .join('');
  const rows = DomUtils.findAll((e) => e.name === 'tr', nodes).map((tr) => {
    const cells = tr.children.filter(DomUtils.isTag).filter((c) => c.name === 'td' || c.name === 'th');
    return {
      header: cells.length > 0 && cells.every((c) => c.name === 'th'),
      cells: cells.map((c) => cellText(c.children).replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')),
    };
  });
  const out: string[] = [];
  rows.forEach((row, k) => {
    if (!row.cells.length) return;
    out.push(`| ${row.cells.join(' | ')} |`);
    if (k === 0 && row.header) out.push(`|${' --- |'.repeat(row.cells.length)}`);
  });
  return out;
}

/**
 * Two words in a row: a front-matter value that says something to a reader (see ParsedDocument.metadata).
 * Fixed-length letters on both sides, so that a long word is not tried from every letter.
 */
const PHRASE = /[A-Za-z]{2}\W+[A-Za-z]{2}/;

export function parseDocument(content: string, type: ContentType): ParsedDocument {
  const text = content.replace(/\r\n?/g, '\n');
  if (type === 'html') {
    return htmlToMarkdownish(text);
  }
  if (type === 'asciidoc') {
    const page = asciidocToHtml(text);
    const read = htmlToMarkdownish(page.html);
    return { ...read, title: page.title ?? read.title, description: page.description ?? read.description };
  }
  const split = type === 'markdown' || type === 'text' ? splitFrontMatter(text) : { meta: {}, body: text, prose: [] };
  const { meta } = split;
  // A page that is all front matter (a VitePress home page: hero and features) says what it says there.
  const body = split.body.trim() || !split.prose.length ? split.body : split.prose.join('\n\n');
  const normalised =
    type === 'rst'
      ? rstToMarkdownish(body)
      : type === 'markdown'
        ? mystRoles(siteMarkdown(pipedTables(htmlTables(withoutContents(unquoteMarkdown(twoslashCuts(body))))), meta))
        : body;
  const metadata = Object.entries(meta)
    .filter(([key, value]) => key !== 'title' && key !== 'description' && key !== 'summary' && PHRASE.test(value))
    .map(([, value]) => value)
    .join(' \n ');
  return { body: normalised, title: meta.title, description: meta.description ?? meta.summary, ...(metadata ? { metadata } : {}) };
}

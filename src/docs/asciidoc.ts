/**
 * AsciiDoc (.adoc, .asciidoc): read by Asciidoctor.js, the reference processor's JavaScript build, so that
 * attributes, conditionals, delimited blocks, tables and cross references mean what they mean on the site
 * the documentation is published as. The result is Asciidoctor's HTML, adjusted where its layout would read
 * badly as text, for the HTML reader of parse.ts to normalise.
 *
 * Contracts:
 * - secure mode always: no file is read and nothing is fetched, whoever sent the text; an include directive
 *   names a file that is ingested on its own, or not at all, so it reads as nothing (the lines around it
 *   stay, a listing of only an include goes);
 * - a document that expands to far more text than it holds (an attribute of 4,000 characters referenced
 *   10,000 times) is refused, not read into megabytes;
 * - the processor (about 8 MB of JavaScript, 0.15 s to load) is loaded on the first AsciiDoc document only;
 * - a document the processor cannot read is an error for that document, with the processor's message.
 */
import { createRequire } from 'node:module';
import { DomUtils, parseDocument as parseHtml } from 'htmlparser2';

/** The part of Asciidoctor.js's API read here. */
interface AsciidocDocument {
  getDocumentTitle(options?: { sanitize?: boolean }): string | undefined;
  getAttribute(name: string): unknown;
  convert(): string;
}
interface IncludeReader {
  pushInclude(lines: string[], file: string, path: string, lineno: number, attributes: unknown): unknown;
}
interface IncludeDsl {
  handles(test: () => boolean): void;
  process(body: (doc: unknown, reader: IncludeReader, target: string, attributes: unknown) => unknown): void;
}
interface Processor {
  load(text: string, options: Record<string, unknown>): AsciidocDocument;
  LoggerManager: { setLogger(logger: unknown): void };
  NullLogger: { create(): unknown };
  Extensions: { create(): { includeProcessor(definition: (this: IncludeDsl) => void): void } };
}

let processor: Processor | undefined;

function load(): Processor {
  if (!processor) {
    const require = createRequire(import.meta.url);
    const factory = require('@asciidoctor/core') as () => Processor;
    processor = factory();
    // Its warnings (an unterminated block) would go to the console: stdout belongs to stdio MCP, and a page
    // read as well as it can be is not an operator's error.
    processor.LoggerManager.setLogger(processor.NullLogger.create());
  }
  return processor;
}

/**
 * The extensions a document is read with: an include processor that includes nothing. A registry serves one
 * document (it is activated by it), so each document gets its own.
 */
function extensionsFor(asciidoctor: Processor): unknown {
  const registry = asciidoctor.Extensions.create();
  registry.includeProcessor(function () {
    this.handles(() => true);
    this.process((_doc, reader, target, attributes) => reader.pushInclude([], target, target, 1, attributes));
  });
  return registry;
}

/**
 * Attributes set from outside, which win over the document's own: the title shown as the page's first
 * heading (as a markdown page's `# Title`), no generated table of contents (navigation, not text), labels
 * instead of icon fonts, cross references to other pages kept as the .adoc paths they name (so links between
 * pages resolve to the ingested documents), the UI macros on, front matter skipped.
 */
const ATTRIBUTES = {
  showtitle: '',
  'skip-front-matter': '',
  'attribute-missing': 'skip',
  icons: null,
  toc: null,
  outfilesuffix: '.adoc',
  // The UI macros (kbd:[Ctrl+C], btn:[Save], menu:File[Open]) read as what they show, as sites enable them.
  experimental: '',
  'env-docent': '',
};

export interface AsciidocPage {
  html: string;
  title?: string;
  description?: string;
}

/** HTML this many times the document's size, and this much more, is a document expanding itself, not text. */
const EXPANSION = 20;
const EXPANSION_SLACK = 1 << 20;

/** The document as HTML ready for the HTML reader, with its title and `:description:`. */
export function asciidocToHtml(text: string): AsciidocPage {
  let doc: AsciidocDocument;
  let html: string;
  try {
    const asciidoctor = load();
    doc = asciidoctor.load(text, { safe: 'secure', standalone: false, attributes: ATTRIBUTES, extension_registry: extensionsFor(asciidoctor) });
    html = doc.convert();
  } catch (error) {
    throw new Error(`AsciiDoc could not be read: ${(error instanceof Error ? error.message : String(error)).replace(/\.$/, '')}`);
  }
  if (html.length > EXPANSION * text.length + EXPANSION_SLACK) {
    const mb = (n: number) => (n < 1e6 ? `${Math.ceil(n / 1e3)} KB` : `${(n / 1e6).toFixed(1)} MB`);
    throw new Error(`AsciiDoc expands to ${mb(html.length)} from ${mb(text.length)} (attribute references or repeated content); it is not read`);
  }
  const title = textOf(doc.getDocumentTitle({ sanitize: true }));
  const description = textOf(doc.getAttribute('description'));
  return { html: readable(html), ...(title ? { title } : {}), ...(description ? { description } : {}) };
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.replace(/\s+/g, ' ').trim() : undefined;
}

type Node = ReturnType<typeof parseHtml>['children'][number];
type Element = Extract<Node, { attribs: Record<string, string> }>;

const hasClass = (e: Element, name: string) => (e.attribs.class ?? '').split(/\s+/).includes(name);
/** Parsed HTML's top nodes, in an array of their own (moving a node out of its parent changes the parent's). */
const fragment = (html: string) => [...parseHtml(html).children];

/**
 * Asciidoctor's HTML, adjusted for reading as text:
 * - an admonition (a table of an icon cell and a content cell) becomes its label opening its content
 *   ("Note: …"), as admonitions read elsewhere; nested ones too;
 * - a definition list's terms open their definition's first paragraph ("-f, --fresh: Make sure …"), so that
 *   an option and what it does are one unit, not a bare name and a sentence that never says it;
 * - callout marks in code (`<b class="conum">(1)</b>`) go, with the comment that carried them (`// <1>`);
 * - a listing left empty (its only line was an include) goes.
 */
function readable(html: string): string {
  const dom = parseHtml(html);
  const all = () => DomUtils.findAll(() => true, dom.children) as Element[];
  for (const e of all()) {
    if ((e.name === 'b' || e.name === 'i') && hasClass(e, 'conum')) withoutCallout(e);
  }
  for (const pre of all().filter((e) => e.name === 'pre')) {
    if (DomUtils.textContent(pre).trim()) continue;
    const block = closest(pre, (e) => e.name === 'div' && (hasClass(e, 'listingblock') || hasClass(e, 'literalblock')));
    DomUtils.removeElement(block || pre);
  }
  // Innermost first: an outer admonition is rebuilt from its content's HTML, which then holds the inner one's
  // rewriting.
  for (const block of all()
    .filter((e) => e.name === 'div' && hasClass(e, 'admonitionblock'))
    .reverse()) {
    const label = DomUtils.findOne((e) => e.name === 'td' && hasClass(e, 'icon'), block.children, true);
    const content = DomUtils.findOne((e) => e.name === 'td' && hasClass(e, 'content'), block.children, true);
    if (!content) continue;
    const name = (label ? DomUtils.textContent(label) : '').replace(/\s+/g, ' ').trim();
    const inner = DomUtils.getInnerHTML(content);
    const opening = name ? `<strong>${escape(name)}:</strong> ` : '';
    // The label goes into the content's first paragraph, or is the content's own paragraph when it starts with
    // anything else (a title, a list, code).
    const withLabel = /^\s*(?:<div class="paragraph">\s*)?<p>/.test(inner)
      ? inner.replace(/<p>/, `<p>${opening}`)
      : /^\s*</.test(inner)
        ? `<p>${opening}</p>${inner}`
        : `<p>${opening}${inner}</p>`;
    DomUtils.replaceElement(block, parseHtml(`<div class="admonition">${withLabel}</div>`).children[0]!);
  }
  for (const list of all().filter((e) => e.name === 'dl')) {
    let terms: Element[] = [];
    // A copy: the terms are removed from the list as they are moved.
    for (const child of [...list.children] as Element[]) {
      if (child.name === 'dt') terms.push(child);
      else if (child.name === 'dd') {
        const first = DomUtils.findOne(() => true, child.children, false);
        const paragraph =
          first?.name === 'p'
            ? first
            : first && first.name === 'div' && hasClass(first, 'paragraph')
              ? DomUtils.findOne((e) => e.name === 'p', first.children, false)
              : null;
        if (paragraph && terms.length) {
          const term = terms.map((t) => DomUtils.getInnerHTML(t).trim()).join(', ');
          for (const node of fragment(`${term}: `).reverse()) DomUtils.prependChild(paragraph, node);
          for (const t of terms) DomUtils.removeElement(t);
        }
        terms = [];
      }
    }
  }
  return DomUtils.getOuterHTML(dom.children);
}

/**
 * Removes a callout mark and the comment that carried it in the source: `// <1>`, `# <1>`, `-- <1>`,
 * `;; <1>` (the marker standing apart, after a space) and XML's `<!--1-->`. Code before it stays as written
 * (`int i = 0; <2>` keeps its semicolon).
 */
function withoutCallout(mark: Element): void {
  const before = mark.prev;
  const after = mark.next;
  if (before?.type === 'text' && /<!--$/.test(before.data) && after?.type === 'text' && after.data.startsWith('-->')) {
    before.data = before.data.slice(0, -4).replace(/[ \t]+$/, '');
    after.data = after.data.slice(3);
  } else if (before?.type === 'text') {
    before.data = before.data.replace(/(^|[ \t])(?:\/\/|#|--|;;)[ \t]*$/, '$1').replace(/[ \t]+$/, '');
  }
  DomUtils.removeElement(mark);
}

function closest(node: Element, test: (e: Element) => boolean): Element | undefined {
  for (let e = node.parent as Element | null; e; e = e.parent as Element | null) if (test(e)) return e;
  return undefined;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

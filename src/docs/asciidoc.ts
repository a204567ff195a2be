/**
 * AsciiDoc (.adoc, .asciidoc): read by Asciidoctor.js, the reference processor's JavaScript build, so that
 * attributes, conditionals, delimited blocks, tables and cross references mean what they mean on the site
 * the documentation is published as. The result is Asciidoctor's HTML, adjusted where its layout would read
 * badly as text, for the HTML reader of parse.ts to normalise.
 *
 * Contracts:
 * - secure mode always: no file is read and nothing is fetched, whoever sent the text (an include directive
 *   names a file that is ingested on its own, or not at all: it is dropped, not shown as a link);
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
interface Processor {
  load(text: string, options: Record<string, unknown>): AsciidocDocument;
  LoggerManager: { setLogger(logger: unknown): void };
  NullLogger: { create(): unknown };
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

/** The document as HTML ready for the HTML reader, with its title and `:description:`. */
export function asciidocToHtml(text: string): AsciidocPage {
  let doc: AsciidocDocument;
  try {
    doc = load().load(text, { safe: 'secure', standalone: false, attributes: ATTRIBUTES });
  } catch (error) {
    throw new Error(`AsciiDoc could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const title = textOf(doc.getDocumentTitle({ sanitize: true }));
  const description = textOf(doc.getAttribute('description'));
  return { html: readable(doc.convert()), ...(title ? { title } : {}), ...(description ? { description } : {}) };
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
 *   ("Note: …"), as admonitions read elsewhere;
 * - a definition list's term opens its definition's first paragraph ("--fresh: Make sure …"), so that an
 *   option and what it does are one unit, not a bare name and a sentence that never says it;
 * - callout marks in code (`<b class="conum">(1)</b>`) and the links left where includes were go.
 */
function readable(html: string): string {
  const dom = parseHtml(html);
  const all = () => DomUtils.findAll(() => true, dom.children) as Element[];
  for (const e of all()) {
    if ((e.name === 'b' || e.name === 'i') && hasClass(e, 'conum')) {
      // The comment that carried the mark in the source (`// <1>`, `# <1>`) goes with it.
      const before = e.prev;
      if (before && before.type === 'text') before.data = before.data.replace(/[ \t]*(?:\/\/|#|--|;+|<!--)?[ \t]*$/, '');
      DomUtils.removeElement(e);
    } else if (e.name === 'a' && hasClass(e, 'include')) {
      const p = e.parent as Element | null;
      const paragraph = p?.name === 'p' ? p : e;
      const block = paragraph.parent as Element | null;
      DomUtils.removeElement(
        block?.name === 'div' && hasClass(block, 'paragraph') && block.children.filter((c) => c.type !== 'text' || c.data.trim()).length === 1
          ? block
          : paragraph,
      );
    }
  }
  for (const block of all().filter((e) => e.name === 'div' && hasClass(e, 'admonitionblock'))) {
    const label = DomUtils.findOne((e) => e.name === 'td' && hasClass(e, 'icon'), block.children, true);
    const content = DomUtils.findOne((e) => e.name === 'td' && hasClass(e, 'content'), block.children, true);
    if (!content) continue;
    const name = (label ? DomUtils.textContent(label) : '').replace(/\s+/g, ' ').trim();
    const inner = DomUtils.getInnerHTML(content);
    const opening = name ? `<strong>${escape(name)}:</strong> ` : '';
    // The label goes into the content's first paragraph, or is the content's own paragraph when it starts with
    // anything else (a list, code).
    const withLabel = /^\s*(?:<div class="paragraph">\s*)?<p>/.test(inner)
      ? inner.replace(/<p>/, `<p>${opening}`)
      : /^\s*</.test(inner)
        ? `<p>${opening}</p>${inner}`
        : `<p>${opening}${inner}</p>`;
    DomUtils.replaceElement(block, parseHtml(`<div class="admonition">${withLabel}</div>`).children[0]!);
  }
  for (const list of all().filter((e) => e.name === 'dl')) {
    let terms: Element[] = [];
    for (const child of list.children as Element[]) {
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

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Plain text out of what external services send: HTML fragments, wrapped XML text, over-long summaries. */
import { compile } from 'html-to-text';

const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable' },
  ],
});

/** Collapses every run of whitespace (newlines included) to one space. */
export function normaliseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts at a word boundary and marks the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Plain text of an HTML fragment (or of text that merely may contain markup), on one line. */
export function htmlToPlainText(html: string, max = Infinity): string {
  const text = /[<&]/.test(html) ? toText(html) : html;
  return truncate(normaliseWhitespace(text), max);
}

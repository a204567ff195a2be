/**
 * Links between pages: the words one page uses for another ("see [the proxy settings](config.md#httpproxy)")
 * are a description of that page in its readers' words, not its author's. Collected at ingest from each
 * page's own links; credited to the page they point to when the corpus statistics are built (stats.ts), since
 * the target may be ingested before or after the page that links to it.
 */
import { posix } from 'node:path';
import { cleanInline, referenceDefinitions, referenceLabel } from './chunk.js';
import { titleTerms } from './tokens.js';

/** Changing what a link records changes this, so that re-ingesting unchanged files records their links again. */
export const LINKS_VERSION = 'l5';

/** Extensions a page's path is known by with or without: `config.md`, `config.html` and `config` are one page. */
const PAGE_EXTENSION = /\.(?:md|mdx|markdown|rst|txt|html?)$/i;
/** A directory's page: `guide/`, `guide/index.md` and `guide/README.md` are one page. */
const DIRECTORY_PAGE = /(?:^|\/)(?:index|readme|_index)$/i;

/** A page's key: its path without extension, directory page or surrounding slashes, lower case. */
export function pageKey(path: string): string {
  let key = path.trim().replace(/\\/g, '/').replace(PAGE_EXTENSION, '').replace(/\/+$/, '');
  key = key.replace(DIRECTORY_PAGE, '').replace(/\/+$/, '');
  return key
    .replace(/^(?:\.\/)+/, '')
    .replace(/^\/+/, '')
    .toLowerCase();
}

/**
 * An inline link, `[text](target "title")`: its text may hold one level of brackets, its target one level of
 * parentheses. Bounded parts, each a character class the next cannot start, so a page of unclosed brackets
 * costs its length.
 */
const INLINE = /(?<!!)\[((?:[^\][]|\[[^\][]*\]){1,300})\]\(\s*<?([^()\s<>]+(?:\([^()\s]*\)[^()\s<>]*)*)>?(?:\s+"[^"]*")?\s*\)/g;
/** A full or collapsed reference link, `[text][label]` or `[text][]`. */
const REFERENCE_USE = /(?<!!)\[([^\][]{1,300})\]\[([^\][]{0,300})\]/g;
/** A shortcut reference (`[FAQ]`), a link when its label is defined. */
const REFERENCE_SHORTCUT = /(?<![!\]\\])\[([^\][]{1,300})\](?![[(:])/g;

/**
 * The page a link target names, as a key relative to the documentation's root, or undefined for a link
 * out of it (another site, mail) or within the page itself. `from` is the linking page's path (its title),
 * `url` the address it was fetched from, if any: a link to the same site resolves against that address.
 */
export function linkTarget(target: string, from: string, url?: string): string | undefined {
  const t = target.trim();
  if (!t || t.startsWith('#')) return undefined;
  let path: string;
  if (url) {
    // A page fetched from a site: its links resolve as a browser resolves them, and only those to the same site count.
    let base: URL;
    let to: URL;
    try {
      base = new URL(url);
      to = new URL(t, base);
    } catch {
      return undefined;
    }
    if (to.origin !== base.origin || to.pathname === base.pathname) return undefined;
    path = decodeURIComponentSafe(to.pathname);
  } else {
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(t)) return undefined;
    const bare = decodeURIComponentSafe(t.split(/[#?]/)[0]!);
    if (!bare) return undefined;
    path = bare.startsWith('/') ? bare : posix.normalize(posix.join(posix.dirname(from.replace(/\\/g, '/')), bare));
  }
  // A relative link that climbs above the pages ingested keeps the rest of its path, found by its ending.
  const key = pageKey(path.replace(/^(?:\.\.\/)+/, ''));
  return key && (url || key !== pageKey(from)) ? key : undefined;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Words of a link's text as the title field holds them. */
function linkWords(text: string): string {
  return titleTerms(cleanInline(text));
}

/** A reStructuredText cross-reference (Sphinx): `:doc:` names a page, `:ref:` a label; `Text <target>` or the target alone. */
const RST_ROLE = /:(doc|ref):`([^`\n]{1,300})`/g;
/** A reStructuredText hyperlink with its target inline: `` `Text <target>`_ `` (or `__`). */
const RST_HYPERLINK = /(?<![:\w])`([^`<\n]{1,300})<([^`>\s]{1,300})>`__?/g;
/** A label for cross-references (`.. _label:`), naming the section after it. */
const RST_LABEL = /^\.\. _([^:\n`]{1,200}):\s*$/gm;

/**
 * A label's key in a page's links: `#` and the label as Sphinx normalises it (lower case, whitespace as one
 * space). A page's own labels are recorded with no words; a `:ref:` to one with the words it is shown with.
 */
export function labelKey(label: string): string {
  return `#${label.trim().replace(/\s+/g, ' ').toLowerCase()}`;
}

/**
 * The links of a page: those of its markdown as parsed, those a reStructuredText source writes as roles and
 * hyperlinks (`rst`, the page as written), and `others` (target, text) the parse read as text (an HTML page's
 * anchors). Each as its target's key (a page key, or a label's) and the link's words (title field form); a
 * reStructuredText page's own labels come as keys with no words.
 */
export function linksOf(markdown: string, from: string, url?: string, others: readonly [string, string][] = [], rst?: string): [string, string][] {
  const definitions = referenceDefinitions(markdown);
  const found: [string, string][] = [];
  const add = (text: string, target: string | undefined) => {
    if (!target) return;
    const key = linkTarget(target, from, url);
    if (!key) return;
    const words = linkWords(text);
    if (words) found.push([key, words]);
  };
  for (const m of markdown.matchAll(INLINE)) add(m[1]!, m[2]!);
  for (const m of markdown.matchAll(REFERENCE_USE)) add(m[1]!, definitions.get(referenceLabel(m[2] || m[1]!)));
  for (const m of markdown.matchAll(REFERENCE_SHORTCUT)) add(m[1]!, definitions.get(referenceLabel(m[1]!)));
  for (const [target, text] of others) add(text, target);
  if (rst !== undefined) {
    for (const m of rst.matchAll(RST_ROLE)) {
      const explicit = /^(.*?)\s*<([^<>]+)>$/.exec(m[2]!.trim());
      const target = (explicit ? explicit[2]! : m[2]!).trim().replace(/^~/, '');
      // A role with no text of its own is shown with its target's title; its label or path words stand in.
      const text = explicit?.[1] || target.replace(/[-_/]+/g, ' ');
      if (m[1] === 'ref') {
        const words = linkWords(text);
        if (words) found.push([labelKey(target), words]);
      } else add(text, target);
    }
    for (const m of rst.matchAll(RST_HYPERLINK)) add(m[1]!, m[2]!);
    for (const m of rst.matchAll(RST_LABEL)) found.push([labelKey(m[1]!), '']);
  }
  // One entry per target and wording: a page that links to another ten times describes it once.
  const seen = new Set<string>();
  return found.filter(([key, words]) => {
    const id = `${key}\n${words}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Structure-aware passages of normalised markdown. Sections (a heading and the blocks under it) are cut at
 * block boundaries (paragraph, list, code) when longer than `maxChars` (a paragraph longer than that at
 * sentence ends; a fenced code block is never cut), and adjacent small sections under the same parent are
 * packed into one passage up to `maxChars`, so a page of many short sections becomes a few passages of
 * ordinary size instead of many fragments. Each passage keeps the heading path of its first section
 * (`npm ci › Description`) and the paths of every section it holds (`headings`); inside its text, each
 * further section starts with a heading line `## path` (see HEADING_LINE), from which answers name the
 * section they quote. Markup that carries no text (images, badges, HTML tags, link targets) is dropped.
 */
import { decodeHTMLStrict } from 'entities';
import { fenceAt, fencedBlock, fenceOpening, type OpenFence } from './fence.js';
import { readFence, withoutAttributes, withoutClosingHashes } from './parse.js';
import { splitSentences } from './tokens.js';
import { TUNING } from './tuning.js';

export const SECTION_SEPARATOR = ' › ';

/** Changing how documents are cut changes this, so that re-ingesting re-chunks unchanged files. */
export const CHUNKER_VERSION = 'c29';

export interface ChunkOptions {
  /** Target upper size of a passage, in characters (code blocks may exceed it; they are never cut). */
  maxChars: number;
  /** Pack adjacent small sections into one passage (off: one passage per section piece). */
  pack?: boolean;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { maxChars: TUNING.passageChars, pack: TUNING.pack };

/** A line of a passage's text that starts a further section: `## API › lumen() › Options`. */
export const HEADING_LINE = /^#{1,6} (.+)$/;

export interface Block {
  kind: 'text' | 'code';
  text: string;
}

export interface Chunk {
  /** Heading path of its first section, outermost first, joined by ' › '; empty before the first heading. */
  section: string;
  /** Cleaned text: paragraphs, list items and fenced code, separated by blank lines; further sections open with a heading line. */
  text: string;
  /** Heading paths of every section the passage holds, its first section's first. */
  headings: string[][];
}

interface Section {
  path: string[];
  blocks: Block[];
}

/** A markdown table's rule line (`| --- | :-- |`), under its header row. */
export const TABLE_RULE = /^\s*(?:\|\s*)?:?-{2,}/;
/** A list item's first line at the top level of its block (at most three spaces in), its indent captured. */
const LIST_ITEM_START = /^(\s{0,3})([-*+]|\d+[.)])\s+/;
/**
 * A list item that can interrupt a paragraph (CommonMark: a bullet, or an ordered item numbered 1, not empty):
 * in a hard-wrapped paragraph "uses port\n5000. You can …" is one sentence, not a list.
 */
const LIST_INTERRUPTS = /^\s{0,3}([-*+]|1[.)])\s+\S/;
/** A line of an indented code block: four spaces or a tab in, then something. */
const INDENTED_CODE = /^(?: {4}|\t)\s*\S/;
/** A list item at any depth (a nested one too), its indent captured. */
const LIST_ITEM_ANY_DEPTH = /^(\s*)([-*+]|\d+[.)])\s+/;

// Line patterns whose every part ends where the next begins, so a hostile line costs its length (the text
// after a fence marker or a heading's hashes is read in code).
const ATX = /^\s{0,3}(#{1,6})(?:[ \t]+(.*))?$/s;

/**
 * Inline markdown to plain reading text: link targets, images and HTML tags go, inline code stays whole (`<th>`).
 * `references`: the labels the document defines (`[crates.io]: https://…`, lower case), so that a shortcut
 * reference (`[crates.io]`) reads as its text; brackets with no definition are text (`cargo [options]`).
 */
export function cleanInline(given: string, references?: ReadonlyMap<string, string>): string {
  // A table row's escaped pipes (`\|`, `&#124;`) are a cell's own, not column breaks: kept escaped.
  const row = /^\s*\|/.test(given);
  const piped = row ? given.replace(/\\\||&#124;|&#x7c;|&vert;|&verbar;/gi, CELL_PIPE) : given;
  // A code span fenced by two or more backticks (```` ```Host(`domain`)``` ````, how a span holds a backtick) is
  // set aside whole while links and tags are read, and put back as written (not on a line that holds the mark
  // they are set aside with).
  const spans: string[] = [];
  const line =
    piped.includes('``') && !piped.includes(SPAN_MARK)
      ? piped.replace(/(?<!`)(`{2,})(?!`)((?:[^`\n]|`(?!\1))+?)(?<!`)\1(?!`)/g, (span) => `${SPAN_MARK}${spans.push(span) - 1}${SPAN_MARK}`)
      : piped;
  // Links and images first, on the whole line: their text may hold code (`[\`pino-test\`](https://…)`).
  // No bracket or parenthesis part runs past the next opening one, so a line of a thousand `[` or `![a](`
  // costs its length, not its square (documents are uploaded by anyone with a key).
  // Brackets inside code spans (`[dependencies]`) are no link's: masked while links are read.
  const unlinked = withoutComments(line)
    .replace(/`[^`\n]+`/g, (span) => span.replace(/\[/g, MASKED_OPEN).replace(/\]/g, MASKED_CLOSE))
    // An attribute list after an image or link (Python-Markdown's `{: style="…"}`, `{ .md-button }`) styles it.
    .replace(/!\[[^\][]*\]\((?:[^()]|\([^()]*\))*\)(?:\{:[^{}\n]*\}|\{[ \t]*[#.][^{}\n]*\})?/g, '')
    .replace(/!\[[^\][]*\]\[[^\][]*\]/g, '')
    // A shortcut reference image (`![npm]`, its target defined elsewhere).
    .replace(/!\[[^\][]*\](?![([])/g, '')
    .replace(/\[((?:[^\][]|\[[^\][]*\])*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)(?:\{:[^{}\n]*\}|\{[ \t]*[#.][^{}\n]*\})?/g, '$1')
    .replace(/\[([^\][]*)\]\[[^\][]*\]/g, '$1')
    .replace(/\[([^\][^]*)\](?![([:])/g, (m, label: string) => (references?.has(referenceLabel(label)) ? label : m))
    // An autolink (`<https://…>`) reads as its address.
    .replace(/<((?:https?|ftp):\/\/[^<>\s]+)>/gi, '$1')
    // A footnote's definition reads as its text, a reference to it (`licenses.[^slash]`) as nothing.
    // (A label stops at the next bracket or caret, so a line of unclosed `[^` costs its length.)
    .replace(/^\[\^[^\][\s^]+\]:\s*/, '')
    .replace(/\[\^[^\][\s^]+\]/g, '')
    .replace(MASKED, (m) => (m === MASKED_OPEN ? '[' : ']'));
  // Then HTML tags and escapes, outside code spans only.
  const clean = unlinked
    .split(/(`[^`\n]+`)/)
    .map((part, i) => (i % 2 ? part : cleanProse(part)))
    .join('');
  const restored = spans.length ? clean.replace(SPANS, (m, n: string) => spans[Number(n)] ?? m) : clean;
  return row ? restored.replaceAll(CELL_PIPE, '\\|') : restored;
}

const CELL_PIPE = '\uE002';
const SPAN_MARK = '\uE003';
const SPANS = /\uE003(\d+)\uE003/g;

/** A link reference's label as CommonMark matches it: case-insensitive, inner whitespace collapsed. */
export function referenceLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The link reference definitions of a markdown text outside fenced code (`[label]: target "title"`, or the
 * target alone on the next line): each label as `referenceLabel` keys it, with its destination. The one
 * reader of definitions: chunking reads them as no text, links resolve references through them.
 */
export function referenceDefinitions(markdown: string): Map<string, string> {
  const definitions = new Map<string, string>();
  let fence: OpenFence | undefined;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const read = readFence(lines[i]!, fence);
    fence = read.after;
    const definition = read.code ? undefined : referenceDefinition(lines, i);
    if (!definition) continue;
    // CommonMark: the first definition of a label wins. Its destination's line is read no further, as
    // sectionsOf reads it (never a fence: referenceDefinition refuses one).
    const label = referenceLabel(definition.label);
    if (!definitions.has(label)) definitions.set(label, definition.destination);
    i += definition.lines - 1;
  }
  return definitions;
}

/**
 * The link reference definition starting at line `i` (a footnote's, `[^1]:`, is none): its label, its
 * destination and how many lines it takes, two when the destination is on the next line (`[PAT]:` then the
 * address, as CommonMark allows).
 */
function referenceDefinition(lines: readonly string[], i: number): { label: string; destination: string; lines: number } | undefined {
  const line = lines[i]!;
  const definition = REFERENCE_DEFINITION.exec(line);
  if (definition) return { label: definition[1]!, destination: definition[2] ?? definition[3]!, lines: 1 };
  const bare = REFERENCE_LABEL_ALONE.exec(line);
  const next = lines[i + 1] ?? '';
  const destination = DESTINATION_ALONE.exec(next);
  // A fence opening the next line, however indented, starts code, never a destination ("[Example]:" then a listing).
  if (bare && destination && !fenceOpening(next.trimStart())) return { label: bare[1]!, destination: destination[1] ?? destination[2]!, lines: 2 };
  return undefined;
}

/** A definition on one line: its label, then its destination in angle brackets or bare. */
const REFERENCE_DEFINITION = /^\s{0,3}\[([^\]^][^\]]{0,299})\]:[ \t]*(?:<([^<>\n]+)>|(\S+))/;
const REFERENCE_LABEL_ALONE = /^\s{0,3}\[([^\]^][^\]]{0,299})\]:\s*$/;
/** A destination alone on its line: an address or path without spaces, or one in angle brackets, maybe titled. */
const DESTINATION_ALONE = /^\s*(?:<([^<>\n]+)>|([^\s<>]+))(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*$/;

const MASKED_OPEN = '\uE000';
const MASKED_CLOSE = '\uE001';
const MASKED = /[\uE000\uE001]/g;

/**
 * The HTML elements documentation writes inside markdown, whose tags read as nothing (an embedded frame or
 * player, `<iframe src="…"></iframe>`, leaves no text at all).
 */
const HTML_TAG_NAMES =
  'a|img|p|div|span|br|sup|sub|b|i|em|strong|small|code|details|summary|picture|source|center|h[1-6]|table|tr|td|th|tbody|thead|kbd|ul|ol|li|dl|dt|dd|iframe|video|audio|track|embed|figure|figcaption|abbr|mark|ins|del|u|s';
const HTML_TAG = new RegExp(`</?(?:${HTML_TAG_NAMES})\\b[^<>]*>`, 'gi');
/** Such a tag wrapping over at most eight lines (`<a\n  href="…">`). */
const WRAPPED_HTML_TAG = new RegExp(`</?(?:${HTML_TAG_NAMES})\\b(?:[^<>\\n]*\\n){1,8}[^<>\\n]*>`, 'gi');

/** The line without its HTML comments (`<!-- … -->`), found with indexOf: one pass, whatever the line holds. */
function withoutComments(line: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = line.indexOf('<!--', from);
    const close = open < 0 ? -1 : line.indexOf('-->', open + 4);
    if (close < 0) return out + line.slice(from);
    out += line.slice(from, open);
    from = close + 3;
  }
}

function cleanProse(text: string): string {
  // `<code>` (with attributes too: `<code style="white-space: nowrap">`) may hold angle brackets
  // (`<code>--trailing-comma <all|es5></code>`); its text stops at the next tag of its own, so a line of many
  // unclosed `<code>` costs its length.
  return (
    text
      .replace(/<code(?:\s[^<>]*)?>((?:[^<`]|<(?!\/?code[\s>]))+)<\/code>/gi, '`$1`')
      // A line break (`<br>`, how a table cell holds several lines) separates what it breaks: a space, not nothing.
      .replace(/(\S)\s*<br\s*\/?>\s*(?=\S)/gi, '$1 ')
      .replace(HTML_TAG, '')
      .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1')
      // Every HTML entity with its semicolon (`&mdash;`, `&#x2192;`); a code point that is none (`&#xFFFFFF;`,
      // `&#0;`) reads as U+FFFD, and a no-break space as a space.
      .replace(/&#?\w{1,32};/g, (entity) => decodeHTMLStrict(entity).replace(/\u00a0/g, ' '))
  );
}

/** Links and HTML tags that wrap onto the next line of a paragraph, reduced to their text (one line at a time misses them). */
function unwrapLines(text: string): string {
  return text
    .replace(/\[([^\][\n]*\n[^\][\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/\[([^\][\n]*\n[^\][\n]*)\]\[[^\][\n]*\]/g, '$1')
    .replace(WRAPPED_HTML_TAG, '');
}

/**
 * A heading as it reads: without the attribute block site generators take its anchor from (`{#custom-id}`,
 * `{#id .class}`, `{.unlisted}`: Pandoc, kramdown, MkDocs, Docusaurus, VitePress) and without the tags of
 * components (`<Badge type="tip" />`, `<Version>3.0.0</Version>` keeps its text), outside code spans.
 */
export function cleanHeading(text: string): string {
  return cleanInline(withoutAttributes(text))
    .split(/(`[^`\n]+`)/)
    .map((part, i) => (i % 2 ? part : part.replace(COMPONENT_TAG, '')))
    .join('')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
/** A component's tag, as frameworks write them in markdown: a capitalised name. */
const COMPONENT_TAG = /<\/?[A-Z][\w.-]*(?:\s[^<>]*)?\/?>/g;

/** Splits normalised markdown into sections of blocks. */
export function sectionsOf(markdown: string): Section[] {
  const lines = markdown.split('\n');
  const sections: Section[] = [];
  let path: { level: number; title: string }[] = [];
  let current: Section = { path: [], blocks: [] };
  let para: string[] = [];
  const references = referenceDefinitions(markdown);
  const flush = () => {
    const text = unwrapLines(para.join('\n'))
      .split('\n')
      // A hard line break's backslash (`synopsis\`) ends the line it marks.
      .map((line) => cleanInline(line, references).replace(/\\$/, ''))
      .join('\n');
    para = [];
    if (text.trim()) current.blocks.push({ kind: 'text', text: text.trim() });
  };
  const startSection = (level: number, title: string) => {
    flush();
    if (current.blocks.length || sections.length === 0) sections.push(current);
    path = path.filter((h) => h.level < level);
    path.push({ level, title });
    current = { path: path.map((h) => h.title), blocks: [] };
  };
  let inComment = false;
  // Whether the lines read are inside a list, whose items' further paragraphs may be indented four spaces.
  let inList = false;
  // The end tag of the <script> or <style> element being skipped: a page's code and styles (VitePress pages
  // open with `<script setup>`) are no reading text. As in CommonMark, such a block runs to its end tag.
  let rawEnd: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      continue;
    }
    if (rawEnd) {
      if (line.toLowerCase().includes(rawEnd)) rawEnd = undefined;
      continue;
    }
    if (/^\s*<!--/.test(line) && !line.includes('-->')) {
      inComment = true;
      continue;
    }
    const raw = /^ {0,3}<(script|style)(?=[\s>]|$)/i.exec(line);
    if (raw) {
      flush();
      const end = `</${raw[1]!.toLowerCase()}>`;
      if (!line.toLowerCase().includes(end)) rawEnd = end;
      continue;
    }
    const open = fenceAt(line);
    if (open) {
      flush();
      const { body, next } = fencedBlock(lines, i + 1, open);
      const { marker, info } = open.fence;
      current.blocks.push({ kind: 'code', text: `${marker}${info.split(/\s/, 1)[0]!}\n${body.join('\n')}\n${marker}` });
      i = next - 1;
      continue;
    }
    // An indented code block (CommonMark): lines indented four or more spaces after a blank line or a heading,
    // outside a list (there such lines continue an item, as Python-Markdown writes them). Blank lines inside
    // it are its own when more of it follows.
    if (LIST_ITEM_START.test(line)) inList = true;
    else if (/^\s?\S/.test(line)) inList = false;
    if (!inList && !para.length && INDENTED_CODE.test(line)) {
      const body: string[] = [];
      let j = i;
      for (; j < lines.length; j++) {
        const l = lines[j]!;
        if (INDENTED_CODE.test(l)) body.push(l.replace(/^(?: {4}|\t)/, ''));
        else if (l.trim()) break;
        else {
          // A run of blank lines is looked past once: the block goes on only if code follows it.
          let k = j + 1;
          while (k < lines.length && !lines[k]!.trim()) k++;
          if (k >= lines.length || !INDENTED_CODE.test(lines[k]!)) break;
          for (; j < k; j++) body.push('');
          j--;
        }
      }
      current.blocks.push({ kind: 'code', text: `\`\`\`\n${body.join('\n')}\n\`\`\`` });
      i = j - 1;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      const title = cleanHeading(withoutClosingHashes(atx[2] ?? ''));
      if (title) startSection(atx[1]!.length, title);
      else flush();
      continue;
    }
    const next = lines[i + 1];
    if (
      line.trim() &&
      para.length === 0 &&
      next !== undefined &&
      /^\s{0,3}(=+|-+)\s*$/.test(next) &&
      !/^\s*([-*+]|\d+[.)])\s/.test(line) &&
      !/^\s*[|>]/.test(line)
    ) {
      const title = cleanHeading(line);
      if (title) {
        startSection(next.trim()[0] === '=' ? 1 : 2, title);
        i++;
        continue;
      }
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    // Reference link definitions and horizontal rules carry no reading text (a footnote's definition does).
    const definition = referenceDefinition(lines, i);
    if (definition || /^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      i += (definition?.lines ?? 1) - 1;
      continue;
    }
    // A new list item starts a new block, so answers can quote one item.
    if (LIST_INTERRUPTS.test(line) && para.length && !LIST_ITEM_START.test(para[0]!)) flush();
    para.push(line);
  }
  flush();
  if (current.blocks.length || sections.length === 0) sections.push(current);
  return sections.filter((s) => s.blocks.length);
}

/**
 * A block longer than a passage, cut where a reader would: a table between rows, each piece under the table's
 * header; a list between top-level items (an item keeps its nested lines); prose between sentences. Lines stay
 * lines, so a quoted row or item reads as written.
 */
function splitLongBlock(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const lines = text.split('\n');
  const first = lines[0]!;
  if (/^\s*\|/.test(first) && lines.every((l) => /^\s*\|/.test(l))) {
    const header = lines.length > 1 && TABLE_RULE.test(lines[1]!) ? lines.slice(0, 2) : [];
    return packLines(
      lines.slice(header.length).map((l) => [l]),
      maxChars,
      header,
    );
  }
  const item = LIST_ITEM_START.exec(first);
  if (item) {
    return packLines(itemGroups(lines, item[1]!.length), maxChars, []);
  }
  return splitLongText(text, maxChars);
}

/** Groups of lines packed into pieces of at most maxChars, each opening with `head`; a group too long alone is cut as prose. */
function packLines(groups: string[][], maxChars: number, head: string[]): string[] {
  const out: string[] = [];
  let buf: string[] = [];
  const headSize = head.reduce((n, l) => n + l.length + 1, 0);
  let size = headSize;
  const emit = () => {
    if (buf.length) out.push([...head, ...buf].join('\n'));
    buf = [];
    size = headSize;
  };
  for (const group of groups) {
    const text = group.join('\n');
    if (headSize + text.length > maxChars) {
      emit();
      // An item too long alone is cut between its nested items, then between its lines: lines stay lines, so
      // that nested items are never run together into one sentence. An item whose further lines only wrap its
      // text is prose, cut between sentences (a passage never starts mid-sentence), as is one line.
      const nested = group.length > 1 ? itemGroups(group, Infinity) : [];
      if (nested.length > 1) out.push(...packLines(nested, maxChars, head));
      else if (group.length > 1 && !wrapsOnly(group))
        out.push(
          ...packLines(
            group.map((l) => [l]),
            maxChars,
            head,
          ),
        );
      else out.push(...splitLongText(head.length ? [...head, text].join('\n') : text, maxChars));
      continue;
    }
    if (buf.length && size + text.length + 1 > maxChars) emit();
    buf.push(text);
    size += text.length + 1;
  }
  emit();
  return out;
}

/**
 * A list's lines grouped by item: a group begins at the first line and at every item indented at most
 * `maxIndent` spaces (the list's own items; Infinity: nested ones too), and holds the lines up to the next.
 */
function itemGroups(lines: string[], maxIndent: number): string[][] {
  const groups: string[][] = [];
  for (const line of lines) {
    const starts = LIST_ITEM_ANY_DEPTH.exec(line);
    if (!groups.length || (starts && starts[1]!.length <= maxIndent)) groups.push([line]);
    else groups.at(-1)!.push(line);
  }
  return groups;
}

/**
 * Whether an item's further lines only go on with its text: indented less than code would be under the item,
 * and opening no fence, table row or quote.
 */
function wrapsOnly(group: string[]): boolean {
  const content = LIST_ITEM_ANY_DEPTH.exec(group[0]!)?.[0].length ?? 0;
  return group.slice(1).every((l) => {
    const indent = /^ */.exec(l)![0].length;
    return indent < content + 4 && /^ *\S/.test(l) && !fenceOpening(l.trimStart()) && !/^ *[|>]/.test(l);
  });
}

function splitLongText(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const sentences = splitSentences(text);
  const out: string[] = [];
  let buf = '';
  for (const s of sentences) {
    if (buf && buf.length + s.length + 1 > maxChars) {
      out.push(buf);
      buf = '';
    }
    buf = buf ? `${buf} ${s}` : s;
  }
  if (buf) out.push(buf);
  return out;
}

/** Cuts a parsed body into passages. `preamble` (e.g. the front matter description) opens the first one. */
export function chunkMarkdown(markdown: string, options: ChunkOptions = DEFAULT_CHUNK_OPTIONS, preamble?: string): Chunk[] {
  const sections = sectionsOf(markdown);
  if (preamble?.trim()) {
    const first = sections[0];
    const block: Block = { kind: 'text', text: preamble.trim() };
    if (first) first.blocks.unshift(block);
    else sections.push({ path: [], blocks: [block] });
  }
  // Each section cut into pieces of at most maxChars (at block, then sentence boundaries).
  const pieces: { path: string[]; text: string; whole: boolean }[] = [];
  for (const section of sections) {
    const start = pieces.length;
    let buf: string[] = [];
    let size = 0;
    const emit = () => {
      if (buf.length) pieces.push({ path: section.path, text: buf.join('\n\n'), whole: false });
      buf = [];
      size = 0;
    };
    for (const block of section.blocks) {
      for (const piece of block.kind === 'code' ? [block.text] : splitLongBlock(block.text, options.maxChars)) {
        if (size && size + piece.length + 2 > options.maxChars) emit();
        buf.push(piece);
        size += piece.length + 2;
      }
    }
    emit();
    if (pieces.length === start + 1) pieces[start]!.whole = true;
  }
  // Adjacent whole sections under the same parent share a passage while it stays within maxChars.
  const chunks: Chunk[] = [];
  let current: Chunk | undefined;
  /** Whether `current` began with a whole section (only those take further sections in). */
  let currentWhole = false;
  for (const piece of pieces) {
    const name = piece.path.join(SECTION_SEPARATOR);
    const line = `${'#'.repeat(Math.min(6, Math.max(1, piece.path.length)))} ${name}`;
    if (current && options.pack === true && piece.whole && currentWhole && piece.path.length) {
      const first = current.headings[0]!;
      const parent = (p: string[]) => p.slice(0, Math.max(0, Math.min(p.length, first.length) - 1)).join(SECTION_SEPARATOR);
      if (parent(piece.path) === parent(first) && current.text.length + line.length + piece.text.length + 4 <= options.maxChars) {
        current.text += `\n\n${line}\n\n${piece.text}`;
        current.headings.push(piece.path);
        continue;
      }
    }
    current = { section: name, text: piece.text, headings: [piece.path] };
    currentWhole = piece.whole;
    chunks.push(current);
  }
  return chunks;
}

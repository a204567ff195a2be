/**
 * Quotable units of a passage: sentences, list items, table rows and code blocks, and the parts of a long
 * code listing (a field with the comment before it), which are quoted as one fenced excerpt.
 */
import { HEADING_LINE, TABLE_RULE } from './chunk.js';
import { fencedBlock, fenceOpening } from './fence.js';
import { splitSentences } from './tokens.js';

export interface Unit {
  kind: 'sentence' | 'item' | 'row' | 'code';
  /** What the unit says: for an excerpt of a code block, its own lines only. */
  text: string;
  /** Position in its chunk. */
  index: number;
  /** The paragraph (list, table, code block) of its chunk that the unit belongs to. */
  block: number;
  /** For a part of a long code block: the block, and which of its lines (inclusive) the part is. */
  excerpt?: CodeExcerpt;
  /** The heading path of the section it stands in, when the passage holds several (its heading line's path). */
  section?: string;
}

export interface CodeExcerpt {
  open: string;
  close: string;
  /** The block's lines between its fences. */
  lines: string[];
  from: number;
  to: number;
}

const LIST_ITEM = /^\s{0,6}([-*+]|\d+[.)])\s+/;
/** A list item that can begin a list in the middle of a paragraph (CommonMark: a bullet, or an ordered item numbered 1). */
const LIST_INTERRUPTS = /^\s{0,6}([-*+]|1[.)])\s+\S/;
/** A run of a long block's lines without blank lines longer than this is cut into entries. */
const CODE_GROUP_LINES = 4;
const COMMENT_LINE = /^\s*(\/\/|\/\*|\*|#(?!!)|--\s)/;
/** A shell prompt's line in a console session (`$ docker images`, `% make`, `PS C:\> dir`). */
const PROMPT_LINE = /^\s*(?:\$|%|PS [^>\n]*>)\s+\S/;

/**
 * The parts of a long code block (line ranges between its fences): runs of lines between blank lines; a
 * longer run is cut into entries, each a field or statement with the comment lines before it.
 */
export function codeParts(lines: string[]): { from: number; to: number }[] {
  const parts: { from: number; to: number }[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!lines[i]!.trim()) {
      i++;
      continue;
    }
    let end = i;
    while (end + 1 < lines.length && lines[end + 1]!.trim()) end++;
    if (end - i + 1 <= CODE_GROUP_LINES) parts.push({ from: i, to: end });
    else {
      let from = i;
      for (let j = i; j <= end; j++) {
        if (COMMENT_LINE.test(lines[j]!) && j < end) continue;
        parts.push({ from, to: j });
        from = j + 1;
      }
    }
    i = end + 1;
  }
  // A console session's command set apart from its output by a blank line is quoted with that output: output
  // alone does not say what printed it, and the command is what a reader runs.
  const prompts = parts.map((p) => lines.slice(p.from, p.to + 1).filter((l) => PROMPT_LINE.test(l)).length);
  const joined: { from: number; to: number }[] = [];
  for (let k = 0; k < parts.length; k++) {
    const [command, output] = [parts[k]!, parts[k + 1]];
    if (output && prompts[k] === command.to - command.from + 1 && !prompts[k + 1] && !COMMENT_LINE.test(lines[output.from]!)) {
      joined.push({ from: command.from, to: output.to });
      k++;
    } else joined.push(command);
  }
  return joined;
}

/**
 * Cuts a chunk's text into quotable units. A code block stays whole unless it is longer than `longCode`
 * characters (the answer's whole budget): such a listing (an options object, a type with a comment on each
 * field) is cut into parts (see codeParts), since it answers "which option does X" with one field, not with
 * all of them. Measured (answer match, eval / holdout): whole → 0.883 / 0.857; cut over 600 characters →
 * 0.883 / 0.857 (usage examples lose their middle); over 1,200 → 0.883 / 0.875.
 */
export function unitsOf(text: string, longCode: number): Unit[] {
  const units: Unit[] = [];
  const lines = text.split('\n');
  let i = 0;
  let para: string[] = [];
  let block = -1;
  let section: string | undefined;
  const push = (kind: Unit['kind'], t: string, indent = '') => {
    const trimmed = t.trim();
    if (trimmed) units.push({ kind, text: indent + trimmed, index: units.length, block, ...(section ? { section } : {}) });
  };
  // The indent of the passage's outermost list items so far: an item indented deeper is quoted with the
  // difference (at most four spaces), so that a nested list still reads as nested under its parent.
  let listBase = Infinity;
  const nesting = (line: string) => ' '.repeat(Math.min(4, Math.max(0, /^\s*/.exec(line)![0].length - listBase)));
  const flushPara = () => {
    if (!para.length) return;
    block++;
    const first = para[0]!;
    if (LIST_ITEM.test(first)) {
      listBase = Math.min(listBase, /^\s*/.exec(first)![0].length);
      let item: string[] = [];
      let indent = nesting(first);
      for (const line of para) {
        if (LIST_ITEM.test(line) && item.length) {
          push('item', item.join(' '), indent);
          item = [];
          indent = nesting(line);
        }
        item.push(line.trim());
      }
      push('item', item.join(' '), indent);
    } else if (first.trim().startsWith('|')) {
      // Each row is quoted under the table's header row, which says what its cells mean.
      const rows = para.filter((line) => !TABLE_RULE.test(line));
      const header = rows.length > 1 && TABLE_RULE.test(para[1] ?? '') ? rows.shift()! : undefined;
      // Cells padded to line up in the source read the same with single spaces, and cost the answer less.
      const row = (line: string) => line.trim().replace(/ {2,}/g, ' ');
      for (const line of rows) push('row', header ? `${row(header)}\n${row(line)}` : row(line));
    } else {
      for (const s of splitSentences(para.map((l) => l.trim()).join(' '))) push('sentence', s);
    }
    para = [];
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = fenceOpening(line);
    if (fence) {
      flushPara();
      // A block never closed runs to the end of the passage, and its excerpts are closed with its marker.
      const { body, closed, next } = fencedBlock(lines, i + 1, { fence, indent: 0 });
      const fenced = lines.slice(i, next);
      i = next;
      block++;
      const whole = fenced.join('\n');
      if (whole.length <= longCode || body.length < 2) push('code', whole);
      else {
        const close = closed ? fenced.at(-1)! : fence.marker;
        for (const part of codeParts(body)) {
          units.push({
            kind: 'code',
            text: body.slice(part.from, part.to + 1).join('\n'),
            index: units.length,
            block,
            excerpt: { open: fenced[0]!, close, lines: body, ...part },
            ...(section ? { section } : {}),
          });
        }
      }
      continue;
    }
    const heading = HEADING_LINE.exec(line);
    if (heading && !para.length) {
      // A further section of a packed passage starts: its units are quoted under its own heading path.
      section = heading[1]!.trim();
      i++;
      continue;
    }
    if (!line.trim()) flushPara();
    else {
      // A list may interrupt a paragraph ("… can be specified:" and its items on the next lines): the items
      // are a list of their own, not words of the sentence before them.
      if (para.length && !LIST_ITEM.test(para[0]!) && !para[0]!.trim().startsWith('|') && LIST_INTERRUPTS.test(line)) flushPara();
      para.push(line);
    }
    i++;
  }
  flushPara();
  return units;
}

/**
 * Parts of one code block as one fenced excerpt: the block's first line (what the listing is), the parts'
 * lines verbatim, and `…` where lines were left out.
 */
export function renderExcerpt(parts: CodeExcerpt[]): string {
  const { open, close, lines } = parts[0]!;
  const out = [open];
  const indentOf = (line: string | undefined) => /^\s*/.exec(line ?? '')![0];
  let next = 0;
  const first = lines.findIndex((l) => l.trim());
  if (first >= 0 && first < parts[0]!.from) {
    out.push(lines[first]!);
    next = first + 1;
  }
  for (const part of parts) {
    if (part.from > next) out.push(`${indentOf(lines[part.from])}…`);
    out.push(...lines.slice(Math.max(part.from, next), part.to + 1));
    next = Math.max(next, part.to + 1);
  }
  if (lines.slice(next).some((l) => l.trim())) out.push(`${indentOf(lines[next])}…`);
  out.push(close);
  return out.join('\n');
}

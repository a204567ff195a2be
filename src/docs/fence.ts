/**
 * What opens and closes a fenced code block, for every stage that reads markdown (parse, chunk, prepare,
 * units), as CommonMark has it:
 * - an opening fence is a line of three or more backticks or tildes, indented at most three spaces, followed
 *   by an info string; a backtick fence's info string holds no backtick (```` ```a` b``` ```` is inline code);
 * - a closing fence is a line of the opening fence's character, at least as many, indented at most three
 *   spaces, followed by nothing but spaces or tabs (```` ```js ```` inside a block is content, not a close).
 * What a fence never closed does is the reader's to say: a whole document's runs to its end, a passage's
 * (which may hold half a block) opens nothing.
 * Both tests are linear in the line's length.
 */

export interface Fence {
  /** The run of fence characters, e.g. ``` or ~~~~. */
  marker: string;
  /** The rest of the opening line, trimmed (`js title="app.js"`). */
  info: string;
}

const OPENING = /^ {0,3}(`{3,}|~{3,})(.*)$/s;
const CLOSING = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** The fence a line opens, or undefined when it opens none. */
export function fenceOpening(line: string): Fence | undefined {
  const m = OPENING.exec(line);
  if (!m) return undefined;
  const [, marker = '', rest = ''] = m;
  if (marker[0] === '`' && rest.includes('`')) return undefined;
  return { marker, info: rest.trim() };
}

/** The run of fence characters of a line that could close a block (``` alone), or undefined. */
export function closingRun(line: string): string | undefined {
  return CLOSING.exec(line)?.[1];
}

/** Whether a closing run (closingRun) closes the block `fence` opened. */
export function runCloses(run: string | undefined, fence: Pick<Fence, 'marker'>): boolean {
  return run !== undefined && run[0] === fence.marker[0] && run.length >= fence.marker.length;
}

/** Whether a line closes the block `fence` opened. */
export function closesFence(line: string, fence: Pick<Fence, 'marker'>): boolean {
  return runCloses(closingRun(line), fence);
}

/** The spaces a line starts with. */
function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

/** A block open in a whole document: its fence, and how far its opening line was indented. */
export interface OpenFence {
  fence: Fence;
  indent: number;
}

/**
 * The block a line of a whole markdown document opens. A fence indented four or more spaces opens one too: it
 * sits in a container, as Python-Markdown (MkDocs) writes code in a list item.
 */
export function fenceAt(line: string): OpenFence | undefined {
  const indent = indentOf(line);
  const fence = fenceOpening(indent > 3 ? line.slice(indent) : line);
  return fence && { fence, indent };
}

/**
 * What a line is to the block `open`: its closing fence, a line of its body, or (`end`) the first line after
 * its container, when a block indented four or more spaces meets a line indented less. A block opened at the
 * margin and never closed runs to the document's end.
 */
export function fenceLine(line: string, open: OpenFence): 'close' | 'body' | 'end' {
  const indent = indentOf(line);
  if (open.indent > 3 && indent < open.indent && line.trim()) return 'end';
  return closesFence(line.slice(Math.min(indent, open.indent)), open.fence) ? 'close' : 'body';
}

/**
 * The block `open` opened on the line before `from`: its body (each line without the fence's indentation),
 * whether a closing fence ended it, and the index of the first line after it (past its closing fence, or the
 * line that ended its container, which is read again outside the block).
 */
export function fencedBlock(lines: string[], from: number, open: OpenFence): { body: string[]; closed: boolean; next: number } {
  const body: string[] = [];
  let j = from;
  for (; j < lines.length; j++) {
    const kind = fenceLine(lines[j]!, open);
    if (kind === 'close') return { body, closed: true, next: j + 1 };
    if (kind === 'end') break;
    body.push(fenceBody(lines[j]!, open));
  }
  return { body, closed: false, next: j };
}

/** A body line without its block's indentation (CommonMark removes up to as many spaces as the fence had). */
export function fenceBody(line: string, open: OpenFence): string {
  return line.slice(Math.min(open.indent, indentOf(line)));
}

/**
 * A fenced block around lines that may hold fences of their own (an example of markdown inside a literal
 * block): a backtick marker longer than any run of backticks a line starts with, so that no line closes it.
 */
export function fenceAround(info: string, body: string[]): string[] {
  const marker = '`'.repeat(Math.max(3, ...body.map((l) => (/^\s*(`+)/.exec(l)?.[1]?.length ?? 0) + 1)));
  return [`${marker}${info}`, ...body, marker];
}

/**
 * The one text check of every way in (CLI files and folders, URL ingest, HTTP uploads): documentation is
 * text. Bytes are decoded in the charset they declare (a Content-Type `charset`, or a byte-order mark),
 * UTF-8 when none; they must decode without error and hold no NUL character. Anything else (an executable
 * named `fake.md`, an image, a UTF-16 file without its mark) is refused with the reason, never indexed.
 */

export type TextCheck = { ok: true; text: string } | { ok: false; reason: string };

/** The charset a Content-Type value declares (`text/html; charset=iso-8859-1` → `iso-8859-1`), if any. */
export function declaredCharset(contentType: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1];
}

/** Why a decoded text is not documentation text, or undefined when it is. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'it is binary (it contains NUL bytes), not text';
  return undefined;
}

/** Decodes bytes as text (see the module comment); a leading byte-order mark is dropped. */
export function decodeText(bytes: Uint8Array, charset?: string): TextCheck {
  let label = charset?.trim().toLowerCase() || 'utf-8';
  let start = 0;
  // A byte-order mark declares the encoding of a file that has no Content-Type.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    label = 'utf-8';
    start = 3;
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    label = 'utf-16le';
    start = 2;
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    label = 'utf-16be';
    start = 2;
  }
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label, { fatal: true, ignoreBOM: true });
  } catch {
    return { ok: false, reason: `it declares the unknown charset "${label.slice(0, 40)}"` };
  }
  let text: string;
  try {
    text = decoder.decode(bytes.subarray(start));
  } catch {
    return { ok: false, reason: label === 'utf-8' ? 'it is not UTF-8 text (binary, or another encoding)' : `it is not valid ${label} text` };
  }
  const problem = textProblem(text);
  return problem ? { ok: false, reason: problem } : { ok: true, text };
}

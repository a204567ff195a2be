/**
 * A guard in front of the stdio transport: a JSON-RPC line longer than `maxBytes` is dropped whole (up to its
 * newline) and answered with a JSON-RPC error instead of reaching the SDK's read buffer, which, past its own
 * 10 MiB limit, loses the session's framing. Lines within the limit pass through unchanged.
 */
import { Transform, type TransformCallback } from 'node:stream';

export const MAX_STDIO_MESSAGE_BYTES = 8 * 1024 * 1024;

export class LineLimit extends Transform {
  /** The current line's parts held back until its newline (a line is passed on whole, or not at all). */
  private pending: Buffer[] = [];
  /** Bytes of the current line so far. */
  private length = 0;
  /** The current line is over the limit: its bytes are counted and dropped. */
  private dropping = false;
  /** The first bytes of a dropped line, for its request id. */
  private head = '';

  constructor(
    private readonly maxBytes: number,
    private readonly onTooLong: (bytes: number, id: string | number | null) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      const part = chunk.subarray(start, end);
      if (this.dropping) {
        this.length += part.length;
      } else if (this.length + part.length > this.maxBytes) {
        // Too long: drop what was held back and the rest of the line.
        this.head = Buffer.concat([...this.pending, part])
          .subarray(0, 256)
          .toString('utf8');
        this.pending = [];
        this.dropping = true;
        this.length += part.length;
      } else {
        this.pending.push(part);
        this.length += part.length;
      }
      if (newline !== -1) {
        if (this.dropping) {
          const id = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,100}")/.exec(this.head)?.[1];
          this.onTooLong(this.length, id === undefined ? null : id.startsWith('"') ? (JSON.parse(id) as string) : Number(id));
        } else {
          this.push(Buffer.concat(this.pending));
        }
        this.pending = [];
        this.length = 0;
        this.dropping = false;
        this.head = '';
      }
      start = end;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (!this.dropping && this.pending.length) this.push(Buffer.concat(this.pending));
    done();
  }
}

/**
 * The stdio front: answers an agent host's opening messages itself, and hands the session to the SDK server
 * at the first message it does not answer. A host that starts docent to list its tools (spawn, `initialize`,
 * `tools/list`, close) is served without loading the MCP SDK, its zod schemas, ajv or any tool module; every
 * other session loads them at its first other message, exactly as before.
 *
 * Answered here, and only in their plain form: `initialize` (with a protocol version of FRONT_PROTOCOL_VERSIONS,
 * an object `capabilities` and a `clientInfo` naming the client), `notifications/initialized`, `tools/list`
 * without a cursor (from the prebuilt catalog, when current), and `ping`. The answers are the SDK server's:
 * the same identity (identity.ts) and the same catalog. Anything else, or anything malformed, is handed over.
 *
 * Handing over replays the session so far into the SDK server: the `initialize` request (its answer, already
 * given, is dropped) and the `initialized` notification, then every line from the one that was not answered
 * on, in order. The SDK server therefore knows the client's capabilities (elicitation, sampling) as if it had
 * answered from the start.
 */
import { PassThrough, Writable } from 'node:stream';
import { prebuiltCatalog } from './catalog.js';
import { SERVER_CAPABILITIES, SERVER_INFO, SERVER_INSTRUCTIONS } from './identity.js';

/** Protocol versions the front answers `initialize` for (each one the SDK supports: a test checks it). */
export const FRONT_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

type Id = string | number;
interface Message {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is Id => typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));

/** The SDK side of a handed-over session: what it reads (lines) and where it writes. */
export interface Handover {
  input: PassThrough;
  output: Writable;
}

export class StdioFront {
  private buffer = '';
  private initialize?: { id: Id; line: string };
  private initialized?: string;
  private handed?: PassThrough;

  /**
   * `write` sends a line to the client; `handover` starts the SDK server on the given streams (called once).
   */
  constructor(
    private readonly write: (line: string) => void,
    private readonly handover: (streams: Handover) => void,
  ) {}

  /** True once the SDK server has the session. */
  get handedOver(): boolean {
    return this.handed !== undefined;
  }

  /** Bytes from the client (already split and size-checked lines, or any chunks: they are split here). */
  push(chunk: Buffer | string): void {
    if (this.handed) {
      this.handed.write(chunk);
      return;
    }
    this.buffer += chunk.toString();
    let newline: number;
    while (!this.handed && (newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline + 1);
      this.buffer = this.buffer.slice(newline + 1);
      if (!this.answer(line)) this.handOver(line);
    }
    const handed = this.handed as PassThrough | undefined;
    if (handed && this.buffer) {
      handed.write(this.buffer);
      this.buffer = '';
    }
  }

  /** The client closed its side. */
  end(): void {
    if (this.handed) this.handed.end();
  }

  /** Answers one line if it is one the front serves; false to hand it over. */
  private answer(line: string): boolean {
    if (line.trim() === '') return true;
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      return false;
    }
    if (!isObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') return false;
    const { id, method, params } = message;
    if (method === 'initialize' && isId(id) && !this.initialize && isObject(params)) {
      const { protocolVersion, capabilities, clientInfo } = params;
      if (typeof protocolVersion !== 'string' || !FRONT_PROTOCOL_VERSIONS.includes(protocolVersion)) return false;
      if (!isObject(capabilities) || !isObject(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') return false;
      this.initialize = { id, line };
      this.reply(id, { protocolVersion, capabilities: SERVER_CAPABILITIES, serverInfo: SERVER_INFO, instructions: SERVER_INSTRUCTIONS });
      return true;
    }
    if (method === 'notifications/initialized' && id === undefined && this.initialize && !this.initialized) {
      this.initialized = line;
      return true;
    }
    if (method === 'tools/list' && isId(id) && this.initialize && (params === undefined || (isObject(params) && Object.keys(params).length === 0))) {
      const tools = prebuiltCatalog();
      if (!tools) return false;
      this.reply(id, { tools });
      return true;
    }
    if (method === 'ping' && isId(id) && (params === undefined || (isObject(params) && Object.keys(params).length === 0))) {
      this.reply(id, {});
      return true;
    }
    return false;
  }

  private reply(id: Id, result: unknown): void {
    this.write(`${JSON.stringify({ result, jsonrpc: '2.0', id })}\n`);
  }

  private handOver(line: string): void {
    const input = new PassThrough();
    this.handed = input;
    const swallow = this.initialize?.id;
    let swallowed = swallow === undefined;
    const output = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        const text = chunk.toString('utf8');
        if (!swallowed) {
          try {
            const message = JSON.parse(text) as Message & { result?: unknown; error?: unknown };
            if (message.id === swallow && (message.result !== undefined || message.error !== undefined) && message.method === undefined) {
              swallowed = true;
              done();
              return;
            }
          } catch {
            // Not one message: passed on as it is.
          }
        }
        this.write(text);
        done();
      },
    });
    if (this.initialize) input.write(this.initialize.line);
    if (this.initialized) input.write(this.initialized);
    input.write(line);
    this.handover({ input, output });
  }
}

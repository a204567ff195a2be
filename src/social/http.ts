/**
 * HTTP for the social adapters. Their endpoints are operator configuration (like the model endpoints), not
 * caller input, so they are not put through the caller-URL guard; what applies is: a time limit, no
 * redirects followed (a redirected POST is reported, never replayed elsewhere), and a cap on the response
 * read. Failures say whether the request may have reached the platform, which decides whether a post is
 * known to be unsent.
 */

export interface HttpReply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** A failed exchange. `maybeDelivered` is true when the platform may have acted on the request anyway. */
export class SendFailure extends Error {
  constructor(
    message: string,
    readonly maybeDelivered: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

const MAX_RESPONSE_BYTES = 1_048_576;

const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID']);

async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      break;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function request(
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string },
  options: { timeoutMs: number; signal?: AbortSignal; service: string },
): Promise<HttpReply> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code && NOT_CONNECTED.has(code)) {
      throw new SendFailure(`could not connect to ${options.service} at ${new URL(url).host} (${code}); nothing was sent`, false);
    }
    if (timeout.aborted) {
      throw new SendFailure(`${options.service} did not answer within ${Math.round(options.timeoutMs / 1000)} s; it may still have published the post`, true);
    }
    if (options.signal?.aborted) throw new SendFailure(`the request to ${options.service} was cancelled; it may still have published the post`, true);
    throw new SendFailure(`the request to ${options.service} failed (${code ?? (error as Error).message}); it may still have published the post`, true);
  }
  const text = await readCapped(response);
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (response.status >= 300 && response.status < 400) {
    throw new SendFailure(
      `${options.service} answered with a redirect (${response.status}) instead of accepting the post; check its base URL setting`,
      false,
      response.status,
    );
  }
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * How the social adapters talk to their platforms: through the outbound module's trusted mode (endpoints
 * the operator configured), with no redirects followed (a redirected POST is reported, never replayed
 * elsewhere), a time limit, and a cap on what is read. Failures become SendFailures that say whether the
 * platform may have acted on the request anyway, which decides whether a post is known to be unsent.
 */
import { OutboundError } from '../net/errors.js';
import type { ServiceEndpoint } from '../net/outbound.js';

export interface HttpReply {
  status: number;
  header(name: string): string | undefined;
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
/** Connection failures that prove the request never reached the platform. */
const NEVER_CONNECTED = /\((ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)\)/;

function asSendFailure(error: OutboundError, service: string): SendFailure {
  // The outbound module names the service first ("Mastodon: ..."); this message already does.
  const prefix = `${service.toLowerCase()}: `;
  const named = error.message.toLowerCase().startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  const reason = named.replace(/^refused: /, '');
  const unsent = (why: string) => new SendFailure(`${why}; nothing was sent`, false);
  const maybe = (why: string) => new SendFailure(`${why}; it may still have published the post`, true);
  switch (error.failure) {
    case 'refused':
    case 'dns_failed':
    case 'tls_failed':
      return unsent(`the request to ${service} failed: ${reason}`);
    case 'timeout':
      return error.rule === 'connect_timeout' ? unsent(`could not connect to ${service}: ${reason}`) : maybe(`${service} did not answer in time: ${reason}`);
    case 'unreachable':
      return error.rule === 'connection' && NEVER_CONNECTED.test(error.message)
        ? unsent(`could not connect to ${service}: ${reason}`)
        : maybe(`the connection to ${service} failed: ${reason}`);
    case 'cancelled':
      return maybe(`the request to ${service} was cancelled`);
    default:
      return maybe(`${service}'s answer could not be read: ${reason}`);
  }
}

export async function postTo(
  endpoint: ServiceEndpoint,
  segments: readonly string[],
  request: { headers: Record<string, string>; body: string; timeoutMs: number; signal?: AbortSignal },
): Promise<HttpReply> {
  let response;
  try {
    response = await endpoint.request(segments, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      accept: ['*'],
      maxRedirects: 0,
      maxBytes: MAX_RESPONSE_BYTES,
      timeoutMs: request.timeoutMs,
      signal: request.signal,
    });
  } catch (error) {
    if (error instanceof OutboundError) throw asSendFailure(error, endpoint.title);
    throw error;
  }
  const text = response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    header: (name) => {
      const value = response.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    },
    text,
    json,
  };
}

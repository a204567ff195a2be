/**
 * Failures of outbound requests. Each is a ToolError (the calling model can act on it) whose message names
 * the rule that fired and never carries a secret: destinations are named by host (and address), never by
 * path or query, since webhook paths and API queries may be credentials.
 */
import { ToolError } from '../errors.js';

export type OutboundFailure =
  /** The destination guard refused the URL or the address it resolves to. */
  'refused' | 'dns_failed' | 'unreachable' | 'tls_failed' | 'timeout' | 'too_large' | 'unexpected_content_type' | 'too_many_redirects' | 'cancelled';

export class OutboundError extends ToolError {
  constructor(
    message: string,
    readonly failure: OutboundFailure,
    readonly rule?: string,
  ) {
    super(message, failure === 'refused' ? 'refused' : `outbound_${failure}`, rule ? { rule } : undefined);
  }
}

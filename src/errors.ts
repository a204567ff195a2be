/**
 * The two error channels.
 *
 * ToolError: an expected failure of one tool call, for the model that made it. Its message says what went
 * wrong and what to do next; it becomes an MCP result with `isError: true` (or a 4xx JSON body over REST).
 *
 * ConfigError: a problem with the operator's setup found at startup or when a feature is first used. Its
 * message names the environment variable or flag to fix. The CLI prints it and exits with status 2.
 */

/**
 * Every code a failed tool call may carry, with the HTTP status REST answers it with (`POST /v1/tools/:name`,
 * `/v1/query`, document uploads). A closed list: a new failure picks a code here, so callers can switch on it.
 */
export const TOOL_ERROR_STATUS = {
  // The caller's arguments: fix them and call again.
  invalid_arguments: 400,
  invalid_path: 422,
  outside_workspace: 422,
  is_a_directory: 422,
  not_a_directory: 422,
  not_a_file: 422,
  hard_linked: 422,
  not_empty: 422,
  too_long: 422,
  not_a_feed: 422,
  out_of_range: 422,
  tool_error: 422,
  // What the caller may do or reach.
  forbidden: 403,
  refused: 403,
  tool_not_allowed: 403,
  depth_guard: 403,
  not_found: 404,
  // Asking the person first.
  confirmation_required: 409,
  declined: 409,
  conflict: 409,
  // Limits.
  rate_limited: 429,
  quota_exceeded: 429,
  outbound_too_large: 413,
  too_large: 413,
  binary_file: 415,
  unsupported_document_type: 415,
  no_space: 507,
  // The operator's setup.
  not_configured: 503,
  missing_secret: 503,
  model_unavailable: 503,
  unavailable: 503,
  workspace_unavailable: 503,
  embedding_model_mismatch: 503,
  // A service docent called.
  upstream_error: 502,
  upstream_auth: 502,
  upstream_rejected: 502,
  outcome_unknown: 502,
  bad_upstream_response: 502,
  model_error: 502,
  model_output: 502,
  outbound_dns_failed: 502,
  outbound_unreachable: 502,
  outbound_tls_failed: 502,
  outbound_unexpected_content_type: 502,
  outbound_too_many_redirects: 502,
  outbound_timeout: 504,
  timeout: 504,
  // The call itself.
  cancelled: 499,
  outbound_cancelled: 499,
  internal_error: 500,
} as const satisfies Record<string, number>;

export type ToolErrorCode = keyof typeof TOOL_ERROR_STATUS;

export class ToolError extends Error {
  override readonly name = 'ToolError';
  constructor(
    message: string,
    /** Machine-readable reason (TOOL_ERROR_STATUS lists them all, with their HTTP status). */
    readonly code: ToolErrorCode = 'tool_error',
    /** Extra fields returned to the caller next to the message (never secrets). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** A call that must be confirmed before it runs; carries the token that confirms it on a second call. */
export class ConfirmationRequiredError extends ToolError {
  constructor(
    message: string,
    readonly token: string,
    readonly summary: string,
  ) {
    super(message, 'confirmation_required', { confirmation_token: token, summary });
  }
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

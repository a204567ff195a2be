/**
 * The two error channels.
 *
 * ToolError: an expected failure of one tool call, for the model that made it. Its message says what went
 * wrong and what to do next; it becomes an MCP result with `isError: true` (or a 4xx JSON body over REST).
 *
 * ConfigError: a problem with the operator's setup found at startup or when a feature is first used. Its
 * message names the environment variable or flag to fix. The CLI prints it and exits with status 2.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  constructor(
    message: string,
    /** Machine-readable reason, e.g. `invalid_arguments`, `not_found`, `forbidden`, `upstream_error`. */
    readonly code: string = 'tool_error',
    /** Extra fields returned to the caller next to the message (never secrets). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** A call that must be confirmed before it runs; carries the token that confirms it on a second call. */
export class ConfirmationRequiredError extends ToolError {
  constructor(message: string, readonly token: string, readonly summary: string) {
    super(message, 'confirmation_required', { confirmation_token: token, summary });
  }
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

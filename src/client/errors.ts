/**
 * The client's typed failures. Every failed call throws a DocentError carrying the HTTP status (0 when no
 * response arrived), the server's machine-readable `code` and its message; subclasses mark the cases a
 * program handles differently. Messages come from the server or name the request; never the API key.
 */

export class DocentError extends Error {
  override name = 'DocentError';
  constructor(
    message: string,
    /** HTTP status; 0 when the request never got a response (network failure, timeout, abort). */
    readonly status: number,
    /** Machine-readable reason from the server (`not_found`, `invalid_arguments`, ...) or the client (`timeout`, `network_error`, `bad_response`). */
    readonly code: string,
    /** Extra fields of the server's error body (`field`, `limit`, `supported`, ...). */
    readonly details: Record<string, unknown> = {},
    /** The server's `x-request-id`, to find the request in its logs. */
    readonly requestId?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** 401 / 403: the key is missing, unknown, revoked, or not allowed to do this. */
export class DocentAuthError extends DocentError {
  override name = 'DocentAuthError';
}

/** 429: a rate limit or quota of the key's plan. `retryAfter` is in seconds (from `Retry-After`). */
export class DocentRateLimitError extends DocentError {
  override name = 'DocentRateLimitError';
  constructor(
    message: string,
    status: number,
    code: string,
    details: Record<string, unknown>,
    requestId: string | undefined,
    /** Seconds to wait before retrying. */
    readonly retryAfter: number,
  ) {
    super(message, status, code, details, requestId);
  }
}

/**
 * 409 `confirmation_required`: the operation needs an explicit yes. Show the message to the person; if they
 * agree, repeat the same call with `confirmationToken` (tools: the `confirmation_token` argument).
 */
export class DocentConfirmationRequiredError extends DocentError {
  override name = 'DocentConfirmationRequiredError';
  constructor(
    message: string,
    status: number,
    code: string,
    details: Record<string, unknown>,
    requestId: string | undefined,
    readonly confirmationToken: string,
  ) {
    super(message, status, code, details, requestId);
  }
}

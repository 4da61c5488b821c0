// Typed errors of the Swap Routing Service client. The status -> error mapping depends on the
// endpoint (docs/API.md: 400 is "unsupported chain" on /quote but "quote outdated" on /build).

export type ApiEndpoint = 'search' | 'list' | 'quote' | 'build';

export type SwapApiErrorKind =
  | 'unsupported-chain'
  | 'unsupported-token'
  | 'slippage'
  | 'quote-outdated'
  | 'rate-limited'
  | 'service-unavailable'
  | 'invalid-response'
  | 'bad-request'
  | 'invalid-request'
  | 'cancelled';

export interface SwapApiErrorInit {
  endpoint: ApiEndpoint;
  status?: number;
  serverCode?: string;
  serverMessage?: string;
  message?: string;
}

export abstract class SwapApiError extends Error {
  abstract readonly kind: SwapApiErrorKind;
  readonly endpoint: ApiEndpoint;
  readonly status?: number;
  readonly serverCode?: string;
  readonly serverMessage?: string;

  constructor(init: SwapApiErrorInit, fallbackMessage: string) {
    super(init.message ?? defaultMessage(init, fallbackMessage));
    this.endpoint = init.endpoint;
    this.status = init.status;
    this.serverCode = init.serverCode;
    this.serverMessage = init.serverMessage;
  }
}

function defaultMessage(init: SwapApiErrorInit, text: string): string {
  const status = init.status === undefined ? '' : ` (HTTP ${init.status})`;
  const code = init.serverCode === undefined ? '' : ` [${init.serverCode}]`;
  return `${init.endpoint}: ${text}${status}${code}`;
}

/** 400 on /quote. */
export class UnsupportedChainError extends SwapApiError {
  readonly kind = 'unsupported-chain';
  override readonly name = 'UnsupportedChainError';
  constructor(init: SwapApiErrorInit) {
    super(init, 'unsupported chain');
  }
}

/** 404 on /quote. */
export class UnsupportedTokenError extends SwapApiError {
  readonly kind = 'unsupported-token';
  override readonly name = 'UnsupportedTokenError';
  constructor(init: SwapApiErrorInit) {
    super(init, 'unsupported tokens');
  }
}

/** 406 on /quote. */
export class SlippageError extends SwapApiError {
  readonly kind = 'slippage';
  override readonly name = 'SlippageError';
  constructor(init: SwapApiErrorInit) {
    super(init, 'slippage refused');
  }
}

/** 400 on /build. */
export class QuoteOutdatedError extends SwapApiError {
  readonly kind = 'quote-outdated';
  override readonly name = 'QuoteOutdatedError';
  constructor(init: SwapApiErrorInit) {
    super(init, 'quote is outdated');
  }
}

/**
 * 429: the service limits how often this client may ask. `retryAfterSeconds` is its Retry-After
 * (absent when it sent none or an unreadable one); the client waits it out once, within a bound.
 */
export class RateLimitedError extends SwapApiError {
  readonly kind = 'rate-limited';
  override readonly name = 'RateLimitedError';
  readonly retryAfterSeconds?: number;
  constructor(init: SwapApiErrorInit & { retryAfterSeconds?: number }) {
    super(init, 'rate limited');
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** Why the service counts as unavailable: a 5xx answer, no answer at all, or no answer in time. */
export type UnavailableCause = 'http-5xx' | 'network' | 'timeout';

/** 5xx, network failure or timeout, after retries (if any) were used up. */
export class ServiceUnavailableError extends SwapApiError {
  readonly kind = 'service-unavailable';
  override readonly name = 'ServiceUnavailableError';
  // Replaces Error.cause on purpose: callers branch on it; the underlying error is in `underlying`.
  override readonly cause: UnavailableCause;
  readonly underlying?: unknown;
  constructor(init: SwapApiErrorInit & { cause: UnavailableCause; underlying?: unknown }) {
    super(init, `service unavailable: ${init.cause}`);
    this.cause = init.cause;
    this.underlying = init.underlying;
  }
}

export type InvalidResponseReason =
  | 'schema'
  | 'not-json'
  | 'empty'
  | 'too-large'
  | 'unexpected-status'
  /** A 3xx pointing elsewhere: never followed (the service's origin is the one trusted). */
  | 'redirect'
  | 'mismatch';

/** A success status whose body cannot be trusted: wrong shape, not JSON, empty, oversized. */
export class InvalidResponseError extends SwapApiError {
  readonly kind = 'invalid-response';
  override readonly name = 'InvalidResponseError';
  readonly reason: InvalidResponseReason;
  /** Schema issues, for logs only (capped). */
  readonly issues: readonly string[];
  constructor(init: SwapApiErrorInit & { reason: InvalidResponseReason; issues?: readonly string[] }) {
    super(init, `invalid response: ${init.reason}`);
    this.reason = init.reason;
    this.issues = init.issues ?? [];
  }
}

/** Any 4xx the contract does not give a meaning to on that endpoint (400 on search, 404 on build, 413, 414, 422...). */
export class BadRequestError extends SwapApiError {
  readonly kind = 'bad-request';
  override readonly name = 'BadRequestError';
  constructor(init: SwapApiErrorInit) {
    super(init, 'request refused');
  }
}

/** The request failed client-side validation and was never sent. */
export class InvalidRequestError extends SwapApiError {
  readonly kind = 'invalid-request';
  override readonly name = 'InvalidRequestError';
  readonly issues: readonly { path: string; message: string }[];
  constructor(init: SwapApiErrorInit & { issues: readonly { path: string; message: string }[] }) {
    super(init, `invalid request: ${init.issues.map((i) => i.path || '(root)').join(', ')}`);
    this.issues = init.issues;
  }
}

/** The caller aborted (its AbortSignal fired). Never retried. */
export class RequestCancelledError extends SwapApiError {
  readonly kind = 'cancelled';
  override readonly name = 'RequestCancelledError';
  constructor(init: SwapApiErrorInit) {
    super(init, 'request cancelled');
  }
}

/** Bad client configuration (base URL, timeout, retry policy): thrown by createSwapApiClient. */
export class ClientConfigError extends Error {
  readonly kind = 'client-config';
  override readonly name = 'ClientConfigError';
  constructor(
    readonly field: 'baseUrl' | 'timeoutMs' | 'retry',
    message: string,
  ) {
    super(message);
  }
}

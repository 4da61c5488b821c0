// Errors the routes throw on purpose: each carries its HTTP status and a shared error code.
// Anything else reaching the global handler is a bug and becomes 503 SERVICE_UNAVAILABLE.
import { ERROR_CODES } from '../lib/api/schema';

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
export type ErrorStatus = 400 | 404 | 405 | 406 | 413 | 414 | 422 | 429 | 503;

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The chain's RPC could not answer (down, timed out, or answered nonsense). */
export class RpcUnavailableError extends ApiError {
  constructor(
    chainName: string,
    override readonly cause: unknown,
  ) {
    super(503, ERROR_CODES.rpcUnavailable, `The ${chainName} RPC node is unavailable; try again shortly.`);
    this.name = 'RpcUnavailableError';
  }
}

export function errorBody(code: string, message: string, now: Date) {
  return { success: false as const, error: { code, message }, timestamp: now.toISOString() };
}

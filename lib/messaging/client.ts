// The views' side of the protocol: one call per request type, the answer parsed with its schema.
import { browser } from 'wxt/browser';
import type { UserMessage } from '@/lib/state/session-state';
import { RESULT_SCHEMAS, ResponseSchema, type ResultOf } from './protocol';
import type { Request, RequestType } from './requests';

export class BackgroundError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly user?: UserMessage,
  ) {
    super(message);
    this.name = 'BackgroundError';
  }
}

const UNREADABLE = 'The background sent an answer Swaplane cannot read.';

/**
 * Sends `request` and parses the answer. `sent`: the raw answer of this same request, already sent
 * (the popup sends its first requests before its schemas are even built, then parses them here).
 */
export async function callBackground<T extends RequestType>(
  request: Extract<Request, { type: T }>,
  sent?: Promise<unknown>,
): Promise<ResultOf<T>> {
  let raw: unknown;
  try {
    raw = await (sent ?? browser.runtime.sendMessage(request));
  } catch (error) {
    throw new BackgroundError(
      'UNREACHABLE',
      `The background did not answer: ${error instanceof Error ? error.message : error}`,
    );
  }
  const response = ResponseSchema.safeParse(raw);
  if (!response.success) throw new BackgroundError('BAD_RESPONSE', UNREADABLE);
  if (!response.data.ok) {
    const { code, message, user } = response.data.error;
    throw new BackgroundError(code, message, user);
  }
  const result = RESULT_SCHEMAS[request.type as T].safeParse(response.data.result);
  if (!result.success) throw new BackgroundError('BAD_RESPONSE', UNREADABLE);
  return result.data as ResultOf<T>;
}

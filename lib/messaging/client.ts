import { browser } from 'wxt/browser';
import type { z } from 'zod';
import { type Request, ResponseSchema } from './protocol';

export class BackgroundError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BackgroundError';
  }
}

/** Sends one request to the background and parses the answer with the given result schema. */
export async function callBackground<T>(request: Request, resultSchema: z.ZodType<T>): Promise<T> {
  const raw = await browser.runtime.sendMessage(request);
  const response = ResponseSchema.safeParse(raw);
  if (!response.success)
    throw new BackgroundError('BAD_RESPONSE', 'The background sent an answer Swaplane cannot read.');
  if (!response.data.ok) throw new BackgroundError(response.data.error.code, response.data.error.message);
  const result = resultSchema.safeParse(response.data.result);
  if (!result.success)
    throw new BackgroundError('BAD_RESPONSE', 'The background sent an answer Swaplane cannot read.');
  return result.data;
}

// Reading a POST body at the trust boundary: its text, its JSON, and zod's complaints about it as
// one short message. Shared by the quote, build and no-op routes.
import type { Context } from 'hono';
import type { core } from 'zod/mini';
import { ERROR_CODES } from '../lib/api/schema';
import { ApiError } from './errors';

export async function readBodyText(c: Context): Promise<string> {
  try {
    return await c.req.text();
  } catch {
    throw new ApiError(400, ERROR_CODES.badRequest, 'the request body could not be read');
  }
}

export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, ERROR_CODES.badRequest, 'the request body is not valid JSON');
  }
}

export async function readJson(c: Context): Promise<unknown> {
  return parseJsonText(await readBodyText(c));
}

/** Whether every issue is about one top-level field. */
export function onlyAbout(error: core.$ZodError, field: string): boolean {
  return error.issues.length > 0 && error.issues.every((issue) => issue.path[0] === field);
}

/** The first few zod issues as "path: message" (the whole list can be long and repetitive). */
export function summarise(error: core.$ZodError): string {
  const parts = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length > 3 ? ` (+${error.issues.length - 3} more)` : '';
  return `invalid request body: ${parts.join('; ')}${more}`;
}

// The one typed protocol between views (popup, options, content script) and the background.
// Every message is a zod-parsed envelope; every answer is a typed result or a typed error.
import { z } from 'zod';

export const PingRequestSchema = z.object({ type: z.literal('ping') });

export const RequestSchema = z.discriminatedUnion('type', [PingRequestSchema]);
export type Request = z.infer<typeof RequestSchema>;

export const PingResultSchema = z.object({ version: z.string(), startedAt: z.number() });

export const ErrorResultSchema = z.object({ code: z.string(), message: z.string() });

export const ResponseSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorResultSchema }),
]);
export type Response = z.infer<typeof ResponseSchema>;

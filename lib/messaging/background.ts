import { browser } from 'wxt/browser';
import { ensureJitlessZod } from '@/lib/zod-config';
import { RequestSchema, type Response } from './protocol';

const startedAt = Date.now();

export function registerBackgroundHandlers(): void {
  ensureJitlessZod();
  browser.runtime.onMessage.addListener((message: unknown) => handleMessage(message));
}

export async function handleMessage(message: unknown): Promise<Response> {
  const parsed = RequestSchema.safeParse(message);
  if (!parsed.success) {
    return {
      ok: false,
      error: { code: 'BAD_MESSAGE', message: 'The background refused a malformed message.' },
    };
  }
  switch (parsed.data.type) {
    case 'ping':
      return { ok: true, result: { version: browser.runtime.getManifest().version, startedAt } };
  }
}

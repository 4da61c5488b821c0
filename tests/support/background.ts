// The background as the unit tests drive it: real services on the fake browser, requests answered
// by the real handlers as if a view sent them, and anvil's phrase imported.
import { expect } from 'vitest';
import { createHandlers, handleMessage } from '@/lib/background/router';
import {
  type BackgroundOptions,
  type BackgroundServices,
  createBackgroundServices,
} from '@/lib/background/services';
import { RESULT_SCHEMAS, type Response } from '@/lib/messaging/protocol';

export const ANVIL_PHRASE = 'test test test test test test test test test test test junk';
export const TEST_PASSWORD = 'correct horse battery';
/** Few PBKDF2 iterations: the vault's own tests measure the real count. */
export const FAST_KDF = { iterations: 1_000, minIterations: 1_000 };

export async function startServices(options: BackgroundOptions = {}): Promise<BackgroundServices> {
  const created = createBackgroundServices({ kdf: FAST_KDF, scheduleLock: () => undefined, ...options });
  await created.ready;
  return created;
}

/** Answers a request as the router answers a view (an extension page). */
export function viewSender(services: () => BackgroundServices) {
  return (message: unknown) => handleMessage(createHandlers(services()), services(), message, 'view');
}

/** Imports anvil's phrase through the protocol, as the import screen does; leaves the wallet unlocked. */
export async function importAnvilPhrase(send: ReturnType<typeof viewSender>): Promise<void> {
  const imported = await send({
    type: 'walletImport',
    kind: 'mnemonic',
    secret: ANVIL_PHRASE,
    password: TEST_PASSWORD,
    confirmation: TEST_PASSWORD,
  });
  expect(imported.ok).toBe(true);
}

/** A request the background must answer ok: its result, parsed with the protocol's result schema. */
export function okSender(send: (message: unknown) => Promise<Response>) {
  return async <T extends keyof typeof RESULT_SCHEMAS>(message: { type: T } & Record<string, unknown>) => {
    const answer = await send(message);
    if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
    return RESULT_SCHEMAS[message.type].parse(answer.result) as ReturnType<
      (typeof RESULT_SCHEMAS)[T]['parse']
    >;
  };
}

/** Polls `read` every 50 ms until it gives a value, at most `ms`. */
export async function until<T>(read: () => T | undefined | null, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A quote of `inAmount` of `inToken` for `outToken` on Ethereum in the session, ready to review. */
export async function sessionQuoted(
  services: BackgroundServices,
  inToken: string,
  outToken: string,
  inAmount: bigint,
): Promise<void> {
  services.session.setInput({ chainId: 1, inToken, outToken, inAmount: inAmount.toString(), slippage: 1 });
  await until(() => services.session.getState().status === 'ready', 'a quote');
}

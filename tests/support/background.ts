// The background as the unit tests drive it: real services on the fake browser, requests answered
// by the real handlers as if a view sent them, and anvil's phrase imported.
import { expect } from 'vitest';
import { createHandlers, handleMessage } from '@/lib/background/router';
import {
  type BackgroundOptions,
  type BackgroundServices,
  createBackgroundServices,
} from '@/lib/background/services';

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

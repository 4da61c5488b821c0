import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { BackgroundServices } from '@/lib/background/services';
import { unlockBackoffItem } from '@/lib/storage/items';
import { backoffDelay, FREE_ATTEMPTS, MAX_WAIT_MS } from '@/lib/wallet/unlock-backoff';
import { importAnvilPhrase, startServices, TEST_PASSWORD, viewSender } from '../support/background';

const PASSWORD = TEST_PASSWORD;
const NEW_PASSWORD = 'another long passphrase';

let clock: number;
let services: BackgroundServices;

const start = () => startServices({ now: () => clock });
const send = viewSender(() => services);
const codeOf = async (message: unknown) => {
  const answer = await send(message);
  return answer.ok ? 'ok' : answer.error.code;
};

beforeEach(async () => {
  fakeBrowser.reset();
  clock = 1_000_000;
  services = await start();
  await importAnvilPhrase(send);
  await send({ type: 'walletLock' });
});

describe('unlock backoff', () => {
  it('doubles the wait after a few free attempts, capped', () => {
    expect(backoffDelay(FREE_ATTEMPTS - 1)).toBe(0);
    expect(backoffDelay(FREE_ATTEMPTS)).toBe(5_000);
    expect(backoffDelay(FREE_ATTEMPTS + 1)).toBe(10_000);
    expect(backoffDelay(40)).toBe(MAX_WAIT_MS);
  });

  it('refuses attempts during the wait, even the right password, and survives a worker restart', async () => {
    for (let i = 0; i < FREE_ATTEMPTS - 1; i++) {
      expect(await codeOf({ type: 'walletUnlock', password: 'wrong guess' })).toBe('WRONG_PASSWORD');
    }
    const third = await send({ type: 'walletUnlock', password: 'wrong guess' });
    expect(third).toMatchObject({ ok: false, error: { code: 'WRONG_PASSWORD' } });
    expect(!third.ok && third.error.message).toMatch(/Wait 5 seconds/);
    // A new worker (the old one stopped): the wait holds, the right password is not even checked.
    services.session.dispose();
    services = await start();
    const waiting = await send({ type: 'walletUnlock', password: PASSWORD });
    expect(waiting).toMatchObject({ ok: false, error: { code: 'UNLOCK_BACKOFF' } });
    clock += 5_000;
    expect(await codeOf({ type: 'walletUnlock', password: PASSWORD })).toBe('ok');
    expect(await unlockBackoffItem.get()).toEqual({ failures: 0, notBefore: 0 });
  });
});

describe('password change', () => {
  it('needs the current password; afterwards only the new one unlocks', async () => {
    expect(await codeOf({ type: 'walletUnlock', password: PASSWORD })).toBe('ok');
    const change = { type: 'walletChangePassword', newPassword: NEW_PASSWORD, confirmation: NEW_PASSWORD };
    expect(await codeOf({ ...change, password: 'not the password' })).toBe('WRONG_PASSWORD');
    expect(await codeOf({ ...change, password: PASSWORD, confirmation: 'typo' })).toMatch(/^PASSWORD_/);
    expect(await codeOf({ ...change, password: PASSWORD })).toBe('ok');
    await send({ type: 'walletLock' });
    expect(await codeOf({ type: 'walletUnlock', password: PASSWORD })).toBe('WRONG_PASSWORD');
    expect(await codeOf({ type: 'walletUnlock', password: NEW_PASSWORD })).toBe('ok');
  });

  it('is refused while locked', async () => {
    expect(
      await codeOf({
        type: 'walletChangePassword',
        password: PASSWORD,
        newPassword: NEW_PASSWORD,
        confirmation: NEW_PASSWORD,
      }),
    ).toBe('LOCKED');
  });
});

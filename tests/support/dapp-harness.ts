// The dapp service over a real wallet service (fake browser storage) with the anvil mnemonic
// imported, its windows and page events recorded: the set-up the dapp service's unit tests share.
import { beforeEach, expect } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createDappService, type DappEvent, type Frame } from '@/lib/background/dapp';
import { createWalletService } from '@/lib/background/wallet';
import type { DappResponse } from '@/lib/dapp/approval';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';

export const ANVIL = 'test test test test test test test test test test test junk';
export const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
export const PASSWORD = 'correct horse battery';
export const A = 'https://app.example';
export const B = 'https://evil.example';
export const frameA = { tabId: 1, frameId: 0 };
export const frameB = { tabId: 2, frameId: 0 };

export interface DappHarness {
  /** Windows opened so far (each gets the next id). */
  opened: number;
  closed: number[];
  delivered: { frame: Frame; event: DappEvent }[];
  wallet: ReturnType<typeof createWalletService>;
  dapp: ReturnType<typeof createDappService>;
  /** Approves the request the window shows now. */
  approveNext(password?: string): Promise<unknown>;
  /** A connect request from `origin`, approved. */
  connect(origin?: string, frame?: Frame): Promise<DappResponse>;
  /** A new worker: a fresh dapp service over the same storage and wallet (the old one is dropped). */
  restart(): void;
}

/** Registers a beforeEach that builds a fresh harness; read its fields inside the tests. */
export function useDappHarness(): DappHarness {
  const h = { opened: 0, closed: [], delivered: [] } as unknown as DappHarness;
  h.approveNext = async (password) => {
    const state = await h.dapp.approvals();
    if (!state.current) throw new Error('nothing waits');
    return h.dapp.decide(state.current.id, true, password);
  };
  h.connect = async (origin = A, frame = frameA) => {
    const pending = h.dapp.request(origin, frame, 'eth_requestAccounts', undefined);
    await expect.poll(async () => (await h.dapp.approvals()).current?.origin).toBe(origin);
    await h.approveNext();
    return pending;
  };
  beforeEach(async () => {
    fakeBrowser.reset();
    h.opened = 0;
    h.closed = [];
    h.delivered = [];
    h.wallet = createWalletService({
      autoLockMinutes: () => 15,
      kdf: { iterations: 1_000, minIterations: 1_000 },
    });
    await h.wallet.restore();
    await h.wallet.importWallet({
      kind: 'mnemonic',
      secret: ANVIL,
      password: PASSWORD,
      confirmation: PASSWORD,
    });
    h.restart();
  });
  h.restart = () => {
    h.dapp = createDappService({
      settings: () => DEFAULT_SETTINGS,
      wallet: h.wallet,
      openWindow: async () => ++h.opened,
      focusWindow: async () => undefined,
      closeWindow: async (id) => {
        h.closed.push(id);
      },
      sendToFrame: async (frame, event) => {
        h.delivered.push({ frame, event });
      },
    });
  };
  return h;
}

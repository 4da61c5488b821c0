// The wallet: create, import, unlock, accounts, reveal. Everything happens in the wallet service
// (lib/background/wallet.ts); these only unpack the requests.
import { browserClipboardClearer } from '../clipboard-clear';
import type { BackgroundServices } from '../services';
import type { Handlers } from './types';

type WalletRequest =
  | 'walletState'
  | 'walletStartCreate'
  | 'walletConfirmCreate'
  | 'walletImport'
  | 'walletRestore'
  | 'walletUnlock'
  | 'walletLock'
  | 'walletAddAccount'
  | 'walletImportKey'
  | 'walletRename'
  | 'walletSetActive'
  | 'walletReveal'
  | 'clipboardClearLater';

export function walletHandlers(services: BackgroundServices): Pick<Handlers, WalletRequest> {
  return {
    walletState: () => services.wallet.state(),
    walletStartCreate: ({ words }) => services.wallet.startCreate(words),
    // A new wallet seals the settings it starts with (the user just set it up).
    walletConfirmCreate: (request) => sealedAfter(services, services.wallet.confirmCreate(request)),
    walletImport: (request) => sealedAfter(services, services.wallet.importWallet(request)),
    walletRestore: (request) => sealedAfter(services, services.wallet.restoreWallet(request)),
    walletUnlock: ({ password }) => services.wallet.unlock(password),
    walletLock: () => services.wallet.lock(),
    walletAddAccount: ({ name }) => services.wallet.addAccount(name),
    walletImportKey: ({ privateKey, name }) => services.wallet.importKey(privateKey, name),
    walletRename: ({ id, name }) => services.wallet.rename(id, name),
    walletSetActive: async ({ id }) => {
      const state = await services.wallet.setActive(id);
      const active = state.accounts.find((account) => account.id === state.activeId);
      // Sites granted the new active account hear accountsChanged with it first.
      if (active) await services.dapp.activeAccountChanged(active.address).catch(() => undefined);
      return state;
    },
    clipboardClearLater: ({ digest }) => browserClipboardClearer().schedule(digest),
    walletReveal: async ({ password, target }) => ({
      secret: await services.wallet.reveal(password, target),
    }),
  };
}

async function sealedAfter<T>(services: BackgroundServices, created: Promise<T>): Promise<T> {
  const state = await created;
  await services.trust.seal();
  return state;
}

// A small dapp of our own making on viem + mipd (bundled for the browser by the spec): it finds
// wallets through EIP-6963 with mipd's store and drives Swaplane's provider through viem's wallet
// client over custom(provider), as dapps built on wagmi/viem do.
import { createStore, type EIP6963ProviderDetail } from 'mipd';
import { type Address, createWalletClient, custom, type Hex, type WalletClient } from 'viem';
import { base, mainnet } from 'viem/chains';

const store = createStore();
let client: WalletClient | undefined;
let account: Address | undefined;
const answers: Record<string, unknown> = {};

async function swaplane(): Promise<EIP6963ProviderDetail> {
  const found = store.findProvider({ rdns: 'app.swaplane' });
  if (found) return found;
  return new Promise((resolve) => {
    const stop = store.subscribe((details) => {
      const detail = details.find((entry) => entry.info.rdns === 'app.swaplane');
      if (detail) {
        stop();
        resolve(detail);
      }
    });
  });
}

const actions = {
  async info() {
    const { info } = await swaplane();
    return { ...info, all: store.getProviders().map((detail) => detail.info.rdns) };
  },
  async connect() {
    const { provider } = await swaplane();
    client = createWalletClient({ chain: mainnet, transport: custom(provider) });
    [account] = await client.requestAddresses();
    return account;
  },
  async signMessage(message: string) {
    if (!client || !account) throw new Error('connect first');
    return client.signMessage({ account, message });
  },
  async signTypedData(json: string) {
    if (!client || !account) throw new Error('connect first');
    return client.signTypedData({ account, ...JSON.parse(json) });
  },
  async send(to: Address, value: string) {
    if (!client || !account) throw new Error('connect first');
    return client.sendTransaction({ account, chain: mainnet, to, value: BigInt(value) });
  },
  async switchToBase() {
    if (!client) throw new Error('connect first');
    await client.switchChain({ id: base.id });
    return client.getChainId();
  },
};

type ActionName = keyof typeof actions;

(window as unknown as { viemDapp: unknown }).viemDapp = {
  start(name: string, action: ActionName, ...args: string[]) {
    delete answers[name];
    (actions[action] as (...values: string[]) => Promise<unknown>)(...args).then(
      (result) => {
        answers[name] = { result };
      },
      (error: { code?: number; message?: string; cause?: { code?: number } }) => {
        answers[name] = {
          error: { code: error.code ?? error.cause?.code ?? null, message: String(error.message) },
        };
      },
    );
  },
  answer: (name: string) => answers[name] ?? null,
};

export type { Hex };

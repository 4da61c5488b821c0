// The EIP-1193 provider object pages use (announced through EIP-6963; window.ethereum only when
// the user allows it). It holds no secrets and decides nothing: every request goes to the
// background through the bridge; it only keeps the last chain and accounts to emit events.
import { type ChannelReply, INIT_METHOD } from './channel';

export class ProviderRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProviderRpcError';
  }
}

export interface ProviderTransport {
  send(method: string, params: unknown): Promise<unknown>;
}

type Listener = (...args: unknown[]) => void;

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  on(event: string, listener: Listener): Eip1193Provider;
  removeListener(event: string, listener: Listener): Eip1193Provider;
  readonly isSwaplane: true;
  /**
   * Compatibility flag, as Rabby, Brave, Coinbase and Rainbow set it: many dapps (MetaMask's own
   * test dapp among them) enable their buttons only for it. Who the wallet is: EIP-6963's info.
   */
  readonly isMetaMask: true;
  isConnected(): boolean;
}

export interface ProviderHandle {
  provider: Eip1193Provider;
  /** Feeds the provider what the bridge posts (answers go through `transport`, events here). */
  onEvent(reply: Extract<ChannelReply, { event: string }>): void;
  /** Asks the background for the start-up facts; emits `connect` with the chain. */
  init(): Promise<{ exposeWindowEthereum: boolean }>;
}

const sameList = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);

export function createProvider(transport: ProviderTransport): ProviderHandle {
  const listeners = new Map<string, Set<Listener>>();
  let chainId: string | null = null;
  let accounts: string[] = [];

  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(...args);
      } catch {
        // A page's listener throwing must not stop the others.
      }
    }
  };
  const setChain = (next: unknown) => {
    if (typeof next !== 'string' || next === chainId) return;
    const first = chainId === null;
    chainId = next;
    emit(first ? 'connect' : 'chainChanged', first ? { chainId: next } : next);
  };
  const setAccounts = (next: unknown) => {
    if (!Array.isArray(next) || sameList(next, accounts)) return;
    accounts = next.filter((value): value is string => typeof value === 'string');
    emit('accountsChanged', [...accounts]);
  };

  const provider: Eip1193Provider = {
    isSwaplane: true,
    isMetaMask: true,
    isConnected: () => chainId !== null,
    async request(args) {
      if (
        typeof args !== 'object' ||
        args === null ||
        typeof args.method !== 'string' ||
        args.method === INIT_METHOD
      ) {
        throw new ProviderRpcError(-32600, 'Expected { method: string, params?: array | object }.');
      }
      const { method, params } = args;
      if (params !== undefined && (typeof params !== 'object' || params === null)) {
        throw new ProviderRpcError(-32602, 'params must be an array or an object.');
      }
      const result = await transport.send(method, params);
      if (method === 'eth_accounts' || method === 'eth_requestAccounts') setAccounts(result);
      if (method === 'eth_chainId') setChain(result);
      if (method === 'wallet_revokePermissions') setAccounts([]);
      return result;
    },
    on(event, listener) {
      if (typeof listener === 'function') {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)?.add(listener);
      }
      return provider;
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
  };

  return {
    provider,
    onEvent(reply) {
      if (reply.event === 'chainChanged') setChain(reply.data);
      else setAccounts(reply.data);
    },
    async init() {
      const answer = (await transport.send(INIT_METHOD, undefined)) as {
        exposeWindowEthereum?: unknown;
        chainId?: unknown;
      };
      setChain(answer?.chainId);
      return { exposeWindowEthereum: answer?.exposeWindowEthereum === true };
    },
  };
}

/** EIP-6963 provider info. rdns `app.swaplane` (reverse DNS of the project's name, see SECURITY.md). */
export interface ProviderInfo {
  uuid: string;
  name: string;
  icon: string;
  rdns: string;
}

/** Announces on start and again on every eip6963:requestProvider (EIP-6963). */
export function announceProvider(target: Window, info: ProviderInfo, provider: Eip1193Provider): void {
  const detail = Object.freeze({ info: Object.freeze({ ...info }), provider });
  const announce = () => target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  target.addEventListener('eip6963:requestProvider', announce);
  announce();
}

/** window.ethereum, only if nothing else holds it (another wallet keeps it). */
export function exposeAsWindowEthereum(target: Window, provider: Eip1193Provider): boolean {
  const holder = target as unknown as { ethereum?: unknown };
  if (holder.ethereum !== undefined) return false;
  try {
    Object.defineProperty(target, 'ethereum', {
      value: provider,
      configurable: true,
      enumerable: false,
      writable: false,
    });
  } catch {
    return false;
  }
  target.dispatchEvent(new Event('ethereum#initialized'));
  return true;
}

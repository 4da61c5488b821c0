import { describe, expect, it } from 'vitest';
import { INIT_METHOD } from '@/lib/dapp/channel';
import {
  announceProvider,
  createProvider,
  exposeAsWindowEthereum,
  ProviderRpcError,
} from '@/lib/dapp/provider';

function fakeTransport(answers: Record<string, unknown>) {
  const sent: { method: string; params: unknown }[] = [];
  return {
    sent,
    transport: {
      async send(method: string, params: unknown) {
        sent.push({ method, params });
        const answer = answers[method];
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
  };
}

describe('the in-page EIP-1193 provider', () => {
  it('emits connect with the chain at start, then chainChanged and accountsChanged only on change', async () => {
    const { transport } = fakeTransport({
      [INIT_METHOD]: { exposeWindowEthereum: false, chainId: '0x1' },
      eth_requestAccounts: ['0xabc'],
      eth_accounts: ['0xabc'],
    });
    const handle = createProvider(transport);
    const events: unknown[] = [];
    for (const name of ['connect', 'chainChanged', 'accountsChanged']) {
      handle.provider.on(name, (value) => events.push([name, value]));
    }
    expect(await handle.init()).toEqual({ exposeWindowEthereum: false });
    expect(await handle.provider.request({ method: 'eth_requestAccounts' })).toEqual(['0xabc']);
    await handle.provider.request({ method: 'eth_accounts' });
    handle.onEvent({ target: 'swaplane:provider', event: 'chainChanged', data: '0x2105' });
    handle.onEvent({ target: 'swaplane:provider', event: 'chainChanged', data: '0x2105' });
    handle.onEvent({ target: 'swaplane:provider', event: 'accountsChanged', data: [] });
    expect(events).toEqual([
      ['connect', { chainId: '0x1' }],
      ['accountsChanged', ['0xabc']],
      ['chainChanged', '0x2105'],
      ['accountsChanged', []],
    ]);
  });

  it('says who it is (isSwaplane) and keeps the isMetaMask compatibility flag, decided on purpose', () => {
    // Dapps (MetaMask's test dapp among them) enable their buttons only for isMetaMask; the
    // wallet's identity is isSwaplane and its EIP-6963 info, which dapps that care read instead.
    const { provider } = createProvider(fakeTransport({}).transport);
    expect(provider.isSwaplane).toBe(true);
    expect(provider.isMetaMask).toBe(true);
  });

  it('rejects malformed requests itself, and the internal start-up method is not callable by pages', async () => {
    const { transport, sent } = fakeTransport({});
    const { provider } = createProvider(transport);
    await expect(provider.request(undefined as never)).rejects.toMatchObject({ code: -32600 });
    await expect(provider.request({ method: INIT_METHOD })).rejects.toMatchObject({ code: -32600 });
    await expect(provider.request({ method: 'eth_call', params: 'x' as never })).rejects.toBeInstanceOf(
      ProviderRpcError,
    );
    expect(sent).toEqual([]);
  });

  it('a listener that throws does not stop the others; removeListener removes', async () => {
    const { transport } = fakeTransport({ [INIT_METHOD]: { chainId: '0x1' } });
    const handle = createProvider(transport);
    const seen: string[] = [];
    const second = () => seen.push('second');
    handle.provider.on('chainChanged', () => {
      throw new Error('page bug');
    });
    handle.provider.on('chainChanged', second);
    await handle.init();
    handle.onEvent({ target: 'swaplane:provider', event: 'chainChanged', data: '0x2' });
    handle.provider.removeListener('chainChanged', second);
    handle.onEvent({ target: 'swaplane:provider', event: 'chainChanged', data: '0x3' });
    expect(seen).toEqual(['second']);
  });
});

describe('EIP-6963 announcement and window.ethereum', () => {
  it('announces a frozen detail at once and again on every eip6963:requestProvider', () => {
    const target = new EventTarget() as unknown as Window;
    const details: { info: { name: string; rdns: string; uuid: string }; provider: unknown }[] = [];
    target.addEventListener('eip6963:announceProvider', (event) =>
      details.push((event as CustomEvent).detail),
    );
    const { provider } = createProvider(fakeTransport({}).transport);
    const info = {
      uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      name: 'Swaplane',
      icon: 'data:image/svg+xml,x',
      rdns: 'app.swaplane',
    };
    announceProvider(target, info, provider);
    target.dispatchEvent(new Event('eip6963:requestProvider'));
    expect(details).toHaveLength(2);
    expect(details[1]?.info).toEqual(info);
    expect(details[1]?.provider).toBe(provider);
    expect(Object.isFrozen(details[0]) && Object.isFrozen(details[0]?.info)).toBe(true);
  });

  it('window.ethereum is set only when nothing holds it', () => {
    const { provider } = createProvider(fakeTransport({}).transport);
    const empty = new EventTarget() as unknown as Window & { ethereum?: unknown };
    expect(exposeAsWindowEthereum(empty, provider)).toBe(true);
    expect(empty.ethereum).toBe(provider);
    const other = { isOtherWallet: true };
    const taken = Object.assign(new EventTarget(), { ethereum: other }) as unknown as Window & {
      ethereum?: unknown;
    };
    expect(exposeAsWindowEthereum(taken, provider)).toBe(false);
    expect(taken.ethereum).toBe(other);
  });
});

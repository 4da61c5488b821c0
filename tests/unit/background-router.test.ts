import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { NATIVE_TOKEN_ADDRESS, type Token } from '@/lib/api/schema';
import { createHandlers, handleMessage, senderKind } from '@/lib/background/router';
import { type BackgroundServices, createBackgroundServices } from '@/lib/background/services';
import { RESULT_SCHEMAS } from '@/lib/messaging/protocol';
import { CONTENT_SCRIPT_REQUESTS } from '@/lib/messaging/requests';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import { INITIAL_SESSION_STATE } from '@/lib/state/session-state';
import { quoteSessionItem, settingsItem } from '@/lib/storage/items';
import { startTestService, type TestService } from '../support/test-service';
import { chainFactsOf, ETHER_TOKEN, syntheticTokens } from '../support/tokens';

const native = ETHER_TOKEN;
const listed = syntheticTokens(20);
const USDC = listed[0] as Token;

let service: TestService;
let services: BackgroundServices;

async function send(message: unknown, kind: 'view' | 'content-script' | 'unknown' = 'view') {
  return handleMessage(createHandlers(services), services, message, kind);
}

beforeEach(async () => {
  fakeBrowser.reset();
  service = await startTestService({ tokens: { ethereum: [native, ...listed] } });
  await settingsItem.set({ ...DEFAULT_SETTINGS, serviceBaseUrl: service.url });
  services = createBackgroundServices({ facts: chainFactsOf([native, ...listed]) });
  await services.ready;
});
afterEach(async () => {
  services.session.dispose();
  await service.close();
});

describe('sender classification', () => {
  const id = 'abcdefghijklmnop';
  const origin = `chrome-extension://${id}/`;
  it('tells views, content scripts and strangers apart', () => {
    expect(senderKind({ id, url: `${origin}popup.html` }, id, origin)).toBe('view');
    expect(senderKind({ id, url: `${origin}options.html`, tab: { id: 3 } as never }, id, origin)).toBe(
      'view',
    );
    expect(
      senderKind({ id, url: 'https://etherscan.io/token/0x1', tab: { id: 4 } as never }, id, origin),
    ).toBe('content-script');
    expect(senderKind({ id: 'other-extension', url: `${origin}popup.html` }, id, origin)).toBe('unknown');
    expect(senderKind(undefined, id, origin)).toBe('unknown');
    // A page cannot pass as a view by putting the extension origin in its query string.
    expect(
      senderKind({ id, url: `https://evil.example/?${origin}`, tab: { id: 5 } as never }, id, origin),
    ).toBe('content-script');
  });
});

describe('background message handling', () => {
  it('answers every request type with a result its schema accepts', async () => {
    const answer = await send({ type: 'getTokenList', chainId: 1 });
    expect(answer.ok).toBe(true);
    if (answer.ok) expect(RESULT_SCHEMAS.getTokenList.parse(answer.result).tokens).toHaveLength(21);
    const settings = await send({ type: 'getSettings' });
    expect(settings).toMatchObject({ ok: true, result: { serviceBaseUrl: service.url } });
  });

  it('answers popupStart with the wallet, settings, session and only the cached tokens the session names', async () => {
    const empty = await send({ type: 'popupStart' });
    expect(empty).toEqual({
      ok: true,
      result: {
        wallet: expect.objectContaining({ status: 'none' }),
        settings: services.settings(),
        session: INITIAL_SESSION_STATE,
        swap: null,
        tokens: null,
      },
    });
    // Nothing cached yet: the session's tokens are not fetched for the first frame.
    services.session.setInput({
      chainId: 1,
      inToken: NATIVE_TOKEN_ADDRESS,
      outToken: USDC.address.toLowerCase() as `0x${string}`,
      inAmount: '1000',
      slippage: 0.5,
    });
    const listHits = () => service.hits.filter((hit) => hit.path.includes('/tokens/')).length;
    const before = listHits();
    const uncached = await send({ type: 'popupStart' });
    expect(uncached).toMatchObject({
      ok: true,
      result: { tokens: null, session: { input: { outToken: USDC.address.toLowerCase() } } },
    });
    expect(listHits()).toBe(before);
    // Cached: the two tokens, with the list's metadata, in list order; nothing else of the list.
    await send({ type: 'getTokenList', chainId: 1 });
    const cached = await send({ type: 'popupStart' });
    expect(cached.ok).toBe(true);
    if (!cached.ok) return;
    const start = RESULT_SCHEMAS.popupStart.parse(cached.result);
    expect(start.tokens).toEqual({ chainId: 1, tokens: [native, USDC] });
  });

  it('refuses malformed messages with a specific error and acts on nothing', async () => {
    for (const bad of [
      null,
      42,
      'ping',
      {},
      { type: 'nope' },
      { type: 'setQuoteInput', input: { chainId: 1 } },
    ]) {
      const answer = await send(bad);
      expect(answer).toMatchObject({ ok: false, error: { code: 'BAD_MESSAGE' } });
    }
    const badAmount = await send({
      type: 'setQuoteInput',
      input: {
        chainId: 1,
        inToken: NATIVE_TOKEN_ADDRESS,
        outToken: USDC.address,
        inAmount: '1.5',
        slippage: 0.5,
      },
    });
    expect(badAmount.ok).toBe(false);
    expect(services.session.getState().status).toBe('idle');
  });

  it('allows a content script only its calls (look-up, quote, open the popup)', async () => {
    const forbidden = [
      'getSettings',
      'updateSettings',
      'setQuoteInput',
      'refreshQuote',
      'takePrefill',
      'popupStart',
    ];
    for (const type of forbidden) {
      expect(CONTENT_SCRIPT_REQUESTS.has(type as never)).toBe(false);
      const answer = await send({ type, settings: DEFAULT_SETTINGS, input: null }, 'content-script');
      expect(answer).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect(await settingsItem.get()).toMatchObject({ serviceBaseUrl: service.url });
    const lookup = await send({ type: 'lookupToken', chainId: 1, address: USDC.address }, 'content-script');
    expect(lookup).toMatchObject({ ok: true, result: { status: 'listed' } });
    const unknown = await send({ type: 'explorerChain' }, 'unknown');
    expect(unknown).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('answers which addresses are whitelisted, from the cached list', async () => {
    const stranger = '0x00000000000000000000000000000000000000ff';
    const answer = await send(
      {
        type: 'whitelistedTokens',
        chainId: 1,
        addresses: [USDC.address.toUpperCase().replace('0X', '0x'), stranger],
      },
      'content-script',
    );
    expect(answer).toMatchObject({ ok: true, result: [USDC.address.toUpperCase().replace('0X', '0x')] });
  });

  it('gives a one-click quote: the settings amount (default 0.1) of the native coin into the page token', async () => {
    const answer = await send({ type: 'oneClickQuote', chainId: 1, token: USDC.address }, 'content-script');
    expect(answer).toMatchObject({ ok: true, result: { inSymbol: 'ETH', outSymbol: USDC.symbol } });
    const body = service.hits.find((hit) => hit.path === '/v1/quote')?.body;
    expect(body).toMatchObject({ inToken: NATIVE_TOKEN_ADDRESS, inAmount: (10n ** 17n).toString() });
    await services.updateSettings({ ...services.settings(), oneClickAmount: '2.5' });
    await send({ type: 'oneClickQuote', chainId: 1, token: USDC.address }, 'content-script');
    const bodies = service.hits.filter((hit) => hit.path === '/v1/quote').map((hit) => hit.body);
    expect(bodies.at(-1)).toMatchObject({ inAmount: (25n * 10n ** 17n).toString() });
    const unlisted = await send(
      { type: 'oneClickQuote', chainId: 1, token: '0x00000000000000000000000000000000000000ff' },
      'content-script',
    );
    expect(unlisted).toMatchObject({ ok: false, error: { code: 'NOT_WHITELISTED' } });
  });

  it('one-click amounts are per chain: a chain’s own amount wins, and the card names network, slippage and service', async () => {
    await services.updateSettings({
      ...services.settings(),
      oneClickAmount: '0.1',
      oneClickAmounts: { '1': '0.3' },
    });
    const answer = await send({ type: 'oneClickQuote', chainId: 1, token: USDC.address }, 'content-script');
    expect(answer).toMatchObject({
      ok: true,
      result: {
        network: 'Ethereum',
        slippage: services.settings().slippage,
        service: new URL(services.settings().serviceBaseUrl).origin,
      },
    });
    const bodies = service.hits.filter((hit) => hit.path === '/v1/quote').map((hit) => hit.body);
    expect(bodies.at(-1)).toMatchObject({ inAmount: (3n * 10n ** 17n).toString() });
  });

  it('a one-click quote on a chain the service does not serve says so and names the chain', async () => {
    // Moonbeam: an explorer Swaplane knows (moonscan.io), outside the swap registry.
    const moonbeam = await send(
      { type: 'oneClickQuote', chainId: 1284, token: USDC.address },
      'content-script',
    );
    expect(moonbeam).toMatchObject({ ok: false, error: { code: 'CHAIN_NOT_SERVED' } });
    if (!moonbeam.ok)
      expect(moonbeam.error.message).toBe(
        'The swap service does not serve Moonbeam (chain 1284): no quote here.',
      );
    // Fantom: in the registry, but this service answers that it does not serve it.
    const fantom = await send({ type: 'oneClickQuote', chainId: 250, token: USDC.address }, 'content-script');
    expect(fantom).toMatchObject({ ok: false, error: { code: 'CHAIN_NOT_SERVED' } });
    if (!fantom.ok) expect(fantom.error.message).toMatch(/does not serve Fantom \(chain 250\)/);
  });

  it('names the chain of a user-added explorer host from the sender URL, for content scripts only', async () => {
    await services.updateSettings({
      ...services.settings(),
      explorerHosts: { 'explorer.example.org': 8453 },
    });
    const ask = (url: string | undefined) =>
      handleMessage(createHandlers(services), services, { type: 'explorerChain' }, 'content-script', { url });
    expect(await ask('https://explorer.example.org/token/0x1')).toEqual({
      ok: true,
      result: { chainId: 8453 },
    });
    expect(await ask('https://etherscan.io/')).toEqual({ ok: true, result: { chainId: 1 } });
    for (const url of ['https://explorer.example.org.evil.com/', 'http://explorer.example.org/', undefined]) {
      expect(await ask(url)).toEqual({ ok: true, result: { chainId: null } });
    }
    const add = { type: 'setExplorerHost', host: 'explorer.example.org', chainId: 1 };
    expect(await send(add, 'content-script')).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('turns service failures into user messages and unknown chains into UNKNOWN_CHAIN', async () => {
    service.behaviour.quoteFailure = { status: 503, times: 10 };
    const answer = await send({ type: 'oneClickQuote', chainId: 1, token: USDC.address });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.user?.title).toMatch(/unavailable/i);
    const chain = await send({ type: 'getTokenList', chainId: 999 });
    expect(chain).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHAIN' } });
  });

  it('runs the quote session and persists it in storage.session', async () => {
    const input = {
      chainId: 1,
      inToken: NATIVE_TOKEN_ADDRESS,
      outToken: USDC.address,
      inAmount: '1000',
      slippage: 0.5,
    };
    const answer = await send({ type: 'setQuoteInput', input });
    expect(answer).toMatchObject({ ok: true, result: { status: 'debouncing' } });
    await vi.waitFor(() => expect(services.session.getState().status).toBe('ready'));
    const stored = await quoteSessionItem.get();
    expect(stored?.quote?.outAmount).toBe('2000');
  });

  it('restores a persisted session when a new worker starts', async () => {
    const input = {
      chainId: 1,
      inToken: NATIVE_TOKEN_ADDRESS,
      outToken: USDC.address,
      inAmount: '5',
      slippage: 0.5,
    };
    await quoteSessionItem.set({ ...INITIAL_SESSION_STATE, revision: 9, status: 'loading', input });
    services.session.dispose();
    services = createBackgroundServices({ facts: chainFactsOf([native, ...listed]) });
    await services.ready;
    await vi.waitFor(() => expect(services.session.getState().status).toBe('ready'));
    expect(services.session.getState()).toMatchObject({ revision: 9, quote: { inAmount: '5' } });
  });
});

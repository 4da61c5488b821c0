// SECURITY.md, "Malicious extension messages": the real listener (registerBackgroundHandlers on the
// fake browser), messages from a content script, another extension and a web page, with real senders.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import { registerBackgroundHandlers } from '@/lib/background/router';
import { type BackgroundServices, createBackgroundServices } from '@/lib/background/services';
import { QUOTE_SESSION_PORT, RESULT_SCHEMAS, type Response } from '@/lib/messaging/protocol';
import { CONTENT_SCRIPT_REQUESTS, type Request, type RequestType } from '@/lib/messaging/requests';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import { settingsItem } from '@/lib/storage/items';
import * as TOKENS from '../support/addresses';

const ANVIL = 'test test test test test test test test test test test junk';
const ANVIL_KEY_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const PASSWORD = 'correct horse battery';
const ID = fakeBrowser.runtime.id;
const ORIGIN = `chrome-extension://${ID}/`;
const USDC = TOKENS.lowercase.USDC;
const EVIL_ROUTER = '0x000000000000000000000000000000000000bad1';

type Sender = { id?: string; url?: string; tab?: { id: number }; frameId?: number };
const VIEW: Sender = { id: ID, url: `${ORIGIN}popup.html` };
const CONTENT_SCRIPT: Sender = {
  id: ID,
  url: 'https://etherscan.io/token/0xdead',
  tab: { id: 7 },
  frameId: 0,
};
const SENDERS: Record<string, Sender> = {
  'another extension': { id: 'evilextensionidevilextensionid00', url: 'chrome-extension://evil/bg.html' },
  'another extension naming our popup as its URL': { id: 'evilextensionid', url: `${ORIGIN}popup.html` },
  'a web page (externally_connectable)': { url: 'https://evil.example/', tab: { id: 9 } },
  'no sender at all': {},
};

/** A valid example of every request a page must never get answered. */
const VIEW_ONLY: Request[] = [
  { type: 'getSettings' },
  { type: 'popupStart' },
  { type: 'previewSwap', approvalMode: 'exact' },
  { type: 'getPrices', chainId: 1, tokens: [USDC] },
  { type: 'quoteInsights', chainId: 1 },
  { type: 'quoteFee', chainId: 1 },
  { type: 'servedNetworks' },
  { type: 'listApprovals' },
  { type: 'previewRevoke', chainId: 1, token: USDC, spender: USDC },
  { type: 'revokeApproval', reviewId: 'r1' },
  { type: 'updateSettings', settings: { ...DEFAULT_SETTINGS, serviceBaseUrl: 'https://evil.example' } },
  { type: 'setExplorerHost', host: 'evil.example', chainId: 1 },
  { type: 'trustSettingsStatus' },
  { type: 'previewReplace', kind: 'cancel' },
  { type: 'replaceSwap', kind: 'cancel', reviewId: 'r1' },
  { type: 'pickerTokens', chainId: 1 },
  { type: 'holdings', chainId: 1 },
  { type: 'confirmTrustSettings' },
  { type: 'discardTrustChanges' },
  { type: 'getTokenList', chainId: 1 },
  {
    type: 'setQuoteInput',
    input: { chainId: 1, inToken: NATIVE_TOKEN_ADDRESS, outToken: USDC, inAmount: '1', slippage: 50 },
  },
  { type: 'markTyping' },
  { type: 'refreshQuote' },
  { type: 'takePrefill' },
  { type: 'walletState' },
  { type: 'walletStartCreate', words: 12 },
  { type: 'walletConfirmCreate', password: PASSWORD, confirmation: PASSWORD, answers: [] },
  { type: 'walletImport', kind: 'mnemonic', secret: ANVIL, password: 'x', confirmation: 'x' },
  { type: 'walletRestore', mnemonic: ANVIL, password: 'pwned-password-1', confirmation: 'pwned-password-1' },
  { type: 'walletUnlock', password: PASSWORD },
  { type: 'walletLock' },
  { type: 'walletAddAccount' },
  { type: 'walletImportKey', privateKey: ANVIL_KEY_0 },
  { type: 'walletRename', id: 'x', name: 'pwned' },
  { type: 'walletSetActive', id: 'x' },
  { type: 'walletReveal', password: PASSWORD, target: 'mnemonic' },
  { type: 'clipboardClearLater', digest: 'a'.repeat(64) },
  { type: 'walletChangePassword', password: PASSWORD, newPassword: 'x', confirmation: 'x' },
  { type: 'startSwap', approvalMode: 'unlimited', routerConsent: EVIL_ROUTER },
  { type: 'dismissSwap' },
  { type: 'getBalances', chainId: 1, tokens: [USDC] },
  // Dapps: the approval window's and the options page's requests.
  { type: 'dappApprovals' },
  { type: 'dappDecide', id: 'x', approve: true, password: PASSWORD },
  { type: 'dappSites' },
  { type: 'dappDisconnect', origin: 'https://app.example' },
  { type: 'dappGetSettings' },
  { type: 'dappSetSettings', settings: { exposeWindowEthereum: true } },
  { type: 'getHistory' },
];

let services: BackgroundServices;
/** The fake browser has no onConnect: its listeners are captured here (and the external events watched). */
let connectListeners: ((port: unknown) => void)[];
let externalListeners: number;

function connect(port: unknown): void {
  for (const listener of connectListeners) listener(port);
}

async function send(message: unknown, sender: Sender): Promise<Response> {
  // The background answers through sendResponse and returns true (kept open), as browsers expect.
  const trigger = fakeBrowser.runtime.onMessage.trigger as unknown as (
    ...args: unknown[]
  ) => Promise<unknown[]>;
  let respond: (response: Response) => void = () => undefined;
  const answered = new Promise<Response>((resolve) => {
    respond = resolve;
  });
  const returned = await trigger(message, sender, respond);
  expect(returned).toEqual([true]);
  return answered;
}

beforeEach(async () => {
  fakeBrowser.reset();
  connectListeners = [];
  externalListeners = 0;
  vi.spyOn(fakeBrowser.runtime.onConnect, 'addListener').mockImplementation((listener) => {
    connectListeners.push(listener as (port: unknown) => void);
  });
  for (const event of [fakeBrowser.runtime.onMessageExternal, fakeBrowser.runtime.onConnectExternal]) {
    vi.spyOn(event, 'addListener').mockImplementation(() => {
      externalListeners++;
    });
  }
  await settingsItem.set({ ...DEFAULT_SETTINGS, serviceBaseUrl: 'http://127.0.0.1:9' });
  services = createBackgroundServices({ kdf: { iterations: 1_000, minIterations: 1_000 } });
  registerBackgroundHandlers(services);
  await services.ready;
  const imported = await send(
    { type: 'walletImport', kind: 'mnemonic', secret: ANVIL, password: PASSWORD, confirmation: PASSWORD },
    VIEW,
  );
  expect(imported).toMatchObject({ ok: true, result: { status: 'unlocked' } });
});
afterEach(() => {
  services.session.dispose();
  vi.restoreAllMocks();
});

describe('a content script (code in a page the user visits)', () => {
  it('the protocol lists exactly its six calls, and every other request is view-only', () => {
    // explorerChain answers from the sender URL the browser reports, never from page-supplied data;
    // dappResume answers only the frame and origin the browser reports for the sender.
    expect([...CONTENT_SCRIPT_REQUESTS].sort()).toEqual(
      [
        'dappInit',
        'dappRequest',
        'dappResume',
        'explorerChain',
        'lookupToken',
        'oneClickQuote',
        'openPopupPrefilled',
        'tokenSafety',
        'whitelistedTokens',
      ].sort(),
    );
    const covered = new Set<RequestType>([
      ...VIEW_ONLY.map((request) => request.type),
      ...CONTENT_SCRIPT_REQUESTS,
    ]);
    // A new request type must be added to VIEW_ONLY above (or consciously to CONTENT_SCRIPT_REQUESTS).
    const all = Object.keys(RESULT_SCHEMAS);
    expect(all.filter((type) => !covered.has(type as RequestType))).toEqual([]);
  });

  it('is refused walletReveal, startSwap (sign), updateSettings and every other view-only request', async () => {
    for (const request of VIEW_ONLY) {
      const answer = await send(request, CONTENT_SCRIPT);
      expect(answer, request.type).toEqual({
        ok: false,
        error: { code: 'FORBIDDEN', message: `A page cannot ask for ${request.type}.` },
      });
    }
    // Nothing happened: same settings, still unlocked, one account, no swap, no secret in any answer.
    expect(services.settings().serviceBaseUrl).toBe('http://127.0.0.1:9');
    const state = await send({ type: 'walletState' }, VIEW);
    expect(state).toMatchObject({ ok: true, result: { status: 'unlocked', accounts: [{}] } });
    expect(services.swaps.current()).toBeNull();
    expect(services.session.getState().status).toBe('idle');
  });

  it('never gets a secret back, even in an error', async () => {
    const answers: Response[] = [];
    for (const request of VIEW_ONLY) answers.push(await send(request, CONTENT_SCRIPT));
    const text = JSON.stringify(answers);
    expect(text).not.toContain('junk');
    expect(text).not.toContain(ANVIL_KEY_0.slice(2));
    expect(text).not.toContain(PASSWORD);
  });

  it('its own calls are validated like any other: bad addresses and oversized batches are refused', async () => {
    const bad = [
      { type: 'oneClickQuote', chainId: 1, token: 'javascript:alert(1)' },
      { type: 'openPopupPrefilled', chainId: 1, token: `${USDC}00` },
      { type: 'openPopupPrefilled', chainId: -1, token: USDC },
      { type: 'whitelistedTokens', chainId: 1, addresses: Array.from({ length: 501 }, () => USDC) },
      { type: 'lookupToken', chainId: 1, address: 'x'.repeat(101) },
    ];
    for (const message of bad) {
      expect(await send(message, CONTENT_SCRIPT), JSON.stringify(message).slice(0, 80)).toMatchObject({
        ok: false,
        error: { code: 'BAD_MESSAGE' },
      });
    }
  });

  it('cannot follow the quote session or the swap through a port', () => {
    let disconnected = 0;
    const port = {
      name: QUOTE_SESSION_PORT,
      sender: CONTENT_SCRIPT,
      disconnect: () => disconnected++,
      postMessage: () => {
        throw new Error('a page must not get session state');
      },
      onDisconnect: { addListener: () => undefined },
      onMessage: { addListener: () => undefined },
    };
    connect(port);
    expect(disconnected).toBe(1);
  });
});

describe('senders that are not this extension', () => {
  for (const [name, sender] of Object.entries(SENDERS)) {
    it(`${name}: every request refused as FORBIDDEN, even a page's own`, async () => {
      for (const request of [{ type: 'explorerChain' }, ...VIEW_ONLY] as Request[]) {
        expect(await send(request, sender)).toEqual({
          ok: false,
          error: { code: 'FORBIDDEN', message: 'Unknown sender.' },
        });
      }
      expect(services.settings().serviceBaseUrl).toBe('http://127.0.0.1:9');
    });
  }

  it('a port from another extension is disconnected', () => {
    let disconnected = 0;
    connect({
      name: QUOTE_SESSION_PORT,
      sender: SENDERS['another extension'],
      disconnect: () => disconnected++,
      postMessage: () => {
        throw new Error('no state for strangers');
      },
      onDisconnect: { addListener: () => undefined },
    });
    expect(disconnected).toBe(1);
  });

  it('the background listens on runtime.onMessage only, never onMessageExternal / onConnectExternal', () => {
    expect(fakeBrowser.runtime.onMessage.hasListeners()).toBe(true);
    expect(connectListeners).toHaveLength(1);
    expect(externalListeners).toBe(0);
  });
});

describe('the popup itself (a view) is still answered', () => {
  it('walletReveal with the password, from the extension origin', async () => {
    expect(await send({ type: 'walletReveal', password: PASSWORD, target: 'mnemonic' }, VIEW)).toEqual({
      ok: true,
      result: { secret: ANVIL },
    });
  });
});

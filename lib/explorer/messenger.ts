// The content script's side of the protocol (lib/messaging/protocol.ts), without zod: the bundle must
// stay tiny, so every answer is checked by hand (typeof, regex) before anything reads it. The background
// validates requests; this side only trusts answers of the exact expected shape.
// `wxt/browser` is the browser's native API in this bundle (wxt.config.ts): runtime.sendMessage returns a
// promise natively in Chromium MV3 and Firefox, so the polyfill is left out to keep the bundle small.
import { browser } from 'wxt/browser';
import { readSafety, type SafetyWords } from './safety-text';

export interface UserText {
  title: string;
  detail: string;
  action: string;
}

export interface Failure {
  code: string;
  message: string;
  user?: UserText;
}

export type Outcome<T> = { ok: true; result: T } | { ok: false; error: Failure };

/** A one-click quote: `inAmount` of the native coin into the token, amounts in smallest units. */
export interface OneClickQuote {
  inAmount: bigint;
  inDecimals: number;
  outAmount: bigint;
  outDecimals: number;
  minReceived: bigint;
  inSymbol: string;
  outSymbol: string;
  network: string;
  /** Percent. */
  slippage: number;
  /** Origin of the swap service that answered. */
  service: string;
}

export interface Messenger {
  /** Which of `addresses` (<= 500) are whitelisted tokens, lowercase. */
  whitelistedTokens(chainId: number, addresses: string[]): Promise<Outcome<string[]>>;
  oneClickQuote(chainId: number, token: string): Promise<Outcome<OneClickQuote>>;
  /** True when the real popup opened, false when a tab with the popup page did instead. */
  openPopupPrefilled(chainId: number, token: string, amount?: bigint): Promise<Outcome<boolean>>;
  /** A simulated buy and sell-back of a token not on the service's list. */
  tokenSafety(chainId: number, token: string): Promise<Outcome<SafetyWords>>;
  /** The chain of this page's host as the background sees it (a host the user added), or null. */
  explorerChain(): Promise<Outcome<number | null>>;
}

type Send = (message: unknown) => Promise<unknown>;
type Json = Record<string, unknown>;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT = /^\d{1,78}$/;

/** The value as an object to probe, or an empty one: every check below is then a typeof. */
const json = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});
const strings = (value: Json, keys: string[]) => keys.every((key) => typeof value[key] === 'string');
const isDecimals = (value: unknown) =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 255;

function readAddresses(result: unknown): string[] | undefined {
  if (Array.isArray(result) && result.every((entry) => typeof entry === 'string' && ADDRESS.test(entry))) {
    return result.map((entry: string) => entry.toLowerCase());
  }
}

function readQuote(result: unknown): OneClickQuote | undefined {
  const answer = json(result);
  const quote = json(answer.quote);
  const amounts = ['inAmount', 'outAmount', 'minReceived'];
  if (
    strings(answer, ['inSymbol', 'outSymbol', 'network', 'service']) &&
    typeof answer.slippage === 'number' &&
    Number.isFinite(answer.slippage) &&
    strings(quote, amounts) &&
    amounts.every((key) => UINT.test(quote[key] as string)) &&
    isDecimals(quote.inDecimals) &&
    isDecimals(quote.outDecimals)
  ) {
    return {
      inAmount: BigInt(quote.inAmount as string),
      inDecimals: quote.inDecimals as number,
      outAmount: BigInt(quote.outAmount as string),
      outDecimals: quote.outDecimals as number,
      minReceived: BigInt(quote.minReceived as string),
      inSymbol: answer.inSymbol as string,
      outSymbol: answer.outSymbol as string,
      network: answer.network as string,
      slippage: answer.slippage as number,
      service: answer.service as string,
    };
  }
}

function readOpened(result: unknown): boolean | undefined {
  const { opened } = json(result);
  return typeof opened === 'boolean' ? opened : undefined;
}

function readChain(result: unknown): number | null | undefined {
  const { chainId } = json(result);
  return chainId === null || (Number.isSafeInteger(chainId) && (chainId as number) > 0)
    ? (chainId as number | null)
    : undefined;
}

function readFailure(value: unknown): Failure | undefined {
  const error = json(value);
  const user = json(error.user);
  if (!strings(error, ['code', 'message'])) return;
  const failure = { code: error.code, message: error.message } as Failure;
  if (strings(user, ['title', 'detail', 'action'])) {
    failure.user = { title: user.title, detail: user.detail, action: user.action } as UserText;
  }
  return failure;
}

const fail = (code: string, message: string): Outcome<never> => ({ ok: false, error: { code, message } });

async function call<T>(
  send: Send,
  message: Json,
  read: (result: unknown) => T | undefined,
): Promise<Outcome<T>> {
  let answer: Json;
  try {
    answer = json(await send(message));
  } catch {
    // Typically "Extension context invalidated" after an update: only a reload brings Swaplane back.
    return fail('UNREACHABLE', 'Swaplane is not responding. Reload the page.');
  }
  const result = answer.ok === true ? read(answer.result) : undefined;
  if (result !== undefined) return { ok: true, result };
  const error = answer.ok === false ? readFailure(answer.error) : undefined;
  return error ? { ok: false, error } : fail('BAD_RESPONSE', 'Swaplane sent an answer it cannot read.');
}

export function createMessenger(send: Send = (message) => browser.runtime.sendMessage(message)): Messenger {
  return {
    whitelistedTokens: (chainId, addresses) =>
      call(send, { type: 'whitelistedTokens', chainId, addresses }, readAddresses),
    oneClickQuote: (chainId, token) => call(send, { type: 'oneClickQuote', chainId, token }, readQuote),
    openPopupPrefilled: (chainId, token, amount) =>
      call(
        send,
        { type: 'openPopupPrefilled', chainId, token, ...(amount ? { amount: amount.toString() } : {}) },
        readOpened,
      ),
    explorerChain: () => call(send, { type: 'explorerChain' }, readChain),
    tokenSafety: (chainId, token) => call(send, { type: 'tokenSafety', chainId, token }, readSafety),
  };
}

import { encodeFunctionData, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { NATIVE_TOKEN_ADDRESS, type Quote, type QuoteRequest } from '@/lib/api/schema';
import { buildCheckMessage, checkBuild, isConsentReason } from '@/lib/swap/build-checks';
import { ROUTER_SWAP_ABI } from '@/lib/swap/router-abi';
import { USDC, WETH } from '../support/addresses';
import { quoteFixture, requestOf } from '../support/quotes';
import { ACCOUNT, POOL, ROUTER, ZERO_ADDRESS } from '../support/swaps';

const OTHER = '0x2222222222222222222222222222222222222222';
const ME = ACCOUNT;
const ZERO = ZERO_ADDRESS;

// 1 ETH for 3,000 USDC on Ethereum at 0.5% (quoteFixture's defaults), and the request it answers.
const quote: Quote = quoteFixture({
  bestRoute: [{ percent: 100, swaps: [{ pool: POOL, tokenIn: WETH, tokenOut: USDC }] }],
  contractAddress: OTHER,
});
const request: QuoteRequest = requestOf(quote);

function calldata(
  over: { inToken?: Hex; inAmount?: bigint; minReceived?: bigint; recipient?: Hex } = {},
): Hex {
  return encodeFunctionData({
    abi: ROUTER_SWAP_ABI,
    functionName: 'swap',
    args: [
      over.inToken ?? NATIVE_TOKEN_ADDRESS,
      USDC,
      over.inAmount ?? 10n ** 18n,
      over.minReceived ?? 2_985_000_000n,
      [{ percent: 100, hops: [{ pool: POOL, tokenIn: WETH, tokenOut: USDC }] }],
      over.recipient ?? ZERO,
      0n,
    ],
  });
}

const build = { to: ROUTER, transaction: calldata(), value: '1000000000000000000' };
const base = { request, quote, build, account: ME, pinnedRouter: ROUTER };

describe('checkBuild', () => {
  it('accepts a build that matches the quote and the pinned router (any letter case)', () => {
    expect(checkBuild({ ...base, pinnedRouter: ROUTER.toLowerCase() })).toEqual({
      ok: true,
      router: ROUTER,
      pin: false,
      calldata: { readable: true, family: 'swaplane-router' },
    });
  });

  it('asks consent for a first router, and for a changed one; consent to that address passes and pins', () => {
    const first = checkBuild({ ...base, pinnedRouter: undefined });
    expect(first).toEqual({ ok: false, reason: { code: 'ROUTER_UNPINNED', router: ROUTER } });
    const changed = checkBuild({ ...base, build: { ...build, to: OTHER } });
    expect(changed).toEqual({ ok: false, reason: { code: 'ROUTER_CHANGED', router: OTHER, pinned: ROUTER } });
    if (!changed.ok) {
      expect(isConsentReason(changed.reason)).toBe(true);
      expect(buildCheckMessage(changed.reason).title).toBe('Swap contract changed');
    }
    expect(checkBuild({ ...base, build: { ...build, to: OTHER }, consentRouter: OTHER })).toMatchObject({
      ok: true,
      pin: true,
    });
    // Consent to another address does not carry over.
    expect(checkBuild({ ...base, build: { ...build, to: OTHER }, consentRouter: ROUTER }).ok).toBe(false);
  });

  it('checks the rest before asking consent: a wrong build never reaches the consent prompt', () => {
    const result = checkBuild({ ...base, pinnedRouter: undefined, build: { ...build, value: '0' } });
    expect(!result.ok && result.reason.code).toBe('VALUE_MISMATCH');
  });

  it('value must be inAmount for native input and 0 for ERC-20 input', () => {
    const wrong = checkBuild({ ...base, build: { ...build, value: '999' } });
    expect(wrong).toEqual({
      ok: false,
      reason: { code: 'VALUE_MISMATCH', expected: '1000000000000000000', actual: '999' },
    });
    const erc20Quote = { ...quote, inToken: USDC, outToken: NATIVE_TOKEN_ADDRESS } as Quote;
    const erc20Request = { ...request, inToken: USDC, outToken: NATIVE_TOKEN_ADDRESS };
    const erc20 = checkBuild({
      ...base,
      quote: erc20Quote,
      request: erc20Request,
      build: { to: ROUTER, transaction: '0x12345678', value: '1' },
    });
    expect(!erc20.ok && erc20.reason.code).toBe('VALUE_MISMATCH');
    const fine = checkBuild({
      ...base,
      quote: erc20Quote,
      request: erc20Request,
      build: { to: ROUTER, transaction: '0x12345678', value: '0' },
    });
    // An unknown call is refused by default ("Only sign swap calls Swaplane can read")...
    expect(fine).toMatchObject({
      ok: false,
      reason: { code: 'CALLDATA_UNREADABLE', selector: '0x12345678' },
    });
    // ...and with the setting off, left to the asset-change simulation and the user's acknowledgement.
    const allowed = checkBuild({
      ...base,
      quote: erc20Quote,
      request: erc20Request,
      build: { to: ROUTER, transaction: '0x12345678', value: '0' },
      unreadable: 'allow',
    });
    expect(allowed).toMatchObject({ ok: true, calldata: { readable: false, family: null } });
  });

  it('refuses empty or malformed calldata', () => {
    expect(checkBuild({ ...base, build: { ...build, transaction: '0x' } })).toEqual({
      ok: false,
      reason: { code: 'CALLDATA_EMPTY' },
    });
    expect(checkBuild({ ...base, build: { ...build, transaction: '0x1234' } })).toMatchObject({ ok: false });
    expect(checkBuild({ ...base, build: { ...build, transaction: 'nothex' } })).toEqual({
      ok: false,
      reason: { code: 'CALLDATA_MALFORMED' },
    });
    // The swap selector with truncated arguments.
    const truncated = calldata().slice(0, 80);
    expect(checkBuild({ ...base, build: { ...build, transaction: truncated } })).toEqual({
      ok: false,
      reason: { code: 'CALLDATA_MALFORMED' },
    });
  });

  it('the router call must carry the quote: amount, a minimum at least the quote’s, the signer as recipient', () => {
    const code = (transaction: Hex) => {
      const result = checkBuild({ ...base, build: { ...build, transaction } });
      return result.ok
        ? 'ok'
        : result.reason.code === 'CALLDATA_MISMATCH'
          ? result.reason.field
          : result.reason.code;
    };
    expect(code(calldata({ inAmount: 1n }))).toBe('inAmount');
    expect(code(calldata({ inToken: WETH }))).toBe('inToken');
    expect(code(calldata({ minReceived: 2_984_999_999n }))).toBe('minReceived');
    expect(code(calldata({ minReceived: 3_000_000_000n }))).toBe('ok'); // stricter is fine
    expect(code(calldata({ recipient: OTHER }))).toBe('recipient');
    expect(code(calldata({ recipient: ME }))).toBe('ok');
  });

  it('re-verifies the quote: request match and a consistent minReceived', () => {
    const above = checkBuild({ ...base, quote: { ...quote, minReceived: '3000000001' } });
    expect(!above.ok && above.reason.code === 'QUOTE_MISMATCH' && above.reason.verify.code).toBe(
      'MIN_RECEIVED_ABOVE_OUT',
    );
    const other = checkBuild({ ...base, request: { ...request, inAmount: '5' } });
    expect(!other.ok && other.reason.code === 'QUOTE_MISMATCH' && other.reason.verify.code).toBe(
      'AMOUNT_MISMATCH',
    );
    if (!above.ok) expect(buildCheckMessage(above.reason).title).toBe('Quote is inconsistent');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmount } from '@/lib/amounts';
import { formatUnits } from '@/lib/explorer/format';
import { createMessenger } from '@/lib/explorer/messenger';
import { CONTENT_SCRIPT_REQUESTS, RequestSchema } from '@/lib/messaging/requests';
import { USDC } from '../support/addresses';
import { quoteFixture } from '../support/quotes';

/** A messenger whose background answers `answer` and records what was sent. */
function withAnswer(answer: unknown) {
  const sent: unknown[] = [];
  const messenger = createMessenger(async (message) => {
    sent.push(message);
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { messenger, sent };
}

const quote = quoteFixture({
  outAmount: '2950123456',
  minReceived: '2935372838',
  bestRoute: [],
  contractAddress: '0x0000000000000000000000000000000000000001',
  blockNumber: 1,
});

/** What the card shows beside the amounts. */
const CARD = {
  inSymbol: 'ETH',
  outSymbol: 'USDC',
  network: 'Ethereum',
  slippage: 0.5,
  service: 'http://127.0.0.1:8787',
};

describe('messenger: requests', () => {
  it('sends exactly the content-script protocol messages', async () => {
    const { messenger, sent } = withAnswer({ ok: true, result: [] });
    await messenger.whitelistedTokens(1, [USDC.toLowerCase()]);
    await messenger.oneClickQuote(8453, USDC);
    await messenger.openPopupPrefilled(10, USDC);
    await messenger.openPopupPrefilled(10, USDC, 10n ** 17n);
    await messenger.explorerChain();
    expect(sent).toEqual([
      { type: 'whitelistedTokens', chainId: 1, addresses: [USDC.toLowerCase()] },
      { type: 'oneClickQuote', chainId: 8453, token: USDC },
      { type: 'openPopupPrefilled', chainId: 10, token: USDC },
      { type: 'openPopupPrefilled', chainId: 10, token: USDC, amount: '100000000000000000' },
      { type: 'explorerChain' },
    ]);
    for (const message of sent) {
      const parsed = RequestSchema.safeParse(message);
      expect(parsed.success && CONTENT_SCRIPT_REQUESTS.has(parsed.data.type)).toBe(true);
    }
  });
});

describe('messenger: explorerChain', () => {
  it.each([
    [{ chainId: 8453 }, 8453],
    [{ chainId: null }, null],
  ])('accepts %j', async (result, chainId) => {
    const { messenger } = withAnswer({ ok: true, result });
    expect(await messenger.explorerChain()).toEqual({ ok: true, result: chainId });
  });

  it.each([[{ chainId: '1' }], [{ chainId: 0 }], [{ chainId: 1.5 }], [{ chainId: -1 }], [{}], [null]])(
    'refuses %j',
    async (result) => {
      const { messenger } = withAnswer({ ok: true, result });
      expect(await messenger.explorerChain()).toMatchObject({ ok: false, error: { code: 'BAD_RESPONSE' } });
    },
  );
});

describe('messenger: answers are checked by hand before use', () => {
  it('whitelistedTokens: addresses, lowercased', async () => {
    const { messenger } = withAnswer({ ok: true, result: [USDC] });
    expect(await messenger.whitelistedTokens(1, [])).toEqual({ ok: true, result: [USDC.toLowerCase()] });
  });

  it.each([
    [{ ok: true, result: ['0x123'] }],
    [{ ok: true, result: [[USDC]] }],
    [{ ok: true, result: [USDC, 7] }],
    [{ ok: true, result: { 0: USDC } }],
    [{ ok: true }],
  ])('whitelistedTokens refuses %j', async (answer) => {
    const { messenger } = withAnswer(answer);
    expect(await messenger.whitelistedTokens(1, [])).toMatchObject({
      ok: false,
      error: { code: 'BAD_RESPONSE' },
    });
  });

  it('oneClickQuote: bigint amounts, decimals and symbols', async () => {
    const { messenger } = withAnswer({ ok: true, result: { quote, ...CARD } });
    expect(await messenger.oneClickQuote(1, USDC)).toEqual({
      ok: true,
      result: {
        inAmount: 10n ** 18n,
        inDecimals: 18,
        outAmount: 2_950_123_456n,
        outDecimals: 6,
        minReceived: 2_935_372_838n,
        ...CARD,
      },
    });
  });

  it.each([
    ['amount as a number', { quote: { ...quote, outAmount: 2950123456 }, ...CARD }],
    ['negative amount', { quote: { ...quote, outAmount: '-1' }, ...CARD }],
    ['decimal amount', { quote: { ...quote, minReceived: '1.5' }, ...CARD }],
    ['hex amount', { quote: { ...quote, inAmount: '0x10' }, ...CARD }],
    ['huge amount', { quote: { ...quote, outAmount: '9'.repeat(79) }, ...CARD }],
    ['decimals out of range', { quote: { ...quote, outDecimals: 256 }, ...CARD }],
    ['fractional decimals', { quote: { ...quote, inDecimals: 1.5 }, ...CARD }],
    ['missing symbol', { quote, ...CARD, outSymbol: undefined }],
    ['missing network', { quote, ...CARD, network: undefined }],
    ['slippage as text', { quote, ...CARD, slippage: '0.5' }],
    ['missing service', { quote, ...CARD, service: undefined }],
    ['symbol as object', { quote, ...CARD, outSymbol: { toString: 'x' } }],
    ['no quote', { ...CARD }],
    ['null', null],
  ])('oneClickQuote refuses %s', async (_, result) => {
    const { messenger } = withAnswer({ ok: true, result });
    expect(await messenger.oneClickQuote(1, USDC)).toMatchObject({
      ok: false,
      error: { code: 'BAD_RESPONSE' },
    });
  });

  it('openPopupPrefilled: whether the real popup opened', async () => {
    expect(
      await withAnswer({ ok: true, result: { opened: true } }).messenger.openPopupPrefilled(1, USDC),
    ).toEqual({
      ok: true,
      result: true,
    });
    expect(
      await withAnswer({ ok: true, result: { opened: 'yes' } }).messenger.openPopupPrefilled(1, USDC),
    ).toMatchObject({ ok: false, error: { code: 'BAD_RESPONSE' } });
  });

  it('errors: code and message, and the user message when it is complete', async () => {
    const user = {
      title: 'Swap service is unavailable',
      detail: 'Trouble.',
      action: 'Try again in a few minutes.',
    };
    const full = withAnswer({ ok: false, error: { code: 'SERVICE-UNAVAILABLE', message: user.title, user } });
    expect(await full.messenger.oneClickQuote(1, USDC)).toEqual({
      ok: false,
      error: { code: 'SERVICE-UNAVAILABLE', message: user.title, user },
    });
    const partial = withAnswer({ ok: false, error: { code: 'X', message: 'm', user: { title: 't' } } });
    expect(await partial.messenger.oneClickQuote(1, USDC)).toEqual({
      ok: false,
      error: { code: 'X', message: 'm' },
    });
    const extra = withAnswer({ ok: false, error: { code: 'X', message: 'm', stack: 'secret', user } });
    expect(await extra.messenger.oneClickQuote(1, USDC)).toEqual({
      ok: false,
      error: { code: 'X', message: 'm', user },
    });
  });

  it.each([
    [undefined],
    ['ok'],
    [42],
    [{}],
    [{ ok: 'true', result: [] }],
    [{ ok: false }],
    [{ ok: false, error: { code: 1, message: 'm' } }],
    [{ ok: false, error: 'down' }],
  ])('an unreadable answer %j is BAD_RESPONSE', async (answer) => {
    const { messenger } = withAnswer(answer);
    expect(await messenger.whitelistedTokens(1, [])).toMatchObject({
      ok: false,
      error: { code: 'BAD_RESPONSE' },
    });
  });

  it('a thrown sendMessage (extension reloaded) is UNREACHABLE, never a throw', async () => {
    const { messenger } = withAnswer(new Error('Extension context invalidated.'));
    const answer = await messenger.oneClickQuote(1, USDC);
    expect(answer).toMatchObject({ ok: false, error: { code: 'UNREACHABLE' } });
    if (!answer.ok) expect(answer.error.message).toMatch(/reload/i);
  });
});

describe('formatUnits: the display rule of lib/amounts, small enough for the content script', () => {
  it.each([
    [0n, 6, '0'],
    [1n, 18, '<0.000001'],
    [999_999_999_999n, 18, '<0.000001'],
    [1_000_000_000_000n, 18, '0.000001'],
    [2_950_123_456n, 6, '2,950.12'],
    [10n ** 18n, 18, '1'],
    [1_234_567_891_234n, 6, '1,234,567.89'],
    [123_456_789n, 7, '12.3456'],
    [10n ** 30n, 0, '1,000,000,000,000,000,000,000,000,000,000'],
  ])('%s with %i decimals -> %s', (value, decimals, expected) => {
    expect(formatUnits(value, decimals)).toBe(expected);
  });

  it('equals formatAmount with default options for every non-negative amount', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
        fc.integer({ min: 0, max: 36 }),
        (value, decimals) => {
          expect(formatUnits(value, decimals)).toBe(formatAmount(value, decimals));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

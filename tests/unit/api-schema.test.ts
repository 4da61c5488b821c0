import { describe, expect, it } from 'vitest';
import {
  AddressSchema,
  AmountStringSchema,
  BestRouteSchema,
  BuildResponseSchema,
  ChainIdSchema,
  ErrorBodySchema,
  IsoTimestampSchema,
  QuoteRequestSchema,
  QuoteResponseSchema,
  QuoteSchema,
  TokenListResponseSchema,
  TokenSearchResponseSchema,
} from '@/lib/api/schema';
import { USDC, WETH } from '../support/addresses';
import { quoteFixture } from '../support/quotes';
import { USDC_LISTED } from '../support/tokens';

const token = USDC_LISTED;

function makeQuote(): Record<string, unknown> {
  return {
    ...quoteFixture({ inToken: WETH, blockNumber: 19_000_000 }),
    bestRoute: [
      {
        percent: 100,
        swaps: [{ dex: 'uniswap-v2', pool: WETH, amountIn: '1', amountOut: '2', hopExtra: { fee: 30 } }],
        shareExtra: 'kept',
      },
    ],
  };
}

const ok = (schema: { safeParse: (v: unknown) => { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

describe('AddressSchema', () => {
  it.each([
    '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    '0xA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48',
    USDC,
    '0x0000000000000000000000000000000000000000',
  ])('accepts %s (any letter case)', (address) => {
    expect(ok(AddressSchema, address)).toBe(true);
  });

  it.each([
    ['no prefix', 'a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'],
    ['upper-case prefix', '0XA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
    ['39 digits', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB4'],
    ['41 digits', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB481'],
    ['non-hex digit', '0xG0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
    ['surrounding space', ` ${USDC}`],
    ['trailing newline', `${USDC}\n`],
    ['empty', ''],
    ['number', 1],
  ])('refuses %s', (_label, address) => {
    expect(ok(AddressSchema, address)).toBe(false);
  });
});

describe('AmountStringSchema', () => {
  it.each(['0', '1', '1000000000000000000', (2n ** 256n - 1n).toString()])('accepts %s', (amount) => {
    expect(ok(AmountStringSchema, amount)).toBe(true);
  });

  it.each([
    '-1',
    '1.5',
    '1e18',
    '+1',
    '',
    ' 1',
    '1 ',
    '01',
    '00',
    '0x10',
    '1_000',
    '１', // full-width digit
    (2n ** 256n).toString(), // 78 digits, one past uint256
    '9'.repeat(78),
    '1'.repeat(79),
  ])('refuses %j', (amount) => {
    expect(ok(AmountStringSchema, amount)).toBe(false);
  });

  it('refuses numbers and bigints: amounts are strings on the wire', () => {
    expect(ok(AmountStringSchema, 1)).toBe(false);
    expect(ok(AmountStringSchema, 1n)).toBe(false);
  });
});

describe('ChainIdSchema', () => {
  it.each([1, 10, 8453, 42161, Number.MAX_SAFE_INTEGER])('accepts %d', (id) => {
    expect(ok(ChainIdSchema, id)).toBe(true);
  });

  it.each([0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN, Number.POSITIVE_INFINITY, '1', null])(
    'refuses %s',
    (id) => {
      expect(ok(ChainIdSchema, id)).toBe(false);
    },
  );
});

describe('route shares', () => {
  const share = (percent: number) => ({ percent, swaps: [{}] });

  it.each([[[100]], [[50, 50]], [[33.3, 33.3, 33.4]], [[0.1, 99.9]], [[10, 20, 30, 40]]])(
    'accepts shares %j',
    (percents) => {
      expect(ok(BestRouteSchema, percents.map(share))).toBe(true);
    },
  );

  it.each([
    ['a zero share', [0, 100]],
    ['a negative share', [-10, 110]],
    ['a share above 100', [101]],
    ['a sum under 100', [50, 40]],
    ['a sum over 100', [60, 60]],
    ['no share at all', []],
  ])('refuses %s', (_label, percents) => {
    expect(ok(BestRouteSchema, percents.map(share))).toBe(false);
  });

  it('refuses a share without swaps', () => {
    expect(ok(BestRouteSchema, [{ percent: 100, swaps: [] }])).toBe(false);
  });
});

describe('IsoTimestampSchema', () => {
  it.each(['2024-05-01T12:00:00Z', '2024-05-01T12:00:00.123Z', '2024-05-01T12:00:00+02:00'])(
    'accepts %s',
    (t) => {
      expect(ok(IsoTimestampSchema, t)).toBe(true);
    },
  );

  it.each([
    '2024-05-01',
    '2024-05-01T12:00:00', // no zone: ambiguous
    '2024-13-01T12:00:00Z',
    '2024-02-30T12:00:00Z',
    'yesterday',
    '',
    1714564800000,
  ])('refuses %j', (t) => {
    expect(ok(IsoTimestampSchema, t)).toBe(false);
  });
});

describe('QuoteRequestSchema', () => {
  const request = { chainId: 1, inToken: WETH, outToken: USDC, inAmount: '1000', slippage: 0.5 };

  it('accepts a request with and without refCode', () => {
    expect(ok(QuoteRequestSchema, request)).toBe(true);
    expect(ok(QuoteRequestSchema, { ...request, refCode: 7 })).toBe(true);
  });

  it('refuses a negative or non-finite slippage and a float refCode', () => {
    expect(ok(QuoteRequestSchema, { ...request, slippage: -1 })).toBe(false);
    expect(ok(QuoteRequestSchema, { ...request, slippage: Number.POSITIVE_INFINITY })).toBe(false);
    expect(ok(QuoteRequestSchema, { ...request, refCode: 1.5 })).toBe(false);
  });

  it('drops fields the contract does not define, so they are never sent', () => {
    const parsed = QuoteRequestSchema.parse({ ...request, junk: true });
    expect(parsed).not.toHaveProperty('junk');
  });
});

describe('QuoteSchema', () => {
  it('accepts a full quote', () => {
    expect(ok(QuoteSchema, makeQuote())).toBe(true);
  });

  it('keeps unknown fields at every level, for /build', () => {
    const raw = { ...makeQuote(), quoteId: 'q-1', meta: { nested: [1, 'two', { three: 3 }] } };
    const parsed = QuoteSchema.parse(raw);
    expect(parsed).toEqual(raw);
    expect(parsed.quoteId).toBe('q-1');
    expect(parsed.bestRoute[0]?.shareExtra).toBe('kept');
    expect(parsed.bestRoute[0]?.swaps[0]).toMatchObject({ hopExtra: { fee: 30 } });
  });

  it.each([
    'chainId',
    'inToken',
    'inDecimals',
    'inAmount',
    'outToken',
    'outDecimals',
    'outAmount',
    'slippage',
    'minReceived',
    'bestRoute',
    'contractAddress',
    'contractMethod',
    'blockNumber',
  ])('requires %s', (field) => {
    const raw = makeQuote();
    delete raw[field];
    expect(ok(QuoteSchema, raw)).toBe(false);
  });

  it('refuses amounts as numbers and malformed addresses', () => {
    expect(ok(QuoteSchema, { ...makeQuote(), outAmount: 3000000000 })).toBe(false);
    expect(ok(QuoteSchema, { ...makeQuote(), minReceived: '2985000000.0' })).toBe(false);
    expect(ok(QuoteSchema, { ...makeQuote(), contractAddress: '0x1234' })).toBe(false);
  });

  it('wraps in the success envelope with an ISO timestamp', () => {
    const envelope = { success: true, data: makeQuote(), timestamp: '2024-05-01T12:00:00Z' };
    expect(ok(QuoteResponseSchema, envelope)).toBe(true);
    expect(ok(QuoteResponseSchema, { ...envelope, success: false })).toBe(false);
    expect(ok(QuoteResponseSchema, { ...envelope, timestamp: 'now' })).toBe(false);
  });
});

describe('token lists', () => {
  const extensions = { opListId: 'list-1', opTokenId: 'token-1' };

  it('search entries require extensions', () => {
    expect(ok(TokenSearchResponseSchema, [{ ...token, extensions }])).toBe(true);
    expect(ok(TokenSearchResponseSchema, [token])).toBe(false);
    expect(ok(TokenSearchResponseSchema, [{ ...token, extensions: { opListId: 'x' } }])).toBe(false);
    expect(ok(TokenSearchResponseSchema, [])).toBe(true);
  });

  it('full-list entries may omit extensions, or carry them', () => {
    expect(ok(TokenListResponseSchema, [token, { ...token, address: WETH, extensions }])).toBe(true);
  });

  it('refuses a token with bad decimals or a bad address', () => {
    expect(ok(TokenListResponseSchema, [{ ...token, decimals: 256 }])).toBe(false);
    expect(ok(TokenListResponseSchema, [{ ...token, decimals: -1 }])).toBe(false);
    expect(ok(TokenListResponseSchema, [{ ...token, address: 'USDC' }])).toBe(false);
  });
});

describe('build and error bodies', () => {
  const build = { to: WETH, transaction: '0xdeadbeef', value: '0' };

  it('accepts a build result with even-length hex data', () => {
    expect(ok(BuildResponseSchema, { success: true, data: build, timestamp: '2024-05-01T12:00:00Z' })).toBe(
      true,
    );
    expect(
      ok(BuildResponseSchema, {
        success: true,
        data: { ...build, transaction: '0x' },
        timestamp: '2024-05-01T12:00:00Z',
      }),
    ).toBe(true);
  });

  it.each([
    ['odd hex', { ...build, transaction: '0xabc' }],
    ['no 0x', { ...build, transaction: 'deadbeef' }],
    ['numeric value', { ...build, value: 0 }],
    ['bad to', { ...build, to: '0x12' }],
  ])('refuses %s', (_label, data) => {
    expect(ok(BuildResponseSchema, { success: true, data, timestamp: '2024-05-01T12:00:00Z' })).toBe(false);
  });

  it('error bodies carry an UPPER_SNAKE code', () => {
    const body = {
      success: false,
      error: { code: 'QUOTE_OUTDATED', message: 'too old' },
      timestamp: '2024-05-01T12:00:00Z',
    };
    expect(ok(ErrorBodySchema, body)).toBe(true);
    expect(ok(ErrorBodySchema, { ...body, error: { code: 'quote outdated', message: 'x' } })).toBe(false);
  });
});

import { hashTypedData, type TypedDataDefinition } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeTypedData } from '@/lib/dapp/typed-data';
import { PERMIT_BATCH_TYPES, PERMIT2 } from '../support/typed-data';

const TOKEN = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const SPENDER = '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD';
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

const eip2612 = (value: string, deadline: string) => ({
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  },
  primaryType: 'Permit',
  domain: { name: 'USD Coin', version: '2', chainId: 1, verifyingContract: TOKEN },
  message: { owner: OWNER, spender: SPENDER.toLowerCase(), value, nonce: '0', deadline },
});

describe('typed data for the approval window', () => {
  it('an EIP-2612 permit: spender (checksummed), amount and expiry called out; every field listed', () => {
    const decoded = decodeTypedData(JSON.stringify(eip2612('1000000', '1900000000')));
    expect(decoded.permit).toEqual({
      standard: 'EIP-2612',
      spender: SPENDER,
      allowances: [{ token: TOKEN, amount: '1000000', unlimited: false }],
      expiry: 1_900_000_000,
    });
    expect(decoded.fields.map((field) => field.path)).toEqual([
      'owner',
      'spender',
      'value',
      'nonce',
      'deadline',
    ]);
    expect(decoded.domain).toEqual({ name: 'USD Coin', version: '2', chainId: 1, verifyingContract: TOKEN });
  });

  it('an unlimited, never-expiring permit says so', () => {
    const decoded = decodeTypedData(eip2612((2n ** 256n - 1n).toString(), (2n ** 256n - 1n).toString()));
    expect(decoded.permit?.allowances[0]?.unlimited).toBe(true);
    expect(decoded.permit?.expiry).toBeNull();
  });

  it('DAI-style permit: allowed=true is unlimited', () => {
    const decoded = decodeTypedData({
      types: {
        Permit: [
          { name: 'holder', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'expiry', type: 'uint256' },
          { name: 'allowed', type: 'bool' },
        ],
      },
      primaryType: 'Permit',
      domain: { name: 'Dai Stablecoin', version: '1', chainId: 1, verifyingContract: TOKEN },
      message: { holder: OWNER, spender: SPENDER, nonce: 0, expiry: 0, allowed: true },
    });
    expect(decoded.permit).toMatchObject({ standard: 'DAI', spender: SPENDER, expiry: null });
    expect(decoded.permit?.allowances[0]?.unlimited).toBe(true);
  });

  it('Permit2 PermitBatch: every token, the soonest expiration', () => {
    const decoded = decodeTypedData({
      types: PERMIT_BATCH_TYPES,
      primaryType: 'PermitBatch',
      domain: { name: 'Permit2', chainId: 1, verifyingContract: PERMIT2.toLowerCase() },
      message: {
        details: [
          { token: TOKEN, amount: (2n ** 160n - 1n).toString(), expiration: 1_900_000_000, nonce: 0 },
          { token: OWNER, amount: '5', expiration: 1_800_000_000, nonce: 1 },
        ],
        spender: SPENDER,
        sigDeadline: '1700000000',
      },
    });
    expect(decoded.permit).toEqual({
      standard: 'Permit2',
      spender: SPENDER,
      allowances: [
        { token: TOKEN, amount: (2n ** 160n - 1n).toString(), unlimited: true },
        { token: OWNER, amount: '5', unlimited: false },
      ],
      expiry: 1_800_000_000,
    });
    expect(decoded.fields.map((field) => field.path)).toContain('details[1].amount');
  });

  it('Permit2 PermitTransferFrom: the permitted token and the deadline', () => {
    const decoded = decodeTypedData({
      types: {
        TokenPermissions: [
          { name: 'token', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
        PermitTransferFrom: [
          { name: 'permitted', type: 'TokenPermissions' },
          { name: 'spender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'PermitTransferFrom',
      domain: { name: 'Permit2', chainId: 1, verifyingContract: PERMIT2 },
      message: {
        permitted: { token: TOKEN, amount: '42' },
        spender: SPENDER,
        nonce: '1',
        deadline: '1900000000',
      },
    });
    expect(decoded.permit).toEqual({
      standard: 'Permit2',
      spender: SPENDER,
      allowances: [{ token: TOKEN, amount: '42', unlimited: false }],
      expiry: 1_900_000_000,
    });
  });

  it('ordinary typed data has no permit and lists nested fields by path', () => {
    const decoded = decodeTypedData({
      types: {
        Person: [
          { name: 'name', type: 'string' },
          { name: 'wallet', type: 'address' },
        ],
        Mail: [
          { name: 'from', type: 'Person' },
          { name: 'contents', type: 'string' },
        ],
      },
      primaryType: 'Mail',
      domain: { name: 'Ether Mail', chainId: '1' },
      message: { from: { name: 'Cow', wallet: OWNER }, contents: 'Hello' },
    });
    expect(decoded.permit).toBeNull();
    expect(decoded.domain.chainId).toBe(1);
    expect(decoded.fields).toEqual([
      { path: 'from.name', type: 'string', value: 'Cow' },
      { path: 'from.wallet', type: 'address', value: OWNER },
      { path: 'contents', type: 'string', value: 'Hello' },
    ]);
  });

  it('refuses what does not parse or match its types, with a specific reason', () => {
    expect(() => decodeTypedData('{not json')).toThrow('not valid JSON');
    expect(() => decodeTypedData('x'.repeat(100_001))).toThrow('too large');
    expect(() => decodeTypedData({ types: {}, primaryType: 'Mail', message: {} })).toThrow('primaryType');
    // Names of Object.prototype are not types, whether as primaryType or as a field's type.
    expect(() => decodeTypedData({ types: {}, primaryType: 'toString', message: {} })).toThrow('primaryType');
    expect(() =>
      decodeTypedData({
        types: { Mail: [{ name: 'x', type: 'constructor' }] },
        primaryType: 'Mail',
        domain: { chainId: 1 },
        message: { x: {} },
      }),
    ).toThrow('does not match its types');
    expect(() =>
      decodeTypedData({ types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', message: {} }),
    ).toThrow('primaryType');
    const wrong = eip2612('not a number', '1');
    expect(() => decodeTypedData(wrong)).toThrow('value is not a valid uint256');
    expect(() => decodeTypedData(eip2612((2n ** 256n).toString(), '1'))).toThrow(
      'value is not a valid uint256',
    );
    const badSpender = eip2612('1', '1');
    badSpender.message.spender = 'nope';
    expect(() => decodeTypedData(badSpender)).toThrow(/spender|does not match/);
  });
});

// A hostile page shaping typed data so the window shows one thing and the key signs another.
describe('typed data is signed exactly as the window shows it', () => {
  const mail = (domain: Record<string, unknown>, message: Record<string, unknown>, declared?: unknown) => ({
    types: {
      ...(declared === undefined ? {} : { EIP712Domain: declared }),
      Mail: [
        { name: 'contents', type: 'string' },
        { name: 'amount', type: 'uint256' },
        { name: 'ok', type: 'bool' },
        { name: 'ids', type: 'uint8[2]' },
      ],
    },
    primaryType: 'Mail',
    domain,
    message: { contents: 'hi', amount: '5', ok: true, ids: [1, 2], ...message },
  });
  // The digest of what the window shows: the shown domain, and each shown field read back by type.
  const shownDigest = (decoded: ReturnType<typeof decodeTypedData>) => {
    const value = (path: string) => decoded.fields.find((field) => field.path === path)?.value;
    return hashTypedData({
      domain: decoded.domain,
      types: decoded.definition.types,
      primaryType: 'Mail',
      message: {
        contents: value('contents'),
        amount: BigInt(value('amount') ?? ''),
        ok: value('ok') === 'true',
        ids: [Number(value('ids[0]')), Number(value('ids[1]'))],
      },
    } as unknown as TypedDataDefinition);
  };

  it('the honest shapes of a chain id and an amount sign what is shown', () => {
    for (const chainId of [1, '1', '0x1']) {
      const decoded = decodeTypedData(mail({ name: 'Mail', chainId }, { amount: '0x5' }));
      expect(decoded.domain).toEqual({ name: 'Mail', chainId: 1 });
      expect(hashTypedData(decoded.definition)).toBe(shownDigest(decoded));
    }
    const huge = decodeTypedData(mail({ name: 'Mail', chainId: 1 }, { amount: 1e30 }));
    // Shown as the integer signed, never as "1e+30".
    expect(huge.fields.find((field) => field.path === 'amount')?.value).toBe(
      '1000000000000000019884624838656',
    );
    expect(hashTypedData(huge.definition)).toBe(shownDigest(huge));
  });

  it('every domain field signed is shown: name, version, chain id, contract and salt', () => {
    const salt = `0x${'ab'.repeat(32)}`;
    const domain = { name: 'Mail', version: '2', chainId: 1, verifyingContract: TOKEN, salt };
    const decoded = decodeTypedData(mail(domain, {}));
    expect(decoded.domain).toEqual(domain);
    expect(hashTypedData(decoded.definition)).toBe(shownDigest(decoded));
    // Declared by the page too: the same five, in its order, all shown.
    const declared = [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
      { name: 'salt', type: 'bytes32' },
    ];
    const withDeclared = decodeTypedData(mail(domain, {}, declared));
    expect(withDeclared.domain).toEqual(domain);
    expect(hashTypedData(withDeclared.definition)).toBe(shownDigest(withDeclared));
  });

  it("a dapp's usual payload (chainId as a decimal string, EIP712Domain declared) signs the dapp's own digest", () => {
    const permit = eip2612('1000', '1');
    const decoded = decodeTypedData(
      JSON.stringify({ ...permit, domain: { ...permit.domain, chainId: '1' } }),
    );
    const { EIP712Domain: _, ...types } = permit.types;
    // What the dapp verifies: the same data with a numeric chain id, hashed by viem on its own.
    expect(hashTypedData(decoded.definition)).toBe(
      hashTypedData({
        ...permit,
        types,
        message: { ...permit.message, value: 1000n, nonce: 0n, deadline: 1n },
      } as unknown as TypedDataDefinition),
    );
  });

  it('refuses a domain field the window would not show but the key would sign', () => {
    const uniswap = [...new TextEncoder().encode('Uniswap')];
    // viem hashes a byte array given for a string as those bytes: "Uniswap" signed, no name shown.
    expect(() => decodeTypedData(mail({ name: uniswap, chainId: 1 }, {}))).toThrow(
      'domain.name is not a string',
    );
    expect(() => decodeTypedData(mail({ name: 'Mail', chainId: true }, {}))).toThrow(
      'domain.chainId is not a chain id',
    );
    expect(() => decodeTypedData(mail({ name: 'Mail', chainId: [1] }, {}))).toThrow(
      'domain.chainId is not a chain id',
    );
    expect(() => decodeTypedData(mail({ name: 'Mail', chainId: '1.0' }, {}))).toThrow(
      'domain.chainId is not a chain id',
    );
    expect(() => decodeTypedData(mail({ name: 'Mail', owner: OWNER }, {}))).toThrow(
      'domain.owner is not an EIP-712 domain field',
    );
    expect(() => decodeTypedData(mail({ name: 'Mail', salt: '0x12' }, {}))).toThrow(
      'domain.salt is not 32 bytes',
    );
  });

  it("hashes the domain with the page's declared fields, and refuses a declaration that disagrees", () => {
    const declared = [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ];
    const decoded = decodeTypedData(mail({ name: 'Mail', chainId: 1 }, {}, declared));
    expect(hashTypedData(decoded.definition)).toBe(shownDigest(decoded));
    // Declared without chainId while the domain has one: what would the signature cover?
    expect(() => decodeTypedData(mail({ name: 'Mail', chainId: 1 }, {}, [declared[0]]))).toThrow(
      'domain.chainId is not declared in types.EIP712Domain',
    );
    expect(() => decodeTypedData(mail({ name: 'Mail' }, {}, declared))).toThrow(
      'types.EIP712Domain declares chainId, the domain has none',
    );
    expect(() =>
      decodeTypedData(
        mail({ name: 'Mail', chainId: 1 }, {}, [...declared, { name: 'chainId', type: 'uint256' }]),
      ),
    ).toThrow('is not an EIP-712 domain field');
    expect(() =>
      decodeTypedData(mail({ name: 'Mail', chainId: 1 }, {}, [{ name: 'chainId', type: 'string' }])),
    ).toThrow('chainId string is not an EIP-712 domain field');
  });

  it('refuses message values that would be shown one way and hashed another', () => {
    const domain = { name: 'Mail', chainId: 1 };
    // A string field given bytes or a number: shown "104,105" or "5", the bytes signed.
    expect(() => decodeTypedData(mail(domain, { contents: [104, 105] }))).toThrow('contents is not a string');
    expect(() => decodeTypedData(mail(domain, { contents: 5 }))).toThrow('contents is not a string');
    expect(() => decodeTypedData(mail(domain, { contents: undefined }))).toThrow('contents is not a string');
    expect(() => decodeTypedData(mail(domain, { ok: 'false' }))).toThrow('ok is not true or false');
    expect(() => decodeTypedData(mail(domain, { ids: '12' }))).toThrow('ids is not an array');
    expect(() => decodeTypedData(mail(domain, { ids: [1, 2, 3] }))).toThrow('ids has 3 items, not 2');
    // A field name is the row's label and part of the type hash: identifiers only.
    for (const name of ['to,uint256 amount', '\u202Etnuoma', 'a b', '']) {
      const odd = mail(domain, { [name]: 'x' });
      odd.types.Mail = [{ name, type: 'string' }];
      expect(() => decodeTypedData(odd)).toThrow('not an identifier');
    }
  });

  it('a string with a bidi override or hidden characters is shown with them written out', () => {
    const decoded = decodeTypedData(
      mail({ name: 'Mail\u200B', chainId: 1 }, { contents: 'pay \u202Egnp.exe' }),
    );
    expect(decoded.domain.name).toBe('Mail\\u{200B}');
    expect(decoded.fields.find((field) => field.path === 'contents')?.value).toBe('pay \\u{202E}gnp.exe');
    // The signature still covers the page's own string.
    expect((decoded.definition.message as { contents: string }).contents).toBe('pay \u202Egnp.exe');
  });

  it('refuses typed data too large, too deep or with too many fields to review, whatever its form', () => {
    const big = mail({ name: 'Mail', chainId: 1 }, { contents: 'x'.repeat(100_001) });
    expect(() => decodeTypedData(big)).toThrow('too large');
    const list = {
      types: { List: [{ name: 'xs', type: 'uint8[]' }] },
      primaryType: 'List',
      domain: { chainId: 1 },
      message: { xs: Array.from({ length: 2_001 }, () => 1) },
    };
    expect(() => decodeTypedData(list)).toThrow('more than 2000 fields');
    let nested: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) nested = { next: [nested] };
    const deep = {
      types: { Node: [{ name: 'next', type: 'Node[]' }] },
      primaryType: 'Node',
      domain: { chainId: 1 },
      message: nested,
    };
    expect(() => decodeTypedData(deep)).toThrow('nests deeper than 32 levels');
  });
});

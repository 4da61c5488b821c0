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

import fc from 'fast-check';
import {
  bytesToHex,
  type Hex,
  keccak256,
  serializeSignature,
  recoverAddress as viemRecoverAddress,
  recoverMessageAddress as viemRecoverMessageAddress,
} from 'viem';
import { privateKeyToAccount, sign } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { recoverAddress, recoverMessageAddress } from '@/lib/rpc/recover-signer';
import { SECP256K1_N } from '@/lib/wallet/mnemonic';

const privateKeys = fc
  .bigInt({ min: 1n, max: SECP256K1_N - 1n })
  .map((k) => `0x${k.toString(16).padStart(64, '0')}` as Hex);
const hashes = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => bytesToHex(bytes));
const stripZeros = (hex: Hex): Hex => `0x${hex.slice(2).replace(/^0+/, '') || '0'}`;

describe('recoverAddress (the static-curve copy of viem’s)', () => {
  it('answers the signer, as viem does, for a hex signature and for r, s and yParity', async () => {
    await fc.assert(
      fc.asyncProperty(privateKeys, hashes, async (privateKey, hash) => {
        const signer = privateKeyToAccount(privateKey).address;
        const signature = await sign({ hash, privateKey });
        const hex = serializeSignature(signature);
        expect(recoverAddress(hash, hex)).toBe(signer);
        expect(await viemRecoverAddress({ hash, signature: hex })).toBe(signer);
        // As a transaction's RLP carries them: no leading zeros in r or s.
        const parts = {
          r: stripZeros(signature.r),
          s: stripZeros(signature.s),
          yParity: signature.yParity ?? 0,
        };
        expect(recoverAddress(hash, parts)).toBe(signer);
      }),
      { numRuns: 40 },
    );
  });

  it('reads v as 27/28 as well as 0/1', async () => {
    const privateKey = keccak256('0x01');
    const hash = keccak256('0x02');
    const signature = await sign({ hash, privateKey });
    const signer = privateKeyToAccount(privateKey).address;
    const body = serializeSignature(signature).slice(0, 130);
    const parity = signature.yParity ?? 0;
    expect(recoverAddress(hash, `${body}${(27 + parity).toString(16)}` as Hex)).toBe(signer);
    expect(recoverAddress(hash, `${body}0${parity}` as Hex)).toBe(signer);
    expect(recoverAddress(hash, { r: signature.r, s: signature.s, yParity: 27 + parity })).toBe(signer);
    // The other bit recovers someone else, never the signer.
    expect(recoverAddress(hash, `${body}0${1 - parity}` as Hex)).not.toBe(signer);
  });

  it('refuses a signature that recovers no key, with the error viem gives', async () => {
    const hash = keccak256('0x02');
    const signature = serializeSignature(await sign({ hash, privateKey: keccak256('0x01') }));
    const cases: Hex[] = [
      signature.slice(0, 128) as Hex, // short
      `${signature}00` as Hex, // long
      `${signature.slice(0, 130)}02` as Hex, // v is neither 0/1 nor 27/28
      `0x${'00'.repeat(32)}${signature.slice(66)}` as Hex, // r = 0
      `${signature.slice(0, 66)}${SECP256K1_N.toString(16)}${signature.slice(130)}` as Hex, // s = n
    ];
    for (const bad of cases) {
      expect(() => recoverAddress(hash, bad)).toThrow();
      await expect(viemRecoverAddress({ hash, signature: bad })).rejects.toThrow();
    }
    expect(() => recoverAddress('0x1234', signature)).toThrow('the hash must be 32 bytes of hex');
    expect(() => recoverAddress(hash, { r: '0x0', s: '0x1', yParity: 0 })).toThrow();
    expect(() => recoverAddress(hash, { r: '0x1', s: '0x1', yParity: 2 })).toThrow(
      'invalid yParity or v value',
    );
  });
});

describe('recoverMessageAddress', () => {
  it('answers the personal_sign signer of the raw bytes, as viem does', async () => {
    await fc.assert(
      fc.asyncProperty(privateKeys, fc.uint8Array({ maxLength: 200 }), async (privateKey, bytes) => {
        const account = privateKeyToAccount(privateKey);
        const raw = bytesToHex(bytes);
        const signature = await account.signMessage({ message: { raw } });
        expect(recoverMessageAddress(raw, signature)).toBe(account.address);
        expect(await viemRecoverMessageAddress({ message: { raw }, signature })).toBe(account.address);
      }),
      { numRuns: 25 },
    );
  });
});

// Speed up and cancel, the pure parts: fees nodes accept for a replacement, the call, the hashes a
// tracker follows.
import { describe, expect, it } from 'vitest';
import { hashesAtNonce, replacementCall, replacementFees, replacementOf } from '@/lib/swap/replace';
import { ACCOUNT } from '../support/swaps';

const h = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe('replacementFees', () => {
  type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  const replaced: Fees = { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n };
  it.each<[string, Fees, Fees]>([
    [
      'bumps both fee fields by more than 10% over the replaced transaction',
      { maxFeePerGas: 50n, maxPriorityFeePerGas: 1n },
      { maxFeePerGas: 111n, maxPriorityFeePerGas: 12n },
    ],
    [
      "takes today's fees when they are higher, and never a priority fee above the max fee",
      { maxFeePerGas: 300n, maxPriorityFeePerGas: 500n },
      { maxFeePerGas: 500n, maxPriorityFeePerGas: 500n },
    ],
  ])('%s', (_label, today, expected) => {
    expect(replacementFees(replaced, today)).toEqual(expected);
  });
});

describe('replacementCall', () => {
  const call = { to: ACCOUNT as `0x${string}`, data: '0x1234' as const, value: 5n, gas: 300_000n };
  const me = '0x000000000000000000000000000000000000bEEF';
  it('repeats the call to speed up, and sends 0 to oneself to cancel', () => {
    expect(replacementCall('speed-up', call, me)).toEqual(call);
    expect(replacementCall('cancel', call, me)).toEqual({ to: me, data: '0x', value: 0n, gas: 21_000n });
  });
});

describe('hashesAtNonce', () => {
  it('lists the original then every replacement, and finds which one was mined', () => {
    const state = {
      tx: null,
      replacements: [
        { kind: 'speed-up' as const, replacedHash: h(1), hash: h(2), at: 1 },
        { kind: 'cancel' as const, replacedHash: h(2), hash: h(3), at: 2 },
      ],
    };
    expect(hashesAtNonce(state)).toEqual([h(1), h(2), h(3)]);
    expect(replacementOf(state, h(3).toUpperCase().replace('0X', '0x'))?.kind).toBe('cancel');
    expect(replacementOf(state, h(1))).toBeUndefined();
  });
});

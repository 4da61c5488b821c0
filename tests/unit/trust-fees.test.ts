import { describe, expect, it } from 'vitest';
import { capFees, feeCaps, feeEstimate, feeShareHigh, PRIORITY_FLOOR, readFeeHistory } from '@/lib/rpc/fees';

const gwei = (n: number) => BigInt(Math.round(n * 1e9));

describe('fee caps from the fee history', () => {
  const history = { baseFees: [gwei(10), gwei(11), gwei(12)], medianRewards: [gwei(1), gwei(3), gwei(2)] };

  it('caps the priority fee at twice the highest recent median (never below 2 gwei), maxFee at 2 x base + priority', () => {
    const caps = feeCaps(history);
    expect(caps.maxPriorityFeePerGas).toBe(gwei(6));
    expect(caps.maxFeePerGas).toBe(gwei(24) + gwei(6));
    expect(feeCaps({ baseFees: [gwei(1)], medianRewards: [0n] }).maxPriorityFeePerGas).toBe(PRIORITY_FLOOR);
  });

  it('an RPC suggesting a huge priority fee is capped, and says so', () => {
    const fees = capFees({ maxFeePerGas: gwei(5_000), maxPriorityFeePerGas: gwei(1_000) }, feeCaps(history));
    expect(fees).toEqual({
      maxPriorityFeePerGas: gwei(6),
      maxFeePerGas: gwei(30),
      baseFee: gwei(12),
      capped: true,
    });
  });

  it('an honest suggestion passes unchanged', () => {
    const fees = capFees({ maxFeePerGas: gwei(26), maxPriorityFeePerGas: gwei(2) }, feeCaps(history));
    expect(fees).toEqual({
      maxPriorityFeePerGas: gwei(2),
      maxFeePerGas: gwei(26),
      baseFee: gwei(12),
      capped: false,
    });
  });

  it('a maxFee below the next base fee + priority is raised to it (else the transaction would never be mined)', () => {
    const fees = capFees({ maxFeePerGas: gwei(1), maxPriorityFeePerGas: gwei(1) }, feeCaps(history));
    expect(fees.maxFeePerGas).toBe(gwei(13));
  });

  it('reads eth_feeHistory, ignoring malformed entries', async () => {
    const client = {
      request: async () => ({ baseFeePerGas: ['0x1', '0x2', 'junk'], reward: [['0x5'], ['nope'], []] }),
      estimateFeesPerGas: async () => ({}),
    };
    expect(await readFeeHistory(client as never)).toEqual({ baseFees: [1n, 2n], medianRewards: [5n] });
  });
});

describe('fee figures for the review', () => {
  it('expected = gas x (base + priority), max = limit x maxFee', () => {
    const estimate = feeEstimate(100_000n, 125_000n, {
      baseFee: gwei(10),
      maxPriorityFeePerGas: gwei(2),
      maxFeePerGas: gwei(22),
      capped: false,
    });
    expect(estimate).toEqual({
      gasLimit: '125000',
      maxFeePerGas: gwei(22).toString(),
      maxPriorityFeePerGas: gwei(2).toString(),
      expected: (100_000n * gwei(12)).toString(),
      max: (125_000n * gwei(22)).toString(),
      capped: false,
    });
  });

  it('HIGH_FEE when the fee is 10% or more of the native value swapped; not judged without a native side', () => {
    expect(feeShareHigh({ feeMax: 10n, nativeIn: 100n, nativeOutMin: null })).toBe(true);
    expect(feeShareHigh({ feeMax: 9n, nativeIn: 100n, nativeOutMin: null })).toBe(false);
    expect(feeShareHigh({ feeMax: 50n, nativeIn: null, nativeOutMin: 100n })).toBe(true);
    expect(feeShareHigh({ feeMax: 50n, nativeIn: null, nativeOutMin: null })).toBeNull();
  });
});

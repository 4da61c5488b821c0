import { describe, expect, it } from 'vitest';
import { emptyBlocksToReach } from '../../devnet/base-fee.ts';

describe('emptyBlocksToReach', () => {
  it('counts the 12.5% steps of EIP-1559 empty blocks down to the target', () => {
    expect(emptyBlocksToReach(1_000_000_000n, 1_000_000_000n)).toBe(0);
    expect(emptyBlocksToReach(8n * 10n ** 9n, 7n * 10n ** 9n)).toBe(1);
    // 78 gwei (a deploy's leftover) to 1 gwei: ln(78)/ln(8/7) is about 32.6 blocks.
    expect(emptyBlocksToReach(78n * 10n ** 9n, 10n ** 9n)).toBe(33);
  });

  it('is bounded even for an unreachable target', () => {
    expect(emptyBlocksToReach(10n ** 30n, 0n)).toBe(1_000);
  });
});

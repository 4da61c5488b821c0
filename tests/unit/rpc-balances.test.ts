import {
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionResult,
  type Hex,
  type PublicClient,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import { balanceOf, createBalanceReader, MULTICALL3_ADDRESS, multicall3BalanceAbi } from '@/lib/rpc/balances';
import { USDC } from '../support/addresses';

const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const BROKEN = '0x1111111111111111111111111111111111111111';

/** A client answering aggregate3 from a table: target -> uint (or a failure). */
function fakeClient(block: { n: bigint }) {
  const calls: { targets: string[]; blockNumber: bigint | undefined }[] = [];
  const client = {
    getBlockNumber: async () => block.n,
    call: async ({ to, data, blockNumber }: { to: string; data: Hex; blockNumber?: bigint }) => {
      expect(to).toBe(MULTICALL3_ADDRESS);
      const { args } = decodeFunctionData({ abi: multicall3BalanceAbi, data });
      const list = (args?.[0] ?? []) as readonly { target: string; callData: Hex }[];
      calls.push({ targets: list.map((c) => c.target), blockNumber });
      const results = list.map((c) => {
        if (c.target === BROKEN) return { success: true, returnData: '0x' as Hex }; // not an ERC-20
        const value = c.target === MULTICALL3_ADDRESS ? 5n * 10n ** 18n : 1_000_000n + block.n;
        return { success: true, returnData: encodeAbiParameters([{ type: 'uint256' }], [value]) };
      });
      return {
        data: encodeFunctionResult({
          abi: multicall3BalanceAbi,
          functionName: 'aggregate3',
          result: results,
        }),
      };
    },
  };
  return { client: client as unknown as PublicClient, calls };
}

describe('createBalanceReader', () => {
  it('reads native and ERC-20 balances in one aggregate3 pinned to the block; failures are listed', async () => {
    const block = { n: 7n };
    const { client, calls } = fakeClient(block);
    const reader = createBalanceReader({ client, chainId: 1 });
    const snapshot = await reader.read(OWNER, [NATIVE_TOKEN_ADDRESS, USDC, BROKEN]);
    expect(calls).toEqual([{ targets: [MULTICALL3_ADDRESS, USDC, BROKEN], blockNumber: 7n }]);
    expect(balanceOf(snapshot, NATIVE_TOKEN_ADDRESS)).toBe(5n * 10n ** 18n);
    expect(balanceOf(snapshot, USDC.toLowerCase())).toBe(1_000_007n);
    expect(snapshot.failed).toEqual([BROKEN]);
    expect(snapshot.blockNumber).toBe(7n);
  });

  it('caches per block, fetches only missing tokens, and re-reads after a new block or invalidate()', async () => {
    const block = { n: 7n };
    const { client, calls } = fakeClient(block);
    const reader = createBalanceReader({ client, chainId: 1 });
    await reader.read(OWNER, [USDC]);
    await reader.read(OWNER, [USDC]);
    expect(calls).toHaveLength(1);
    await reader.read(OWNER, [USDC, NATIVE_TOKEN_ADDRESS]);
    expect(calls.at(-1)?.targets).toEqual([MULTICALL3_ADDRESS]);
    block.n = 8n;
    expect(balanceOf(await reader.read(OWNER, [USDC]), USDC)).toBe(1_000_008n);
    expect(calls).toHaveLength(3);
    reader.invalidate(OWNER);
    await reader.read(OWNER, [USDC]);
    expect(calls).toHaveLength(4);
  });
});

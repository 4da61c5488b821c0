// A quiet chain's fees after the deploy. Deploying fills blocks, and EIP-1559 raises the base fee
// 12.5% per full block: a fresh devnet quoted a 2 ETH swap's network fee at 0.156 ETH. Empty blocks
// bring it down the same 12.5% each, as on the real chain after a burst, so the devnet mines as
// many as it takes to reach a quiet base fee (each start: a saved state keeps the deploy's fee).
import type { ChainName } from './fixtures.ts';
import { RpcClient } from './rpc.ts';

/** Base fees of a quiet day: about 1 gwei on Ethereum, a hundredth of that on Base. */
export const QUIET_BASE_FEE: Readonly<Record<ChainName, bigint>> = {
  ethereum: 1_000_000_000n,
  base: 10_000_000n,
};

/** Empty blocks that take `from` down to at most `target` (each multiplies it by 7/8, rounded down). */
export function emptyBlocksToReach(from: bigint, target: bigint): number {
  let fee = from;
  let blocks = 0;
  while (fee > target && blocks < 1_000) {
    fee -= fee / 8n;
    blocks += 1;
  }
  return blocks;
}

/** The base fee the next block will have (fee history's last entry is the pending block's). */
export async function nextBaseFee(rpc: RpcClient): Promise<bigint> {
  const history = await rpc.request<{ baseFeePerGas: string[] }>('eth_feeHistory', ['0x1', 'latest', []]);
  return BigInt(history.baseFeePerGas.at(-1) ?? '0x0');
}

/** Mines empty blocks until the next block's base fee is at most `target`; returns how many. */
export async function settleBaseFee(url: string, target: bigint): Promise<number> {
  const rpc = new RpcClient(url);
  let mined = 0;
  // Twice at most: the first empty block's fee can still rise after a full one.
  for (let round = 0; round < 2; round++) {
    const blocks = emptyBlocksToReach(await nextBaseFee(rpc), target);
    if (blocks === 0) break;
    await rpc.request('anvil_mine', [`0x${blocks.toString(16)}`]);
    mined += blocks;
  }
  return mined;
}

// The home's holdings: the active account's native coin and every token of the cached list it holds,
// read through Multicall3 (no indexer), a few hundred balanceOf per eth_call so a long list stays
// under an RPC's gas cap for calls.
import type { Address } from 'viem';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import { type BalanceReader, balanceOf } from '@/lib/rpc/balances';
import type { WalletService } from './wallet';

/** balanceOf calls per eth_call: ~10k gas each stays far below the usual 50M gas cap for calls. */
export const HOLDINGS_BATCH = 400;

export interface Holdings {
  chainId: number;
  account: string | null;
  /** lowercase address -> balance: the native coin always, tokens when non-zero. */
  balances: Record<string, string>;
  failed: number;
}

export async function readHoldings(
  wallet: Pick<WalletService, 'state'>,
  reader: BalanceReader,
  chainId: number,
  listed: readonly string[],
): Promise<Holdings> {
  const state = await wallet.state();
  const active = state.accounts.find((account) => account.id === state.activeId);
  if (!active) return { chainId, account: null, balances: {}, failed: 0 };
  const native = NATIVE_TOKEN_ADDRESS.toLowerCase();
  const tokens = [native, ...listed.map((token) => token.toLowerCase()).filter((token) => token !== native)];
  const balances: Record<string, string> = {};
  let failed = 0;
  for (let start = 0; start < tokens.length; start += HOLDINGS_BATCH) {
    const batch = tokens.slice(start, start + HOLDINGS_BATCH);
    const snapshot = await reader.read(active.address as Address, batch);
    for (const token of batch) {
      const value = balanceOf(snapshot, token);
      if (value === undefined) failed += 1;
      else if (value > 0n || token === native) balances[token] = value.toString();
    }
  }
  return { chainId, account: active.address, balances, failed };
}

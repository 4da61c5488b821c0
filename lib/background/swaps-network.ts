// The swap service's chain reads and the speed up / cancel of a sent swap, as plain functions
// (lib/background/swaps.ts): balance readers per RPC, receipts for the history, replacements.
import type { Address, Hex } from 'viem';
import { type BalanceReader, balanceOf, createBalanceReader } from '@/lib/rpc/balances';
import { publicClientFor } from '@/lib/rpc/network';
import { SendError } from '@/lib/rpc/transactions';
import type { Settings } from '@/lib/settings/settings';
import type { SwapState } from '@/lib/state/pipeline-state';
import type { SwapDeps, SwapMachine } from '@/lib/swap/execute';
import { ReplaceError, type ReplacementKind } from '@/lib/swap/replace';
import { CodedError } from './errors';
import type { SwapServiceDeps } from './swaps';
import type { WalletService } from './wallet';

/** One balance reader per chain and RPC URL, kept in `readers` (its cache lives as long). */
export function readerFor(
  readers: Map<string, BalanceReader>,
  settings: Settings,
  chainId: number,
): BalanceReader {
  const client = publicClientFor(chainId, settings);
  const key = `${chainId} ${client.transport.url ?? ''}`;
  let reader = readers.get(key);
  if (!reader) {
    reader = createBalanceReader({ client, chainId });
    readers.set(key, reader);
  }
  return reader;
}

/** A swap machine's dependencies on `chainId`, with what all of the service's machines share. */
export function machineDeps(
  deps: SwapServiceDeps,
  readers: Map<string, BalanceReader>,
  shared: Pick<SwapDeps, 'pins' | 'store' | 'history' | 'onChange'>,
  chainId: number,
): SwapDeps {
  return {
    client: publicClientFor(chainId, deps.settings()),
    api: deps.api(),
    ...shared,
    balances: readerFor(readers, deps.settings(), chainId),
  };
}

/** Whether the chain has a transaction's receipt ('unknown': the RPC did not answer). */
export async function receiptProbe(
  settings: Settings,
  chainId: number,
  hash: string,
): Promise<'found' | 'missing' | 'unknown'> {
  try {
    await publicClientFor(chainId, settings).getTransactionReceipt({ hash: hash as Hex });
    return 'found';
  } catch (error) {
    return (error as { name?: string }).name === 'TransactionReceiptNotFoundError' ? 'missing' : 'unknown';
  }
}

/** Balances of the active account, as decimal strings keyed by lowercase token. */
export async function activeBalances(
  wallet: WalletService,
  reader: () => BalanceReader,
  tokens: string[],
): Promise<Record<string, string>> {
  const state = await wallet.state();
  const active = state.accounts.find((account) => account.id === state.activeId);
  if (!active) return {};
  const snapshot = await reader().read(active.address as Address, tokens);
  const result: Record<string, string> = {};
  for (const token of tokens) {
    const value = balanceOf(snapshot, token);
    if (value !== undefined) result[token.toLowerCase()] = value.toString();
  }
  return result;
}

/**
 * Speeds up or cancels the swap waiting to be mined (same nonce, higher fees), with the network's
 * refusals as coded errors for the view. `sending` is the service's latest machine.
 */
export async function replaceSent(
  sending: () => SwapMachine | null,
  wallet: WalletService,
  kind: ReplacementKind,
): Promise<SwapState> {
  if (sending()?.current()?.status !== 'sent')
    throw new CodedError('NOT_PENDING', 'No swap is waiting to be mined: nothing to speed up or cancel.');
  const account = await wallet.activeSigner();
  try {
    // Read again after the await (never unset once set), as before this function was split out.
    return await (sending() as SwapMachine).replace(kind, account);
  } catch (error) {
    if (error instanceof ReplaceError) throw new CodedError(error.code, error.message);
    if (error instanceof SendError)
      throw new CodedError('REPLACEMENT_FAILED', `The network refused the replacement: ${error.message}`);
    throw error;
  }
}

// The swap service's chain reads and the speed up / cancel of a sent swap, as plain functions
// (lib/background/swaps.ts): balance readers per RPC, receipts for the history, replacements.
import type { Address, Hex } from 'viem';
import { type BalanceReader, balanceOf, createBalanceReader } from '@/lib/rpc/balances';
import type { FeeEstimate } from '@/lib/rpc/fees';
import { publicClientFor } from '@/lib/rpc/network';
import { chainCheckFor } from '@/lib/rpc/rpc-failure';
import { SendError } from '@/lib/rpc/transactions';
import type { Settings } from '@/lib/settings/settings';
import type { SwapState } from '@/lib/state/pipeline-state';
import { markEarlierChains } from '@/lib/swap/chain-reset';
import type { SwapDeps, SwapMachine } from '@/lib/swap/execute';
import type { SwapHistory } from '@/lib/swap/history';
import { ReplaceError, type ReplacementKind } from '@/lib/swap/replace';
import { CodedError } from './errors';
import { funnelErrors } from './signing';
import type { SwapServiceDeps } from './swaps-deps';
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
    // Balances from an RPC of another chain would be wrong figures: it is asked its chain first.
    const created = createBalanceReader({ client, chainId });
    const checkChain = chainCheckFor(client, chainId);
    reader = {
      ...created,
      read: async (owner, tokens) => {
        await checkChain();
        return created.read(owner, tokens);
      },
    };
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
    ceiling: deps.signing.ceilingFor(chainId),
    funnel: deps.signing.funnel,
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

/** Activity and revoke: sealed entries only (none while locked); a reset network's are marked. */
export async function markedHistory(history: SwapHistory, settings: () => Settings) {
  return markEarlierChains(await history.verified(), (chainId, hash) =>
    receiptProbe(settings(), chainId, hash),
  );
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

function pendingMachine(sending: () => SwapMachine | null): SwapMachine {
  const machine = sending();
  if (machine?.current()?.status !== 'sent')
    throw new CodedError('NOT_PENDING', 'No swap is waiting to be mined: nothing to speed up or cancel.');
  return machine;
}

/** The network's and the funnel's refusals as coded errors for the view. */
function replaceErrors(error: unknown): never {
  if (error instanceof ReplaceError) throw new CodedError(error.code, error.message);
  if (error instanceof SendError)
    throw new CodedError('REPLACEMENT_FAILED', `The network refused the replacement: ${error.message}`);
  return funnelErrors(() => {
    throw error;
  });
}

/**
 * The speed up or cancel of the swap waiting to be mined, reviewed: its plan (from the sent swap's
 * proven bytes) recorded in the funnel, and the new fee the view shows before the user confirms.
 */
export async function previewReplacement(
  sending: () => SwapMachine | null,
  deps: Pick<SwapServiceDeps, 'wallet' | 'signing'>,
  kind: ReplacementKind,
): Promise<{ reviewId: string; fee: FeeEstimate }> {
  const machine = pendingMachine(sending);
  const account = await deps.wallet.activeSigner();
  try {
    const chainId = machine.current()?.chainId ?? 0;
    const { plan, fee } = await machine.planReplace(kind, account.address, deps.signing.ceilingFor(chainId));
    const reviewed = deps.signing.funnel.review(plan, { shownFee: fee });
    return { reviewId: reviewed.id, fee };
  } catch (error) {
    return replaceErrors(error);
  }
}

/** Signs the reviewed replacement (once) through the funnel and sends it. */
export async function sendReviewedReplacement(
  sending: () => SwapMachine | null,
  deps: Pick<SwapServiceDeps, 'wallet' | 'signing' | 'settings'>,
  kind: ReplacementKind,
  reviewId: string,
): Promise<SwapState> {
  const reviewed = funnelErrors(() => deps.signing.funnel.take(reviewId, kind));
  const machine = pendingMachine(sending);
  try {
    const client = publicClientFor(reviewed.plan.chainId, deps.settings());
    const signed = await deps.signing.funnel.sign({
      reviewed,
      client,
      signer: () => deps.wallet.activeSigner(),
    });
    return await machine.sendReplacement(kind, signed);
  } catch (error) {
    return replaceErrors(error);
  }
}

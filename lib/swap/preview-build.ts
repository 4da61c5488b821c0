// previewSwap: everything the review shows, computed before anything can be signed: the quote
// verified (answers the request, minimum consistent, decimals the chain's), built, its call read
// and checked, approvals planned, fees capped, and an asset-change simulation with the real fee
// fields. The result is frozen: startSwap signs this quote or nothing (QUOTE_CHANGED).
import { type Address, getAddress, type Hex } from 'viem';
import type { SwapApiClient } from '@/lib/api/client';
import { QuoteOutdatedError } from '@/lib/api/errors';
import { type UserMessage, userMessageFor } from '@/lib/api/messages';
import { isNativeToken, type Quote, type QuoteRequest } from '@/lib/api/schema';
import { type CappedFees, cappedFees, feeEstimate, feeShareHigh } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { withGasMargin } from '@/lib/rpc/transactions';
import { type TokenFactsReader, verifyQuoteDecimals } from '@/lib/tokens/facts';
import { type ApprovalMode, approvalFor } from './approval';
import { type AssetSimResult, simulateAssets } from './asset-sim';
import { buildCheckMessage, checkBuild, isConsentReason } from './build-checks';
import { quoteDigest } from './digest';
import type { BalanceChange, FeeEstimate, SwapPreview } from './preview';
import { assetWords, previewWarnings } from './preview-words';
import { simulateSwap } from './simulate';
import { verifyFailureMessage, verifyQuote } from './verify';

/** A refusal with its code and the user's words (title, what happened, what to do). */
export class PreviewError extends Error {
  constructor(
    readonly code: string,
    readonly user: UserMessage,
  ) {
    super(`${user.title}. ${user.detail} ${user.action}`.trim());
    this.name = 'PreviewError';
  }
}

export interface PreviewDeps {
  client: RpcClient;
  api: Pick<SwapApiClient, 'build'>;
  /** The router the user trusts for this service and chain. */
  pinnedRouter: () => Promise<string | undefined>;
  facts: TokenFactsReader;
  now?: () => number;
  gasMarginPercent?: number;
  /** The asset simulation that passed, for the swap to reuse at Confirm (the same bytes). */
  onSimulated?: (sim: AssetSimResult) => void;
}

export interface PreviewInput {
  chainId: number;
  from: Address;
  request: QuoteRequest;
  quote: Quote;
  approvalMode: ApprovalMode;
  /** The setting "Only sign swap calls Swaplane can read" on: 'refuse'. */
  unreadable: 'refuse' | 'allow';
  expiresAt: number;
}

const NOTHING_SIGNED =
  'Nothing was signed. Get a new quote; if this repeats, check the swap service in Settings.';

export async function buildPreview(deps: PreviewDeps, input: PreviewInput): Promise<SwapPreview> {
  const { client } = deps;
  const now = deps.now ?? Date.now;
  const { quote, from } = input;
  const rpcChain = await client.getChainId();
  if (rpcChain !== input.chainId) {
    throw new PreviewError('RPC_WRONG_CHAIN', {
      title: 'The RPC is on another network',
      detail: `It answers for chain ${rpcChain}, not ${input.chainId}.`,
      action: 'Nothing was signed. Check the RPC in Settings.',
    });
  }
  const verdict = verifyQuote(input.request, quote);
  if (!verdict.ok) throw new PreviewError('QUOTE_REJECTED', verifyFailureMessage(verdict.reason));
  await verifyQuoteDecimals(deps.facts, quote);

  const { build, checked, consent, pinned } = await buildAndCheck(deps, input, now());
  const router = checked.router;
  const swap = { to: router, data: build.transaction as Hex, value: BigInt(build.value) };
  const inAmount = BigInt(quote.inAmount);
  const minReceived = BigInt(quote.minReceived);

  const nativeIn = isNativeToken(quote.inToken);
  const { plan, calls: approvals } = await approvalFor(
    client,
    quote.inToken,
    from,
    router,
    inAmount,
    input.approvalMode,
  );

  const [fees, nonce] = await Promise.all([
    cappedFees(client),
    client.getTransactionCount({ address: from, blockTag: 'pending' }),
  ]);
  const sim = await simulateAssets(client, {
    from,
    nonce,
    fees,
    approvals,
    swap,
    quote,
    router,
  });
  if (sim.status === 'passed') deps.onSimulated?.(sim);
  const margin = deps.gasMarginPercent ?? 25;
  const coverage = await coverageOf(client, sim, {
    from,
    swap,
    minReceived,
    approvals: approvals.length,
    margin,
  });
  if (!checked.calldata.readable && coverage.kind !== 'assets') {
    throw new PreviewError('CALLDATA_UNREADABLE', {
      title: 'Swap call cannot be read',
      detail:
        'Swaplane cannot read this swap call, and this RPC cannot simulate what it does to your balances, so nothing proves where your tokens go.',
      action: NOTHING_SIGNED,
    });
  }

  const swapFee = feeEstimate(coverage.swapGas, withGasMargin(coverage.swapGas, margin), fees);
  const approvalFee = approvalFees(coverage.approvalGas, margin, fees);
  const totalExpected = BigInt(swapFee.expected) + BigInt(approvalFee?.expected ?? '0');
  const totalMax = BigInt(swapFee.max) + BigInt(approvalFee?.max ?? '0');
  const balanceChanges = await balanceChangesOf(deps.facts, input.chainId, sim);
  const high = feeShareHigh({
    feeMax: totalMax,
    nativeIn: nativeIn ? inAmount : null,
    nativeOutMin: isNativeToken(quote.outToken) ? minReceived : null,
  });
  const reviewedAt = now();
  return {
    quote,
    digest: quoteDigest(quote),
    reviewedAt,
    expiresAt: input.expiresAt,
    transaction: { to: router, data: swap.data, value: swap.value.toString() },
    routerTrust: { status: TRUST_OF[consent ?? 'TRUSTED'], pinned },
    approval:
      plan.kind === 'none'
        ? null
        : {
            token: getAddress(quote.inToken),
            spender: router,
            amount: plan.amount.toString(),
            unlimited: plan.unlimited,
            resetFirst: plan.kind === 'reset-then-approve',
          },
    fees: {
      swap: swapFee,
      approval: approvalFee,
      totalExpected: totalExpected.toString(),
      totalMax: totalMax.toString(),
    },
    balanceChanges,
    approvalsGranted:
      sim.status === 'passed'
        ? sim.granted.map((g) => ({
            token: getAddress(g.token),
            spender: getAddress(g.spender),
            amount: g.amount.toString(),
          }))
        : [],
    simulation: { kind: coverage.kind, missing: coverage.missing },
    calldata: checked.calldata,
    warnings: previewWarnings({
      readable: checked.calldata.readable,
      missing: coverage.missing,
      highFee: high === true,
      feeCapped: fees.capped,
      consent,
      router,
      slippage: input.request.slippage,
    }),
  };
}

const TRUST_OF = { TRUSTED: 'trusted', ROUTER_UNPINNED: 'new', ROUTER_CHANGED: 'changed' } as const;

/** POST /build, then the build checks (calldata policy included); a router consent becomes a warning. */
async function buildAndCheck(deps: PreviewDeps, input: PreviewInput, nowMs: number) {
  const { quote, from } = input;
  const build = await buildOnce(deps, quote);
  const checkInput = {
    request: input.request,
    quote,
    build,
    account: from,
    pinnedRouter: await deps.pinnedRouter(),
    unreadable: input.unreadable,
    nowSeconds: Math.floor(nowMs / 1000),
  };
  let checked = checkBuild(checkInput);
  let pinned: Address | null = null;
  let consent: 'ROUTER_UNPINNED' | 'ROUTER_CHANGED' | null = null;
  if (!checked.ok && isConsentReason(checked.reason)) {
    consent = checked.reason.code;
    if (checked.reason.code === 'ROUTER_CHANGED') pinned = checked.reason.pinned;
    checked = checkBuild({ ...checkInput, consentRouter: checked.reason.router });
  }
  if (!checked.ok) {
    const code = checked.reason.code === 'QUOTE_MISMATCH' ? 'QUOTE_REJECTED' : checked.reason.code;
    throw new PreviewError(code, buildCheckMessage(checked.reason));
  }
  return { build, checked, consent, pinned };
}

async function buildOnce(deps: PreviewDeps, quote: Quote) {
  try {
    return (await deps.api.build(quote)).build;
  } catch (error) {
    if (error instanceof QuoteOutdatedError) {
      throw new PreviewError('QUOTE_OUTDATED', {
        title: 'The quote is out of date',
        detail: 'The swap service says prices moved since this quote.',
        action: 'Nothing was signed. Get a new quote and review it.',
      });
    }
    throw new PreviewError('BUILD_FAILED', userMessageFor(error));
  }
}

interface Coverage {
  kind: 'assets' | 'call';
  missing: string[];
  swapGas: bigint;
  approvalGas: bigint[];
}

/** What the simulation proved; where the RPC lacks eth_simulateV1, eth_call + estimateGas and what is missing. */
async function coverageOf(
  client: RpcClient,
  sim: AssetSimResult,
  call: {
    from: Address;
    swap: { to: Address; data: Hex; value: bigint };
    minReceived: bigint;
    approvals: number;
    margin: number;
  },
): Promise<Coverage> {
  if (sim.status === 'reverted') {
    throw new PreviewError(sim.call === 'swap' ? 'SIMULATION_REVERTED' : 'APPROVAL_FAILED', {
      title: 'The swap would fail',
      detail: `Simulated with your account, it reverts: ${sim.revert.text}.`,
      action: NOTHING_SIGNED,
    });
  }
  if (sim.status === 'no-funds') {
    throw new PreviewError('INSUFFICIENT_GAS_FUNDS', {
      title: 'Not enough coin for the network fee',
      detail: 'Your account cannot pay this swap and its network fee.',
      action: 'Nothing was signed. Add coin for gas or swap a smaller amount.',
    });
  }
  if (sim.status === 'violated') throw new PreviewError('ASSET_CHECK_FAILED', assetWords(sim.violations));
  if (sim.status === 'passed') {
    const gas = sim.gasUsed;
    return { kind: 'assets', missing: [], swapGas: gas.at(-1) ?? 0n, approvalGas: gas.slice(0, -1) };
  }
  const missing = [
    'which assets leave and reach your account (this RPC cannot trace a simulated transaction)',
    'that no other token of yours is moved and no other approval is granted',
  ];
  if (call.approvals > 0) {
    missing.push(
      'the swap itself, before its approval is confirmed (it is simulated again right before signing)',
    );
    return { kind: 'call', missing, swapGas: 300_000n, approvalGas: Array(call.approvals).fill(60_000n) };
  }
  const result = await simulateSwap(client, {
    from: call.from,
    swap: call.swap,
    minReceived: call.minReceived,
    gasMarginPercent: call.margin,
  });
  if (!result.ok) {
    throw new PreviewError(result.kind === 'reverted' ? 'SIMULATION_REVERTED' : 'SIMULATED_OUTPUT_LOW', {
      title: 'The swap would fail',
      detail:
        result.kind === 'reverted'
          ? `Simulated with your account, it reverts: ${result.revert.text}.`
          : 'Simulated, it pays less than the minimum you accept.',
      action: NOTHING_SIGNED,
    });
  }
  return { kind: 'call', missing, swapGas: result.gasEstimate, approvalGas: [] };
}

function approvalFees(gas: bigint[], margin: number, fees: CappedFees): FeeEstimate | null {
  if (gas.length === 0) return null;
  const used = gas.reduce((a, b) => a + b, 0n);
  const limit = gas.reduce((a, b) => a + withGasMargin(b, margin), 0n);
  return feeEstimate(used, limit, fees);
}

async function balanceChangesOf(
  facts: TokenFactsReader,
  chainId: number,
  sim: AssetSimResult,
): Promise<BalanceChange[]> {
  if (sim.status !== 'passed') return [];
  const known = await facts.read(
    chainId,
    sim.deltas.map((d) => d.token),
  );
  return sim.deltas.map((d) => {
    const fact = known.get(d.token);
    return {
      token: getAddress(d.token),
      symbol: fact?.symbol ?? '',
      decimals: fact?.decimals ?? 0,
      delta: d.delta.toString(),
    };
  });
}

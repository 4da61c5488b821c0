// The swap path's first step, prepare: everything the review shows and Confirm signs, computed once
// before anything can be signed (lib/state/prepared-swap.ts holds its shape). Then review
// (swaps-review.ts in the background, ./review-binding.ts) and execute (./execute.ts).
import { type Address, getAddress, type Hex } from 'viem';
import type { SwapApiClient } from '@/lib/api/client';
import { QuoteOutdatedError } from '@/lib/api/errors';
import { type UserMessage, userMessageFor } from '@/lib/api/messages';
import { isNativeToken, type Quote, type QuoteRequest } from '@/lib/api/schema';
import type { FeeCeiling } from '@/lib/rpc/fee-ceiling';
import { type CappedFees, cappedFees, feeEstimate, feeShareHigh } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { withGasMargin } from '@/lib/rpc/transactions';
import type { PreparedSwap } from '@/lib/state/prepared-swap';
import { type TokenFactsReader, verifyQuoteDecimals } from '@/lib/tokens/facts';
import { type ApprovalMode, approvalFor } from './approval';
import { type AssetSimResult, simulateAssets } from './asset-sim';
import { buildCheckMessage, checkBuild, isConsentReason } from './build-checks';
import { quoteDigest } from './digest';
import { type FailureCode, SwapFailure } from './failure';
import type { TransactionPlan } from './funnel';
import type { BalanceChange, FeeEstimate, SwapPreview } from './preview';
import { assetWords, previewWarnings } from './preview-words';
import { simulateSwap } from './simulate';
import { verifyFailureMessage, verifyQuote } from './verify';

export type { PreparedSwap } from '@/lib/state/prepared-swap';

export interface PrepareSwapParameters {
  client: RpcClient;
  api: Pick<SwapApiClient, 'build'>;
  /** The router the user trusts for this service and chain. */
  pinnedRouter: () => Promise<string | undefined>;
  facts: TokenFactsReader;
  now?: () => number;
  gasMarginPercent?: number;
  /** The user's fee ceiling for the chain (Settings): the fees are capped below it. */
  ceiling?: FeeCeiling;
  /** Names the preparation (its review, its stored copy); a random id when absent. */
  id?: string;
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

const refuse = (code: FailureCode, user: UserMessage) => new SwapFailure({ code, step: 'review', user });

/**
 * Prepares a swap once: the quote verified, built, its call checked, approvals planned, fees capped
 * and the asset changes simulated. The review's words are derived from the result (`previewOf`);
 * Confirm signs its call as is.
 */
export async function prepareSwap(params: PrepareSwapParameters): Promise<PreparedSwap> {
  const { client, quote, from } = params;
  const now = params.now ?? Date.now;
  const rpcChain = await client.getChainId();
  if (rpcChain !== params.chainId) {
    throw refuse('RPC_WRONG_CHAIN', {
      title: 'The RPC is on another network',
      detail: `It answers for chain ${rpcChain}, not ${params.chainId}.`,
      action: 'Nothing was signed. Check the RPC in Settings.',
    });
  }
  const verdict = verifyQuote(params.request, quote);
  if (!verdict.ok) throw refuse('QUOTE_REJECTED', verifyFailureMessage(verdict.reason));
  await verifyQuoteDecimals(params.facts, quote);

  const { build, checked, consent, pinned } = await buildAndCheck(params, now());
  const router = checked.router;
  const call = { to: router, data: build.transaction as Hex, value: BigInt(build.value) };
  const inAmount = BigInt(quote.inAmount);
  const approval = await approvalFor(client, quote.inToken, from, router, inAmount, params.approvalMode);
  const { plan, calls: approvals } = approval;

  const [fees, nonce] = await Promise.all([
    cappedFees(client, params.ceiling),
    client.getTransactionCount({ address: from, blockTag: 'pending' }),
  ]);
  const sim = await simulateAssets(client, { from, nonce, fees, approvals, swap: call, quote, router });
  const margin = params.gasMarginPercent ?? 25;
  const coverage = await coverageOf(client, sim, {
    from,
    swap: call,
    minReceived: BigInt(quote.minReceived),
    approvals: approvals.length,
    margin,
  });
  if (!checked.calldata.readable && coverage.kind !== 'assets') {
    throw refuse('CALLDATA_UNREADABLE', {
      title: 'Swap call cannot be read',
      detail:
        'Swaplane cannot read this swap call, and this RPC cannot simulate what it does to your balances, so nothing proves where your tokens go.',
      action: NOTHING_SIGNED,
    });
  }
  return {
    id: params.id ?? crypto.randomUUID(),
    chainId: params.chainId,
    from: getAddress(from),
    request: params.request,
    quote,
    digest: quoteDigest(quote),
    approvalMode: params.approvalMode,
    unreadable: params.unreadable,
    build,
    call,
    calldata: checked.calldata,
    consent,
    pinned,
    allowance: {
      plan: plan.kind,
      allowance: approval.allowance,
      amount: plan.kind === 'none' ? 0n : plan.amount,
      unlimited: plan.kind === 'none' ? false : plan.unlimited,
    },
    approvals,
    fees,
    nonce,
    simulation:
      sim.status === 'passed' ? { ...sim, status: 'passed', violations: [] } : { status: 'unsupported' },
    coverage,
    shownFees: {
      swap: feeEstimate(coverage.swapGas, withGasMargin(coverage.swapGas, margin), fees),
      approval: approvalFees(coverage.approvalGas, margin, fees),
    },
    balanceChanges: await balanceChangesOf(params.facts, params.chainId, sim),
    reviewedAt: now(),
    expiresAt: params.expiresAt,
  };
}

/** The swap's plan for the signing funnel: the checked call, the review's gas limit and fees. */
export function swapPlanOf(prepared: PreparedSwap): TransactionPlan {
  const { call, fees } = prepared;
  return {
    kind: 'swap',
    chainId: prepared.chainId,
    from: prepared.from as Address,
    to: call.to as Address,
    data: call.data as Hex,
    value: call.value,
    gasUsed: prepared.coverage.swapGas,
    gas: BigInt(prepared.shownFees.swap.gasLimit),
    fees: { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas },
  };
}

/** The review's words, derived from the prepared swap (pure): what the popup shows. */
export function previewOf(prepared: PreparedSwap): SwapPreview {
  const { quote, call, shownFees, allowance } = prepared;
  const swapFee = shownFees.swap;
  const approvalFee = shownFees.approval;
  const totalExpected = BigInt(swapFee.expected) + BigInt(approvalFee?.expected ?? '0');
  const totalMax = BigInt(swapFee.max) + BigInt(approvalFee?.max ?? '0');
  const high = feeShareHigh({
    feeMax: totalMax,
    nativeIn: isNativeToken(quote.inToken) ? BigInt(quote.inAmount) : null,
    nativeOutMin: isNativeToken(quote.outToken) ? BigInt(quote.minReceived) : null,
  });
  const sim = prepared.simulation;
  return {
    quote,
    digest: prepared.digest,
    reviewedAt: prepared.reviewedAt,
    expiresAt: prepared.expiresAt,
    transaction: { to: call.to, data: call.data, value: call.value.toString() },
    routerTrust: { status: TRUST_OF[prepared.consent ?? 'TRUSTED'], pinned: prepared.pinned },
    approval:
      allowance.plan === 'none'
        ? null
        : {
            token: getAddress(quote.inToken),
            spender: call.to,
            amount: allowance.amount.toString(),
            unlimited: allowance.unlimited,
            resetFirst: allowance.plan === 'reset-then-approve',
          },
    fees: {
      swap: swapFee,
      approval: approvalFee,
      totalExpected: totalExpected.toString(),
      totalMax: totalMax.toString(),
    },
    balanceChanges: prepared.balanceChanges,
    approvalsGranted:
      sim.status === 'passed'
        ? sim.granted.map((g) => ({
            token: getAddress(g.token),
            spender: getAddress(g.spender),
            amount: g.amount.toString(),
          }))
        : [],
    simulation: { kind: prepared.coverage.kind, missing: prepared.coverage.missing },
    calldata: prepared.calldata,
    warnings: previewWarnings({
      readable: prepared.calldata.readable,
      missing: prepared.coverage.missing,
      highFee: high === true,
      feeCapped: prepared.fees.capped,
      consent: prepared.consent,
      router: call.to,
      slippage: prepared.request.slippage,
    }),
  };
}

const TRUST_OF = { TRUSTED: 'trusted', ROUTER_UNPINNED: 'new', ROUTER_CHANGED: 'changed' } as const;

/** POST /build, then the build checks (calldata policy included); a router consent becomes a warning. */
async function buildAndCheck(params: PrepareSwapParameters, nowMs: number) {
  const { quote, from } = params;
  const build = await buildOnce(params, quote);
  const checkInput = {
    request: params.request,
    quote,
    build,
    account: from,
    pinnedRouter: await params.pinnedRouter(),
    unreadable: params.unreadable,
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
    throw refuse(code, buildCheckMessage(checked.reason));
  }
  return { build, checked, consent, pinned };
}

async function buildOnce(params: PrepareSwapParameters, quote: Quote) {
  try {
    return (await params.api.build(quote)).build;
  } catch (error) {
    if (error instanceof QuoteOutdatedError) {
      throw refuse('QUOTE_OUTDATED', {
        title: 'The quote is out of date',
        detail: 'The swap service says prices moved since this quote.',
        action: 'Nothing was signed. Get a new quote and review it.',
      });
    }
    throw refuse('BUILD_FAILED', userMessageFor(error));
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
    throw refuse(sim.call === 'swap' ? 'SIMULATION_REVERTED' : 'APPROVAL_FAILED', {
      title: 'The swap would fail',
      detail: `Simulated with your account, it reverts: ${sim.revert.text}.`,
      action: NOTHING_SIGNED,
    });
  }
  if (sim.status === 'no-funds') {
    throw refuse('INSUFFICIENT_GAS_FUNDS', {
      title: 'Not enough coin for the network fee',
      detail: 'Your account cannot pay this swap and its network fee.',
      action: 'Nothing was signed. Add coin for gas or swap a smaller amount.',
    });
  }
  if (sim.status === 'violated') throw refuse('ASSET_CHECK_FAILED', assetWords(sim.violations));
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
    throw refuse(result.kind === 'reverted' ? 'SIMULATION_REVERTED' : 'SIMULATED_OUTPUT_LOW', {
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

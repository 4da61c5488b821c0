// The swap run's phases before anything is signed, in order: the first state, quote and build,
// the build checks and router pin, balances and a preflight of every call, and the swap's own
// simulation with the exact gas check. Each throws a Stop (or a Halt) naming what stopped it.
import { type Address, getAddress, type Hex } from 'viem';
import { type BuildResult, isNativeToken, NATIVE_TOKEN_ADDRESS, type Quote } from '@/lib/api/schema';
import { balanceOf } from '@/lib/rpc/balances';
import { cappedFees } from '@/lib/rpc/fees';
import { type Fees, withGasMargin } from '@/lib/rpc/transactions';
import type { SwapStep } from '@/lib/state/pipeline-state';
import { approvalTransactions, planApproval, readAllowance } from './approval';
import { simulateAssets, simulationGas } from './asset-sim';
import { buildCheckMessage, checkBuild, isConsentReason } from './build-checks';
import type { SwapInput } from './execute';
import { Halt, type MachineCore, Stop } from './machine-core';
import { assetWords } from './preview-words';
import { simulateSwap } from './simulate';
import { buildFor, checkQuote, requote } from './steps';

/** Where a run is, so a failure names its step. */
export interface RunProgress {
  step: SwapStep;
}

export interface SwapCall {
  to: Address;
  data: Hex;
  value: bigint;
}

/** The run's first state: quoting, or building the confirmed quote. */
export async function beginRun(m: MachineCore, input: SwapInput): Promise<void> {
  const created = m.now();
  m.state = null;
  await m.commit({
    id: m.newId(),
    status: input.quote && !input.quoteStale ? 'building' : 'quoting',
    chainId: input.chainId,
    account: getAddress(input.account.address),
    approvalMode: input.approvalMode ?? 'exact',
    request: input.request,
    quote: input.quote,
    requotes: 0,
    build: null,
    approval: null,
    simulation: null,
    tx: null,
    outcome: null,
    failure: null,
    consent: null,
    createdAt: created,
    updatedAt: created,
  });
}

/** The RPC serves the chain; 1. the confirmed quote or a fresh one; 2. the build (one re-quote if outdated). */
export async function quoteAndBuild(
  m: MachineCore,
  input: SwapInput,
  at: RunProgress,
): Promise<{ quote: Quote; build: BuildResult }> {
  const rpcChain = await m.client.getChainId();
  if (rpcChain !== input.chainId) {
    throw new Stop('RPC_WRONG_CHAIN', 'network', { detail: `rpc chain ${rpcChain}` });
  }

  // 1. The confirmed quote, or a fresh one.
  at.step = 'quote';
  const confirmedMin = input.quote ? BigInt(input.quote.minReceived) : null;
  let quote = input.quote;
  if (quote) checkQuote(input.request, quote);
  if (!quote || input.quoteStale) quote = await requote(m, input, confirmedMin);
  m.checkAbort(input.signal, 'quote');

  // 2. Build (one automatic re-quote if outdated).
  at.step = 'build';
  const built = await buildFor(m, input, quote, confirmedMin);
  const build = built.build;
  quote = built.quote;
  m.checkAbort(input.signal, 'build');
  return { quote, build };
}

/** 3. The build checks and the router pin: a new or changed router stops at needs-consent. */
export async function checkRouter(m: MachineCore, input: SwapInput, quote: Quote, build: BuildResult) {
  const from = input.account.address;
  // 3. Build checks and the router pin.
  await m.moveTo('checking');
  const checked = checkBuild({
    request: input.request,
    quote,
    build,
    account: from,
    pinnedRouter: await m.pins.get(input.chainId),
    unreadable: input.unreadable ?? 'refuse',
    ...(input.routerConsent ? { consentRouter: input.routerConsent } : {}),
  });
  if (!checked.ok) {
    if (isConsentReason(checked.reason)) {
      const reason = checked.reason;
      await m.moveTo('needs-consent', {
        consent: {
          kind: reason.code,
          router: reason.router,
          pinned: reason.code === 'ROUTER_CHANGED' ? reason.pinned : null,
        },
      });
      throw new Halt();
    }
    const words = buildCheckMessage(checked.reason);
    throw new Stop(checked.reason.code === 'QUOTE_MISMATCH' ? 'QUOTE_REJECTED' : 'BUILD_REJECTED', 'check', {
      detail: JSON.stringify(checked.reason),
      message: words,
    });
  }
  if (checked.pin) await m.pins.pin(input.chainId, checked.router);
  const router = checked.router;
  const swapCall = { to: router, data: build.transaction as Hex, value: BigInt(build.value) };
  return { readable: checked.calldata.readable, router, swapCall };
}

/** 4. Balances, the approval plan, and a preflight of every call, before anything is sent. */
export async function checkFundsAndPreflight(
  m: MachineCore,
  input: SwapInput,
  quote: Quote,
  route: { router: Address; swapCall: SwapCall; readable: boolean },
  at: RunProgress,
): Promise<{ approvalCalls: ReturnType<typeof approvalTransactions> }> {
  const { router, swapCall } = route;
  const from = input.account.address;
  const inAmount = BigInt(quote.inAmount);
  const minReceived = BigInt(quote.minReceived);
  at.step = 'balance';
  const reader = m.balanceReader(input.chainId);
  const snapshot = await reader.read(from, [quote.inToken, NATIVE_TOKEN_ADDRESS]);
  const nativeHeld = balanceOf(snapshot, NATIVE_TOKEN_ADDRESS) ?? 0n;
  const inHeld = balanceOf(snapshot, quote.inToken);
  if (inHeld === undefined || inHeld < inAmount) {
    throw new Stop('INSUFFICIENT_BALANCE', 'balance', {
      detail: `have ${inHeld ?? 'unknown'}, need ${inAmount}`,
    });
  }
  const nativeIn = isNativeToken(quote.inToken);
  const allowance = nativeIn ? 0n : await readAllowance(m.client, quote.inToken as Address, from, router);
  const plan = planApproval({
    token: quote.inToken,
    allowance,
    required: inAmount,
    mode: input.approvalMode ?? 'exact',
  });
  const approvalCalls = nativeIn ? [] : approvalTransactions(plan, quote.inToken as Address, router);
  if (!nativeIn) {
    await m.update({
      approval: {
        token: getAddress(quote.inToken),
        spender: router,
        plan: plan.kind,
        unlimited: plan.kind === 'none' ? false : plan.unlimited,
        allowance: allowance.toString(),
        required: inAmount.toString(),
        txs: [],
      },
    });
  }
  const fees: Fees = await cappedFees(m.client);

  at.step = 'preflight';
  const nonce = await m.client.getTransactionCount({ address: from, blockTag: 'pending' });
  const preflight = await simulateAssets(m.client, {
    from,
    nonce,
    fees,
    approvals: approvalCalls.map((call) => ({ to: call.to, data: call.data, value: 0n })),
    swap: swapCall,
    swapGas: simulationGas(quote.bestRoute),
    inToken: quote.inToken,
    outToken: quote.outToken,
    inAmount,
    minReceived,
    router,
  });
  if (preflight.status === 'no-funds') {
    throw new Stop('INSUFFICIENT_GAS_FUNDS', 'balance', { detail: preflight.detail });
  }
  if (preflight.status === 'reverted') {
    throw new Stop(preflight.call === 'swap' ? 'SIMULATION_REVERTED' : 'APPROVAL_FAILED', 'preflight', {
      revert: preflight.revert,
      detail: preflight.revert.text,
    });
  }
  if (preflight.status === 'violated') {
    const low = preflight.violations[0]?.code === 'OUTPUT_LOW';
    throw new Stop(low ? 'SIMULATED_OUTPUT_LOW' : 'BUILD_REJECTED', 'preflight', {
      detail: JSON.stringify(preflight.violations, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
      ...(low ? {} : { message: assetWords(preflight.violations) }),
    });
  }
  if (preflight.status === 'unsupported' && !route.readable) {
    // Unreadable calldata is signed only when an asset-change simulation proved the outcome.
    throw new Stop('BUILD_REJECTED', 'preflight', {
      detail: 'unreadable calldata without asset simulation',
    });
  }
  at.step = 'balance';
  const gasBudget =
    preflight.status === 'passed'
      ? withGasMargin(
          preflight.gasUsed.reduce((a, b) => a + b, 0n),
          m.timing.gasMarginPercent,
        )
      : 0n;
  if (nativeHeld < swapCall.value + gasBudget * fees.maxFeePerGas) {
    throw new Stop('INSUFFICIENT_GAS_FUNDS', 'balance', {
      detail: `have ${nativeHeld}, need ${swapCall.value} + ${gasBudget} gas at ${fees.maxFeePerGas}`,
    });
  }
  const outKey = (isNativeToken(quote.outToken) ? NATIVE_TOKEN_ADDRESS : quote.outToken).toLowerCase();
  const simulatedIn =
    preflight.status === 'passed' ? preflight.deltas.find((d) => d.token === outKey) : undefined;
  await m.update({
    simulation: {
      preflight: preflight.status === 'passed' ? 'passed' : 'unsupported',
      gasEstimate: null,
      gasLimit: null,
      simulatedReceived: simulatedIn ? simulatedIn.delta.toString() : null,
    },
  });
  m.checkAbort(input.signal, 'balance');
  return { approvalCalls };
}

/** 6. The swap's own simulation (after any approval), then the exact gas check. */
export async function simulateBeforeSigning(
  m: MachineCore,
  input: SwapInput,
  swapCall: SwapCall,
  minReceived: bigint,
) {
  const from = input.account.address;
  m.checkAbort(input.signal, 'simulate');
  await m.moveTo('simulating');
  const sim = await simulateSwap(m.client, {
    from,
    swap: swapCall,
    minReceived,
    gasMarginPercent: m.timing.gasMarginPercent,
  });
  if (!sim.ok) {
    if (sim.kind === 'reverted') {
      throw new Stop('SIMULATION_REVERTED', 'simulate', { revert: sim.revert, detail: sim.revert.text });
    }
    throw new Stop('SIMULATED_OUTPUT_LOW', 'simulate', {
      detail: `simulated ${sim.received} < minReceived ${sim.minReceived}`,
    });
  }
  const fees = await cappedFees(m.client);
  const native = await m.nativeBalance(from);
  if (native < swapCall.value + sim.gasLimit * fees.maxFeePerGas) {
    throw new Stop('INSUFFICIENT_GAS_FUNDS', 'simulate', {
      detail: `have ${native}, need ${swapCall.value} + ${sim.gasLimit} gas at ${fees.maxFeePerGas}`,
    });
  }
  const simulation = m.current().simulation;
  await m.update({
    simulation: {
      preflight: simulation?.preflight ?? 'skipped',
      gasEstimate: sim.gasEstimate.toString(),
      gasLimit: sim.gasLimit.toString(),
      simulatedReceived: sim.received?.toString() ?? simulation?.simulatedReceived ?? null,
    },
  });
  m.checkAbort(input.signal, 'simulate');
  return { sim, fees };
}

// The signing funnel: every transaction Swaplane signs (swap, approval, revoke, speed up, cancel,
// and a dapp's send) goes through here. A plan is built from checked state, never from a stored raw;
// `review` checks its fees against the chain's ceiling and its gas against what its simulation used,
// and records that the user was shown its fee; `sign` takes that review once (a second Confirm finds
// nothing: the review is removed before any await) and signs exactly the plan's fields with the
// trust-checked signer.
import type { AccessList, Address, Hex, LocalAccount } from 'viem';
import { type FeeCeiling, weiToGweiText, withinCeiling } from '@/lib/rpc/fee-ceiling';
import type { FeeEstimate } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { type Fees, type SignedTx, signCall, withGasMargin } from '@/lib/rpc/transactions';

export type PlanKind = 'swap' | 'approval' | 'revoke' | 'speed-up' | 'cancel' | 'dapp';

export interface TransactionPlan {
  kind: PlanKind;
  chainId: number;
  from: Address;
  /** null: a contract creation (a site's deployment, reviewed as such in its window). */
  to: Address | null;
  value: bigint;
  data: Hex;
  /** What the simulation (eth_simulateV1, or estimateGas) used; `gas` may exceed it by the margin only. */
  gasUsed: bigint;
  gas: bigint;
  /** Capped fees (lib/rpc/fees.ts cappedFees, ceiling included). */
  fees: Fees;
  /** A replacement reuses the nonce of the transaction it replaces; otherwise the next one. */
  nonce?: number;
  /** A site's EIP-2930 access list, shown in its window and signed as given. */
  accessList?: AccessList;
}

/** The most gas a call of a kind can need, whatever an RPC estimates (undefined: the simulation's). */
export const GAS_BOUNDS: Readonly<Partial<Record<PlanKind, bigint>>> = {
  approval: 120_000n,
  revoke: 120_000n,
  cancel: 21_000n,
};
export const FUNNEL_GAS_MARGIN_PERCENT = 25;

export type FunnelErrorCode =
  | 'GAS_ABOVE_SIMULATION'
  | 'FEE_ABOVE_CEILING'
  | 'REVIEW_USED'
  | 'REVIEW_EXPIRED'
  | 'WRONG_ACCOUNT'
  | 'CREATION_NOT_ALLOWED'
  | 'RPC_WRONG_CHAIN';

export class FunnelError extends Error {
  override name = 'FunnelError';
  constructor(
    readonly code: FunnelErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The gas limit a plan may carry: the margin over what was used, and the kind's bound (pure). */
export function gasLimitFor(kind: PlanKind, gasUsed: bigint): { gas: bigint; capped: boolean } {
  const margin = withGasMargin(gasUsed, FUNNEL_GAS_MARGIN_PERCENT);
  const bound = GAS_BOUNDS[kind];
  if (kind === 'cancel') return { gas: 21_000n, capped: false };
  if (bound !== undefined && margin > bound) return { gas: bound, capped: true };
  return { gas: margin, capped: false };
}

/** Why a plan may not be signed, or null (pure): the funnel's caps. */
export function planRefusal(plan: TransactionPlan, ceiling: FeeCeiling): FunnelError | null {
  // Only a site deploys a contract (shown as such in its window); Swaplane's own plans always call one.
  if (plan.to === null && plan.kind !== 'dapp') {
    return new FunnelError(
      'CREATION_NOT_ALLOWED',
      `A ${plan.kind} must name a recipient. Nothing was signed.`,
    );
  }
  const limit = gasLimitFor(plan.kind, plan.gasUsed).gas;
  if (plan.gas > limit) {
    return new FunnelError(
      'GAS_ABOVE_SIMULATION',
      `The gas limit (${plan.gas}) is above what the simulation used plus its margin (${limit}). Nothing was signed.`,
    );
  }
  if (!withinCeiling(plan.fees, ceiling)) {
    return new FunnelError(
      'FEE_ABOVE_CEILING',
      `The fee (${weiToGweiText(plan.fees.maxFeePerGas)} gwei per gas) is above your ceiling of ${weiToGweiText(ceiling.maxFeePerGas)} gwei for this network. Nothing was signed. Raise the ceiling in Settings, or wait for fees to fall.`,
    );
  }
  return null;
}

export interface ReviewedPlan {
  id: string;
  plan: TransactionPlan;
  /** The fee the screen showed (expected and the most it can cost), the plan's own figures. */
  shownFee: FeeEstimate;
  expiresAt: number;
}

export interface FunnelDeps {
  /** The chain's fee ceiling as the user set it (Settings), read at review and again at signing. */
  ceilingFor: (chainId: number) => FeeCeiling;
  now?: () => number;
  newId?: () => string;
}

export const REVIEW_TICKET_LIFETIME_MS = 120_000;

export function createSigningFunnel(deps: FunnelDeps) {
  const now = deps.now ?? Date.now;
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const reviews = new Map<string, ReviewedPlan>();

  function sweep(): void {
    const t = now();
    for (const [id, reviewed] of reviews) if (reviewed.expiresAt <= t) reviews.delete(id);
  }

  return {
    /**
     * Checks the plan against the caps and records it as shown to the user (with its fee). Returns
     * the ticket a Confirm carries; nothing is signed without one.
     */
    review(plan: TransactionPlan, options: { shownFee: FeeEstimate; expiresAt?: number }): ReviewedPlan {
      const refused = planRefusal(plan, deps.ceilingFor(plan.chainId));
      if (refused) throw refused;
      // The fee on screen is the signed one: its limit and fee per gas are the plan's.
      if (
        options.shownFee.gasLimit !== plan.gas.toString() ||
        options.shownFee.maxFeePerGas !== plan.fees.maxFeePerGas.toString()
      )
        throw new Error("the fee shown is not the plan's");
      sweep();
      const reviewed: ReviewedPlan = {
        id: newId(),
        plan,
        shownFee: options.shownFee,
        expiresAt: options.expiresAt ?? now() + REVIEW_TICKET_LIFETIME_MS,
      };
      reviews.set(reviewed.id, reviewed);
      return reviewed;
    },

    /** Forgets a review the user left. */
    drop(id: string): void {
      reviews.delete(id);
    },

    /**
     * Takes a review once, synchronously: a second Confirm (or a double click) finds it gone
     * before the first one's signing has awaited anything.
     */
    take(id: string, kind: PlanKind): ReviewedPlan {
      const reviewed = reviews.get(id);
      reviews.delete(id);
      if (!reviewed || reviewed.plan.kind !== kind)
        throw new FunnelError(
          'REVIEW_USED',
          'This review was already confirmed or closed. Nothing more was signed.',
        );
      if (reviewed.expiresAt <= now())
        throw new FunnelError('REVIEW_EXPIRED', 'This review expired. Nothing was signed: review it again.');
      return reviewed;
    },

    /**
     * Signs a taken review's plan exactly: its fields, fees, gas and nonce. `signer` is the
     * trust-checked one (a broken seal throws there); the ceiling is checked again (the user may
     * have lowered it since).
     */
    async sign(input: {
      reviewed: ReviewedPlan;
      client: RpcClient;
      signer: () => Promise<LocalAccount>;
    }): Promise<SignedTx> {
      return signChecked(input.reviewed.plan, input);
    },

    /**
     * Signs a plan whose fee the user saw on another plan's review: a swap's approvals (the swap
     * review shows their fee), a swap rebuilt at Confirm after QUOTE_OUTDATED (its minimum at least
     * the reviewed one). The same checks as `sign`; there is no ticket to take.
     */
    signUnder(input: {
      plan: TransactionPlan;
      client: RpcClient;
      signer: () => Promise<LocalAccount>;
    }): Promise<SignedTx> {
      return signChecked(input.plan, input);
    },
  };

  async function signChecked(
    plan: TransactionPlan,
    input: { client: RpcClient; signer: () => Promise<LocalAccount> },
  ): Promise<SignedTx> {
    const refused = planRefusal(plan, deps.ceilingFor(plan.chainId));
    if (refused) throw refused;
    const account = await input.signer();
    if (account.address.toLowerCase() !== plan.from.toLowerCase())
      throw new FunnelError(
        'WRONG_ACCOUNT',
        'The active account changed since the review. Nothing was signed.',
      );
    const chainId = await input.client.getChainId();
    if (chainId !== plan.chainId)
      throw new FunnelError(
        'RPC_WRONG_CHAIN',
        `The RPC answers for chain ${chainId}, not ${plan.chainId}. Nothing was signed.`,
      );
    return signCall(
      input.client,
      account,
      {
        to: plan.to,
        data: plan.data,
        value: plan.value,
        gas: plan.gas,
        ...(plan.accessList ? { accessList: plan.accessList } : {}),
      },
      plan.fees,
      plan.nonce,
    );
  }
}

export type SigningFunnel = ReturnType<typeof createSigningFunnel>;

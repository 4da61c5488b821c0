// The review's warnings (stable codes: the popup keys acknowledgement ticks on them, and startSwap
// refuses a swap whose needsAcknowledgement warnings were not all acknowledged) and the words for
// an asset check that failed. Pure.

import type { UserMessage } from '@/lib/api/messages';
import { HIGH_FEE_PERCENT } from '@/lib/rpc/fees';
import { SLIPPAGE_LIMITS } from '@/lib/settings/settings';
import type { AssetViolation } from './asset-sim';
import type { PreviewWarning } from './preview';

export const WARNING_CODES = {
  unreadable: 'UNREADABLE_CALLDATA',
  simulationLimited: 'SIMULATION_LIMITED',
  highFee: 'HIGH_FEE',
  feeCapped: 'FEE_CAPPED',
  highSlippage: 'HIGH_SLIPPAGE',
  routerNew: 'ROUTER_UNPINNED',
  routerChanged: 'ROUTER_CHANGED',
} as const;

export function previewWarnings(input: {
  readable: boolean;
  missing: readonly string[];
  highFee: boolean;
  feeCapped: boolean;
  consent: 'ROUTER_UNPINNED' | 'ROUTER_CHANGED' | null;
  router: string;
  /** The request's slippage, percent. */
  slippage?: number;
}): PreviewWarning[] {
  const warnings: PreviewWarning[] = [];
  if (input.slippage !== undefined && input.slippage > SLIPPAGE_LIMITS.warnAbove) {
    warnings.push({
      code: WARNING_CODES.highSlippage,
      level: 'danger',
      message: `Your slippage is ${input.slippage}%: you accept receiving up to ${input.slippage}% less than quoted, and bots can take that difference.`,
      needsAcknowledgement: true,
    });
  }
  if (!input.readable) {
    warnings.push({
      code: WARNING_CODES.unreadable,
      level: 'danger',
      message:
        'Swaplane could not read this swap call. The simulation shows the balance changes listed here; sign only if they are what you expect.',
      needsAcknowledgement: true,
    });
  }
  if (input.missing.length > 0) {
    warnings.push({
      code: WARNING_CODES.simulationLimited,
      level: 'warning',
      message: `This RPC could not check everything. Not checked: ${input.missing.join('; ')}.`,
      needsAcknowledgement: false,
    });
  }
  if (input.highFee) {
    warnings.push({
      code: WARNING_CODES.highFee,
      level: 'danger',
      message: `The network fee can reach ${HIGH_FEE_PERCENT}% or more of what you swap.`,
      needsAcknowledgement: true,
    });
  }
  if (input.feeCapped) {
    warnings.push({
      code: WARNING_CODES.feeCapped,
      level: 'info',
      message: 'The RPC suggested a higher fee than recent blocks paid; Swaplane capped it.',
      needsAcknowledgement: false,
    });
  }
  if (input.consent) {
    // Trusting the router is part of the review: its tick is the user's consent, and startSwap
    // records the trust (pins the router) only for a review that carries it.
    warnings.push({
      code: input.consent,
      level: input.consent === 'ROUTER_CHANGED' ? 'danger' : 'warning',
      message:
        input.consent === 'ROUTER_CHANGED'
          ? `This service's swap contract on this network differs from the one you trusted. A changed contract is what a hacked or malicious service would use to take your tokens. New router: ${input.router}.`
          : `This is the first swap with this service on this network. Its router contract ${input.router} receives the tokens you swap; Swaplane checks each swap's outcome by simulation, but cannot vouch for the contract itself.`,
      needsAcknowledgement: true,
    });
  }
  return warnings;
}

export function assetWords(violations: readonly AssetViolation[]): UserMessage {
  const first = violations[0];
  const action = 'Nothing was signed. Do not use this swap service until this is explained.';
  switch (first?.code) {
    case 'OUTPUT_LOW':
      return {
        title: 'The swap would not pay you what the quote promises',
        detail: `Simulated, your account receives ${first.received} (smallest units) instead of at least ${first.minReceived}.`,
        action,
      };
    case 'INPUT_OVERSPENT':
      return {
        title: 'The swap would take more than you agreed',
        detail: `Simulated, ${first.spent} leaves your account instead of at most ${first.quoted} (smallest units).`,
        action,
      };
    case 'OTHER_ASSET_DECREASE':
      return {
        title: 'The swap would move another of your tokens',
        detail: `Simulated, your balance of ${first.token} goes down.`,
        action,
      };
    case 'FOREIGN_APPROVAL':
      return {
        title: 'The swap would let another address spend your tokens',
        detail: `Simulated, it approves ${first.spender} to spend ${first.token}.`,
        action,
      };
    default:
      return {
        title: 'The swap failed its checks',
        detail: 'The simulation did not match the quote.',
        action,
      };
  }
}

// One swap state for the unit tests: a swap of 1 wei of ETH for USDC on Ethereum, before any step has
// recorded anything. Each test overrides only what it is about.
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import type { HistoryEntry, SwapState } from '@/lib/state/pipeline-state';

type SwapHistoryEntry = Extract<HistoryEntry, { kind: 'swap' }>;

import { USDC } from './addresses';

/** anvil's first funded account. */
export const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/** The router the unit tests' builds go to (and pin), a pool their routes name, and the zero address. */
export const ROUTER = '0xb19b36b1456E65E3A6D514D3F715f204BD59f431';
export const POOL = '0x8AF1FAd2Acc1C375b3d24024F04A4cE02F872f9D';
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export function swapStateFixture(overrides: Partial<SwapState> = {}): SwapState {
  return {
    id: 'swap-1',
    status: 'sent',
    chainId: 1,
    account: ACCOUNT,
    approvalMode: 'exact',
    request: { chainId: 1, inToken: NATIVE_TOKEN_ADDRESS, outToken: USDC, inAmount: '1', slippage: 0.5 },
    quote: null,
    requotes: 0,
    build: null,
    approval: null,
    simulation: null,
    tx: null,
    outcome: null,
    failure: null,
    consent: null,
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  };
}

/** A confirmed swap in the history: 1 ETH for 2,991.5 USDC on Ethereum (quoted 2,990). */
export function historySwapFixture(overrides: Partial<SwapHistoryEntry> = {}): SwapHistoryEntry {
  const hash = `0x${'ab'.repeat(32)}`;
  return {
    kind: 'swap',
    id: 'swap-1',
    chainId: 1,
    account: ACCOUNT,
    status: 'confirmed',
    hash,
    explorerUrl: `https://etherscan.io/tx/${hash}`,
    gasPaid: '210000000000000',
    failure: null,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    inToken: NATIVE_TOKEN_ADDRESS,
    outToken: USDC.toLowerCase(),
    inDecimals: 18,
    outDecimals: 6,
    inAmount: '1000000000000000000',
    quotedOut: '2990000000',
    minReceived: '2975050000',
    received: '2991500000',
    ...overrides,
  };
}

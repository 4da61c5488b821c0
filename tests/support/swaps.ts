// One swap state for the unit tests: a swap of 1 wei of ETH for USDC on Ethereum, before any step has
// recorded anything. Each test overrides only what it is about.
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import type { SwapState } from '@/lib/state/pipeline-state';
import { USDC } from './addresses';

/** anvil's first funded account. */
export const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

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

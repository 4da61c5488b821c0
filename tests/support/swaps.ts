// One swap state for the unit tests: a swap of 1 wei of ETH for USDC on Ethereum, before any step has
// recorded anything. Each test overrides only what it is about.
import { encodeFunctionData, type Hex } from 'viem';
import { NATIVE_TOKEN_ADDRESS, type Quote } from '@/lib/api/schema';
import type { HistoryEntry, SentTx, SwapState } from '@/lib/state/pipeline-state';
import { ROUTER_SWAP_ABI } from '@/lib/swap/router-abi';
import { DAI, USDC } from './addresses';
import { quoteFixture } from './quotes';

type SwapHistoryEntry = Extract<HistoryEntry, { kind: 'swap' }>;

/** anvil's first funded account. */
export const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/** The router the unit tests' builds go to (and pin), a pool their routes name, and the zero address. */
export const ROUTER: Hex = '0xb19b36b1456E65E3A6D514D3F715f204BD59f431';
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

/** A signed and sent transaction as the machine records it (hash 0xabab…). */
export function sentTxFixture(overrides: Partial<SentTx> = {}): SentTx {
  return {
    hash: `0x${'ab'.repeat(32)}`,
    nonce: 1,
    raw: '0x01',
    gasLimit: '1',
    maxFeePerGas: '1',
    explorerUrl: null,
    signedAt: 1,
    sentAt: 2,
    ...overrides,
  };
}

/** 100 USDC for 100 DAI through one pool of ROUTER (minimum 99.5 DAI): the build checks' quote. */
export const USDC_DAI_QUOTE: Quote = quoteFixture({
  inToken: USDC,
  inDecimals: 6,
  inAmount: '100000000',
  outToken: DAI,
  outDecimals: 18,
  outAmount: '100000000000000000000',
  minReceived: '99500000000000000000',
  bestRoute: [{ percent: 100, swaps: [{ pool: POOL, tokenIn: USDC, tokenOut: DAI }] }],
  contractAddress: ROUTER,
});

export type SwapCallArgs = {
  inToken: Hex;
  outToken: Hex;
  inAmount: bigint;
  minReceived: bigint;
  recipient: Hex;
};

/** The router call USDC_DAI_QUOTE asks for (recipient zero: the caller), with any field changed. */
export function usdcDaiSwapData(over: Partial<SwapCallArgs> = {}): Hex {
  return encodeFunctionData({
    abi: ROUTER_SWAP_ABI,
    functionName: 'swap',
    args: [
      over.inToken ?? USDC,
      over.outToken ?? DAI,
      over.inAmount ?? 100_000_000n,
      over.minReceived ?? 99_500_000_000_000_000_000n,
      [{ percent: 100, hops: [{ pool: POOL, tokenIn: USDC, tokenOut: DAI }] }],
      over.recipient ?? ZERO_ADDRESS,
      0n,
    ],
  });
}

/** The honest build of USDC_DAI_QUOTE. */
export const USDC_DAI_BUILD: { to: string; transaction: string; value: string } = {
  to: ROUTER,
  transaction: usdcDaiSwapData(),
  value: '0',
};

// Token safety for the explorer card: before offering a swap of a token that is not on the service's
// list, simulate a small buy from its Uniswap V2 pool against the wrapped native coin and an
// immediate sell of everything received, on the user's RPC, in ONE eth_simulateV1 call. Nothing is
// signed or sent: the probe contract (service/contracts/SafetyProbe.sol) lives only in the state
// override of that simulation, at a throwaway address, with a throwaway balance.
import {
  type Address,
  BaseError,
  decodeFunctionResult,
  encodeFunctionData,
  getAddress,
  type Hex,
  parseAbi,
  toFunctionSelector,
} from 'viem';
import { isRpcUnavailable, type RpcClient } from '@/lib/rpc/network';

const PROBE_ABI = parseAbi([
  'struct Result { address pair; uint256 buyExpected; uint256 buyReceived; bool sellOk; uint256 sellSent; uint256 sellArrived; uint256 sellWethOut; bytes sellError; }',
  'function probe(address[] factories, address weth, address token) payable returns (Result result)',
  'error NoPool()',
]);

/** Where the probe lives during the simulation, and who calls it: no key, no code, no history. */
export const PROBE_ADDRESS: Address = '0x5afe000000000000000000000000000000005afe';
const CALLER: Address = '0x5afe000000000000000000000000000000000ca1';

/**
 * Uniswap V2-style factories to find a token's pool in, per chain: the chain's main V2 DEX, and on
 * the chains the devnet replicates, the devnet's own Uniswap V2 factory (the deployer's first
 * contract: CREATE from anvil's account 9 at nonce 0; no contract lives there on the real chains).
 */
const DEVNET_V2_FACTORY: Address = '0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35';
export const V2_FACTORIES: Readonly<Record<number, readonly Address[]>> = {
  1: ['0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f', DEVNET_V2_FACTORY],
  10: ['0x0c3c1c532F1e39EdF36BE9Fe0bE1410313E074Bf'],
  56: ['0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73'],
  137: ['0x5757371414417b8C6CAad45bAeF941aBc7d3Ab32'],
  8453: ['0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6', DEVNET_V2_FACTORY],
  42161: ['0xf1D7CC64Fb4452F05c498126312eBE29f30Fbcf9'],
  43114: ['0x9Ad6C38BE94206cA50bb0d90783181662f0Cfd10'],
};

const NO_POOL_SELECTOR = toFunctionSelector('NoPool()');

export type SafetyVerdict = 'clean' | 'tax' | 'sell-blocked' | 'no-pool' | 'buy-failed' | 'unsupported';

export interface SafetyReport {
  verdict: SafetyVerdict;
  /** Basis points lost on the buy and on the sell (transfer tax), when the simulation got that far. */
  buyTaxBps?: number;
  sellTaxBps?: number;
}

export interface ProbeResult {
  buyExpected: bigint;
  buyReceived: bigint;
  sellOk: boolean;
  sellSent: bigint;
  sellArrived: bigint;
}

/** Basis points of `expected` that did not arrive (0 when all did or more). */
function lostBps(expected: bigint, arrived: bigint): number {
  if (expected <= 0n || arrived >= expected) return 0;
  return Number(((expected - arrived) * 10_000n + expected / 2n) / expected); // to the nearest
}

/** What the probe's numbers mean. Pure. A loss under 0.1% is rounding, not a tax. */
export function interpretProbe(result: ProbeResult): SafetyReport {
  const buyTaxBps = lostBps(result.buyExpected, result.buyReceived);
  if (!result.sellOk) return { verdict: 'sell-blocked', buyTaxBps };
  const sellTaxBps = lostBps(result.sellSent, result.sellArrived);
  const verdict = buyTaxBps >= 10 || sellTaxBps >= 10 ? 'tax' : 'clean';
  return { verdict, buyTaxBps, sellTaxBps };
}

function unsupported(error: unknown): boolean {
  if (!(error instanceof BaseError) || isRpcUnavailable(error)) return false;
  const coded = error.walk((e) => {
    const code = (e as { code?: unknown }).code;
    return code === -32601 || code === -32004;
  });
  return (
    coded !== null ||
    /method .*(not found|not supported|does not exist|not available)|unknown method|unsupported method/i.test(
      `${error.shortMessage} ${error.details ?? ''}`,
    )
  );
}

export interface SafetyInput {
  chainId: number;
  token: Address;
  /** The chain's wrapped native coin (the pool's other side). */
  weth: Address;
  /** Native coin to buy with, smallest unit. */
  amount: bigint;
  /**
   * The probe's runtime code (lib/safety/probe-code.ts). The worker reads it from the packaged file
   * public/safety-probe.hex when a check runs, so 6 kB of hex are not parsed at every worker start.
   */
  probeCode: Hex;
}

/** One eth_simulateV1 call; throws only when the RPC is unreachable (the caller says so). */
export async function checkTokenSafety(client: RpcClient, input: SafetyInput): Promise<SafetyReport> {
  const factories = [...(V2_FACTORIES[input.chainId] ?? [])];
  if (factories.length === 0) return { verdict: 'no-pool' };
  const data = encodeFunctionData({
    abi: PROBE_ABI,
    functionName: 'probe',
    args: [factories, getAddress(input.weth), getAddress(input.token)],
  });
  let block: Awaited<ReturnType<RpcClient['simulateBlocks']>>[number] | undefined;
  try {
    [block] = await client.simulateBlocks({
      blocks: [
        {
          calls: [{ account: CALLER, to: PROBE_ADDRESS, data, value: input.amount }],
          stateOverrides: [
            { address: PROBE_ADDRESS, code: input.probeCode },
            { address: CALLER, balance: input.amount * 2n + 10n ** 18n },
          ],
        },
      ],
      validation: false,
    });
  } catch (error) {
    if (unsupported(error)) return { verdict: 'unsupported' };
    throw error;
  }
  const call = block?.calls[0];
  if (!call) return { verdict: 'unsupported' };
  if (call.status !== 'success') {
    // NoPool(): no factory has a pool of it against the wrapped coin; anything else stopped the buy.
    const selector = (call.data ?? '0x').slice(0, 10);
    return { verdict: selector === NO_POOL_SELECTOR ? 'no-pool' : 'buy-failed' };
  }
  const result = decodeFunctionResult({ abi: PROBE_ABI, functionName: 'probe', data: call.data });
  return interpretProbe(result);
}

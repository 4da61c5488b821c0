// viem's read actions the wallet uses, slimmed for the background bundle (budget 150 kB gzip):
// eth_call, readContract and getBalance without viem's `call` action (deployless-call and ERC-6492
// bytecode, multicall batching and CCIP-Read, ~20 kB raw), eth_estimateGas without
// prepareTransactionRequest, and the EIP-1559 fee suggestion without block formatters. Errors are
// mapped as viem maps them (getCallError, getContractError, getEstimateGasError), so a revert still
// reads the same through lib/swap/simulate.ts's revertOf.
import type {
  Abi,
  CallParameters,
  CallReturnType,
  Chain,
  Client,
  ContractFunctionArgs,
  ContractFunctionName,
  EstimateGasParameters,
  GetBalanceParameters,
  Hex,
  ReadContractParameters,
  ReadContractReturnType,
  Transport,
} from 'viem';
import { Eip1559FeesNotSupportedError } from 'viem';
import {
  assertRequest,
  decodeFunctionResult,
  encodeFunctionData,
  formatTransactionRequest,
  getCallError,
  getContractError,
  getEstimateGasError,
  hexToBigInt,
  numberToHex,
  parseAccount,
} from 'viem/utils';

type AnyClient = Client<Transport, Chain | undefined>;

/** The block parameter as viem formats it (EIP-1898 for a block hash). */
function blockOf(args: {
  blockNumber?: bigint | undefined;
  blockTag?: string | undefined;
  blockHash?: Hex | undefined;
  requireCanonical?: boolean | undefined;
}): string | object {
  const { blockHash, blockNumber, requireCanonical } = args;
  if (blockHash) return requireCanonical === undefined ? { blockHash } : { blockHash, requireCanonical };
  return typeof blockNumber === 'bigint' ? numberToHex(blockNumber) : (args.blockTag ?? 'latest');
}

/**
 * eth_call at a block number or tag (default 'latest'). Unlike viem's `call`: no multicall
 * batching, no deployless `code`/`factory` calls, no state or block overrides, and no CCIP-Read
 * (an OffchainLookup revert stays a revert instead of the worker fetching a URL the contract names).
 */
export async function ethCall(
  client: AnyClient,
  args: CallParameters<Chain | undefined>,
): Promise<CallReturnType> {
  const { account: account_, blockNumber, blockTag, blockHash, requireCanonical, ...rest } = args;
  const account = account_ ? parseAccount(account_) : undefined;
  try {
    assertRequest(args);
    const format = client.chain?.formatters?.transactionRequest?.format ?? formatTransactionRequest;
    const request = format({ ...rest, account } as never, 'call');
    const block = blockOf({ blockNumber, blockTag, blockHash, requireCanonical });
    const data = (await client.request({ method: 'eth_call', params: [request, block] } as never)) as Hex;
    return { data: data === '0x' ? undefined : data };
  } catch (error) {
    throw getCallError(error as never, { ...args, account, chain: client.chain } as never);
  }
}

/** viem's readContract over `ethCall`: encode, call, decode; errors as viem's ContractFunction* ones. */
export async function readContract<
  const abi extends Abi | readonly unknown[],
  functionName extends ContractFunctionName<abi, 'pure' | 'view'>,
  const args extends ContractFunctionArgs<abi, 'pure' | 'view', functionName>,
>(
  client: AnyClient,
  parameters: ReadContractParameters<abi, functionName, args>,
): Promise<ReadContractReturnType<abi, functionName, args>> {
  const { abi, address, args, functionName, ...rest } = parameters as ReadContractParameters;
  const calldata = encodeFunctionData({ abi, args, functionName } as never);
  try {
    const { data } = await ethCall(client, { ...rest, data: calldata, to: address } as never);
    return decodeFunctionResult({ abi, args, functionName, data: data || '0x' } as never) as never;
  } catch (error) {
    throw getContractError(
      error as never,
      {
        abi,
        address,
        args,
        docsPath: '/docs/contract/readContract',
        functionName,
      } as never,
    );
  }
}

/** viem's getBalance without its multicall path (these clients never batch): eth_getBalance. */
export async function getBalance(client: AnyClient, args: GetBalanceParameters): Promise<bigint> {
  const params = [args.address, blockOf(args)];
  return BigInt((await client.request({ method: 'eth_getBalance', params } as never)) as Hex);
}

/**
 * eth_estimateGas for an address-only account, as viem's `estimateGas` sends it for one. viem's
 * action also imports `prepareTransactionRequest` (nonce, fees, chain id and blob filling for
 * local accounts, ~8 kB minified with what it pulls in), which such a call never runs. No state
 * overrides or authorization lists: the wallet never estimates with them. Errors are mapped as viem maps
 * them (getEstimateGasError), so a revert reads the same.
 */
export async function estimateGas(client: AnyClient, args: EstimateGasParameters): Promise<bigint> {
  const { account: account_, blockNumber, blockTag, ...rest } = args;
  const account = account_ ? parseAccount(account_) : undefined;
  try {
    assertRequest(args);
    const format = client.chain?.formatters?.transactionRequest?.format ?? formatTransactionRequest;
    const request = format({ ...rest, account } as never, 'estimateGas');
    const block = typeof blockNumber === 'bigint' ? numberToHex(blockNumber) : blockTag;
    const params = block ? [request, block] : [request];
    return BigInt((await client.request({ method: 'eth_estimateGas', params } as never)) as Hex);
  } catch (error) {
    throw getEstimateGasError(error as never, { ...args, account, chain: client.chain } as never);
  }
}

/**
 * viem's EIP-1559 fee suggestion (the latest base fee x 1.2, plus eth_maxPriorityFeePerGas, or the
 * gas price above the base fee when the node lacks that method), without its block and transaction
 * formatters and chain fee hooks (none of Swaplane's chains has one). The caller caps the result
 * against the fee history and the chain's ceiling (./fees.ts).
 */
export async function estimateFeesPerGas(
  client: AnyClient,
): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
  const block = (await client.request({
    method: 'eth_getBlockByNumber',
    params: ['latest', false],
  } as never)) as { baseFeePerGas?: unknown } | null;
  if (typeof block?.baseFeePerGas !== 'string') throw new Eip1559FeesNotSupportedError();
  const baseFee = hexToBigInt(block.baseFeePerGas as Hex);
  let priority: bigint;
  try {
    priority = hexToBigInt((await client.request({ method: 'eth_maxPriorityFeePerGas' } as never)) as Hex);
  } catch {
    const gasPrice = hexToBigInt((await client.request({ method: 'eth_gasPrice' } as never)) as Hex);
    priority = gasPrice > baseFee ? gasPrice - baseFee : 0n;
  }
  return { maxFeePerGas: (baseFee * 12n) / 10n + priority, maxPriorityFeePerGas: priority };
}

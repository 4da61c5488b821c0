// Tokens for the explorer card's safety check, deployed after the rest of a chain: a fee-on-transfer
// token (5% of every transfer burns), a token that can be bought but never sold (transfers into its
// pool revert), and a plain one. Each has a Uniswap V2 pool against WETH, so it can be bought; none is
// on the swap service's list (they are not in the manifest's `tokens`), which is the case the card
// checks. Deterministic: same chain, same addresses.
import {
  type Address,
  concatHex,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  parseAbi,
  parseEther,
} from 'viem';
import { uniswapV2FactoryAbi, uniswapV2PairAbi, weth9Abi } from './abi.ts';
import { DEPLOYER } from './accounts.ts';
import { loadArtifact } from './artifacts.ts';
import { RpcClient } from './rpc.ts';

export interface SafetyTokens {
  /** 5% transfer tax. */
  feeOnTransfer: Address;
  /** Buys work, sells revert. */
  sellBlocked: Address;
  /** Neither. */
  clean: Address;
}

const safetyTokenAbi = parseAbi([
  'function setPair(address pair)',
  'function transfer(address to, uint256 amount) returns (bool)',
]);

// Each pool: 100 WETH against 1,000,000 tokens.
const POOL_WETH = parseEther('100');
const POOL_TOKENS = parseEther('1000000');

const SPECS = [
  { key: 'feeOnTransfer', name: 'Taxed Devnet Token', symbol: 'TAX5', taxBps: 500, blockSells: false },
  { key: 'sellBlocked', name: 'Honeypot Devnet Token', symbol: 'HONEY', taxBps: 0, blockSells: true },
  { key: 'clean', name: 'Plain Devnet Token', symbol: 'PLAIN', taxBps: 0, blockSells: false },
] as const;

export async function deploySafetyTokens(
  rpcUrl: string,
  weth: Address,
  factory: Address,
): Promise<SafetyTokens> {
  const rpc = new RpcClient(rpcUrl);
  const send = async (to: Address | null, data: Hex, value = 0n) => {
    const hash = await rpc.request<Hex>('eth_sendTransaction', [
      {
        from: DEPLOYER,
        data,
        gas: '0x5b8d80',
        ...(to ? { to } : {}),
        ...(value ? { value: `0x${value.toString(16)}` } : {}),
      },
    ]);
    type Receipt = { status: Hex; contractAddress: Address | null } | null;
    let receipt = await rpc.request<Receipt>('eth_getTransactionReceipt', [hash]);
    // Mined at once under automine; a devnet started with a block time needs a nudge.
    if (!receipt) {
      await rpc.request('evm_mine');
      receipt = await rpc.request<Receipt>('eth_getTransactionReceipt', [hash]);
    }
    if (receipt?.status !== '0x1') throw new Error(`safety token deploy failed (${data.slice(0, 10)})`);
    return receipt;
  };
  const artifact = loadArtifact('SafetyTestToken');
  await send(
    weth,
    encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' }),
    POOL_WETH * BigInt(SPECS.length),
  );
  const deployed: Partial<Record<keyof SafetyTokens, Address>> = {};
  for (const spec of SPECS) {
    const args = encodeAbiParameters(
      [{ type: 'string' }, { type: 'string' }, { type: 'uint16' }, { type: 'bool' }, { type: 'uint256' }],
      [spec.name, spec.symbol, spec.taxBps, spec.blockSells, POOL_TOKENS],
    );
    const { contractAddress: token } = await send(null, concatHex([artifact.bytecode, args]));
    if (!token) throw new Error(`${spec.symbol}: no contract address`);
    await send(
      factory,
      encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'createPair', args: [token, weth] }),
    );
    const pairData = encodeFunctionData({
      abi: uniswapV2FactoryAbi,
      functionName: 'getPair',
      args: [token, weth],
    });
    const pair =
      `0x${(await rpc.request<Hex>('eth_call', [{ to: factory, data: pairData }, 'latest'])).slice(26)}` as Address;
    await send(token, encodeFunctionData({ abi: safetyTokenAbi, functionName: 'setPair', args: [pair] }));
    // The owner's transfers are untaxed and allowed into the pool: that is how liquidity gets in.
    await send(
      token,
      encodeFunctionData({ abi: safetyTokenAbi, functionName: 'transfer', args: [pair, POOL_TOKENS] }),
    );
    await send(
      weth,
      encodeFunctionData({ abi: weth9Abi, functionName: 'transfer', args: [pair, POOL_WETH] }),
    );
    await send(pair, encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [DEPLOYER] }));
    deployed[spec.key] = token;
  }
  return deployed as SafetyTokens;
}

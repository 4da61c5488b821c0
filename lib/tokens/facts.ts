// Token facts from the chain, not from the swap service: decimals() and symbol() of ERC-20s read
// through Multicall3 (one eth_call per batch, allowFailure so one broken token cannot hide the
// others), the native coin's from the chain registry. Cached per chain and address: decimals never
// change. A list entry or a quote whose decimals the chain contradicts is refused with a message
// naming both values (SECURITY.md, "Token facts").
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hexToString,
} from 'viem';
import { isNativeToken, type Quote, type Token } from '@/lib/api/schema';
import { getChain } from '@/lib/chains';
import { MULTICALL3_ADDRESS, multicall3BalanceAbi } from '@/lib/rpc/balances';
import type { RpcClient } from '@/lib/rpc/network';

export interface TokenFacts {
  decimals: number;
  /** Empty when the token has no readable symbol(). */
  symbol: string;
}

export class TokenFactsError extends Error {
  override name = 'TokenFactsError';
  constructor(
    readonly code: 'DECIMALS_MISMATCH' | 'TOKEN_UNREADABLE',
    message: string,
  ) {
    super(message);
  }
}

const BATCH = 400;
const bytes32SymbolAbi = [
  { type: 'function', name: 'symbol', stateMutability: 'view', inputs: [], outputs: [{ type: 'bytes32' }] },
] as const;

/** symbol() as string, or as bytes32 (old tokens such as MKR), cleaned for display. */
function decodeSymbol(data: Hex): string {
  let text = '';
  try {
    text = decodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', data });
  } catch {
    try {
      text = hexToString(decodeFunctionResult({ abi: bytes32SymbolAbi, functionName: 'symbol', data }), {
        size: 32,
      });
    } catch {
      return '';
    }
  }
  return text.replace(/[^\p{L}\p{N}.+\-_$ ]/gu, '').slice(0, 20);
}

export interface TokenFactsReader {
  /** Facts of each address (native included); an address whose decimals() failed is absent. */
  read(chainId: number, addresses: readonly string[]): Promise<Map<string, TokenFacts>>;
}

export function createTokenFactsReader(clientFor: (chainId: number) => RpcClient): TokenFactsReader {
  const cache = new Map<string, TokenFacts>();
  const key = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`;

  async function fetchBatch(chainId: number, tokens: string[]): Promise<void> {
    const calls = tokens.flatMap((token) => [
      {
        target: token as Address,
        allowFailure: true,
        callData: encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' }),
      },
      {
        target: token as Address,
        allowFailure: true,
        callData: encodeFunctionData({ abi: erc20Abi, functionName: 'symbol' }),
      },
    ]);
    // aggregate3 is payable, so viem's readContract refuses it: a plain eth_call does the same.
    const { data } = await clientFor(chainId).call({
      to: MULTICALL3_ADDRESS,
      data: encodeFunctionData({ abi: multicall3BalanceAbi, functionName: 'aggregate3', args: [calls] }),
    });
    const results = decodeFunctionResult({
      abi: multicall3BalanceAbi,
      functionName: 'aggregate3',
      data: data ?? '0x',
    });
    tokens.forEach((token, i) => {
      const decimals = results[2 * i];
      const symbol = results[2 * i + 1];
      if (!decimals?.success || decimals.returnData.length !== 66) return;
      const value = BigInt(decimals.returnData);
      if (value > 255n) return;
      cache.set(key(chainId, token), {
        decimals: Number(value),
        symbol: symbol?.success ? decodeSymbol(symbol.returnData) : '',
      });
    });
  }

  return {
    async read(chainId, addresses) {
      const chain = getChain(chainId);
      const out = new Map<string, TokenFacts>();
      const missing: string[] = [];
      for (const address of new Set(addresses.map((a) => a.toLowerCase()))) {
        if (isNativeToken(address)) {
          if (chain) out.set(address, { decimals: chain.nativeDecimals, symbol: chain.nativeSymbol });
          continue;
        }
        const hit = cache.get(key(chainId, address));
        if (hit) out.set(address, hit);
        else missing.push(address);
      }
      for (let i = 0; i < missing.length; i += BATCH) await fetchBatch(chainId, missing.slice(i, i + BATCH));
      for (const address of missing) {
        const hit = cache.get(key(chainId, address));
        if (hit) out.set(address, hit);
      }
      return out;
    },
  };
}

function mismatch(what: string, claimed: number, onChain: number): TokenFactsError {
  return new TokenFactsError(
    'DECIMALS_MISMATCH',
    `The swap service says ${what} has ${claimed} decimals; the chain says ${onChain}. Swaplane refused it, so no amount is shown or signed with the wrong decimals.`,
  );
}

/**
 * A token list with every entry's decimals checked on-chain. An entry the chain contradicts refuses
 * the whole list (the service is lying or broken); an entry whose decimals() cannot be read is left
 * out (nothing could be parsed or shown safely with it).
 */
export async function verifyTokenList(
  reader: TokenFactsReader,
  chainId: number,
  tokens: readonly Token[],
): Promise<Token[]> {
  const facts = await reader.read(
    chainId,
    tokens.map((t) => t.address),
  );
  const kept: Token[] = [];
  for (const token of tokens) {
    const fact = facts.get(token.address.toLowerCase());
    if (!fact) continue;
    if (fact.decimals !== token.decimals)
      throw mismatch(token.symbol || token.address, token.decimals, fact.decimals);
    kept.push(token);
  }
  return kept;
}

/** One token's decimals, checked against the chain (imported tokens, one-click cards). */
export async function verifyTokenDecimals(
  reader: TokenFactsReader,
  chainId: number,
  token: Pick<Token, 'address' | 'decimals' | 'symbol'>,
): Promise<TokenFacts> {
  const fact = (await reader.read(chainId, [token.address])).get(token.address.toLowerCase());
  if (!fact) {
    throw new TokenFactsError(
      'TOKEN_UNREADABLE',
      `Swaplane could not read the decimals of ${token.symbol || token.address} from the chain.`,
    );
  }
  if (fact.decimals !== token.decimals)
    throw mismatch(token.symbol || token.address, token.decimals, fact.decimals);
  return fact;
}

/** A quote's inDecimals and outDecimals must be the chain's. */
export async function verifyQuoteDecimals(reader: TokenFactsReader, quote: Quote): Promise<void> {
  const facts = await reader.read(quote.chainId, [quote.inToken, quote.outToken]);
  for (const [token, claimed] of [
    [quote.inToken, quote.inDecimals],
    [quote.outToken, quote.outDecimals],
  ] as const) {
    const fact = facts.get(token.toLowerCase());
    if (!fact) {
      throw new TokenFactsError(
        'TOKEN_UNREADABLE',
        `Swaplane could not read the decimals of ${token} from the chain.`,
      );
    }
    if (fact.decimals !== claimed) throw mismatch(fact.symbol || token, claimed, fact.decimals);
  }
}

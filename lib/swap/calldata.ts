// Calldata policy (SECURITY.md, "Calldata"): a router call is read with a table of the router
// families Swaplane knows, one entry per function, and its arguments checked against the quote.
// A new router function (a V3 leg, another family) is one more entry. Pure, no I/O.
import { type Abi, decodeFunctionData, type Hex, parseAbi, toFunctionSelector } from 'viem';
import { isNativeToken, type Quote, sameAddress } from '@/lib/api/schema';
import { ROUTER_SWAP_ABI } from './router-abi';

/** What a swap call says, whatever its family. */
export interface DecodedSwap {
  family: string;
  fn: string;
  inToken: string;
  outToken: string;
  /** null when the call pays its whole value (native input: `value` is checked instead). */
  inAmount: bigint | null;
  minOut: bigint;
  /** The zero address means "msg.sender" for Swaplane's router. */
  recipient: string;
  /** Seconds since epoch; null when the family has none. */
  deadline: bigint | null;
}

interface Entry {
  family: string;
  abi: Abi;
  name: string;
  read(args: readonly unknown[], wrappedNative: string): DecodedSwap | null;
}

const V2_ABI = parseAbi([
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
]);

const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
const V2 = 'uniswap-v2-router02';

/** V2: the path's ends are the tokens; the wrapped native at an ETH end stands for the coin. */
function v2(name: string, nativeIn: boolean, nativeOut: boolean): Entry {
  return {
    family: V2,
    abi: V2_ABI,
    name,
    read(args, wrappedNative) {
      const a = [...args];
      const amountIn = nativeIn ? null : (a.shift() as bigint);
      const [minOut, path, to, deadline] = a as [bigint, readonly string[], string, bigint];
      const first = path[0];
      const last = path.at(-1);
      if (path.length < 2 || !first || !last) return null;
      if (nativeIn && !sameAddress(first, wrappedNative)) return null;
      if (nativeOut && !sameAddress(last, wrappedNative)) return null;
      return {
        family: V2,
        fn: name,
        inToken: nativeIn ? NATIVE : first,
        outToken: nativeOut ? NATIVE : last,
        inAmount: amountIn,
        minOut,
        recipient: to,
        deadline,
      };
    },
  };
}

export const ROUTER_FAMILIES: readonly Entry[] = [
  {
    family: 'swaplane-router',
    abi: ROUTER_SWAP_ABI as unknown as Abi,
    name: 'swap',
    read(args) {
      const [inToken, outToken, inAmount, minOut, , recipient] = args as [
        string,
        string,
        bigint,
        bigint,
        unknown,
        string,
      ];
      return {
        family: 'swaplane-router',
        fn: 'swap',
        inToken,
        outToken,
        inAmount,
        minOut,
        recipient,
        deadline: null,
      };
    },
  },
  v2('swapExactTokensForTokens', false, false),
  v2('swapExactETHForTokens', true, false),
  v2('swapExactTokensForETH', false, true),
  v2('swapExactTokensForTokensSupportingFeeOnTransferTokens', false, false),
  v2('swapExactETHForTokensSupportingFeeOnTransferTokens', true, false),
  v2('swapExactTokensForETHSupportingFeeOnTransferTokens', false, true),
];

const BY_SELECTOR = new Map<string, Entry>(
  ROUTER_FAMILIES.map((entry) => {
    const item = entry.abi.find((i) => i.type === 'function' && i.name === entry.name);
    if (item?.type !== 'function') throw new Error(`no ${entry.name} in its ABI`);
    return [toFunctionSelector(item), entry];
  }),
);

export type DecodeResult =
  | { kind: 'decoded'; swap: DecodedSwap }
  | { kind: 'unknown' }
  /** A known selector whose arguments do not decode (or a path that cannot be this swap). */
  | { kind: 'malformed'; family: string };

export function decodeSwapCall(data: Hex, wrappedNative: string): DecodeResult {
  const entry = BY_SELECTOR.get(data.slice(0, 10).toLowerCase());
  if (!entry) return { kind: 'unknown' };
  try {
    const { args } = decodeFunctionData({ abi: entry.abi, data });
    const swap = entry.read(args ?? [], wrappedNative);
    return swap ? { kind: 'decoded', swap } : { kind: 'malformed', family: entry.family };
  } catch {
    return { kind: 'malformed', family: entry.family };
  }
}

export type SwapArgField = 'inToken' | 'outToken' | 'inAmount' | 'minReceived' | 'recipient' | 'deadline';

export interface SwapArgMismatch {
  field: SwapArgField;
  expected: string;
  actual: string;
}

/** The longest a swap's deadline may lie ahead: a call valid for hours can be held and replayed later. */
export const MAX_DEADLINE_SECONDS = 30 * 60;

/**
 * The decoded call must be the quote's: same tokens and amount, a minimum at least the quote's (a
 * higher one only protects the user more), the output paid to the signer, a deadline within minutes.
 */
export function checkSwapCall(
  swap: DecodedSwap,
  quote: Pick<Quote, 'inToken' | 'outToken' | 'inAmount' | 'minReceived'>,
  account: string,
  nowSeconds: number,
): SwapArgMismatch | null {
  const mismatch = (field: SwapArgField, expected: string, actual: string) => ({ field, expected, actual });
  const tokenMatches = (a: string, b: string) => sameAddress(a, b) || (isNativeToken(a) && isNativeToken(b));
  if (!tokenMatches(swap.inToken, quote.inToken)) return mismatch('inToken', quote.inToken, swap.inToken);
  if (!tokenMatches(swap.outToken, quote.outToken))
    return mismatch('outToken', quote.outToken, swap.outToken);
  if (swap.inAmount !== null && swap.inAmount !== BigInt(quote.inAmount)) {
    return mismatch('inAmount', quote.inAmount, swap.inAmount.toString());
  }
  if (swap.minOut < BigInt(quote.minReceived)) {
    return mismatch('minReceived', quote.minReceived, swap.minOut.toString());
  }
  const zero = /^0x0{40}$/i.test(swap.recipient);
  const selfAllowed = zero && swap.family === 'swaplane-router';
  if (!selfAllowed && !sameAddress(swap.recipient, account))
    return mismatch('recipient', account, swap.recipient);
  if (swap.deadline !== null) {
    const now = BigInt(nowSeconds);
    if (swap.deadline < now || swap.deadline > now + BigInt(MAX_DEADLINE_SECONDS)) {
      return mismatch('deadline', `within ${MAX_DEADLINE_SECONDS / 60} minutes`, swap.deadline.toString());
    }
  }
  return null;
}

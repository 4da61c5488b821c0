import { encodeFunctionData, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import { checkSwapCall, decodeSwapCall, MAX_DEADLINE_SECONDS, ROUTER_FAMILIES } from '@/lib/swap/calldata';
import { ROUTER_SWAP_ABI } from '@/lib/swap/router-abi';

const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const DAI = '0x6B175474E89094C44Da98b954EedeAC495271d0F';
const ME = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const THIEF = '0x000000000000000000000000000000000000dEaD';
const NOW = 1_800_000_000;

const v2 = parseAbi([
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
]);
const quote = { inToken: USDC, outToken: DAI, inAmount: '1000', minReceived: '990' };

describe('calldata policy: a table of router families', () => {
  it('knows Swaplane’s router and all six V2 Router02 swapExact* functions', () => {
    expect(ROUTER_FAMILIES.map((f) => `${f.family}.${f.name}`)).toHaveLength(7);
  });

  it('reads Swaplane’s swap and checks it against the quote', () => {
    const data = encodeFunctionData({
      abi: ROUTER_SWAP_ABI,
      functionName: 'swap',
      args: [USDC, DAI, 1000n, 990n, [], ME, 0n],
    });
    const decoded = decodeSwapCall(data, WETH);
    expect(decoded).toMatchObject({ kind: 'decoded', swap: { family: 'swaplane-router', minOut: 990n } });
    if (decoded.kind === 'decoded') expect(checkSwapCall(decoded.swap, quote, ME, NOW)).toBeNull();
  });

  it('reads V2 swapExactTokensForTokens: path ends, amount, minimum, recipient, deadline', () => {
    const call = (to: string, min: bigint, deadline: bigint, path = [USDC, WETH, DAI]) =>
      encodeFunctionData({
        abi: v2,
        functionName: 'swapExactTokensForTokens',
        args: [1000n, min, path as `0x${string}`[], to as `0x${string}`, deadline],
      });
    const check = (data: `0x${string}`) => {
      const decoded = decodeSwapCall(data, WETH);
      if (decoded.kind !== 'decoded') return decoded.kind;
      return checkSwapCall(decoded.swap, quote, ME, NOW)?.field ?? 'ok';
    };
    const soon = BigInt(NOW + 600);
    expect(check(call(ME, 990n, soon))).toBe('ok');
    expect(check(call(THIEF, 990n, soon))).toBe('recipient');
    expect(check(call(ME, 989n, soon))).toBe('minReceived');
    expect(check(call(ME, 990n, BigInt(NOW + MAX_DEADLINE_SECONDS + 1)))).toBe('deadline');
    expect(check(call(ME, 990n, BigInt(NOW - 1)))).toBe('deadline');
    expect(check(call(ME, 990n, soon, [USDC, WETH]))).toBe('outToken');
  });

  it('reads the native-input and fee-on-transfer variants; the wrapped native stands for the coin', () => {
    const ethIn = encodeFunctionData({
      abi: v2,
      functionName: 'swapExactETHForTokens',
      args: [990n, [WETH, DAI], ME, BigInt(NOW + 60)],
    });
    const decoded = decodeSwapCall(ethIn, WETH);
    expect(decoded).toMatchObject({
      kind: 'decoded',
      swap: { inToken: NATIVE_TOKEN_ADDRESS, inAmount: null },
    });
    if (decoded.kind === 'decoded') {
      expect(checkSwapCall(decoded.swap, { ...quote, inToken: NATIVE_TOKEN_ADDRESS }, ME, NOW)).toBeNull();
    }
    // A path that does not start at the wrapped native cannot be an ETH-in swap.
    const bad = encodeFunctionData({
      abi: v2,
      functionName: 'swapExactETHForTokens',
      args: [990n, [USDC, DAI], ME, BigInt(NOW + 60)],
    });
    expect(decodeSwapCall(bad, WETH)).toEqual({ kind: 'malformed', family: 'uniswap-v2-router02' });
    const fot = encodeFunctionData({
      abi: v2,
      functionName: 'swapExactTokensForETHSupportingFeeOnTransferTokens',
      args: [1000n, 5n, [USDC, WETH], ME, BigInt(NOW + 60)],
    });
    expect(decodeSwapCall(fot, WETH)).toMatchObject({
      kind: 'decoded',
      swap: { outToken: NATIVE_TOKEN_ADDRESS },
    });
  });

  it('an unknown selector is unknown, not guessed', () => {
    expect(decodeSwapCall('0xa9059cbb0000', WETH)).toEqual({ kind: 'unknown' });
  });
});

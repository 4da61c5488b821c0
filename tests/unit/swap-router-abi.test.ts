import {
  encodeAbiParameters,
  encodeErrorResult,
  encodeEventTopics,
  erc20Abi,
  type Hex,
  parseAbi,
  toFunctionSelector,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import { classifySendError, withGasMargin } from '@/lib/rpc/transactions';
import { ROUTER_ERRORS_ABI, ROUTER_SWAP_ABI } from '@/lib/swap/router-abi';
import { decodeRevert, receivedFromLogs } from '@/lib/swap/simulate';
import { swapRouterAbi } from '../../devnet/abi';
import { USDC } from '../support/addresses';

const signatures = (abi: readonly { type: string }[], type: string) =>
  abi
    .filter((item) => item.type === type)
    .map((item) => JSON.stringify(item))
    .sort();

describe("lib's copy of the router ABI", () => {
  it('has exactly the devnet router’s errors, swap function and Swapped event', () => {
    expect(signatures(ROUTER_ERRORS_ABI, 'error')).toEqual(signatures(swapRouterAbi, 'error'));
    expect(signatures(ROUTER_SWAP_ABI, 'function')).toEqual(
      signatures(swapRouterAbi, 'function').filter((s) => s.includes('"name":"swap"')),
    );
    expect(signatures(ROUTER_SWAP_ABI, 'event')).toEqual(signatures(swapRouterAbi, 'event'));
    const swap = swapRouterAbi.find((item) => item.type === 'function' && item.name === 'swap');
    const ours = ROUTER_SWAP_ABI.find((item) => item.type === 'function');
    expect(ours && toFunctionSelector(ours)).toBe(swap && toFunctionSelector(swap));
  });
});

describe('decodeRevert', () => {
  it('decodes the router’s custom errors with words for people', () => {
    const data = encodeErrorResult({
      abi: ROUTER_ERRORS_ABI,
      errorName: 'InsufficientOutput',
      args: [5n, 7n],
    });
    const reason = decodeRevert(data);
    expect(reason).toMatchObject({ kind: 'custom', name: 'InsufficientOutput' });
    expect(reason.text).toContain('InsufficientOutput(5, 7)');
    expect(reason.text).toContain('price moved');
  });

  it('decodes Error(string) and Panic(uint256), and says when there is nothing to decode', () => {
    const error = encodeErrorResult({
      abi: parseAbi(['error Error(string)']),
      errorName: 'Error',
      args: ['STF'],
    });
    expect(decodeRevert(error)).toMatchObject({ kind: 'error', name: 'Error', text: 'STF' });
    const panic = `0x4e487b71${encodeAbiParameters([{ type: 'uint256' }], [0x11n]).slice(2)}` as Hex;
    expect(decodeRevert(panic)).toMatchObject({ kind: 'panic', text: 'arithmetic overflow or underflow' });
    expect(decodeRevert('0x')).toMatchObject({ kind: 'unknown', text: 'reverted without a reason' });
    expect(decodeRevert('0xdeadbeef')).toMatchObject({ kind: 'unknown' });
  });
});

describe('receivedFromLogs', () => {
  const ME = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
  const ROUTER = '0xb19b36b1456E65E3A6D514D3F715f204BD59f431';
  const transfer = (address: string, from: Hex, to: Hex, value: bigint) => ({
    address,
    topics: encodeEventTopics({ abi: erc20Abi, eventName: 'Transfer', args: { from, to } }) as Hex[],
    data: encodeAbiParameters([{ type: 'uint256' }], [value]),
  });

  it('sums Transfer logs of the output token to the user, ignoring others', () => {
    const logs = [
      transfer(USDC, ROUTER, ME, 10n),
      transfer(USDC, ME, ROUTER, 99n),
      transfer(USDC, ROUTER, ME, 5n),
      transfer(ROUTER, ROUTER, ME, 1_000n), // another token
    ];
    expect(receivedFromLogs(logs, { outToken: USDC, recipient: ME })).toBe(15n);
    expect(receivedFromLogs([], { outToken: USDC, recipient: ME })).toBeNull();
  });

  it('native output: traced 0xeeee transfers, else the router’s Swapped event', () => {
    expect(
      receivedFromLogs([transfer(NATIVE_TOKEN_ADDRESS, ROUTER, ME, 7n)], {
        outToken: NATIVE_TOKEN_ADDRESS,
        recipient: ME,
      }),
    ).toBe(7n);
    const swapped = {
      address: ROUTER,
      topics: encodeEventTopics({
        abi: ROUTER_SWAP_ABI,
        eventName: 'Swapped',
        args: { sender: ME, recipient: ME },
      }) as Hex[],
      data: encodeAbiParameters(
        [
          { type: 'address' },
          { type: 'address' },
          { type: 'uint256' },
          { type: 'uint256' },
          { type: 'uint256' },
        ],
        [USDC, NATIVE_TOKEN_ADDRESS, 100n, 42n, 0n],
      ),
    };
    expect(
      receivedFromLogs([swapped], { outToken: NATIVE_TOKEN_ADDRESS, recipient: ME, router: ROUTER }),
    ).toBe(42n);
    // From a contract that is not the router: ignored.
    expect(
      receivedFromLogs([{ ...swapped, address: USDC }], {
        outToken: NATIVE_TOKEN_ADDRESS,
        recipient: ME,
        router: ROUTER,
      }),
    ).toBeNull();
  });
});

describe('send errors and gas', () => {
  it('classifies node answers into clear codes', () => {
    expect(classifySendError(new Error('nonce too low: next nonce 5, tx nonce 4'))).toBe('NONCE_CONFLICT');
    expect(classifySendError(new Error('replacement transaction underpriced'))).toBe(
      'REPLACEMENT_UNDERPRICED',
    );
    expect(classifySendError(new Error('insufficient funds for gas * price + value'))).toBe(
      'INSUFFICIENT_FUNDS',
    );
    expect(classifySendError(new Error('something else'))).toBe('REJECTED');
    expect(classifySendError(new TypeError('fetch failed'))).toBe('RPC_UNAVAILABLE');
  });

  it('adds a 25% margin to gas estimates, rounding up', () => {
    expect(withGasMargin(100_000n)).toBe(125_000n);
    expect(withGasMargin(3n)).toBe(4n);
    expect(withGasMargin(100n, 10)).toBe(110n);
  });
});

// The parts of the Swaplane router's ABI the wallet reads: the `swap` call (to check a build's
// arguments and read its simulated return value), the `Swapped` event (native output of a
// receipt) and every custom error (to say why a simulation reverted). devnet/abi.ts takes the errors
// from here; tests/unit/pipeline-router-abi.test.ts checks all of it against the devnet router's ABI.
import { parseAbi } from 'viem';

/** Every custom error a swap can revert with (router and executor share them; devnet/abi.ts too). */
export const ROUTER_ERRORS = [
  'error ZeroAmount()',
  'error IdenticalTokens(address inToken, address outToken)',
  'error InvalidNativeValue(uint256 value, uint256 expected)',
  'error InvalidRecipient(address recipient)',
  'error InsufficientOutput(uint256 received, uint256 minReceived)',
  'error NativeTransferFailed(address recipient)',
  'error UnexpectedNativeSender(address sender)',
  'error TransferFailed(address token)',
  'error Reentrancy()',
  'error OnlyRouter(address caller)',
  'error EmptyRoute()',
  'error ZeroPercent(uint256 share)',
  'error PercentsNotHundred(uint256 total)',
  'error EmptyShare(uint256 share)',
  'error ZeroShareAmount(uint256 share)',
  'error RouteStartMismatch(uint256 share, address expected, address actual)',
  'error RouteEndMismatch(uint256 share, address expected, address actual)',
  'error BrokenHopChain(uint256 share, uint256 hop)',
  'error NotAPool(address pool)',
  'error PoolTokenMismatch(address pool, address tokenIn, address tokenOut)',
  'error ZeroHopOutput(address pool)',
  'error PartialFill(address pool, uint256 paid, uint256 amountIn)',
  'error UnexpectedCallback(address caller)',
] as const;

export const ROUTER_ERRORS_ABI = parseAbi(ROUTER_ERRORS);

export const ROUTER_SWAP_ABI = parseAbi([
  'struct Hop { address pool; address tokenIn; address tokenOut; }',
  'struct Share { uint16 percent; Hop[] hops; }',
  'function swap(address inToken, address outToken, uint256 inAmount, uint256 minReceived, Share[] route, address recipient, uint256 refCode) payable returns (uint256 received)',
  'event Swapped(address indexed sender, address indexed recipient, address inToken, address outToken, uint256 inAmount, uint256 outAmount, uint256 refCode)',
]);

/** Errors plus the call and event: everything decodeErrorResult / decodeEventLog need. */
export const ROUTER_ABI = [...ROUTER_SWAP_ABI, ...ROUTER_ERRORS_ABI] as const;

/** Human words for the router's errors users actually meet; the rest are shown by name. */
export const ROUTER_ERROR_TEXT: Readonly<Record<string, string>> = {
  InsufficientOutput: 'the price moved: the swap would pay less than the minimum you accepted',
  InvalidNativeValue: 'the amount of coin sent does not match the swap',
  TransferFailed: 'the router could not take the input token (balance or allowance too low)',
  NativeTransferFailed: 'the output coin could not be paid to the recipient',
  InvalidRecipient: 'the swap names an invalid recipient',
  ZeroAmount: 'the swap amount is zero',
};

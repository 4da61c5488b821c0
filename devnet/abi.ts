// Typed ABIs of the devnet contracts, human-readable so the router/executor contract is easy to
// review. tests/unit/devnet-artifacts.test.ts checks each one against the compiled artifact.
import { erc20Abi, parseAbi } from 'viem';
import { ROUTER_ERRORS } from '../lib/swap/router-abi';

/** Every custom error a swap can revert with (router and executor share them). */
const swapErrors = ROUTER_ERRORS;

const routeStructs = [
  'struct Hop { address pool; address tokenIn; address tokenOut; }',
  'struct Share { uint16 percent; Hop[] hops; }',
] as const;

/** The build's `to`. FIXED: the reference service encodes calldata for `swap` with this ABI. */
export const swapRouterAbi = parseAbi([
  ...routeStructs,
  'constructor(address weth, address v3Factory, bytes32 v3PoolInitCodeHash)',
  'function swap(address inToken, address outToken, uint256 inAmount, uint256 minReceived, Share[] route, address recipient, uint256 refCode) payable returns (uint256 received)',
  'event Swapped(address indexed sender, address indexed recipient, address inToken, address outToken, uint256 inAmount, uint256 outAmount, uint256 refCode)',
  'function NATIVE() view returns (address)',
  'function weth() view returns (address)',
  'function executor() view returns (address)',
  'receive() external payable',
  ...swapErrors,
]);

/** The quote's `contractAddress`; only its router may call `execute`. */
export const swapExecutorAbi = parseAbi([
  ...routeStructs,
  'constructor(address router, address v3Factory, bytes32 v3PoolInitCodeHash)',
  'function execute(address tokenIn, address tokenOut, uint256 amountIn, Share[] route) returns (uint256 amountOut)',
  'function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) pure returns (uint256)',
  'function router() view returns (address)',
  'function v3Factory() view returns (address)',
  'function v3PoolInitCodeHash() view returns (bytes32)',
  'function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes data)',
  ...swapErrors,
]);

/** Token.sol: a standard ERC-20 plus its devnet extras. */
export const tokenAbi = [
  ...erc20Abi,
  ...parseAbi([
    'function initialize(string name_, string symbol_, uint8 decimals_, address minter_)',
    'function mint(address to, uint256 amount)',
    'function minter() view returns (address)',
    'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
    'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
    'error ERC20InvalidReceiver(address receiver)',
    'error AlreadyInitialized()',
    'error InvalidMinter()',
    'error NotMinter(address caller)',
  ]),
] as const;

/** TetherToken.sol: like mainnet USDT, transfer/transferFrom/approve return nothing. */
export const tetherTokenAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address who) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function transfer(address to, uint256 value)',
  'function transferFrom(address from, address to, uint256 value)',
  'function approve(address spender, uint256 value)',
  'function initialize(address minter_)',
  'function mint(address to, uint256 amount)',
  'function minter() view returns (address)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
]);

export const weth9Abi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address, address) view returns (uint256)',
  'function approve(address guy, uint256 wad) returns (bool)',
  'function transfer(address dst, uint256 wad) returns (bool)',
  'function transferFrom(address src, address dst, uint256 wad) returns (bool)',
  'function deposit() payable',
  'function withdraw(uint256 wad)',
  'receive() external payable',
  'event Approval(address indexed src, address indexed guy, uint256 wad)',
  'event Transfer(address indexed src, address indexed dst, uint256 wad)',
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
]);

/** The parts of @uniswap/v2-core the devnet and the service use. */
export const uniswapV2FactoryAbi = parseAbi([
  'function createPair(address tokenA, address tokenB) returns (address pair)',
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
  'function allPairsLength() view returns (uint256)',
  'function allPairs(uint256) view returns (address pair)',
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256)',
]);

export const uniswapV2PairAbi = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function factory() view returns (address)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function mint(address to) returns (uint256 liquidity)',
  'function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)',
  'function sync()',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
]);

/** The canonical Multicall3 interface (viem's own multicall3Abi has only three of its functions). */
export const multicall3Abi = parseAbi([
  'struct Call { address target; bytes callData; }',
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Call3Value { address target; bool allowFailure; uint256 value; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate(Call[] calls) payable returns (uint256 blockNumber, bytes[] returnData)',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
  'function aggregate3Value(Call3Value[] calls) payable returns (Result[] returnData)',
  'function blockAndAggregate(Call[] calls) payable returns (uint256 blockNumber, bytes32 blockHash, Result[] returnData)',
  'function tryAggregate(bool requireSuccess, Call[] calls) payable returns (Result[] returnData)',
  'function tryBlockAndAggregate(bool requireSuccess, Call[] calls) payable returns (uint256 blockNumber, bytes32 blockHash, Result[] returnData)',
  'function getBasefee() view returns (uint256 basefee)',
  'function getBlockHash(uint256 blockNumber) view returns (bytes32 blockHash)',
  'function getBlockNumber() view returns (uint256 blockNumber)',
  'function getChainId() view returns (uint256 chainid)',
  'function getCurrentBlockCoinbase() view returns (address coinbase)',
  'function getCurrentBlockDifficulty() view returns (uint256 difficulty)',
  'function getCurrentBlockGasLimit() view returns (uint256 gaslimit)',
  'function getCurrentBlockTimestamp() view returns (uint256 timestamp)',
  'function getEthBalance(address addr) view returns (uint256 balance)',
  'function getLastBlockHash() view returns (bytes32 blockHash)',
]);

// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// One hop: `pool` (a Uniswap V2 pair, or a Uniswap V3 pool of the router's V3 factory) swaps
/// `tokenIn` for `tokenOut` (both are the pool's token0/token1). The executor tells them apart on chain.
struct Hop {
    address pool;
    address tokenIn;
    address tokenOut;
}

/// A slice of the input (`percent` of it, integer percent) run through a chain of hops.
struct Share {
    uint16 percent;
    Hop[] hops;
}

/// Every revert of the router and its executor. Both inherit this, so the router's ABI alone is enough
/// to decode any failure of a swap (executor reverts bubble up unchanged).
interface ISwapErrors {
    // Router
    error ZeroAmount();
    error IdenticalTokens(address inToken, address outToken);
    error InvalidNativeValue(uint256 value, uint256 expected);
    error InvalidRecipient(address recipient);
    error InsufficientOutput(uint256 received, uint256 minReceived);
    error NativeTransferFailed(address recipient);
    error UnexpectedNativeSender(address sender);
    error TransferFailed(address token);
    error Reentrancy();
    // Executor
    error OnlyRouter(address caller);
    error EmptyRoute();
    error ZeroPercent(uint256 share);
    error PercentsNotHundred(uint256 total);
    error EmptyShare(uint256 share);
    error ZeroShareAmount(uint256 share);
    error RouteStartMismatch(uint256 share, address expected, address actual);
    error RouteEndMismatch(uint256 share, address expected, address actual);
    error BrokenHopChain(uint256 share, uint256 hop);
    error NotAPool(address pool);
    error PoolTokenMismatch(address pool, address tokenIn, address tokenOut);
    error ZeroHopOutput(address pool);
    error PartialFill(address pool, uint256 paid, uint256 amountIn);
    error UnexpectedCallback(address caller);
}

interface IERC20Minimal {
    function balanceOf(address owner) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IWETH {
    function deposit() external payable;
    function withdraw(uint256 amount) external;
}

interface IUniswapV2Pair {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

interface IUniswapV3Pool {
    function fee() external view returns (uint24);
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
}

/// Transfers that accept tokens returning nothing (USDT) but refuse a `false` and calls to non-contracts.
library SafeTransfer {
    function safeTransfer(address token, address to, uint256 amount) internal {
        _call(token, abi.encodeCall(IERC20Minimal.transfer, (to, amount)));
    }

    function safeTransferFrom(address token, address from, address to, uint256 amount) internal {
        _call(token, abi.encodeCall(IERC20Minimal.transferFrom, (from, to, amount)));
    }

    function _call(address token, bytes memory data) private {
        (bool ok, bytes memory ret) = token.call(data);
        bool accepted = ok && (ret.length == 0 ? token.code.length > 0 : ret.length >= 32 && abi.decode(ret, (bool)));
        if (!accepted) revert ISwapErrors.TransferFailed(token);
    }
}

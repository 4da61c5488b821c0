// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Hop, Share, ISwapErrors, IUniswapV2Pair, SafeTransfer} from './SwapTypes.sol';

/// @title Swaplane swap executor
/// @notice Runs a split, multi-hop Uniswap V2 route on tokens its router has sent it, and sends the
/// output straight from the last pool of each share to the router. Only its router may call it, and
/// it ends every call holding nothing: the share amounts add up to exactly the input.
contract SwapExecutor is ISwapErrors {
    address public immutable router;

    constructor(address router_) {
        router = router_;
    }

    /// @notice Share i gets floor(amountIn * percent_i / 100), the last share gets the rest; shares run
    /// in order, each hop priced from the pool's current reserves with the V2 formula (0.3% fee).
    /// @return amountOut the sum of the shares' outputs, all sent to the router.
    function execute(address tokenIn, address tokenOut, uint256 amountIn, Share[] calldata route)
        external
        returns (uint256 amountOut)
    {
        if (msg.sender != router) revert OnlyRouter(msg.sender);
        uint256 count = route.length;
        if (count == 0) revert EmptyRoute();
        uint256 total;
        for (uint256 i = 0; i < count; i++) {
            if (route[i].percent == 0) revert ZeroPercent(i);
            total += route[i].percent;
        }
        if (total != 100) revert PercentsNotHundred(total);

        uint256 left = amountIn;
        for (uint256 i = 0; i < count; i++) {
            uint256 shareIn = i + 1 == count ? left : (amountIn * route[i].percent) / 100;
            if (shareIn == 0) revert ZeroShareAmount(i);
            left -= shareIn;
            amountOut += _runShare(i, route[i].hops, tokenIn, tokenOut, shareIn);
        }
    }

    /// @notice The V2 output for `amountIn`, as UniswapV2Library.getAmountOut (0 on empty reserves).
    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) public pure returns (uint256) {
        uint256 amountInWithFee = amountIn * 997;
        uint256 denominator = reserveIn * 1000 + amountInWithFee;
        return denominator == 0 ? 0 : (amountInWithFee * reserveOut) / denominator;
    }

    function _runShare(uint256 index, Hop[] calldata hops, address tokenIn, address tokenOut, uint256 amount)
        private
        returns (uint256)
    {
        uint256 count = hops.length;
        if (count == 0) revert EmptyShare(index);
        if (hops[0].tokenIn != tokenIn) revert RouteStartMismatch(index, tokenIn, hops[0].tokenIn);
        if (hops[count - 1].tokenOut != tokenOut) {
            revert RouteEndMismatch(index, tokenOut, hops[count - 1].tokenOut);
        }
        for (uint256 j = 1; j < count; j++) {
            if (hops[j].tokenIn != hops[j - 1].tokenOut) revert BrokenHopChain(index, j);
        }

        // Each pool pays the next one directly, the last pays the router: no idle balances here.
        SafeTransfer.safeTransfer(tokenIn, hops[0].pool, amount);
        for (uint256 j = 0; j < count; j++) {
            address to = j + 1 < count ? hops[j + 1].pool : router;
            amount = _swap(hops[j], amount, to);
        }
        return amount;
    }

    function _swap(Hop calldata hop, uint256 amountIn, address to) private returns (uint256 amountOut) {
        (address token0, address token1) = _pairTokens(hop.pool);
        bool zeroForOne = hop.tokenIn == token0 && hop.tokenOut == token1;
        if (!zeroForOne && !(hop.tokenIn == token1 && hop.tokenOut == token0)) {
            revert PoolTokenMismatch(hop.pool, hop.tokenIn, hop.tokenOut);
        }
        (uint256 reserve0, uint256 reserve1,) = IUniswapV2Pair(hop.pool).getReserves();
        amountOut = zeroForOne ? getAmountOut(amountIn, reserve0, reserve1) : getAmountOut(amountIn, reserve1, reserve0);
        if (amountOut == 0) revert ZeroHopOutput(hop.pool);
        (uint256 out0, uint256 out1) = zeroForOne ? (uint256(0), amountOut) : (amountOut, uint256(0));
        IUniswapV2Pair(hop.pool).swap(out0, out1, to, '');
    }

    /// @dev Reads token0/token1 defensively so a non-pair address fails with NotAPool, not empty data.
    function _pairTokens(address pool) private view returns (address token0, address token1) {
        token0 = _readAddress(pool, IUniswapV2Pair.token0.selector);
        token1 = _readAddress(pool, IUniswapV2Pair.token1.selector);
        if (token0 == address(0) || token1 == address(0)) revert NotAPool(pool);
    }

    function _readAddress(address pool, bytes4 selector) private view returns (address value) {
        (bool ok, bytes memory ret) = pool.staticcall(abi.encodeWithSelector(selector));
        if (!ok || ret.length != 32) revert NotAPool(pool);
        value = abi.decode(ret, (address));
    }
}

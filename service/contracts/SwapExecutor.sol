// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Hop, Share, ISwapErrors, IUniswapV2Pair, IUniswapV3Pool, SafeTransfer} from './SwapTypes.sol';

/// @title Swaplane swap executor
/// @notice Runs a split, multi-hop route over Uniswap V2 pairs and V3 pools on tokens its router has
/// sent it, and sends the output straight from the last pool of each share to the router. Only its
/// router may call it, and it ends every call holding nothing: the share amounts add up to exactly
/// the input, and a V3 pool must take all of its hop's input (no partial fills).
contract SwapExecutor is ISwapErrors {
    uint160 internal constant MIN_SQRT_RATIO = 4295128739;
    uint160 internal constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342;

    address public immutable router;
    /// The only V3 pools a route may use are this factory's (address(0): no V3 leg).
    address public immutable v3Factory;
    bytes32 public immutable v3PoolInitCodeHash;

    constructor(address router_, address v3Factory_, bytes32 v3PoolInitCodeHash_) {
        router = router_;
        v3Factory = v3Factory_;
        v3PoolInitCodeHash = v3PoolInitCodeHash_;
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

        // Each pool pays the next V2 pair directly (a V3 pool takes its input through the callback,
        // from here), the last pays the router: no idle balances between hops.
        bool[] memory v3 = new bool[](count);
        for (uint256 j = 0; j < count; j++) {
            v3[j] = _isV3Pool(hops[j]);
        }
        if (!v3[0]) SafeTransfer.safeTransfer(tokenIn, hops[0].pool, amount);
        for (uint256 j = 0; j < count; j++) {
            address to = j + 1 < count ? (v3[j + 1] ? address(this) : hops[j + 1].pool) : router;
            amount = v3[j] ? _swapV3(hops[j], amount, to) : _swap(hops[j], amount, to);
        }
        return amount;
    }

    /// @dev A V3 pool answers fee() and sits at the address its factory derives for (tokens, fee);
    /// anything answering fee() elsewhere is refused, so a route cannot call a look-alike "pool".
    function _isV3Pool(Hop calldata hop) private view returns (bool) {
        (bool ok, bytes memory ret) = hop.pool.staticcall(abi.encodeWithSelector(IUniswapV3Pool.fee.selector));
        if (!ok || ret.length != 32) return false;
        uint256 fee = abi.decode(ret, (uint256));
        (address token0, address token1) =
            hop.tokenIn < hop.tokenOut ? (hop.tokenIn, hop.tokenOut) : (hop.tokenOut, hop.tokenIn);
        if (v3Factory == address(0) || fee >= 1_000_000 || hop.pool != _v3PoolAddress(token0, token1, fee)) {
            revert NotAPool(hop.pool);
        }
        return true;
    }

    function _v3PoolAddress(address token0, address token1, uint256 fee) private view returns (address) {
        bytes32 salt = keccak256(abi.encode(token0, token1, uint24(fee)));
        return address(uint160(uint256(keccak256(abi.encodePacked(hex'ff', v3Factory, salt, v3PoolInitCodeHash)))));
    }

    /// @dev Exact input at the widest price limit; the pool's own address check (CREATE2 from the
    /// factory for these two tokens) already ties the pool to tokenIn/tokenOut.
    function _swapV3(Hop calldata hop, uint256 amountIn, address to) private returns (uint256 amountOut) {
        if (amountIn > uint256(type(int256).max)) revert PartialFill(hop.pool, 0, amountIn);
        bool zeroForOne = hop.tokenIn < hop.tokenOut;
        // The callback pays only this pool, only in this token, at most this amount (transient).
        assembly {
            tstore(0, calldataload(hop))
            tstore(1, calldataload(add(hop, 0x20)))
            tstore(2, amountIn)
        }
        (int256 amount0, int256 amount1) = IUniswapV3Pool(hop.pool).swap(
            to, zeroForOne, int256(amountIn), zeroForOne ? MIN_SQRT_RATIO + 1 : MAX_SQRT_RATIO - 1, ''
        );
        assembly {
            tstore(0, 0)
            tstore(1, 0)
            tstore(2, 0)
        }
        (int256 paid, int256 received) = zeroForOne ? (amount0, -amount1) : (amount1, -amount0);
        if (paid < 0 || uint256(paid) != amountIn) revert PartialFill(hop.pool, paid < 0 ? 0 : uint256(paid), amountIn);
        if (received <= 0) revert ZeroHopOutput(hop.pool);
        amountOut = uint256(received);
    }

    /// @notice Pays a V3 pool its input during the swap this executor started with it.
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        address pool;
        address token;
        uint256 limit;
        assembly {
            pool := tload(0)
            token := tload(1)
            limit := tload(2)
        }
        if (pool == address(0) || msg.sender != pool) revert UnexpectedCallback(msg.sender);
        uint256 owed = amount0Delta > 0 ? uint256(amount0Delta) : uint256(amount1Delta);
        if ((amount0Delta <= 0 && amount1Delta <= 0) || owed > limit) revert PartialFill(pool, owed, limit);
        SafeTransfer.safeTransfer(token, msg.sender, owed);
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

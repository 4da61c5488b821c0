// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Hop, Share, ISwapErrors, IERC20Minimal, IWETH, SafeTransfer} from './SwapTypes.sol';
import {SwapExecutor} from './SwapExecutor.sol';

/// @title Swaplane swap router
/// @notice The contract users approve and call (`to` of a build). It takes the input (wrapping native
/// coin), hands it to its own executor, checks the output against `minReceived` and pays the recipient
/// (unwrapping to native coin when asked). Native coin <-> WETH is itself a route: one share, one
/// hop whose pool is WETH, done by deposit/withdraw 1:1. It keeps nothing between calls.
contract SwapRouter is ISwapErrors {
    /// The pseudo-address that stands for the chain's native coin.
    address public constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    address public immutable weth;
    /// Created here, so the router can only ever call its own executor.
    SwapExecutor public immutable executor;

    uint256 private unlocked = 1;

    event Swapped(
        address indexed sender,
        address indexed recipient,
        address inToken,
        address outToken,
        uint256 inAmount,
        uint256 outAmount,
        uint256 refCode
    );

    modifier nonReentrant() {
        if (unlocked != 1) revert Reentrancy();
        unlocked = 2;
        _;
        unlocked = 1;
    }

    /// @param v3Factory_ the Uniswap V3 factory whose pools routes may use (address(0): V2 only)
    /// @param v3PoolInitCodeHash_ keccak256 of that factory's pool creation code
    constructor(address weth_, address v3Factory_, bytes32 v3PoolInitCodeHash_) {
        weth = weth_;
        executor = new SwapExecutor(address(this), v3Factory_, v3PoolInitCodeHash_);
    }

    /// Native coin only arrives from WETH, while unwrapping a swap's output.
    receive() external payable {
        if (msg.sender != weth) revert UnexpectedNativeSender(msg.sender);
    }

    /// @notice Swaps `inAmount` of `inToken` for at least `minReceived` of `outToken` along `route`.
    /// @param recipient who gets the output; address(0) means msg.sender.
    /// @return received the exact output paid to the recipient.
    function swap(
        address inToken,
        address outToken,
        uint256 inAmount,
        uint256 minReceived,
        Share[] calldata route,
        address recipient,
        uint256 refCode
    ) external payable nonReentrant returns (uint256 received) {
        if (inAmount == 0) revert ZeroAmount();
        address tokenOut = _wrapped(outToken);
        if (inToken == outToken) revert IdenticalTokens(inToken, outToken);
        if (recipient == address(0)) recipient = msg.sender;
        if (recipient == address(this) || recipient == address(executor)) revert InvalidRecipient(recipient);

        if (_wrapped(inToken) == tokenOut) {
            received = _wrapOrUnwrap(inToken, outToken, inAmount, route);
        } else {
            _fundExecutor(inToken, inAmount);
            // Measured as a balance change so the figure is what actually arrived.
            uint256 balanceBefore = IERC20Minimal(tokenOut).balanceOf(address(this));
            executor.execute(_wrapped(inToken), tokenOut, inAmount, route);
            received = IERC20Minimal(tokenOut).balanceOf(address(this)) - balanceBefore;
        }
        if (received < minReceived) revert InsufficientOutput(received, minReceived);

        _pay(outToken, recipient, received);
        emit Swapped(msg.sender, recipient, inToken, outToken, inAmount, received, refCode);
    }

    /// Native -> WETH or WETH -> native: the route must say exactly that (one share of 100%, one hop
    /// through the WETH contract), so what the user signs reads as what happens. Leaves the WETH here
    /// for _pay, which sends it on or unwraps it.
    function _wrapOrUnwrap(address inToken, address outToken, uint256 inAmount, Share[] calldata route)
        private
        returns (uint256)
    {
        if (route.length == 0) revert EmptyRoute();
        if (route.length != 1 || route[0].percent != 100) revert PercentsNotHundred(route[0].percent);
        if (route[0].hops.length != 1) revert BrokenHopChain(0, route[0].hops.length);
        Hop calldata hop = route[0].hops[0];
        if (hop.pool != weth || hop.tokenIn != inToken || hop.tokenOut != outToken) {
            revert PoolTokenMismatch(hop.pool, hop.tokenIn, hop.tokenOut);
        }
        if (inToken == NATIVE) {
            if (msg.value != inAmount) revert InvalidNativeValue(msg.value, inAmount);
            IWETH(weth).deposit{value: inAmount}();
        } else {
            if (msg.value != 0) revert InvalidNativeValue(msg.value, 0);
            SafeTransfer.safeTransferFrom(weth, msg.sender, address(this), inAmount);
        }
        return inAmount;
    }

    function _fundExecutor(address inToken, uint256 inAmount) private {
        if (inToken == NATIVE) {
            if (msg.value != inAmount) revert InvalidNativeValue(msg.value, inAmount);
            IWETH(weth).deposit{value: inAmount}();
            SafeTransfer.safeTransfer(weth, address(executor), inAmount);
        } else {
            if (msg.value != 0) revert InvalidNativeValue(msg.value, 0);
            SafeTransfer.safeTransferFrom(inToken, msg.sender, address(executor), inAmount);
        }
    }

    function _pay(address outToken, address recipient, uint256 amount) private {
        if (outToken == NATIVE) {
            IWETH(weth).withdraw(amount);
            (bool ok,) = recipient.call{value: amount}('');
            if (!ok) revert NativeTransferFailed(recipient);
        } else {
            SafeTransfer.safeTransfer(outToken, recipient, amount);
        }
    }

    function _wrapped(address token) private view returns (address) {
        return token == NATIVE ? weth : token;
    }
}

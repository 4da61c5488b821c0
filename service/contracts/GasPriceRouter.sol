// SPDX-License-Identifier: GPL-3.0-or-later
pragma solidity ^0.8.24;

import {Share, SafeTransfer} from './SwapTypes.sol';
import {SwapRouter} from './SwapRouter.sol';

interface IApprove {
    function approve(address spender, uint256 amount) external returns (bool);
}

/// @title A hostile swap router that pays in full only when simulated at gas price 0
/// @notice Test fixture for the swap simulation's honesty (SECURITY.md, `validation: true`). It has the
/// Swaplane router's `swap` signature and runs the real router underneath. At tx.gasprice == 0 (a
/// simulation without validation or fees) the real router pays the recipient in full; at any real gas
/// price the output comes here and the recipient gets 1/1000 of it. A wallet must simulate with the
/// fees it will sign, or it signs away 99.9% of the swap.
contract GasPriceRouter {
    address public constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;
    SwapRouter public immutable router;

    constructor(address payable router_) {
        router = SwapRouter(router_);
    }

    /// Native output of the real router, while it pays this contract.
    receive() external payable {}

    function swap(
        address inToken,
        address outToken,
        uint256 inAmount,
        uint256 minReceived,
        Share[] calldata route,
        address recipient,
        uint256 refCode
    ) external payable returns (uint256 received) {
        if (recipient == address(0)) recipient = msg.sender;
        if (inToken != NATIVE) {
            SafeTransfer.safeTransferFrom(inToken, msg.sender, address(this), inAmount);
            IApprove(inToken).approve(address(router), inAmount);
        }
        if (tx.gasprice == 0) {
            return router.swap{value: msg.value}(inToken, outToken, inAmount, minReceived, route, recipient, refCode);
        }
        received = router.swap{value: msg.value}(inToken, outToken, inAmount, minReceived, route, address(this), refCode) / 1000;
        if (outToken == NATIVE) {
            (bool ok,) = recipient.call{value: received}('');
            require(ok, 'native payout failed');
        } else {
            SafeTransfer.safeTransfer(outToken, recipient, received);
        }
    }
}

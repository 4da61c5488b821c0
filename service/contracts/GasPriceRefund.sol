// SPDX-License-Identifier: GPL-3.0-or-later
pragma solidity ^0.8.24;

/// @title A contract that behaves differently when simulated at gas price 0
/// @notice Test fixture for the approval window's honesty: at tx.gasprice == 0 (a careless
/// simulation) it refunds all but 1/1000 of the value sent, so the loss looks tiny; at any real gas
/// price it keeps everything. A wallet must simulate with the fees it will sign.
contract GasPriceRefund {
    receive() external payable {
        if (tx.gasprice == 0) {
            payable(msg.sender).transfer(msg.value - msg.value / 1000);
        }
    }

    function claim() external payable {
        if (tx.gasprice == 0) {
            payable(msg.sender).transfer(msg.value - msg.value / 1000);
        }
    }
}

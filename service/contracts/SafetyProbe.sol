// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20Probe {
    function balanceOf(address) external view returns (uint256);
    function transfer(address, uint256) external returns (bool);
}

interface IWETHProbe {
    function deposit() external payable;
}

interface IPairProbe {
    function token0() external view returns (address);
    function getReserves() external view returns (uint112, uint112, uint32);
    function swap(uint256, uint256, address, bytes calldata) external;
}

interface IFactoryProbe {
    function getPair(address, address) external view returns (address);
}

/// @title The extension's token safety probe (never deployed)
/// @notice Swaplane places this runtime code at a throwaway address through a state override and
/// calls `probe` in a simulation (eth_simulateV1): buy `msg.value` of native coin's worth of `token`
/// from its Uniswap V2 pool against WETH, then sell everything received straight back. It measures
/// what arrived at each step, so a transfer tax shows up as the shortfall; a sell that reverts is a
/// blocked sell. No transaction is ever sent with it.
contract SafetyProbe {
    error NoPool();
    error BuyFailed(bytes reason);

    struct Result {
        address pair;
        uint256 buyExpected; // what the pool sent
        uint256 buyReceived; // what arrived here
        bool sellOk;
        uint256 sellSent; // what this contract sent to the pool
        uint256 sellArrived; // what the pool received
        uint256 sellWethOut; // WETH the pool paid back
        bytes sellError;
    }

    /// @param factories Uniswap V2 factories to look for the token/WETH pool in, first found wins.
    function probe(address[] calldata factories, address weth, address token)
        external
        payable
        returns (Result memory result)
    {
        for (uint256 i = 0; i < factories.length && result.pair == address(0); i++) {
            if (factories[i].code.length == 0) continue;
            try IFactoryProbe(factories[i]).getPair(token, weth) returns (address found) {
                result.pair = found;
            } catch {}
        }
        if (result.pair == address(0)) revert NoPool();
        IWETHProbe(weth).deposit{value: msg.value}();
        bool wethIs0 = IPairProbe(result.pair).token0() == weth;
        uint256 out = _amountOut(result.pair, msg.value, wethIs0);
        IERC20Probe(weth).transfer(result.pair, msg.value);
        uint256 before = IERC20Probe(token).balanceOf(address(this));
        try IPairProbe(result.pair).swap(wethIs0 ? 0 : out, wethIs0 ? out : 0, address(this), "") {}
        catch (bytes memory reason) {
            revert BuyFailed(reason);
        }
        result.buyExpected = out;
        result.buyReceived = IERC20Probe(token).balanceOf(address(this)) - before;
        result.sellSent = result.buyReceived;
        try this.sell(result.pair, token, weth, result.sellSent, !wethIs0) returns (uint256 arrived, uint256 wethOut) {
            result.sellOk = true;
            result.sellArrived = arrived;
            result.sellWethOut = wethOut;
        } catch (bytes memory reason) {
            result.sellError = reason;
        }
    }

    /// @notice The sell leg, external so that `probe` can catch its revert. Only callable by itself.
    function sell(address pair, address token, address weth, uint256 amount, bool tokenIs0)
        external
        returns (uint256 arrived, uint256 wethOut)
    {
        require(msg.sender == address(this));
        uint256 pairBefore = IERC20Probe(token).balanceOf(pair);
        IERC20Probe(token).transfer(pair, amount);
        arrived = IERC20Probe(token).balanceOf(pair) - pairBefore;
        wethOut = _amountOut(pair, arrived, tokenIs0);
        uint256 wethBefore = IERC20Probe(weth).balanceOf(address(this));
        IPairProbe(pair).swap(tokenIs0 ? 0 : wethOut, tokenIs0 ? wethOut : 0, address(this), "");
        wethOut = IERC20Probe(weth).balanceOf(address(this)) - wethBefore;
    }

    /// @dev Uniswap V2's getAmountOut (0.3% fee), `amountIn` of the side `inIs0` says.
    function _amountOut(address pair, uint256 amountIn, bool inIs0) private view returns (uint256) {
        (uint112 r0, uint112 r1,) = IPairProbe(pair).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = inIs0 ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        uint256 withFee = amountIn * 997;
        return (withFee * reserveOut) / (reserveIn * 1000 + withFee);
    }
}

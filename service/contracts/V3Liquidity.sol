// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IV3PoolMint {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
}

interface IERC20Pay {
    function transfer(address to, uint256 amount) external returns (bool);
}

/// @title Devnet liquidity provider for Uniswap V3 pools
/// @notice Devnet only: mints positions it owns itself, paying from its own token balance in the
/// mint callback (the role v3-periphery's position manager plays on real chains).
contract V3Liquidity {
    address private immutable owner;
    address private minting;

    constructor() {
        owner = msg.sender;
    }

    function mint(address pool, int24 tickLower, int24 tickUpper, uint128 liquidity) external {
        require(msg.sender == owner, 'owner');
        minting = pool;
        IV3PoolMint(pool).mint(address(this), tickLower, tickUpper, liquidity, '');
        minting = address(0);
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        require(msg.sender == minting, 'pool');
        if (amount0Owed > 0) _pay(IV3PoolMint(msg.sender).token0(), amount0Owed);
        if (amount1Owed > 0) _pay(IV3PoolMint(msg.sender).token1(), amount1Owed);
    }

    function _pay(address token, uint256 amount) private {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(IERC20Pay.transfer, (msg.sender, amount)));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), 'pay');
    }
}

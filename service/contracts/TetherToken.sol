// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title USDT look-alike
/// @notice Reproduces the quirks wallets must cope with on mainnet USDT:
///  - `transfer`, `transferFrom` and `approve` return nothing (no bool);
///  - `approve` from a non-zero allowance to another non-zero value reverts;
///  - failures revert with empty data (no reason, no custom error), as the real contract does.
/// Placed at the real address with `anvil_setCode`; metadata are constants, and the minter lives in
/// slot 0 (written with `anvil_setStorageAt` or `initialize`). Layout: slot 0 minter, slot 1
/// totalSupply, slot 2 balances, slot 3 allowed.
contract TetherToken {
    string public constant name = 'Tether USD';
    string public constant symbol = 'USDT';
    uint256 public constant decimals = 6;

    address public minter;
    uint256 public totalSupply;
    mapping(address => uint256) internal balances;
    mapping(address => mapping(address => uint256)) internal allowed;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function initialize(address minter_) external {
        require(minter == address(0) && minter_ != address(0));
        minter = minter_;
    }

    /// @notice Test-only faucet (the real token has owner-only `issue`).
    function mint(address to, uint256 amount) external {
        require(msg.sender == minter && to != address(0));
        totalSupply += amount;
        balances[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function balanceOf(address who) external view returns (uint256) {
        return balances[who];
    }

    function allowance(address owner, address spender) external view returns (uint256) {
        return allowed[owner][spender];
    }

    function transfer(address to, uint256 value) external {
        _transfer(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        uint256 current = allowed[from][msg.sender];
        // Like USDT, an allowance of max uint is never spent down.
        if (current < type(uint256).max) {
            require(current >= value);
            allowed[from][msg.sender] = current - value;
        }
        _transfer(from, to, value);
    }

    function approve(address spender, uint256 value) external {
        // The USDT race-condition guard: set the allowance to zero first.
        require(!((value != 0) && (allowed[msg.sender][spender] != 0)));
        allowed[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0) && balances[from] >= value);
        balances[from] -= value;
        balances[to] += value;
        emit Transfer(from, to, value);
    }
}

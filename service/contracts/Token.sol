// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Devnet ERC-20 with metadata in storage
/// @notice One runtime code serves every token on the devnet: the deployer places it at a real
/// token address with `anvil_setCode` and writes the metadata slots with `anvil_setStorageAt`
/// (or calls `initialize` once). The storage layout below is relied on by devnet/token-storage.ts:
///   slot 0 name, slot 1 symbol (Solidity string encoding),
///   slot 2 decimals (byte 0) and minter (bytes 1..20), slot 3 totalSupply,
///   slot 4 balanceOf mapping, slot 5 allowance mapping.
contract Token {
    string public name;
    string public symbol;
    uint8 public decimals;
    address public minter;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    // ERC-6093 errors, so wallets decode them like OpenZeppelin tokens.
    error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed);
    error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error ERC20InvalidReceiver(address receiver);
    error AlreadyInitialized();
    error InvalidMinter();
    error NotMinter(address caller);

    /// @notice One-time set-up; a non-zero minter marks the token as initialised.
    function initialize(string calldata name_, string calldata symbol_, uint8 decimals_, address minter_)
        external
    {
        if (minter != address(0)) revert AlreadyInitialized();
        if (minter_ == address(0)) revert InvalidMinter();
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        minter = minter_;
    }

    /// @notice Test-only faucet, restricted to the minter chosen at initialisation.
    function mint(address to, uint256 amount) external {
        if (msg.sender != minter) revert NotMinter(msg.sender);
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert ERC20InsufficientAllowance(msg.sender, allowed, amount);
            allowance[from][msg.sender] = allowed - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) private {
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        uint256 balance = balanceOf[from];
        if (balance < amount) revert ERC20InsufficientBalance(from, balance, amount);
        unchecked {
            balanceOf[from] = balance - amount;
        }
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}

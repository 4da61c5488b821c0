// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Devnet ERC-20s that behave like the tokens a safety check must catch
/// @notice Deployed by devnet/safety-tokens.ts, never on the swap service's list:
///   - a transfer tax (`taxBps` of every transfer not from or to the owner burns), like
///     fee-on-transfer tokens;
///   - a sell block (`blockSells`: transfers into the `pair` revert unless the owner sends), like
///     honeypots that can be bought but never sold;
///   - neither: a plain token, the clean case.
contract SafetyTestToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public immutable owner;
    uint16 public immutable taxBps;
    bool public immutable blockSells;
    address public pair;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error NotOwner();
    error InsufficientBalance();
    error InsufficientAllowance();
    error SellsBlocked();

    constructor(string memory name_, string memory symbol_, uint16 taxBps_, bool blockSells_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
        taxBps = taxBps_;
        blockSells = blockSells_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    /// @notice The pool whose incoming transfers count as sells.
    function setPair(address pair_) external {
        if (msg.sender != owner) revert NotOwner();
        pair = pair_;
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
            if (allowed < amount) revert InsufficientAllowance();
            allowance[from][msg.sender] = allowed - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) private {
        if (balanceOf[from] < amount) revert InsufficientBalance();
        if (blockSells && to == pair && from != owner) revert SellsBlocked();
        uint256 tax = from == owner || to == owner ? 0 : (amount * taxBps) / 10_000;
        balanceOf[from] -= amount;
        balanceOf[to] += amount - tax;
        totalSupply -= tax;
        emit Transfer(from, to, amount - tax);
        if (tax > 0) emit Transfer(from, address(0), tax);
    }
}

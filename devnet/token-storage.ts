// Storage writes that initialise token code placed with anvil_setCode (no constructor runs there).
// Slot numbers mirror the layouts documented in service/contracts/{Token,TetherToken,WETH9}.sol;
// tests/unit/devnet-artifacts.test.ts checks them against the compiler's storage layout.
import {
  type Address,
  encodeAbiParameters,
  type Hex,
  keccak256,
  numberToHex,
  stringToBytes,
  toHex,
} from 'viem';

export const TOKEN_SLOTS = {
  name: 0n,
  symbol: 1n,
  /** decimals in byte 0, minter in bytes 1..20 */
  decimalsAndMinter: 2n,
  totalSupply: 3n,
  balanceOf: 4n,
  allowance: 5n,
} as const;

export const TETHER_SLOTS = { minter: 0n, totalSupply: 1n, balances: 2n, allowed: 3n } as const;

export const WETH_SLOTS = { balanceOf: 0n, allowance: 1n } as const;

/** [slot, value] for anvil_setStorageAt, both as 32-byte hex words. */
export type StorageWrite = readonly [slot: Hex, value: Hex];

export function word(value: bigint): Hex {
  return numberToHex(value, { size: 32 });
}

/** The slot of `mapping(address => ...)` entry `key` when the mapping sits at `slot`. */
export function mappingSlot(key: Address, slot: bigint): Hex {
  return keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, slot]));
}

/** Solidity's `string` storage encoding: short strings inline, long ones at keccak256(slot). */
export function stringWrites(slot: bigint, value: string): StorageWrite[] {
  const bytes = stringToBytes(value);
  if (bytes.length < 32) {
    const inline = new Uint8Array(32);
    inline.set(bytes);
    inline[31] = bytes.length * 2;
    return [[word(slot), toHex(inline)]];
  }
  const writes: StorageWrite[] = [[word(slot), word(BigInt(bytes.length) * 2n + 1n)]];
  const dataStart = BigInt(keccak256(word(slot)));
  for (let i = 0; i * 32 < bytes.length; i++) {
    const chunk = new Uint8Array(32);
    chunk.set(bytes.subarray(i * 32, i * 32 + 32));
    writes.push([word(dataStart + BigInt(i)), toHex(chunk)]);
  }
  return writes;
}

export interface TokenMetadata {
  name: string;
  symbol: string;
  decimals: number;
  minter: Address;
}

/** What `Token.initialize(name, symbol, decimals, minter)` would write. */
export function tokenInitWrites({ name, symbol, decimals, minter }: TokenMetadata): StorageWrite[] {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255)
    throw new RangeError('decimals must fit uint8');
  return [
    ...stringWrites(TOKEN_SLOTS.name, name),
    ...stringWrites(TOKEN_SLOTS.symbol, symbol),
    [word(TOKEN_SLOTS.decimalsAndMinter), word((BigInt(minter) << 8n) | BigInt(decimals))],
  ];
}

/** What `TetherToken.initialize(minter)` would write. */
export function tetherInitWrites(minter: Address): StorageWrite[] {
  return [[word(TETHER_SLOTS.minter), word(BigInt(minter))]];
}

// A signed transaction read back from storage.local is outside the trust boundary: anyone who can
// write storage can plant bytes there. Before Swaplane acts on them (speed up, cancel, re-broadcast)
// they must be the transaction the record names (keccak(raw) == hash) and signed by the account
// (the signature recovers to it) on the record's chain. Read with RLP alone: viem's
// parseTransaction would bring every transaction type's parser into the background bundle.
import { type Address, fromRlp, getAddress, type Hex, keccak256, toRlp } from 'viem';
import { recoverAddress } from './recover-signer';

export interface StoredTxFields {
  chainId: number;
  nonce: number;
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gas: bigint;
  to: Address;
  value: bigint;
  data: Hex;
}

export class StoredTxError extends Error {
  override name = 'StoredTxError';
  readonly code = 'STORED_TX_FORGED';
}

const big = (field: unknown) => (typeof field === 'string' && field !== '0x' ? BigInt(field) : 0n);

/** The fields of a signed EIP-1559 call, checked against its hash, chain, signer and (given) nonce. */
export async function verifyStoredTx(input: {
  raw: string;
  hash: string;
  chainId: number;
  signer: Address;
  /** The nonce the record names: bytes at another nonce are not the transaction it tracks. */
  nonce?: number;
}): Promise<StoredTxFields> {
  const raw = input.raw as Hex;
  const forged = (why: string) =>
    new StoredTxError(`The saved transaction ${why}: Swaplane will not act on it. Nothing was signed.`);
  if (!/^0x02[0-9a-fA-F]+$/.test(raw) || raw.length % 2 !== 0) throw forged('is not an EIP-1559 transaction');
  if (keccak256(raw).toLowerCase() !== input.hash.toLowerCase()) throw forged('does not match its hash');
  let fields: unknown[];
  try {
    fields = fromRlp(`0x${raw.slice(4)}`, 'hex') as unknown[];
  } catch {
    throw forged('cannot be read');
  }
  const [chainId, nonce, priority, max, gas, to, value, data, accessList, v, r, s] = fields;
  if (fields.length !== 12 || typeof to !== 'string' || to.length !== 42) throw forged('is not a call');
  if (Number(big(chainId)) !== input.chainId) throw forged('is for another network');
  const unsigned = `0x02${toRlp(fields.slice(0, 9) as Hex[]).slice(2)}` as Hex;
  let recovered: Address;
  try {
    recovered = recoverAddress(keccak256(unsigned), { r: r as Hex, s: s as Hex, yParity: Number(big(v)) });
  } catch {
    throw forged('has no valid signature');
  }
  if (recovered.toLowerCase() !== input.signer.toLowerCase()) throw forged('was not signed by this account');
  if (input.nonce !== undefined && Number(big(nonce)) !== input.nonce)
    throw forged("is not at the swap's nonce");
  void accessList;
  return {
    chainId: input.chainId,
    nonce: Number(big(nonce)),
    maxPriorityFeePerGas: big(priority),
    maxFeePerGas: big(max),
    gas: big(gas),
    to: getAddress(to),
    value: big(value),
    data: (typeof data === 'string' ? data : '0x') as Hex,
  };
}

// eth_sendTransaction, pure parts: the page's fields checked and turned into one call, the fees
// chosen under the wallet's cap, and the simulated logs read as the sender's balance changes and
// the approvals it would grant.
import { type AccessList, type Address, decodeEventLog, erc20Abi, type Hex, parseAbiItem } from 'viem';
import { NATIVE_TOKEN_ADDRESS, sameAddress } from '@/lib/api/schema';
import { capFees, type FeeCaps } from '@/lib/rpc/fees';
import type { Fees } from '@/lib/rpc/transactions';
import { DappRpcError, invalidParams, RPC_ERROR } from './errors';
import type { TransactionParams } from './params';
import { parseHexChainId } from './sites';

export interface DappCall {
  from: Address;
  to: Address | null;
  value: bigint;
  data: Hex;
  /** The page's gas limit, when it named one (checked against the estimate). */
  gas: bigint | null;
  fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | null;
  /** The page's nonce, when it named one: it must be the account's next (checked on the chain). */
  nonce?: bigint;
  /** The page's EIP-2930 access list, when not empty: simulated, shown and signed as given. */
  accessList?: AccessList;
}

/** The most storage slots an access list may name in all (each is shown as part of a count). */
export const MAX_ACCESS_LIST_KEYS = 1_000;

/**
 * The transaction type and its fee fields must agree: a gas price beside EIP-1559 fees (or a legacy
 * type with them) is two answers to one question, refused rather than one of them picked silently.
 */
function checkFeeFields(params: TransactionParams): void {
  // Dropping these would send another transaction than the page built (a plain call, not its
  // account delegation or its blob): refused by name instead.
  for (const field of ['authorizationList', 'blobVersionedHashes', 'maxFeePerBlobGas'] as const) {
    if (params[field] !== undefined)
      throw invalidParams(`${field}: Swaplane does not send this kind of transaction`);
  }
  const eip1559 = params.maxFeePerGas !== undefined || params.maxPriorityFeePerGas !== undefined;
  if (params.gasPrice !== undefined && eip1559) {
    throw invalidParams('gasPrice cannot be mixed with maxFeePerGas or maxPriorityFeePerGas');
  }
  if (params.type === undefined || params.type === '0x2' || params.type === '0x02') return;
  // Legacy and EIP-2930 are sent as EIP-1559 with the page's gas price as the cap.
  if (params.type !== '0x0' && params.type !== '0x1') throw invalidParams(`transaction type ${params.type}`);
  if (eip1559)
    throw invalidParams(`transaction type ${params.type} has no maxFeePerGas or maxPriorityFeePerGas`);
}

/** The page's transaction as a call from `account` on `chainId`, or a -32602 naming the field. */
export function normalizeTransaction(params: TransactionParams, account: string, chainId: number): DappCall {
  if (!sameAddress(params.from, account)) {
    throw new DappRpcError(RPC_ERROR.unauthorized, 'The transaction is not from the connected account.');
  }
  if (params.chainId !== undefined) {
    const asked = parseHexChainId(params.chainId);
    if (asked === null) throw invalidParams(`chainId ${params.chainId} is not a hex chain id like 0x1`);
    if (asked !== chainId) {
      throw invalidParams(`chainId ${params.chainId} is not this site's chain (0x${chainId.toString(16)})`);
    }
  }
  checkFeeFields(params);
  if (params.data !== undefined && params.input !== undefined && params.data !== params.input) {
    throw invalidParams('data and input differ');
  }
  if (params.gas !== undefined && params.gasLimit !== undefined && params.gas !== params.gasLimit) {
    throw invalidParams('gas and gasLimit differ');
  }
  const data = (params.data ?? params.input ?? '0x') as Hex;
  if (data.length % 2 !== 0) throw invalidParams('data has an odd number of hex digits');
  const to = params.to ? (params.to as Address) : null;
  if (to === null && data === '0x') throw invalidParams('a transaction without "to" must deploy code');
  const accessList = params.accessList ?? [];
  if (accessList.reduce((sum, entry) => sum + entry.storageKeys.length, 0) > MAX_ACCESS_LIST_KEYS)
    throw invalidParams(`accessList names more than ${MAX_ACCESS_LIST_KEYS} storage slots`);
  const gasHex = params.gas ?? params.gasLimit;
  const maxFee = params.maxFeePerGas ?? params.gasPrice;
  const tip = params.maxPriorityFeePerGas ?? params.gasPrice;
  const fees = maxFee && tip ? { maxFeePerGas: BigInt(maxFee), maxPriorityFeePerGas: BigInt(tip) } : null;
  if (fees && fees.maxPriorityFeePerGas > fees.maxFeePerGas) {
    throw invalidParams('maxPriorityFeePerGas is above maxFeePerGas');
  }
  return {
    from: params.from as Address,
    to,
    value: BigInt(params.value ?? '0x0'),
    data,
    gas: gasHex ? BigInt(gasHex) : null,
    fees,
    ...(params.nonce !== undefined ? { nonce: BigInt(params.nonce) } : {}),
    ...(accessList.length > 0
      ? {
          accessList: accessList.map((entry) => ({
            address: entry.address as Address,
            storageKeys: entry.storageKeys as Hex[],
          })),
        }
      : {}),
  };
}

export interface FeeChoice {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  source: 'site' | 'wallet';
  /** Set when a fee field was above Swaplane's cap and was lowered to it. */
  capped: boolean;
}

/**
 * The fees to sign with: the site's, or the wallet's own estimate when the site names none, each
 * held to the same caps as a swap's (lib/rpc/fees.ts: against the chain's recent fee history).
 */
export function chooseFees(site: DappCall['fees'], wallet: Fees, caps: FeeCaps): FeeChoice {
  const capped = capFees(site ?? wallet, caps);
  return {
    maxFeePerGas: capped.maxFeePerGas,
    maxPriorityFeePerGas: capped.maxPriorityFeePerGas,
    source: site ? 'site' : 'wallet',
    capped: capped.capped,
  };
}

export interface BalanceChange {
  /** NATIVE_TOKEN_ADDRESS for the chain's coin. */
  token: string;
  /** Signed, in the token's smallest unit. */
  delta: bigint;
}

export interface GrantedApproval {
  token: string;
  spender: string;
  amount: bigint;
}

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

type SimLog = { address: string; topics: readonly Hex[]; data: Hex };

/**
 * What the simulated transaction moves for `owner`: ERC-20 Transfer logs, and the native coin's
 * transfers when the node traces them (eth_simulateV1 traceTransfers logs them from 0xEeee…).
 */
export function balanceChanges(logs: readonly SimLog[], owner: string): BalanceChange[] {
  const totals = new Map<string, bigint>();
  for (const log of logs) {
    let decoded: { from: string; to: string; value: bigint };
    try {
      decoded = decodeEventLog({
        abi: [TRANSFER],
        data: log.data,
        topics: log.topics as [Hex, ...Hex[]],
      }).args;
    } catch {
      continue;
    }
    const token = sameAddress(log.address, NATIVE_TOKEN_ADDRESS)
      ? NATIVE_TOKEN_ADDRESS
      : log.address.toLowerCase();
    let delta = 0n;
    if (sameAddress(decoded.from, owner)) delta -= decoded.value;
    if (sameAddress(decoded.to, owner)) delta += decoded.value;
    if (delta !== 0n) totals.set(token, (totals.get(token) ?? 0n) + delta);
  }
  return [...totals].filter(([, delta]) => delta !== 0n).map(([token, delta]) => ({ token, delta }));
}

/** ERC-20 Approval logs of `owner` with a non-zero amount: allowances the transaction grants. */
export function grantedApprovals(logs: readonly SimLog[], owner: string): GrantedApproval[] {
  const granted: GrantedApproval[] = [];
  for (const log of logs) {
    try {
      const event = decodeEventLog({ abi: erc20Abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
      if (event.eventName !== 'Approval' || !sameAddress(event.args.owner, owner)) continue;
      if (event.args.value === 0n) continue;
      granted.push({
        token: log.address.toLowerCase(),
        spender: event.args.spender,
        amount: event.args.value,
      });
    } catch {
      // Not an ERC-20 Approval (ERC-721 approvals have three indexed topics): not decoded here.
    }
  }
  return granted;
}

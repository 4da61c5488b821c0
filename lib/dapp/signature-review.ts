// What a signature request is warned about, beyond the permits of ./typed-data.ts: a 32-byte
// personal_sign (it may be a transaction's hash: a Safe accepts such signatures), typed data
// valid on every chain, Permit2 witness transfers, and Seaport orders read as what the account
// offers against what it receives.
import { getAddress, type Hex, isAddress, size } from 'viem';
import type { DecodedTypedData } from './typed-data';

export interface SignWarning {
  code: string;
  message: string;
  tick?: boolean;
}

export function messageWarnings(raw: Hex): SignWarning[] {
  if (size(raw) !== 32) return [];
  return [
    {
      code: 'HASH_SIGNATURE',
      message:
        'This message is exactly 32 bytes: it may be the hash of a transaction, and signing it could authorise moving your funds (a Safe, for one, accepts such signatures).',
      tick: true,
    },
  ];
}

const ITEM_TYPES = [
  'Native coin',
  'ERC-20',
  'ERC-721',
  'ERC-1155',
  'ERC-721 (any of a set)',
  'ERC-1155 (any of a set)',
];

export interface SeaportItem {
  kind: string;
  token: string;
  /** Token id (or criteria root for "any of a set"); '0' for coins and ERC-20. */
  id: string;
  /** Decimal in the smallest unit; start amount (a Dutch auction moves to its end amount). */
  amount: string;
  recipient: string | null;
}

export interface SeaportOrder {
  offerer: string;
  offered: SeaportItem[];
  /** Consideration items paid to the offerer. */
  received: SeaportItem[];
  /** Consideration items paid to anyone else (fees, royalties, or an attacker). */
  toOthers: SeaportItem[];
}

const str = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
const addr = (value: unknown) =>
  typeof value === 'string' && isAddress(value, { strict: false }) ? getAddress(value) : str(value);

function item(entry: unknown): SeaportItem {
  const record = (entry ?? {}) as Record<string, unknown>;
  const type = Number(record.itemType);
  return {
    kind: ITEM_TYPES[type] ?? `item type ${str(record.itemType)}`,
    token: addr(record.token),
    id: str(record.identifierOrCriteria),
    amount: str(record.startAmount),
    recipient: record.recipient === undefined ? null : addr(record.recipient),
  };
}

/** A Seaport order (OrderComponents), or null for anything else. */
export function seaportOrderOf(
  decoded: Pick<DecodedTypedData, 'domain' | 'primaryType' | 'definition'>,
): SeaportOrder | null {
  if (decoded.domain.name !== 'Seaport' || decoded.primaryType !== 'OrderComponents') return null;
  const message = (decoded.definition.message ?? {}) as Record<string, unknown>;
  const offerer = addr(message.offerer);
  const offer = Array.isArray(message.offer) ? message.offer : [];
  const consideration = (Array.isArray(message.consideration) ? message.consideration : []).map(item);
  return {
    offerer,
    offered: offer.map(item),
    received: consideration.filter((entry) => entry.recipient?.toLowerCase() === offerer.toLowerCase()),
    toOthers: consideration.filter((entry) => entry.recipient?.toLowerCase() !== offerer.toLowerCase()),
  };
}

export function typedDataWarnings(decoded: Pick<DecodedTypedData, 'domain' | 'permit'>): SignWarning[] {
  const warnings: SignWarning[] = [];
  if (decoded.domain.chainId === undefined) {
    warnings.push({
      code: 'NO_CHAIN_ID',
      message: 'This signature names no network: it may be accepted on every chain, not only this one.',
    });
  }
  if (decoded.permit?.witness) {
    warnings.push({
      code: 'PERMIT2_WITNESS',
      message: `This signature lets ${decoded.permit.spender} take the tokens below through Permit2, together with a ${decoded.permit.witness} it acts on.`,
      tick: true,
    });
  }
  return warnings;
}

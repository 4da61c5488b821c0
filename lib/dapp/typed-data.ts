// eth_signTypedData_v4 as the approval window shows it: the domain, every field of the message by
// path, and permits called out (EIP-2612, DAI-style, Uniswap Permit2) with spender, amount and
// expiry. Parsing is strict: what does not validate is refused before any window opens.
import { getAddress, isAddress, type TypedDataDefinition, validateTypedData } from 'viem';

export const PERMIT2_ADDRESS = '0x000000000022d473030f116ddee9f6b43ac78ba3';
const MAX_UINT160 = 2n ** 160n - 1n;
const MAX_UINT256 = 2n ** 256n - 1n;
const MAX_TYPED_DATA_CHARS = 100_000;

export interface TypedField {
  path: string;
  type: string;
  value: string;
}

export interface PermitInfo {
  standard: 'EIP-2612' | 'DAI' | 'Permit2';
  spender: string;
  /** Per token (Permit2 batches have several); amount as a decimal string, `unlimited` flagged. */
  allowances: { token: string; amount: string; unlimited: boolean }[];
  /** Epoch seconds; null means it never expires. */
  expiry: number | null;
  /**
   * Permit2 witness transfers: the type of the extra data (an order, an intent) the spender's
   * contract acts on along with the tokens; null for other permits.
   */
  witness?: string | null;
}

export interface DecodedTypedData {
  primaryType: string;
  domain: { name?: string; version?: string; chainId?: number; verifyingContract?: string };
  fields: TypedField[];
  permit: PermitInfo | null;
  /** The definition to sign (viem's shape). */
  definition: TypedDataDefinition;
}

type Types = Record<string, { name: string; type: string }[]>;

export class TypedDataError extends Error {
  override name = 'TypedDataError';
}

function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypedDataError(`${what} must be an object`);
  }
  return value as Record<string, unknown>;
}

/** Parses the page's typed data (a JSON string, or an object) and checks it against its types. */
export function decodeTypedData(raw: unknown): DecodedTypedData {
  if (typeof raw === 'string' && raw.length > MAX_TYPED_DATA_CHARS) {
    throw new TypedDataError('typed data is too large');
  }
  let parsed: unknown = raw;
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new TypedDataError('typed data is not valid JSON');
    }
  }
  const data = asRecord(parsed, 'typed data');
  const types = asRecord(data.types, 'types') as Types;
  const primaryType = data.primaryType;
  if (typeof primaryType !== 'string' || primaryType === 'EIP712Domain' || !types[primaryType]) {
    throw new TypedDataError('primaryType must name one of the types');
  }
  const domain = asRecord(data.domain ?? {}, 'domain');
  const message = asRecord(data.message, 'message');
  const { EIP712Domain: _, ...messageTypes } = types;
  const definition = { domain, types: messageTypes, primaryType, message } as unknown as TypedDataDefinition;
  try {
    validateTypedData(definition);
  } catch (error) {
    throw new TypedDataError(
      `typed data does not match its types (${error instanceof Error ? (error.message.split('\n')[0] ?? '') : ''})`,
    );
  }
  const chainId = domain.chainId === undefined ? undefined : Number(domain.chainId);
  if (chainId !== undefined && !Number.isSafeInteger(chainId))
    throw new TypedDataError('domain.chainId is not a chain id');
  const decodedDomain = {
    ...(typeof domain.name === 'string' ? { name: domain.name } : {}),
    ...(typeof domain.version === 'string' ? { version: domain.version } : {}),
    ...(chainId !== undefined ? { chainId } : {}),
    ...(typeof domain.verifyingContract === 'string' ? { verifyingContract: domain.verifyingContract } : {}),
  };
  const fields = flatten(types, primaryType, message, '');
  return {
    primaryType,
    domain: decodedDomain,
    fields,
    permit: permitOf(messageTypes as Types, decodedDomain, primaryType, message),
    definition,
  };
}

function flatten(types: Types, type: string, value: unknown, path: string): TypedField[] {
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    const items = Array.isArray(value) ? value : [];
    return items.flatMap((item, i) => flatten(types, array[1] as string, item, `${path}[${i}]`));
  }
  const struct = types[type];
  if (struct) {
    const record = (value ?? {}) as Record<string, unknown>;
    return struct.flatMap((field) =>
      flatten(types, field.type, record[field.name], path ? `${path}.${field.name}` : field.name),
    );
  }
  checkAtom(type, value, path);
  return [{ path, type, value: String(value) }];
}

/** What viem's validation leaves to signing time (integer strings), checked before any window. */
function checkAtom(type: string, value: unknown, path: string): void {
  const integer = /^(u?)int(\d*)$/.exec(type);
  if (integer) {
    const bits = BigInt(integer[2] || '256');
    const parsed = big(value);
    const min = integer[1] ? 0n : -(2n ** (bits - 1n));
    const max = integer[1] ? 2n ** bits - 1n : 2n ** (bits - 1n) - 1n;
    if (parsed === null || parsed < min || parsed > max)
      throw new TypedDataError(`${path} is not a valid ${type}`);
  } else if (type === 'address' && (typeof value !== 'string' || !isAddress(value, { strict: false }))) {
    throw new TypedDataError(`${path} is not an address`);
  } else if (type === 'bool' && typeof value !== 'boolean' && value !== 'true' && value !== 'false') {
    throw new TypedDataError(`${path} is not a boolean`);
  } else if (/^bytes\d*$/.test(type) && (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value))) {
    throw new TypedDataError(`${path} is not hex bytes`);
  }
}

function big(value: unknown): bigint | null {
  try {
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint'
      ? BigInt(value)
      : null;
  } catch {
    return null;
  }
}

function expiryOf(value: unknown): number | null {
  const seconds = big(value);
  // 0 in DAI's permit and the max values all mean "never".
  if (seconds === null || seconds === 0n || seconds >= 2n ** 48n - 1n) return null;
  return Number(seconds);
}

/** Addresses shown checksummed (EIP-55), whatever case the page sent. */
function shown(address: string): string {
  return isAddress(address, { strict: false }) ? getAddress(address) : address;
}

function allowance(token: string, amount: bigint | null, max: bigint) {
  const value = amount ?? 0n;
  return { token: shown(token), amount: value.toString(), unlimited: value >= max / 2n };
}

function permitOf(
  types: Types,
  domain: DecodedTypedData['domain'],
  primaryType: string,
  message: Record<string, unknown>,
): PermitInfo | null {
  const contract = domain.verifyingContract?.toLowerCase() ?? '';
  if (contract === PERMIT2_ADDRESS) return permit2Of(types, primaryType, message);
  if (primaryType !== 'Permit' || typeof message.spender !== 'string') return null;
  if ('allowed' in message) {
    // DAI: allowed is a boolean, and "true" is unlimited.
    const allowed = message.allowed === true || message.allowed === 'true';
    return {
      standard: 'DAI',
      spender: shown(message.spender),
      allowances: [
        { token: shown(contract), amount: allowed ? MAX_UINT256.toString() : '0', unlimited: allowed },
      ],
      expiry: expiryOf(message.expiry),
    };
  }
  return {
    standard: 'EIP-2612',
    spender: shown(message.spender),
    allowances: [allowance(contract, big(message.value), MAX_UINT256)],
    expiry: expiryOf(message.deadline),
  };
}

/** The witness field's type: what the permit carries besides the tokens. */
function witnessType(types: Types, primaryType: string): string {
  return types[primaryType]?.find((field) => field.name === 'witness')?.type ?? 'unnamed witness';
}

function permit2Of(types: Types, primaryType: string, message: Record<string, unknown>): PermitInfo | null {
  const spender = typeof message.spender === 'string' ? shown(message.spender) : '';
  const details = message.details;
  const list = (Array.isArray(details) ? details : details ? [details] : []) as Record<string, unknown>[];
  if (primaryType === 'PermitSingle' || primaryType === 'PermitBatch') {
    return {
      standard: 'Permit2',
      spender,
      allowances: list.map((entry) => allowance(String(entry.token), big(entry.amount), MAX_UINT160)),
      // The allowance's own expiry is what lasts; the signature deadline only bounds its use.
      expiry: list.reduce<number | null>((soonest, entry) => {
        const at = expiryOf(entry.expiration);
        return at === null ? soonest : soonest === null ? at : Math.min(soonest, at);
      }, null),
    };
  }
  const witness =
    primaryType === 'PermitWitnessTransferFrom' || primaryType === 'PermitBatchWitnessTransferFrom';
  if (primaryType === 'PermitTransferFrom' || primaryType === 'PermitBatchTransferFrom' || witness) {
    const permitted = message.permitted;
    const tokens = (Array.isArray(permitted) ? permitted : [permitted]) as Record<string, unknown>[];
    return {
      standard: 'Permit2',
      spender,
      allowances: tokens.map((entry) => allowance(String(entry?.token), big(entry?.amount), MAX_UINT256)),
      expiry: expiryOf(message.deadline),
      ...(witness ? { witness: witnessType(types, primaryType) } : {}),
    };
  }
  return null;
}

// eth_signTypedData_v4 as the approval window shows it: the domain, every field of the message by
// path, and permits called out (EIP-2612, DAI-style, Uniswap Permit2) with spender, amount and
// expiry. Parsing is strict: what does not validate is refused before any window opens.
import { getAddress, isAddress, type TypedDataDefinition, validateTypedData } from 'viem';
import { revealHidden } from './message';

export const PERMIT2_ADDRESS = '0x000000000022d473030f116ddee9f6b43ac78ba3';
const MAX_UINT160 = 2n ** 160n - 1n;
const MAX_UINT256 = 2n ** 256n - 1n;
const MAX_TYPED_DATA_CHARS = 100_000;
/** More fields than a person can read is not a review: refused (a flood of array items). */
const MAX_FIELDS = 2_000;
const MAX_DEPTH = 32;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The only fields EIP-712 allows in a domain, with their types, in its canonical order. */
const DOMAIN_FIELDS: Readonly<Record<string, string>> = {
  name: 'string',
  version: 'string',
  chainId: 'uint256',
  verifyingContract: 'address',
  salt: 'bytes32',
};

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
  /** Every domain field that is signed, as shown (EIP-712 has these five). */
  domain: { name?: string; version?: string; chainId?: number; verifyingContract?: string; salt?: string };
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

function serializedLength(raw: unknown): number {
  if (typeof raw === 'string') return raw.length;
  try {
    return JSON.stringify(raw)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

type Domain = DecodedTypedData['domain'];

/** A domain field's value as it is hashed and shown, or a TypedDataError naming it. */
function domainValue(key: string, value: unknown): string | number {
  const fail = (what: string) => new TypedDataError(`domain.${key} ${what}`);
  switch (DOMAIN_FIELDS[key]) {
    case 'string':
      if (typeof value !== 'string') throw fail('is not a string');
      return value;
    case 'uint256': {
      // A number or an integer string ("1", "0x1"), nothing that only converts to one (true, [1]).
      const id = typeof value === 'number' || typeof value === 'string' ? big(value) : null;
      if (id === null || id <= 0n || id > BigInt(Number.MAX_SAFE_INTEGER)) throw fail('is not a chain id');
      return Number(id);
    }
    case 'address':
      if (typeof value !== 'string' || !isAddress(value, { strict: false })) throw fail('is not an address');
      return value;
    case 'bytes32':
      if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value))
        throw fail('is not 32 bytes of hex');
      return value;
    default:
      throw fail('is not an EIP-712 domain field');
  }
}

/**
 * The domain, field by field: only EIP-712's five, each of its type, and when the page declares
 * `EIP712Domain`, exactly the fields it declares (a field present but undeclared, or declared but
 * absent, would make the signature cover something else than the page's own hash).
 */
function parseDomain(
  raw: unknown,
  declared: Types[string] | undefined,
): { shown: Domain; signed: Record<string, string | number>; domainTypes: { name: string; type: string }[] } {
  const record = asRecord(raw ?? {}, 'domain');
  const signed: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value !== undefined && value !== null) signed[key] = domainValue(key, value);
  }
  let domainTypes = Object.keys(DOMAIN_FIELDS)
    .filter((key) => key in signed)
    .map((key) => ({ name: key, type: DOMAIN_FIELDS[key] as string }));
  if (declared !== undefined) {
    if (!Array.isArray(declared)) throw new TypedDataError('types.EIP712Domain must be a list of fields');
    const names = new Set<string>();
    for (const field of declared) {
      const name = String(field?.name);
      if (DOMAIN_FIELDS[name] === undefined || field.type !== DOMAIN_FIELDS[name] || names.has(name)) {
        throw new TypedDataError(`types.EIP712Domain: ${name} ${field?.type} is not an EIP-712 domain field`);
      }
      if (!(name in signed))
        throw new TypedDataError(`types.EIP712Domain declares ${name}, the domain has none`);
      names.add(name);
    }
    const undeclared = Object.keys(signed).find((key) => !names.has(key));
    if (undeclared) throw new TypedDataError(`domain.${undeclared} is not declared in types.EIP712Domain`);
    domainTypes = declared.map((field) => ({ name: field.name, type: field.type }));
  }
  const { name, version, chainId, verifyingContract, salt } = signed;
  const shown: Domain = {
    ...(typeof name === 'string' ? { name: revealHidden(name) } : {}),
    ...(typeof version === 'string' ? { version: revealHidden(version) } : {}),
    ...(typeof chainId === 'number' ? { chainId } : {}),
    ...(typeof verifyingContract === 'string' ? { verifyingContract } : {}),
    ...(typeof salt === 'string' ? { salt } : {}),
  };
  return { shown, signed, domainTypes };
}

/** Parses the page's typed data (a JSON string, or an object) and checks it against its types. */
export function decodeTypedData(raw: unknown): DecodedTypedData {
  if (serializedLength(raw) > MAX_TYPED_DATA_CHARS) {
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
  if (
    typeof primaryType !== 'string' ||
    primaryType === 'EIP712Domain' ||
    !Object.hasOwn(types, primaryType)
  ) {
    throw new TypedDataError('primaryType must name one of the types');
  }
  const { EIP712Domain: declared, ...messageTypes } = types;
  const { shown: decodedDomain, signed: domain, domainTypes } = parseDomain(data.domain, declared);
  const message = asRecord(data.message, 'message');
  // The domain is hashed with exactly the fields shown, in the page's declared order: viem would
  // otherwise derive the domain's types from its values, signing fields the window never named.
  const definition = {
    domain,
    types: { EIP712Domain: domainTypes, ...messageTypes },
    primaryType,
    message,
  } as unknown as TypedDataDefinition;
  const fields = flatten(messageTypes as Types, primaryType, message, '', 0);
  if (fields.length > MAX_FIELDS) throw new TypedDataError(`typed data has more than ${MAX_FIELDS} fields`);
  try {
    validateTypedData(definition);
  } catch (error) {
    throw new TypedDataError(
      `typed data does not match its types (${error instanceof Error ? (error.message.split('\n')[0] ?? '') : ''})`,
    );
  }
  return {
    primaryType,
    domain: decodedDomain,
    fields,
    permit: permitOf(messageTypes as Types, decodedDomain, primaryType, message),
    definition,
  };
}

function flatten(types: Types, type: string, value: unknown, path: string, depth: number): TypedField[] {
  if (depth > MAX_DEPTH) throw new TypedDataError(`typed data nests deeper than ${MAX_DEPTH} levels`);
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    // viem signs whatever array it is given: a value that is not one, or a fixed-size array of
    // another length, would be shown one way and signed another (or fail after "Sign").
    if (!Array.isArray(value)) throw new TypedDataError(`${path} is not an array`);
    if (array[2] !== '' && value.length !== Number(array[2])) {
      throw new TypedDataError(`${path} has ${value.length} items, not ${array[2]}`);
    }
    return value.flatMap((item, i) => flatten(types, array[1] as string, item, `${path}[${i}]`, depth + 1));
  }
  // Own types only: "toString" or "constructor" must not resolve to Object.prototype's.
  const struct = Object.hasOwn(types, type) ? types[type] : undefined;
  if (struct) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new TypedDataError(`${path} is not a ${type}`);
    }
    const record = value as Record<string, unknown>;
    for (const field of struct) {
      // A name is part of the type hash and the row's label: "to,uint256 amount" or a bidi override
      // would make the label read as another field.
      if (typeof field.name !== 'string' || !IDENTIFIER.test(field.name)) {
        throw new TypedDataError(
          `${type} has a field named ${JSON.stringify(field.name)}, not an identifier`,
        );
      }
    }
    return struct.flatMap((field) =>
      flatten(types, field.type, record[field.name], path ? `${path}.${field.name}` : field.name, depth + 1),
    );
  }
  return [{ path, type, value: checkAtom(type, value, path) }];
}

/**
 * What viem's validation leaves to signing time, checked before any window, and the value as it
 * will be hashed: an integer in decimal (a page's 1e30 is shown as the number signed), a string
 * only as a string (viem hashes a number or a byte array given for a string as raw bytes, so "5"
 * on screen would sign the byte 0x05), a boolean only as true or false.
 */
function checkAtom(type: string, value: unknown, path: string): string {
  const integer = /^(u?)int(\d*)$/.exec(type);
  if (integer) {
    const bits = BigInt(integer[2] || '256');
    const parsed = big(value);
    const min = integer[1] ? 0n : -(2n ** (bits - 1n));
    const max = integer[1] ? 2n ** bits - 1n : 2n ** (bits - 1n) - 1n;
    if (parsed === null || parsed < min || parsed > max)
      throw new TypedDataError(`${path} is not a valid ${type}`);
    return parsed.toString();
  }
  if (type === 'address' && (typeof value !== 'string' || !isAddress(value, { strict: false }))) {
    throw new TypedDataError(`${path} is not an address`);
  }
  if (type === 'bool' && typeof value !== 'boolean') throw new TypedDataError(`${path} is not true or false`);
  if (type === 'string' && typeof value !== 'string') throw new TypedDataError(`${path} is not a string`);
  if (/^bytes\d*$/.test(type) && (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value))) {
    throw new TypedDataError(`${path} is not hex bytes`);
  }
  // A bidi override or a hidden text in a string would make the row read as something else.
  return type === 'string' ? revealHidden(value as string) : String(value);
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

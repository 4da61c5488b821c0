// What a transaction's calldata asks the contract to do, as the approval window names it: the
// token standards' approvals and transfers, Permit2's, and WETH's wrap and unwrap. Anything else is
// named "unknown" with its selector: never guessed from a public signature database.
import { type Abi, decodeFunctionData, getAddress, type Hex, parseAbi, toFunctionSelector } from 'viem';

export interface CallArg {
  name: string;
  /** 'address' values are checksummed; 'amount' values are decimal integers in the smallest unit. */
  kind: 'address' | 'amount' | 'id' | 'bool' | 'other';
  value: string;
}

export interface DecodedCall {
  /** Human name of the call, e.g. "ERC-20 approve"; "Unknown call" when not decoded. */
  name: string;
  functionName: string | null;
  selector: string | null;
  args: CallArg[];
  known: boolean;
}

interface Known {
  family: string;
  abi: Abi;
  /** Names of each argument and how to show it, by function. */
  args: Record<string, readonly [string, CallArg['kind']][]>;
}

// Several standards share a selector (ERC-20 and ERC-721 approve(address,uint256) and
// transferFrom): the name says both and the argument names what either reading means.
const KNOWN: readonly Known[] = [
  {
    family: 'Token',
    abi: parseAbi([
      'function approve(address spender, uint256 amountOrTokenId)',
      'function transferFrom(address from, address to, uint256 amountOrTokenId)',
    ]),
    args: {
      approve: [
        ['spender', 'address'],
        ['amount (ERC-20) or token id (ERC-721)', 'amount'],
      ],
      transferFrom: [
        ['from', 'address'],
        ['to', 'address'],
        ['amount (ERC-20) or token id (ERC-721)', 'amount'],
      ],
    },
  },
  {
    family: 'ERC-20',
    abi: parseAbi([
      'function transfer(address to, uint256 amount)',
      'function increaseAllowance(address spender, uint256 addedValue)',
      'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
    ]),
    args: {
      transfer: [
        ['to', 'address'],
        ['amount', 'amount'],
      ],
      increaseAllowance: [
        ['spender', 'address'],
        ['added allowance', 'amount'],
      ],
      permit: [
        ['owner', 'address'],
        ['spender', 'address'],
        ['amount', 'amount'],
        ['deadline', 'id'],
      ],
    },
  },
  {
    family: 'NFT',
    abi: parseAbi([
      'function setApprovalForAll(address operator, bool approved)',
      'function safeTransferFrom(address from, address to, uint256 tokenId)',
      'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
    ]),
    args: {
      setApprovalForAll: [
        ['operator', 'address'],
        ['approved', 'bool'],
      ],
      safeTransferFrom: [
        ['from', 'address'],
        ['to', 'address'],
        ['token id', 'id'],
      ],
    },
  },
  {
    family: 'ERC-1155',
    abi: parseAbi([
      'function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data)',
      'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] amounts, bytes data)',
    ]),
    args: {
      safeTransferFrom: [
        ['from', 'address'],
        ['to', 'address'],
        ['token id', 'id'],
        ['amount', 'amount'],
      ],
      safeBatchTransferFrom: [
        ['from', 'address'],
        ['to', 'address'],
        ['token ids', 'id'],
        ['amounts', 'amount'],
      ],
    },
  },
  {
    family: 'Permit2',
    abi: parseAbi([
      'function approve(address token, address spender, uint160 amount, uint48 expiration)',
      'struct PermitDetails { address token; uint160 amount; uint48 expiration; uint48 nonce; }',
      'struct PermitSingle { PermitDetails details; address spender; uint256 sigDeadline; }',
      'function permit(address owner, PermitSingle permitSingle, bytes signature)',
      'struct TokenPermissions { address token; uint256 amount; }',
      'struct PermitTransferFrom { TokenPermissions permitted; uint256 nonce; uint256 deadline; }',
      'struct SignatureTransferDetails { address to; uint256 requestedAmount; }',
      'function permitTransferFrom(PermitTransferFrom permit, SignatureTransferDetails transferDetails, address owner, bytes signature)',
    ]),
    args: {
      approve: [
        ['token', 'address'],
        ['spender', 'address'],
        ['amount', 'amount'],
        ['expiration', 'id'],
      ],
      permit: [['owner', 'address']],
      permitTransferFrom: [],
    },
  },
  {
    family: 'WETH',
    abi: parseAbi(['function deposit()', 'function withdraw(uint256 amount)']),
    args: { deposit: [], withdraw: [['amount', 'amount']] },
  },
];

function shown(value: unknown, kind: CallArg['kind']): string {
  if (Array.isArray(value)) return value.map((item) => shown(item, kind)).join(', ');
  if (kind === 'address' && typeof value === 'string') return getAddress(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** The Permit2 structs, flattened to the fields a person needs. */
function permit2Args(functionName: string, args: readonly unknown[]): CallArg[] {
  if (functionName === 'permit') {
    const single = args[1] as {
      details: { token: string; amount: bigint; expiration: number };
      spender: string;
    };
    return [
      { name: 'owner', kind: 'address', value: getAddress(args[0] as string) },
      { name: 'token', kind: 'address', value: getAddress(single.details.token) },
      { name: 'spender', kind: 'address', value: getAddress(single.spender) },
      { name: 'amount', kind: 'amount', value: single.details.amount.toString() },
      { name: 'expiration', kind: 'id', value: String(single.details.expiration) },
    ];
  }
  const permit = args[0] as { permitted: { token: string; amount: bigint } };
  const transfer = args[1] as { to: string; requestedAmount: bigint };
  return [
    { name: 'token', kind: 'address', value: getAddress(permit.permitted.token) },
    { name: 'to', kind: 'address', value: getAddress(transfer.to) },
    { name: 'amount', kind: 'amount', value: transfer.requestedAmount.toString() },
    { name: 'owner', kind: 'address', value: getAddress(args[2] as string) },
  ];
}

function familyName(family: string, functionName: string): string {
  if (family === 'Token') return `Token ${functionName} (ERC-20 or ERC-721)`;
  if (family === 'NFT') return `NFT ${functionName} (ERC-721 or ERC-1155)`;
  return `${family} ${functionName}`;
}

/** The call as the window names it; plain sends (no data) are `null`. */
export function decodeCall(data: Hex): DecodedCall | null {
  if (data === '0x') return null;
  const selector = data.length >= 10 ? data.slice(0, 10).toLowerCase() : null;
  for (const known of KNOWN) {
    let decoded: { functionName: string; args?: readonly unknown[] };
    try {
      decoded = decodeFunctionData({ abi: known.abi, data });
    } catch {
      continue;
    }
    const values = decoded.args ?? [];
    const names = known.args[decoded.functionName] ?? [];
    const args =
      known.family === 'Permit2' && decoded.functionName !== 'approve'
        ? permit2Args(decoded.functionName, values)
        : names.map(([name, kind], i) => ({ name, kind, value: shown(values[i], kind) }));
    return {
      name: familyName(known.family, decoded.functionName),
      functionName: decoded.functionName,
      selector,
      args,
      known: true,
    };
  }
  return { name: 'Unknown call', functionName: null, selector, args: [], known: false };
}

/** Selectors of every decoded call (for tests and docs). */
export const KNOWN_SELECTORS: readonly string[] = KNOWN.flatMap((known) =>
  known.abi.filter((item) => item.type === 'function').map((item) => toFunctionSelector(item)),
);

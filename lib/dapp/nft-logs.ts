// Simulated logs read for what ERC-20 Transfer/Approval do not say: NFTs moving to or from the
// account (ERC-721 Transfer with its token id, ERC-1155 TransferSingle and TransferBatch) and the
// approvals of NFTs it grants (ERC-721 Approval of one token, ApprovalForAll of every token).
import { decodeEventLog, getAddress, type Hex, parseAbi } from 'viem';
import { sameAddress } from '@/lib/api/schema';

const NFT_EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
]);

type SimLog = { address: string; topics: readonly Hex[]; data: Hex };

export interface NftChange {
  token: string;
  standard: 'ERC-721' | 'ERC-1155';
  tokenId: string;
  /** Signed decimal: +1 received, -1 sent (ERC-721); the amount for ERC-1155. */
  amount: string;
}

export interface NftApproval {
  token: string;
  /** 'all' for ApprovalForAll (every token of the collection, now and later). */
  scope: 'all' | 'one';
  operator: string;
  /** The token id for 'one'. */
  tokenId: string | null;
  approved: boolean;
}

function decode(log: SimLog) {
  try {
    return decodeEventLog({ abi: NFT_EVENTS, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
  } catch {
    return null;
  }
}

/** NFTs (and ERC-1155 amounts) moving to or from `owner`, netted per token and id. */
export function nftChanges(logs: readonly SimLog[], owner: string): NftChange[] {
  const totals = new Map<string, NftChange & { delta: bigint }>();
  const add = (token: string, standard: NftChange['standard'], id: bigint, delta: bigint) => {
    const key = `${token.toLowerCase()}:${id}`;
    const entry = totals.get(key) ?? {
      token: getAddress(token),
      standard,
      tokenId: id.toString(),
      amount: '0',
      delta: 0n,
    };
    entry.delta += delta;
    totals.set(key, entry);
  };
  const sign = (from: string, to: string) =>
    (sameAddress(to, owner) ? 1n : 0n) - (sameAddress(from, owner) ? 1n : 0n);
  for (const log of logs) {
    const event = decode(log);
    if (!event) continue;
    if (event.eventName === 'Transfer') {
      const s = sign(event.args.from, event.args.to);
      if (s !== 0n) add(log.address, 'ERC-721', event.args.tokenId, s);
    } else if (event.eventName === 'TransferSingle') {
      const s = sign(event.args.from, event.args.to);
      if (s !== 0n) add(log.address, 'ERC-1155', event.args.id, s * event.args.value);
    } else if (event.eventName === 'TransferBatch') {
      const s = sign(event.args.from, event.args.to);
      if (s === 0n) continue;
      event.args.ids.forEach((id, i) => {
        add(log.address, 'ERC-1155', id, s * (event.args.values[i] ?? 0n));
      });
    }
  }
  return [...totals.values()]
    .filter((entry) => entry.delta !== 0n)
    .map(({ delta, ...entry }) => ({ ...entry, amount: delta.toString() }));
}

/** NFT approvals `owner` grants (or revokes, for ApprovalForAll) in the simulated transaction. */
export function nftApprovals(logs: readonly SimLog[], owner: string): NftApproval[] {
  const approvals: NftApproval[] = [];
  for (const log of logs) {
    const event = decode(log);
    if (!event) continue;
    if (event.eventName === 'ApprovalForAll' && sameAddress(event.args.owner, owner)) {
      approvals.push({
        token: getAddress(log.address),
        scope: 'all',
        operator: getAddress(event.args.operator),
        tokenId: null,
        approved: event.args.approved,
      });
    } else if (event.eventName === 'Approval' && sameAddress(event.args.owner, owner)) {
      const cleared = /^0x0{40}$/.test(event.args.approved);
      approvals.push({
        token: getAddress(log.address),
        scope: 'one',
        operator: getAddress(event.args.approved),
        tokenId: event.args.tokenId.toString(),
        approved: !cleared,
      });
    }
  }
  return approvals;
}

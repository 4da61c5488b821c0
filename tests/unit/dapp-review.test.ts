// What the approval window is told about a request: calls decoded, NFT moves and approvals read
// from simulated logs, the warnings that need a tick, signature call-outs, and bad fields named.
import {
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionData,
  maxUint256,
  parseAbi,
  toHex,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeCall } from '@/lib/dapp/calls';
import { nftApprovals, nftChanges } from '@/lib/dapp/nft-logs';
import { parseParams } from '@/lib/dapp/params';
import { createRateLimiter } from '@/lib/dapp/rate-limit';
import { messageWarnings, seaportOrderOf, typedDataWarnings } from '@/lib/dapp/signature-review';
import { transactionWarnings } from '@/lib/dapp/tx-warnings';
import { decodeTypedData } from '@/lib/dapp/typed-data';

const ME = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OPERATOR = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const NFT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const abi = parseAbi([
  'function setApprovalForAll(address operator, bool approved)',
  'function approve(address spender, uint256 amount)',
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
  'function deposit()',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
]);

const base = {
  call: { value: 0n, data: '0x' },
  revertReason: null,
  capped: false,
  simulated: true,
  unlimited: false,
  recipientKind: 'contract' as const,
  nftApprovals: [],
};

describe('calls decoded for the window', () => {
  it('names the standards’ calls and their arguments; unknown selectors as such', () => {
    const operator = decodeCall(
      encodeFunctionData({ abi, functionName: 'setApprovalForAll', args: [OPERATOR, true] }),
    );
    expect(operator).toMatchObject({ known: true, functionName: 'setApprovalForAll' });
    expect(operator?.args).toEqual([
      { name: 'operator', kind: 'address', value: OPERATOR },
      { name: 'approved', kind: 'bool', value: 'yes' },
    ]);
    const permit2 = decodeCall(
      encodeFunctionData({
        abi: [abi[2]],
        functionName: 'approve',
        args: [NFT, OPERATOR, 2n ** 160n - 1n, 0],
      }),
    );
    expect(permit2?.name).toBe('Permit2 approve');
    expect(decodeCall(encodeFunctionData({ abi, functionName: 'deposit' }))?.name).toBe('WETH deposit');
    expect(decodeCall('0xdeadbeef00')).toEqual({
      name: 'Unknown call',
      functionName: null,
      selector: '0xdeadbeef',
      args: [],
      known: false,
    });
    expect(decodeCall('0x')).toBeNull();
  });

  it('warns (with a tick) about operator approval, unlimited approve and value to an unknown call', () => {
    const operator = transactionWarnings({
      ...base,
      decodedCall: decodeCall(
        encodeFunctionData({ abi, functionName: 'setApprovalForAll', args: [OPERATOR, true] }),
      ),
    });
    expect(operator).toContainEqual(expect.objectContaining({ code: 'OPERATOR_APPROVAL', tick: true }));
    const revoke = transactionWarnings({
      ...base,
      decodedCall: decodeCall(
        encodeFunctionData({ abi, functionName: 'setApprovalForAll', args: [OPERATOR, false] }),
      ),
    });
    expect(revoke.map((w) => w.code)).not.toContain('OPERATOR_APPROVAL');
    const unlimited = transactionWarnings({
      ...base,
      decodedCall: decodeCall(
        encodeFunctionData({ abi: [abi[1]], functionName: 'approve', args: [OPERATOR, maxUint256] }),
      ),
    });
    expect(unlimited).toContainEqual(expect.objectContaining({ code: 'UNLIMITED_APPROVAL', tick: true }));
    const blind = transactionWarnings({
      ...base,
      call: { value: 1n, data: '0x12345678' },
      decodedCall: decodeCall('0x12345678'),
    });
    expect(blind).toContainEqual(expect.objectContaining({ code: 'VALUE_TO_UNKNOWN_CALL', tick: true }));
    const toPerson = transactionWarnings({
      ...base,
      call: { value: 1n, data: '0x' },
      recipientKind: 'account',
      decodedCall: null,
    });
    expect(toPerson).toEqual([]);
  });
});

describe('NFTs in simulated logs', () => {
  const log = (
    eventName: 'Transfer' | 'ApprovalForAll' | 'TransferSingle',
    args: never,
    data: `0x${string}`,
  ) => ({
    address: NFT,
    topics: encodeEventTopics({ abi, eventName, args } as never) as `0x${string}`[],
    data,
  });
  it('reads ERC-721 transfers with their id, ERC-1155 amounts and operator approvals', () => {
    const logs = [
      log('Transfer', { from: ME, to: OPERATOR, tokenId: 7n } as never, '0x'),
      log(
        'TransferSingle',
        { operator: OPERATOR, from: OPERATOR, to: ME } as never,
        encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [3n, 5n]),
      ),
      log('ApprovalForAll', { owner: ME, operator: OPERATOR } as never, toHex(1n, { size: 32 })),
    ];
    expect(nftChanges(logs, ME)).toEqual([
      { token: NFT, standard: 'ERC-721', tokenId: '7', amount: '-1' },
      { token: NFT, standard: 'ERC-1155', tokenId: '3', amount: '5' },
    ]);
    const approvals = nftApprovals(logs, ME);
    expect(approvals).toEqual([
      { token: NFT, scope: 'all', operator: OPERATOR, tokenId: null, approved: true },
    ]);
    expect(
      transactionWarnings({ ...base, nftApprovals: approvals, decodedCall: decodeCall('0x12345678') }),
    ).toContainEqual(expect.objectContaining({ code: 'OPERATOR_APPROVAL' }));
    // Someone else's approval is not the account's.
    expect(nftApprovals(logs, OPERATOR)).toEqual([]);
  });
});

describe('signature call-outs', () => {
  it('a 32-byte hex message is warned as possibly authorising a transaction; other lengths are not', () => {
    expect(messageWarnings(toHex(1n, { size: 32 }))).toEqual([
      expect.objectContaining({ code: 'HASH_SIGNATURE', tick: true }),
    ]);
    expect(messageWarnings(toHex(1n, { size: 31 }))).toEqual([]);
  });

  const witness = {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      TokenPermissions: [
        { name: 'token', type: 'address' },
        { name: 'amount', type: 'uint256' },
      ],
      Order: [{ name: 'minOut', type: 'uint256' }],
      PermitWitnessTransferFrom: [
        { name: 'permitted', type: 'TokenPermissions' },
        { name: 'spender', type: 'address' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
        { name: 'witness', type: 'Order' },
      ],
    },
    primaryType: 'PermitWitnessTransferFrom',
    domain: { name: 'Permit2', chainId: 1, verifyingContract: '0x000000000022D473030F116dDEE9F6B43aC78BA3' },
    message: {
      permitted: { token: NFT, amount: '1000' },
      spender: OPERATOR.toLowerCase(),
      nonce: '1',
      deadline: '1900000000',
      witness: { minOut: '1' },
    },
  };

  it('a Permit2 witness transfer is called out with its spender (checksummed) and witness type', () => {
    const decoded = decodeTypedData(witness);
    expect(decoded.permit).toMatchObject({ standard: 'Permit2', spender: OPERATOR, witness: 'Order' });
    expect(typedDataWarnings(decoded)).toEqual([
      expect.objectContaining({ code: 'PERMIT2_WITNESS', tick: true }),
    ]);
  });

  it('typed data without a chain id is warned', () => {
    const { chainId: _, ...domain } = witness.domain;
    const decoded = decodeTypedData({
      ...witness,
      types: {
        ...witness.types,
        EIP712Domain: witness.types.EIP712Domain.filter((f) => f.name !== 'chainId'),
      },
      domain,
    });
    expect(typedDataWarnings(decoded).map((w) => w.code)).toContain('NO_CHAIN_ID');
  });

  it('a Seaport order reads as offered against received', () => {
    const order = seaportOrderOf({
      domain: { name: 'Seaport' },
      primaryType: 'OrderComponents',
      definition: {
        message: {
          offerer: ME,
          offer: [{ itemType: 2, token: NFT, identifierOrCriteria: '7', startAmount: '1', endAmount: '1' }],
          consideration: [
            {
              itemType: 0,
              token: NFT,
              identifierOrCriteria: '0',
              startAmount: '1',
              endAmount: '1',
              recipient: ME,
            },
            {
              itemType: 0,
              token: NFT,
              identifierOrCriteria: '0',
              startAmount: '9',
              endAmount: '9',
              recipient: OPERATOR,
            },
          ],
        },
      } as never,
    });
    expect(order?.offered).toEqual([{ kind: 'ERC-721', token: NFT, id: '7', amount: '1', recipient: null }]);
    expect(order?.received.map((item) => item.amount)).toEqual(['1']);
    expect(order?.toOthers.map((item) => item.recipient)).toEqual([OPERATOR]);
  });
});

describe('bad requests and limits', () => {
  it('a `to` failing its EIP-55 checksum is -32602 naming `to`; all-lower and valid mixed case pass', () => {
    // One letter's case flipped: still an address, no longer its checksum.
    const broken = `0x${OPERATOR.slice(2).replace('C', 'c')}`;
    expect(() => parseParams('eth_sendTransaction', [{ from: ME, to: broken }])).toThrow(
      expect.objectContaining({
        code: -32602,
        message: expect.stringMatching(/^Invalid params: to: .*EIP-55/),
      }),
    );
    expect(() =>
      parseParams('eth_sendTransaction', [{ from: ME, to: OPERATOR.toLowerCase() }]),
    ).not.toThrow();
    expect(() => parseParams('eth_sendTransaction', [{ from: ME, to: OPERATOR }])).not.toThrow();
    // The account a typed-data request names is held to the same rule.
    expect(() => parseParams('eth_signTypedData_v4', [broken, '{}'])).toThrow(
      expect.objectContaining({ code: -32602, message: expect.stringMatching(/EIP-55/) }),
    );
    expect(() => parseParams('eth_signTypedData_v4', [OPERATOR.toLowerCase(), '{}'])).not.toThrow();
  });

  it('read calls are limited per origin and refill over time', () => {
    let now = 0;
    const limiter = createRateLimiter(() => now, { burst: 3, perSecond: 1 });
    expect([1, 2, 3, 4].map(() => limiter.take('https://a.example'))).toEqual([true, true, true, false]);
    expect(limiter.take('https://b.example')).toBe(true);
    now = 1_000;
    expect(limiter.take('https://a.example')).toBe(true);
    expect(limiter.take('https://a.example')).toBe(false);
  });
});

// The params of each method a page may call, parsed with zod before anything acts on them. The
// page is hostile: every field is bounded, addresses and hex are checked, unknown keys dropped.
import { isAddress } from 'viem';
import * as z from 'zod/mini';
import { AddressSchema } from '@/lib/api/schema';
import { invalidParams } from './errors';

const Hex = z.string().check(z.maxLength(200_000), z.regex(/^0x[0-9a-fA-F]*$/, 'expected 0x-prefixed hex'));
const Quantity = z.string().check(z.regex(/^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,63})$/, 'expected a hex quantity'));
const ChainIdParam = z.string().check(z.maxLength(20));

/** An address whose mixed case, when it has one, is its EIP-55 checksum (a typo otherwise). */
const ChecksummedAddress = AddressSchema.check(
  z.refine(
    (value) =>
      value.slice(2) === value.slice(2).toLowerCase() ||
      value.slice(2) === value.slice(2).toUpperCase() ||
      isAddress(value, { strict: true }),
    'mixed-case address fails its EIP-55 checksum',
  ),
);

const Bytes32 = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'expected 32 bytes of hex'));

/** EIP-2930: the addresses and storage slots the transaction declares it touches (bounded). */
const AccessListSchema = z
  .array(
    z.object({
      address: ChecksummedAddress,
      storageKeys: z.array(Bytes32).check(z.maxLength(1_000)),
    }),
  )
  .check(z.maxLength(100));

export const TransactionParamsSchema = z.object({
  from: ChecksummedAddress,
  to: z.optional(z.nullable(ChecksummedAddress)),
  value: z.optional(Quantity),
  data: z.optional(Hex),
  input: z.optional(Hex),
  gas: z.optional(Quantity),
  gasLimit: z.optional(Quantity),
  maxFeePerGas: z.optional(Quantity),
  maxPriorityFeePerGas: z.optional(Quantity),
  gasPrice: z.optional(Quantity),
  nonce: z.optional(Quantity),
  chainId: z.optional(ChainIdParam),
  type: z.optional(z.string().check(z.maxLength(6))),
  accessList: z.optional(AccessListSchema),
  // Kept only to be refused by name: an EIP-7702 delegation or a blob is never sent without them.
  authorizationList: z.optional(z.unknown()),
  blobVersionedHashes: z.optional(z.unknown()),
  maxFeePerBlobGas: z.optional(z.unknown()),
});
export type TransactionParams = z.infer<typeof TransactionParamsSchema>;

const MessageString = z.string().check(z.maxLength(100_000));

export const PARAM_SCHEMAS = {
  personal_sign: z.tuple([MessageString, MessageString], z.unknown()),
  personal_ecRecover: z.tuple(
    [MessageString, z.string().check(z.regex(/^0x[0-9a-fA-F]{130}$/, 'expected a 65-byte signature'))],
    z.unknown(),
  ),
  eth_signTypedData_v4: z.tuple([
    ChecksummedAddress,
    z.union([MessageString, z.record(z.string(), z.unknown())]),
  ]),
  eth_sendTransaction: z.tuple([TransactionParamsSchema]),
  wallet_switchEthereumChain: z.tuple([z.object({ chainId: ChainIdParam })]),
  wallet_addEthereumChain: z.tuple([z.looseObject({ chainId: ChainIdParam })]),
  wallet_requestPermissions: z.tuple([z.record(z.string().check(z.maxLength(100)), z.unknown())]),
  wallet_revokePermissions: z.tuple([z.record(z.string().check(z.maxLength(100)), z.unknown())]),
} as const;

export type ParamMethod = keyof typeof PARAM_SCHEMAS;

export function parseParams<M extends ParamMethod>(
  method: M,
  params: unknown,
): z.infer<(typeof PARAM_SCHEMAS)[M]> {
  const parsed = PARAM_SCHEMAS[method].safeParse(params ?? []);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // The field is named as a page's developer wrote it: `to`, not `0.to`.
    const path = issue?.path.filter((key) => typeof key === 'string').join('.');
    throw invalidParams(issue ? `${path || 'params'}: ${issue.message}` : method);
  }
  return parsed.data as z.infer<(typeof PARAM_SCHEMAS)[M]>;
}

/** Read-only calls go to the node as they are, but bounded: an array of at most a few values. */
export const ReadParamsSchema = z.optional(z.array(z.unknown()).check(z.maxLength(8)));

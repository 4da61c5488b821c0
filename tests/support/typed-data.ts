// Uniswap's Permit2 (AllowanceTransfer) EIP-712 types, as dapps ask a wallet to sign them: one place
// for the unit tests of the decoder and the end-to-end signature through the approval window.

/** Permit2's canonical address (the same on every chain). */
export const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';

const PERMIT_DETAILS = [
  { name: 'token', type: 'address' },
  { name: 'amount', type: 'uint160' },
  { name: 'expiration', type: 'uint48' },
  { name: 'nonce', type: 'uint48' },
] as const;

/** A permit's own fields: the allowance `details` (one or a list), the spender and the signature's deadline. */
function permitOver<Details extends string>(details: Details) {
  return [
    { name: 'details', type: details },
    { name: 'spender', type: 'address' },
    { name: 'sigDeadline', type: 'uint256' },
  ] as const;
}

/** The types of a PermitSingle: one token's allowance for a spender. */
export const PERMIT_SINGLE_TYPES = {
  PermitDetails: PERMIT_DETAILS,
  PermitSingle: permitOver('PermitDetails'),
} as const;

/** The types of a PermitBatch: several tokens' allowances for one spender. */
export const PERMIT_BATCH_TYPES = {
  PermitDetails: PERMIT_DETAILS,
  PermitBatch: permitOver('PermitDetails[]'),
} as const;

// The warnings of a transaction review. Those marked `tick` are ones a person should not click
// through: the primary button stays off until they tick "I understand" next to each.
import type { DecodedCall } from './calls';
import type { NftApproval } from './nft-logs';

export interface TxWarning {
  code: string;
  message: string;
  tick?: boolean;
}

/** At or above this an ERC-20 allowance is "unlimited" (max uint256 and its usual neighbours). */
export const UNLIMITED_ERC20 = 2n ** 255n;
/** Permit2's allowances are uint160: its max is its "unlimited". */
const UNLIMITED_PERMIT2 = 2n ** 159n;

export interface WarningInput {
  call: { value: bigint; data: string };
  revertReason: string | null;
  capped: boolean;
  simulated: boolean;
  /** The simulation showed an ERC-20 Approval at or above UNLIMITED_ERC20. */
  unlimited: boolean;
  decodedCall: DecodedCall | null;
  recipientKind: 'contract' | 'account' | null;
  nftApprovals: readonly NftApproval[];
}

function argOf(call: DecodedCall | null, name: string): string | undefined {
  return call?.args.find((arg) => arg.name === name)?.value;
}

/** An unlimited allowance in the calldata itself (when the simulation cannot show it). */
function calldataUnlimited(call: DecodedCall | null): boolean {
  if (!call?.known) return false;
  const amount = argOf(call, 'amount (ERC-20) or token id (ERC-721)') ?? argOf(call, 'added allowance');
  if (call.functionName === 'approve' && call.name.startsWith('Permit2')) {
    return BigInt(argOf(call, 'amount') ?? '0') >= UNLIMITED_PERMIT2;
  }
  if (call.functionName === 'approve' || call.functionName === 'increaseAllowance') {
    return BigInt(amount ?? '0') >= UNLIMITED_ERC20;
  }
  return false;
}

export function transactionWarnings(input: WarningInput): TxWarning[] {
  const warnings: TxWarning[] = [];
  const call = input.decodedCall;
  if (input.revertReason !== null) {
    warnings.push({
      code: 'WILL_REVERT',
      message: `This transaction is expected to fail: ${input.revertReason}.`,
    });
  }
  const operator =
    input.nftApprovals.find((approval) => approval.scope === 'all' && approval.approved)?.operator ??
    (call?.functionName === 'setApprovalForAll' && argOf(call, 'approved') === 'yes'
      ? argOf(call, 'operator')
      : undefined);
  if (operator) {
    warnings.push({
      code: 'OPERATOR_APPROVAL',
      message: `This lets ${operator} take ALL your NFTs of this collection, now and later, without asking again.`,
      tick: true,
    });
  }
  if (input.unlimited || calldataUnlimited(call)) {
    warnings.push({
      code: 'UNLIMITED_APPROVAL',
      message: 'This grants an unlimited allowance of a token: the spender can take all of it, at any time.',
      tick: true,
    });
  }
  if (input.call.value > 0n && input.recipientKind === 'contract' && !call?.known) {
    warnings.push({
      code: 'VALUE_TO_UNKNOWN_CALL',
      message:
        'This sends coins to a contract with a call Swaplane cannot read: only the contract decides what happens to them.',
      tick: true,
    });
  }
  if (input.capped) {
    warnings.push({
      code: 'FEE_CAPPED',
      message:
        'The fee asked for is above what this network has recently needed; Swaplane lowers it to its cap.',
    });
  }
  if (!input.simulated) {
    warnings.push({
      code: 'NOT_SIMULATED',
      message: 'The balance changes could not be simulated on this network.',
    });
  }
  return warnings;
}

/** The codes the user must tick before approving. */
export function codesToTick(warnings: readonly TxWarning[]): string[] {
  return warnings.filter((warning) => warning.tick).map((warning) => warning.code);
}

// Which JSON-RPC methods a page may call, and how each is served. Anything not listed is refused
// with 4200: no eth_sign (blind hash signing), no eth_sendRawTransaction, no subscriptions.

/** Read-only calls passed to the chain's configured RPC as they are. */
export const READ_ONLY_METHODS: ReadonlySet<string> = new Set([
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getTransactionCount',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getLogs',
  'eth_gasPrice',
  'eth_feeHistory',
  'eth_maxPriorityFeePerGas',
  'eth_syncing',
  'web3_clientVersion',
]);

/** Answered by the wallet itself, no window. */
export const WALLET_METHODS: ReadonlySet<string> = new Set([
  'eth_accounts',
  'eth_chainId',
  'net_version',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'wallet_getPermissions',
  'wallet_revokePermissions',
  // Recovers a personal_sign signer: pure, no key involved (MetaMask answers it too).
  'personal_ecRecover',
]);

/** Each needs the user's yes in the approval window. */
export const APPROVAL_METHODS = {
  eth_requestAccounts: 'connect',
  wallet_requestPermissions: 'connect',
  personal_sign: 'sign',
  eth_signTypedData_v4: 'typed-data',
  eth_sendTransaction: 'transaction',
} as const;
export type ApprovalKind = (typeof APPROVAL_METHODS)[keyof typeof APPROVAL_METHODS];

export type MethodClass = 'read' | 'wallet' | { approval: ApprovalKind } | 'unsupported';

export function classifyMethod(method: string): MethodClass {
  if (READ_ONLY_METHODS.has(method)) return 'read';
  if (WALLET_METHODS.has(method)) return 'wallet';
  if (Object.hasOwn(APPROVAL_METHODS, method)) {
    return { approval: APPROVAL_METHODS[method as keyof typeof APPROVAL_METHODS] };
  }
  return 'unsupported';
}

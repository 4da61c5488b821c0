// EIP-1193 provider errors and EIP-1474 JSON-RPC errors: the only error shapes a page ever sees.
// Messages are plain and never carry internal detail (stack, node text, storage state).

export const RPC_ERROR = {
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  disconnected: 4900,
  chainDisconnected: 4901,
  unrecognizedChain: 4902,
  invalidInput: -32000,
  resourceUnavailable: -32002,
  transactionRejected: -32003,
  limitExceeded: -32005,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
} as const;

export interface RpcErrorShape {
  code: number;
  message: string;
}

export class DappRpcError extends Error {
  override name = 'DappRpcError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const rejected = () => new DappRpcError(RPC_ERROR.userRejected, 'The user rejected the request.');
export const unauthorized = () =>
  new DappRpcError(
    RPC_ERROR.unauthorized,
    'This site is not connected to Swaplane. Call eth_requestAccounts first.',
  );
export const invalidParams = (detail: string) =>
  new DappRpcError(RPC_ERROR.invalidParams, `Invalid params: ${detail}`);

/** The page's view of any failure: a DappRpcError as is, anything else as an internal error. */
export function toRpcError(error: unknown): RpcErrorShape {
  if (error instanceof DappRpcError) return { code: error.code, message: error.message };
  return { code: RPC_ERROR.internal, message: 'Swaplane could not complete the request.' };
}

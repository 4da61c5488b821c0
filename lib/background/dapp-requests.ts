// Sign and send requests of a connected site: params parsed and checked against the site's
// account and chain BEFORE a window opens, the window's content built, and what runs on approval.
import type { Hex, LocalAccount } from 'viem';
import { sameAddress } from '@/lib/api/schema';
import type { ApprovalDetail } from '@/lib/dapp/approval';
import { DappRpcError, invalidParams, RPC_ERROR } from '@/lib/dapp/errors';
import { messageBytesHex, showMessage } from '@/lib/dapp/message';
import type { ApprovalKind } from '@/lib/dapp/methods';
import { parseParams } from '@/lib/dapp/params';
import { messageWarnings, seaportOrderOf, typedDataWarnings } from '@/lib/dapp/signature-review';
import type { ConnectedSite } from '@/lib/dapp/sites';
import { normalizeTransaction } from '@/lib/dapp/transaction';
import { decodeTypedData, TypedDataError } from '@/lib/dapp/typed-data';
import type { RpcClient } from '@/lib/rpc/network';
import { prepareTransaction } from './dapp-actions';
import { reviewDapp, sendPrepared } from './dapp-send';
import type { Signing } from './signing';

export interface RequestContext {
  kind: Exclude<ApprovalKind, 'connect'>;
  method: string;
  params: unknown;
  site: ConnectedSite;
  chainId: number;
  client: () => RpcClient;
  signer: () => Promise<LocalAccount>;
  /** The background's one signing funnel and the user's fee ceilings. */
  signing: Signing;
}

function requireSiteAccount(site: ConnectedSite, address: string): string {
  const account = site.accounts.find((entry) => sameAddress(entry, address));
  if (!account) throw new DappRpcError(RPC_ERROR.unauthorized, 'This account is not connected to this site.');
  return account;
}

/** The active signer, which must be the account the site asked for. */
async function signerFor(context: RequestContext, account: string): Promise<LocalAccount> {
  const signer = await context.signer();
  if (!sameAddress(signer.address, account)) {
    throw new DappRpcError(
      RPC_ERROR.unauthorized,
      `Switch Swaplane to account ${account} to sign for this site.`,
    );
  }
  return signer;
}

export async function prepareRequest(
  context: RequestContext,
): Promise<{ detail: ApprovalDetail; run: () => Promise<unknown> }> {
  const { site } = context;
  if (context.kind === 'sign') {
    const [first, second] = parseParams('personal_sign', context.params);
    // [message, address] per the spec; some dapps send [address, message].
    const addressFirst = /^0x[0-9a-fA-F]{40}$/.test(first) && !/^0x[0-9a-fA-F]{40}$/.test(second);
    const [message, address] = addressFirst ? [second, first] : [first, second];
    const account = requireSiteAccount(site, address);
    const raw = messageBytesHex(message);
    return {
      detail: { kind: 'sign', account, message: showMessage(raw), warnings: messageWarnings(raw) },
      run: async () => (await signerFor(context, account)).signMessage({ message: { raw } }),
    };
  }
  if (context.kind === 'typed-data') {
    const [address, data] = parseParams('eth_signTypedData_v4', context.params);
    const account = requireSiteAccount(site, address);
    let decoded: ReturnType<typeof decodeTypedData>;
    try {
      decoded = decodeTypedData(data);
    } catch (error) {
      throw invalidParams(error instanceof TypedDataError ? error.message : 'typed data');
    }
    // A signature for another chain than the site's could be replayed there: refused.
    if (decoded.domain.chainId !== undefined && decoded.domain.chainId !== context.chainId) {
      throw invalidParams(
        `domain.chainId ${decoded.domain.chainId} is not this site's chain ${context.chainId}`,
      );
    }
    const { definition, ...shown } = decoded;
    return {
      detail: {
        kind: 'typed-data',
        account,
        ...shown,
        seaport: seaportOrderOf(decoded),
        warnings: typedDataWarnings(decoded),
      },
      run: async () => (await signerFor(context, account)).signTypedData(definition),
    };
  }
  const [params] = parseParams('eth_sendTransaction', context.params);
  const account = requireSiteAccount(site, params.from);
  const call = normalizeTransaction(params, account, context.chainId);
  const client = context.client();
  const { funnel, ceilingFor } = context.signing;
  const prepared = await prepareTransaction(client, context.chainId, call, ceilingFor(context.chainId));
  const reviewId = reviewDapp(funnel, context.chainId, prepared);
  return {
    detail: prepared.detail,
    run: async (): Promise<Hex> =>
      sendPrepared({
        client,
        chainId: context.chainId,
        funnel,
        reviewId,
        signer: () => signerFor(context, account),
        prepared,
      }),
  };
}

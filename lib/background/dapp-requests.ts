// Sign and send requests of a connected site: params parsed and checked against the site's
// account and chain BEFORE a window opens, the window's content built, and what runs on approval.
import { getAddress, type Hex, type LocalAccount } from 'viem';
import { sameAddress } from '@/lib/api/schema';
import type { ApprovalDetail } from '@/lib/dapp/approval';
import { DappRpcError, invalidParams, RPC_ERROR, unauthorized } from '@/lib/dapp/errors';
import { messageBytesHex, showMessage } from '@/lib/dapp/message';
import type { ApprovalKind } from '@/lib/dapp/methods';
import { parseParams } from '@/lib/dapp/params';
import { messageWarnings, seaportOrderOf, typedDataWarnings } from '@/lib/dapp/signature-review';
import type { ConnectedSite } from '@/lib/dapp/sites';
import { normalizeTransaction } from '@/lib/dapp/transaction';
import { decodeTypedData, TypedDataError } from '@/lib/dapp/typed-data';
import type { RpcClient } from '@/lib/rpc/network';
import type { StoredTransaction } from '@/lib/state/dapp-queue';
import { type PreparedTransaction, prepareTransaction } from './dapp-actions';
import type { RecipientRecord } from './dapp-recipients';
import { reviewDapp, sendPrepared } from './dapp-send';
import type { Signing } from './signing';

export type SiteKind = Exclude<ApprovalKind, 'connect'>;

export interface RequestContext {
  kind: SiteKind;
  method: string;
  params: unknown;
  site: ConnectedSite;
  chainId: number;
  client: () => RpcClient;
  signer: () => Promise<LocalAccount>;
  /** The background's one signing funnel and the user's fee ceilings. */
  signing: Signing;
  /** Swaplane's sealed record of who each account sent to ("first interaction"). */
  recipients?: RecipientRecord;
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

export interface PreparedRequest {
  detail: ApprovalDetail;
  run: () => Promise<unknown>;
  /** A transaction's review figures beyond its view, kept for a worker restart. */
  transaction?: StoredTransaction;
}

/**
 * Approving runs only while the site still grants the account its request names: a site
 * disconnected while the request waited (in Settings, or by its own wallet_revokePermissions)
 * gets 4100 and nothing is signed (one that connected again, granting that account, may go on).
 */
export function whileConnected(
  prepared: PreparedRequest,
  origin: string,
  sites: () => Promise<readonly ConnectedSite[]>,
): PreparedRequest {
  const { detail } = prepared;
  const account = 'account' in detail ? detail.account : null;
  return {
    ...prepared,
    run: async () => {
      const site = (await sites()).find((entry) => entry.origin === origin);
      if (!site || !account || !site.accounts.some((granted) => sameAddress(granted, account))) {
        throw unauthorized();
      }
      return prepared.run();
    },
  };
}

export async function prepareRequest(context: RequestContext): Promise<PreparedRequest> {
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
  const { recipients, chainId } = context;
  const prepared = await prepareTransaction(
    client,
    chainId,
    call,
    context.signing.ceilingFor(chainId),
    (to) => (recipients ? recipients.has(chainId, account, to) : Promise.resolve(false)),
  );
  return transactionApproval(context, client, account, prepared);
}

/** The funnel's review of a prepared transaction, and the approval that signs it (once). */
function transactionApproval(
  context: RequestContext,
  client: RpcClient,
  account: string,
  prepared: PreparedTransaction,
): PreparedRequest {
  const { funnel } = context.signing;
  const reviewId = reviewDapp(funnel, context.chainId, prepared);
  const { gasUsed, fees } = prepared;
  return {
    detail: prepared.detail,
    run: async (): Promise<Hex> => {
      const hash = await sendPrepared({
        client,
        chainId: context.chainId,
        funnel,
        reviewId,
        signer: () => signerFor(context, account),
        prepared,
      });
      // Sent: the next send to this address is no longer a first interaction.
      if (prepared.call.to) await context.recipients?.add(context.chainId, account, prepared.call.to);
      return hash;
    },
    transaction: {
      gasUsed: gasUsed.toString(),
      baseFee: fees.baseFee.toString(),
      source: fees.source,
      capped: fees.capped,
      ...(prepared.call.nonce !== undefined ? { nonce: prepared.call.nonce.toString() } : {}),
    },
  };
}

/**
 * A transaction a worker before this one left waiting, exactly as its window shows it (the plan is
 * the view's fields; nothing is estimated again), reviewed by the funnel again: its caps and the
 * ceiling as set now. Approving it re-simulates it, as any approval does.
 */
export function revivedTransaction(
  context: RequestContext,
  detail: Extract<ApprovalDetail, { kind: 'transaction' }>,
  stored: StoredTransaction,
): PreparedRequest {
  const account = requireSiteAccount(context.site, detail.account);
  if (detail.chainId !== context.chainId || detail.to === null || !HEX_DATA.test(detail.data))
    throw new DappRpcError(RPC_ERROR.invalidInput, 'The waiting transaction could not be restored.');
  const prepared: PreparedTransaction = {
    detail,
    call: {
      from: getAddress(detail.account),
      to: getAddress(detail.to),
      value: BigInt(detail.value),
      data: detail.data as Hex,
      gas: BigInt(detail.gasLimit),
      fees: null,
      ...(stored.nonce !== undefined ? { nonce: BigInt(stored.nonce) } : {}),
      ...(detail.accessList ? { accessList: revivedAccessList(detail.accessList) } : {}),
    },
    gasUsed: BigInt(stored.gasUsed),
    fees: {
      maxFeePerGas: BigInt(detail.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(detail.maxPriorityFeePerGas),
      baseFee: BigInt(stored.baseFee),
      source: stored.source,
      capped: stored.capped,
    },
  };
  return transactionApproval(context, context.client(), account, prepared);
}

const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
const SLOT = /^0x[0-9a-fA-F]{64}$/;

/** The access list its window shows, checked again as the page's params were. */
function revivedAccessList(
  shown: NonNullable<Extract<ApprovalDetail, { kind: 'transaction' }>['accessList']>,
) {
  if (shown.some((entry) => !entry.storageKeys.every((key) => SLOT.test(key))))
    throw new DappRpcError(RPC_ERROR.invalidInput, 'The waiting transaction could not be restored.');
  return shown.map((entry) => ({
    address: getAddress(entry.address),
    storageKeys: entry.storageKeys as Hex[],
  }));
}

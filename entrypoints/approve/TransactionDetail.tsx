// A transaction as the window shows it: the value sent (coins and USD), to whom (contract or
// account), the decoded call, the simulated balance, NFT and approval changes, and the fee.
import { useEffect, useState } from 'preact/hooks';
import { formatAmountExact } from '@/lib/amounts';
import { NATIVE_TOKEN_ADDRESS, sameAddress } from '@/lib/api/schema';
import { getChain } from '@/lib/chains';
import type { ApprovalDetail } from '@/lib/dapp/approval';
import { callBackground } from '@/lib/messaging/client';
import { formatUsd, priceOf, usdValue } from '@/lib/prices/usd';

type Tx = Extract<ApprovalDetail, { kind: 'transaction' }>;

const NATIVE = NATIVE_TOKEN_ADDRESS.toLowerCase();

function amountText(amount: string, decimals: number | null, symbol: string | null): string {
  const value = BigInt(amount);
  const sign = value < 0n ? '−' : '+';
  const abs = value < 0n ? -value : value;
  const shown = decimals === null ? `${abs.toString()} units` : formatAmountExact(abs, decimals);
  return `${sign}${shown} ${symbol ?? ''}`.trim();
}

/** The native coin's USD price from the swap service (null: unknown, shown as "—"). */
function useNativePrice(chainId: number): bigint | null {
  const [price, setPrice] = useState<bigint | null>(null);
  useEffect(() => {
    callBackground({ type: 'getPrices', chainId, tokens: [NATIVE] }).then(
      (prices) => setPrice(priceOf(prices[NATIVE])),
      () => setPrice(null),
    );
  }, [chainId]);
  return price;
}

function nftText(nft: Tx['nfts'][number]): string {
  const amount = BigInt(nft.amount);
  const verb = amount < 0n ? 'You send' : 'You receive';
  const count = nft.standard === 'ERC-1155' ? ` ×${(amount < 0n ? -amount : amount).toString()}` : '';
  return `${verb} ${nft.standard} #${nft.tokenId}${count} of ${nft.token}`;
}

export function TransactionDetail({ detail }: { detail: Tx }) {
  const price = useNativePrice(detail.chainId);
  const value = BigInt(detail.value);
  return (
    <>
      <section aria-label="What is sent">
        <dl>
          <dt>Value sent</dt>
          <dd>
            {formatAmountExact(value, 18)} {detail.nativeSymbol} ({formatUsd(usdValue(value, 18, price))})
          </dd>
          <dt>Call</dt>
          <dd>
            {detail.to === null
              ? 'deploys a new contract'
              : detail.call === null
                ? 'none (a plain send)'
                : detail.call.known
                  ? detail.call.name
                  : `Unknown call ${detail.call.selector ?? ''}`}
          </dd>
          {detail.call?.args.map((arg) => (
            <>
              <dt>{arg.name}</dt>
              <dd>{arg.value}</dd>
            </>
          ))}
        </dl>
      </section>
      <section aria-label="Balance changes">
        <h2>Balance changes</h2>
        {detail.simulation === 'unavailable' && detail.changes.length <= 1 ? (
          <p>Not simulated: only the amount sent is known.</p>
        ) : null}
        <ul>
          {detail.changes.map((change) => (
            <li key={change.token} class={change.amount.startsWith('-') ? 'negative' : 'positive'}>
              {amountText(change.amount, change.decimals, change.symbol)}
              {/* The coin's change comes as the checksummed 0xEeee… address: it has no contract to name. */}
              {sameAddress(change.token, NATIVE) ? '' : ` (${change.token})`}
            </li>
          ))}
          {detail.nfts.map((nft) => (
            <li
              key={`${nft.token}${nft.tokenId}`}
              class={nft.amount.startsWith('-') ? 'negative' : 'positive'}
            >
              {nftText(nft)}
            </li>
          ))}
          {detail.changes.length === 0 && detail.nfts.length === 0 ? (
            <li>No token moves to or from your account.</li>
          ) : null}
        </ul>
      </section>
      {detail.approvals.length > 0 || detail.nftApprovals.length > 0 ? (
        <section aria-label="Approvals">
          <h2>Approvals</h2>
          <ul>
            {detail.approvals.map((approval) => (
              <li key={`${approval.token}${approval.spender}`}>
                {approval.spender} may spend{' '}
                {BigInt(approval.amount) >= 2n ** 255n
                  ? 'unlimited'
                  : amountText(approval.amount, approval.decimals, null).slice(1)}{' '}
                {approval.symbol ?? approval.token}
              </li>
            ))}
            {detail.nftApprovals.map((approval) => (
              <li key={`${approval.token}${approval.operator}${approval.tokenId}`}>
                {!approval.approved
                  ? `${approval.operator} loses its approval on ${approval.token}`
                  : approval.scope === 'all'
                    ? `${approval.operator} may take ALL your NFTs of ${approval.token}`
                    : `${approval.operator} may take NFT #${approval.tokenId} of ${approval.token}`}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-label="Transaction">
        <h2>Transaction</h2>
        <dl>
          <dt>To</dt>
          <dd>
            {detail.to ?? 'new contract'}
            {detail.recipientKind ? <small> ({detail.recipientKind})</small> : null}
            {detail.recipientHistory ? (
              <>
                <br />
                <small>{RECIPIENT_HISTORY[detail.recipientHistory]}</small>
              </>
            ) : null}
          </dd>
          <dt>Network</dt>
          <dd>{getChain(detail.chainId)?.name ?? detail.chainId}</dd>
          <dt>Network fee</dt>
          <dd>
            up to {formatAmountExact(BigInt(detail.maxNetworkFee), 18)} {detail.nativeSymbol} (
            {formatUsd(usdValue(BigInt(detail.maxNetworkFee), 18, price))})
          </dd>
          <dt>Data</dt>
          <dd>
            {detail.data === '0x'
              ? 'none'
              : `${detail.data.slice(0, 10)}… (${(detail.data.length - 2) / 2} bytes)`}
          </dd>
          {detail.accessList ? <AccessListRows accessList={detail.accessList} /> : null}
        </dl>
      </section>
    </>
  );
}

const slotsText = (count: number) => (count === 1 ? '1 storage slot' : `${count} storage slots`);

type AccessList = NonNullable<Tx['accessList']>;

/** The site's access list as signed: each address and how many of its storage slots it names. */
function AccessListRows({ accessList }: { accessList: AccessList }) {
  return (
    <>
      <dt>Access list</dt>
      <dd>
        {accessList.map((entry) => (
          <div key={entry.address} class="address">
            {entry.address}: {slotsText(entry.storageKeys.length)}
          </div>
        ))}
      </dd>
    </>
  );
}

/** What Swaplane can say of the recipient (lib/background/dapp-recipients.ts says how it knows). */
const RECIPIENT_HISTORY = {
  'never-sent': 'First interaction: this account has never sent a transaction on this network.',
  'not-recorded': 'First interaction: Swaplane has no record of this account sending to this address.',
  'sent-before': 'This account sent to this address before, from Swaplane.',
} as const;

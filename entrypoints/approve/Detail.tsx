// What the request does, per kind: the message, the typed data field by field (permits called
// out), or the transaction with its simulated balance changes, approvals and fee.
import { formatAmountExact } from '@/lib/amounts';
import { getChain } from '@/lib/chains';
import type { ApprovalDetail } from '@/lib/dapp/approval';

const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

function amountText(amount: string, decimals: number | null, symbol: string | null): string {
  const value = BigInt(amount);
  const sign = value < 0n ? '−' : '+';
  const abs = value < 0n ? -value : value;
  const shown = decimals === null ? `${abs.toString()} units` : formatAmountExact(abs, decimals);
  return `${sign}${shown} ${symbol ?? ''}`.trim();
}

function expiryText(expiry: number | null): string {
  return expiry === null ? 'never expires' : new Date(expiry * 1000).toUTCString();
}

export function Detail({ detail }: { detail: ApprovalDetail }) {
  switch (detail.kind) {
    case 'connect':
      return (
        <section aria-label="What connecting allows">
          <p>
            The site will see your active account's address and can ask you to sign and send transactions on{' '}
            {getChain(detail.chainId)?.name ?? `chain ${detail.chainId}`}. Every signature and transaction
            still needs your approval here.
          </p>
        </section>
      );
    case 'sign':
      return (
        <section aria-label="Message">
          <h2>Message</h2>
          <p>Signing proves you own {detail.account}. It costs nothing and sends nothing.</p>
          {detail.message.kind === 'text' ? (
            <pre>{detail.message.text}</pre>
          ) : (
            <>
              <p>This message is not readable text; its bytes are:</p>
              <pre>{detail.message.hex}</pre>
            </>
          )}
        </section>
      );
    case 'typed-data':
      return (
        <>
          {detail.permit ? (
            <section aria-label="Permit" class="warning">
              <h2>Permit: this signature lets {detail.permit.spender} spend your tokens</h2>
              <dl>
                <dt>Standard</dt>
                <dd>{detail.permit.standard}</dd>
                <dt>Spender</dt>
                <dd>{detail.permit.spender}</dd>
                {detail.permit.allowances.map((allowance) => (
                  <>
                    <dt>Amount</dt>
                    <dd>
                      {allowance.unlimited ? 'Unlimited' : allowance.amount} of token {allowance.token}
                    </dd>
                  </>
                ))}
                <dt>Expires</dt>
                <dd>{expiryText(detail.permit.expiry)}</dd>
              </dl>
            </section>
          ) : null}
          <section aria-label="Typed data">
            <h2>{detail.primaryType}</h2>
            <dl>
              {detail.domain.name !== undefined ? (
                <>
                  <dt>App</dt>
                  <dd>{detail.domain.name}</dd>
                </>
              ) : null}
              {detail.domain.verifyingContract ? (
                <>
                  <dt>Contract</dt>
                  <dd>{detail.domain.verifyingContract}</dd>
                </>
              ) : null}
              {detail.domain.chainId !== undefined ? (
                <>
                  <dt>Chain</dt>
                  <dd>{getChain(detail.domain.chainId)?.name ?? detail.domain.chainId}</dd>
                </>
              ) : null}
              {detail.fields.map((field) => (
                <>
                  <dt>{field.path}</dt>
                  <dd>{field.value}</dd>
                </>
              ))}
            </dl>
          </section>
        </>
      );
    case 'transaction':
      return <TransactionDetail detail={detail} />;
  }
}

function TransactionDetail({ detail }: { detail: Extract<ApprovalDetail, { kind: 'transaction' }> }) {
  return (
    <>
      {detail.warnings.map((warning) => (
        <p key={warning.code} role="alert" class="warning">
          {warning.message}
        </p>
      ))}
      <section aria-label="Balance changes">
        <h2>Balance changes</h2>
        {detail.simulation === 'unavailable' && detail.changes.length <= 1 ? (
          <p>Not simulated: only the amount sent is known.</p>
        ) : null}
        <ul>
          {detail.changes.map((change) => (
            <li key={change.token} class={change.amount.startsWith('-') ? 'negative' : 'positive'}>
              {amountText(change.amount, change.decimals, change.symbol)}
              {change.token === NATIVE ? '' : ` (${change.token})`}
            </li>
          ))}
          {detail.changes.length === 0 ? <li>No token moves to or from your account.</li> : null}
        </ul>
      </section>
      {detail.approvals.length > 0 ? (
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
          </ul>
        </section>
      ) : null}
      <section aria-label="Transaction">
        <h2>Transaction</h2>
        <dl>
          <dt>To</dt>
          <dd>{detail.to ?? 'new contract'}</dd>
          <dt>Network</dt>
          <dd>{getChain(detail.chainId)?.name ?? detail.chainId}</dd>
          <dt>Network fee</dt>
          <dd>
            up to {formatAmountExact(BigInt(detail.maxNetworkFee), 18)} {detail.nativeSymbol}
          </dd>
          <dt>Data</dt>
          <dd>
            {detail.data === '0x'
              ? 'none'
              : `${detail.data.slice(0, 10)}… (${(detail.data.length - 2) / 2} bytes)`}
          </dd>
        </dl>
      </section>
    </>
  );
}

// What the request does, per kind: the message, the typed data field by field (permits called
// out), or the transaction with its simulated balance changes, approvals and fee.
import { Fragment } from 'preact';
import { getChain } from '@/lib/chains';
import type { ApprovalDetail } from '@/lib/dapp/approval';
import { TransactionDetail } from './TransactionDetail';

function expiryText(expiry: number | null): string {
  return expiry === null ? 'never expires' : new Date(expiry * 1000).toUTCString();
}

export function Detail({ detail }: { detail: ApprovalDetail }) {
  switch (detail.kind) {
    case 'connect':
      return (
        <section aria-label="What connecting allows">
          <p>
            The site will see the addresses of the accounts you choose and can ask you to sign and send
            transactions on {getChain(detail.chainId)?.name ?? `chain ${detail.chainId}`}. Every signature and
            transaction still needs your approval here.
          </p>
        </section>
      );
    case 'sign':
      return (
        <section aria-label="Message">
          <h2>Message</h2>
          {detail.warnings.some((warning) => warning.code === 'HASH_SIGNATURE') ? (
            <p>
              Signing with {detail.account} may authorise a transaction: sign only if you know what it is.
            </p>
          ) : (
            <p>Signing proves you own {detail.account}. It costs nothing and sends nothing.</p>
          )}
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
              <h2>
                {detail.permit.witness ? 'Permit2 transfer' : 'Permit'}: this signature lets{' '}
                {detail.permit.spender} {detail.permit.witness ? 'take' : 'spend'} your tokens
              </h2>
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
                {detail.permit.witness ? (
                  <>
                    <dt>With</dt>
                    <dd>{detail.permit.witness} (shown in full below)</dd>
                  </>
                ) : null}
              </dl>
            </section>
          ) : null}
          {detail.seaport ? <SeaportOrder order={detail.seaport} /> : null}
          <section aria-label="Typed data">
            <h2>{detail.primaryType}</h2>
            <dl>
              <DomainRows domain={detail.domain} />
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

type Seaport = NonNullable<Extract<ApprovalDetail, { kind: 'typed-data' }>['seaport']>;

function itemText(item: Seaport['offered'][number]): string {
  const id = item.kind.startsWith('ERC-721') || item.kind.startsWith('ERC-1155') ? ` #${item.id}` : '';
  const token = item.kind === 'Native coin' ? '' : ` of ${item.token}`;
  return `${item.amount} ${item.kind}${id}${token}`;
}

/** A Seaport order read as a trade: what the account gives against what it gets. */
function SeaportOrder({ order }: { order: Seaport }) {
  return (
    <section aria-label="Seaport order" class="warning">
      <h2>Seaport order: signing lists these for anyone to take</h2>
      <h3>You offer</h3>
      <ul>
        {order.offered.map((item) => (
          <li key={`${item.token}${item.id}`}>{itemText(item)}</li>
        ))}
      </ul>
      <h3>You receive</h3>
      <ul>
        {order.received.map((item) => (
          <li key={`${item.token}${item.id}`}>{itemText(item)}</li>
        ))}
        {order.received.length === 0 ? <li>Nothing.</li> : null}
      </ul>
      {order.toOthers.length > 0 ? (
        <>
          <h3>Paid to others</h3>
          <ul>
            {order.toOthers.map((item) => (
              <li key={`${item.token}${item.id}${item.recipient}`}>
                {itemText(item)} to {item.recipient}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

type Domain = Extract<ApprovalDetail, { kind: 'typed-data' }>['domain'];

/** Every domain field that is signed, as a person reads it: the signature is valid only there. */
function DomainRows({ domain }: { domain: Domain }) {
  const rows: [string, string][] = [];
  if (domain.name !== undefined) rows.push(['App', domain.name]);
  if (domain.version !== undefined) rows.push(['App version', domain.version]);
  if (domain.chainId !== undefined) {
    const chain = getChain(domain.chainId)?.name;
    rows.push(['Chain', chain ? `${chain} (chain ID ${domain.chainId})` : `Chain ID ${domain.chainId}`]);
  }
  if (domain.verifyingContract !== undefined) rows.push(['Contract', domain.verifyingContract]);
  if (domain.salt !== undefined) rows.push(['Salt', domain.salt]);
  return (
    <>
      {rows.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd class={term === 'Contract' || term === 'Salt' ? 'address' : undefined}>{value}</dd>
        </Fragment>
      ))}
    </>
  );
}

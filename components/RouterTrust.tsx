// Trusting the swap service's router, inside the review and before Confirm: what it means, the
// address, one tick. The tick is the review warning's acknowledgement (ROUTER_UNPINNED or
// ROUTER_CHANGED): startSwap records the trust and signs in one step only when it carries it.
import type { PreviewWarning, SwapPreview } from '@/lib/swap/preview';
import { ROUTER_TRUST_CODES } from '@/lib/swap/review';

export function routerTrustWarning(warnings: readonly PreviewWarning[]): PreviewWarning | undefined {
  return warnings.find((warning) => ROUTER_TRUST_CODES.includes(warning.code));
}

/** The tick's label: what the user agrees to, in words. */
export function trustLabel(code: string): string {
  return code === 'ROUTER_CHANGED'
    ? "The service's operator told me the router changed, and I trust the new one"
    : 'I trust this router with my swaps on this service';
}

export function RouterTrust(props: {
  preview: SwapPreview;
  warning: PreviewWarning;
  ticked: boolean;
  onTick: (ticked: boolean) => void;
}) {
  const { preview, warning, ticked } = props;
  const changed = warning.code === 'ROUTER_CHANGED';
  const pinned = preview.routerTrust?.pinned ?? null;
  return (
    <section
      class={`router-trust ${changed ? 'danger-note' : 'warning'}`}
      aria-labelledby="router-trust-title"
      data-testid="router-trust"
    >
      <h3 id="router-trust-title" class="field-label">
        {changed ? 'The swap router changed' : 'Trust this swap router?'}
      </h3>
      {changed ? (
        <p>
          On this network the service now sends swaps to another router contract than the one you trusted. A
          contract decides what happens to the tokens you send it: a changed one is what a hacked or malicious
          service would use to take them. Swaplane still checks this swap by simulation, but cannot vouch for
          the new contract.
        </p>
      ) : (
        <p>
          This is your first swap with this service on this network. Its router contract receives the tokens
          you pay and sends what you swap for. Swaplane simulates every swap and refuses one that pays less
          than the quote, but cannot vouch for the contract itself: trust it only if you trust this service.
          Later swaps to the same router will not ask again.
        </p>
      )}
      <p>
        {changed ? 'New router: ' : 'Router: '}
        <code class="address">{preview.transaction.to}</code>
      </p>
      {pinned && (
        <p>
          Trusted until now: <code class="address">{pinned}</code>
        </p>
      )}
      <label class="check">
        <input
          type="checkbox"
          data-required-tick
          checked={ticked}
          onChange={(event) => props.onTick((event.target as HTMLInputElement).checked)}
        />{' '}
        {trustLabel(warning.code)}
      </label>
    </section>
  );
}

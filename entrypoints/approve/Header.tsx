// The window's top: Swaplane's name, the account and the network the request is for, and where
// it is in the queue ("1 of 3") with the way to move through it.
import { getChain } from '@/lib/chains';
import type { ApprovalView } from '@/lib/dapp/approval';

export function Header({
  view,
  order,
  onSelect,
}: {
  view: ApprovalView;
  order: readonly string[];
  onSelect: (id: string) => void;
}) {
  const index = order.indexOf(view.id);
  const previous = index > 0 ? order[index - 1] : undefined;
  const next = index >= 0 && index < order.length - 1 ? order[index + 1] : undefined;
  return (
    <header class="brand-bar">
      <div class="brand">
        <img src="/icon/32.png" alt="" width={20} height={20} />
        <span>Swaplane</span>
      </div>
      <dl class="context" aria-label="Account and network">
        <dt>Account</dt>
        <dd class="address">{view.account ?? 'you choose below'}</dd>
        <dt>Network</dt>
        <dd>{getChain(view.chainId)?.name ?? `chain ${view.chainId}`}</dd>
      </dl>
      {order.length > 1 ? (
        <nav class="queue" aria-label="Request queue">
          <button
            type="button"
            disabled={!previous}
            onClick={() => previous && onSelect(previous)}
            aria-label="Previous request"
          >
            ‹
          </button>
          <span>
            {index + 1} of {order.length}
          </span>
          <button
            type="button"
            disabled={!next}
            onClick={() => next && onSelect(next)}
            aria-label="Next request"
          >
            ›
          </button>
        </nav>
      ) : null}
    </header>
  );
}

// What else waits behind the request shown (the arrows in the header move to it).
import type { ApprovalsState } from '@/lib/dapp/approval';

const KIND_NAMES: Record<string, string> = {
  connect: 'connection',
  sign: 'signature',
  'typed-data': 'signature',
  transaction: 'transaction',
};

export function WaitingList({ waiting }: { waiting: ApprovalsState['waiting'] }) {
  if (waiting.length === 0) return null;
  return (
    <section aria-label="Waiting requests">
      <h2>
        {waiting.length} more {waiting.length === 1 ? 'request' : 'requests'} waiting
      </h2>
      <ul>
        {waiting.map((entry) => (
          <li key={entry.id}>
            {entry.origin}: {KIND_NAMES[entry.kind] ?? entry.kind}
          </li>
        ))}
      </ul>
    </section>
  );
}

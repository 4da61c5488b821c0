// @vitest-environment happy-dom
// The unlock screen while the backoff holds: a visible countdown and no attempt until it ends.
import { act, cleanup, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Unlock } from '@/entrypoints/popup/Unlock';
import type { WalletState } from '@/lib/wallet/state';

const LOCKED: WalletState = {
  status: 'locked',
  accounts: [],
  activeId: null,
  lockAt: null,
  vaultError: null,
};

beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Unlock › after too many wrong passwords', () => {
  it('counts down to the next attempt and keeps Unlock disabled until then', () => {
    render(<Unlock wallet={{ ...LOCKED, retryAt: 1_000_000 + 5_000 }} onUnlocked={() => undefined} />);
    expect(screen.getByRole('timer').textContent).toBe('Too many wrong passwords. Try again in 5 s.');
    expect((screen.getByRole('button', { name: 'Unlock' }) as HTMLButtonElement).disabled).toBe(true);
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(screen.getByRole('timer').textContent).toBe('Too many wrong passwords. Try again in 3 s.');
    act(() => {
      vi.advanceTimersByTime(3_000);
    });
    expect(screen.queryByRole('timer')).toBeNull();
  });

  it('shows no countdown without a backoff', () => {
    render(<Unlock wallet={LOCKED} onUnlocked={() => undefined} />);
    expect(screen.queryByRole('timer')).toBeNull();
  });
});

// @vitest-environment happy-dom
// The approval window's activation delay: the primary button is off for a second after a request
// appears and after the window regains focus, and a new request is never shown armed, not even
// for the one frame before an effect catches up.
import { act, cleanup, render } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTIVATION_DELAY_MS, useActivationDelay } from '@/entrypoints/approve/activation';

/** Every render of the hook, as [the request shown, armed]. */
let renders: [string | null, boolean][] = [];

function Probe({ shown }: { shown: string | null }) {
  const armed = useActivationDelay(shown);
  renders.push([shown, armed]);
  return <button type="button" disabled={!armed} />;
}

beforeEach(() => {
  renders = [];
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

describe('useActivationDelay', () => {
  it('arms exactly one second after a request appears', () => {
    const { container } = render(<Probe shown="A" />);
    const button = container.querySelector('button') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    advance(ACTIVATION_DELAY_MS - 1);
    expect(button.disabled).toBe(true);
    advance(1);
    expect(button.disabled).toBe(false);
  });

  it('never shows the next request armed: every render of it is off until its own second passes', () => {
    const { container, rerender } = render(<Probe shown="A" />);
    advance(ACTIVATION_DELAY_MS);
    expect(renders.at(-1)).toEqual(['A', true]);
    renders = [];
    act(() => {
      rerender(<Probe shown="B" />);
    });
    expect(renders.length).toBeGreaterThan(0);
    expect(renders.filter(([shown, armed]) => shown === 'B' && armed)).toEqual([]);
    advance(ACTIVATION_DELAY_MS - 1);
    expect((container.querySelector('button') as HTMLButtonElement).disabled).toBe(true);
    advance(1);
    expect(renders.at(-1)).toEqual(['B', true]);
  });

  it('waits its second again each time the window regains focus', () => {
    const { container } = render(<Probe shown="A" />);
    const button = container.querySelector('button') as HTMLButtonElement;
    advance(ACTIVATION_DELAY_MS);
    expect(button.disabled).toBe(false);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(button.disabled).toBe(true);
    advance(ACTIVATION_DELAY_MS - 1);
    expect(button.disabled).toBe(true);
    advance(1);
    expect(button.disabled).toBe(false);
  });
});

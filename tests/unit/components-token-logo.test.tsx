// @vitest-environment happy-dom
// The popup holds token logos back until its first screen is up (components/logo-gate.ts): a blank
// circle of the same size meanwhile, the logo after; pages that never hold them show them at once.
import { act, cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { holdLogos, releaseLogos } from '@/components/logo-gate';
import { TokenLogo } from '@/components/TokenLogo';

const SRC = 'http://127.0.0.1:8787/v1/logos/usdc.svg';

afterEach(() => {
  releaseLogos();
  cleanup();
});

describe('TokenLogo and the logo gate', () => {
  it('shows the logo at once when nothing holds it', () => {
    const { container } = render(<TokenLogo src={SRC} symbol="USDC" />);
    expect(container.querySelector('img.logo')?.getAttribute('src')).toBe(SRC);
  });

  it('while held: a blank circle (no image requested), then the logo once released', async () => {
    holdLogos();
    const { container } = render(<TokenLogo src={SRC} symbol="USDC" />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('.logo-pending')).not.toBeNull();
    await act(async () => releaseLogos());
    expect(container.querySelector('img.logo')?.getAttribute('src')).toBe(SRC);
  });

  it('a token without a logo shows its letters even while logos are held', () => {
    holdLogos();
    const { container } = render(<TokenLogo src={null} symbol="dai" />);
    expect(container.querySelector('.logo-fallback')?.textContent).toBe('DA');
  });
});

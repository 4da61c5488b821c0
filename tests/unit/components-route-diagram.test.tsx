// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { RouteDiagram } from '@/components/RouteDiagram';
import type { RouteShare } from '@/lib/api/schema';
import * as TOKENS from '../support/addresses';

const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const USDC = TOKENS.lowercase.USDC;
const DAI = TOKENS.lowercase.DAI;
const ODD = '0x1234567890abcdef1234567890abcdef12345678';
const POOL = '0x0000000000000000000000000000000000000001';
const SYMBOLS: Record<string, string> = { [ETH]: 'ETH', [USDC]: 'USDC', [DAI]: 'DAI' };
const symbolOf = (address: string) => SYMBOLS[address.toLowerCase()];

const swap = (dex: string, tokenIn: string, tokenOut: string) => ({
  dex,
  pool: POOL,
  tokenIn,
  tokenOut,
  amountIn: '1',
  amountOut: '1',
});

afterEach(cleanup);

describe('RouteDiagram', () => {
  it('names the native coin by its symbol even when no token list knows it, never 0xEeee…EEeE', () => {
    const route: RouteShare[] = [
      { percent: 100, swaps: [swap('Uniswap V2', ETH.toUpperCase().replace('0X', '0x'), USDC)] },
    ];
    render(
      <RouteDiagram
        route={route}
        symbolOf={(address) => (address === USDC ? 'USDC' : undefined)}
        nativeSymbol="ETH"
      />,
    );
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('Route: 100% ETH → USDC via Uniswap V2');
  });

  it('draws a split route: two shares with their percents, a direct and a two-hop path', () => {
    const route: RouteShare[] = [
      { percent: 60, swaps: [swap('Uniswap V2', ETH, USDC)] },
      { percent: 40, swaps: [swap('Sushi', ETH, DAI), swap('Uniswap V2', DAI, USDC)] },
    ];
    render(<RouteDiagram route={route} symbolOf={symbolOf} />);
    const img = screen.getByRole('img');
    expect(img.getAttribute('aria-label')).toBe(
      'Route: 60% ETH → USDC via Uniswap V2; 40% ETH → DAI → USDC via Sushi, Uniswap V2',
    );
    const svgText = Array.from(img.querySelectorAll('text')).map((node) => node.textContent);
    expect(svgText).toEqual(expect.arrayContaining(['60%', '40%', 'ETH', 'DAI', 'USDC', 'Sushi']));
    expect(svgText.filter((text) => text === 'USDC')).toHaveLength(2);
    const items = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual(['60% ETH → USDC via Uniswap V2', '40% ETH → DAI → USDC via Sushi, Uniswap V2']);
  });

  it('shows a short address for a token it cannot name', () => {
    render(
      <RouteDiagram route={[{ percent: 100, swaps: [swap('Curve', ODD, USDC)] }]} symbolOf={symbolOf} />,
    );
    expect(screen.getByRole('listitem').textContent).toBe('100% 0x1234…5678 → USDC via Curve');
    const labels = Array.from(screen.getByRole('img').querySelectorAll('text.route-token')).map(
      (node) => node.textContent,
    );
    expect(labels).toEqual([expect.stringMatching(/^0x12.*…678$/), 'USDC']);
  });

  it('copes with swap shapes it does not know', () => {
    const route: RouteShare[] = [
      { percent: 50, swaps: [{ from: ETH, to: USDC, venue: 'X' }] },
      { percent: 50, swaps: [{ tokenIn: ETH, tokenOut: USDC }, { something: 1 }] },
    ];
    render(<RouteDiagram route={route} symbolOf={symbolOf} />);
    const items = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual([
      '50% through 1 step (details not shown)',
      '50% through 2 steps (details not shown)',
    ]);
    expect(screen.getByRole('img').textContent).toContain('details not available');
  });

  it('names an unknown exchange when the swap has tokens but no dex', () => {
    render(
      <RouteDiagram
        route={[{ percent: 100, swaps: [{ tokenIn: ETH, tokenOut: DAI }] }]}
        symbolOf={symbolOf}
      />,
    );
    expect(screen.getByRole('listitem').textContent).toBe('100% ETH → DAI via unknown exchange');
  });
});

// @vitest-environment happy-dom
// SECURITY.md, "Malicious token metadata": a hostile symbol, name, logo URL or dex name from the swap
// service (or read from a token contract) must render as inert text in every component that shows it.
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QuoteCard } from '@/components/QuoteCard';
import { RouteDiagram } from '@/components/RouteDiagram';
import { SwapProgress } from '@/components/SwapProgress';
import { TokenLogo } from '@/components/TokenLogo';
import { type PickedToken, TokenPicker } from '@/components/TokenPicker';
import type { Quote, Token } from '@/lib/api/schema';
import type { SwapState } from '@/lib/state/pipeline-state';
import { INITIAL_SESSION_STATE } from '@/lib/state/session-state';
import { safeLogoUrl } from '@/lib/tokens/import';
import { buildTokenSearchIndex } from '@/lib/tokens/search';

const SERVICE = 'http://127.0.0.1:8787';
const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const EVIL = '0x00000000000000000000000000000000000e0b1e';
const EVIL2 = '0x00000000000000000000000000000000000e0b2e';

/** Markup that would run script if it ever reached the DOM as HTML. */
const XSS_SYMBOL = '<img src=x onerror="globalThis.__pwned=1">';
const XSS_NAME = `<svg onload="globalThis.__pwned=2"><script>globalThis.__pwned=3</script>${'W'.repeat(10_000)}`;
const XSS_DEX = '<iframe src="javascript:globalThis.__pwned=4"></iframe>';

const hostile: Token = {
  chainId: 1,
  address: EVIL,
  name: XSS_NAME,
  symbol: XSS_SYMBOL,
  decimals: 18,
  logoURI: 'javascript:globalThis.__pwned=5',
};
const hostileLogos: Token[] = [
  hostile,
  { ...hostile, address: EVIL2, symbol: '"><b>x</b>', logoURI: 'data:text/html,<script>alert(1)</script>' },
  { ...hostile, address: `0x${'1'.repeat(40)}`, symbol: 'HTTP', logoURI: 'http://evil.example/logo.png' },
  {
    ...hostile,
    address: `0x${'2'.repeat(40)}`,
    symbol: 'SVG',
    logoURI: 'data:image/svg+xml;base64,PHN2Zy8+',
  },
  { ...hostile, address: `0x${'3'.repeat(40)}`, symbol: 'OWN', logoURI: `${SERVICE}/logos/ethereum/x.svg` },
];
const ether: Token = { chainId: 1, address: ETH, name: 'Ether', symbol: 'ETH', decimals: 18, logoURI: '' };

/** Tags our components render; anything else in the tree came from data. */
const OUR_TAGS = new Set(
  'div section span strong p button input label ul ol li dl dt dd br code img svg g rect text line path title desc figure figcaption fieldset legend details summary output time'.split(
    ' ',
  ),
);

/**
 * Everything that would make hostile text active: elements we never render, event-handler
 * attributes, script URLs in src/href, and images from anywhere but the allowed logo URLs.
 */
function injections(root: ParentNode): string[] {
  const found: string[] = [];
  for (const element of root.querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase();
    if (!OUR_TAGS.has(tag)) found.push(`<${tag}>`);
    for (const attribute of element.getAttributeNames()) {
      const value = element.getAttribute(attribute) ?? '';
      if (attribute.startsWith('on')) found.push(`${tag}[${attribute}]`);
      if (/^\s*(javascript|vbscript):/i.test(value)) found.push(`${tag}[${attribute}=${value}]`);
      if (attribute === 'src' && tag === 'img' && safeLogoUrl(value, SERVICE) !== value) {
        found.push(`img[src=${value}]`);
      }
      if (/^data:text\//i.test(value)) found.push(`${tag}[${attribute}=data:text]`);
    }
  }
  return found;
}

afterEach(() => {
  cleanup();
  delete (globalThis as { __pwned?: unknown }).__pwned;
});

describe('the injection check itself', () => {
  it('finds real HTML injection (so a clean result means something)', () => {
    const host = document.createElement('div');
    host.innerHTML = `${XSS_SYMBOL}<a href="javascript:void 0">x</a>`;
    expect(injections(host)).toEqual(
      expect.arrayContaining(['img[onerror]', 'img[src=x]', 'a[href=javascript:void 0]', '<a>']),
    );
  });
});

describe('safeLogoUrl: which logo URLs are loaded at all', () => {
  it('refuses javascript:, data: other than images, http from other origins, and garbage', () => {
    expect(safeLogoUrl('javascript:alert(1)', SERVICE)).toBeNull();
    expect(safeLogoUrl('JaVaScRiPt:alert(1)', SERVICE)).toBeNull();
    expect(safeLogoUrl('data:text/html,<script>alert(1)</script>', SERVICE)).toBeNull();
    expect(safeLogoUrl('data:image/svg+xml', SERVICE)).toBeNull(); // no `;` parameters: not an image URL we accept
    expect(safeLogoUrl('http://evil.example/logo.png', SERVICE)).toBeNull();
    expect(safeLogoUrl('http://127.0.0.1:9999/logo.png', SERVICE)).toBeNull(); // same host, other port
    expect(safeLogoUrl('//evil.example/logo.png', SERVICE)).toBeNull();
    expect(safeLogoUrl('not a url', SERVICE)).toBeNull();
    expect(safeLogoUrl('blob:https://evil.example/1', SERVICE)).toBeNull();
    expect(safeLogoUrl('chrome-extension://abc/popup.html', SERVICE)).toBeNull();
  });

  it('allows https, data:image and the service’s own origin', () => {
    expect(safeLogoUrl('https://tokens.example/usdc.png', SERVICE)).toBe('https://tokens.example/usdc.png');
    expect(safeLogoUrl('data:image/png;base64,AAAA', SERVICE)).toBe('data:image/png;base64,AAAA');
    expect(safeLogoUrl(`${SERVICE}/logos/ethereum/x.svg`, SERVICE)).toBe(`${SERVICE}/logos/ethereum/x.svg`);
  });
});

describe('hostile token metadata renders as text', () => {
  it('TokenLogo: no URL means the two-letter fallback, and a broken image falls back too', () => {
    const { container } = render(
      <TokenLogo src={safeLogoUrl(hostile.logoURI, SERVICE)} symbol={XSS_SYMBOL} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('<I');
    cleanup();
    const broken = render(<TokenLogo src="https://tokens.example/missing.png" symbol="USDC" />);
    const img = broken.container.querySelector('img') as HTMLImageElement;
    fireEvent.error(img);
    expect(broken.container.querySelector('img')).toBeNull();
    expect(broken.container.textContent).toBe('US');
  });

  it('TokenPicker: hostile rows, the chosen value, and a looked-up token that is not whitelisted', async () => {
    const tokens = [ether, ...hostileLogos];
    const onLookup = vi.fn(async (): Promise<PickedToken> => ({ token: hostile, whitelisted: false }));
    const { container, rerender } = render(
      <TokenPicker
        label="To"
        tokens={tokens}
        index={buildTokenSearchIndex(tokens)}
        value={null}
        onChange={() => undefined}
        logoUrl={(uri) => safeLogoUrl(uri, SERVICE)}
        onLookup={onLookup}
      />,
    );
    fireEvent.click(screen.getByTestId('to-picker'));
    const rows = container.querySelectorAll('button[data-token]');
    expect(rows.length).toBe(tokens.length);
    expect(container.textContent).toContain(XSS_SYMBOL);
    expect(container.textContent).toContain(XSS_NAME);
    // Only the two acceptable logos are loaded; the rest fall back to letters.
    const srcs = [...container.querySelectorAll('img')].map((img) => img.getAttribute('src'));
    expect(srcs.sort()).toEqual(['data:image/svg+xml;base64,PHN2Zy8+', `${SERVICE}/logos/ethereum/x.svg`]);
    // Searching with the markup itself finds the token and stays text.
    fireEvent.input(screen.getByLabelText(/Search To token/i), { target: { value: '<img' } });
    expect(container.querySelectorAll('button[data-token]').length).toBeGreaterThan(0);
    // A pasted address the service does not list: the on-chain name and symbol are just as hostile.
    fireEvent.input(screen.getByLabelText(/Search To token/i), { target: { value: `0x${'9'.repeat(40)}` } });
    expect(await screen.findByText(/Not on this service’s list/)).toBeTruthy();
    expect(injections(container)).toEqual([]);

    rerender(
      <TokenPicker
        label="To"
        tokens={tokens}
        index={buildTokenSearchIndex(tokens)}
        value={{ token: hostile, whitelisted: false }}
        onChange={() => undefined}
      />,
    );
    // The chosen token's name as text (beside its logo, whose fallback is the symbol's first letters).
    expect(screen.getByTestId('to-picker').querySelector('#to-value')?.textContent).toBe(XSS_SYMBOL);
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(
      `${XSS_SYMBOL} is not on this service’s list. Check the address before you trade it.`,
    );
    expect(injections(container)).toEqual([]);
    expect((globalThis as { __pwned?: unknown }).__pwned).toBeUndefined();
  });

  const quote: Quote = {
    chainId: 1,
    inToken: ETH,
    inDecimals: 18,
    inAmount: '1000000000000000000',
    outToken: EVIL,
    outDecimals: 18,
    outAmount: '2000000000000000000',
    slippage: 0.5,
    minReceived: '1990000000000000000',
    bestRoute: [
      { percent: 60, swaps: [{ dex: XSS_DEX, pool: EVIL2, tokenIn: ETH, tokenOut: EVIL }] },
      {
        percent: 40,
        swaps: [
          { exchange: XSS_NAME, tokenIn: ETH, tokenOut: EVIL2 },
          { protocol: '<style>*{display:none}</style>', tokenIn: EVIL2, tokenOut: EVIL },
        ],
      },
    ],
    contractAddress: EVIL2,
    contractMethod: '<b>swap</b>',
    blockNumber: 1,
  };
  const symbolOf = (address: string) =>
    ({ [ETH]: 'ETH', [EVIL]: XSS_SYMBOL, [EVIL2]: '"/><script>globalThis.__pwned=6</script>' })[
      address.toLowerCase()
    ];

  it('QuoteCard and its RouteDiagram: symbols, names and dex names from the service', () => {
    const { container } = render(
      <QuoteCard
        state={{ ...INITIAL_SESSION_STATE, status: 'ready', quote, nextRefreshAt: null }}
        inToken={ether}
        outToken={hostile}
        now={0}
        onRefresh={() => undefined}
        symbolOf={symbolOf}
      />,
    );
    expect(screen.getByTestId('quote-rate').textContent).toContain(XSS_SYMBOL);
    expect(screen.getByTestId('quote-card').textContent).toContain(`1 ${XSS_SYMBOL} =`);
    const diagram = screen.getByTestId('route-diagram');
    const labels = [...diagram.querySelectorAll('text')].map((node) => node.textContent ?? '');
    // SVG labels are clipped: a 10 kB name never becomes a 10 kB label.
    expect(Math.max(...labels.map((label) => label.length))).toBeLessThan(40);
    expect(diagram.textContent).toContain(XSS_DEX);
    expect(injections(container)).toEqual([]);
    expect(container.querySelector('style, iframe, script')).toBeNull();
  });

  it('QuoteCard formats with the token list’s decimals, not the ones the service claims (Fixed)', () => {
    // 2 * 10^18 smallest units of an 18-decimal token is 2, whatever `outDecimals: 0` says.
    render(
      <QuoteCard
        state={{
          ...INITIAL_SESSION_STATE,
          status: 'ready',
          quote: { ...quote, outDecimals: 0, inDecimals: 0 },
          nextRefreshAt: null,
        }}
        inToken={ether}
        outToken={{ ...hostile, symbol: 'OUT' }}
        now={0}
        onRefresh={() => undefined}
      />,
    );
    expect(screen.getByTestId('quote-rate').textContent).toContain('1 ETH = 2 OUT');
  });

  it('RouteDiagram alone, without names: addresses and hostile dex names stay text', () => {
    const { container } = render(<RouteDiagram route={quote.bestRoute} />);
    expect(container.textContent).toContain('0x0000…0b1e');
    expect(injections(container)).toEqual([]);
  });

  it('SwapProgress: the received amount with a hostile symbol, and a hostile router address text', () => {
    const swap = {
      id: 's1',
      status: 'confirmed',
      outcome: { received: '5', gasPaid: '1' },
      approval: null,
      tx: { hash: `0x${'a'.repeat(64)}`, explorerUrl: 'javascript:alert(1)' },
      failure: null,
      consent: null,
    } as unknown as SwapState;
    const { container, rerender } = render(
      <SwapProgress
        swap={swap}
        outSymbol={XSS_SYMBOL}
        outDecimals={0}
        localChain={true}
        onConsent={() => undefined}
        onDone={() => undefined}
      />,
    );
    expect(screen.getByTestId('swap-confirmed').textContent).toContain(`You received 5 ${XSS_SYMBOL}.`);
    expect(injections(container)).toEqual([]);
    rerender(
      <SwapProgress
        swap={{
          ...swap,
          status: 'needs-consent',
          consent: { kind: 'ROUTER_UNPINNED', router: XSS_SYMBOL, pinned: null },
        }}
        outSymbol={XSS_SYMBOL}
        outDecimals={0}
        localChain={false}
        onConsent={() => undefined}
        onDone={() => undefined}
      />,
    );
    expect(screen.getByTestId('swap-consent').textContent).toContain(XSS_SYMBOL);
    // The explorer link is made by the background from the chain registry; a javascript: URL that
    // reached the state anyway (a tampered pending swap in storage.local) is not linked (SECURITY.md, Fixed).
    expect(container.querySelector('a')).toBeNull();
    expect(injections(container)).toEqual([]);
    rerender(
      <SwapProgress
        swap={{ ...swap, tx: { ...swap.tx, explorerUrl: 'https://etherscan.io/tx/0x1' } } as SwapState}
        outSymbol="ETH"
        outDecimals={0}
        localChain={false}
        onConsent={() => undefined}
        onDone={() => undefined}
      />,
    );
    expect(container.querySelector('a')?.getAttribute('href')).toBe('https://etherscan.io/tx/0x1');
  });
});

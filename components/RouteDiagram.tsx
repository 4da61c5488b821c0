import type { RouteShare } from '@/lib/api/schema';
import { isNativeToken } from '@/lib/api/schema';

export interface RouteDiagramProps {
  /** The chain's coin symbol, for the native pseudo-address in a route. */
  nativeSymbol?: string;
  route: readonly RouteShare[];
  /** Resolves a token address to its symbol, when the token is known. */
  symbolOf?: ((address: string) => string | undefined) | undefined;
}

/** One hop as far as it can be read: other services may send other swap shapes. */
interface Hop {
  tokenIn: string | null;
  tokenOut: string | null;
  dex: string | null;
}

// The quote card's inner width in the 360 px popup, so SVG units are CSS pixels there.
const WIDTH = 308;
const ROW_HEIGHT = 58;
const NODE_HEIGHT = 22;
const PERCENT_WIDTH = 44;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function hopOf(swap: Record<string, unknown>): Hop {
  return {
    tokenIn: text(swap.tokenIn),
    tokenOut: text(swap.tokenOut),
    dex: text(swap.dex) ?? text(swap.exchange) ?? text(swap.protocol),
  };
}

export function shortAddress(address: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(address) ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** Tokens along a share, or null when its swaps do not name them. */
function pathOf(hops: readonly Hop[]): string[] | null {
  const first = hops[0];
  if (!first?.tokenIn || hops.some((hop) => !hop.tokenOut)) return null;
  return [first.tokenIn, ...hops.map((hop) => hop.tokenOut as string)];
}

function clip(value: string, max: number): string {
  if (value.length <= max) return value;
  // A short address keeps its tail too: that is the part users compare.
  if (value.startsWith('0x') && value.includes('…'))
    return `${value.slice(0, Math.max(2, max - 4))}…${value.slice(-3)}`;
  return `${value.slice(0, Math.max(1, max - 1))}…`;
}

function percentText(percent: number): string {
  return `${Number(percent.toFixed(2))}%`;
}

interface ShareView {
  percent: string;
  path: string[] | null;
  dexes: string[];
  steps: number;
}

function viewOf(share: RouteShare, symbol: (address: string) => string): ShareView {
  const hops = share.swaps.map((swap) => hopOf(swap as Record<string, unknown>));
  const path = pathOf(hops);
  return {
    percent: percentText(share.percent),
    path: path ? path.map(symbol) : null,
    dexes: hops.map((hop) => hop.dex ?? 'unknown exchange'),
    steps: hops.length,
  };
}

function describeShare(view: ShareView): string {
  if (!view.path)
    return `${view.percent} through ${view.steps} step${view.steps === 1 ? '' : 's'} (details not shown)`;
  return `${view.percent} ${view.path.join(' → ')} via ${view.dexes.join(', ')}`;
}

export function RouteDiagram({ route, symbolOf, nativeSymbol }: RouteDiagramProps) {
  // The native coin is named (ETH), never shown as its pseudo-address 0xEeee…EEeE.
  const symbol = (address: string) =>
    symbolOf?.(address) ?? (isNativeToken(address) ? (nativeSymbol ?? 'ETH') : shortAddress(address));
  const views = route.map((share) => viewOf(share, symbol));
  const height = views.length * ROW_HEIGHT;
  const summary = `Route: ${views.map(describeShare).join('; ')}`;

  return (
    <figure class="route" data-testid="route-diagram">
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        preserveAspectRatio="xMinYMin meet"
      >
        {views.map((view, row) => (
          <ShareRow key={row} view={view} y={row * ROW_HEIGHT} />
        ))}
      </svg>
      {/* The same route as text, for screen readers that do not read an SVG's label in full. */}
      <ul class="sr-only">
        {views.map((view, row) => (
          <li key={row}>{describeShare(view)}</li>
        ))}
      </ul>
    </figure>
  );
}

function ShareRow({ view, y }: { view: ShareView; y: number }) {
  const midY = y + 18;
  const percent = (
    <text class="route-percent" x={0} y={midY + 4}>
      {view.percent}
    </text>
  );
  if (!view.path) {
    return (
      <g>
        {percent}
        <text class="route-dex" x={PERCENT_WIDTH} y={midY + 4}>
          {`${view.steps} step${view.steps === 1 ? '' : 's'}; details not available`}
        </text>
      </g>
    );
  }
  // Nodes spread evenly across the width left of the percent column, so 2 to 5 tokens all fit at 328 px.
  const nodes = view.path.length;
  const slot = (WIDTH - PERCENT_WIDTH) / nodes;
  const nodeWidth = Math.min(64, slot - 8);
  const maxChars = Math.max(3, Math.floor(nodeWidth / 7));
  const centerOf = (index: number) => PERCENT_WIDTH + slot * index + slot / 2;
  return (
    <g>
      {percent}
      {view.path.slice(1).map((_, hop) => {
        const x1 = centerOf(hop) + nodeWidth / 2;
        const x2 = centerOf(hop + 1) - nodeWidth / 2;
        const dex = view.dexes[hop] ?? '';
        return (
          <g key={`edge-${hop}`}>
            <line class="route-edge" x1={x1} y1={midY} x2={x2 - 4} y2={midY} />
            <path
              class="route-arrow"
              d={`M ${x2 - 5} ${midY - 4} L ${x2} ${midY} L ${x2 - 5} ${midY + 4} Z`}
            />
            <text
              class="route-dex"
              x={(centerOf(hop) + centerOf(hop + 1)) / 2}
              y={midY + 26}
              text-anchor="middle"
            >
              {clip(dex, Math.max(4, Math.floor(slot / 6)))}
            </text>
          </g>
        );
      })}
      {view.path.map((token, index) => (
        <g key={`node-${index}`}>
          <title>{token}</title>
          <rect
            class="route-node"
            x={centerOf(index) - nodeWidth / 2}
            y={midY - NODE_HEIGHT / 2}
            width={nodeWidth}
            height={NODE_HEIGHT}
            rx={11}
          />
          <text class="route-token" x={centerOf(index)} y={midY + 4} text-anchor="middle">
            {clip(token, maxChars)}
          </text>
        </g>
      ))}
    </g>
  );
}

import { useRef } from 'preact/hooks';
import { Holdings } from '@/components/Holdings';
import { useHoldings } from './hooks/useHoldings';
import type { SwapForm } from './hooks/useSwapForm';

/**
 * Whether the holdings fold to their heading line: when the popup opens on a pair, and when the
 * user's own pick (`picks` counts them) makes or breaks one. A pair restored or prefilled after the
 * first frame leaves them as they were: folding then would move the swap form under the pointer.
 */
export function useHoldingsFold(pair: boolean, picks: number): boolean {
  const fold = useRef({ picks, folded: pair });
  if (fold.current.picks !== picks) fold.current = { picks, folded: pair };
  return fold.current.folded;
}

/** The home's holdings over the swap form: Swap on a row puts that token in "You pay". */
export function HomeHoldings({
  form,
  account,
  networkName,
  nativeSymbol,
  swapStatus,
  logoUrl,
}: {
  form: SwapForm;
  account: string | null;
  networkName: string;
  nativeSymbol: string;
  swapStatus: string | undefined;
  logoUrl: (logoURI: string) => string | null;
}) {
  const { chainId, findToken, from, to } = form;
  const folded = useHoldingsFold(Boolean(from && to), form.picks);
  const holdings = useHoldings(chainId, account, findToken, form.index !== null, swapStatus);
  const swapFrom = (address: string) => {
    const token = findToken(address);
    if (!token) return;
    form.pickFrom({ token, whitelisted: true });
    document.getElementById('amount')?.focus();
  };
  return (
    <Holdings
      networkName={networkName}
      nativeSymbol={nativeSymbol}
      rows={holdings.rows}
      updating={!holdings.fresh}
      error={holdings.error}
      onRetry={holdings.retry}
      onSwap={swapFrom}
      logoUrl={logoUrl}
      collapsed={folded}
      pricesAsOf={holdings.pricesAsOf}
    />
  );
}

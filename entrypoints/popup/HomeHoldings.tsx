import { Holdings } from '@/components/Holdings';
import { useHoldings } from './hooks/useHoldings';
import type { SwapForm } from './hooks/useSwapForm';

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
      collapsed={Boolean(from && to)}
      pricesAsOf={holdings.pricesAsOf}
    />
  );
}

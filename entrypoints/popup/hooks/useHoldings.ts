import { useEffect, useRef, useState } from 'preact/hooks';
import { NATIVE_TOKEN_ADDRESS, type Token } from '@/lib/api/schema';
import { getChain } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import { PRICE_TTL_MS } from '@/lib/prices/cache';
import {
  carryPrices,
  priceInBatches,
  pricesAsOf,
  pricingOrder,
  withPrices,
} from '@/lib/tokens/holding-prices';
import type { HoldingRow } from '@/lib/tokens/holdings';
import { readHoldingsSnapshot, writeHoldingsSnapshot } from '../holdings-snapshot';
import { whenIdle } from '../idle';
import { messageOf } from '../messages';

export interface HoldingsView {
  /** The rows last read (or the snapshot of the last popup), null before any. */
  rows: HoldingRow[] | null;
  /** Fresh from the chain this popup (false: the snapshot, being brought up to date). */
  fresh: boolean;
  error: string | null;
  /**
   * The oldest USD price on screen that this popup has not read yet (ms since the epoch; 0:
   * unknown), else null; null too for the popup's first STALE_NOTE_GRACE_MS.
   */
  pricesAsOf: number | null;
  retry: () => void;
}

/**
 * How long the last popup's prices are shown before they are said to be old: fresh ones usually
 * land within it (the background keeps them 30 s), and a note that appears and goes a moment later
 * only moves the screen under the pointer. Past it, a price not yet refreshed is said to be "as of".
 */
export const STALE_NOTE_GRACE_MS = 1_500;

/**
 * The account's holdings on `chainId`: the last popup's snapshot in the first frame, then one
 * holdings read (a Multicall3 batch over the cached list) once the list is in and the popup idle,
 * again after a swap settles. Prices come after the balances (they cost a quote each), a few at a
 * time as they land (lib/tokens/holding-prices.ts); until then the last popup's, said to be as old
 * as they are once STALE_NOTE_GRACE_MS has passed.
 */
export function useHoldings(
  chainId: number,
  account: string | null,
  findToken: (address: string) => Token | undefined,
  listReady: boolean,
  swapStatus: string | undefined,
): HoldingsView {
  const [rows, setRows] = useState<HoldingRow[] | null>(() => readHoldingsSnapshot(account, chainId));
  const [fresh, setFresh] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // When this popup started pricing: a price read before it is the last popup's ("as of").
  const [pricingSince, setPricingSince] = useState(() => Date.now());
  const [noteDue, setNoteDue] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setNoteDue(true), STALE_NOTE_GRACE_MS);
    return () => clearTimeout(timer);
  }, []);
  const latest = useRef(rows);
  latest.current = rows;
  // Whose snapshot `rows` holds: the first render already read this one (reading it again in the
  // mount's effect parsed it twice and rendered the screen a second time before it was ready).
  const shown = useRef(`${account}:${chainId}`);

  useEffect(() => {
    const key = `${account}:${chainId}`;
    if (shown.current === key) return;
    shown.current = key;
    setRows(readHoldingsSnapshot(account, chainId));
    setFresh(false);
  }, [chainId, account]);

  useEffect(() => {
    if (!account || !listReady) return;
    let current = true;
    const cancel = whenIdle(async () => {
      let answer: Awaited<ReturnType<typeof callBackground<'holdings'>>>;
      try {
        answer = await callBackground({ type: 'holdings', chainId });
      } catch (failure) {
        if (current) setError(messageOf(failure));
        return;
      }
      if (!current || answer.account?.toLowerCase() !== account.toLowerCase()) return;
      const chain = getChain(chainId);
      const native = NATIVE_TOKEN_ADDRESS.toLowerCase();
      const held = Object.entries(answer.balances).flatMap(([address, balance]): HoldingRow[] => {
        if (address === native)
          return [
            {
              address,
              symbol: chain?.nativeSymbol ?? 'ETH',
              decimals: chain?.nativeDecimals ?? 18,
              logoURI: findToken(address)?.logoURI,
              balance: BigInt(balance),
              price: null,
            },
          ];
        const token = findToken(address);
        if (!token) return [];
        return [
          {
            address,
            symbol: token.symbol,
            decimals: token.decimals,
            logoURI: token.logoURI,
            balance: BigInt(balance),
            price: null,
          },
        ];
      });
      setError(null);
      let shownRows = carryPrices(held, latest.current);
      setRows(shownRows);
      setFresh(true);
      const since = Date.now();
      setPricingSince(since);
      await priceInBatches(
        pricingOrder(held),
        (tokens) => callBackground({ type: 'getPrices', chainId, tokens }),
        (answer) => {
          shownRows = withPrices(shownRows, answer, Date.now());
          setRows(shownRows);
          writeHoldingsSnapshot(account, chainId, shownRows);
        },
        () => !current,
      );
    });
    return () => {
      current = false;
      cancel();
    };
  }, [chainId, account, listReady, swapStatus === 'confirmed', attempt]);

  return {
    rows,
    fresh,
    error,
    // A price within the background's cache lifetime is as fresh as any the swap screen shows.
    pricesAsOf: rows && noteDue ? pricesAsOf(rows, pricingSince - PRICE_TTL_MS) : null,
    retry: () => setAttempt((n) => n + 1),
  };
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { NATIVE_TOKEN_ADDRESS, type Token } from '@/lib/api/schema';
import { getChain } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import { priceOf } from '@/lib/prices/usd';
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
  retry: () => void;
}

/** getPrices takes 20 tokens at a time. */
const PRICE_BATCH = 20;

async function pricesOf(chainId: number, addresses: string[]): Promise<Record<string, string | null>> {
  const batches: string[][] = [];
  for (let i = 0; i < addresses.length; i += PRICE_BATCH) batches.push(addresses.slice(i, i + PRICE_BATCH));
  const answers = await Promise.all(
    batches.map((tokens) => callBackground({ type: 'getPrices', chainId, tokens }).catch(() => ({}))),
  );
  return Object.assign({}, ...answers);
}

/**
 * The account's holdings on `chainId`: the last popup's snapshot in the first frame, then one
 * holdings read (a Multicall3 batch over the cached list) once the list is in and the popup idle,
 * again after a swap settles. Prices come after the balances (they cost a quote each).
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
      setRows(held);
      setFresh(true);
      const prices = await pricesOf(
        chainId,
        held.filter((row) => row.balance > 0n).map((row) => row.address),
      );
      if (!current) return;
      const priced = held.map((row) => ({ ...row, price: priceOf(prices[row.address]) }));
      setRows(priced);
      writeHoldingsSnapshot(account, chainId, priced);
    });
    return () => {
      current = false;
      cancel();
    };
  }, [chainId, account, listReady, swapStatus === 'confirmed', attempt]);

  return { rows, fresh, error, retry: () => setAttempt((n) => n + 1) };
}

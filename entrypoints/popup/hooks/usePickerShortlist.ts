import { useEffect, useState } from 'preact/hooks';
import type { Shortlist } from '@/components/TokenPicker';
import { callBackground } from '@/lib/messaging/client';
import { priceOf } from '@/lib/prices/usd';
import { whenIdle } from '../idle';

/**
 * The pickers' shortlist on this chain: tokens held (among the recent ones and the top of the list)
 * with balance and USD price, and tokens swapped lately. Asked once the screen is idle, again after
 * a swap settles; never before the first frame.
 */
export function usePickerShortlist(
  chainId: number,
  listReady: boolean,
  swapStatus: string | undefined,
): Shortlist {
  const [shortlist, setShortlist] = useState<Shortlist>({ held: [], recent: [] });
  useEffect(() => {
    if (!listReady) return;
    let current = true;
    const cancel = whenIdle(async () => {
      const answer = await callBackground({ type: 'pickerTokens', chainId }).catch(() => null);
      if (!current || !answer) return;
      const addresses = Object.keys(answer.held).slice(0, 20);
      const prices =
        addresses.length > 0
          ? await callBackground({ type: 'getPrices', chainId, tokens: addresses }).catch(() => ({}))
          : {};
      if (!current) return;
      setShortlist({
        held: Object.entries(answer.held).map(([address, balance]) => ({
          address,
          balance: BigInt(balance),
          price: priceOf((prices as Record<string, string | null>)[address]),
        })),
        recent: answer.recent,
      });
    });
    return () => {
      current = false;
      cancel();
    };
  }, [chainId, listReady, swapStatus === 'confirmed']);
  return shortlist;
}

import { useEffect, useMemo, useState } from 'preact/hooks';
import { callBackground } from '@/lib/messaging/client';
import type { ResultOf } from '@/lib/messaging/protocol';
import { buildTokenSearchIndex } from '@/lib/tokens/search';
import { messageOf } from '../messages';

type TokenList = ResultOf<'getTokenList'>;

/** performance.mark name set when the chain's whole token list is in the pickers (see bench-popup). */
export const POPUP_LIST_MARK = 'swaplane:popup-token-list';

/**
 * The chain's whole list, for the pickers: cached in the background, so this answers at once after
 * the first time. Asked for after the first frame (effects run after paint), so its ~400 kB never
 * delays that frame.
 */
export function useTokenList(chainId: number) {
  const [list, setList] = useState<TokenList | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Bumped by the list error's Try again button: fetches the list anew.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    setList(null);
    setError(null);
    callBackground({ type: 'getTokenList', chainId }).then(
      (result) => {
        if (!current) return;
        setList(result);
        performance.mark(POPUP_LIST_MARK);
      },
      (failure: unknown) => current && setError(messageOf(failure)),
    );
    return () => {
      current = false;
    };
  }, [chainId, attempt]);
  const index = useMemo(() => (list ? buildTokenSearchIndex(list.tokens) : null), [list]);
  return { list, index, error, retry: () => setAttempt((n) => n + 1) };
}

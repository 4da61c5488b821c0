// Above the picker's full list, when nothing is typed: the tokens you hold (with balance and USD,
// largest first) and the ones you swapped lately. There is no indexer here: "held" covers the
// recent tokens and the top of the service's list, which the background checks on-chain.
import { formatAmount } from '@/lib/amounts';
import type { Token } from '@/lib/api/schema';
import { formatUsd, usdValue } from '@/lib/prices/usd';
import { TokenLogo } from './TokenLogo';

export interface Shortlist {
  held: { address: string; balance: bigint; price: bigint | null }[];
  recent: string[];
}

export function PickerShortlist({
  label,
  shortlist,
  tokenAt,
  exclude,
  logoUrl,
  onPick,
}: {
  label: string;
  shortlist: Shortlist;
  tokenAt: (address: string) => Token | undefined;
  exclude?: string | undefined;
  logoUrl?: ((logoURI: string) => string | null) | undefined;
  onPick: (token: Token) => void;
}) {
  const excluded = (token: Token) =>
    exclude !== undefined && token.address.toLowerCase() === exclude.toLowerCase();
  const held = shortlist.held
    .map((item) => {
      const token = tokenAt(item.address);
      return token
        ? { token, balance: item.balance, usd: usdValue(item.balance, token.decimals, item.price) }
        : null;
    })
    .filter((item) => item !== null)
    .sort((a, b) => ((b.usd ?? -1n) > (a.usd ?? -1n) ? 1 : (b.usd ?? -1n) < (a.usd ?? -1n) ? -1 : 0));
  const recent = shortlist.recent.map(tokenAt).filter((token) => token !== undefined);
  if (held.length === 0 && recent.length === 0) return null;
  return (
    <div class="shortlist">
      {recent.length > 0 && (
        <fieldset class="recent" aria-label={`Recent ${label} tokens`}>
          {recent.map((token) => (
            <button
              type="button"
              key={token.address}
              class="chip"
              data-recent-token={token.address.toLowerCase()}
              disabled={excluded(token)}
              onClick={() => onPick(token)}
            >
              {token.symbol}
            </button>
          ))}
        </fieldset>
      )}
      {held.length > 0 && (
        <ul class="held plain" aria-label={`Your ${label} tokens`}>
          {held.map(({ token, balance, usd }) => (
            <li key={token.address}>
              <button
                type="button"
                class="token-row"
                data-held-token={token.address.toLowerCase()}
                disabled={excluded(token)}
                onClick={() => onPick(token)}
              >
                <TokenLogo src={logoUrl ? logoUrl(token.logoURI) : null} symbol={token.symbol} />
                <strong>{token.symbol}</strong>
                <span class="muted">
                  {formatAmount(balance, token.decimals)} · {formatUsd(usd)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

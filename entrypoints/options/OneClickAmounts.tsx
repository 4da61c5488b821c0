import { CHAINS } from '@/lib/chains';

/** One field per chain: its own one-click amount in its own coin; blank uses the amount above. */
export function OneClickAmounts(props: {
  texts: Readonly<Record<string, string>>;
  fallback: string;
  onInput(chainId: string, text: string): void;
}) {
  return (
    <fieldset>
      <legend>One-click amount per network</legend>
      <p>
        0.1 ETH is not 0.1 POL: each network can quote its own amount of its coin. Blank uses the amount
        above.
      </p>
      {CHAINS.map((chain) => {
        const key = String(chain.chainId);
        return (
          <label key={key}>
            {`One-click amount on ${chain.name} (${chain.nativeSymbol})`}
            <input
              inputMode="decimal"
              placeholder={props.fallback}
              value={props.texts[key] ?? ''}
              onInput={(event) => props.onInput(key, event.currentTarget.value)}
            />
          </label>
        );
      })}
    </fieldset>
  );
}

import { useMemo, useRef, useState } from 'preact/hooks';
import { formatAmount } from '@/lib/amounts';
import { AddressSchema, type Token } from '@/lib/api/schema';
import { formatUsd, usdValue } from '@/lib/prices/usd';
import type { TokenSearchIndex } from '@/lib/tokens/search';
import { PickerShortlist, type Shortlist } from './PickerShortlist';
import { TokenLogo } from './TokenLogo';

export type { Shortlist } from './PickerShortlist';

import { VirtualList } from './VirtualList';

export interface PickedToken {
  token: Token;
  /** False for a token imported by address that the service does not list. */
  whitelisted: boolean;
}

export interface TokenPickerProps {
  label: string;
  tokens: readonly Token[];
  index: TokenSearchIndex | null;
  value: PickedToken | null;
  /** Another picker's token, shown as unavailable. */
  exclude?: string | undefined;
  onChange: (picked: PickedToken) => void;
  /** Looks up a pasted address that is not in the list. */
  onLookup?: (address: string) => Promise<PickedToken | { error: string }>;
  /** Turns a token's logoURI into a URL it is safe to load, or null. */
  logoUrl?: (logoURI: string) => string | null;
  /** Inside an amount field: the label is for screen readers only. */
  compact?: boolean;
  /** Why the list could not be loaded (instead of "Loading tokens…" forever). */
  unavailable?: string | null;
  /** Held and recent tokens, offered above the list while nothing is typed. */
  shortlist?: Shortlist | undefined;
}

const ROW_HEIGHT = 36;
const LIST_HEIGHT = 216;

type Lookup = PickedToken | { error: string } | 'loading' | null;
type Held = Shortlist['held'][number];

/** The shortlist's balances by lower-case address, for the rows of the list and its search results. */
function heldByAddress(shortlist: Shortlist | undefined): Map<string, Held> {
  return new Map((shortlist?.held ?? []).map((item) => [item.address.toLowerCase(), item]));
}

/** Matches the account holds come first, in the search's order; the rest keep theirs. */
export function heldFirst(
  results: readonly number[],
  tokens: readonly Token[],
  held: ReadonlyMap<string, Held>,
): number[] {
  if (held.size === 0) return [...results];
  const holds = (at: number) => (held.get(tokens[at]?.address.toLowerCase() ?? '')?.balance ?? 0n) > 0n;
  return [...results.filter(holds), ...results.filter((at) => !holds(at))];
}

/** One token of the list: logo, symbol and name; disabled when it is the other picker's token. */
function TokenRow({
  token,
  held,
  exclude,
  current,
  logoUrl,
  onPick,
}: {
  token: Token;
  /** The account's balance of it, when the shortlist knows one. */
  held: Held | undefined;
  exclude: string | undefined;
  current: string | undefined;
  logoUrl: ((logoURI: string) => string | null) | undefined;
  onPick: (token: Token) => void;
}) {
  const disabled = exclude !== undefined && token.address.toLowerCase() === exclude.toLowerCase();
  return (
    <button
      type="button"
      class="token-row"
      disabled={disabled}
      data-token={token.address.toLowerCase()}
      aria-current={current === token.address ? 'true' : undefined}
      onClick={() => onPick(token)}
    >
      <TokenLogo src={logoUrl ? logoUrl(token.logoURI) : null} symbol={token.symbol} />
      <strong>{token.symbol}</strong> <span class="muted token-name">{token.name}</span>
      {held && held.balance > 0n && (
        <span class="token-balance">
          {formatAmount(held.balance, token.decimals)}
          <span class="muted"> {formatUsd(usdValue(held.balance, token.decimals, held.price))}</span>
        </span>
      )}
    </button>
  );
}

/** Under the list: why it is empty (loading, not loadable, no match) and a pasted address's look-up. */
function PickerNotes({
  loaded,
  unavailable,
  noMatch,
  lookup,
  onUse,
}: {
  loaded: boolean;
  unavailable: string | null;
  /** The query nothing matches, or null. */
  noMatch: string | null;
  lookup: Lookup;
  onUse: (picked: PickedToken) => void;
}) {
  return (
    <>
      {!loaded && unavailable && (
        <p class="error" role="alert">
          Tokens could not be loaded: {unavailable}
        </p>
      )}
      {!loaded && !unavailable && (
        <p class="muted" role="status">
          Loading tokens…
        </p>
      )}
      {noMatch !== null && <p class="muted">No token matches “{noMatch}”.</p>}
      {lookup === 'loading' && <p class="muted">Looking up this address…</p>}
      {lookup && lookup !== 'loading' && 'error' in lookup && (
        <p class="error" role="alert">
          {lookup.error}
        </p>
      )}
      {lookup && lookup !== 'loading' && 'token' in lookup && (
        <div class={lookup.whitelisted ? '' : 'warning'}>
          {!lookup.whitelisted && (
            <p role="alert">Not on this service’s list: check the address before you trade it.</p>
          )}
          <button type="button" onClick={() => onUse(lookup)}>
            Use {lookup.token.symbol} ({lookup.token.name})
          </button>
        </div>
      )}
    </>
  );
}

/** The picker's panel: open or not, the query, its matches, and a pasted address's look-up. */
function usePickerSearch(
  index: TokenSearchIndex | null,
  tokens: readonly Token[],
  held: ReadonlyMap<string, Held>,
  onChange: (picked: PickedToken) => void,
  onLookup: TokenPickerProps['onLookup'],
) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [lookup, setLookup] = useState<Lookup>(null);
  const results = useMemo(
    // Typed: what the account holds first. Untyped, the shortlist above already shows it.
    () =>
      !index ? [] : query.trim() === '' ? index.search(query) : heldFirst(index.search(query), tokens, held),
    [index, query, tokens, held],
  );
  const choose = (picked: PickedToken) => {
    onChange(picked);
    setOpen(false);
    setQuery('');
    setLookup(null);
  };
  const search = (next: string) => {
    setQuery(next);
    setLookup(null);
    const trimmed = next.trim();
    if (onLookup && AddressSchema.safeParse(trimmed).success && index?.byAddress(trimmed) === undefined) {
      setLookup('loading');
      onLookup(trimmed).then(setLookup, (error: unknown) => setLookup({ error: String(error) }));
    }
  };
  const isAddress = AddressSchema.safeParse(query.trim()).success;
  return { open, setOpen, query, lookup, results, isAddress, choose, search };
}

export function TokenPicker({
  label,
  tokens,
  index,
  value,
  exclude,
  onChange,
  onLookup,
  logoUrl,
  compact = false,
  unavailable = null,
  shortlist,
}: TokenPickerProps) {
  const held = useMemo(() => heldByAddress(shortlist), [shortlist]);
  const { open, setOpen, query, lookup, results, isAddress, choose, search } = usePickerSearch(
    index,
    tokens,
    held,
    onChange,
    onLookup,
  );
  const inputRef = useRef<HTMLInputElement>(null);
  const id = label.toLowerCase().replace(/\W+/g, '-');

  return (
    <div class={compact ? 'picker picker-compact' : 'picker'}>
      <span class={compact ? 'sr-only' : 'field-label'} id={`${id}-label`}>
        {label}
      </span>
      <button
        type="button"
        class="picker-button"
        aria-expanded={open}
        aria-controls={open ? `${id}-list` : undefined}
        aria-labelledby={`${id}-label ${id}-value`}
        data-testid={`${id}-picker`}
        onClick={() => {
          setOpen(!open);
          setTimeout(() => inputRef.current?.focus(), 0);
        }}
      >
        {value && (
          <TokenLogo src={logoUrl ? logoUrl(value.token.logoURI) : null} symbol={value.token.symbol} />
        )}
        <span id={`${id}-value`}>{value ? value.token.symbol : 'Select a token'}</span>
      </button>
      {value && !value.whitelisted && (
        <p class="warning" role="alert">
          {value.token.symbol} is not on this service’s list. Check the address before you trade it.
        </p>
      )}
      {open && (
        <div class="picker-panel">
          <label class="sr-only" for={`${id}-search`}>
            Search {label} token by symbol, name or address
          </label>
          <input
            ref={inputRef}
            id={`${id}-search`}
            type="search"
            placeholder="Symbol, name or address"
            autocomplete="off"
            spellcheck={false}
            value={query}
            onInput={(event) => search(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setOpen(false);
            }}
          />
          {index && shortlist && query === '' && (
            <PickerShortlist
              label={label}
              shortlist={shortlist}
              tokenAt={(address) => {
                const at = index.byAddress(address);
                return at === undefined ? undefined : tokens[at];
              }}
              exclude={exclude}
              logoUrl={logoUrl}
              onPick={(token) => choose({ token, whitelisted: true })}
            />
          )}
          <VirtualList
            id={`${id}-list`}
            label={`${label} tokens`}
            count={results.length}
            rowHeight={ROW_HEIGHT}
            height={LIST_HEIGHT}
            renderRow={(row) => (
              <TokenRow
                token={tokens[results[row] as number] as Token}
                held={held.get((tokens[results[row] as number] as Token).address.toLowerCase())}
                exclude={exclude}
                current={value?.token.address}
                logoUrl={logoUrl}
                onPick={(token) => choose({ token, whitelisted: true })}
              />
            )}
          />
          <PickerNotes
            loaded={index !== null}
            unavailable={unavailable}
            noMatch={index !== null && results.length === 0 && !isAddress ? query : null}
            lookup={lookup}
            onUse={choose}
          />
        </div>
      )}
    </div>
  );
}

// How often the swap machine polls, re-broadcasts and gives up (lib/swap/execute.ts); tests shorten
// these.
export interface SwapTiming {
  /** Receipt polling interval. */
  pollMs: number;
  /** Not found while the account's nonce moved on for this long: dropped. */
  dropAfterMs: number;
  /** Re-broadcast a transaction the node forgot (nonce still free) at most this often. */
  rebroadcastMs: number;
  /** A swap signed but maybe not broadcast before a restart is broadcast on resume only this soon after. */
  resumeSendWindowMs: number;
  /** Added to every gas estimate. */
  gasMarginPercent: number;
}

export const DEFAULT_SWAP_TIMING: SwapTiming = {
  pollMs: 1_000,
  dropAfterMs: 60_000,
  rebroadcastMs: 15_000,
  resumeSendWindowMs: 120_000,
  gasMarginPercent: 25,
};

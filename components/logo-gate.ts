// Token logos wait until the popup's first screen is up. Each SVG logo is a small document of its
// own (~2 ms to load and parse on a busy machine); a home with a dozen holdings put their loading
// between the first render and the first frame. While held, a logo is a blank circle of the same
// size (nothing moves when it comes in). Pages that never hold them (options) show them at once.

let held = false;
const waiting = new Set<() => void>();

/** Holds every TokenLogo back until `releaseLogos` (the popup calls it before its first render). */
export function holdLogos(): void {
  held = true;
}

/** Lets the logos load (idempotent). */
export function releaseLogos(): void {
  if (!held) return;
  held = false;
  for (const wake of [...waiting]) wake();
  waiting.clear();
}

export function logosHeld(): boolean {
  return held;
}

/** Calls `wake` once when the logos are released; returns the unsubscribe. */
export function onLogosReleased(wake: () => void): () => void {
  waiting.add(wake);
  return () => waiting.delete(wake);
}

// storage.local is readable and writable by every extension context, content scripts included (they
// run inside web pages). Where the browser lets an extension narrow that (Chrome's
// storage.local.setAccessLevel), the worker limits it to Swaplane's own pages and worker at every
// start. Firefox has no setAccessLevel for any area: there the seals (lib/wallet/trust-mac.ts) and
// the re-derived account list are the defence, as they are everywhere.

export type StorageAccess = 'trusted-only' | 'unsupported' | 'refused';

interface RestrictableArea {
  setAccessLevel?: (options: { accessLevel: 'TRUSTED_CONTEXTS' }) => Promise<void> | void;
}

export async function restrictToTrustedContexts(area: unknown): Promise<StorageAccess> {
  const setAccessLevel = (area as RestrictableArea | undefined)?.setAccessLevel;
  if (typeof setAccessLevel !== 'function') return 'unsupported';
  try {
    await setAccessLevel.call(area, { accessLevel: 'TRUSTED_CONTEXTS' });
    return 'trusted-only';
  } catch {
    // A browser that has the method for storage.session only refuses it here.
    return 'refused';
  }
}

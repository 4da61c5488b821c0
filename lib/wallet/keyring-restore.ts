// The account list is not trusted from storage.local (any extension context can write it): when the
// vault is opened (unlock, or a restarted worker's session) the stored list is checked against the
// vault's secrets, and a list that does not match is rebuilt from them. An address that no secret
// of this wallet derives is never shown or used as an account.
import { privateKeyToAddress } from 'viem/accounts';
import { type AccountMeta, deriveAddresses, type KeyringMeta, verifyKeyring } from './keyring';
import type { VaultSecrets } from './vault';

export interface RestoredKeyring {
  meta: KeyringMeta;
  /** True when the stored list did not match the secrets (tampered, stale or missing). */
  rebuilt: boolean;
}

/**
 * The stored list if every account in it is one of the secrets' own, else a list re-derived from the
 * secrets: each stored account its secret confirms keeps its name; the derived accounts at the
 * stored indexes (index 0 at least) and every imported key are listed; the active one is kept if it
 * survived.
 */
export async function restoredKeyring(
  stored: KeyringMeta | null,
  secrets: VaultSecrets,
): Promise<RestoredKeyring> {
  if (stored) {
    const verified = await verifyKeyring(stored, secrets).then(
      () => true,
      () => false,
    );
    if (verified) return { meta: stored, rebuilt: false };
  }
  const previous = stored?.accounts ?? [];
  const accounts: AccountMeta[] = [];
  const seen = new Set<string>();
  const add = (account: AccountMeta) => {
    if (seen.has(account.address.toLowerCase())) return;
    seen.add(account.address.toLowerCase());
    accounts.push(account);
  };
  for (const entry of secrets.importedKeys) {
    const address = privateKeyToAddress(entry.privateKey as `0x${string}`);
    const known = previous.find(
      (a) => a.id === entry.id && a.address.toLowerCase() === address.toLowerCase(),
    );
    add({ id: entry.id, kind: 'imported', address, name: known?.name ?? `Imported ${accounts.length + 1}` });
  }
  if (secrets.mnemonic) {
    const storedIndexes = previous.flatMap((a) => (a.kind === 'derived' ? [a.index] : []));
    const indexes = [...new Set([0, ...storedIndexes])].sort((a, b) => a - b);
    const addresses = await deriveAddresses(secrets.mnemonic, indexes);
    const derived: AccountMeta[] = indexes.map((index, i) => {
      const address = addresses[i] as `0x${string}`;
      const known = previous.find(
        (a) => a.kind === 'derived' && a.index === index && a.address.toLowerCase() === address.toLowerCase(),
      );
      return {
        id: `derived:${index}`,
        kind: 'derived',
        index,
        address,
        name: known?.name ?? `Account ${index + 1}`,
      };
    });
    // Derived accounts first, as a new wallet lists them.
    const imported = accounts.splice(0);
    seen.clear();
    for (const account of [...derived, ...imported]) add(account);
  }
  const activeId = accounts.some((a) => a.id === stored?.activeId)
    ? (stored?.activeId ?? null)
    : (accounts[0]?.id ?? null);
  return { meta: { accounts, activeId }, rebuilt: true };
}

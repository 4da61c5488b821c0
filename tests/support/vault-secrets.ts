// The vault tests' secrets: anvil's well-known phrase, one imported key (anvil's second account) and
// a password that passes the strength check. A small PBKDF2 count keeps them fast.
import type { VaultSecrets } from '@/lib/wallet/vault';

export const PASSWORD = 'correct horse battery staple';
export const MNEMONIC = 'test test test test test test test test test test test junk';
export const SECRETS: VaultSecrets = {
  mnemonic: MNEMONIC,
  importedKeys: [
    { id: 'imported:1', privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' },
  ],
};
/** Small counts keep the suite fast (the default's own tests use the real one). */
export const FAST = { iterations: 1_000, minIterations: 1_000 };

// Settings: read, and replace as a whole (parsed again here: the request schema already did, but
// this is what gets stored). A change of what the service or an RPC can do needs the wallet
// unlocked and the user's confirmation; the seal on the trust-deciding settings is confirmed here.
import { SettingsSchema } from '@/lib/settings/settings';
import { changesServiceOrRpc } from '@/lib/settings/trust-fields';
import { CodedError } from '../errors';
import type { BackgroundServices } from '../services';
import type { Handlers } from './types';

export function settingsHandlers(
  services: BackgroundServices,
): Pick<
  Handlers,
  'getSettings' | 'updateSettings' | 'trustSettingsStatus' | 'confirmTrustSettings' | 'discardTrustChanges'
> {
  return {
    getSettings: async () => services.settings(),
    updateSettings: async ({ settings, confirmTrustChange }) => {
      const next = SettingsSchema.parse(settings);
      if (changesServiceOrRpc(services.settings(), next)) {
        const wallet = await services.wallet.state();
        // Before a wallet exists there is nothing to protect: first-run set-up changes freely.
        if (wallet.status === 'locked')
          throw new CodedError(
            'UNLOCK_REQUIRED',
            'Unlock the wallet to change the swap service, an RPC or an API chain name.',
          );
        if (wallet.status === 'unlocked' && confirmTrustChange !== true)
          throw new CodedError(
            'CONFIRMATION_REQUIRED',
            'Changing the swap service, an RPC or an API chain name needs your confirmation in Settings.',
          );
      }
      return services.updateSettings(next, { confirmed: confirmTrustChange === true });
    },
    trustSettingsStatus: () => services.trust.status(),
    confirmTrustSettings: async () => {
      if (!(await services.trust.seal()))
        throw new CodedError('LOCKED', 'Unlock the wallet to confirm these settings.');
      return services.trust.status();
    },
    discardTrustChanges: async () => {
      if (!(await services.trust.discard()))
        throw new CodedError('LOCKED', 'Unlock the wallet to discard the changed settings.');
      return services.trust.status();
    },
  };
}

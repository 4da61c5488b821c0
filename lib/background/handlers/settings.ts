// Settings: read, and replace as a whole (parsed again here: the request schema already did, but
// this is what gets stored).
import { SettingsSchema } from '@/lib/settings/settings';
import type { BackgroundServices } from '../services';
import type { Handlers } from './types';

export function settingsHandlers(
  services: BackgroundServices,
): Pick<Handlers, 'getSettings' | 'updateSettings'> {
  return {
    getSettings: async () => services.settings(),
    updateSettings: async ({ settings }) => services.updateSettings(SettingsSchema.parse(settings)),
  };
}

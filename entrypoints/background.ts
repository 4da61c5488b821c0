import '@/lib/zod-config';
import { createBackgroundServices } from '@/lib/background/services';
import { registerBackgroundHandlers } from '@/lib/messaging/background';

// Wiring only: listeners are registered synchronously so a restarted worker answers at once;
// the services restore their state from storage behind `services.ready`.
export default defineBackground(() => {
  registerBackgroundHandlers(createBackgroundServices());
});

import { registerBackgroundHandlers } from '@/lib/messaging/background';

// Wiring only: listeners are registered synchronously so a restarted worker answers at once.
export default defineBackground(() => {
  registerBackgroundHandlers();
});

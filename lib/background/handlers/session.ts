// The quote session: views set its input and ask for a refresh; its state reaches them through the
// session port (lib/background/router.ts) and in each answer.
import type { BackgroundServices } from '../services';
import type { Handlers } from './types';

export function sessionHandlers(
  services: BackgroundServices,
): Pick<Handlers, 'setQuoteInput' | 'markTyping' | 'refreshQuote'> {
  return {
    setQuoteInput: async ({ input }) => {
      services.session.setInput(input);
      return services.session.getState();
    },
    markTyping: async () => {
      services.session.markTyping();
      return null;
    },
    refreshQuote: async () => {
      services.session.refreshNow();
      return services.session.getState();
    },
  };
}

// The provider's end of the channel (MAIN world): posts requests to the bridge, matches replies by
// id, hands events to the provider. Replies are taken from this window only; a page faking one
// only fools its own provider, which it controls anyway.
import { type ChannelReply, TO_BRIDGE, TO_PROVIDER } from './channel';
import { ProviderRpcError, type ProviderTransport } from './provider';

export function createPageTransport(
  target: Window,
  onEvent: (reply: Extract<ChannelReply, { event: string }>) => void,
): ProviderTransport {
  let nextId = 1;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  target.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== target) return;
    const reply = event.data as ChannelReply | null;
    if (typeof reply !== 'object' || reply === null || reply.target !== TO_PROVIDER) return;
    if ('event' in reply) {
      onEvent(reply);
      return;
    }
    const pending = waiting.get(reply.id);
    if (!pending) return;
    waiting.delete(reply.id);
    if ('error' in reply) pending.reject(new ProviderRpcError(reply.error.code, reply.error.message));
    else pending.resolve(reply.result);
  });
  return {
    send(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        target.postMessage(
          { target: TO_BRIDGE, id, method, ...(params === undefined ? {} : { params }) },
          target.location.origin,
        );
      });
    },
  };
}

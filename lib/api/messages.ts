// The one place that turns API errors into words for people: what happened, and what to do next.
// Never shows stacks or raw server text (a service's message is for logs, not for the popup).
import {
  ClientConfigError,
  InvalidResponseError,
  RateLimitedError,
  ServiceUnavailableError,
  SwapApiError,
} from '@/lib/api/errors';
import { ERROR_CODES } from '@/lib/api/schema';

export interface UserMessage {
  title: string;
  detail: string;
  action: string;
}

export function userMessageFor(error: unknown): UserMessage {
  if (error instanceof ClientConfigError) {
    return {
      title: 'Swap service address is invalid',
      detail: 'The service URL must be a plain http:// or https:// address.',
      action: 'Fix the service URL in Settings.',
    };
  }
  if (!(error instanceof SwapApiError)) {
    return {
      title: 'Something went wrong',
      detail: 'An unexpected error stopped this request.',
      action: 'Try again. If it keeps happening, restart the browser.',
    };
  }
  // A switch over `kind`: adding a kind without a message fails to compile (see `unreachable`).
  const kind = error.kind;
  switch (kind) {
    case 'unsupported-chain':
      return {
        title: 'Network not supported',
        detail: 'The swap service does not quote swaps on this network.',
        action: 'Switch to a supported network.',
      };
    case 'unsupported-token':
      if (error.serverCode === ERROR_CODES.noRoute) {
        return {
          title: 'No route for this pair',
          detail: 'The swap service found no liquidity path between these tokens.',
          action: 'Try another token pair or a smaller amount.',
        };
      }
      return {
        title: 'Token not supported',
        detail: 'The swap service cannot trade one of these tokens.',
        action: 'Pick a different token, or check the token address.',
      };
    case 'slippage':
      return {
        title: 'Slippage out of range',
        detail: 'The swap service refused this slippage setting.',
        action: 'Choose a slippage the service accepts.',
      };
    case 'quote-outdated':
      return {
        title: 'Quote expired, fetching a new one',
        detail: 'Prices may have moved since this quote was made.',
        action: 'Review the new quote before you confirm.',
      };
    case 'rate-limited':
      return busyMessage(error instanceof RateLimitedError ? error.retryAfterSeconds : undefined);
    case 'service-unavailable':
      return unavailableMessage(error instanceof ServiceUnavailableError ? error.cause : undefined);
    case 'invalid-response':
      if (error instanceof InvalidResponseError && error.reason === 'redirect') {
        return {
          title: 'The swap service answered from another address; Swaplane refused it',
          detail: 'It redirected the request elsewhere, and Swaplane only talks to the address in Settings.',
          action: 'Check the swap service address in Settings (its exact https:// address, path included).',
        };
      }
      return {
        title: 'Unexpected answer from the swap service',
        detail: 'The service sent data Swaplane could not verify, so none of it was used.',
        action: 'Try again. If it keeps happening, check the service URL in Settings.',
      };
    case 'bad-request':
      return badRequestMessage(error.status);
    case 'invalid-request':
      return {
        title: 'Check the swap details',
        detail: 'Some of the swap details are not valid, so nothing was sent.',
        action: 'Correct the amount, tokens or slippage and try again.',
      };
    case 'cancelled':
      return {
        title: 'Request cancelled',
        detail: 'The request was stopped before it finished.',
        action: 'Start again when you are ready.',
      };
    default:
      return unreachable(kind);
  }
}

/** What the quote card says while the client waits out a 429 (lib/swap/session.ts shows it). */
export function busyRetryingText(seconds: number): string {
  return `The swap service is busy, retrying in ${seconds} s`;
}

/** A 429 the client did not wait out: longer than its bound, or a second one in a row. */
function busyMessage(retryAfterSeconds: number | undefined): UserMessage {
  const when =
    retryAfterSeconds === undefined
      ? 'It did not say for how long.'
      : `It asked Swaplane to wait ${retryAfterSeconds} s before asking again.`;
  return {
    title: 'The swap service is busy',
    detail: `It is limiting how often it can be asked. ${when}`,
    action:
      retryAfterSeconds === undefined ? 'Try again in a moment.' : `Try again in ${retryAfterSeconds} s.`,
  };
}

function unavailableMessage(cause: unknown): UserMessage {
  if (cause === 'timeout') {
    return {
      title: 'Swap service is not responding',
      detail: 'The service took too long to answer.',
      action: 'Try again in a moment.',
    };
  }
  if (cause === 'network') {
    return {
      title: 'Cannot reach the swap service',
      detail:
        'Nothing answered at its address: the service is not running, refused the connection, or its name does not resolve.',
      action: 'Check the swap service URL in Settings › Advanced, then try again.',
    };
  }
  return {
    title: 'Swap service is unavailable',
    detail: 'The service is having trouble right now.',
    action: 'Try again in a few minutes.',
  };
}

function badRequestMessage(status: number | undefined): UserMessage {
  if (status === 413) {
    return {
      title: 'Request too large',
      detail: 'The swap service refused a request of this size.',
      action: 'Try again; if it keeps happening, report it.',
    };
  }
  return {
    title: 'The swap service refused the request',
    detail: status === undefined ? 'The request was rejected.' : `The request was rejected (HTTP ${status}).`,
    action: 'Check the swap details and try again.',
  };
}

function unreachable(kind: never): UserMessage {
  return {
    title: 'Something went wrong',
    detail: `Unhandled error (${String(kind)}).`,
    action: 'Try again.',
  };
}

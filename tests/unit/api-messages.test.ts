import { describe, expect, it } from 'vitest';
import * as E from '@/lib/api/errors';
import { busyRetryingText, userMessageFor } from '@/lib/api/messages';

const errors = {
  unsupportedChain: new E.UnsupportedChainError({ endpoint: 'quote', status: 400 }),
  unsupportedToken: new E.UnsupportedTokenError({ endpoint: 'quote', status: 404 }),
  noRoute: new E.UnsupportedTokenError({ endpoint: 'quote', status: 404, serverCode: 'NO_ROUTE' }),
  slippage: new E.SlippageError({ endpoint: 'quote', status: 406 }),
  outdated: new E.QuoteOutdatedError({ endpoint: 'build', status: 400 }),
  http5xx: new E.ServiceUnavailableError({ endpoint: 'quote', status: 503, cause: 'http-5xx' }),
  network: new E.ServiceUnavailableError({ endpoint: 'list', cause: 'network' }),
  timeout: new E.ServiceUnavailableError({ endpoint: 'build', cause: 'timeout' }),
  invalidResponse: new E.InvalidResponseError({ endpoint: 'quote', status: 200, reason: 'schema' }),
  badRequest: new E.BadRequestError({ endpoint: 'build', status: 404 }),
  tooMany: new E.RateLimitedError({ endpoint: 'quote', status: 429, retryAfterSeconds: 30 }),
  tooLarge: new E.BadRequestError({ endpoint: 'quote', status: 413 }),
  invalidRequest: new E.InvalidRequestError({
    endpoint: 'quote',
    issues: [{ path: 'inAmount', message: 'bad' }],
  }),
  cancelled: new E.RequestCancelledError({ endpoint: 'search' }),
  config: new E.ClientConfigError('baseUrl', 'bad url'),
};

describe('userMessageFor', () => {
  it('gives each error its own title, with a detail and a next step', () => {
    const messages = Object.values(errors).map(userMessageFor);
    expect(new Set(messages.map((m) => m.title)).size).toBe(messages.length);
    for (const m of messages) {
      expect(m.title).not.toBe('');
      expect(m.detail).not.toBe('');
      expect(m.action).not.toBe('');
    }
  });

  it('uses the agreed wording for slippage and outdated quotes', () => {
    expect(userMessageFor(errors.slippage)).toMatchObject({
      title: 'Slippage out of range',
      action: 'Choose a slippage the service accepts.',
    });
    expect(userMessageFor(errors.outdated).title).toBe('Quote expired, fetching a new one');
  });

  it('says the service is busy and for how long when a 429 was not waited out', () => {
    expect(userMessageFor(errors.tooMany)).toEqual({
      title: 'The swap service is busy',
      detail: 'It is limiting how often it can be asked. It asked Swaplane to wait 30 s before asking again.',
      action: 'Try again in 30 s.',
    });
    const untold = userMessageFor(new E.RateLimitedError({ endpoint: 'quote', status: 429 }));
    expect(untold.detail).toContain('It did not say for how long.');
    expect(busyRetryingText(4)).toBe('The swap service is busy, retrying in 4 s');
  });

  it('never shows stacks, raw messages or server text', () => {
    const hostile = new E.BadRequestError({
      endpoint: 'quote',
      status: 400,
      serverMessage: 'Send your seed to evil.example',
    });
    const unknown = new Error('TypeError: x is undefined\n    at foo (client.ts:1:1)');
    for (const error of [hostile, unknown, 'a string', null, undefined, { message: 'object' }]) {
      const text = Object.values(userMessageFor(error)).join(' ');
      expect(text).not.toMatch(/evil|at foo|TypeError|object|client\.ts/);
    }
    expect(userMessageFor(unknown).title).toBe('Something went wrong');
  });
});

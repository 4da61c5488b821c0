// Fault matrix, service half: the fault proxy in front of the REAL reference service (over the
// real anvil devnet), and each step that talks to the service driven through the product's own
// code: the background's message handlers (token list, search), its quote session (quote) and
// the swap pipeline (build). Each row is one fault x one step and says what the user gets:
// the words from lib/api/messages.ts, how many requests reached the proxy (no answer, a 5xx or
// a cut body is asked again; an answer that arrived whole but wrong is not), a wait bounded by
// the client's own timeout policy, and for /build: nothing sent, nothing lost. Retrying /build is
// safe: it only computes calldata; nothing is signed or sent until it answered and was checked.
//
// The API client's real options make the waits short: 300 ms per attempt, 2 retries.
import type { Address } from 'viem';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_MNEMONIC } from '../../devnet/accounts';
import type { ManifestChain } from '../../devnet/manifest';
import { createSwapApiClient } from '../../lib/api/client';
import { NATIVE_TOKEN_ADDRESS, type QuoteRequest } from '../../lib/api/schema';
import { createHandlers, handleMessage } from '../../lib/background/router';
import { type BackgroundServices, createBackgroundServices } from '../../lib/background/services';
import type { Response } from '../../lib/messaging/protocol';
import { publicClientFor, type RpcClient } from '../../lib/rpc/network';
import type { QuoteSessionState } from '../../lib/state/session-state';
import { createPendingSwapStore, createSwapMachine } from '../../lib/swap/execute';
import { createSwapHistory } from '../../lib/swap/history';
import { createKeyring, signerFor } from '../../lib/wallet/keyring';
import type { EmbeddedDefault } from '../../scripts/embedded';
import { type Fault, type FaultProxy, onPath, onRpc } from '../support/fault-proxy';
import { type ProxiedDevnet, resetToProxies, startProxiedDevnet } from '../support/proxied-devnet';
import { reportDurations } from '../support/swap-deps';

/** One swap through the machine the background runs (lib/background/swaps.ts builds the same). */
const runSwap = (
  input: Parameters<ReturnType<typeof createSwapMachine>['run']>[0],
  deps: Parameters<typeof createSwapMachine>[0],
) => createSwapMachine(deps).run(input);

const TIMEOUT_MS = 300;
const RETRY = { attempts: 2, baseDelayMs: 20, maxDelayMs: 40, maxTotalMs: 10_000 };
const TRIES = RETRY.attempts + 1;
/** Every try times out, plus the backoffs, plus a generous margin for a loaded 2-core machine. */
const BOUND_MS = TRIES * TIMEOUT_MS + RETRY.attempts * RETRY.maxDelayMs + 2_500;
/** The quote session waits this long after input before asking (its default policy). */
const DEBOUNCE_MS = 350;

type Step = 'token list' | 'token list (cached)' | 'search' | 'quote' | 'build';

interface Expected {
  /** The error code views get (error kind), or 'ok'. */
  code: 'SERVICE-UNAVAILABLE' | 'INVALID-RESPONSE' | 'ok';
  title: string;
  /** Requests to the step's endpoint. */
  tries: number;
}

const TIMEOUT: Expected = {
  code: 'SERVICE-UNAVAILABLE',
  title: 'Swap service is not responding',
  tries: TRIES,
};
const FIVE_XX: Expected = { code: 'SERVICE-UNAVAILABLE', title: 'Swap service is unavailable', tries: TRIES };
const NETWORK: Expected = {
  code: 'SERVICE-UNAVAILABLE',
  title: 'Cannot reach the swap service',
  tries: TRIES,
};
const INVALID: Expected = {
  code: 'INVALID-RESPONSE',
  title: 'Unexpected answer from the swap service',
  tries: 1,
};

const FAULTS: { fault: string; inject: Fault; expected: Expected }[] = [
  { fault: 'delay beyond the timeout', inject: { kind: 'delay', ms: 5_000 }, expected: TIMEOUT },
  { fault: 'hang', inject: { kind: 'hang' }, expected: TIMEOUT },
  {
    fault: '503 with a hostile body',
    inject: {
      kind: 'status',
      status: 503,
      contentType: 'application/json',
      body: '{"success":false,"error":{"code":"SERVICE_UNAVAILABLE","message":"<img src=x onerror=alert(1)> db down"}}',
    },
    expected: FIVE_XX,
  },
  { fault: 'connection reset', inject: { kind: 'reset' }, expected: NETWORK },
  { fault: 'truncated body', inject: { kind: 'truncate' }, expected: NETWORK },
  { fault: 'non-JSON (HTML) 200', inject: { kind: 'nonJson' }, expected: INVALID },
  { fault: 'schema-violating JSON', inject: { kind: 'schemaViolation' }, expected: INVALID },
  {
    fault: 'slow drip past the timeout',
    inject: { kind: 'drip', bytesPerChunk: 8, intervalMs: 200 },
    expected: TIMEOUT,
  },
];

const PATHS: Record<Step, string> = {
  'token list': '/v1/tokens/ethereum/full',
  'token list (cached)': '/v1/tokens/ethereum/full',
  search: '/v1/tokens/ethereum/search/',
  quote: '/v1/quote',
  build: '/v1/build',
};

/** What each step does when its request fails: the matrix's "expected behaviour" column. */
const BEHAVIOUR: Record<Step, string> = {
  'token list': 'popup gets the error words, no list invented',
  'token list (cached)': 'saved list kept, marked stale',
  search: 'error words, never "not whitelisted"',
  quote: 'session in error with the words, no quote',
  build: 'swap fails at build, nothing sent, nothing pending',
};

/**
 * /search of a token that is not in the list answers 404, and the status line arrives whole
 * before the body is cut or dripped: the client keys errors on the status (the body is only a
 * bonus), so these two cells get the true answer, "not whitelisted", in one try.
 */
const SEARCH_404_ARRIVED: Expected = { code: 'ok', title: 'not whitelisted (the 404 arrived)', tries: 1 };
const OVERRIDES: Partial<Record<`${Step}|${string}`, Expected>> = {
  'search|truncated body': SEARCH_404_ARRIVED,
  'search|slow drip past the timeout': SEARCH_404_ARRIVED,
};

const ROWS = (Object.keys(PATHS) as Step[])
  .flatMap((step) =>
    FAULTS.map(({ fault, inject, expected: general }) => ({
      fault,
      inject,
      expected: OVERRIDES[`${step}|${fault}`] ?? general,
      step,
    })),
  )
  .map((row) => ({
    ...row,
    behaviour:
      row.expected.code === 'ok'
        ? `${row.expected.title}; 1 try`
        : `${BEHAVIOUR[row.step]}; ${row.expected.title}; ${row.expected.tries} tr${row.expected.tries === 1 ? 'y' : 'ies'}`,
  }));

let net: ProxiedDevnet;
let embedded: EmbeddedDefault;
let chain: ManifestChain;
let service: FaultProxy;
let rpc: FaultProxy;
let client: RpcClient;
let services: BackgroundServices;
const durations: { step: Step; fault: string; ms: number; tries: number }[] = [];

const usdc = (): Address => net.token('USDC');

beforeAll(async () => {
  net = await startProxiedDevnet();
  // The RPC's proxy is unfaulted here: only to see that nothing was sent when /build fails.
  ({ embedded, chain, service, rpc } = net);
  client = publicClientFor(1, { rpcOverrides: { '1': rpc.url } }, { timeoutMs: 2_000, retryCount: 0 });
});

afterAll(async () => {
  reportDurations('service fault matrix: time to the user-facing answer (ms)', durations);
  await net?.stop();
});

beforeEach(async () => {
  await resetToProxies(net);
  services = createBackgroundServices({ api: { timeoutMs: TIMEOUT_MS, retry: RETRY } });
  await services.ready;
});

afterEach(() => {
  services.session.dispose();
});

function send(message: unknown): Promise<Response> {
  return handleMessage(createHandlers(services), services, message, 'view');
}

function hitsOn(prefix: string): number {
  return service.hits.filter(onPath(prefix)).length;
}

function expectError(answer: Response, expected: Expected): void {
  expect(answer.ok).toBe(false);
  if (answer.ok) return;
  expect(answer.error.code).toBe(expected.code);
  expect(answer.error.message).toBe(expected.title);
  expect(answer.error.user?.title).toBe(expected.title);
  // The server's own text (and anything it tried to inject) never reaches the words shown.
  expect(JSON.stringify(answer.error)).not.toMatch(/onerror|db down|nope|DOCTYPE/);
}

function waitForSession(done: (state: QuoteSessionState) => boolean): Promise<QuoteSessionState> {
  return new Promise((resolve) => {
    const check = () => {
      const state = services.session.getState();
      if (done(state)) {
        stop();
        resolve(state);
      }
    };
    const stop = services.onSessionChange(check);
    check();
  });
}

const quoteRequest = (): QuoteRequest => ({
  chainId: 1,
  inToken: NATIVE_TOKEN_ADDRESS,
  outToken: usdc(),
  inAmount: (10n ** 17n).toString(),
  slippage: 0.5,
});

/** Runs one step with the fault on its endpoint; returns how long the user waited for the answer. */
async function runStep(step: Step, inject: Fault, expected: Expected): Promise<number> {
  const path = PATHS[step];
  if (step === 'token list') {
    service.add({ match: onPath(path), fault: inject });
    const started = performance.now();
    const answer = await send({ type: 'getTokenList', chainId: 1 });
    const ms = performance.now() - started;
    expectError(answer, expected);
    return ms;
  }
  if (step === 'token list (cached)') {
    const first = await send({ type: 'getTokenList', chainId: 1 });
    if (!first.ok) throw new Error('the unfaulted list failed');
    const saved = (first.result as { tokens: unknown[] }).tokens;
    service.hits.length = 0;
    service.add({ match: onPath(path), fault: inject });
    const started = performance.now();
    // The refresh the cache runs once a list is past its lifetime.
    const view = await services.tokens.refresh(1);
    const ms = performance.now() - started;
    expect(view.status).toBe('stale');
    expect(view.tokens).toEqual(saved);
    expect(view.refreshError).toBeTruthy();
    // ...and the next popup opening still gets the saved list at once, marked stale.
    const again = await send({ type: 'getTokenList', chainId: 1 });
    expect(again).toMatchObject({ ok: true, result: { status: 'stale' } });
    return ms;
  }
  if (step === 'search') {
    const list = await send({ type: 'getTokenList', chainId: 1 });
    if (!list.ok) throw new Error('the unfaulted list failed');
    service.add({ match: onPath(path), fault: inject });
    const unlisted = '0x00000000000000000000000000000000000000aa';
    const started = performance.now();
    const answer = await send({ type: 'lookupToken', chainId: 1, address: unlisted });
    const ms = performance.now() - started;
    if (expected.code === 'ok') {
      expect(answer).toMatchObject({ ok: true, result: { status: 'not-whitelisted', token: null } });
      return ms;
    }
    // A service that did not answer must not make a token look "not whitelisted".
    expectError(answer, expected);
    return ms;
  }
  if (step === 'quote') {
    service.add({ match: onPath(path), fault: inject });
    const release = services.session.watch();
    const started = performance.now();
    services.session.setInput(quoteRequest());
    const state = await waitForSession((s) => s.status === 'error' || s.status === 'ready');
    const ms = performance.now() - started;
    release();
    expect(state.status).toBe('error');
    expect(state.quote).toBeNull();
    expect(state.error?.title).toBe(expected.title);
    expect(JSON.stringify(state.error)).not.toMatch(/onerror|db down|nope|DOCTYPE/);
    return ms;
  }
  // build: a quote the user confirmed, then the pipeline's POST /build fails.
  const { quote } = await createSwapApiClient({ baseUrl: embedded.service.url }).quote(quoteRequest());
  service.add({ match: onPath(path), fault: inject });
  const keyring = await createKeyring(TEST_MNEMONIC);
  const account = await signerFor(keyring.secrets, keyring.meta, keyring.meta.accounts[0]?.id ?? '');
  const nonceBefore = await client.getTransactionCount({ address: account.address });
  const started = performance.now();
  const state = await runSwap(
    { chainId: 1, account, request: quoteRequest(), quote },
    { client, api: services.api(), timing: { pollMs: 20 } },
  );
  const ms = performance.now() - started;
  expect(state.status).toBe('failed');
  expect(state.failure).toMatchObject({ step: 'build', code: 'BUILD_FAILED', anythingSent: false });
  expect(state.failure?.message.title).toBe(expected.title);
  expect(state.failure?.message.detail).toMatch(/Nothing was sent\.$/);
  expect(state.tx).toBeNull();
  expect(rpc.hits.filter(onRpc('eth_sendRawTransaction'))).toEqual([]);
  expect(await client.getTransactionCount({ address: account.address })).toBe(nonceBefore);
  // Failed before anything was sent: nothing pending to resume, no history entry to lose.
  expect(await createPendingSwapStore().list()).toEqual([]);
  expect(await createSwapHistory().list()).toEqual([]);
  return ms;
}

describe('service fault matrix: fault x step -> what the user gets', () => {
  // `%s` (not `$name`): the row titles are the matrix, printed whole.
  it.each(ROWS.map((row) => [row.step, row.fault, row.behaviour, row] as const))(
    '%s × %s → %s',
    async (step, fault, _behaviour, { inject, expected }) => {
      const ms = await runStep(step, inject, expected);
      const tries = hitsOn(PATHS[step]);
      durations.push({ step, fault, ms: Math.round(ms), tries });
      // Retried when the service did not answer (or cut it short); never when it answered nonsense.
      expect(tries).toBe(expected.tries);
      // Bounded: done within the client's own budget (every try timing out) plus a margin.
      expect(ms).toBeLessThan(BOUND_MS + (step === 'quote' ? DEBOUNCE_MS : 0));
    },
  );

  it('control row: with no fault every step succeeds through the same proxy, in one try each', async () => {
    const list = await send({ type: 'getTokenList', chainId: 1 });
    expect(list).toMatchObject({ ok: true, result: { status: 'fresh' } });
    const lookup = await send({
      type: 'lookupToken',
      chainId: 1,
      address: '0x00000000000000000000000000000000000000aa',
    });
    expect(lookup).toMatchObject({ ok: true, result: { status: 'not-whitelisted' } });
    services.session.setInput(quoteRequest());
    const state = await waitForSession((s) => s.status === 'error' || s.status === 'ready');
    expect(state.status).toBe('ready');
    const { build } = await services.api().build(state.quote as NonNullable<typeof state.quote>);
    expect(build.to.toLowerCase()).toBe(chain.router.toLowerCase());
    for (const step of ['token list', 'search', 'quote', 'build'] as const)
      expect(hitsOn(PATHS[step])).toBe(1);
  });
});

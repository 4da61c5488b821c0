// Fault matrix, RPC half: the fault proxy in front of the REAL anvil devnet's JSON-RPC, the real
// reference service behind the API client, and the swap pipeline (lib/swap/execute.ts) run with
// the viem client the background uses (lib/rpc/network.ts), shortened through its real
// options: 400 ms per request, one retry.
//
// Each row is one fault x one step:
// - balances, simulate: checks before signing. The swap stops with the pipeline's words, nothing
//   is sent (no eth_sendRawTransaction reaches the proxy, the nonce does not move), nothing is
//   left pending.
// - send: the broadcast gets no usable answer. The node may or may not have the transaction, so
//   the swap is never reported as "nothing sent": it is tracked by its hash and the SAME signed
//   bytes are re-broadcast (never a new signature, never a second nonce) until it confirms.
// - track: receipts fail for a while after the send; tracking outlasts it and the swap confirms,
//   with its history entry.
// Plus: the RPC down after the send, the worker restarts, and the pending store resumes tracking
// when the RPC comes back.
import {
  type Address,
  createPublicClient,
  createTestClient,
  type Hex,
  http,
  type LocalAccount,
  type PublicClient,
  type TestClient,
} from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { TEST_MNEMONIC } from '../../devnet/accounts';
import type { ManifestChain } from '../../devnet/manifest';
import { createSwapApiClient, type SwapApiClient } from '../../lib/api/client';
import { NATIVE_TOKEN_ADDRESS, type QuoteRequest } from '../../lib/api/schema';
import { createBackgroundServices } from '../../lib/background/services';
import { viemChainFor } from '../../lib/chains/viem';
import { clearPublicClients, publicClientFor, type RpcClient } from '../../lib/rpc/network';
import { DEFAULT_SETTINGS } from '../../lib/settings/settings';
import type { SwapState, SwapStatus } from '../../lib/state/pipeline-state';
import { settingsItem } from '../../lib/storage/items';
import { createPendingSwapStore, createSwapMachine, type SwapDeps } from '../../lib/swap/execute';
import { createSwapHistory } from '../../lib/swap/history';
import { createRouterPins } from '../../lib/swap/router-pins';
import { addDerivedAccount, createKeyring, signerFor } from '../../lib/wallet/keyring';
import { type EmbeddedDefault, startEmbeddedDefault } from '../../scripts/embedded';
import {
  type Fault,
  type FaultProxy,
  onRpc,
  type ProxyRequestInfo,
  startFaultProxy,
} from '../support/fault-proxy';
import { recordingDeps, reportDurations } from '../support/swap-deps';

/** One swap through the machine the background runs (lib/background/swaps.ts builds the same). */
const runSwap = (
  input: Parameters<ReturnType<typeof createSwapMachine>['run']>[0],
  deps: Parameters<typeof createSwapMachine>[0],
) => createSwapMachine(deps).run(input);

const RPC_TIMEOUT_MS = 400;
const RPC_RETRIES = 1; // the transport's own retry: every faulted read is asked twice
const VIEM_RETRY_DELAY_MS = 200; // lib/rpc/network.ts
const TIMING = { pollMs: 20, dropAfterMs: 5_000, rebroadcastMs: 300 };
/** Every try of one request timing out, plus the retry delay, plus a generous margin. */
const ONE_CALL_MS = (RPC_RETRIES + 1) * RPC_TIMEOUT_MS + VIEM_RETRY_DELAY_MS;
const MARGIN_MS = 3_000;
const MULTICALL3 = 'ca11bde05977b3631167028862be2a173976ca11';

type Step = 'balances' | 'simulate' | 'send' | 'track';

/**
 * `unavailable`: the product counts the fault as "the RPC did not answer" (else: it answered
 * nonsense). `forwarded`: the request reached the node before the answer broke (or in time).
 */
const FAULTS: { fault: string; inject: Fault; unavailable: boolean; forwarded: boolean; cause?: string }[] = [
  {
    fault: 'delay beyond the timeout',
    inject: { kind: 'delay', ms: 5_000 },
    unavailable: true,
    cause: 'did not answer in time',
    forwarded: false, // only after the client gave up
  },
  {
    fault: 'hang',
    inject: { kind: 'hang' },
    unavailable: true,
    forwarded: false,
    cause: 'did not answer in time',
  },
  {
    fault: '503',
    inject: { kind: 'status', status: 503, body: 'upstream down' },
    unavailable: true,
    cause: 'answered with HTTP error 503',
    forwarded: false,
  },
  {
    fault: 'connection reset',
    inject: { kind: 'reset' },
    unavailable: true,
    forwarded: false,
    cause: 'could not be reached',
  },
  {
    fault: 'truncated body',
    inject: { kind: 'truncate' },
    unavailable: true,
    forwarded: true,
    cause: 'could not be reached',
  },
  {
    fault: 'non-JSON (HTML) 200',
    inject: { kind: 'nonJson' },
    unavailable: true,
    forwarded: false,
    cause: 'answered with something that is not JSON-RPC',
  },
  {
    fault: 'schema-violating JSON',
    inject: { kind: 'schemaViolation' },
    unavailable: false,
    forwarded: false,
  },
  {
    fault: 'slow drip past the timeout',
    inject: { kind: 'drip', bytesPerChunk: 4, intervalMs: 150 },
    unavailable: true,
    cause: 'did not answer in time',
    forwarded: true,
  },
];

const isMulticall = (r: ProxyRequestInfo) =>
  r.rpcMethods.includes('eth_call') && r.body.toLowerCase().includes(MULTICALL3);
const isTracking = (r: ProxyRequestInfo) =>
  r.rpcMethods.includes('eth_getTransactionReceipt') || r.rpcMethods.includes('eth_getTransactionByHash');

/** Which requests each step's fault hits, and for how many requests. */
const TARGETS: Record<Step, { match: (r: ProxyRequestInfo) => boolean; times?: number }> = {
  // The balance check's Multicall3 read (not the swap's own eth_call).
  balances: { match: isMulticall },
  // simulateSwap's gas estimate, right before signing.
  simulate: { match: onRpc('eth_estimateGas') },
  // The broadcast (viem never retries it) and the tracker's first re-broadcast; the next one gets through.
  send: { match: onRpc('eth_sendRawTransaction'), times: 2 },
  // Receipt and transaction lookups after the send, for a while.
  track: { match: isTracking, times: 6 },
};

// An RPC that did not answer says how, at which host (lib/rpc/rpc-failure.ts), never a generic hint.
const BEHAVIOUR: Record<Step, (unavailable: boolean, forwarded: boolean, cause?: string) => string> = {
  balances: (u, _f, cause) =>
    `fails at balance: ${u ? `"The RPC at … ${cause}"` : '"Something went wrong"'}, nothing sent`,
  simulate: (u, _f, cause) =>
    `fails at simulate: ${u ? `"The RPC at … ${cause}"` : '"Something went wrong"'}, nothing sent`,
  send: (_u, forwarded) =>
    forwarded
      ? 'never "nothing sent": the node has it, tracked by hash, confirms, history kept'
      : 'never "nothing sent": same bytes re-broadcast, one nonce, confirms, history kept',
  track: () => 'tracking outlasts the fault, confirms, history kept',
};

const ROWS = (Object.keys(TARGETS) as Step[]).flatMap((step) =>
  FAULTS.map((row) => ({
    ...row,
    step,
    behaviour: BEHAVIOUR[step](row.unavailable, row.forwarded, row.cause),
  })),
);

let embedded: EmbeddedDefault;
let chain: ManifestChain;
let proxy: FaultProxy;
let client: RpcClient;
let direct: PublicClient;
let testClient: TestClient;
let api: SwapApiClient;
let account: LocalAccount;
let kicker: ReturnType<typeof setInterval>;
const durations: { step: Step; fault: string; ms: number; faulted: number; sends: number }[] = [];

const usdc = (): Address => {
  const found = chain.tokens.find((t) => t.symbol === 'USDC');
  if (!found) throw new Error('no USDC');
  return found.address;
};

const request = (): QuoteRequest => ({
  chainId: 1,
  inToken: NATIVE_TOKEN_ADDRESS,
  outToken: usdc(),
  inAmount: (10n ** 17n).toString(),
  slippage: 1,
});

beforeAll(async () => {
  embedded = await startEmbeddedDefault({ ports: { ethereum: 0, base: 0, service: 0 } });
  const eth = embedded.devnet.manifest.chains.find((c) => c.chainId === 1);
  if (!eth) throw new Error('no ethereum chain');
  chain = eth;
  proxy = await startFaultProxy(chain.rpcUrl);
  clearPublicClients();
  client = publicClientFor(
    1,
    { rpcOverrides: { '1': proxy.url } },
    { timeoutMs: RPC_TIMEOUT_MS, retryCount: RPC_RETRIES },
  );
  direct = createPublicClient({ chain: viemChainFor(1), transport: http(chain.rpcUrl) }) as PublicClient;
  testClient = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) });
  api = createSwapApiClient({ baseUrl: embedded.service.url });
  const keyring = await createKeyring(TEST_MNEMONIC);
  const { meta } = await addDerivedAccount(keyring.meta, keyring.secrets);
  // Account 1 of the test mnemonic: the other integration files start their own devnets.
  account = await signerFor(keyring.secrets, meta, meta.accounts[1]?.id ?? '');
  // Anvil's automine now and then leaves a ready transaction in its pool (see pipeline.test.ts).
  let seenAt = 0;
  kicker = setInterval(async () => {
    try {
      const status = (await direct.request({ method: 'txpool_status' } as never)) as { pending: Hex };
      if (BigInt(status.pending) === 0n) seenAt = 0;
      else if (seenAt === 0) seenAt = Date.now();
      else if (Date.now() - seenAt > 1_000) {
        seenAt = 0;
        await testClient.mine({ blocks: 1 });
      }
    } catch {
      // the devnet is stopping
    }
  }, 200);
});

afterAll(async () => {
  clearInterval(kicker);
  reportDurations(
    'RPC fault matrix: time to the end state (ms), faulted requests, eth_sendRawTransaction hits',
    durations,
  );
  await proxy?.close();
  await embedded?.stop();
});

beforeEach(async () => {
  fakeBrowser.reset();
  proxy.clear();
  proxy.hits.length = 0;
  await createRouterPins().pin(1, chain.router);
});

function deps(statuses: SwapStatus[], extra: Partial<SwapDeps> = {}): SwapDeps {
  return recordingDeps({ client, api, timing: TIMING }, statuses, extra);
}

const sendHits = () => proxy.hits.filter(onRpc('eth_sendRawTransaction'));
const nonceOf = (address: Address) => direct.getTransactionCount({ address, blockTag: 'latest' });

async function expectNothingSent(state: SwapState, nonceBefore: number): Promise<void> {
  expect(state.status).toBe('failed');
  expect(state.failure?.anythingSent).toBe(false);
  expect(state.failure?.message.detail).toMatch(/Nothing was sent\.$/);
  expect(state.tx).toBeNull();
  expect(sendHits()).toEqual([]);
  expect(await nonceOf(account.address)).toBe(nonceBefore);
  expect(await createPendingSwapStore().list()).toEqual([]);
  expect(await createSwapHistory().list()).toEqual([]);
}

async function expectConfirmedOnce(state: SwapState, nonceBefore: number): Promise<void> {
  expect(state.failure, JSON.stringify(state.failure)).toBeNull();
  expect(state.status).toBe('confirmed');
  expect(BigInt(state.outcome?.received ?? '0')).toBeGreaterThanOrEqual(
    BigInt(state.quote?.minReceived ?? '1'),
  );
  // One signature, one nonce: every broadcast carried the same signed bytes.
  expect(await nonceOf(account.address)).toBe(nonceBefore + 1);
  const raws = new Set(
    sendHits().map((hit) => JSON.stringify((JSON.parse(hit.body) as { params: unknown }).params)),
  );
  expect(raws.size).toBe(1);
  expect(state.tx?.nonce).toBe(nonceBefore);
  const receipt = await direct.getTransactionReceipt({ hash: state.tx?.hash as Hex });
  expect(receipt.status).toBe('success');
  // Nothing lost: the history has the confirmed swap, nothing is left pending.
  const history = await createSwapHistory().list();
  expect(history).toHaveLength(1);
  expect(history[0]).toMatchObject({ id: state.id, kind: 'swap', status: 'confirmed', hash: state.tx?.hash });
  expect(await createPendingSwapStore().list()).toEqual([]);
}

describe('RPC fault matrix: fault x step -> what the user gets', () => {
  // `%s` (not `$name`): the row titles are the matrix, printed whole.
  it.each(ROWS.map((row) => [row.step, row.fault, row.behaviour, row] as const))(
    '%s × %s → %s',
    async (step, fault, _behaviour, { inject, unavailable, forwarded, cause }) => {
      const { quote } = await api.quote(request());
      const nonceBefore = await nonceOf(account.address);
      const target = TARGETS[step];
      proxy.add({ match: target.match, fault: inject, ...(target.times ? { times: target.times } : {}) });
      const statuses: SwapStatus[] = [];
      const started = performance.now();
      const state = await runSwap({ chainId: 1, account, request: request(), quote }, deps(statuses));
      const ms = performance.now() - started;
      const faulted = proxy.hits.filter(target.match).length;
      durations.push({ step, fault, ms: Math.round(ms), faulted, sends: sendHits().length });

      if (step === 'balances' || step === 'simulate') {
        expect(state.failure?.step).toBe(step === 'balances' ? 'balance' : 'simulate');
        if (unavailable) {
          expect(state.failure?.code).toBe('RPC_UNAVAILABLE');
          expect(state.failure?.message.title).toMatch(
            new RegExp(`^The RPC at 127\\.0\\.0\\.1:\\d+ ${cause}$`),
          );
          expect(JSON.stringify(state.failure?.message)).not.toMatch(/internet/i);
          // A read: the transport asked again once before giving up.
          expect(faulted).toBe(RPC_RETRIES + 1);
        } else {
          // The node answered, with nonsense: not retried, not mistaken for a balance or a gas figure.
          expect(state.failure?.code).toBe('UNEXPECTED');
          expect(state.failure?.message.title).toBe('Something went wrong');
          expect(faulted).toBe(1);
        }
        await expectNothingSent(state, nonceBefore);
        expect(statuses).not.toContain('signing');
        expect(ms).toBeLessThan(ONE_CALL_MS + MARGIN_MS);
        return;
      }
      await expectConfirmedOnce(state, nonceBefore);
      expect(statuses.slice(-2)).toEqual(['sent', 'confirmed']);
      if (step === 'send') {
        // Re-broadcast only while the node lacks the transaction: once per faulted try, then once more.
        expect(sendHits()).toHaveLength(forwarded ? 1 : (target.times ?? 1) + 1);
      } else {
        expect(sendHits()).toHaveLength(1);
        expect(faulted).toBeGreaterThan(target.times ?? 1); // polled through the fault, then got the receipt
      }
      expect(ms).toBeLessThan(
        (target.times ?? 1) * (RPC_TIMEOUT_MS + VIEM_RETRY_DELAY_MS) + TIMING.rebroadcastMs + MARGIN_MS,
      );
    },
  );
});

describe('RPC down after the send', () => {
  it('the worker restarts while the RPC is down; the pending store resumes tracking when it comes back', async () => {
    const { quote } = await api.quote(request());
    const nonceBefore = await nonceOf(account.address);
    // Every lookup after the broadcast finds the RPC down; the swap is out there nonetheless.
    proxy.add({ match: isTracking, fault: { kind: 'reset' } });
    const stop = new AbortController();
    const statuses: SwapStatus[] = [];
    const first = await runSwap(
      { chainId: 1, account, request: request(), quote, signal: stop.signal },
      deps(statuses, {
        // The worker is stopped after a few failed polls.
        sleep: async (ms) => {
          if (proxy.hits.filter(isTracking).length >= 6) stop.abort();
          await new Promise((resolve) => setTimeout(resolve, ms));
        },
      }),
    );
    expect(first.status).toBe('sent');
    expect(first.failure).toBeNull();
    expect(proxy.hits.filter(isTracking).length).toBeGreaterThanOrEqual(6);
    // What survives the worker: the pending store and the history, both with the swap.
    const [saved] = await createPendingSwapStore().list();
    expect(saved).toMatchObject({ id: first.id, status: 'sent', tx: { hash: first.tx?.hash } });
    expect((await createSwapHistory().list())[0]).toMatchObject({
      id: first.id,
      status: 'pending',
      hash: first.tx?.hash,
    });

    // A new worker starts (the background services, as entrypoints/background.ts builds them)
    // while the RPC is still down: it resumes the swap and keeps it pending.
    await settingsItem.set({ ...DEFAULT_SETTINGS, rpcOverrides: { '1': proxy.url } });
    clearPublicClients();
    const downHits = proxy.hits.filter(isTracking).length;
    const restarted = createBackgroundServices();
    await restarted.ready;
    await until(() => proxy.hits.filter(isTracking).length > downHits + 1);
    expect((await createPendingSwapStore().list()).map((s) => s.status)).toEqual(['sent']);
    // While it is being tracked, the restarted background refuses a second swap.
    await expect(restarted.swaps.start({ approvalMode: 'exact' })).rejects.toMatchObject({
      code: 'SWAP_IN_PROGRESS',
    });

    // The RPC comes back: the resumed tracking confirms the swap, in the history, nothing pending.
    proxy.clear();
    const started = performance.now();
    await until(async () => (await createSwapHistory().list())[0]?.status === 'confirmed');
    const ms = performance.now() - started;
    durations.push({
      step: 'track',
      fault: 'reset until a restart, then up',
      ms: Math.round(ms),
      faulted: downHits,
      sends: sendHits().length,
    });
    const history = await createSwapHistory().list();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ id: first.id, status: 'confirmed', hash: first.tx?.hash });
    expect(await createPendingSwapStore().list()).toEqual([]);
    expect(await nonceOf(account.address)).toBe(nonceBefore + 1);
    expect(restarted.swaps.current()).toMatchObject({ id: first.id, status: 'confirmed' });
    restarted.session.dispose();
  });
});

/** Polls a condition every 20 ms; the test's own timeout bounds it. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

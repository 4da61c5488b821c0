// The swap pipeline end to end on the devnet and the reference service: every route kind
// confirms with exactly the quoted output (nothing traded in between) or at least minReceived
// (something did); tampered builds and failed checks are refused before anything is signed
// (the account's nonce does not move); a sent swap survives a restart; a dropped one is said so.
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  type LocalAccount,
  maxUint256,
  type TestClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { swapRouterAbi, tetherTokenAbi } from '../../devnet/abi';
import { TEST_MNEMONIC } from '../../devnet/accounts';
import type { ManifestChain } from '../../devnet/manifest';
import { createSwapApiClient, type SwapApiClient } from '../../lib/api/client';
import { NATIVE_TOKEN_ADDRESS, type Quote, type QuoteRequest } from '../../lib/api/schema';
import { isLocalRpcUrl } from '../../lib/chains';
import { viemChainFor } from '../../lib/chains/viem';
import { createBalanceReader } from '../../lib/rpc/balances';
import { feeCeilingFor } from '../../lib/rpc/fee-ceiling';
import { clearPublicClients, publicClientFor, type RpcClient, rpcUrlFor } from '../../lib/rpc/network';
import type { SwapState, SwapStatus } from '../../lib/state/pipeline-state';
import {
  createPendingSwapStore,
  createSwapMachine,
  resumePendingSwaps,
  type SwapDeps,
  type SwapMachine,
} from '../../lib/swap/execute';
import { createSigningFunnel } from '../../lib/swap/funnel';
import { createSwapHistory } from '../../lib/swap/history';
import { replacementPlan } from '../../lib/swap/replace';
import { createRouterPins } from '../../lib/swap/router-pins';
import { preflightSwap, simulateSwap } from '../../lib/swap/simulate';
import { addDerivedAccount, createKeyring, signerFor } from '../../lib/wallet/keyring';
import { type EmbeddedDefault, startEmbeddedDefault } from '../../scripts/embedded';
import { recordingDeps } from '../support/swap-deps';

/** One swap through the machine the background runs (lib/background/swaps.ts builds the same). */
const runSwap = (
  input: Parameters<ReturnType<typeof createSwapMachine>['run']>[0],
  deps: Parameters<typeof createSwapMachine>[0],
) => createSwapMachine(deps).run(input);

const E18 = 10n ** 18n;
const E6 = 10n ** 6n;
const TIMING = { pollMs: 20, dropAfterMs: 600, rebroadcastMs: 300 };

let embedded: EmbeddedDefault;
let chain: ManifestChain;
let client: RpcClient;
let testClient: TestClient;
let api: SwapApiClient;
const signers: LocalAccount[] = [];
let kicker: ReturnType<typeof startKicker>;

const token = (symbol: string): Address => {
  const found = chain.tokens.find((t) => t.symbol === symbol);
  if (!found) throw new Error(`no ${symbol}`);
  return found.address;
};
const signer = (i: number): LocalAccount => {
  const s = signers[i];
  if (!s) throw new Error(`no signer ${i}`);
  return s;
};

/**
 * Anvil's automine now and then leaves a ready transaction in its pool (foundry-rs/foundry#10122,
 * see service-exec.test.ts): mine a block by hand when one sits there for a second.
 */
function startKicker() {
  let paused = false;
  let seenAt = 0;
  const timer = setInterval(async () => {
    if (paused) return;
    try {
      const status = (await client.request({ method: 'txpool_status' } as never)) as { pending: Hex };
      if (BigInt(status.pending) === 0n) {
        seenAt = 0;
      } else if (seenAt === 0) {
        seenAt = Date.now();
      } else if (Date.now() - seenAt > 1_000 && !paused) {
        seenAt = 0;
        await testClient.mine({ blocks: 1 });
      }
    } catch {
      // the devnet is stopping
    }
  }, 200);
  return {
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
    },
    stop: () => clearInterval(timer),
  };
}

beforeAll(async () => {
  embedded = await startEmbeddedDefault({ ports: { ethereum: 0, base: 0, service: 0 } });
  const eth = embedded.devnet.manifest.chains.find((c) => c.chainId === 1);
  if (!eth) throw new Error('no ethereum chain');
  chain = eth;
  clearPublicClients();
  client = publicClientFor(1, { rpcOverrides: { '1': chain.rpcUrl } });
  testClient = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) });
  api = createSwapApiClient({ baseUrl: embedded.service.url });
  // The keyring's signer, as the background will use it: accounts 0..2 of the test mnemonic.
  const keyring = await createKeyring(TEST_MNEMONIC);
  let meta = keyring.meta;
  for (let i = 1; i < 3; i++) meta = (await addDerivedAccount(meta, keyring.secrets)).meta;
  for (const account of meta.accounts) signers.push(await signerFor(keyring.secrets, meta, account.id));
  kicker = startKicker();
});

afterAll(async () => {
  kicker?.stop();
  await embedded?.stop();
});

beforeEach(async () => {
  fakeBrowser.reset();
  await createRouterPins().pin(1, chain.router);
});

function deps(extra: Partial<SwapDeps> = {}): SwapDeps & { statuses: SwapStatus[] } {
  const statuses: SwapStatus[] = [];
  return { ...recordingDeps({ client, api, timing: TIMING }, statuses, extra), statuses };
}

function requestOf(inToken: string, outToken: string, inAmount: bigint, slippage = 0.5): QuoteRequest {
  return { chainId: 1, inToken, outToken, inAmount: inAmount.toString(), slippage };
}

async function quoteOf(request: QuoteRequest): Promise<Quote> {
  return (await api.quote(request)).quote;
}

async function balance(owner: Address, tokenAddress: string): Promise<bigint> {
  const reader = createBalanceReader({ client, chainId: 1 });
  const snapshot = await reader.read(owner, [tokenAddress]);
  const value = snapshot.balances.get(tokenAddress.toLowerCase());
  if (value === undefined) throw new Error(`no balance of ${tokenAddress}`);
  return value;
}

async function nonces(owner: Address) {
  return {
    latest: await client.getTransactionCount({ address: owner, blockTag: 'latest' }),
    pending: await client.getTransactionCount({ address: owner, blockTag: 'pending' }),
  };
}

function gasOfApprovals(state: SwapState): bigint {
  return (state.approval?.txs ?? []).reduce((sum, tx) => sum + BigInt(tx.gasPaid ?? '0'), 0n);
}

/** Quote, run the pipeline, and check the received amount against the quote and the balances. */
async function swapAndCheck(
  who: number,
  request: QuoteRequest,
  options: { approvalMode?: 'exact' | 'unlimited' } = {},
) {
  const account = signer(who);
  const quote = await quoteOf(request);
  const beforeOut = await balance(account.address, request.outToken);
  const beforeIn = await balance(account.address, request.inToken);
  const d = deps();
  const state = await runSwap(
    { chainId: 1, account, request, quote, approvalMode: options.approvalMode ?? 'exact' },
    d,
  );
  expect(state.failure, JSON.stringify(state.failure)).toBeNull();
  expect(state.status).toBe('confirmed');
  const outcome = state.outcome;
  if (!outcome || !state.tx) throw new Error('no outcome');
  // Nothing traded in between: exactly the quoted output, read from the receipt's logs.
  expect(outcome.received).toBe(quote.outAmount);
  expect(outcome.difference).toBe('0');
  expect(BigInt(outcome.gasPaid)).toBe(BigInt(outcome.gasUsed) * BigInt(outcome.effectiveGasPrice));
  // ...and the balances agree with the logs (native legs pay gas too).
  const gas = BigInt(outcome.gasPaid) + gasOfApprovals(state);
  const nativeIn = request.inToken === NATIVE_TOKEN_ADDRESS;
  const nativeOut = request.outToken === NATIVE_TOKEN_ADDRESS;
  const afterOut = await balance(account.address, request.outToken);
  const afterIn = await balance(account.address, request.inToken);
  expect(afterOut - beforeOut + (nativeOut ? gas : 0n)).toBe(BigInt(quote.outAmount));
  expect(beforeIn - afterIn - (nativeIn ? gas : 0n)).toBe(BigInt(quote.inAmount));
  expect(state.tx.explorerUrl).toBe(`https://etherscan.io/tx/${state.tx.hash}`);
  expect(await createPendingSwapStore().list()).toEqual([]);
  const entry = (await createSwapHistory().list()).find((e) => e.id === state.id);
  expect(entry).toMatchObject({
    kind: 'swap',
    status: 'confirmed',
    hash: state.tx.hash,
    received: quote.outAmount,
  });
  return { state, quote, statuses: d.statuses };
}

describe('swaps confirm with exactly the quoted output', () => {
  it('native -> ERC-20 (ETH -> USDC), following every state', async () => {
    expect(isLocalRpcUrl(rpcUrlFor(1, { rpcOverrides: { '1': chain.rpcUrl } }))).toBe(true);
    const { state, statuses } = await swapAndCheck(0, requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), E18));
    expect(statuses).toEqual(['building', 'checking', 'simulating', 'signing', 'sent', 'confirmed']);
    expect(state.approval).toBeNull();
    expect(state.simulation).toMatchObject({
      preflight: 'passed',
      simulatedReceived: state.quote?.outAmount,
    });
  });

  it('ERC-20 -> native (DAI -> ETH, a split route) with an exact approval', async () => {
    const request = requestOf(token('DAI'), NATIVE_TOKEN_ADDRESS, 2_000n * E18);
    const { state, statuses, quote } = await swapAndCheck(1, request);
    expect(quote.bestRoute.length).toBeGreaterThan(1);
    expect(statuses).toEqual([
      'building',
      'checking',
      'approving',
      'simulating',
      'signing',
      'sent',
      'confirmed',
    ]);
    expect(state.approval).toMatchObject({ plan: 'approve', unlimited: false, allowance: '0' });
    expect(state.approval?.txs.map((tx) => [tx.step, tx.amount, tx.status])).toEqual([
      ['approve', request.inAmount, 'confirmed'],
    ]);
    // Exact approval: fully used by the swap.
    const left = await client.readContract({
      address: token('DAI'),
      abi: erc20Abi,
      functionName: 'allowance',
      args: [signer(1).address, chain.router],
    });
    expect(left).toBe(0n);
    const kinds = (await createSwapHistory().list()).map((e) => `${e.kind}:${e.status}`);
    expect(kinds).toEqual(['swap:confirmed', 'approval:confirmed']);
  });

  it('ERC-20 -> ERC-20 (USDC -> DAI) with an approval', async () => {
    const { state } = await swapAndCheck(2, requestOf(token('USDC'), token('DAI'), 1_000n * E6));
    expect(state.approval?.plan).toBe('approve');
  });

  it('USDT input: a short non-zero allowance is reset to zero first', async () => {
    const account = signer(0);
    const wallet = createWalletClient({ account, chain: viemChainFor(1), transport: http(chain.rpcUrl) });
    const hash = await wallet.writeContract({
      address: token('USDT'),
      abi: tetherTokenAbi,
      functionName: 'approve',
      args: [chain.router, 5n],
    });
    await createPublicClient({ transport: http(chain.rpcUrl) }).waitForTransactionReceipt({
      hash,
      pollingInterval: 20,
    });
    const { state } = await swapAndCheck(0, requestOf(token('USDT'), token('USDC'), 1_000n * E6));
    expect(state.approval).toMatchObject({ plan: 'reset-then-approve', allowance: '5' });
    expect(state.approval?.txs.map((tx) => [tx.step, tx.amount, tx.status])).toEqual([
      ['reset', '0', 'confirmed'],
      ['approve', String(1_000n * E6), 'confirmed'],
    ]);
    const approvals = (await createSwapHistory().list()).filter((e) => e.kind === 'approval');
    expect(approvals.map((e) => e.kind === 'approval' && e.reset)).toEqual([false, true]);
  });

  it('a split route (100 ETH -> USDC over Uniswap V3 and V2 pools)', async () => {
    const request = requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), 100n * E18);
    const { quote } = await swapAndCheck(1, request);
    expect(quote.bestRoute.length).toBeGreaterThan(1);
    const dexes = new Set(quote.bestRoute.flatMap((share) => share.swaps.map((swap) => String(swap.dex))));
    expect(dexes.has('uniswap-v3')).toBe(true);
    expect([...dexes].some((dex) => dex !== 'uniswap-v3')).toBe(true);
  });

  it('a two-hop route (LINK -> UNI through a hub), with the unlimited approval the user chose', async () => {
    const request = requestOf(token('LINK'), token('UNI'), 100n * E18);
    const { state, quote } = await swapAndCheck(2, request, { approvalMode: 'unlimited' });
    expect(quote.bestRoute.every((share) => share.swaps.length === 2)).toBe(true);
    expect(state.approval).toMatchObject({ plan: 'approve', unlimited: true });
    expect(state.approval?.txs[0]?.amount).toBe(maxUint256.toString());
  });
});

describe('prices that move', () => {
  it('receives less than outAmount but at least minReceived when another account traded first', async () => {
    const request = requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), 5n * E18, 1);
    const quote = await quoteOf(request);
    // Account 1 buys USDC with ETH first: the pool gives account 0 a little less.
    const other = await runSwap(
      {
        chainId: 1,
        account: signer(1),
        request: requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), 2n * E18),
        quote: null,
      },
      deps(),
    );
    expect(other.status).toBe('confirmed');
    const state = await runSwap({ chainId: 1, account: signer(0), request, quote }, deps());
    expect(state.status, JSON.stringify(state.failure)).toBe('confirmed');
    const received = BigInt(state.outcome?.received ?? '0');
    expect(received).toBeLessThan(BigInt(quote.outAmount));
    expect(received).toBeGreaterThanOrEqual(BigInt(quote.minReceived));
    expect(BigInt(state.outcome?.difference ?? '0')).toBe(received - BigInt(quote.outAmount));
  });

  it('re-quotes and rebuilds once when the service says the quote is outdated', async () => {
    const request = requestOf(NATIVE_TOKEN_ADDRESS, token('DAI'), E18);
    const quote = await quoteOf(request);
    await testClient.mine({ blocks: 25 }); // past the ethereum limit of 20
    const d = deps();
    const state = await runSwap({ chainId: 1, account: signer(0), request, quote }, d);
    expect(state.status, JSON.stringify(state.failure)).toBe('confirmed');
    expect(state.requotes).toBe(1);
    expect(d.statuses.slice(0, 3)).toEqual(['building', 'quoting', 'building']);
    expect(state.quote?.blockNumber).toBeGreaterThan(quote.blockNumber);
  });

  it('re-quotes a stale quote, and stops when the new one guarantees less than the confirmed one', async () => {
    const request = requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), 3n * E18);
    const quote = await quoteOf(request);
    const moved = await runSwap(
      {
        chainId: 1,
        account: signer(2),
        request: requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), 20n * E18),
        quote: null,
      },
      deps(),
    );
    expect(moved.status).toBe('confirmed');
    const before = await nonces(signer(0).address);
    const state = await runSwap({ chainId: 1, account: signer(0), request, quote, quoteStale: true }, deps());
    expect(state.status).toBe('failed');
    expect(state.failure).toMatchObject({ code: 'PRICE_CHANGED', step: 'quote', anythingSent: false });
    expect(BigInt(state.quote?.minReceived ?? '0')).toBeLessThan(BigInt(quote.minReceived));
    expect(await nonces(signer(0).address)).toEqual(before);
  });
});

/** An API client whose answers a test rewrites: the service turned hostile. */
function tamperedApi(edit: {
  quote?: (quote: Quote) => Quote;
  build?: (build: { to: string; transaction: string; value: string }) => {
    to: string;
    transaction: string;
    value: string;
  };
}): SwapDeps['api'] {
  return {
    async quote(request, opts) {
      const answer = await api.quote(request, opts);
      return { ...answer, quote: edit.quote ? edit.quote(answer.quote) : answer.quote };
    },
    async build(quote, opts) {
      const answer = await api.build(quote, opts);
      return { ...answer, build: edit.build ? edit.build(answer.build) : answer.build };
    },
  };
}

/** Runs a refused swap and checks nothing at all was sent: same nonces, same balance. */
async function expectRefused(
  who: number,
  request: QuoteRequest,
  edit: Parameters<typeof tamperedApi>[0],
  options: { quote?: Quote | null } = {},
): Promise<SwapState> {
  const account = signer(who);
  const before = await nonces(account.address);
  const held = await balance(account.address, request.inToken);
  const d = deps({ api: tamperedApi(edit) });
  const state = await runSwap(
    { chainId: 1, account, request, quote: options.quote === undefined ? null : options.quote },
    d,
  );
  expect(d.statuses).not.toContain('signing');
  expect(d.statuses).not.toContain('approving');
  expect(state.tx).toBeNull();
  if (state.failure) expect(state.failure.anythingSent).toBe(false);
  expect(await nonces(account.address)).toEqual(before);
  expect(await balance(account.address, request.inToken)).toBe(held);
  expect(await createSwapHistory().list()).toEqual([]);
  return state;
}

describe('refused before signing: nothing is sent', () => {
  const ethToUsdc = () => requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), E18);

  it('a build whose `to` is not the pinned router asks for consent', async () => {
    const state = await expectRefused(0, ethToUsdc(), { build: (b) => ({ ...b, to: chain.executor }) });
    expect(state.status).toBe('needs-consent');
    expect(state.consent).toEqual({ kind: 'ROUTER_CHANGED', router: chain.executor, pinned: chain.router });
  });

  it('a build with the wrong value', async () => {
    const state = await expectRefused(0, ethToUsdc(), {
      build: (b) => ({ ...b, value: (BigInt(b.value) + 1n).toString() }),
    });
    expect(state.failure).toMatchObject({ code: 'BUILD_REJECTED', step: 'check' });
    const erc20In = await expectRefused(0, requestOf(token('WBTC'), token('DAI'), 10n ** 7n), {
      build: (b) => ({ ...b, value: '1' }),
    });
    expect(erc20In.failure).toMatchObject({ code: 'BUILD_REJECTED', step: 'check' });
  });

  it('a quote whose minReceived is above its outAmount', async () => {
    const request = ethToUsdc();
    const honest = await quoteOf(request);
    const quote = { ...honest, minReceived: (BigInt(honest.outAmount) + 1n).toString() };
    const given = await expectRefused(0, request, {}, { quote });
    expect(given.failure).toMatchObject({ code: 'QUOTE_REJECTED', step: 'quote' });
    expect(given.failure?.message.title).toBe('Quote is inconsistent');
    // The same from a re-quote (a hostile service): refused before /build.
    const requoted = await expectRefused(0, request, { quote: (q) => ({ ...q, minReceived: q.inAmount }) });
    expect(requoted.failure).toMatchObject({ code: 'QUOTE_REJECTED' });
    expect(requoted.build).toBeNull();
  });

  it('calldata paying someone else', async () => {
    const thief = privateKeyToAccount(generatePrivateKey()).address;
    const state = await expectRefused(0, ethToUsdc(), {
      build: (b) => ({ ...b, transaction: reencode(b.transaction as Hex, { recipient: thief }) }),
    });
    expect(state.failure).toMatchObject({ code: 'BUILD_REJECTED' });
    expect(state.failure?.detail).toContain('recipient');
  });

  it('calldata that reverts: decoded, and no approval is spent on it', async () => {
    const raise = (b: { to: string; transaction: string; value: string }) => {
      const { args } = decodeFunctionData({ abi: swapRouterAbi, data: b.transaction as Hex });
      const out = (args[3] as bigint) * 2n; // a minimum no pool can pay: the router reverts
      return { ...b, transaction: reencode(b.transaction as Hex, { minReceived: out }) };
    };
    const native = await expectRefused(0, ethToUsdc(), { build: raise });
    expect(native.failure).toMatchObject({ code: 'SIMULATION_REVERTED', step: 'preflight' });
    expect(native.failure?.revert?.name).toBe('InsufficientOutput');
    expect(native.failure?.message.title).toBe('This swap would fail');
    // ERC-20 input with no allowance yet (account 1 never sold WBTC): the preflight simulates the
    // approval and the swap together, so the revert is found before the approval is sent.
    const erc20 = await expectRefused(1, requestOf(token('WBTC'), token('USDC'), 10n ** 7n), {
      build: raise,
    });
    expect(erc20.failure).toMatchObject({ code: 'SIMULATION_REVERTED', step: 'preflight' });
    expect(erc20.approval?.plan).toBe('approve');
    expect(erc20.approval?.txs).toEqual([]);
  });

  it('simulateSwap (eth_call + estimateGas) decodes the same revert', async () => {
    const request = ethToUsdc();
    const quote = await quoteOf(request);
    const { build } = await api.build(quote);
    const data = reencode(build.transaction as Hex, { minReceived: BigInt(quote.outAmount) + 1n });
    const result = await simulateSwap(client, {
      from: signer(0).address,
      swap: { to: build.to as Address, data, value: BigInt(build.value) },
      minReceived: BigInt(quote.minReceived),
    });
    expect(result.ok).toBe(false);
    if (!result.ok && result.kind === 'reverted') {
      expect(result.revert.name).toBe('InsufficientOutput');
      expect(result.revert.text).toContain(quote.outAmount);
    } else {
      throw new Error(`expected a revert, got ${JSON.stringify(result)}`);
    }
    const honest = await simulateSwap(client, {
      from: signer(0).address,
      swap: { to: build.to as Address, data: build.transaction as Hex, value: BigInt(build.value) },
      minReceived: BigInt(quote.minReceived),
    });
    expect(honest).toMatchObject({ ok: true, received: BigInt(quote.outAmount) });
  });

  it('preflightSwap reads what the user receives, whatever the calldata says', async () => {
    const request = requestOf(token('USDC'), token('WBTC'), 500n * E6);
    const quote = await quoteOf(request);
    const { build } = await api.build(quote);
    const from = signer(2).address;
    const approve = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [chain.router, 500n * E6],
    });
    const approvals = [{ to: token('USDC'), data: approve }];
    const run = (data: Hex) =>
      preflightSwap(client, {
        from,
        approvals,
        swap: { to: build.to as Address, data, value: 0n },
        outToken: request.outToken,
        minReceived: BigInt(quote.minReceived),
      });
    expect(await run(build.transaction as Hex)).toMatchObject({
      status: 'passed',
      received: BigInt(quote.outAmount),
    });
    // Output paid to another address reads as nothing received.
    const thief = privateKeyToAccount(generatePrivateKey()).address;
    expect(await run(reencode(build.transaction as Hex, { recipient: thief }))).toEqual({
      status: 'output-low',
      received: 0n,
      minReceived: BigInt(quote.minReceived),
    });
  });

  it('a first router asks for consent, and the consented run pins it and confirms', async () => {
    fakeBrowser.reset(); // no pin yet
    const request = ethToUsdc();
    const first = await expectRefused(0, request, {});
    expect(first.status).toBe('needs-consent');
    expect(first.consent).toEqual({ kind: 'ROUTER_UNPINNED', router: chain.router, pinned: null });
    expect(first.failure).toBeNull();
    const second = await runSwap(
      { chainId: 1, account: signer(0), request, quote: null, routerConsent: first.consent?.router ?? '' },
      deps(),
    );
    expect(second.status).toBe('confirmed');
    expect(await createRouterPins().get(1)).toBe(chain.router);
  });
});

describe('balances, RPC and nonces', () => {
  it('insufficient input balance, and insufficient native coin for gas, before anything is sent', async () => {
    const poor = privateKeyToAccount(generatePrivateKey());
    const request = requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), E18);
    const none = await runSwap({ chainId: 1, account: poor, request, quote: null }, deps());
    expect(none.failure).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      step: 'balance',
      anythingSent: false,
    });
    expect(none.failure?.message.title).toBe('Insufficient balance');
    // Exactly the amount, nothing left for gas.
    await testClient.setBalance({ address: poor.address, value: E18 });
    const noGas = await runSwap({ chainId: 1, account: poor, request, quote: null }, deps());
    expect(noGas.failure).toMatchObject({ code: 'INSUFFICIENT_GAS_FUNDS', anythingSent: false });
    expect(noGas.failure?.message.title).toBe('Not enough ETH for gas');
    expect(await client.getTransactionCount({ address: poor.address })).toBe(0);
    // Tokens but no coin at all: refused before the approval would have been sent.
    const usdc = await runSwap(
      { chainId: 1, account: poor, request: requestOf(token('USDC'), token('DAI'), 0n + 1n), quote: null },
      deps(),
    );
    expect(usdc.failure).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
  });

  it('an unreachable RPC gives a clear error and sends nothing', async () => {
    const dead = publicClientFor(1, { rpcOverrides: { '1': 'http://127.0.0.1:9' } }, { retryCount: 0 });
    const started = Date.now();
    const state = await runSwap(
      {
        chainId: 1,
        account: signer(0),
        request: requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), E18),
        quote: null,
      },
      deps({ client: dead }),
    );
    expect(state.failure).toMatchObject({ code: 'RPC_UNAVAILABLE', step: 'network', anythingSent: false });
    // The cause and the host, never a generic connection hint.
    expect(state.failure?.message).toMatchObject({ title: 'The RPC at 127.0.0.1:9 could not be reached' });
    expect(state.failure?.message.detail).toContain('Nothing was sent.');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a nonce the node refuses gives a clear error and nothing is sent', async () => {
    const account = signer(0);
    const before = await nonces(account.address);
    expect(before.latest).toBeGreaterThan(0);
    // An RPC whose pending nonce lags (a load balancer behind another node).
    const lagging = {
      ...client,
      getTransactionCount: async () => before.latest - 1,
    } as RpcClient;
    const state = await runSwap(
      { chainId: 1, account, request: requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), E18), quote: null },
      deps({ client: lagging }),
    );
    expect(state.failure).toMatchObject({ code: 'NONCE_CONFLICT', step: 'send', anythingSent: false });
    expect(state.failure?.message.title).toBe('Transaction order conflict');
    expect(await nonces(account.address)).toEqual(before);
  });
});

describe('restart and drop', () => {
  it('a sent swap is persisted; a new machine resumes it after a restart and it confirms', async () => {
    kicker.pause();
    await testClient.setAutomine(false);
    try {
      const request = requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), 2n * E18);
      const quote = await quoteOf(request);
      const stop = new AbortController();
      const first = await runSwap(
        { chainId: 1, account: signer(2), request, quote, signal: stop.signal },
        deps({ onChange: (state) => state.status === 'sent' && stop.abort() }),
      );
      expect(first.status).toBe('sent');
      // The "restart": nothing survives but storage.
      const [saved] = await createPendingSwapStore().list();
      expect(saved).toMatchObject({ id: first.id, status: 'sent', tx: { hash: first.tx?.hash } });
      const pendingEntry = (await createSwapHistory().list())[0];
      expect(pendingEntry).toMatchObject({ kind: 'swap', status: 'pending', hash: first.tx?.hash });
      await testClient.setAutomine(true);
      await testClient.mine({ blocks: 1 });
      const [resumed] = await resumePendingSwaps(() => ({ client, api, timing: TIMING }));
      expect(resumed?.status).toBe('confirmed');
      expect(resumed?.outcome?.received).toBe(quote.outAmount);
      expect(await createPendingSwapStore().list()).toEqual([]);
      expect((await createSwapHistory().list())[0]).toMatchObject({ id: first.id, status: 'confirmed' });
    } finally {
      await testClient.setAutomine(true);
      kicker.resume();
    }
  });

  it('a restart during an approval: resume finishes the approval and closes the swap as interrupted', async () => {
    kicker.pause();
    await testClient.setAutomine(false);
    try {
      const account = signer(2);
      const request = requestOf(token('WBTC'), token('USDC'), 10n ** 6n);
      const stop = new AbortController();
      const first = await runSwap(
        { chainId: 1, account, request, quote: null, signal: stop.signal },
        deps({ onChange: (state) => state.approval?.txs.some((tx) => tx.sentAt !== null) && stop.abort() }),
      );
      expect(first.status).toBe('approving');
      expect(first.tx).toBeNull();
      await testClient.setAutomine(true);
      await testClient.mine({ blocks: 1 });
      const [resumed] = await resumePendingSwaps(() => ({ client, api, timing: TIMING }));
      expect(resumed?.failure).toMatchObject({ code: 'INTERRUPTED', step: 'resume', anythingSent: true });
      expect(resumed?.failure?.message.detail).toContain(
        'Your token approval was sent; the swap itself was not.',
      );
      expect(resumed?.approval?.txs.map((tx) => tx.status)).toEqual(['confirmed']);
      const allowance = await client.readContract({
        address: token('WBTC'),
        abi: erc20Abi,
        functionName: 'allowance',
        args: [account.address, chain.router],
      });
      expect(allowance).toBe(10n ** 6n);
      expect((await createSwapHistory().list()).map((e) => `${e.kind}:${e.status}`)).toEqual([
        'approval:confirmed',
      ]);
      expect(await createPendingSwapStore().list()).toEqual([]);
    } finally {
      await testClient.setAutomine(true);
      kicker.resume();
    }
  });

  it('a swap signed but not broadcast before the restart is broadcast on resume, and confirms', async () => {
    kicker.pause();
    await testClient.setAutomine(false);
    try {
      const request = requestOf(NATIVE_TOKEN_ADDRESS, token('DAI'), E18);
      const stop = new AbortController();
      const sent = await runSwap(
        { chainId: 1, account: signer(0), request, quote: null, signal: stop.signal },
        deps({ onChange: (state) => state.status === 'sent' && stop.abort() }),
      );
      const tx = sent.tx;
      if (!tx) throw new Error('not sent');
      // Make it as if the worker died between persisting the signed bytes and broadcasting them.
      await testClient.dropTransaction({ hash: tx.hash as Hex });
      const store = createPendingSwapStore();
      await store.save({ ...sent, status: 'signing', tx: { ...tx, sentAt: null } });
      await testClient.setAutomine(true);
      const [resumed] = await resumePendingSwaps(() => ({ client, api, timing: TIMING }), store);
      expect(resumed?.status, JSON.stringify(resumed?.failure)).toBe('confirmed');
      expect(resumed?.tx?.hash).toBe(tx.hash);
      expect(resumed?.outcome?.received).toBe(sent.quote?.outAmount);
    } finally {
      await testClient.setAutomine(true);
      kicker.resume();
    }
  });

  it('a transaction the network dropped while the nonce moved on is reported as dropped', async () => {
    kicker.pause();
    await testClient.setAutomine(false);
    try {
      const account = signer(1);
      const stop = new AbortController();
      const first = await runSwap(
        {
          chainId: 1,
          account,
          request: requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), E18),
          quote: null,
          signal: stop.signal,
        },
        deps({ onChange: (state) => state.status === 'sent' && stop.abort() }),
      );
      expect(first.status).toBe('sent');
      const hash = first.tx?.hash as Hex;
      await testClient.dropTransaction({ hash });
      // Another transaction takes the same nonce (a "cancel" from another wallet).
      const wallet = createWalletClient({ account, chain: viemChainFor(1), transport: http(chain.rpcUrl) });
      await wallet.sendTransaction({ to: account.address, value: 0n, nonce: first.tx?.nonce });
      await testClient.mine({ blocks: 1 });
      const [resumed] = await resumePendingSwaps(() => ({ client, api, timing: TIMING }));
      expect(resumed?.failure).toMatchObject({ code: 'DROPPED', step: 'track', anythingSent: true });
      expect((await createSwapHistory().list())[0]).toMatchObject({ status: 'failed', hash });
    } finally {
      await testClient.setAutomine(true);
      kicker.resume();
    }
  });
});

/** The router call with some arguments replaced (what a hostile service could send). */
function reencode(data: Hex, replace: { minReceived?: bigint; recipient?: Address }): Hex {
  const { args } = decodeFunctionData({ abi: swapRouterAbi, data });
  const [inToken, outToken, inAmount, minReceived, route, recipient, refCode] = args as unknown as [
    Address,
    Address,
    bigint,
    bigint,
    readonly { percent: number; hops: readonly { pool: Address; tokenIn: Address; tokenOut: Address }[] }[],
    Address,
    bigint,
  ];
  return encodeFunctionData({
    abi: swapRouterAbi,
    functionName: 'swap',
    args: [
      inToken,
      outToken,
      inAmount,
      replace.minReceived ?? minReceived,
      route,
      replace.recipient ?? recipient,
      refCode,
    ],
  });
}

describe('speed up and cancel (same nonce, higher fees)', () => {
  /** Runs a swap until it is sent (automine off), then hands the machine and the run to `act`. */
  async function pendingSwap(account: LocalAccount, request: QuoteRequest) {
    const machine = createSwapMachine(deps());
    let sent: () => void = () => undefined;
    const isSent = new Promise<void>((resolve) => {
      sent = resolve;
    });
    const run = machine.run({ chainId: 1, account, request, quote: await quoteOf(request) });
    const poll = setInterval(() => machine.current()?.status === 'sent' && sent(), 10);
    await isSent;
    clearInterval(poll);
    return { machine, run };
  }

  /** What the background does on "Speed up"/"Cancel" then "Confirm": review in the funnel, take once, sign, send. */
  async function replaceThroughFunnel(
    machine: SwapMachine,
    kind: 'speed-up' | 'cancel',
    account: LocalAccount,
  ) {
    const funnel = createSigningFunnel({ ceilingFor: (chainId) => feeCeilingFor(chainId) });
    const { plan, fee } = await machine.planReplace(kind, account.address);
    const reviewed = funnel.take(funnel.review(plan, { shownFee: fee }).id, kind);
    const signed = await funnel.sign({ reviewed, client, signer: async () => account });
    return machine.sendReplacement(kind, signed);
  }

  it('speed up: the replacement is mined instead of the original and delivers the quoted output', async () => {
    kicker.pause();
    await testClient.setAutomine(false);
    try {
      const account = signer(1);
      const request = requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), E18 / 10n);
      const { machine, run } = await pendingSwap(account, request);
      const original = machine.current()?.tx;
      const replaced = await replaceThroughFunnel(machine, 'speed-up', account);
      expect(replaced.replacements).toMatchObject([{ kind: 'speed-up', replacedHash: original?.hash }]);
      expect(replaced.tx?.nonce).toBe(original?.nonce);
      expect(BigInt(replaced.tx?.maxFeePerGas ?? 0)).toBeGreaterThan(BigInt(original?.maxFeePerGas ?? 0));
      await testClient.setAutomine(true);
      await testClient.mine({ blocks: 1 });
      const done = await run;
      expect(done.status, JSON.stringify(done.failure)).toBe('confirmed');
      expect(done.tx?.hash).toBe(replaced.tx?.hash);
      expect(done.outcome?.received).toBe(done.quote?.outAmount);
      await expect(client.getTransactionReceipt({ hash: original?.hash as Hex })).rejects.toThrow();
    } finally {
      await testClient.setAutomine(true);
      kicker.resume();
    }
  });

  it('cancel: a 0-value self-transfer takes the nonce; no token moves, only the fee is paid', async () => {
    kicker.pause();
    await testClient.setAutomine(false);
    try {
      const account = signer(1);
      const request = requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), E18 / 10n);
      const ethBefore = await client.getBalance({ address: account.address });
      const usdcBefore = await balance(account.address, token('USDC'));
      const { machine, run } = await pendingSwap(account, request);
      const cancelled = await replaceThroughFunnel(machine, 'cancel', account);
      await testClient.setAutomine(true);
      await testClient.mine({ blocks: 1 });
      const done = await run;
      expect(done.status).toBe('failed');
      expect(done.failure).toMatchObject({ code: 'CANCELLED', step: 'track', anythingSent: true });
      expect(done.failure?.message.title).toBe('Swap cancelled');
      const receipt = await client.getTransactionReceipt({ hash: cancelled.tx?.hash as Hex });
      expect(receipt.to?.toLowerCase()).toBe(account.address.toLowerCase());
      expect(await balance(account.address, token('USDC'))).toBe(usdcBefore);
      const fee = receipt.gasUsed * receipt.effectiveGasPrice;
      expect(await client.getBalance({ address: account.address })).toBe(ethBefore - fee);
      expect((await createSwapHistory().list())[0]).toMatchObject({
        status: 'failed',
        hash: cancelled.tx?.hash,
      });
    } finally {
      await testClient.setAutomine(true);
      kicker.resume();
    }
  });

  it('refuses to replace a swap that is not waiting to be mined', async () => {
    const machine = createSwapMachine(deps());
    const request = requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), E18 / 100n);
    const done = await machine.run({
      chainId: 1,
      account: signer(1),
      request,
      quote: await quoteOf(request),
    });
    expect(done.status).toBe('confirmed');
    await expect(machine.planReplace('cancel', signer(1).address)).rejects.toMatchObject({
      code: 'NOT_PENDING',
    });
  });

  it('refuses to speed up or cancel from a forged stored transaction; nothing is signed', async () => {
    kicker.pause();
    await testClient.setAutomine(false);
    try {
      const account = signer(1);
      const request = requestOf(NATIVE_TOKEN_ADDRESS, token('USDC'), E18 / 100n);
      const { machine, run } = await pendingSwap(account, request);
      const saved = machine.current() as SwapState;
      const sent = saved.tx as NonNullable<SwapState['tx']>;
      // An outside writer plants bytes that pay itself, signed by its own key, under the swap's record.
      const thief = signer(2);
      const raw = await thief.signTransaction({
        chainId: 1,
        type: 'eip1559',
        to: thief.address,
        value: E18,
        gas: 21_000n,
        nonce: sent.nonce,
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 10n ** 11n,
      });
      const nonceBefore = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
      // The genuine record plans (it is the swap's own bytes).
      await expect(
        replacementPlan({
          state: saved,
          kind: 'cancel',
          from: account.address,
          fees: { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n },
        }),
      ).resolves.toMatchObject({ nonce: sent.nonce, to: account.address });
      for (const forged of [
        { ...sent, raw, hash: keccak256(raw) }, // consistent bytes, wrong signer
        { ...sent, raw }, // the record's hash, other bytes
      ]) {
        const fees = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n };
        for (const kind of ['cancel', 'speed-up'] as const) {
          await expect(
            replacementPlan({ state: { ...saved, tx: forged }, kind, from: account.address, fees }),
          ).rejects.toMatchObject({ code: 'STORED_TX_FORGED' });
        }
      }
      expect(await client.getTransactionCount({ address: account.address, blockTag: 'pending' })).toBe(
        nonceBefore,
      );
      await testClient.setAutomine(true);
      await testClient.mine({ blocks: 1 });
      expect((await run).status).toBe('confirmed');
    } finally {
      await testClient.setAutomine(true);
      kicker.resume();
    }
  });
});

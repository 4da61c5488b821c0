// The swap machine's steps one by one (lib/swap/step-*.ts, swap-ledger.ts, failure.ts), over a
// fake client and an in-memory ledger; the machine's whole run on a real chain is
// tests/integration/pipeline.test.ts.
import { type Hex, HttpRequestError, keccak256, parseTransaction, type TransactionReceipt } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it, vi } from 'vitest';
import { QuoteOutdatedError } from '@/lib/api/errors';
import { NATIVE_TOKEN_ADDRESS, type Quote, type QuoteRequest } from '@/lib/api/schema';
import { feeCeilingFor } from '@/lib/rpc/fee-ceiling';
import type { RpcClient } from '@/lib/rpc/network';
import type { ApprovalTxState, HistoryEntry, SwapState } from '@/lib/state/pipeline-state';
import { createSwapMachine } from '@/lib/swap/execute';
import { asFailure, checkAbort, Halt, SwapFailure } from '@/lib/swap/failure';
import { createSigningFunnel, type TransactionPlan } from '@/lib/swap/funnel';
import type { PendingSwapStore } from '@/lib/swap/pending-store';
import type { RouterPins } from '@/lib/swap/router-pins';
import { checkSwap } from '@/lib/swap/step-check';
import { checkGasFunds, readFunds } from '@/lib/swap/step-preflight';
import { buildSwap, checkQuote, requote } from '@/lib/swap/step-quote';
import { type FunnelSigning, finishApproval, signAndSend } from '@/lib/swap/step-send';
import { simulateStep } from '@/lib/swap/step-simulate';
import { resendSigned, trackSwap } from '@/lib/swap/step-track';
import { anythingSent, createLedger, failureOf, type Ledger } from '@/lib/swap/swap-ledger';
import { DAI, USDC } from '../support/addresses';
import { requestOf } from '../support/quotes';
import { ROUTER, sentTxFixture, swapStateFixture, USDC_DAI_BUILD, USDC_DAI_QUOTE } from '../support/swaps';

const ACCOUNT = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const ME = ACCOUNT.address;
const HASH = `0x${'ab'.repeat(32)}` as const;

const quote: Quote = USDC_DAI_QUOTE;
const request: QuoteRequest = requestOf(quote);
const build = USDC_DAI_BUILD;

function startState(over: Partial<SwapState> = {}): SwapState {
  return swapStateFixture({ status: 'building', account: ME, request, quote, ...over });
}

/** A pending-swap store over memory: what was saved and removed. */
function memoryLedgerStore(saved: SwapState[] = [], removed: string[] = []): PendingSwapStore {
  return {
    save: async (s) => void saved.push(s),
    remove: async (id) => void removed.push(id),
    list: async () => saved,
    verify: async () => true,
    sealUnsealed: async () => undefined,
  };
}

/** A ledger over memory: what was saved, removed, shown and recorded. */
function memoryLedger(state: SwapState | null = startState()) {
  const saved: SwapState[] = [];
  const removed: string[] = [];
  const shown: string[] = [];
  const history: HistoryEntry[] = [];
  const ledger = createLedger(
    memoryLedgerStore(saved, removed),
    {
      record: async (e) => void history.push(e),
      list: async () => history,
      verified: async () => history,
      sealUnsealed: async () => undefined,
      clear: async () => undefined,
    },
    () => 1_000,
    (s) => shown.push(s.status),
  );
  ledger.set(state);
  return { ledger, saved, removed, shown, history };
}

const THIEF = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
/** A signed EIP-1559 call to the router, as a swap's stored bytes. */
const signedBy = (account = ACCOUNT, nonce = 4) =>
  account.signTransaction({
    ...{ chainId: 1, type: 'eip1559', to: ROUTER, value: 0n, data: '0x' },
    ...{ gas: 21_000n, nonce, maxFeePerGas: 10n, maxPriorityFeePerGas: 1n },
  });

const stopOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as SwapFailure,
  );

describe('failure', () => {
  it('keeps a SwapFailure, names an unreachable RPC, and calls anything else unexpected', () => {
    const stop = new SwapFailure({ code: 'DROPPED', step: 'track' });
    expect(asFailure(stop, 'quote')).toBe(stop);
    const down = asFailure(new HttpRequestError({ url: 'http://x', status: 503 }), 'balance');
    expect([down.code, down.step]).toEqual(['RPC_UNAVAILABLE', 'balance']);
    expect(asFailure(new Error('bug'), 'check')).toMatchObject({ code: 'UNEXPECTED', detail: 'bug' });
  });

  it('cancels only on an aborted signal', () => {
    expect(() => checkAbort(undefined, 'quote')).not.toThrow();
    expect(() => checkAbort(AbortSignal.abort(), 'build')).toThrow(
      expect.objectContaining({ code: 'CANCELLED' }),
    );
  });
});

describe('swap-ledger', () => {
  it('persists each change, removes a terminal state, and shows every state in order', async () => {
    const { ledger, saved, removed, shown } = memoryLedger(null);
    expect(() => ledger.current()).toThrow('no swap in progress');
    await ledger.commit(startState());
    await ledger.moveTo('checking');
    await ledger.moveTo('confirmed');
    expect(saved.map((s) => s.status)).toEqual(['building', 'checking']);
    expect(removed).toEqual(['swap-1']);
    expect(shown).toEqual(['building', 'checking', 'confirmed']);
    expect(ledger.current().updatedAt).toBe(1_000);
  });

  it('says what was sent in every failure', () => {
    const approvalTx: ApprovalTxState = {
      ...sentTxFixture({ hash: HASH }),
      step: 'approve',
      amount: '1',
      status: 'confirmed',
      gasPaid: '1',
    };
    const s = startState({
      approval: {
        token: USDC,
        spender: ROUTER,
        plan: 'approve',
        unlimited: false,
        allowance: '0',
        required: '1',
        txs: [approvalTx],
      },
    });
    expect(anythingSent(s)).toEqual({ any: true, approval: true });
    const failure = failureOf(
      new SwapFailure({ code: 'SIMULATION_REVERTED', step: 'simulate', detail: 'x'.repeat(3_000) }),
      s,
    );
    expect(failure).toMatchObject({ step: 'simulate', code: 'SIMULATION_REVERTED', anythingSent: true });
    expect(failure.detail).toHaveLength(2_000);
    expect(anythingSent(startState())).toEqual({ any: false, approval: false });
  });
});

describe('quote and build steps', () => {
  it('refuses a quote for another request', () => {
    expect(() => checkQuote({ request, quote: { ...quote, inToken: DAI } })).toThrow(
      expect.objectContaining({ code: 'QUOTE_REJECTED', step: 'quote' }),
    );
  });

  it('re-quotes, and stops when the new minimum is below the confirmed one', async () => {
    const { ledger, shown } = memoryLedger();
    const worse = { ...quote, outAmount: '99900000000000000000', minReceived: '99400500000000000000' };
    const api = { quote: async () => ({ quote: worse }), build: async () => ({}) as never };
    const stop = await stopOf(
      requote({
        api: api as never,
        ledger,
        input: { request, quote },
        confirmedMin: BigInt(quote.minReceived),
      }),
    );
    expect(stop).toMatchObject({ code: 'PRICE_CHANGED', step: 'quote' });
    expect(shown).toEqual(['quoting', 'quoting']);
    expect(ledger.current().requotes).toBe(1);
  });

  it('builds again once after an outdated quote, then gives up', async () => {
    const { ledger } = memoryLedger();
    let builds = 0;
    const api = {
      quote: async () => ({ quote }),
      build: async () => {
        builds++;
        throw new QuoteOutdatedError({ endpoint: 'build', status: 409 });
      },
    };
    const stop = await stopOf(
      buildSwap({ api: api as never, ledger, input: { request, quote }, quote, confirmedMin: null }),
    );
    expect(stop).toMatchObject({ code: 'QUOTE_OUTDATED', step: 'build' });
    expect(builds).toBe(2);
  });
});

describe('check step', () => {
  it('halts at needs-consent for a router never used', async () => {
    const { ledger } = memoryLedger();
    const pins: RouterPins = { get: async () => null, pin: async () => undefined } as never;
    const error = await checkSwap({
      ledger,
      pins,
      input: { chainId: 1, request, from: ME },
      quote,
      build,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Halt);
    expect(ledger.current()).toMatchObject({ status: 'needs-consent', consent: { router: ROUTER } });
  });
});

describe('balance and preflight steps', () => {
  const reader = (held: bigint) => ({
    read: async () => ({
      chainId: 1,
      owner: ME,
      blockNumber: 1n,
      failed: [],
      balances: new Map([
        [USDC.toLowerCase(), held],
        [NATIVE_TOKEN_ADDRESS.toLowerCase(), 10n ** 18n],
      ]),
    }),
    invalidate: () => undefined,
  });

  it('stops when the input token held is less than the amount', async () => {
    const { ledger } = memoryLedger();
    const stop = await stopOf(
      readFunds({
        client: {} as RpcClient,
        ledger,
        reader: reader(99_999_999n),
        from: ME,
        quote,
        router: ROUTER,
      }),
    );
    expect(stop).toMatchObject({ code: 'INSUFFICIENT_BALANCE', step: 'balance' });
  });

  it('stops when the native coin cannot pay the simulated gas; else records the preflight', async () => {
    const fees = { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n };
    const passed = { status: 'passed', deltas: [], granted: [], gasUsed: [80n, 20n] } as never;
    const poor = memoryLedger();
    const funds = { nativeHeld: 1_249n, approvalCalls: [], fees };
    const stop = await stopOf(
      checkGasFunds({
        ledger: poor.ledger,
        quote,
        swapValue: 0n,
        funds,
        result: passed,
        gasMarginPercent: 25,
      }),
    );
    expect(stop).toMatchObject({ code: 'INSUFFICIENT_GAS_FUNDS', step: 'balance' });
    const { ledger } = memoryLedger();
    await checkGasFunds({
      ...{ ledger, quote, swapValue: 0n, result: passed, gasMarginPercent: 25 },
      funds: { ...funds, nativeHeld: 1_250n },
    });
    expect(ledger.current().simulation).toEqual({
      preflight: 'passed',
      gasEstimate: null,
      gasLimit: null,
      simulatedReceived: null,
    });
  });
});

describe('simulate step', () => {
  const swapCall = { to: ROUTER, data: '0x' as const, value: 0n };
  const fakeClient = (native: bigint) =>
    ({
      call: async () => ({ data: undefined }),
      estimateGas: async () => 100_000n,
      estimateFeesPerGas: async () => ({ maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }),
      request: async () => ({ baseFeePerGas: ['0x5', '0x5'], reward: [['0x1'], ['0x1']] }),
      getBalance: async () => native,
      chain: { id: 1 },
    }) as unknown as RpcClient;

  const simulating = (client: RpcClient, ledger: Ledger) => ({
    ...{ client, ledger, from: ME, swapCall, minReceived: 1n, gasMarginPercent: 25 },
  });

  it('stops when the gas at fresh fees is more than the native coin held', async () => {
    const { ledger } = memoryLedger();
    const stop = await stopOf(
      simulateStep({ ...simulating(fakeClient(1n), ledger), nativeBalance: async () => 1n }),
    );
    expect(stop).toMatchObject({ code: 'INSUFFICIENT_GAS_FUNDS', step: 'simulate' });
    expect(ledger.current().status).toBe('simulating');
  });

  it('stops before simulating when cancelled', async () => {
    const { ledger, shown } = memoryLedger();
    const stop = await stopOf(
      simulateStep({
        ...simulating(fakeClient(0n), ledger),
        nativeBalance: async () => 0n,
        signal: AbortSignal.abort(),
      }),
    );
    expect(stop).toMatchObject({ code: 'CANCELLED', step: 'simulate' });
    expect(shown).toEqual([]);
  });
});

describe('send and track steps', () => {
  const sendingClient = (send: () => Promise<unknown>) =>
    ({
      chain: undefined,
      getChainId: async () => 1,
      getTransactionCount: async () => 7,
      sendRawTransaction: send,
    }) as unknown as RpcClient;
  const fees = { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n };
  const PLAN: TransactionPlan = {
    ...{ kind: 'swap', chainId: 1, from: ME, to: ROUTER, data: '0x', value: 0n },
    ...{ gas: 21_000n, gasUsed: 21_000n, fees },
  };
  /** The real funnel, with a ceiling, signing as `account`. */
  const signing = (ceiling = feeCeilingFor(1), account = ACCOUNT): FunnelSigning => ({
    funnel: createSigningFunnel({ ceilingFor: () => ceiling, now: () => 1_000 }),
    signer: async () => account,
  });

  it('persists the signed transaction before broadcasting; no answer still counts as sent', async () => {
    const { ledger } = memoryLedger();
    const persisted: unknown[] = [];
    const down = async () => {
      throw new HttpRequestError({ url: 'http://x', status: 502 });
    };
    const tx = await signAndSend({
      ...{ client: sendingClient(down), ledger, plan: PLAN, signing: signing(), step: 'send' },
      persistSigned: async (t) => {
        persisted.push(t);
      },
    });
    expect(persisted).toEqual([{ ...tx, sentAt: null }]);
    expect(tx).toMatchObject({ nonce: 7, sentAt: 1_000, gasLimit: '21000' });
  });

  it('names a refused send', async () => {
    const { ledger } = memoryLedger();
    const low = async () => {
      throw new Error('nonce too low');
    };
    const stop = await stopOf(
      signAndSend({
        ...{ client: sendingClient(low), ledger, plan: PLAN, signing: signing(), step: 'approve' },
        persistSigned: async () => undefined,
      }),
    );
    expect(stop).toMatchObject({ code: 'NONCE_CONFLICT', step: 'approve' });
  });

  it('signs nothing above the fee ceiling, above the simulated gas, or for another account (the funnel)', async () => {
    const { ledger } = memoryLedger();
    const send = vi.fn(async () => HASH);
    const sign = (plan: TransactionPlan, through = signing()) =>
      stopOf(
        signAndSend({
          ...{ client: sendingClient(send), ledger, plan, signing: through, step: 'send' },
          persistSigned: async () => undefined,
        }),
      );
    const low = signing({ maxFeePerGas: 9n, maxPriorityFeePerGas: 1n });
    expect(await sign(PLAN, low)).toMatchObject({ code: 'FEE_ABOVE_CEILING' });
    expect(await sign({ ...PLAN, gasUsed: 10_000n })).toMatchObject({ code: 'GAS_ABOVE_SIMULATION' });
    const other = privateKeyToAccount(`0x${'11'.repeat(32)}`);
    expect(await sign(PLAN, signing(feeCeilingFor(1), other))).toMatchObject({ code: 'WRONG_ACCOUNT' });
    expect(send).not.toHaveBeenCalled();
  });

  it('signs the reviewed swap on its ticket at no more per gas than the review showed', async () => {
    const { ledger } = memoryLedger();
    const through = signing();
    const shownFees = { maxFeePerGas: 8n, maxPriorityFeePerGas: 2n };
    const shown = { ...PLAN, fees: shownFees };
    const fee = {
      gasLimit: '21000',
      maxFeePerGas: '8',
      maxPriorityFeePerGas: '2',
      expected: '1',
      max: '1',
      capped: false,
    };
    const ticket = through.funnel.review(shown, { shownFee: fee });
    const taken = through.funnel.take(ticket.id, 'swap');
    const send = vi.fn(async () => HASH);
    const tx = await signAndSend({
      ...{ client: sendingClient(send), ledger, plan: PLAN, step: 'send' },
      signing: { ...through, reviewed: taken },
      persistSigned: async () => undefined,
    });
    // Fresh fees were 10/1 gwei: the reviewed 8 caps the fee per gas, the fresh 1 the priority fee.
    const { serializedTransaction } =
      (send.mock.calls as unknown as [{ serializedTransaction: `0x${string}` }][])[0]?.[0] ?? {};
    const signed = parseTransaction(serializedTransaction ?? '0x');
    expect(tx.maxFeePerGas).toBe('8');
    expect([signed.maxFeePerGas, signed.maxPriorityFeePerGas]).toEqual([8n, 1n]);
    // A second Confirm finds the ticket gone.
    expect(() => through.funnel.take(ticket.id, 'swap')).toThrow(
      expect.objectContaining({ code: 'REVIEW_USED' }),
    );
  });

  it('detaches from an approval when the signal aborts, and stops on a dropped one', async () => {
    const { ledger } = memoryLedger();
    const tx = { hash: HASH, nonce: 1, raw: '0x01', step: 'approve' } as ApprovalTxState;
    const aborted = await finishApproval({
      ledger,
      follow: async () => ({ kind: 'aborted' }),
      tx,
      from: ME,
    }).catch((e) => e);
    expect(aborted).toBeInstanceOf(Halt);
    const dropped = await stopOf(
      finishApproval({ ledger, follow: async () => ({ kind: 'dropped' }), tx, from: ME }),
    );
    expect(dropped).toMatchObject({ code: 'APPROVAL_FAILED', detail: 'approval dropped' });
  });

  it('records the outcome of a mined swap and confirms it', async () => {
    const { ledger, history } = memoryLedger(
      startState({ status: 'sent', tx: sentTxFixture({ hash: HASH }) }),
    );
    const receipt = {
      transactionHash: HASH,
      status: 'success',
      blockNumber: 5n,
      gasUsed: 100n,
      effectiveGasPrice: 3n,
      logs: [],
      to: ROUTER,
    } as unknown as TransactionReceipt;
    const invalidated: string[] = [];
    const done = await trackSwap({
      ledger,
      follow: async () => ({ kind: 'mined', receipt }),
      invalidate: (a) => invalidated.push(a),
    });
    expect(done.status).toBe('confirmed');
    expect(done.outcome).toMatchObject({
      status: 'success',
      gasPaid: '300',
      received: null,
      blockNumber: '5',
    });
    expect(invalidated).toEqual([ME]);
    expect(history).toHaveLength(1);
  });
});

describe('resending a swap signed before a restart', () => {
  /** A node that lost the transaction, its nonce not used yet; it records what it is sent. */
  function forgetfulNode() {
    const broadcast: Hex[] = [];
    const client = {
      getTransaction: async () => {
        throw new Error('Transaction not found');
      },
      getTransactionCount: async () => 4,
      getTransactionReceipt: async () => {
        throw new Error('Transaction receipt not found');
      },
      sendRawTransaction: async ({ serializedTransaction }: { serializedTransaction: Hex }) => {
        broadcast.push(serializedTransaction);
        return keccak256(serializedTransaction);
      },
    } as unknown as RpcClient;
    return { client, broadcast };
  }
  async function resend(raw: Hex, over: { hash?: Hex; nonce?: number } = {}) {
    const tx = sentTxFixture({
      raw,
      hash: over.hash ?? keccak256(raw),
      nonce: over.nonce ?? 4,
      sentAt: null,
    });
    const { ledger } = memoryLedger(startState({ status: 'signing', tx }));
    const node = forgetfulNode();
    const stop = await stopOf(resendSigned({ client: node.client, ledger, tx, resumeSendWindowMs: 60_000 }));
    return { stop, broadcast: node.broadcast, state: ledger.current() };
  }

  it("broadcasts the account's own stored transaction again, then it is sent", async () => {
    const raw = await signedBy();
    const { stop, broadcast, state } = await resend(raw);
    expect(stop).toBeNull();
    expect(broadcast).toEqual([raw]);
    expect(state).toMatchObject({ status: 'sent', tx: { hash: keccak256(raw), sentAt: 1_000 } });
  });

  it.each([
    ['bytes another key signed', async () => ({ raw: await signedBy(THIEF) }), /not signed by this account/],
    [
      'bytes that are not its hash',
      async () => ({ raw: await signedBy(), hash: HASH }),
      /does not match its hash/,
    ],
    ['bytes at another nonce', async () => ({ raw: await signedBy(ACCOUNT, 3) }), /not at the swap's nonce/],
  ] as const)('refuses %s from storage, broadcasting nothing', async (_label, make, words) => {
    const { raw, ...over } = await make();
    const { stop, broadcast, state } = await resend(raw, over);
    expect(broadcast).toEqual([]);
    expect(stop).toMatchObject({ code: 'INTERRUPTED', step: 'resume' });
    expect(stop?.user?.title).toBe('Saved swap not sent');
    expect(stop?.user?.detail).toMatch(words);
    expect(state.status).toBe('signing');
  });
});

describe('resuming after a restart', () => {
  const notFound = (name: string) => async () => {
    throw Object.assign(new Error(name), { name });
  };
  /** A node that lost every transaction, the account's nonce 4 still free; it records what it is sent. */
  function forgetfulNode() {
    const broadcast: Hex[] = [];
    const client = {
      getTransactionReceipt: notFound('TransactionReceiptNotFoundError'),
      getTransaction: notFound('TransactionNotFoundError'),
      getTransactionCount: async () => 4,
      sendRawTransaction: async ({ serializedTransaction }: { serializedTransaction: Hex }) => {
        broadcast.push(serializedTransaction);
        return keccak256(serializedTransaction);
      },
    } as unknown as RpcClient;
    return { client, broadcast };
  }
  /** Resumes `saved` on `client`: one round of tracking, then the view goes away. */
  function resumeOn(client: RpcClient, saved: SwapState) {
    const stop = new AbortController();
    const machine = createSwapMachine({
      client,
      api: {} as never,
      store: memoryLedgerStore(),
      timing: { pollMs: 0, rebroadcastMs: 0 },
      now: () => 1_000,
      sleep: async () => stop.abort(),
    });
    return machine.resume(saved, { signal: stop.signal });
  }
  const sent = (raw: Hex) =>
    startState({ status: 'sent', tx: sentTxFixture({ raw, hash: keccak256(raw), nonce: 4 }) });

  it("re-broadcasts a sent swap's stored bytes that are the account's own while the node lacks them", async () => {
    const raw = await signedBy(ACCOUNT, 4);
    const node = forgetfulNode();
    expect((await resumeOn(node.client, sent(raw))).status).toBe('sent');
    expect(node.broadcast).toEqual([raw]);
  });

  it('never broadcasts stored bytes another key signed: the swap is followed by its hash alone', async () => {
    const node = forgetfulNode();
    expect((await resumeOn(node.client, sent(await signedBy(THIEF, 4)))).status).toBe('sent');
    expect(node.broadcast).toEqual([]);
  });

  /** A swap stopped at its approval, signed but not recorded as sent. */
  async function approving() {
    const raw = await signedBy(ACCOUNT, 4);
    const tx: ApprovalTxState = {
      ...sentTxFixture({ raw, hash: keccak256(raw), nonce: 4, sentAt: null }),
      ...{ step: 'approve', amount: '1', status: 'pending', gasPaid: null },
    };
    const approval = { token: USDC, spender: ROUTER, plan: 'approve', unlimited: false } as const;
    return startState({
      status: 'approving',
      approval: { ...approval, allowance: '0', required: '1', txs: [tx] },
    });
  }

  it('an approval the node has though it was not recorded as sent is followed: the next review sees it', async () => {
    const saved = await approving();
    const hash = saved.approval?.txs[0]?.hash;
    const receipt = {
      transactionHash: hash,
      blockNumber: 9n,
      status: 'success',
      logs: [],
      gasUsed: 50n,
      effectiveGasPrice: 2n,
    };
    const client = {
      getTransaction: async () => ({ hash }),
      getTransactionReceipt: async () => receipt,
    } as unknown as RpcClient;
    const end = await resumeOn(client, saved);
    expect(end.approval?.txs.map((tx) => [tx.status, tx.gasPaid])).toEqual([['confirmed', '100']]);
    expect(end.failure).toMatchObject({ code: 'INTERRUPTED', anythingSent: true });
    expect(end.failure?.message.detail).toContain('Your token approval was sent; the swap itself was not.');
  });

  it('an approval the node does not have was never sent: left alone, nothing broadcast', async () => {
    const node = forgetfulNode();
    const end = await resumeOn(node.client, await approving());
    expect(end.approval?.txs.map((tx) => tx.status)).toEqual(['pending']);
    expect(end.failure).toMatchObject({ code: 'INTERRUPTED', anythingSent: false });
    expect(node.broadcast).toEqual([]);
  });
});

describe('the machine', () => {
  it('fails at the network step on an RPC of another chain, nothing sent', async () => {
    const client = { getChainId: async () => 10 } as unknown as RpcClient;
    const machine = createSwapMachine({
      client,
      api: { quote: async () => ({ quote }), build: async () => ({}) as never } as never,
      store: memoryLedgerStore(),
      now: () => 5,
      newId: () => 'swap-x',
    });
    const end = await machine.run({ chainId: 1, account: ACCOUNT, request, quote });
    expect(end).toMatchObject({
      id: 'swap-x',
      status: 'failed',
      failure: { code: 'RPC_WRONG_CHAIN', step: 'network' },
    });
    expect(end.failure?.anythingSent).toBe(false);
    expect(machine.current()).toBe(end);
  });
});

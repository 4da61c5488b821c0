// The signing funnel against the real devnet and reference service, through the background's own
// message handlers: a reviewed swap is signed as reviewed (its calldata, one /v1/build), a double
// Confirm runs one swap, a router that pays in full only at gas price 0 is refused, and a hostile RPC
// cannot make a revoke pay what it asks (capped and shown).
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DEPLOYER_KEY, TEST_MNEMONIC } from '../../devnet/accounts';
import { loadArtifact } from '../../devnet/artifacts';
import type { ManifestChain } from '../../devnet/manifest';
import { NATIVE_TOKEN_ADDRESS } from '../../lib/api/schema';
import { createHandlers, handleMessage } from '../../lib/background/router';
import { type BackgroundServices, createBackgroundServices } from '../../lib/background/services';
import type { Response } from '../../lib/messaging/protocol';
import { publicClientFor, type RpcClient } from '../../lib/rpc/network';
import { okSender, sessionQuoted, until } from '../support/background';
import { type FaultProxy, lyingFeeRules, onPath, onRpc } from '../support/fault-proxy';
import { type ProxiedDevnet, resetToProxies, startProxiedDevnet } from '../support/proxied-devnet';

const KDF = { iterations: 1_000, minIterations: 1_000 };
const PASSWORD = 'correct horse battery staple 42';
const GWEI = 10n ** 9n;

let net: ProxiedDevnet;
let chain: ManifestChain;
let service: FaultProxy;
let rpc: FaultProxy;
let client: RpcClient;
let services: BackgroundServices;
let account: Address;

const usdc = (): Address => net.token('USDC');

function send(message: unknown): Promise<Response> {
  return handleMessage(createHandlers(services), services, message, 'view');
}

const ok = okSender(send);
const quoted = (inToken: string, outToken: string, inAmount: bigint) =>
  sessionQuoted(services, inToken, outToken, inAmount);

/** The acknowledgements a review asks for, ticked. */
const ticks = (preview: { warnings: { code: string; needsAcknowledgement: boolean }[] }) =>
  preview.warnings.filter((w) => w.needsAcknowledgement).map((w) => w.code);

/** Waits for the swap started last to settle (confirmed or failed). */
async function settled() {
  return until(() => {
    const state = services.swaps.current();
    return state && (state.status === 'confirmed' || state.status === 'failed') ? state : null;
  }, 'the swap to settle');
}

type Preview = { digest: string } & Parameters<typeof ticks>[0];

/** The popup's Confirm of a review: its startSwap, with the acknowledgements it asks for ticked. */
const confirmOf = (preview: Preview, approvalMode: 'exact' | 'unlimited' = 'exact') =>
  ({ type: 'startSwap', approvalMode, quoteDigest: preview.digest, acknowledged: ticks(preview) }) as const;

/**
 * A double click on Confirm: both arrive before the first one's swap has been signed. Waits for the
 * swap to be confirmed; the account's pending nonce before is returned with it.
 */
async function doubleConfirm(preview: Preview) {
  const nonceBefore = await client.getTransactionCount({ address: account, blockTag: 'pending' });
  const confirm = confirmOf(preview);
  const [first, second] = await Promise.all([send(confirm), send(confirm)]);
  expect(first.ok && second.ok).toBe(true);
  const done = await settled();
  expect(done.status, JSON.stringify(done.failure)).toBe('confirmed');
  return { done, nonceBefore };
}

/** Reviews and confirms a swap of the session's quote, and waits until it is confirmed. */
async function swapQuoted(approvalMode: 'exact' | 'unlimited' = 'exact') {
  const preview = await ok({ type: 'previewSwap', approvalMode });
  await ok(confirmOf(preview, approvalMode));
  const done = await settled();
  expect(done.status, JSON.stringify(done.failure)).toBe('confirmed');
  return done;
}

beforeAll(async () => {
  net = await startProxiedDevnet();
  ({ chain, service, rpc } = net);
  client = publicClientFor(1, { rpcOverrides: { '1': chain.rpcUrl } });
});

afterAll(async () => {
  services?.session.dispose();
  await net?.stop();
});

beforeEach(async () => {
  services?.session.dispose();
  await resetToProxies(net);
  services = createBackgroundServices({ kdf: KDF });
  await services.ready;
  const wallet = await ok({
    type: 'walletImport',
    kind: 'mnemonic',
    secret: TEST_MNEMONIC,
    password: PASSWORD,
    confirmation: PASSWORD,
  });
  account = wallet.accounts[0]?.address as Address;
});

describe('the swap is signed as reviewed', () => {
  it('one /v1/build, the reviewed calldata on chain, and a double Confirm runs one swap', async () => {
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 10n ** 16n);
    service.hits.length = 0;
    rpc.hits.length = 0;
    const preview = await ok({ type: 'previewSwap', approvalMode: 'exact' });
    const simulations = rpc.hits.filter(onRpc('eth_simulateV1')).length;
    expect(simulations).toBeLessThanOrEqual(1);
    const { done, nonceBefore } = await doubleConfirm(preview);
    expect(await client.getTransactionCount({ address: account, blockTag: 'pending' })).toBe(nonceBefore + 1);
    const mined = await client.getTransaction({ hash: done.tx?.hash as Hex });
    expect(mined.input).toBe(preview.transaction.data);
    expect(mined.to?.toLowerCase()).toBe(preview.transaction.to.toLowerCase());
    // The review's build is the one signed: no second /v1/build, no second asset simulation.
    expect(service.hits.filter(onPath('/v1/build')).length).toBe(1);
    expect(rpc.hits.filter(onRpc('eth_simulateV1')).length).toBe(simulations);
  });

  it('a double Confirm of a swap that needs an approval signs one approval and one swap', async () => {
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 10n ** 17n);
    await swapQuoted();
    // Selling the USDC needs an approval, signed under the swap's review (no ticket of its own).
    await quoted(usdc(), NATIVE_TOKEN_ADDRESS, 10n ** 6n);
    const preview = await ok({ type: 'previewSwap', approvalMode: 'exact' });
    const { done, nonceBefore } = await doubleConfirm(preview);
    expect(done.approval?.txs.map((tx) => tx.status)).toEqual(['confirmed']);
    expect(await client.getTransactionCount({ address: account, blockTag: 'pending' })).toBe(nonceBefore + 2);
    // A third Confirm once it ran: the review is used, nothing more is signed.
    expect((await send(confirmOf(preview))).ok).toBe(false);
    expect(await client.getTransactionCount({ address: account, blockTag: 'pending' })).toBe(nonceBefore + 2);
  });
});

describe('a router that pays in full only when simulated at gas price 0', () => {
  const devnet = () => createPublicClient({ transport: http(chain.rpcUrl) });
  /** service/contracts/GasPriceRouter.sol on the devnet, running the real router underneath. */
  async function deployGasPriceRouter(): Promise<Address> {
    const artifact = loadArtifact('GasPriceRouter');
    const deployer = createWalletClient({
      account: privateKeyToAccount(DEPLOYER_KEY),
      transport: http(chain.rpcUrl),
    });
    const hash = await deployer.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: [chain.router],
      chain: null,
    });
    const receipt = await devnet().waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error('GasPriceRouter not deployed');
    return receipt.contractAddress;
  }

  /** The user's USDC balance change when `call` is simulated, with or without validation and fees. */
  async function usdcReceived(call: { to: Address; data: Hex; value: bigint }, withFees: boolean) {
    const readBalance = {
      account: account,
      to: usdc(),
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [account] }),
    };
    const block = await devnet().getBlock();
    const fees = withFees
      ? { maxFeePerGas: (block.baseFeePerGas ?? 0n) * 2n + GWEI, maxPriorityFeePerGas: GWEI }
      : {};
    const [simulated] = await client.simulateBlocks({
      blocks: [{ calls: [readBalance, { account, ...call, gas: 2_000_000n, ...fees }, readBalance] }],
      validation: withFees,
    });
    const [before, swap, after] = simulated?.calls ?? [];
    expect(swap?.status).toBe('success');
    return BigInt(after?.data ?? '0x0') - BigInt(before?.data ?? '0x0');
  }

  it('is refused at review (its simulation runs with validation and real fees), and nothing is signed', async () => {
    const hostile = await deployGasPriceRouter();
    // A hostile service: its build names its own router, with the honest router's calldata.
    let built: { to: Address; transaction: Hex; value: string } | undefined;
    service.add({
      match: onPath('/v1/build'),
      fault: {
        kind: 'rewrite',
        transform: (body) => {
          const parsed = JSON.parse(body);
          parsed.data.to = hostile;
          built = parsed.data;
          return JSON.stringify(parsed);
        },
      },
    });
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 10n ** 17n);
    const minReceived = BigInt(services.session.getState().quote?.minReceived ?? 0);
    const nonceBefore = await client.getTransactionCount({ address: account, blockTag: 'pending' });

    const refused = await send({ type: 'previewSwap', approvalMode: 'exact' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'ASSET_CHECK_FAILED' } });
    expect(refused.ok === false && refused.error.message).toMatch(
      /would not pay you what the quote promises/,
    );

    // The fixture does what it says, so the refusal above is the simulation's doing: at gas price 0
    // the user gets the whole output, at real fees a thousandth of it.
    if (!built) throw new Error('no build was asked for');
    const call = { to: built.to, data: built.transaction, value: BigInt(built.value) };
    expect(await usdcReceived(call, false)).toBeGreaterThanOrEqual(minReceived);
    expect(await usdcReceived(call, true)).toBeLessThan(minReceived / 100n);

    // Confirming anyway (the router consent included) signs nothing.
    const forced = await send({ type: 'startSwap', approvalMode: 'exact', routerConsent: hostile });
    const state = forced.ok ? await settled() : null;
    expect(state === null || state.status === 'failed').toBe(true);
    expect(await client.getTransactionCount({ address: account, blockTag: 'pending' })).toBe(nonceBefore);
  });
});

describe('a review survives a worker restart', () => {
  /** A new worker over the same storage, as entrypoints/background.ts builds it. */
  async function restartWorker() {
    services.session.dispose();
    services = createBackgroundServices({ kdf: KDF });
    await services.ready;
  }

  it('confirms after the worker restarts: the reviewed calldata, one build, and a second Confirm signs nothing', async () => {
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 10n ** 16n);
    service.hits.length = 0;
    const preview = await ok({ type: 'previewSwap', approvalMode: 'exact' });
    const nonceBefore = await client.getTransactionCount({ address: account, blockTag: 'pending' });
    await restartWorker();
    const confirm = confirmOf(preview);
    expect((await send(confirm)).ok).toBe(true);
    const done = await settled();
    expect(done.status, JSON.stringify(done.failure)).toBe('confirmed');
    const mined = await client.getTransaction({ hash: done.tx?.hash as Hex });
    expect(mined.input).toBe(preview.transaction.data);
    expect(service.hits.filter(onPath('/v1/build')).length).toBe(1);
    // The used review is gone, from memory and from storage.session: even after another restart.
    await restartWorker();
    const again = await send(confirm);
    expect(again).toMatchObject({ ok: false, error: { code: 'QUOTE_CHANGED' } });
    expect(await client.getTransactionCount({ address: account, blockTag: 'pending' })).toBe(nonceBefore + 1);
  });

  it('says why it cannot confirm when the stored review cannot be read back', async () => {
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 10n ** 16n);
    const preview = await ok({ type: 'previewSwap', approvalMode: 'exact' });
    const stored = (await fakeBrowser.storage.session.get('preparedSwap')).preparedSwap as {
      data: { call: { value: string } };
    };
    stored.data.call.value = '-1';
    await fakeBrowser.storage.session.set({ preparedSwap: stored });
    const nonceBefore = await client.getTransactionCount({ address: account, blockTag: 'pending' });
    await restartWorker();
    const refused = await send(confirmOf(preview));
    expect(refused).toMatchObject({ ok: false, error: { code: 'REVIEW_UNREADABLE' } });
    expect(refused.ok === false && refused.error.message).toMatch(/review the swap again/);
    expect(await client.getTransactionCount({ address: account, blockTag: 'pending' })).toBe(nonceBefore);
  });
});

describe('a hostile RPC on revoke', () => {
  /** An unlimited USDC approval granted by a swap, so that Activity offers to revoke it. */
  async function grantedApproval() {
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 10n ** 17n);
    await swapQuoted();
    await quoted(usdc(), NATIVE_TOKEN_ADDRESS, 10n ** 6n);
    await swapQuoted('unlimited');
    return { chainId: 1, token: usdc(), spender: chain.router };
  }

  it('caps a huge priority fee, an inflated fee history and an inflated gas estimate, and shows the fee', async () => {
    const grant = await grantedApproval();
    // The RPC: 1,000 gwei priority, a fee history that backs it, and 1,812,563 gas.
    for (const rule of lyingFeeRules(1_000n * GWEI, 1_812_563n)) rpc.add(rule);
    const review = await ok({ type: 'previewRevoke', ...grant });
    expect(BigInt(review.fee.maxPriorityFeePerGas)).toBeLessThanOrEqual(50n * GWEI);
    expect(BigInt(review.fee.gasLimit)).toBeLessThanOrEqual(120_000n);
    expect(review.fee.capped).toBe(true);
    const revoked = await ok({ type: 'revokeApproval', reviewId: review.reviewId });
    const signed = await client.getTransaction({ hash: revoked.hash as Hex });
    expect(signed.gas).toBe(BigInt(review.fee.gasLimit));
    expect(signed.maxPriorityFeePerGas).toBe(BigInt(review.fee.maxPriorityFeePerGas));
    expect(signed.maxFeePerGas).toBe(BigInt(review.fee.maxFeePerGas));
    // The review is used: a second Confirm signs nothing.
    const again = await send({ type: 'revokeApproval', reviewId: review.reviewId });
    expect(again).toMatchObject({ ok: false, error: { code: 'REVIEW_USED' } });
  });

  it('refuses with a specific message when the base fee is above the ceiling', async () => {
    const grant = await grantedApproval();
    await ok({
      type: 'updateSettings',
      settings: { ...services.settings(), feeCeilingsGwei: { '1': '0.000000001' } },
    });
    const refused = await send({ type: 'previewRevoke', ...grant });
    expect(refused).toMatchObject({ ok: false, error: { code: 'FEE_ABOVE_CEILING' } });
    expect(refused.ok === false && refused.error.message).toMatch(/above your ceiling of 0.000000001 gwei/);
  });
});

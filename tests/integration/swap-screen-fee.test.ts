// The swap screen's network fee (quoteFee, lib/background/handlers/fee.ts) against the review's on the
// devnet and the reference service, through the real background: on the first look, before any review,
// it is the review's figure within 5% (the review's own simulation of the quote's build, run early);
// a refresh of the same route costs the service no second build; a service that refuses the build
// leaves the remembered or estimated fee, said "about", and never a missing quote.
import { type Address, encodeFunctionData, erc20Abi } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { FUNDED_ACCOUNTS, TEST_MNEMONIC } from '../../devnet/accounts';
import type { ManifestChain } from '../../devnet/manifest';
import { NATIVE_TOKEN_ADDRESS } from '../../lib/api/schema';
import { createHandlers, handleMessage } from '../../lib/background/router';
import { type BackgroundServices, createBackgroundServices } from '../../lib/background/services';
import type { Response } from '../../lib/messaging/protocol';
import { clearPublicClients } from '../../lib/rpc/network';
import { DEFAULT_SETTINGS } from '../../lib/settings/settings';
import { settingsItem } from '../../lib/storage/items';
import { estimatedGas, swapGasMemory } from '../../lib/swap/network-fee';
import { QUOTE_OUTDATED_REASON } from '../../lib/swap/session';
import { type EmbeddedDefault, startEmbeddedDefault } from '../../scripts/embedded';
import { okSender, sessionQuoted, until } from '../support/background';
import { type FaultProxy, onPath, startFaultProxy } from '../support/fault-proxy';

const KDF = { iterations: 1_000, minIterations: 1_000 };
const PASSWORD = 'correct horse battery staple 42';

let embedded: EmbeddedDefault;
let chain: ManifestChain;
let service: FaultProxy;
let services: BackgroundServices;
/** Made once, as the background's listener makes them (the fee probe's reuse lives in them). */
let handlers: ReturnType<typeof createHandlers>;

const usdc = (): Address => {
  const found = chain.tokens.find((t) => t.symbol === 'USDC');
  if (!found) throw new Error('no USDC');
  return found.address;
};

function send(message: unknown): Promise<Response> {
  return handleMessage(handlers, services, message, 'view');
}

const ok = okSender(send);
const quoted = (inToken: string, outToken: string, inAmount: bigint) =>
  sessionQuoted(services, inToken, outToken, inAmount);

const builds = () => service.hits.filter(onPath('/v1/build')).length;

/** One JSON-RPC call to the devnet's Ethereum node. */
async function rpc(method: string, params: unknown[]): Promise<unknown> {
  const answer = await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await answer.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

/** The wallet's account (anvil's first, unlocked there) approves `spender` for `amount` of `token`. */
async function approveOnChain(token: Address, spender: Address, amount: bigint): Promise<void> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] });
  const hash = await rpc('eth_sendTransaction', [{ from: FUNDED_ACCOUNTS[0], to: token, data }]);
  for (let tries = 0; !(await rpc('eth_getTransactionReceipt', [hash])); tries++) {
    if (tries > 100) throw new Error('the approval was not mined');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  embedded = await startEmbeddedDefault({ ports: { ethereum: 0, base: 0, service: 0 } });
  const eth = embedded.devnet.manifest.chains.find((c) => c.chainId === 1);
  if (!eth) throw new Error('no ethereum chain');
  chain = eth;
  service = await startFaultProxy(embedded.service.url);
  clearPublicClients();
});

afterAll(async () => {
  services?.session.dispose();
  await service?.close();
  await embedded?.stop();
});

beforeEach(async () => {
  services?.session.dispose();
  fakeBrowser.reset();
  service.clear();
  await settingsItem.set({
    ...DEFAULT_SETTINGS,
    serviceBaseUrl: service.url,
    rpcOverrides: { '1': chain.rpcUrl },
  });
  services = createBackgroundServices({ kdf: KDF });
  handlers = createHandlers(services);
  await services.ready;
  await ok({
    type: 'walletImport',
    kind: 'mnemonic',
    secret: TEST_MNEMONIC,
    password: PASSWORD,
    confirmation: PASSWORD,
  });
});

describe("the swap screen's network fee", () => {
  const pairs = [
    { name: 'ETH -> USDC', args: () => [NATIVE_TOKEN_ADDRESS, usdc(), 10n ** 18n] as const },
    {
      name: 'USDC -> ETH (an approval first)',
      args: () => [usdc(), NATIVE_TOKEN_ADDRESS, 100n * 10n ** 6n] as const,
    },
  ];
  for (const { name, args } of pairs) {
    it(`${name}: the first look is the review's fee within 5 percent, simulated, not "about"`, async () => {
      const [inToken, outToken, amount] = args();
      await quoted(inToken, outToken, amount);
      const screen = await ok({ type: 'quoteFee', chainId: 1 });
      expect(screen?.basis).toBe('simulated');
      const preview = await ok({ type: 'previewSwap', approvalMode: 'exact' });
      const review = BigInt(preview.fees.totalExpected);
      const apart = Math.abs(Number(BigInt(screen?.expected ?? '0') - review)) / Number(review);
      console.log(
        `${name}: swap screen ${screen?.expected} wei, review ${review} wei (${(apart * 100).toFixed(2)}% apart)`,
      );
      expect(apart).toBeLessThanOrEqual(0.05);
      expect(screen?.approvalNeeded).toBe(preview.approval !== null);
      expect(BigInt(screen?.max ?? '0')).toBeGreaterThan(BigInt(screen?.expected ?? '0'));
    });
  }

  it('a refresh of the same route and amount costs the service no second build', async () => {
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 10n ** 17n);
    service.hits.length = 0;
    const first = await ok({ type: 'quoteFee', chainId: 1 });
    expect(first?.basis).toBe('simulated');
    expect(builds()).toBe(1);
    const before = services.session.getState().receivedAt;
    services.session.refreshNow();
    await until(
      () =>
        services.session.getState().status === 'ready' && services.session.getState().receivedAt !== before,
      'a refreshed quote',
    );
    const again = await ok({ type: 'quoteFee', chainId: 1 });
    expect(again?.basis).toBe('simulated');
    expect(again?.gas).toBe(first?.gas);
    expect(builds(), 'the same route: the probe is reused').toBe(1);
  });

  it('the review shares its own simulation: a look while it prepares, or after, builds nothing more', async () => {
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 4n * 10n ** 17n);
    service.hits.length = 0;
    const reviewing = ok({ type: 'previewSwap', approvalMode: 'exact' });
    await until(() => builds() === 1, "the review's build");
    const during = await ok({ type: 'quoteFee', chainId: 1 });
    const preview = await reviewing;
    const after = await ok({ type: 'quoteFee', chainId: 1 });
    expect(builds(), "the review's build only").toBe(1);
    for (const look of [during, after]) {
      expect(look?.basis).toBe('simulated');
      expect(look?.expected).toBe(preview.fees.totalExpected);
    }
  });

  it("the fee's build is only simulated: the review signs nothing of it and builds its own", async () => {
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 5n * 10n ** 17n);
    // The first build (the fee's) is a hostile one; the next (the review's) is honest.
    service.add({
      match: onPath('/v1/build'),
      times: 1,
      fault: {
        kind: 'rewrite',
        transform: (body) => {
          const parsed = JSON.parse(body);
          parsed.data.transaction = '0xdeadbeef';
          return JSON.stringify(parsed);
        },
      },
    });
    service.hits.length = 0;
    const screen = await ok({ type: 'quoteFee', chainId: 1 });
    expect(screen?.basis, 'a call that cannot run gives no simulated figure').toBe('about');
    const preview = await ok({ type: 'previewSwap', approvalMode: 'exact' });
    expect(builds(), "the review's own build").toBe(2);
    expect(preview.transaction.data).not.toBe('0xdeadbeef');
    expect(preview.calldata.readable).toBe(true);
  });

  it('when the service refuses the build, the fee is the remembered one, said "about", and the quote stays', async () => {
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 2n * 10n ** 17n);
    await ok({ type: 'previewSwap', approvalMode: 'exact' });
    service.add({ match: onPath('/v1/build'), fault: { kind: 'status', status: 503 } });
    // Another amount: not probed before, so the build is asked for, and refused.
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 3n * 10n ** 17n);
    service.hits.length = 0;
    const screen = await ok({ type: 'quoteFee', chainId: 1 });
    expect(builds(), 'one try, no retry').toBe(1);
    expect(screen?.basis).toBe('about');
    const quote = services.session.getState().quote;
    if (!quote) throw new Error('the quote is gone');
    // The gas last simulated for this route's shape (the review's, or a probe's), else the route's estimate.
    const remembered = await swapGasMemory.recall(quote);
    expect(screen?.gas).toBe((remembered ?? estimatedGas(quote, false).swap).toString());
  });

  it('an amount the account cannot pay is never built: the fee is the remembered or estimated one, "about"', async () => {
    // 20,000 ETH from an account holding 10,000: no simulation could pass.
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 20_000n * 10n ** 18n);
    service.hits.length = 0;
    const screen = await ok({ type: 'quoteFee', chainId: 1 });
    expect(builds(), 'no build for a swap that cannot be paid').toBe(0);
    expect(screen?.basis).toBe('about');
    expect(services.session.getState().quote?.inAmount).toBe((20_000n * 10n ** 18n).toString());
  });

  it("the fallback's approval is read for the router the builds name, not the service's executor", async () => {
    // A first look builds: the probe learns the router this service's builds name.
    await quoted(usdc(), NATIVE_TOKEN_ADDRESS, 100n * 10n ** 6n);
    const first = await ok({ type: 'quoteFee', chainId: 1 });
    expect(first?.basis).toBe('simulated');
    expect(chain.router.toLowerCase()).not.toBe(chain.executor.toLowerCase());
    await approveOnChain(usdc(), chain.router, 10n ** 12n);
    service.add({ match: onPath('/v1/build'), fault: { kind: 'status', status: 503 } });
    // Another amount, refused its build: the fallback, with the router's allowance covering it.
    await quoted(usdc(), NATIVE_TOKEN_ADDRESS, 200n * 10n ** 6n);
    const screen = await ok({ type: 'quoteFee', chainId: 1 });
    expect(screen?.basis).toBe('about');
    expect(screen?.approvalNeeded, 'the router may already spend it: no approval counted').toBe(false);
    // More than the router may spend: the approval is counted again.
    await quoted(usdc(), NATIVE_TOKEN_ADDRESS, 2n * 10n ** 12n);
    const over = await ok({ type: 'quoteFee', chainId: 1 });
    expect(over?.basis).toBe('about');
    expect(over?.approvalNeeded).toBe(true);
  });

  it('a build refused as outdated marks the quote as the review would: stale, nothing signable, a new quote', async () => {
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 6n * 10n ** 17n);
    const old = services.session.getState();
    // 25 blocks: past the reference service's bound on a quote's age for Ethereum (20 blocks).
    await rpc('anvil_mine', ['0x19']);
    service.hits.length = 0;
    const screen = await ok({ type: 'quoteFee', chainId: 1 });
    expect(builds(), "the probe's build, refused").toBe(1);
    expect(screen?.basis).toBe('about');
    const after = services.session.getState();
    expect(
      after.quote === old.quote && after.status === 'ready',
      'the outdated quote is no longer ready',
    ).toBe(false);
    if (after.status !== 'ready') {
      expect(after.staleReason).toBe(QUOTE_OUTDATED_REASON);
      // Nothing of the outdated quote can be reviewed (or signed) while the new one loads.
      const refused = await send({ type: 'previewSwap', approvalMode: 'exact' });
      expect(refused.ok).toBe(false);
    }
    await until(
      () =>
        services.session.getState().status === 'ready' &&
        services.session.getState().receivedAt !== old.receivedAt,
      'the new quote',
    );
    // The new quote builds: the review opens on it.
    const preview = await ok({ type: 'previewSwap', approvalMode: 'exact' });
    expect(BigInt(preview.fees.totalExpected)).toBeGreaterThan(0n);
  });

  it('a service refusing every build as outdated gets one new quote, not one per look', async () => {
    await quoted(NATIVE_TOKEN_ADDRESS, usdc(), 7n * 10n ** 17n);
    service.add({ match: onPath('/v1/build'), fault: { kind: 'status', status: 400 } });
    const quotes = () => service.hits.filter(onPath('/v1/quote')).length;
    const first = services.session.getState();
    service.hits.length = 0;
    await ok({ type: 'quoteFee', chainId: 1 });
    await until(
      () =>
        services.session.getState().status === 'ready' &&
        services.session.getState().receivedAt !== first.receivedAt,
      'the one new quote',
    );
    expect(quotes()).toBe(1);
    const second = services.session.getState();
    const look = await ok({ type: 'quoteFee', chainId: 1 });
    expect(look?.basis).toBe('about');
    expect(builds(), 'each look still asks its build').toBe(2);
    const after = services.session.getState();
    expect(after.status).toBe('ready');
    expect(after.receivedAt, 'the same quote: no second re-quote').toBe(second.receivedAt);
    expect(quotes()).toBe(1);
  });
});

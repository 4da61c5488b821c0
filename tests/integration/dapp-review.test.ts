// A dapp transaction reviewed against a real anvil: simulated with the fees it will be signed with
// (a contract that refunds at gas price 0 cannot make a 10 ETH send look like 0.01 ETH), checked
// again at Confirm, then signed and mined through the signing funnel: a hostile RPC's fees are
// capped to what the window showed, and a second approval of the same request signs nothing.
import { createPublicClient, createWalletClient, getAddress, type Hex, http, parseEther } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATIVE_TOKEN_ADDRESS, sameAddress } from '@/lib/api/schema';
import { checkOutcomeUnchanged, prepareTransaction } from '@/lib/background/dapp-actions';
import { reviewDapp, sendPrepared } from '@/lib/background/dapp-send';
import { feeCeilingFor } from '@/lib/rpc/fee-ceiling';
import type { RpcClient } from '@/lib/rpc/network';
import { createSigningFunnel } from '@/lib/swap/funnel';
import { DEPLOYER_KEY, TEST_MNEMONIC } from '../../devnet/accounts.ts';
import { type AnvilProcess, startAnvil } from '../../devnet/anvil.ts';
import { loadArtifact } from '../../devnet/artifacts.ts';
import { type FaultProxy, onRpc, startFaultProxy } from '../support/fault-proxy';

const CHAIN_ID = 31337;
const GWEI = 10n ** 9n;
const ceiling = feeCeilingFor(CHAIN_ID);
const funnel = createSigningFunnel({ ceilingFor: feeCeilingFor });
const user = mnemonicToAccount(TEST_MNEMONIC);
let anvil: AnvilProcess;
let client: RpcClient;
let refund: Hex;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID, host: '127.0.0.1', port: 0 });
  client = createPublicClient({ transport: http(anvil.url) }) as unknown as RpcClient;
  const deployer = createWalletClient({
    account: privateKeyToAccount(DEPLOYER_KEY),
    transport: http(anvil.url),
  });
  const artifact = loadArtifact('GasPriceRefund');
  const hash = await deployer.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    chain: null,
  });
  const receipt = await (
    client as unknown as ReturnType<typeof createPublicClient>
  ).waitForTransactionReceipt({
    hash,
  });
  refund = receipt.contractAddress as Hex;
}, 60_000);
afterAll(async () => anvil?.stop());

const tenEth = parseEther('10');
const sendToRefund = () => ({
  from: user.address,
  to: refund,
  value: tenEth,
  data: '0x' as Hex,
  gas: null,
  fees: null,
});

describe('a dapp transaction on the devnet', () => {
  it('the contract does refund at gas price 0 (so the test below can fail)', async () => {
    const [block] = await client.simulateBlocks({
      blocks: [{ calls: [{ account: user.address, to: refund, value: tenEth }] }],
      traceTransfers: true,
      validation: false,
    });
    const native = block?.calls[0]?.logs?.filter((log) => sameAddress(log.address, NATIVE_TOKEN_ADDRESS));
    // Out 10 ETH, back 9.99 ETH: traced as two transfers.
    expect(native?.length).toBe(2);
  });

  it('shows the full 10 ETH leaving, a contract recipient, and asks for a tick', async () => {
    const prepared = await prepareTransaction(client, CHAIN_ID, sendToRefund(), ceiling);
    const { detail } = prepared;
    expect(detail.value).toBe(tenEth.toString());
    expect(detail.recipientKind).toBe('contract');
    expect(detail.simulation).toBe('ok');
    const native = detail.changes.find((change) => sameAddress(change.token, NATIVE_TOKEN_ADDRESS));
    expect(native?.amount).toBe((-tenEth).toString());
    expect(detail.warnings.find((w) => w.code === 'VALUE_TO_UNKNOWN_CALL')?.tick).toBe(true);
    expect(BigInt(detail.maxFeePerGas)).toBeGreaterThan(0n);
  });

  it('re-simulates at Confirm: unchanged passes and is mined; a changed outcome is refused', async () => {
    const prepared = await prepareTransaction(client, CHAIN_ID, sendToRefund(), ceiling);
    await expect(checkOutcomeUnchanged(client, CHAIN_ID, prepared)).resolves.toBeUndefined();
    // What the user saw differs from what would happen now: nothing is signed.
    const altered = {
      ...prepared,
      detail: {
        ...prepared.detail,
        changes: prepared.detail.changes.map((change) => ({ ...change, amount: '-1' })),
      },
    };
    const send = (what: typeof prepared) =>
      sendPrepared({
        client,
        chainId: CHAIN_ID,
        funnel,
        reviewId: reviewDapp(funnel, CHAIN_ID, what),
        signer: async () => user,
        prepared: what,
      });
    await expect(send(altered)).rejects.toMatchObject({ code: -32003 });
    const before = await client.getBalance({ address: refund });
    const hash = await send(prepared);
    await (client as unknown as ReturnType<typeof createPublicClient>).waitForTransactionReceipt({ hash });
    expect(await client.getBalance({ address: refund })).toBe(before + tenEth);
  });
});

describe('a dapp transaction through the signing funnel', () => {
  let proxy: FaultProxy;
  let hostile: RpcClient;
  beforeAll(async () => {
    proxy = await startFaultProxy(anvil.url);
    hostile = createPublicClient({ transport: http(proxy.url) }) as unknown as RpcClient;
  });
  afterAll(async () => proxy?.close());

  const hex = (value: bigint) => `0x${value.toString(16)}`;
  const answer = (result: unknown) => (body: string) => JSON.stringify({ ...JSON.parse(body), result });
  /** The RPC asks `priorityGwei` per gas, backs it with its fee history, and estimates 1.8M gas. */
  function inflate(priorityGwei: bigint) {
    proxy.clear();
    proxy.add({
      match: onRpc('eth_maxPriorityFeePerGas'),
      fault: { kind: 'rewrite', transform: answer(hex(priorityGwei * GWEI)) },
    });
    proxy.add({
      match: onRpc('eth_estimateGas'),
      fault: { kind: 'rewrite', transform: answer(hex(1_812_563n)) },
    });
    proxy.add({
      match: onRpc('eth_feeHistory'),
      fault: {
        kind: 'rewrite',
        transform: (body) => {
          const parsed = JSON.parse(body);
          parsed.result.reward = parsed.result.reward.map(() => [hex(priorityGwei * GWEI)]);
          return JSON.stringify(parsed);
        },
      },
    });
  }

  it("caps a hostile RPC's fees and gas to the ceiling and signs exactly what the window showed", async () => {
    inflate(1_000n);
    const prepared = await prepareTransaction(hostile, CHAIN_ID, sendToRefund(), ceiling);
    const { detail } = prepared;
    // Shown: the ceiling's fees (500 / 50 gwei on this chain), gas held to the simulation's use.
    expect(BigInt(detail.maxFeePerGas)).toBe(ceiling.maxFeePerGas);
    expect(BigInt(detail.maxPriorityFeePerGas)).toBe(ceiling.maxPriorityFeePerGas);
    expect(BigInt(detail.gasLimit)).toBeLessThan(100_000n);
    expect(BigInt(detail.gasLimit)).toBeLessThanOrEqual((prepared.gasUsed * 125n) / 100n);
    expect(detail.warnings.some((warning) => warning.code === 'FEE_CAPPED')).toBe(true);
    const reviewId = reviewDapp(funnel, CHAIN_ID, prepared);
    // Between the window and the click the RPC asks even more: nothing it says now is signed.
    inflate(5_000n);
    const hash = await sendPrepared({
      client: hostile,
      chainId: CHAIN_ID,
      funnel,
      reviewId,
      signer: async () => user,
      prepared,
    });
    const signed = await client.getTransaction({ hash });
    expect(signed.maxFeePerGas).toBe(BigInt(detail.maxFeePerGas));
    expect(signed.maxPriorityFeePerGas).toBe(BigInt(detail.maxPriorityFeePerGas));
    expect(signed.gas).toBe(BigInt(detail.gasLimit));
    proxy.clear();
  });

  it("a nonce other than the account's next is refused, naming both: a replacement is never sent as a second transaction", async () => {
    const next = BigInt(await client.getTransactionCount({ address: user.address, blockTag: 'pending' }));
    for (const nonce of [next + 5n, ...(next > 0n ? [next - 1n] : [])]) {
      await expect(
        prepareTransaction(client, CHAIN_ID, { ...sendToRefund(), nonce }, ceiling),
      ).rejects.toThrow(`nonce ${nonce} is not this account's next nonce (${next})`);
    }
    const prepared = await prepareTransaction(client, CHAIN_ID, { ...sendToRefund(), nonce: next }, ceiling);
    expect(prepared.detail.kind).toBe('transaction');
  });

  it("the page's nonce is checked again at Confirm: moved meanwhile, nothing is signed or sent; unmoved, it is the nonce signed", async () => {
    const wallet = createWalletClient({ account: user, transport: http(anvil.url) });
    const pending = () => client.getTransactionCount({ address: user.address, blockTag: 'pending' });
    const next = await pending();
    const prepared = await prepareTransaction(
      client,
      CHAIN_ID,
      { ...sendToRefund(), nonce: BigInt(next) },
      ceiling,
    );
    // Another transaction takes that nonce while the window waits (a send from the popup).
    await wallet.sendTransaction({ to: user.address, value: 1n, chain: null });
    expect(await pending()).toBe(next + 1);
    const approve = (of: typeof prepared) =>
      sendPrepared({
        client,
        chainId: CHAIN_ID,
        funnel,
        reviewId: reviewDapp(funnel, CHAIN_ID, of),
        signer: async () => user,
        prepared: of,
      });
    await expect(approve(prepared)).rejects.toMatchObject({
      code: -32003,
      message: expect.stringContaining(
        `The site set nonce ${next}, but this account's next nonce is now ${next + 1}`,
      ),
    });
    expect(await pending()).toBe(next + 1);
    // Unmoved: the transaction mined carries the page's nonce.
    const again = await prepareTransaction(
      client,
      CHAIN_ID,
      { ...sendToRefund(), nonce: BigInt(next + 1) },
      ceiling,
    );
    const hash = await approve(again);
    const mined = await (client as unknown as ReturnType<typeof createPublicClient>).getTransaction({ hash });
    expect(mined.nonce).toBe(next + 1);
  });

  it("a site's access list is simulated, shown and signed as given: the mined transaction carries it", async () => {
    const slot = `0x${'0'.repeat(63)}1` as Hex;
    const accessList = [{ address: refund, storageKeys: [slot] }];
    const prepared = await prepareTransaction(client, CHAIN_ID, { ...sendToRefund(), accessList }, ceiling);
    expect(prepared.detail.accessList).toEqual([{ address: getAddress(refund), storageKeys: [slot] }]);
    const hash = await sendPrepared({
      client,
      chainId: CHAIN_ID,
      funnel,
      reviewId: reviewDapp(funnel, CHAIN_ID, prepared),
      signer: async () => user,
      prepared,
    });
    const mined = await (client as unknown as ReturnType<typeof createPublicClient>).getTransaction({ hash });
    expect(mined.accessList?.map((entry) => [getAddress(entry.address), entry.storageKeys])).toEqual([
      [getAddress(refund), [slot]],
    ]);
  });

  it('a second approval of the same request signs nothing (double click)', async () => {
    const prepared = await prepareTransaction(client, CHAIN_ID, sendToRefund(), ceiling);
    const reviewId = reviewDapp(funnel, CHAIN_ID, prepared);
    const nonce = await client.getTransactionCount({ address: user.address, blockTag: 'pending' });
    const approve = () =>
      sendPrepared({ client, chainId: CHAIN_ID, funnel, reviewId, signer: async () => user, prepared });
    const [first, second] = await Promise.allSettled([approve(), approve()]);
    expect(first.status).toBe('fulfilled');
    expect(second).toMatchObject({ status: 'rejected', reason: { code: -32003 } });
    expect(second.status === 'rejected' && String(second.reason.message)).toMatch(/already confirmed/);
    await expect(approve()).rejects.toMatchObject({ code: -32003 });
    expect(await client.getTransactionCount({ address: user.address, blockTag: 'pending' })).toBe(nonce + 1);
  });

  it('refuses, signing nothing, when the account changed or the fee is above a lowered ceiling', async () => {
    const prepared = await prepareTransaction(client, CHAIN_ID, sendToRefund(), ceiling);
    const other = privateKeyToAccount(DEPLOYER_KEY);
    const wrong = sendPrepared({
      client,
      chainId: CHAIN_ID,
      funnel,
      reviewId: reviewDapp(funnel, CHAIN_ID, prepared),
      signer: async () => other,
      prepared,
    });
    await expect(wrong).rejects.toMatchObject({ code: 4100 });
    const strict = createSigningFunnel({
      ceilingFor: () => ({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
    });
    expect(() => reviewDapp(strict, CHAIN_ID, prepared)).toThrow(/above your ceiling/);
  });
});

describe('the recipient line: first interaction', () => {
  it('an account that never sent on the chain (nonce 0) is a certain first interaction', async () => {
    const fresh = privateKeyToAccount(generatePrivateKey());
    const deployer = createWalletClient({
      account: privateKeyToAccount(DEPLOYER_KEY),
      transport: http(anvil.url),
    });
    const funding = await deployer.sendTransaction({
      to: fresh.address,
      value: parseEther('1'),
      chain: null,
    });
    await (client as unknown as ReturnType<typeof createPublicClient>).waitForTransactionReceipt({
      hash: funding,
    });
    const call = { ...sendToRefund(), from: fresh.address, value: parseEther('0.1') };
    const prepared = await prepareTransaction(client, CHAIN_ID, call, ceiling);
    expect(prepared.detail.recipientHistory).toBe('never-sent');
  });

  it("an account that sent before: Swaplane's record decides (none recorded, or sent before)", async () => {
    expect(await client.getTransactionCount({ address: user.address })).toBeGreaterThan(0);
    const unrecorded = await prepareTransaction(client, CHAIN_ID, sendToRefund(), ceiling, async () => false);
    expect(unrecorded.detail.recipientHistory).toBe('not-recorded');
    const asked: string[] = [];
    const recorded = await prepareTransaction(client, CHAIN_ID, sendToRefund(), ceiling, async (to) => {
      asked.push(to);
      return true;
    });
    expect(recorded.detail.recipientHistory).toBe('sent-before');
    expect(asked).toEqual([refund]);
  });
});

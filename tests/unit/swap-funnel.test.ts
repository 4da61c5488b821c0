// The signing funnel, its fee ceiling and the check of a stored transaction: the caps no RPC answer
// can raise, a review taken once, and bytes from storage acted on only when they prove themselves.
import { keccak256 } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it, vi } from 'vitest';
import { applyCeiling, FeeCeilingError, feeCeilingFor } from '@/lib/rpc/fee-ceiling';
import { capFees, cappedFees, feeCaps, feeEstimate } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { verifyStoredTx } from '@/lib/rpc/stored-tx';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import { createSigningFunnel, gasLimitFor, type TransactionPlan } from '@/lib/swap/funnel';
import { checkTrust, deriveTrustKey, sealTrust, trustSnapshot } from '@/lib/wallet/trust-mac';

const GWEI = 10n ** 9n;
const me = privateKeyToAccount(generatePrivateKey());
const thief = privateKeyToAccount(generatePrivateKey());

describe('fee ceiling', () => {
  it('has a default per chain, and the user’s max fee from Settings wins', () => {
    expect(feeCeilingFor(1)).toEqual({ maxFeePerGas: 500n * GWEI, maxPriorityFeePerGas: 50n * GWEI });
    expect(feeCeilingFor(8453).maxFeePerGas).toBe(50n * GWEI);
    expect(feeCeilingFor(1, { '1': '0.5' })).toEqual({
      maxFeePerGas: GWEI / 2n,
      maxPriorityFeePerGas: GWEI / 2n,
    });
    // A malformed stored value is not a ceiling: the default holds.
    expect(feeCeilingFor(1, { '1': '1e9' }).maxFeePerGas).toBe(500n * GWEI);
  });

  it('lowers fees above it and says so; refuses a base fee above it', () => {
    const ceiling = feeCeilingFor(1);
    const hostile = {
      maxFeePerGas: 2_000n * GWEI,
      maxPriorityFeePerGas: 1_000n * GWEI,
      baseFee: GWEI,
      capped: false,
    };
    expect(applyCeiling(hostile, ceiling)).toEqual({
      maxFeePerGas: 500n * GWEI,
      maxPriorityFeePerGas: 50n * GWEI,
      baseFee: GWEI,
      capped: true,
    });
    expect(() => applyCeiling({ ...hostile, baseFee: 600n * GWEI }, ceiling)).toThrow(FeeCeilingError);
    expect(() => applyCeiling({ ...hostile, baseFee: 600n * GWEI }, ceiling)).toThrow(
      /above your ceiling of 500 gwei/,
    );
  });

  it('bounds an RPC that inflates its own fee history (the history cap alone would follow it)', async () => {
    const inflated = {
      chain: { id: 1 },
      estimateFeesPerGas: async () => ({ maxFeePerGas: 3_000n * GWEI, maxPriorityFeePerGas: 1_000n * GWEI }),
      request: async () => ({
        baseFeePerGas: Array(21).fill(`0x${GWEI.toString(16)}`),
        reward: Array(20).fill([`0x${(1_000n * GWEI).toString(16)}`]),
      }),
    } as unknown as RpcClient;
    // Without the ceiling, the history lifts the cap to the RPC's own answer.
    const historyOnly = capFees(
      await inflated.estimateFeesPerGas(),
      feeCaps({ baseFees: [GWEI], medianRewards: [1_000n * GWEI] }),
    );
    expect(historyOnly.maxPriorityFeePerGas).toBe(1_000n * GWEI);
    const fees = await cappedFees(inflated);
    expect(fees.maxPriorityFeePerGas).toBe(50n * GWEI);
    expect(fees.maxFeePerGas).toBe(500n * GWEI);
    expect(fees.capped).toBe(true);
  });
});

const fees = { maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI };
const plan = (patch: Partial<TransactionPlan> = {}): TransactionPlan => ({
  kind: 'revoke',
  chainId: 1,
  from: me.address,
  to: thief.address,
  value: 0n,
  data: '0x',
  gasUsed: 30_000n,
  gas: 37_500n,
  fees,
  ...patch,
});
const shown = (p: TransactionPlan) =>
  feeEstimate(p.gasUsed, p.gas, { ...p.fees, baseFee: GWEI, capped: false });

describe('gasLimitFor', () => {
  it('adds the margin to the simulated gas, and bounds approvals, revokes and cancels', () => {
    expect(gasLimitFor('swap', 200_000n)).toEqual({ gas: 250_000n, capped: false });
    // The hostile RPC: 1,812,563 gas for approve(spender, 0).
    expect(gasLimitFor('revoke', 1_812_563n)).toEqual({ gas: 120_000n, capped: true });
    expect(gasLimitFor('cancel', 1_000_000n).gas).toBe(21_000n);
  });
});

describe('createSigningFunnel', () => {
  const funnel = () => createSigningFunnel({ ceilingFor: (chainId) => feeCeilingFor(chainId) });

  it('refuses a plan whose gas is above its simulation, or whose fees are above the ceiling', () => {
    const f = funnel();
    const greedy = plan({ gas: 1_812_563n });
    expect(() => f.review(greedy, { shownFee: shown(greedy) })).toThrow(
      expect.objectContaining({ code: 'GAS_ABOVE_SIMULATION' }),
    );
    const pricey = plan({ fees: { maxFeePerGas: 1_000n * GWEI, maxPriorityFeePerGas: GWEI } });
    expect(() => f.review(pricey, { shownFee: shown(pricey) })).toThrow(
      expect.objectContaining({ code: 'FEE_ABOVE_CEILING' }),
    );
  });

  it('records only a plan whose fee was shown as it will be signed', () => {
    const p = plan();
    expect(() => funnel().review(p, { shownFee: { ...shown(p), gasLimit: '1' } })).toThrow(/fee shown/);
  });

  it('hands a review out once, for its own kind: a second Confirm finds nothing', () => {
    const f = funnel();
    const p = plan();
    const { id } = f.review(p, { shownFee: shown(p) });
    expect(() => f.take(id, 'cancel')).toThrow(expect.objectContaining({ code: 'REVIEW_USED' }));
    const again = f.review(p, { shownFee: shown(p) });
    expect(f.take(again.id, 'revoke').plan).toBe(p);
    expect(() => f.take(again.id, 'revoke')).toThrow(expect.objectContaining({ code: 'REVIEW_USED' }));
  });

  it('refuses an expired review', () => {
    let t = 1_000;
    const f = createSigningFunnel({ ceilingFor: () => feeCeilingFor(1), now: () => t });
    const p = plan();
    const { id } = f.review(p, { shownFee: shown(p), expiresAt: 2_000 });
    t = 2_000;
    expect(() => f.take(id, 'revoke')).toThrow(expect.objectContaining({ code: 'REVIEW_EXPIRED' }));
  });

  it('signs exactly the plan with the signer, on the plan’s chain and account only', async () => {
    const f = funnel();
    const client = {
      chain: { id: 1 },
      getChainId: vi.fn(async () => 1),
      getTransactionCount: vi.fn(async () => 4),
    } as unknown as RpcClient;
    const p = plan({ nonce: 9 });
    const signed = await f.sign({
      reviewed: f.take(f.review(p, { shownFee: shown(p) }).id, 'revoke'),
      client,
      signer: async () => me,
    });
    const fields = await verifyStoredTx({
      raw: signed.raw,
      hash: signed.hash,
      chainId: 1,
      signer: me.address,
    });
    expect(fields).toMatchObject({ nonce: 9, gas: p.gas, to: p.to, maxFeePerGas: fees.maxFeePerGas });
    await expect(
      f.sign({
        reviewed: f.take(f.review(p, { shownFee: shown(p) }).id, 'revoke'),
        client,
        signer: async () => thief,
      }),
    ).rejects.toMatchObject({ code: 'WRONG_ACCOUNT' });
    const elsewhere = { ...client, getChainId: async () => 8453 } as unknown as RpcClient;
    await expect(
      f.sign({
        reviewed: f.take(f.review(p, { shownFee: shown(p) }).id, 'revoke'),
        client: elsewhere,
        signer: async () => me,
      }),
    ).rejects.toMatchObject({ code: 'RPC_WRONG_CHAIN' });
  });
});

describe('verifyStoredTx', () => {
  const tx = {
    chainId: 1,
    type: 'eip1559',
    to: me.address,
    value: 1n,
    gas: 21_000n,
    nonce: 3,
    maxFeePerGas: GWEI,
    maxPriorityFeePerGas: GWEI,
  } as const;

  it('reads a transaction that is its hash, signed by the account on its chain', async () => {
    const raw = await me.signTransaction(tx);
    expect(await verifyStoredTx({ raw, hash: keccak256(raw), chainId: 1, signer: me.address })).toMatchObject(
      {
        nonce: 3,
        to: me.address,
        value: 1n,
      },
    );
  });

  it.each([
    [
      'bytes that are not its hash',
      async () => ({ raw: await me.signTransaction(tx), hash: keccak256('0x01') }),
      /does not match its hash/,
    ],
    [
      'bytes another key signed',
      async () => {
        const raw = await thief.signTransaction(tx);
        return { raw, hash: keccak256(raw) };
      },
      /not signed by this account/,
    ],
    [
      'bytes for another chain',
      async () => {
        const raw = await me.signTransaction({ ...tx, chainId: 8453 });
        return { raw, hash: keccak256(raw) };
      },
      /another network/,
    ],
    [
      'bytes that are not EIP-1559',
      async () => ({ raw: '0x01ff', hash: keccak256('0x01ff') }),
      /not an EIP-1559/,
    ],
  ] as const)('refuses %s', async (_label, make, words) => {
    const { raw, hash } = await make();
    await expect(verifyStoredTx({ raw, hash, chainId: 1, signer: me.address })).rejects.toThrow(words);
  });
});

describe('the fee ceilings are sealed with the trust settings', () => {
  it('a ceiling raised from outside breaks the seal, naming it; the defaults seal as no ceiling set', async () => {
    const key = await deriveTrustKey({
      mnemonic: 'test test test test test test test test test test test junk',
      importedKeys: [],
    });
    const sealed = await sealTrust(key, trustSnapshot(DEFAULT_SETTINGS, {}), 1);
    expect(trustSnapshot(DEFAULT_SETTINGS, {}).feeCeilingsGwei).toEqual({});
    expect(await checkTrust(key, sealed, trustSnapshot(DEFAULT_SETTINGS, {}))).toEqual({ ok: true });
    const raised = trustSnapshot({ ...DEFAULT_SETTINGS, feeCeilingsGwei: { '1': '100000' } }, {});
    expect(await checkTrust(key, sealed, raised)).toMatchObject({
      ok: false,
      reason: 'changed',
      fields: ['the network fee ceilings'],
      keys: ['feeCeilingsGwei'],
    });
    expect(await checkTrust(key, await sealTrust(key, raised, 2), raised)).toEqual({ ok: true });
  });
});

// The explorer card's token safety check against the real devnet: one eth_simulateV1 call finds the
// fee-on-transfer token's tax, the sell-blocking token's blocked sell, and a plain token clean.
import { createPublicClient, type Hex, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestChain } from '../../devnet/manifest.ts';
import { type Devnet, startDevnet } from '../../devnet/start.ts';
import { devnetViemChain } from '../../devnet/viem.ts';
import type { RpcClient } from '../../lib/rpc/network.ts';
import { checkTokenSafety } from '../../lib/safety/check.ts';
import { SAFETY_PROBE_CODE } from '../../lib/safety/probe-code.ts';

let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({ ports: { ethereum: 0 }, chains: ['ethereum'] });
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
});

function setUp() {
  const chain = devnet.manifest.chains[0] as ManifestChain;
  const calls: string[] = [];
  const client = createPublicClient({
    chain: devnetViemChain(chain),
    transport: http(chain.rpcUrl, {
      onFetchRequest: async (request) => void calls.push(await request.clone().text()),
    }),
  }) as unknown as RpcClient;
  const safety = chain.safetyTokens;
  if (!safety) throw new Error('the devnet manifest has no safety tokens');
  const check = (token: `0x${string}`) =>
    checkTokenSafety(client, {
      chainId: 1,
      token,
      weth: chain.weth,
      amount: parseEther('0.1'),
      probeCode: SAFETY_PROBE_CODE as Hex,
    });
  return { chain, calls, safety, check };
}

describe('token safety on the devnet', () => {
  it('the safety tokens are pooled against WETH but not on the service list', () => {
    const { chain, safety } = setUp();
    const listed = new Set(chain.tokens.map((token) => token.address.toLowerCase()));
    for (const token of Object.values(safety)) expect(listed.has(token.toLowerCase())).toBe(false);
  });

  it('fee-on-transfer: the 5% tax on the buy and on the sell, in one eth_simulateV1 call', async () => {
    const { safety, check, calls } = setUp();
    const report = await check(safety.feeOnTransfer);
    expect(report.verdict).toBe('tax');
    expect(report.buyTaxBps).toBe(500);
    expect(report.sellTaxBps).toBe(500);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toContain('eth_simulateV1');
  });

  it('sell-blocking token: bought fine, the sell reverts', async () => {
    const { safety, check } = setUp();
    expect(await check(safety.sellBlocked)).toEqual({ verdict: 'sell-blocked', buyTaxBps: 0 });
  });

  it('a plain token and a listed one are clean; a token with no pool says so', async () => {
    const { chain, safety, check } = setUp();
    expect(await check(safety.clean)).toEqual({ verdict: 'clean', buyTaxBps: 0, sellTaxBps: 0 });
    const usdc = chain.tokens.find((token) => token.symbol === 'USDC');
    expect((await check(usdc?.address as `0x${string}`)).verdict).toBe('clean');
    expect((await check('0x00000000000000000000000000000000000000f1')).verdict).toBe('no-pool');
  });
});

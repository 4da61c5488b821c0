// The service from a configuration file, as on a real chain: `npm run deploy` (the script itself,
// in a child process) deploys a router and executor on a devnet chain and writes them into the
// file; the service finds the pools from the factories' events and its built transaction, sent
// to the new router, delivers exactly the quoted amount. Plus every configuration mistake gets an
// error that names it.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  type Hex,
  http,
  maxUint256,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MNEMONIC } from '../../devnet/accounts';
import { writeDevnetServiceConfig } from '../../devnet/service-config';
import { type Devnet, startDevnet } from '../../devnet/start';
import { BuildResponseSchema, QuoteResponseSchema } from '../../lib/api/schema';
import { type ChainConfig, ConfigError, readServiceConfig } from '../../service/config';
import { loadServiceManifest } from '../../service/config-manifest';
import { type RunningService, startService } from '../../service/server';
import { USDC, WETH } from '../support/addresses';

const run = promisify(execFile);
/** Anvil's account 5 (a public test key): a deployer that is not the devnet's own. */
const DEPLOYER_KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';

let devnet: Devnet;
let dir: string;
let devnetConfig: string;

beforeAll(async () => {
  devnet = await startDevnet({ ports: { ethereum: 0, base: 0 } });
  dir = mkdtempSync(join(tmpdir(), 'swaplane-config-test-'));
  devnetConfig = writeDevnetServiceConfig(devnet.manifest, join(dir, 'devnet.json'));
});

afterAll(async () => {
  await devnet?.stop();
});

/** A copy of the devnet's configuration with one chain changed. */
function variant(
  name: string,
  change: (chain: ChainConfig) => ChainConfig | Record<string, unknown>,
): string {
  const config = readServiceConfig(devnetConfig);
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({
      ...config,
      chains: config.chains.map((chain) => (chain.name === 'ethereum' ? change(chain) : chain)),
    }),
  );
  return path;
}

describe('the devnet through its configuration file', () => {
  it('finds exactly the deployed pools (V2 and V3) and the listed tokens from factory events', async () => {
    const { manifest, summary } = await loadServiceManifest(devnetConfig);
    for (const chain of devnet.manifest.chains) {
      const loaded = manifest.chains.find((c) => c.chainId === chain.chainId);
      const key = (pool: { address: string; fee?: number | undefined; dex: string }) =>
        `${pool.dex}:${pool.address.toLowerCase()}:${pool.fee ?? ''}`;
      expect(new Set(loaded?.pools.map(key))).toEqual(new Set(chain.pools.map(key)));
      expect(loaded?.tokens.map((t) => [t.address, t.pooled])).toEqual(
        chain.tokens.map((t) => [t.address, t.pooled]),
      );
    }
    expect(summary.join('\n')).toMatch(/ethereum: 2009 listed tokens, \d+ pools found in blocks 0\.\.\d+/);
  });
});

describe('npm run deploy, then the service from the written configuration', () => {
  let service: RunningService;
  afterAll(async () => service?.close());

  it('deploys a router and executor, records them, and its swaps deliver exactly outAmount', {
    timeout: 120_000,
  }, async () => {
    const path = variant('fresh.json', ({ router: _r, executor: _e, ...chain }) => chain);
    // Without a router the service refuses to start, and says how to deploy one.
    await expect(loadServiceManifest(path)).rejects.toThrow(/no router\/executor.*npm run deploy/);

    const { stdout } = await run(
      'npx',
      ['tsx', 'scripts/deploy.ts', '--config', path, '--chain', 'ethereum'],
      {
        env: { ...process.env, SWAPLANE_DEPLOYER_KEY: DEPLOYER_KEY },
      },
    );
    expect(stdout).toMatch(/router 0x[0-9a-fA-F]{40}, executor 0x[0-9a-fA-F]{40}/);
    const written = readServiceConfig(path).chains.find((chain) => chain.name === 'ethereum');
    const original = devnet.manifest.chains[0];
    expect(written?.router).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(written?.router?.toLowerCase()).not.toBe(original?.router.toLowerCase());

    const { manifest } = await loadServiceManifest(path);
    service = await startService({ manifest, port: 0, log: () => {} });
    const chain = defineChain({
      id: 1,
      name: 'devnet',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [written?.rpcUrl as string] } },
    });
    const account = mnemonicToAccount(TEST_MNEMONIC, { addressIndex: 1 });
    const client = createPublicClient({ chain, transport: http(), pollingInterval: 20 });
    const wallet = createWalletClient({ account, chain, transport: http() });
    const approval = await wallet.writeContract({
      address: WETH,
      abi: erc20Abi,
      functionName: 'approve',
      args: [written?.router as Hex, maxUint256],
    });
    await client.waitForTransactionReceipt({ hash: approval });
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const ask = {
      chainId: 1,
      inToken: WETH,
      outToken: USDC,
      inAmount: '50000000000000000000',
      slippage: 0.5,
    };
    const quoteOnce = async () =>
      QuoteResponseSchema.parse(await (await post(service.url, '/v1/quote', ask)).json()).data;
    // The service answers at the newest block its head watcher has read: ask until that is the head.
    let quote = await quoteOnce();
    for (let tries = 0; BigInt(quote.blockNumber) < head && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      quote = await quoteOnce();
    }
    expect(quote.contractAddress.toLowerCase()).toBe(written?.executor?.toLowerCase());
    expect(
      quote.bestRoute.some((share) => share.swaps.some((swap) => String(swap.dex) === 'uniswap-v3')),
    ).toBe(true);
    const built = BuildResponseSchema.parse(await (await post(service.url, '/v1/build', quote)).json()).data;
    expect(built.to.toLowerCase()).toBe(written?.router?.toLowerCase());
    const before = await client.readContract({
      address: USDC,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [account.address],
    });
    const hash = await wallet.sendTransaction({
      to: built.to as Hex,
      data: built.transaction as Hex,
      gas: 1_500_000n,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const after = await client.readContract({
      address: USDC,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [account.address],
    });
    expect(after - before).toBe(BigInt(quote.outAmount));
  });
});

describe('configuration mistakes, each named', () => {
  it('a malformed field names its place in the file', () => {
    const path = variant('bad-address.json', (chain) => ({ ...chain, weth: '0x1234' }));
    expect(() => readServiceConfig(path)).toThrow(ConfigError);
    expect(() => readServiceConfig(path)).toThrow(
      /chains\.0\.weth: must be a 0x-prefixed 20-byte hex address/,
    );
    const missing = join(dir, 'missing.json');
    expect(() => readServiceConfig(missing)).toThrow(/cannot read the service configuration/);
  });

  it('a wrong init code hash is caught at discovery, not routed through', async () => {
    const path = variant('wrong-hash.json', (chain) => ({
      ...chain,
      factories: chain.factories.map((factory) =>
        factory.protocol === 'uniswap-v3' ? { ...factory, initCodeHash: `0x${'11'.repeat(32)}` } : factory,
      ),
    }));
    await expect(loadServiceManifest(path)).rejects.toThrow(
      /is not where the configured init code hash puts it/,
    );
  });

  it('an RPC serving another chain, and a token list that is not one', async () => {
    const base = devnet.manifest.chains.find((chain) => chain.chainName === 'base')?.rpcUrl as string;
    await expect(
      loadServiceManifest(variant('wrong-rpc.json', (chain) => ({ ...chain, rpcUrl: base }))),
    ).rejects.toThrow(/serves chain 8453, not 1/);
    writeFileSync(join(dir, 'not-a-list.json'), JSON.stringify({ tokens: [{ address: 'nope' }] }));
    await expect(
      loadServiceManifest(
        variant('bad-list.json', (chain) => ({ ...chain, tokenList: { file: 'not-a-list.json' } })),
      ),
    ).rejects.toThrow(/the token list is invalid at tokens\.0/);
  });

  it('the deploy script refuses to run without a key, and names an unknown chain', async () => {
    await expect(
      run('npx', ['tsx', 'scripts/deploy.ts', '--config', devnetConfig, '--chain', 'ethereum'], {
        env: { ...process.env, SWAPLANE_DEPLOYER_KEY: '' },
      }),
    ).rejects.toMatchObject({ stderr: expect.stringMatching(/a deployer key is required/) });
    await expect(
      run('npx', [
        'tsx',
        'scripts/deploy.ts',
        '--config',
        devnetConfig,
        '--chain',
        'polygon',
        '--key',
        DEPLOYER_KEY,
      ]),
    ).rejects.toMatchObject({
      stderr: expect.stringMatching(/has no chain "polygon" \(it has: ethereum, base\)/),
    });
    expect(readFileSync(devnetConfig, 'utf8')).toContain('"name": "ethereum"');
  });
});

function post(base: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

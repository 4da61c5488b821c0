// startDevnet(): anvil replicas of Ethereum and Base with the devnet deployed.
// The first start deploys and saves anvil's state under .devnet/state/<chain>-<hash>.json, hash
// covering every deploy input; later starts load that state, which is much faster.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Hex } from 'viem';
import { type AnvilProcess, startAnvil } from './anvil.ts';
import { artifactPath, CONTRACT_NAMES, loadUniswapV2, loadUniswapV3 } from './artifacts.ts';
import { QUIET_BASE_FEE, settleBaseFee } from './base-fee.ts';
import { type ChainDeployment, DEPLOY_VERSION, deployChain } from './deploy.ts';
import { CHAIN_FIXTURES, type ChainFixture, type ChainName } from './fixtures.ts';
import type { DevnetManifest, ManifestChain } from './manifest.ts';
import { assertPortFree } from './ports.ts';
import { RpcClient } from './rpc.ts';

export const DEFAULT_PORTS: Readonly<Record<ChainName, number>> = { ethereum: 8545, base: 8546 };
export const DEFAULT_HOST = '127.0.0.1';

const DEVNET_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = join(DEVNET_DIR, '..');
export const DEFAULT_STATE_DIR = join(ROOT, '.devnet', 'state');
export const DEFAULT_MANIFEST_PATH = join(ROOT, '.devnet', 'manifest.json');

/** Sources whose changes change the deployed state (the fixtures are hashed as data). */
const DEPLOY_SOURCES = [
  'deploy.ts',
  'token-storage.ts',
  'accounts.ts',
  'abi.ts',
  'liquidity.ts',
  'safety-tokens.ts',
  'v3-pools.ts',
  '../service/pool-math/v3.ts',
  // The router is deployed by the deploy script's code.
  '../service/deploy.ts',
];

export interface StartDevnetOptions {
  /** Per chain; 0 picks a free port (parallel test files), undefined means 8545 / 8546. */
  ports?: { ethereum?: number; base?: number };
  chains?: ChainName[];
  /** Where deployed states are cached; default .devnet/state. */
  stateDir?: string;
  /** Seconds between blocks (interval mining); default: automine, one block per transaction. */
  blockTime?: number;
  log?: (line: string) => void;
  host?: string;
  /**
   * Where to write the manifest JSON. Default: .devnet/manifest.json when no port is 0 (the
   * well-known devnet), nowhere for devnets on picked ports (tests), so they never clobber it.
   */
  manifestPath?: string | null;
}

export interface ChainStart {
  chainName: ChainName;
  /** cold: deployed from scratch (and saved); warm: loaded from the saved state. */
  mode: 'cold' | 'warm';
  ms: number;
}

export interface Devnet {
  manifest: DevnetManifest;
  starts: ChainStart[];
  stop(): Promise<void>;
}

export async function startDevnet(options: StartDevnetOptions = {}): Promise<Devnet> {
  const chains = options.chains ?? ['ethereum', 'base'];
  const stateDir = options.stateDir ?? DEFAULT_STATE_DIR;
  const log = options.log ?? (() => {});
  const ports = chains.map((chain) => options.ports?.[chain] ?? DEFAULT_PORTS[chain]);
  // Fail loudly before anything starts when a fixed port is taken (see ports.ts).
  await Promise.all(ports.map((port) => assertPortFree(options.host ?? DEFAULT_HOST, port)));
  const started: AnvilProcess[] = [];
  const stop = async () => {
    await Promise.all(started.splice(0).map((anvil) => anvil.stop()));
  };

  try {
    const results = await Promise.all(
      chains.map((chain, i) =>
        startChain(CHAIN_FIXTURES[chain], {
          port: ports[i] ?? 0,
          host: options.host ?? DEFAULT_HOST,
          stateDir,
          log,
          onAnvil: (anvil) => started.push(anvil),
        }),
      ),
    );
    // A newcomer's first review shows a quiet chain's fee, not the deploy's (devnet/base-fee.ts).
    await Promise.all(
      results.map(async ({ chain }, i) => {
        const name = chains[i] as ChainName;
        const blocks = await settleBaseFee(chain.rpcUrl, QUIET_BASE_FEE[name]);
        if (blocks > 0) log(`${name}: ${blocks} empty blocks brought the base fee to a quiet chain's`);
      }),
    );
    for (const { chain } of results) {
      if (options.blockTime !== undefined) await useIntervalMining(chain.rpcUrl, options.blockTime);
    }
    const manifest: DevnetManifest = { version: 1, chains: results.map((r) => r.chain) };
    const manifestPath =
      options.manifestPath === undefined
        ? ports.includes(0)
          ? null
          : DEFAULT_MANIFEST_PATH
        : options.manifestPath;
    if (manifestPath) writeAtomically(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    return { manifest, starts: results.map((r) => r.start), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface ChainOptions {
  port: number;
  host: string;
  stateDir: string;
  log: (line: string) => void;
  onAnvil: (anvil: AnvilProcess) => void;
}

async function startChain(
  fixture: ChainFixture,
  options: ChainOptions,
): Promise<{ chain: ManifestChain; start: ChainStart }> {
  const began = performance.now();
  const base = join(options.stateDir, `${fixture.chainName}-${stateHash(fixture)}`);
  const statePath = `${base}.json`;
  const deploymentPath = `${base}.deployment.json`;
  const anvilOptions = { chainId: fixture.chainId, host: options.host, port: options.port, log: options.log };

  if (existsSync(statePath) && existsSync(deploymentPath)) {
    const deployment = JSON.parse(readFileSync(deploymentPath, 'utf8')) as ChainDeployment;
    const anvil = await startAnvil({ ...anvilOptions, loadState: statePath });
    options.onAnvil(anvil);
    if (await looksDeployed(anvil.url, deployment)) {
      const ms = Math.round(performance.now() - began);
      options.log(`${fixture.chainName}: loaded saved state in ${ms} ms (${anvil.url})`);
      return {
        chain: withRpcUrl(deployment, anvil.url),
        start: { chainName: fixture.chainName, mode: 'warm', ms },
      };
    }
    options.log(`${fixture.chainName}: saved state is unusable, deploying from scratch`);
    await anvil.stop();
    rmSync(statePath, { force: true });
    rmSync(deploymentPath, { force: true });
  }

  const anvil = await startAnvil(anvilOptions);
  options.onAnvil(anvil);
  const deployment = await deployChain(anvil.url, fixture, options.log);
  const dump = await new RpcClient(anvil.url).request<Hex>('anvil_dumpState');
  // anvil_dumpState answers gzip; --load-state reads the JSON.
  writeAtomically(statePath, gunzipSync(Buffer.from(dump.slice(2), 'hex')));
  writeAtomically(deploymentPath, `${JSON.stringify(deployment, null, 2)}\n`);
  removeStaleStates(options.stateDir, fixture.chainName, base);
  const ms = Math.round(performance.now() - began);
  options.log(`${fixture.chainName}: deployed and saved state in ${ms} ms (${anvil.url})`);
  return {
    chain: withRpcUrl(deployment, anvil.url),
    start: { chainName: fixture.chainName, mode: 'cold', ms },
  };
}

function withRpcUrl({ chainId, chainName, ...rest }: ChainDeployment, rpcUrl: string): ManifestChain {
  return { chainId, chainName, rpcUrl, ...rest };
}

/** sha256 over every deploy input: artifacts, Uniswap builds, fixture data, deploy code, anvil version. */
export function stateHash(fixture: ChainFixture): string {
  const hash = createHash('sha256').update(`deploy v${DEPLOY_VERSION}\n`);
  for (const name of CONTRACT_NAMES) hash.update(readFileSync(artifactPath(name)));
  const v2 = loadUniswapV2();
  hash.update(v2.factory.bytecode).update(v2.pair.bytecode);
  hash.update(loadUniswapV3().factory.bytecode);
  hash.update(
    JSON.stringify(fixture, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)),
  );
  for (const file of DEPLOY_SOURCES) hash.update(readFileSync(join(DEVNET_DIR, file)));
  const anvilPackage = createRequire(import.meta.url)('@foundry-rs/anvil/package.json') as {
    version: string;
  };
  hash.update(`anvil ${anvilPackage.version}`);
  return hash.digest('hex').slice(0, 16);
}

async function looksDeployed(url: string, deployment: ChainDeployment): Promise<boolean> {
  try {
    const [chainId, routerCode, executorCode] = (await new RpcClient(url).batch([
      { method: 'eth_chainId' },
      { method: 'eth_getCode', params: [deployment.router, 'latest'] },
      { method: 'eth_getCode', params: [deployment.executor, 'latest'] },
    ])) as Hex[];
    return Number(chainId) === deployment.chainId && routerCode !== '0x' && executorCode !== '0x';
  } catch {
    return false;
  }
}

async function useIntervalMining(url: string, seconds: number): Promise<void> {
  const rpc = new RpcClient(url);
  await rpc.request('evm_setAutomine', [false]);
  await rpc.request('evm_setIntervalMining', [seconds]);
}

/** States of older deploy inputs are never loaded again. */
function removeStaleStates(stateDir: string, chainName: ChainName, keep: string): void {
  for (const file of readdirSync(stateDir)) {
    const path = join(stateDir, file);
    if (file.startsWith(`${chainName}-`) && !path.startsWith(`${keep}.`)) rmSync(path, { force: true });
  }
}

/** Write then rename, so parallel starts never read a half-written file. */
function writeAtomically(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

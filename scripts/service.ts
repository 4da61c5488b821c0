// `npm run service`: the devnet (anvil, both chains) and the reference Swap Routing Service over it.
// The devnet writes its service configuration (.devnet/service-config.json) and the service starts
// from that file, finding the pools from the factories' events, as on any chain.
// `npm run service -- --config path` runs the service alone from any configuration (no devnet).
// Prints one `ready` line once it accepts requests; Ctrl-C stops the service, then anvil.
// Env: PORT (service port, default 8787), HOST (default 127.0.0.1), PUBLIC_BASE_URL (logo URL base).
// `--workers N` runs N service processes on that port (node:cluster; default 1).
import { DEVNET_SERVICE_CONFIG_PATH, writeDevnetServiceConfig } from '../devnet/service-config';
import { startDevnet } from '../devnet/start';
import { startServiceCluster } from '../service/cluster';
import { loadServiceManifest } from '../service/config-manifest';
import { DEFAULT_SERVICE_HOST, DEFAULT_SERVICE_PORT } from '../service/server';

/** The value of `--name value` or `--name=value`, or undefined. */
function argValue(argv: readonly string[], name: string): string | undefined {
  const index = argv.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
  if (index < 0) return undefined;
  const arg = argv[index] as string;
  const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[index + 1];
  if (!value) throw new Error(`${name} needs a value`);
  return value;
}

/** `--workers N` or `--workers=N`; 1 when absent. */
function workersArg(argv: readonly string[]): number {
  const index = argv.findIndex((arg) => arg === '--workers' || arg.startsWith('--workers='));
  if (index < 0) return 1;
  const arg = argv[index] as string;
  const raw = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[index + 1];
  const workers = Number(raw);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw new Error(`--workers must be a whole number from 1 to 64, got "${raw ?? ''}"`);
  }
  return workers;
}

function envPort(): number {
  const raw = process.env.PORT;
  if (raw === undefined || raw === '') return DEFAULT_SERVICE_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`PORT must be a port number, got "${raw}"`);
  return port;
}

async function main(): Promise<void> {
  const port = envPort();
  const argv = process.argv.slice(2);
  const workers = workersArg(argv);
  const givenConfig = argValue(argv, '--config');
  const devnet = givenConfig ? null : await startDevnet({ log: (line) => console.log(`[devnet] ${line}`) });
  let service: Awaited<ReturnType<typeof startServiceCluster>>;
  let rpcs: string;
  try {
    const configPath =
      givenConfig ??
      writeDevnetServiceConfig(
        devnet?.manifest as NonNullable<typeof devnet>['manifest'],
        DEVNET_SERVICE_CONFIG_PATH,
      );
    const loaded = await loadServiceManifest(configPath);
    for (const line of loaded.summary) console.log(`[service] ${line}`);
    rpcs = loaded.manifest.chains.map((chain) => `${chain.chainName} ${chain.rpcUrl}`).join(', ');
    service = await startServiceCluster({
      workers,
      manifest: loaded.manifest,
      port,
      host: process.env.HOST || DEFAULT_SERVICE_HOST,
      // The configuration file's limits and public URL; PUBLIC_BASE_URL overrides the latter.
      policy: {
        ...loaded.policy,
        ...(process.env.PUBLIC_BASE_URL ? { publicBaseUrl: process.env.PUBLIC_BASE_URL } : {}),
      },
    });
  } catch (error) {
    await devnet?.stop();
    throw error;
  }
  const processes = workers > 1 ? `, ${workers} worker processes` : '';
  console.log(`Swaplane service ready at ${service.url} (RPC: ${rpcs}${processes})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the service${devnet ? ' and the devnet' : ''}`);
    const results = await Promise.allSettled([service.close()]);
    if (devnet) results.push(...(await Promise.allSettled([devnet.stop()])));
    const failed = results.filter((result) => result.status === 'rejected');
    for (const failure of failed) console.error(failure.reason);
    process.exit(failed.length > 0 ? 1 : 0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});

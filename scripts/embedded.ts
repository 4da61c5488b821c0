// The embedded default in one call: the anvil devnet and the reference service over it, the service
// started from the configuration file the devnet writes (pools found from the factories' events),
// as on any chain. Used by `npm run demo`, the end-to-end tests and the benchmark.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVNET_SERVICE_CONFIG_PATH, writeDevnetServiceConfig } from '../devnet/service-config.ts';
import { type Devnet, startDevnet } from '../devnet/start.ts';
import { loadServiceManifest } from '../service/config-manifest.ts';
import { type RunningService, startService } from '../service/server.ts';

export interface EmbeddedDefault {
  devnet: Devnet;
  service: RunningService;
  /** RPC URL per chain id, for the extension's settings. */
  rpcUrls: Record<string, string>;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** 0 = free ports (tests); undefined = the well-known 8545 / 8546 / 8787. */
  ports?: { ethereum?: number; base?: number; service?: number };
  log?: (line: string) => void;
}

export async function startEmbeddedDefault(options: EmbeddedOptions = {}): Promise<EmbeddedDefault> {
  const devnetPorts: { ethereum?: number; base?: number } = {};
  if (options.ports?.ethereum !== undefined) devnetPorts.ethereum = options.ports.ethereum;
  if (options.ports?.base !== undefined) devnetPorts.base = options.ports.base;
  const devnet = await startDevnet({ ports: devnetPorts, ...(options.log ? { log: options.log } : {}) });
  let service: RunningService;
  try {
    // Free ports (tests) get a configuration of their own; the well-known ports share .devnet's.
    const configPath =
      options.ports?.ethereum === 0
        ? join(mkdtempSync(join(tmpdir(), 'swaplane-config-')), 'service-config.json')
        : DEVNET_SERVICE_CONFIG_PATH;
    const loaded = await loadServiceManifest(writeDevnetServiceConfig(devnet.manifest, configPath));
    for (const line of loaded.summary) options.log?.(line);
    service = await startService({
      manifest: loaded.manifest,
      policy: loaded.policy,
      ...(options.ports?.service !== undefined ? { port: options.ports.service } : {}),
    });
  } catch (error) {
    await devnet.stop();
    throw error;
  }
  const rpcUrls: Record<string, string> = {};
  for (const chain of devnet.manifest.chains) rpcUrls[String(chain.chainId)] = chain.rpcUrl;
  return {
    devnet,
    service,
    rpcUrls,
    async stop() {
      await service.close().catch(() => undefined);
      await devnet.stop();
    },
  };
}

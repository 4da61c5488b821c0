// Listens with @hono/node-server. Default 127.0.0.1:8787; port 0 picks a free port.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { createServiceApp, type ServiceDeps } from './app';
import { createRpcChainReaders } from './chain-reader';
import { type ConnectionStats, connectionServerOptions, guardConnections } from './connection-limits';
import type { ServiceManifest } from './manifest';
import { resolvePolicy } from './policy';

export interface StartServiceOptions extends Partial<Omit<ServiceDeps, 'manifest'>> {
  manifest: ServiceManifest;
  port?: number;
  host?: string;
}

export interface RunningService {
  url: string;
  close(): Promise<void>;
  /** Open sockets, answers queued in the process, refusals (this process only). */
  connections?(): ConnectionStats;
}

export const DEFAULT_SERVICE_PORT = 8787;
export const DEFAULT_SERVICE_HOST = '127.0.0.1';

export async function startService(options: StartServiceOptions): Promise<RunningService> {
  const { port = DEFAULT_SERVICE_PORT, host = DEFAULT_SERVICE_HOST, ...deps } = options;
  const policy = resolvePolicy(deps.policy);
  const readers = deps.readers ?? createRpcChainReaders(deps.manifest, policy);
  // The app is made once the address is known: unless configured, the logo URL base is where we
  // listen (configuration decides it, never a request's Host header).
  let app: Hono | undefined;
  const server = createAdaptorServer({
    fetch: (request, env) => app?.fetch(request, env) ?? new Response(null, { status: 503 }),
    hostname: host,
    serverOptions: connectionServerOptions(policy.connections),
  }) as Server;
  const guard = guardConnections(server, policy.connections);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${urlHost}:${address.port}`;
  app = createServiceApp({
    ...deps,
    readers,
    policy: { ...deps.policy, publicBaseUrl: deps.policy?.publicBaseUrl ?? url },
  });
  return {
    url,
    connections: guard.stats,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Keep-alive sockets would hold close() open until they time out.
        server.closeAllConnections();
        guard.destroyRefused();
        server.close((error) => {
          for (const reader of Object.values(readers)) reader?.close?.();
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}

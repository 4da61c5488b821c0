// Listens with @hono/node-server. Default 127.0.0.1:8787; port 0 picks a free port.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createServiceApp, type ServiceDeps } from './app';
import { createRpcChainReaders } from './chain-reader';
import type { ServiceManifest } from './manifest';

export interface StartServiceOptions extends Partial<Omit<ServiceDeps, 'manifest'>> {
  manifest: ServiceManifest;
  port?: number;
  host?: string;
}

export interface RunningService {
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_SERVICE_PORT = 8787;
export const DEFAULT_SERVICE_HOST = '127.0.0.1';

export async function startService(options: StartServiceOptions): Promise<RunningService> {
  const { port = DEFAULT_SERVICE_PORT, host = DEFAULT_SERVICE_HOST, ...deps } = options;
  const readers = deps.readers ?? createRpcChainReaders(deps.manifest);
  const app = createServiceApp({ ...deps, readers });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const created = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(created));
    created.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Keep-alive sockets would hold close() open until they time out.
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close((error) => {
          for (const reader of Object.values(readers)) reader?.close?.();
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}

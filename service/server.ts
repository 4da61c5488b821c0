// Listens with node:http: a request for a prepared answer (service/prepared-routes.ts) or a repeated
// quote (service/quote-hits.ts) is answered by the server, every other one goes to the app through
// @hono/node-server. Default
// 127.0.0.1:8787; port 0 picks a free port.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import { createService, type EarlyAnswers, type ServiceDeps } from './app';
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
  /** Prepared answers the server wrote before the app (this process only). */
  preparedAnswers?(): number;
  /** Quotes the server answered from the answer cache before the app (this process only). */
  quoteHitsBeforeApp?(): number;
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
  let early: EarlyAnswers | undefined;
  const toApp = getRequestListener(
    (request, env) => app?.fetch(request, env) ?? new Response(null, { status: 503 }),
    { hostname: host },
  );
  const server = createServer(connectionServerOptions(policy.connections), (request, response) => {
    if (early?.prepared.serve(request, response)) return;
    if (early?.quoteHits.serve(request, response, toApp)) return;
    void toApp(request, response);
  });
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
  const service = createService({
    ...deps,
    readers,
    policy: { ...deps.policy, publicBaseUrl: deps.policy?.publicBaseUrl ?? url },
  });
  ({ app } = service);
  early = service;
  return {
    url,
    connections: guard.stats,
    preparedAnswers: () => early?.prepared.served ?? 0,
    quoteHitsBeforeApp: () => early?.quoteHits.served ?? 0,
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

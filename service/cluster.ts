// Scale out on one machine: N service processes (node:cluster) share one listening port; the
// primary hands the connections out. Each worker is a whole service (its own head watcher, pool
// state, read from the RPC): nothing is shared between requests or between workers, so the same
// holds for replicas on other machines behind any HTTP load balancer.
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { parseServiceManifest, type ServiceManifest } from './manifest';
import type { ServicePolicy } from './policy';
import { type RunningService, type StartServiceOptions, startService } from './server';

/** Marks a forked service worker; the manifest comes over IPC (too big for the environment). */
const WORKER_ENV = 'SWAPLANE_SERVICE_WORKER';

interface WorkerOptions {
  port: number;
  host: string;
  /** Plain JSON (numbers, strings, null), so it crosses IPC unchanged. */
  policy: Partial<ServicePolicy>;
}

interface StartMessage {
  type: 'swaplane-start';
  manifest: unknown;
  options: WorkerOptions;
}

interface ReadyMessage {
  type: 'swaplane-ready';
  url: string;
}

/** Worker side: start the service from the primary's manifest and say where it listens. */
export async function runServiceWorker(): Promise<void> {
  if (!cluster.isWorker || process.env[WORKER_ENV] !== '1') throw new Error('not a forked service worker');
  const start = await new Promise<StartMessage>((resolve) => {
    const listen = (message: StartMessage) => {
      if (message?.type !== 'swaplane-start') return;
      process.off('message', listen);
      resolve(message);
    };
    process.on('message', listen);
    // Asked for only once listening: IPC messages that arrive before a listener are lost.
    process.send?.({ type: 'swaplane-hello' });
  });
  const manifest = parseServiceManifest(start.manifest);
  const options = start.options;
  const service = await startService({
    manifest,
    port: options.port,
    host: options.host,
    policy: options.policy,
  });
  process.send?.({ type: 'swaplane-ready', url: service.url } satisfies ReadyMessage);
  process.on('SIGTERM', () => void service.close().finally(() => process.exit(0)));
}

/**
 * Primary side: fork `workers` service processes on one port and resolve once all listen. A
 * worker that dies is replaced (it holds no state worth keeping). close() stops them all.
 */
export async function startServiceCluster(
  options: Omit<StartServiceOptions, 'readers'> & { workers: number; manifest: ServiceManifest },
): Promise<RunningService> {
  if (!Number.isInteger(options.workers) || options.workers < 1) {
    throw new Error(`workers must be a whole number of at least 1, got ${options.workers}`);
  }
  if (options.workers === 1) return startService(options);
  const first: StartMessage = {
    type: 'swaplane-start',
    manifest: options.manifest,
    options: {
      port: options.port ?? 8787,
      host: options.host ?? '127.0.0.1',
      policy: options.policy ?? {},
    },
  };
  cluster.setupPrimary({ exec: fileURLToPath(new URL('./cluster-worker.ts', import.meta.url)), args: [] });
  let closing = false;
  const workers = new Set<Worker>();
  const fork = (start: StartMessage): Promise<string> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork({ [WORKER_ENV]: '1' });
      workers.add(worker);
      worker.on('message', (message: ReadyMessage | { type: 'swaplane-hello' }) => {
        if (message?.type === 'swaplane-hello') worker.send(start);
        else if (message?.type === 'swaplane-ready') resolve(message.url);
      });
      worker.once('exit', (code) => {
        workers.delete(worker);
        reject(new Error(`a service worker exited with code ${code} before it was ready`));
        if (!closing) void fork(start).catch(() => {});
      });
    });
  // Workers share the primary's listening handle: with port 0 they all get the same free port.
  const urls = await Promise.all(Array.from({ length: options.workers }, () => fork(first)));
  return {
    url: urls[0] as string,
    close: async () => {
      closing = true;
      await Promise.all(
        [...workers].map(
          (worker) =>
            new Promise<void>((resolve) => {
              worker.once('exit', () => resolve());
              worker.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}

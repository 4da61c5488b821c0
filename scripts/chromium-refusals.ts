// How Chromium's network stack, in the built extension's background, reads the service's
// connection-level refusals (written as the connection opens, before a byte of the request is
// read): for each cap, one socket is held so the next connection is refused, and the worker's own
// fetch is asked for a GET and a POST. It prints what the fetch saw and how many connections the
// service refused (one per fetch: the browser does not retry them on its own). A development check
// beside tests/integration/service-refusals-client.test.ts, which drives the extension's API client
// under Node. Needs the built extension (`npx wxt build`).
//   npx tsx scripts/chromium-refusals.ts
import { connect } from 'node:net';
import { pathToFileURL } from 'node:url';
import { startDevnet } from '../devnet/start';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from '../service/connection-limits';
import { startService } from '../service/server';
import { launchWithExtension, serviceWorkerOf } from '../tests/e2e/launch.ts';

type Caps = Pick<ConnectionLimits, 'maxPerClient' | 'maxTotal'>;
const CASES: { name: string; caps: Caps; holdFrom: string }[] = [
  { name: 'per-client cap (429)', caps: { maxPerClient: 1, maxTotal: 100 }, holdFrom: '127.0.0.1' },
  { name: 'total cap (503)', caps: { maxPerClient: 100, maxTotal: 1 }, holdFrom: '127.0.0.2' },
];
const LONG = { headersTimeoutMs: 20_000, requestTimeoutMs: 20_000, keepAliveTimeoutMs: 20_000 };

async function main(): Promise<void> {
  const devnet = await startDevnet({ ports: { ethereum: 0, base: 0 } });
  const launched = await launchWithExtension();
  try {
    const worker = await serviceWorkerOf(launched.context);
    for (const { name, caps, holdFrom } of CASES) {
      const connections = { ...DEFAULT_CONNECTION_LIMITS, ...LONG, ...caps };
      const service = await startService({
        manifest: devnet.manifest,
        port: 0,
        log: () => {},
        policy: { rateLimits: null, connections },
      });
      const port = Number(new URL(service.url).port);
      const held = connect({ host: '127.0.0.1', port, localAddress: holdFrom });
      await new Promise((resolve) => held.once('connect', resolve));
      while (service.connections?.().open !== 1) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const [method, path] of [
        ['GET', '/v1/health'],
        ['POST', '/v1/quote'],
      ] as const) {
        const seen = await worker.evaluate(
          async ({ url, method }) => {
            try {
              const body = method === 'POST' ? '{"chainId":1}' : undefined;
              const init = { method, body, credentials: 'omit', redirect: 'manual' } as const;
              const answer = await fetch(url, { ...init, headers: { 'content-type': 'application/json' } });
              return {
                status: answer.status,
                retryAfter: answer.headers.get('retry-after'),
                body: await answer.text(),
              };
            } catch (error) {
              return { error: String(error) };
            }
          },
          { url: `${service.url}${path}`, method },
        );
        const refused = service.connections?.().refused;
        console.log(
          `${name}: ${method} ${path} -> ${JSON.stringify(seen)}; refused so far ${JSON.stringify(refused)}`,
        );
      }
      held.destroy();
      await service.close();
    }
  } finally {
    await launched.close();
    await devnet.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

// Starts one embedded default (devnet + reference service) on free ports per Playwright worker
// (E2E_WORKERS), so workers never share a chain (nonces, automine, pool prices). Each worker picks its
// own by its parallel index (selectE2eEnvironment in workers.ts, called by fixtures.ts); tests
// point the extension at it through its settings (see `useEmbeddedDefault` in fixtures.ts).
import { startEmbeddedDefault } from '../../scripts/embedded.ts';
import { E2E_WORKERS } from './workers';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const started: Awaited<ReturnType<typeof startEmbeddedDefault>>[] = [];
  for (let index = 0; index < E2E_WORKERS; index++) {
    started.push(await startEmbeddedDefault({ ports: { ethereum: 0, base: 0, service: 0 } }));
  }
  process.env.SWAPLANE_E2E_ENVIRONMENTS = JSON.stringify(
    started.map((embedded) => ({
      serviceUrl: embedded.service.url,
      rpcUrls: embedded.rpcUrls,
      // The explorer card's safety-check tokens (devnet/safety-tokens.ts) on chain 1.
      safetyTokens: embedded.devnet.manifest.chains[0]?.safetyTokens,
    })),
  );
  return async () => {
    await Promise.all(started.map((embedded) => embedded.stop()));
  };
}

// Starts the embedded default (devnet + reference service) on free ports once for the e2e run;
// tests point the extension at it through its settings (see `useEmbeddedDefault` in fixtures.ts).
import { startEmbeddedDefault } from '../../scripts/embedded.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const embedded = await startEmbeddedDefault({ ports: { ethereum: 0, base: 0, service: 0 } });
  process.env.SWAPLANE_E2E_SERVICE_URL = embedded.service.url;
  process.env.SWAPLANE_E2E_RPC_URLS = JSON.stringify(embedded.rpcUrls);
  // The explorer card's safety-check tokens (devnet/safety-tokens.ts) on chain 1.
  process.env.SWAPLANE_E2E_SAFETY_TOKENS = JSON.stringify(embedded.devnet.manifest.chains[0]?.safetyTokens);
  return () => embedded.stop();
}

// How many Playwright workers run the e2e suite, each with its own devnet and service (global-setup.ts).
// One for now: with two, the run took 11.2 instead of 12.5 minutes on two cores (the tests are mostly
// CPU-bound there), and review-trust.spec's fee test hung once in a review that never finished simulating
// (not explained yet). Vitest beside the e2e was tried too: on a loaded machine unit tests ran past
// their 5 s timeouts, so it runs before them. Tests on one devnet see what earlier ones left on it: one
// that mines a high priority fee mines it out of the fee history after (signing-attacks.spec), or a
// later small swap reads a fee over 10% and must be ticked.
export const E2E_WORKERS = 1;

/**
 * This worker's devnet and service, set as the SWAPLANE_E2E_* variables the specs read. Playwright
 * numbers a worker's slot TEST_PARALLEL_INDEX (0 .. workers-1), stable across its restarts.
 */
export function selectE2eEnvironment(env: NodeJS.ProcessEnv = process.env): void {
  const all = JSON.parse(env.SWAPLANE_E2E_ENVIRONMENTS ?? '[]') as {
    serviceUrl: string;
    rpcUrls: Record<string, string>;
    safetyTokens: unknown;
  }[];
  const mine = all[Number(env.TEST_PARALLEL_INDEX ?? 0) % Math.max(all.length, 1)];
  if (!mine) return;
  env.SWAPLANE_E2E_SERVICE_URL = mine.serviceUrl;
  env.SWAPLANE_E2E_RPC_URLS = JSON.stringify(mine.rpcUrls);
  env.SWAPLANE_E2E_SAFETY_TOKENS = JSON.stringify(mine.safetyTokens);
}

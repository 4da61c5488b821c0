import { defineConfig } from '@playwright/test';
import { E2E_WORKERS } from './tests/e2e/workers';

// The built extension (.output/chrome-mv3) in Debian Chromium; see tests/e2e/fixtures.ts.
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Files spread over the workers, each file's tests in order on its worker's own devnet and service.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: 'test-results',
  // A failed test keeps its trace (actions, DOM snapshots, console, network) and a screenshot. The trace's
  // screencast is off: Chromium encoded frames through every test for it, and paired runs of two specs
  // took 15-25% longer with it (113/83, 81/61, 62/53 s, loaded machine).
  use: { trace: { mode: 'retain-on-failure', screenshots: false }, screenshot: 'only-on-failure' },
});

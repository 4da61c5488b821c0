// Launching Debian Chromium with the built extension: shared by the e2e fixtures and the benchmark.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Worker } from '@playwright/test';

export const EXTENSION_PATH = path.resolve('.output/chrome-mv3');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launches Chromium with the built extension (or another unpacked one) in a throwaway profile. */
export async function launchWithExtension(
  extensionPath = EXTENSION_PATH,
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!existsSync(path.join(extensionPath, 'manifest.json'))) {
    throw new Error(`No built extension at ${extensionPath}: run \`npm run build\` first.`);
  }
  const profile = mkdtempSync(path.join(tmpdir(), 'swaplane-e2e-'));
  const args = [
    `--disable-extensions-except=${extensionPath}`,
    `--load-extension=${extensionPath}`,
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--disable-gpu',
  ];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function serviceWorkerOf(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
}

export function extensionIdOf(worker: Worker): string {
  const id = new URL(worker.url()).host;
  if (!id) throw new Error(`Cannot read the extension id from ${worker.url()}`);
  return id;
}

// Launching Debian Chromium with the built extension: shared by the e2e fixtures and the benchmark.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Worker } from '@playwright/test';

export const EXTENSION_PATH = path.resolve('.output/chrome-mv3');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A launched Chromium: its context, its own error log so far, and closing it (the profile goes too). */
export interface LaunchedChromium {
  context: BrowserContext;
  /** The end of Chromium's log (errors and fatal checks only), to tell why it exited if it did. */
  chromiumLog(): string;
  close(): Promise<void>;
}

/** Launches Chromium with the built extension (or another unpacked one) in a throwaway profile. */
export async function launchWithExtension(extensionPath = EXTENSION_PATH): Promise<LaunchedChromium> {
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
    // Errors and fatal checks to a file in the profile: Playwright only says "browser has been closed"
    // when Chromium exits, and Chromium's own last words say why.
    '--enable-logging',
    '--log-level=2',
    `--log-file=${path.join(profile, 'chromium.log')}`,
  ];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args,
  });
  return {
    context,
    chromiumLog() {
      const log = path.join(profile, 'chromium.log');
      return existsSync(log) ? readFileSync(log, 'utf8').slice(-8_000) : '';
    },
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

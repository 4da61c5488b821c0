// Extension overhead on a quote: popup -> background -> service -> popup, against a direct
// fetch of the same service with the same body, from the same popup page, interleaved.
import { extensionIdOf, launchWithExtension, serviceWorkerOf } from '../tests/e2e/launch.ts';
import { USDC } from '../tests/support/addresses.ts';
import { startEmbeddedDefault } from './embedded.ts';

export interface QuoteOverheadResult {
  samples: number;
  directP50Ms: number;
  extensionP50Ms: number;
  overheadP50Ms: number;
  directP95Ms: number;
  extensionP95Ms: number;
}

const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';

export async function benchQuoteOverhead(samples = 80): Promise<QuoteOverheadResult> {
  const embedded = await startEmbeddedDefault({ ports: { ethereum: 0, base: 0, service: 0 } });
  const browser = await launchWithExtension();
  try {
    const extensionId = extensionIdOf(await serviceWorkerOf(browser.context));
    const page = await browser.context.newPage();
    await page.goto(`chrome-extension://${extensionId}/popup.html`);
    // tsx (esbuild keepNames) wraps named functions in __name(); give the page a no-op one.
    await page.evaluate('globalThis.__name = (fn) => fn');
    return await page.evaluate(
      async ({ serviceUrl, rpcUrls, samples, usdc, native }) => {
        type Runtime = {
          sendMessage(message: unknown): Promise<{ ok: boolean; result: Record<string, unknown> }>;
        };
        const runtime = (globalThis as unknown as { chrome: { runtime: Runtime } }).chrome.runtime;
        const settings = await runtime.sendMessage({ type: 'getSettings' });
        await runtime.sendMessage({
          type: 'updateSettings',
          settings: { ...settings.result, serviceBaseUrl: serviceUrl, rpcOverrides: rpcUrls, slippage: 0.5 },
        });
        const body = JSON.stringify({
          chainId: 1,
          inToken: native,
          outToken: usdc,
          inAmount: '1000000000000000000',
          slippage: 0.5,
        });
        const direct = async () => {
          const response = await fetch(`${serviceUrl}/v1/quote`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          await response.json();
        };
        const viaExtension = async () => {
          const answer = await runtime.sendMessage({ type: 'oneClickQuote', chainId: 1, token: usdc });
          if (!answer.ok) throw new Error(JSON.stringify(answer));
        };
        const time = async (fn: () => Promise<void>) => {
          const start = performance.now();
          await fn();
          return performance.now() - start;
        };
        for (let i = 0; i < 10; i++) {
          await direct();
          await viaExtension();
        }
        const directTimes: number[] = [];
        const extensionTimes: number[] = [];
        for (let i = 0; i < samples; i++) {
          directTimes.push(await time(direct));
          extensionTimes.push(await time(viaExtension));
        }
        const pct = (values: number[], p: number) => {
          const sorted = [...values].sort((a, b) => a - b);
          return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
        };
        return {
          samples,
          directP50Ms: pct(directTimes, 50),
          extensionP50Ms: pct(extensionTimes, 50),
          overheadP50Ms: pct(extensionTimes, 50) - pct(directTimes, 50),
          directP95Ms: pct(directTimes, 95),
          extensionP95Ms: pct(extensionTimes, 95),
        };
      },
      { serviceUrl: embedded.service.url, rpcUrls: embedded.rpcUrls, samples, usdc: USDC, native: NATIVE },
    );
  } finally {
    await browser.close();
    await embedded.stop();
  }
}

// `npm run test:firefox`: the Firefox build's end-to-end smoke in Firefox ESR, on the real devnet and
// reference service (free ports). Each step must finish within its time; the run fails on the first
// step that does not, and on any error an extension page (or a test page) printed. Prints the
// Firefox version and each step's time.
import { startEmbeddedDefault } from '../../scripts/embedded.ts';
import { type Dapp, dappConnectAndSign, dappSendTypedDataAndSwitch, openDapp } from './dapp-steps.ts';
import { launchFirefox } from './firefox.ts';
import { explorerQuote } from './page-steps.ts';
import {
  ACCOUNT,
  autoLockAndUnlock,
  type CopiedPhrase,
  copyRecoveryPhrase,
  expectPhraseCleared,
  importWallet,
  swapAndReadActivity,
} from './wallet-steps.ts';

const STEP_LIMIT_MS = 150_000;

async function step(name: string, run: () => Promise<void>): Promise<void> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`did not finish within ${STEP_LIMIT_MS / 1000}s`)),
      STEP_LIMIT_MS,
    );
  });
  try {
    await Promise.race([run(), limit]);
  } catch (error) {
    throw new Error(`step "${name}" failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
  console.log(`  ok  ${name} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const [embedded, firefox] = await Promise.all([
    startEmbeddedDefault({ ports: { ethereum: 0, base: 0, service: 0 } }),
    launchFirefox(),
  ]);
  let failure: unknown = null;
  let dapp: Dapp | undefined;
  try {
    console.log(`Firefox smoke in ${firefox.version}`);
    const urls = { serviceUrl: embedded.service.url, rpcUrls: embedded.rpcUrls };
    const checkProblems = () => {
      if (firefox.problems.length > 0)
        throw new Error(`Firefox printed errors:\n${firefox.problems.join('\n')}`);
    };
    let copied: CopiedPhrase | undefined;
    await step("a new wallet's recovery phrase copied: on the clipboard, its clear due in 30 s", async () => {
      copied = await copyRecoveryPhrase(firefox);
      checkProblems();
    });
    let popup: Awaited<ReturnType<typeof importWallet>> | undefined;
    await step('import a wallet in the popup (fits 360x600 and 360x480)', async () => {
      popup = await importWallet(firefox.browser, urls);
      checkProblems();
    });
    await step('swap ETH -> USDC and USDC -> DAI with an approval; Activity lists them', async () => {
      if (!popup) throw new Error('no popup');
      await swapAndReadActivity(popup, urls);
      checkProblems();
    });
    await step('explorer page at its real URL: the Swap control and its quote card', async () => {
      await explorerQuote(firefox.browser, urls);
      checkProblems();
    });
    await step(
      'dapp: EIP-6963, connect, personal_sign verified with viem; windows open in front, a second request refocuses the one window; a closed window answers 4001',
      async () => {
        dapp = await openDapp(firefox.browser);
        await dappConnectAndSign(firefox.browser, dapp, ACCOUNT);
        checkProblems();
      },
    );
    await step(
      'dapp: a send and a USDC transfer reviewed (amount, recipient, simulated change fitting 360x480, fee) and mined; typed data verified; Base switched to',
      async () => {
        if (!dapp) throw new Error('no dapp page');
        await dappSendTypedDataAndSwitch(dapp, firefox.browser, ACCOUNT, urls);
        await dapp.close();
        dapp = undefined;
        checkProblems();
      },
    );
    await step('the copied phrase cleared from the clipboard by the event page, no page open', async () => {
      if (!copied) throw new Error('nothing was copied');
      await expectPhraseCleared(firefox, copied);
      checkProblems();
    });
    await step('auto-lock with the event page unloaded, then unlock', async () => {
      await autoLockAndUnlock(firefox);
      checkProblems();
    });
  } catch (error) {
    failure = error;
  } finally {
    await dapp?.close();
    await firefox.close().catch(() => undefined);
    await embedded.stop();
  }
  if (failure) {
    console.error(failure instanceof Error ? failure.message : failure);
    // Firefox's own chatter (remote agent, GLib, remote settings) left out: pages' lines only.
    const pageLines = firefox.output.filter((line) =>
      /moz-extension:|https?:\/\/(?!.*\.sys\.mjs)|^console\./.test(line),
    );
    console.error(`--- Firefox's last lines about pages ---\n${pageLines.slice(-40).join('\n')}`);
    process.exit(1);
  }
  console.log(`Firefox smoke passed in ${((Date.now() - started) / 1000).toFixed(1)}s (${firefox.version})`);
}

await main();

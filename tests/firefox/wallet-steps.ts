// The popup's steps of the Firefox smoke: set up, import, swap ETH -> USDC and USDC -> DAI (with an
// approval), Activity, the auto-lock after the event page was unloaded, and a copied recovery phrase
// cleared from the clipboard by the event page.
import type { Browser, Page } from 'puppeteer-core';
import { createPublicClient, erc20Abi, http } from 'viem';
import { formatAmount } from '../../lib/amounts/index.ts';
import { DAI, USDC } from '../support/addresses.ts';
import {
  EXTENSION_ORIGIN,
  type Firefox,
  openExtensionPage,
  sendFromPage,
  sessionStorageShape,
  waitForBackgroundStopped,
} from './firefox.ts';
import { expectPopupFits } from './layout.ts';
import { click, find, popup, STEP_TIMEOUT_MS, waitForText } from './screen.ts';

export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
export const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
export const PASSWORD = 'firefox smoke passphrase';
const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

export interface Embedded {
  serviceUrl: string;
  rpcUrls: Record<string, string>;
}

/** Changes settings from an extension page, as the options page does. */
export async function patchSettings(page: Page, patch: Record<string, unknown>): Promise<void> {
  const current = (await sendFromPage(page, { type: 'getSettings' })) as {
    ok: boolean;
    result: Record<string, unknown>;
  };
  if (!current.ok) throw new Error(`could not read settings: ${JSON.stringify(current)}`);
  const answer = (await sendFromPage(page, {
    type: 'updateSettings',
    settings: { ...current.result, ...patch },
    confirmTrustChange: true,
  })) as { ok: boolean };
  if (!answer.ok) throw new Error(`could not update settings: ${JSON.stringify(answer)}`);
}

/** Points the extension at the devnet and service, then imports anvil's wallet in the popup. */
export async function importWallet(browser: Browser, embedded: Embedded): Promise<Page> {
  const page = await openExtensionPage(browser, 'popup.html');
  await patchSettings(page, { serviceBaseUrl: embedded.serviceUrl, rpcOverrides: embedded.rpcUrls });
  await popup.fillImport(page, ANVIL_MNEMONIC, PASSWORD);
  await expectPopupFits(page, 'import screen', popup.importButton);
  await click(page, popup.importButton);
  await waitForText(page, ACCOUNT.slice(0, 6));
  return page;
}

function balances(embedded: Embedded) {
  const chain = createPublicClient({ transport: http(embedded.rpcUrls['1']) });
  return (token: `0x${string}`) =>
    chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [ACCOUNT] });
}

/** Quotes, reviews (the sheet must fit at both sizes) and confirms one swap; returns what arrived. */
async function swap(
  page: Page,
  embedded: Embedded,
  pair: { from: [string, string]; to: [string, `0x${string}`, number]; amount: string },
): Promise<bigint> {
  const balance = balances(embedded);
  const [toSymbol, toAddress, toDecimals] = pair.to;
  const before = await balance(toAddress);
  await popup.pickToken(page, 'From', pair.from[0], pair.from[1]);
  await popup.pickToken(page, 'To', toSymbol, toAddress);
  await popup.enterAmount(page, pair.amount);
  await waitForText(page, new RegExp(`You receive[\\s\\S]*${toSymbol}`));
  await page.waitForFunction(
    (name: string) =>
      [...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === name && !b.disabled),
    { timeout: STEP_TIMEOUT_MS },
    popup.reviewButton,
  );
  await expectPopupFits(page, `quote of ${pair.amount} ${pair.from[0]} -> ${toSymbol}`, popup.reviewButton);
  await click(page, popup.reviewButton);
  await find(page, popup.reviewButton, 'dialog');
  // Ready: Confirm enabled, or a tick that trusts the router (when the review asks for it) is shown.
  const confirmReady = (name: string, orTrustTick: boolean) =>
    page.waitForFunction(
      (wanted: string, tick: boolean) =>
        [...document.querySelectorAll('button')].some(
          (b) => b.textContent?.trim() === wanted && !b.disabled,
        ) ||
        (tick &&
          [...document.querySelectorAll('[role="dialog"] label')].some(
            (label) =>
              /trust/i.test(label.textContent ?? '') && label.querySelector('input[type="checkbox"]'),
          )),
      { timeout: STEP_TIMEOUT_MS },
      name,
      orTrustTick,
    );
  await confirmReady(popup.confirmButton, true);
  await popup.tickRouterTrustIfShown(page);
  await confirmReady(popup.confirmButton, false);
  await expectPopupFits(page, `review of ${pair.amount} ${pair.from[0]} -> ${toSymbol}`, popup.confirmButton);
  await click(page, popup.confirmButton);
  await waitForText(page, popup.swapDone, 60_000);
  const received = (await balance(toAddress)) - before;
  if (received <= 0n) throw new Error(`the chain shows no ${toSymbol} received`);
  await waitForText(page, `You received ${formatAmount(received, toDecimals)} ${toSymbol}`);
  await popup.done(page);
  return received;
}

/** ETH -> USDC (the router trusted on the way), then USDC -> DAI with an exact approval; Activity. */
export async function swapAndReadActivity(page: Page, embedded: Embedded): Promise<void> {
  const balance = balances(embedded);
  const usdcBefore = await balance(USDC);
  const usdc = await swap(page, embedded, { from: ['ETH', ETH], to: ['USDC', USDC, 6], amount: '1' });
  await swap(page, embedded, { from: ['USDC', USDC], to: ['DAI', DAI, 18], amount: '100' });
  const usdcAfter = await balance(USDC);
  if (usdcAfter !== usdcBefore + usdc - 100_000_000n)
    throw new Error(`USDC balance ${usdcAfter}, expected ${usdcBefore + usdc - 100_000_000n}`);
  const activity = await popup.openActivity(page);
  for (const line of ['Swap 1 ETH →', 'Swap 100 USDC →', 'Approv'])
    if (!activity.includes(line)) throw new Error(`Activity lacks "${line}":\n${activity}`);
}

/**
 * Auto-lock with the event page unloaded: the lock is due in a minute, every extension page is
 * closed and Firefox unloads the idle background; at the lock time the alarm wakes it and it locks
 * (the unlocked session leaves storage.session before any page opens); the popup then asks for the
 * password and unlocks.
 */
export async function autoLockAndUnlock(firefox: Firefox): Promise<void> {
  const { browser } = firefox;
  const setup = await openExtensionPage(browser, 'options.html');
  await patchSettings(setup, { autoLockMinutes: 1 });
  const state = (await sendFromPage(setup, { type: 'popupStart' })) as {
    result: { wallet: { status: string; lockAt: number | null } };
  };
  const lockAt = state.result.wallet.lockAt;
  if (state.result.wallet.status !== 'unlocked' || lockAt === null)
    throw new Error(`expected an unlocked wallet with a lock time: ${JSON.stringify(state.result.wallet)}`);
  for (const page of await browser.pages()) if (page.url().startsWith(EXTENSION_ORIGIN)) await page.close();
  await waitForBackgroundStopped(firefox);
  if ((await sessionStorageShape(firefox)).walletSession !== 'value')
    throw new Error('the unlocked session is gone before the lock time');
  // The alarm fires at lockAt; Firefox may run it a little late.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, lockAt - Date.now()) + 3_000));
  const deadline = Date.now() + 20_000;
  while ((await sessionStorageShape(firefox)).walletSession === 'value') {
    if (Date.now() > deadline) throw new Error('the alarm did not lock the wallet (no page open)');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const page = await openExtensionPage(browser, 'popup.html');
  await find(page, 'Unlock', 'button');
  await popup.unlock(page, PASSWORD);
  await waitForText(page, ACCOUNT.slice(0, 6));
  await find(page, 'Lock', 'button');
}

/** The system clipboard's text, read from an extension page (the extension holds clipboardRead). */
function readClipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

/** The background's clipboard alarm, read from an extension page (alarms are the extension's, not the page's). */
function clipboardAlarm(page: Page): Promise<{ scheduledTime: number } | undefined> {
  return page.evaluate(() =>
    (
      globalThis as unknown as {
        browser: { alarms: { get(name: string): Promise<{ scheduledTime: number } | undefined> } };
      }
    ).browser.alarms.get('clear-clipboard'),
  );
}

export interface CopiedPhrase {
  /** When the background's alarm clears it. */
  clearAt: number;
}

/**
 * A new wallet's recovery phrase copied with Copy: 12 words on the clipboard and the background's
 * clear due 30 s later; then every page closes, so only the event page (woken by its alarm) can clear it.
 */
export async function copyRecoveryPhrase(firefox: Firefox): Promise<CopiedPhrase> {
  const page = await openExtensionPage(firefox.browser, 'popup.html');
  await click(page, popup.createButton);
  const copiedAt = Date.now();
  await click(page, popup.copyPhraseButton);
  await waitForText(page, popup.phraseCopied);
  const reader = await openExtensionPage(firefox.browser, 'options.html');
  const words = (await readClipboard(reader)).split(' ');
  if (words.length !== 12)
    throw new Error(`the clipboard holds ${words.length} words, not the 12 of the phrase`);
  const alarm = await clipboardAlarm(reader);
  if (!alarm || alarm.scheduledTime < copiedAt + 29_000 || alarm.scheduledTime > Date.now() + 31_000)
    throw new Error(`no clear due 30 s after the copy: ${JSON.stringify(alarm)}`);
  await page.close();
  await reader.close();
  return { clearAt: alarm.scheduledTime };
}

/** The copied phrase left the clipboard at its time, cleared by the event page with no page of ours open. */
export async function expectPhraseCleared(firefox: Firefox, copied: CopiedPhrase): Promise<void> {
  // Other steps ran meanwhile: usually past due already. Firefox may run an alarm a little late.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, copied.clearAt - Date.now())));
  const reader = await openExtensionPage(firefox.browser, 'options.html');
  const deadline = Date.now() + 20_000;
  let text = await readClipboard(reader);
  while (text !== '') {
    if (Date.now() > deadline)
      throw new Error(
        `the clipboard still holds ${text.split(' ').length} words 20 s after the clear was due`,
      );
    await new Promise((resolve) => setTimeout(resolve, 500));
    text = await readClipboard(reader);
  }
  await reader.close();
}

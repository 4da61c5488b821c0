// Swaplane against a real dapp written by others: MetaMask's test dapp (@metamask/test-dapp, its
// static dist/ served on loopback), in one test sharing one page and one connect (e2e time is
// scarce). Connect choosing the second account; personal_sign and eth_signTypedData_v4 with the
// dapp's own Verify; the activation delay against a double click on a queued request; a rejection
// (4001, nothing sent); a send; the dapp's ERC-20 deployed and approved; its NFTs deployed, minted
// and approved for all; chain switches. Results are checked independently too: signatures
// recovered with viem, receipts on the devnet. The approval window is checked with axe in light and
// dark at 360x600 (connect, typed data, transaction); SWAPLANE_SCREENS_DIR keeps screenshots.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { type Hex, recoverMessageAddress, recoverTypedDataAddress } from 'viem';
import {
  answerOf,
  axeViolations,
  clickClosing,
  keepOnLoopback,
  nextApprovalWindow,
  providerRequest,
  type StaticSite,
  serveStatic,
  startRequests,
} from './dapp/support';
import { ACCOUNT, expect, rpcCall, sendFromView, setUpWallet, test, watchPageProblems } from './fixtures';

const TEST_DAPP = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@metamask/test-dapp/package.json')),
  'dist',
);

let site: StaticSite;
test.beforeAll(async () => {
  site = await serveStatic(TEST_DAPP);
});
test.afterAll(async () => site.close());

const SECOND_ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** The spender of the test dapp's "Approve Tokens" and the operator of its "Set Approval For All". */
const DAPP_SPENDER = '0x9bc5baF874d2DA8D216aE9f137804184EE5AfEF4';
const SCREENS = process.env.SWAPLANE_SCREENS_DIR;

/** Axe clean in light and dark, no horizontal overflow at 360x600 (and 360x480); screenshots kept when asked. */
async function auditWindow(prompt: Page, name: string): Promise<void> {
  await prompt.setViewportSize({ width: 360, height: 600 });
  for (const colorScheme of ['light', 'dark'] as const) {
    await prompt.emulateMedia({ colorScheme });
    expect(await axeViolations(prompt), `axe on the ${name} window (${colorScheme})`).toEqual([]);
    const width = await prompt.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `the ${name} window (${colorScheme}) scrolls sideways`).toBeLessThanOrEqual(360);
    if (SCREENS) await prompt.screenshot({ path: path.join(SCREENS, `${name}-${colorScheme}.png`) });
  }
  await prompt.emulateMedia({ colorScheme: 'light' });
  // Shorter (360x480): the page scrolls, never sideways, and the actions stay in view.
  await prompt.setViewportSize({ width: 360, height: 480 });
  expect(await prompt.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expect(prompt.getByRole('button', { name: 'Reject' })).toBeInViewport();
  await prompt.setViewportSize({ width: 360, height: 600 });
}

/** Clicks a dapp button and confirms the transaction it asks for; returns nothing until it is sent. */
async function confirmFromDapp(
  dapp: Page,
  context: BrowserContext,
  extensionId: string,
  button: string,
  check?: (prompt: Page) => Promise<void>,
): Promise<void> {
  await expect(dapp.locator(button)).toBeEnabled({ timeout: 30_000 });
  const approval = nextApprovalWindow(context, extensionId);
  await dapp.locator(button).click();
  const prompt = await approval;
  await expect(prompt.getByRole('heading', { name: 'Confirm this transaction?' })).toBeVisible();
  await check?.(prompt);
  await clickClosing(prompt, prompt.getByRole('button', { name: 'Confirm' }));
}

test('MetaMask test dapp: choose an account, sign and verify, tokens, NFTs, a send, a rejection, the delay', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(240_000);
  const { page: setup, rpcUrls } = await setUpWallet(context, extensionId);
  // A second account: the one this site will see.
  const added = (await sendFromView(setup, { type: 'walletAddAccount' })) as {
    result: { accounts: { id: string; address: string }[] };
  };
  // Account 1 stays the active one: the site is offered it first and the user picks the other.
  const first = added.result.accounts.find((account) => account.address === ACCOUNT);
  await sendFromView(setup, { type: 'walletSetActive', id: first?.id });
  await setup.close();
  const rpc = rpcUrls['1'] as string;

  const dapp = await context.newPage();
  await keepOnLoopback(dapp);
  const problems = await watchPageProblems(dapp);
  await dapp.goto(`${site.url}/index.html`);
  // Found through EIP-6963 (window.ethereum is off by default).
  await dapp.getByRole('button', { name: 'Use Swaplane' }).click();
  await expect(dapp.locator('#activeProviderName')).toHaveText('Swaplane');
  await expect(dapp.locator('#chainId')).toHaveText('0x1');
  await expect(dapp.locator('#accounts')).toHaveText('');

  await test.step('connect, choosing the second account only', async () => {
    const approval = nextApprovalWindow(context, extensionId);
    await dapp.locator('#connectButton').click();
    const prompt = await approval;
    await expect(prompt.getByRole('heading', { name: 'Connect to this site?' })).toBeVisible();
    await expect(prompt.getByRole('region', { name: 'Requesting site' })).toContainText(site.url);
    await expect(prompt.getByRole('alert').first()).toContainText('not served over https');
    await expect(prompt.getByRole('banner')).toContainText('Swaplane');
    await auditWindow(prompt, 'connect');
    const choice = prompt.getByRole('group', { name: 'Accounts this site may see' });
    await choice.getByRole('checkbox', { name: /Account 1/ }).uncheck();
    await expect(prompt.getByRole('button', { name: 'Connect' })).toBeDisabled();
    await choice.getByRole('checkbox', { name: /Account 2/ }).check();
    await expect(choice).toContainText('Swaplane will switch to Account 2');
    // The primary action wears the accent of assets/tokens.css, in light and in dark.
    const connect = prompt.getByRole('button', { name: 'Connect' });
    await expect(connect).toBeEnabled();
    for (const colorScheme of ['light', 'dark'] as const) {
      await prompt.emulateMedia({ colorScheme });
      const [background, accent] = await connect.evaluate((button) => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--accent)';
        document.body.append(probe);
        const resolved = getComputedStyle(probe).color;
        probe.remove();
        return [getComputedStyle(button).backgroundColor, resolved];
      });
      expect(background, `the primary button's colour (${colorScheme})`).toBe(accent);
    }
    await prompt.emulateMedia({ colorScheme: 'light' });
    await clickClosing(prompt, connect);
    await expect(dapp.locator('#accounts')).toHaveText(SECOND_ACCOUNT);
  });

  await test.step('personal_sign, then the dapp verifies it with personal_ecRecover', async () => {
    const approval = nextApprovalWindow(context, extensionId);
    await dapp.locator('#personalSign').click();
    const prompt = await approval;
    await expect(prompt.getByRole('heading', { name: 'Sign this message?' })).toBeVisible();
    await expect(prompt.getByRole('banner')).toContainText(SECOND_ACCOUNT);
    await expect(prompt.getByRole('region', { name: 'Message' })).toContainText(
      'Example `personal_sign` message',
    );
    await clickClosing(prompt, prompt.getByRole('button', { name: 'Sign' }));
    await expect(dapp.locator('#personalSignResult')).toHaveText(/^0x[0-9a-f]{130}$/);
    const signature = (await dapp.locator('#personalSignResult').textContent()) as Hex;
    expect(await recoverMessageAddress({ message: 'Example `personal_sign` message', signature })).toBe(
      SECOND_ACCOUNT,
    );
    await dapp.locator('#personalSignVerify').click();
    await expect(dapp.locator('#personalSignVerifyECRecoverResult')).toHaveText(SECOND_ACCOUNT);
  });

  await test.step('eth_signTypedData_v4, then the dapp verifies it', async () => {
    const approval = nextApprovalWindow(context, extensionId);
    await dapp.locator('#signTypedDataV4').click();
    const prompt = await approval;
    await expect(prompt.getByRole('heading', { name: 'Sign this data?' })).toBeVisible();
    const typed = prompt.getByRole('region', { name: 'Typed data' });
    await expect(typed).toContainText('Mail');
    await expect(typed).toContainText('Hello, Bob!');
    await expect(typed).toContainText('Ether Mail');
    // Every signed domain field is shown, the version too.
    await expect(
      typed.locator('dt', { hasText: /^App version$/ }).locator('xpath=following-sibling::dd[1]'),
    ).toHaveText('1');
    await auditWindow(prompt, 'typed-data');
    await clickClosing(prompt, prompt.getByRole('button', { name: 'Sign' }));
    await expect(dapp.locator('#signTypedDataV4Result')).toHaveText(/^0x[0-9a-f]{130}$/);
    const signature = (await dapp.locator('#signTypedDataV4Result').textContent()) as Hex;
    expect(await recoverTypedDataAddress({ ...mailTypedData(1), signature })).toBe(SECOND_ACCOUNT);
    await dapp.locator('#signTypedDataV4Verify').click();
    await expect(dapp.locator('#signTypedDataV4VerifyResult')).toHaveText(
      new RegExp(`^${SECOND_ACCOUNT}$`, 'i'),
    );
  });

  await test.step('the primary button waits a second; a double click never signs the next request', async () => {
    // Every page of the test runs on Playwright's clock from here (the service worker does not). It
    // flows with real time until paused below; paused, the button's second passes only when the
    // test moves the clock, so a slow machine cannot let it pass between two checks.
    await context.clock.install();
    const approval = nextApprovalWindow(context, extensionId);
    const message = (text: string) => `0x${Buffer.from(text).toString('hex')}`;
    await startRequests(dapp, [
      { name: 'A', method: 'personal_sign', params: [message('Request A'), SECOND_ACCOUNT] },
      { name: 'B', method: 'personal_sign', params: [message('Request B'), SECOND_ACCOUNT] },
    ]);
    const prompt = await approval;
    const sign = prompt.getByRole('button', { name: 'Sign' });
    await expect(prompt.getByRole('region', { name: 'Message' })).toContainText('Request A');
    await expect(prompt.getByRole('navigation', { name: 'Request queue' })).toContainText('1 of 2');
    await dapp.bringToFront();
    await prompt.bringToFront();
    await expect(sign).toBeEnabled();
    await context.clock.pauseAt(Date.now() + 1_000);
    // Focus comes back: the button waits its second again, to the millisecond.
    await prompt.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect(sign).toBeDisabled();
    await context.clock.runFor(999);
    await expect(sign).toBeDisabled();
    await context.clock.runFor(1);
    await expect(sign).toBeEnabled();
    // Sign A, then at once a double click where B's button appears: B is off from its first frame.
    const box = await sign.boundingBox();
    if (!box) throw new Error('the Sign button has no box');
    await sign.click();
    await expect(prompt.getByRole('region', { name: 'Message' })).toContainText('Request B');
    await prompt.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => answerOf(dapp, 'A')).toMatchObject({ result: expect.stringMatching(/^0x/) });
    await expect(sign).toBeDisabled();
    expect(await answerOf(dapp, 'B')).toBeNull();
    await context.clock.runFor(999);
    await expect(sign).toBeDisabled();
    await context.clock.runFor(1);
    await expect(sign).toBeEnabled();
    expect(await answerOf(dapp, 'B')).toBeNull();
    await context.clock.resume();

    // A rejection answers 4001 and signs nothing.
    await clickClosing(prompt, prompt.getByRole('button', { name: 'Reject' }));
    await expect.poll(() => answerOf(dapp, 'B')).toMatchObject({ error: { code: 4001 } });
  });

  await test.step('a rejected transaction answers 4001 and sends nothing', async () => {
    const nonce = await rpcCall(rpc, 'eth_getTransactionCount', [SECOND_ACCOUNT, 'pending']);
    const approval = nextApprovalWindow(context, extensionId);
    await startRequests(dapp, [
      {
        name: 'rejected',
        method: 'eth_sendTransaction',
        params: [{ from: SECOND_ACCOUNT, to: ACCOUNT, value: '0x2386f26fc10000' }],
      },
    ]);
    const prompt = await approval;
    // The value is shown: 0.01 ETH to an account.
    await expect(prompt.getByRole('region', { name: 'What is sent' })).toContainText('0.01 ETH');
    await expect(prompt.getByRole('region', { name: 'Transaction' })).toContainText(ACCOUNT);
    await clickClosing(prompt, prompt.getByRole('button', { name: 'Reject' }));
    await expect.poll(() => answerOf(dapp, 'rejected')).toMatchObject({ error: { code: 4001 } });
    expect(await rpcCall(rpc, 'eth_getTransactionCount', [SECOND_ACCOUNT, 'pending'])).toBe(nonce);
  });

  await test.step('a send shows its value and lands on the devnet', async () => {
    const hashes: string[] = [];
    dapp.on('console', (message) => {
      if (/^0x[0-9a-f]{64}$/.test(message.text())) hashes.push(message.text());
    });
    await confirmFromDapp(dapp, context, extensionId, '#sendEIP1559Button', async (prompt) => {
      await expect(prompt.getByRole('region', { name: 'What is sent' })).toContainText('0 ETH');
      await expect(prompt.getByRole('region', { name: 'Transaction' })).toContainText(
        '0x0c54FcCd2e384b4BB6f2E405Bf5Cbc15a017AaFb',
      );
      await expect(prompt.getByRole('region', { name: 'Transaction' })).toContainText('Network fee');
      await auditWindow(prompt, 'transaction');
    });
    await expect.poll(() => hashes.length).toBe(1);
    await expect
      .poll(async () => rpcCall(rpc, 'eth_getTransactionReceipt', [hashes[0]]))
      .toMatchObject({ status: '0x1' });
    const sent = (await rpcCall(rpc, 'eth_getTransactionByHash', [hashes[0]])) as Record<string, string>;
    expect(sent.type).toBe('0x2');
    expect(sent.from?.toLowerCase()).toBe(SECOND_ACCOUNT.toLowerCase());
  });

  await test.step("the dapp's ERC-20: deployed, then approve shows the spender and 7 TST", async () => {
    await confirmFromDapp(dapp, context, extensionId, '#createToken', async (prompt) => {
      await expect(prompt.getByRole('region', { name: 'Transaction' })).toContainText('new contract');
    });
    await expect(dapp.locator('#erc20TokenAddresses')).toHaveText(/^0x[0-9a-fA-F]{40}$/, { timeout: 30_000 });
    await confirmFromDapp(dapp, context, extensionId, '#approveTokens', async (prompt) => {
      const approvals = prompt.getByRole('region', { name: 'Approvals' });
      await expect(approvals).toContainText(`${DAPP_SPENDER} may spend 7 TST`);
    });
  });

  await test.step("the dapp's NFTs: Set Approval For All warns of the operator and waits for the tick", async () => {
    await confirmFromDapp(dapp, context, extensionId, '#deployNFTsButton');
    await expect(dapp.locator('#nftsStatus')).toHaveText('Deployed', { timeout: 30_000 });
    await confirmFromDapp(dapp, context, extensionId, '#mintButton');
    await expect(dapp.locator('#nftsStatus')).toHaveText('Mint completed', { timeout: 30_000 });
    await confirmFromDapp(dapp, context, extensionId, '#setApprovalForAllButton', async (prompt) => {
      await expect(prompt.getByRole('region', { name: 'Approvals' })).toContainText(
        `${DAPP_SPENDER} may take ALL your NFTs`,
      );
      const warning = prompt.getByRole('alert').filter({ hasText: DAPP_SPENDER });
      await expect(warning).toBeVisible();
      const confirm = prompt.getByRole('button', { name: 'Confirm' });
      // Past the second the button waits after it renders (the clock moved a second on, whatever the
      // machine's speed), only the tick holds it.
      await context.clock.runFor(1_000);
      await expect(confirm).toBeDisabled();
      await warning.getByRole('checkbox', { name: 'I understand' }).check();
      await expect(confirm).toBeEnabled();
    });
    await expect(dapp.locator('#nftsStatus')).toHaveText('Set Approval For All completed', {
      timeout: 30_000,
    });
  });

  await test.step('chain switches: an unserved chain refused (4902), Base switched to', async () => {
    // The dapp's own button asks for 1338, which Swaplane does not serve (4902: nothing changes); a
    // configured chain (Base, 8453) switches and the dapp hears chainChanged.
    await dapp.locator('#switchEthereumChain').click();
    await expect(dapp.locator('#chainId')).toHaveText('0x1');
    expect(await providerRequest(dapp, 'wallet_switchEthereumChain', [{ chainId: '0x53a' }])).toMatchObject({
      error: { code: 4902 },
    });
    expect(await providerRequest(dapp, 'wallet_switchEthereumChain', [{ chainId: '0x2105' }])).toEqual({
      result: null,
    });
    await expect(dapp.locator('#chainId')).toHaveText('0x2105');
  });

  // The test dapp's own WalletConnect client dials its relay (wss, on the internet) and its CDN
  // stylesheets are refused (keepOnLoopback): those failures are the dapp's. Its 1338 button does
  // not catch the 4902 rejection: that one uncaught error is expected, nothing else.
  expect(problems.filter((problem) => !/walletconnect|ERR_FAILED/i.test(problem))).toEqual([
    'pageerror: Swaplane is not configured for chain 0x53a.',
  ]);
});

/** The test dapp's signTypedDataV4 payload (src/components/signatures/signTypedDataV4.js). */
function mailTypedData(chainId: number) {
  return {
    domain: {
      chainId,
      name: 'Ether Mail',
      verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
      version: '1',
    },
    message: {
      contents: 'Hello, Bob!',
      from: {
        name: 'Cow',
        wallets: ['0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826', '0xDeaDbeefdEAdbeefdEadbEEFdeadbeEFdEaDbeeF'],
      },
      to: [
        {
          name: 'Bob',
          wallets: [
            '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB',
            '0xB0BdaBea57B0BDABeA57b0bdABEA57b0BDabEa57',
            '0xB0B0b0b0b0b0B000000000000000000000000000',
          ],
        },
      ],
      attachment: '0x',
    },
    primaryType: 'Mail',
    types: {
      Group: [
        { name: 'name', type: 'string' },
        { name: 'members', type: 'Person[]' },
      ],
      Mail: [
        { name: 'from', type: 'Person' },
        { name: 'to', type: 'Person[]' },
        { name: 'contents', type: 'string' },
        { name: 'attachment', type: 'bytes' },
      ],
      Person: [
        { name: 'name', type: 'string' },
        { name: 'wallets', type: 'address[]' },
      ],
    },
  } as const;
}

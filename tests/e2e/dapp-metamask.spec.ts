// Swaplane against a real dapp written by others: MetaMask's test dapp (@metamask/test-dapp, its
// static dist/ served on loopback). Connect, personal_sign, eth_signTypedData_v4, an EIP-1559
// transaction on the devnet and chain switches, each approved in the approval window and each
// result checked independently: signatures recovered with viem, the transaction's devnet receipt.

import { createRequire } from 'node:module';
import path from 'node:path';
import { type Hex, recoverMessageAddress, recoverTypedDataAddress } from 'viem';
import {
  keepOnLoopback,
  nextApprovalWindow,
  providerRequest,
  type StaticSite,
  serveStatic,
} from './dapp/support';
import { ACCOUNT, expect, rpcCall, setUpWallet, test, watchPageProblems } from './fixtures';

const TEST_DAPP = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@metamask/test-dapp/package.json')),
  'dist',
);

let site: StaticSite;
test.beforeAll(async () => {
  site = await serveStatic(TEST_DAPP);
});
test.afterAll(async () => site.close());

test('MetaMask test dapp: connect, sign, sign typed data, send on the devnet, switch chains', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(120_000);
  const { page: setup, rpcUrls } = await setUpWallet(context, extensionId);
  await setup.close();

  const dapp = await context.newPage();
  await keepOnLoopback(dapp);
  const problems = await watchPageProblems(dapp);
  await dapp.goto(`${site.url}/index.html`);
  // Found through EIP-6963 (window.ethereum is off by default).
  await dapp.getByRole('button', { name: 'Use Swaplane' }).click();
  await expect(dapp.locator('#activeProviderName')).toHaveText('Swaplane');
  await expect(dapp.locator('#chainId')).toHaveText('0x1');
  await expect(dapp.locator('#accounts')).toHaveText('');

  // Connect.
  let approval = nextApprovalWindow(context, extensionId);
  await dapp.locator('#connectButton').click();
  let prompt = await approval;
  await expect(prompt.getByRole('heading', { name: 'Connect to this site?' })).toBeVisible();
  await expect(prompt.getByRole('region', { name: 'Requesting site' })).toContainText(site.url);
  await expect(prompt.getByRole('alert').first()).toContainText('not served over https');
  const closed = prompt.waitForEvent('close');
  await prompt.getByRole('button', { name: 'Connect' }).click();
  // Nothing else waits: the window goes away by itself.
  await closed;
  await expect(dapp.locator('#accounts')).toHaveText(new RegExp(ACCOUNT, 'i'));

  // personal_sign: the message shown as text, the signature recovered to the account.
  approval = nextApprovalWindow(context, extensionId);
  await dapp.locator('#personalSign').click();
  prompt = await approval;
  await expect(prompt.getByRole('heading', { name: 'Sign this message?' })).toBeVisible();
  await expect(prompt.getByRole('region', { name: 'Message' })).toContainText(
    'Example `personal_sign` message',
  );
  await prompt.getByRole('button', { name: 'Sign' }).click();
  await expect(dapp.locator('#personalSignResult')).toHaveText(/^0x[0-9a-f]{130}$/);
  const personal = (await dapp.locator('#personalSignResult').textContent()) as Hex;
  expect(
    await recoverMessageAddress({ message: 'Example `personal_sign` message', signature: personal }),
  ).toBe(ACCOUNT);

  // eth_signTypedData_v4: decoded field by field, recovered to the account.
  approval = nextApprovalWindow(context, extensionId);
  await dapp.locator('#signTypedDataV4').click();
  prompt = await approval;
  await expect(prompt.getByRole('heading', { name: 'Sign this data?' })).toBeVisible();
  const typed = prompt.getByRole('region', { name: 'Typed data' });
  await expect(typed).toContainText('Mail');
  await expect(typed).toContainText('Hello, Bob!');
  await expect(typed).toContainText('Ether Mail');
  await prompt.getByRole('button', { name: 'Sign' }).click();
  await expect(dapp.locator('#signTypedDataV4Result')).toHaveText(/^0x[0-9a-f]{130}$/);
  const typedSignature = (await dapp.locator('#signTypedDataV4Result').textContent()) as Hex;
  expect(await recoverTypedDataAddress({ ...mailTypedData(1), signature: typedSignature })).toBe(ACCOUNT);

  // An EIP-1559 transaction on the devnet: simulated in the window, then its receipt on the node.
  const hashes: string[] = [];
  dapp.on('console', (message) => {
    if (/^0x[0-9a-f]{64}$/.test(message.text())) hashes.push(message.text());
  });
  await expect(dapp.locator('#sendEIP1559Button')).toBeEnabled();
  approval = nextApprovalWindow(context, extensionId);
  await dapp.locator('#sendEIP1559Button').click();
  prompt = await approval;
  await expect(prompt.getByRole('heading', { name: 'Confirm this transaction?' })).toBeVisible();
  await expect(prompt.getByRole('region', { name: 'Transaction' })).toContainText(
    '0x0c54FcCd2e384b4BB6f2E405Bf5Cbc15a017AaFb',
  );
  await expect(prompt.getByRole('region', { name: 'Transaction' })).toContainText('Network fee');
  await expect(prompt.getByRole('region', { name: 'Balance changes' })).toBeVisible();
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(() => hashes.length).toBe(1);
  const rpc = rpcUrls['1'] as string;
  const receipt = await expect
    .poll(async () => rpcCall(rpc, 'eth_getTransactionReceipt', [hashes[0]]))
    .not.toBeNull()
    .then(() => rpcCall(rpc, 'eth_getTransactionReceipt', [hashes[0]]) as Promise<Record<string, string>>);
  expect(receipt.status).toBe('0x1');
  expect(receipt.from?.toLowerCase()).toBe(ACCOUNT.toLowerCase());
  expect(receipt.to?.toLowerCase()).toBe('0x0c54fccd2e384b4bb6f2e405bf5cbc15a017aafb');
  const sent = (await rpcCall(rpc, 'eth_getTransactionByHash', [hashes[0]])) as Record<string, string>;
  expect(sent.type).toBe('0x2');

  // Chains: the dapp's own button asks for 1338, which Swaplane does not serve (4902: nothing
  // changes); a configured chain (Base, 8453) switches and the dapp hears chainChanged.
  await dapp.locator('#switchEthereumChain').click();
  await expect(dapp.locator('#chainId')).toHaveText('0x1');
  expect(await providerRequest(dapp, 'wallet_switchEthereumChain', [{ chainId: '0x53a' }])).toMatchObject({
    error: { code: 4902 },
  });
  expect(await providerRequest(dapp, 'wallet_switchEthereumChain', [{ chainId: '0x2105' }])).toEqual({
    result: null,
  });
  await expect(dapp.locator('#chainId')).toHaveText('0x2105');
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

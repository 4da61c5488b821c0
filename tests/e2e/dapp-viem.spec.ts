// viem's wallet client over custom(provider), the provider found through EIP-6963 by mipd's store:
// connect, a signed message and a Permit2 signature (the window calls the permit out), a transfer
// on the devnet with its receipt, and a chain switch. Results checked with viem in the test.
import path from 'node:path';
import { type Hex, parseEther, recoverTypedDataAddress, verifyMessage } from 'viem';
import { build } from 'vite';
import { PERMIT_SINGLE_TYPES, PERMIT2 } from '../support/typed-data';
import {
  axeViolations,
  keepOnLoopback,
  nextApprovalWindow,
  type StaticSite,
  serveStatic,
} from './dapp/support';
import { ACCOUNT, expect, rpcCall, setUpWallet, test } from './fixtures';

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SPENDER = '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD';
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

let site: StaticSite;
test.beforeAll(async () => {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: path.resolve('tests/e2e/dapp/viem-dapp.ts'), formats: ['iife'], name: 'viemDappBundle' },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) =>
    'output' in result ? result.output : [],
  );
  const script = chunks.find((chunk) => chunk.type === 'chunk');
  if (script?.type !== 'chunk') throw new Error('the viem dapp did not bundle');
  site = await serveStatic('/nonexistent', {
    '/index.html':
      '<!doctype html><html lang="en"><head><title>viem dapp</title><script src="/dapp.js"></script></head><body><h1>viem dapp</h1></body></html>',
    '/dapp.js': script.code,
  });
});
test.afterAll(async () => site.close());

type Answer = { result: unknown } | { error: { code: number | null; message: string } };

test('viem over custom(provider), discovered with mipd: connect, sign, Permit2, send, switch chain', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(90_000);
  const { page: setup, rpcUrls } = await setUpWallet(context, extensionId);
  await setup.close();

  const page = await context.newPage();
  await keepOnLoopback(page);
  await page.goto(`${site.url}/index.html`);
  const start = (name: string, action: string, ...args: string[]) =>
    page.evaluate(
      ([name, action, args]) =>
        (window as unknown as { viemDapp: { start(...values: unknown[]): void } }).viemDapp.start(
          name,
          action,
          ...(args as string[]),
        ),
      [name, action, args] as const,
    );
  const answer = (name: string) =>
    page.evaluate(
      (key) =>
        (window as unknown as { viemDapp: { answer(key: string): Answer | null } }).viemDapp.answer(key),
      name,
    );
  const settled = async (name: string) => {
    await expect.poll(() => answer(name)).not.toBeNull();
    return (await answer(name)) as Answer;
  };

  // EIP-6963 announcement: name, rdns, a UUIDv4, the icon as a data URI.
  await start('info', 'info');
  const info = (await settled('info')) as { result: Record<string, unknown> };
  expect(info.result).toMatchObject({ name: 'Swaplane', rdns: 'app.swaplane' });
  expect(info.result.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(info.result.icon).toMatch(/^data:image\/svg\+xml,/);

  let approval = nextApprovalWindow(context, extensionId);
  await start('connect', 'connect');
  let prompt = await approval;
  await prompt.getByRole('button', { name: 'Connect' }).click();
  expect(await settled('connect')).toEqual({ result: ACCOUNT });

  approval = nextApprovalWindow(context, extensionId);
  await start('sign', 'signMessage', 'Sign in to viem dapp');
  prompt = await approval;
  await expect(prompt.getByRole('region', { name: 'Message' })).toContainText('Sign in to viem dapp');
  await prompt.getByRole('button', { name: 'Sign' }).click();
  const signed = (await settled('sign')) as { result: Hex };
  expect(
    await verifyMessage({ address: ACCOUNT, message: 'Sign in to viem dapp', signature: signed.result }),
  ).toBe(true);

  // A Permit2 PermitSingle: the window names the spender, the amount (unlimited) and the expiry.
  const permit = permit2Single();
  approval = nextApprovalWindow(context, extensionId);
  await start('permit', 'signTypedData', JSON.stringify(permit));
  prompt = await approval;
  const callout = prompt.getByRole('region', { name: 'Permit' });
  await expect(callout).toContainText(`this signature lets ${SPENDER} spend your tokens`);
  await expect(callout).toContainText('Permit2');
  await expect(callout).toContainText(`Unlimited of token ${USDC}`);
  await expect(callout).toContainText(new Date(permit.message.details.expiration * 1000).toUTCString());
  expect(await axeViolations(prompt)).toEqual([]);
  await prompt.getByRole('button', { name: 'Sign' }).click();
  const permitSignature = (await settled('permit')) as { result: Hex };
  expect(
    await recoverTypedDataAddress({
      ...permit,
      message: {
        ...permit.message,
        details: { ...permit.message.details, amount: BigInt(permit.message.details.amount) },
        sigDeadline: BigInt(permit.message.sigDeadline),
      },
      signature: permitSignature.result,
    } as Parameters<typeof recoverTypedDataAddress>[0]),
  ).toBe(ACCOUNT);

  // A transfer on the devnet: the window shows the balance change, the node has the receipt.
  const rpc = rpcUrls['1'] as string;
  const before = BigInt((await rpcCall(rpc, 'eth_getBalance', [RECIPIENT, 'latest'])) as string);
  approval = nextApprovalWindow(context, extensionId);
  await start('send', 'send', RECIPIENT, parseEther('0.25').toString());
  prompt = await approval;
  await expect(prompt.getByRole('region', { name: 'Balance changes' })).toContainText('−0.25 ETH');
  expect(await axeViolations(prompt)).toEqual([]);
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  const sent = (await settled('send')) as { result: Hex };
  expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/);
  await expect
    .poll(() => rpcCall(rpc, 'eth_getTransactionReceipt', [sent.result]))
    .toMatchObject({ status: '0x1' });
  const after = BigInt((await rpcCall(rpc, 'eth_getBalance', [RECIPIENT, 'latest'])) as string);
  expect(after - before).toBe(parseEther('0.25'));

  await start('switch', 'switchToBase');
  expect(await settled('switch')).toEqual({ result: 8453 });
});

function permit2Single() {
  const expiration = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;
  return {
    domain: { name: 'Permit2', chainId: 1, verifyingContract: PERMIT2 },
    types: PERMIT_SINGLE_TYPES,
    primaryType: 'PermitSingle',
    message: {
      details: { token: USDC, amount: (2n ** 160n - 1n).toString(), expiration, nonce: 0 },
      spender: SPENDER,
      sigDeadline: String(expiration),
    },
  } as const;
}

// An RPC that fails says how, in the popup, at 360x600: the home's balances name the cause and the
// RPC's host (another chain, an HTTP error, not JSON, a redirect refused, nothing answering, no answer
// in time), never a generic "check your internet connection"; Try again reads them once it is fixed.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { Fault } from '../support/fault-proxy';
import { expect, openProxiedPopup, proxiedTest as test } from './fixtures';

async function expectCause(popup: Page, cause: RegExp, timeout = 20_000) {
  const home = popup.getByRole('region', { name: /Your tokens on Ethereum/ });
  const alert = home.getByRole('alert');
  await expect(alert).toContainText(cause, { timeout });
  await expect(alert).not.toContainText(/internet|Something went wrong/i);
  return alert;
}

test('RPC failures at 360x600: each names its cause and the RPC, never a connection hint', async ({
  context,
  extensionId,
  rpcProxy,
  serviceProxy,
}, testInfo) => {
  test.setTimeout(180_000);
  const host = new URL(rpcProxy.url).host;
  // Another chain's node behind Ethereum's RPC URL: asked before any balance is believed.
  rpcProxy.add({
    match: (request) => request.rpcMethods.includes('eth_chainId'),
    fault: { kind: 'rewrite', transform: (body) => body.replace(/"result":"0x1"/, '"result":"0x2105"') },
  });
  const { popup, problems } = await openProxiedPopup(context, extensionId, { rpcProxy, serviceProxy });
  await popup.setViewportSize({ width: 360, height: 600 });
  let alert = await expectCause(
    popup,
    new RegExp(`The RPC at ${host} is for Base \\(chain 8453\\), not Ethereum \\(chain 1\\)`),
  );
  const { violations } = await new AxeBuilder({ page: popup }).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await popup.screenshot({ path: testInfo.outputPath('rpc-wrong-chain.png') });
  if (process.env.SWAPLANE_SCREENS)
    await popup.screenshot({ path: `${process.env.SWAPLANE_SCREENS}/rpc-wrong-chain-600.png` });

  // Fixed: Try again reads the balances.
  rpcProxy.clear();
  await alert.getByRole('button', { name: 'Try again' }).click();
  const home = popup.getByRole('region', { name: /Your tokens on Ethereum/ });
  await expect(home.getByTestId('holding-ETH')).toContainText(/[\d,]+ ETH/, { timeout: 20_000 });
  await expect(home.getByRole('alert')).toHaveCount(0);

  const faults: [string, Fault, RegExp, number?][] = [
    [
      'http',
      { kind: 'status', status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' },
      /answered with HTTP error 502/,
    ],
    ['not-json', { kind: 'nonJson' }, /answered with something that is not JSON-RPC/],
    [
      'redirect',
      { kind: 'redirect', location: 'http://127.0.0.1:9/elsewhere' },
      /answered from another address; Swaplane refused it/,
    ],
    ['refused', { kind: 'reset' }, /could not be reached/],
    // The client's own bound (10 s, one retry) ends the wait.
    ['timeout', { kind: 'hang' }, /did not answer in time/, 60_000],
  ];
  for (const [name, fault, cause, timeout] of faults) {
    rpcProxy.clear();
    rpcProxy.add({ fault });
    // A new block makes the next read a real one (balances are cached per block).
    await popup.reload();
    alert = await expectCause(
      popup,
      new RegExp(`The RPC at ${host.replace('.', '\\.')} ${cause.source}`),
      timeout,
    );
    if (process.env.SWAPLANE_SCREENS)
      await popup.screenshot({ path: `${process.env.SWAPLANE_SCREENS}/rpc-${name}-600.png` });
  }
  rpcProxy.clear();
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(popup.getByRole('region', { name: /Your tokens on Ethereum/ }).getByRole('alert')).toHaveCount(
    0,
    {
      timeout: 20_000,
    },
  );
  expect(problems.filter((problem) => !/Failed to load resource/.test(problem))).toEqual([]);
});

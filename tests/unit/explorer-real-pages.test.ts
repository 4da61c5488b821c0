// @vitest-environment happy-dom
// Detection on explorer pages saved by others: every ERC-20 token link gets a control, and no NFT,
// menu or other link does. The ratio is computed per page and printed.
import { describe, expect, it } from 'vitest';
import { chainForExplorerHost } from '@/lib/chains/hosts';
import { detect } from '@/lib/explorer/detect';
import { WHITELIST } from '../fixtures/explorer/pages';
import { REAL_PAGES, type RealPage, realHtml } from '../fixtures/explorer/real/pages';

async function measure(page: RealPage) {
  const doc = new DOMParser().parseFromString(realHtml(page.file), 'text/html');
  const whitelisted = async (chainId: number, addresses: string[]) =>
    addresses.filter((address) => WHITELIST[chainId]?.includes(address));
  const records = await detect(doc, page.url, page.chainId, whitelisted);
  const controlled = new Set(records.map((record) => record.element));
  const erc20 = [...doc.querySelectorAll(page.erc20)];
  const refused = [...doc.querySelectorAll(page.refused)];
  const erc20Set = new Set<Element>(erc20);
  // Anything with a control that is not a labelled ERC-20 link: the page's title and whitelisted
  // /address/ links are token mentions too (the whitelist lists ERC-20s only).
  const wrong = records.filter((record) => !erc20Set.has(record.element) && record.kind === 'token');
  return {
    erc20,
    refused,
    hit: erc20.filter((element) => controlled.has(element)).length,
    refusedWithControl: refused.filter((element) => controlled.has(element)).length,
    wrong,
    title: records.some((record) => record.kind === 'page'),
    // A control's chain is its link's explorer's: the page's own host, or another one's.
    wrongChain: records.filter((record) => {
      const href = record.element.getAttribute('href');
      if (record.kind === 'page' || !href) return false;
      const host = new URL(href, page.url).host;
      const expected = host === new URL(page.url).host ? undefined : chainForExplorerHost(host);
      return record.chainId !== (expected === page.chainId ? undefined : expected);
    }),
  };
}

describe('real explorer pages', () => {
  it.each(Object.entries(REAL_PAGES))(
    '%s: every ERC-20 link, and nothing else',
    async (name, page: RealPage) => {
      const result = await measure(page);
      expect(result.erc20).toHaveLength(page.erc20Count);
      expect(result.refused.length).toBeGreaterThanOrEqual(page.refusedCount);
      // A page with no ERC-20 link (an NFT inventory) scores on its refusals alone.
      const ratio = result.erc20.length === 0 ? 1 : result.hit / result.erc20.length;
      console.info(
        `${name}: ${result.hit}/${result.erc20.length} ERC-20 links (${(ratio * 100).toFixed(1)}%), ` +
          `${result.refusedWithControl} of ${result.refused.length} NFT/menu links, ${result.wrong.length} other token links with a control`,
      );
      expect(ratio).toBeGreaterThanOrEqual(0.98);
      expect(result.refusedWithControl).toBe(0);
      expect(result.wrong.map((record) => record.element.getAttribute('href'))).toEqual([]);
      expect(result.title).toBe(page.titleControl ?? false);
      expect(result.wrongChain.map((record) => record.element.getAttribute('href'))).toEqual([]);
    },
  );
});

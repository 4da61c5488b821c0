// @vitest-environment happy-dom
// Detection on explorer pages saved by others: every ERC-20 token link gets a control, and no NFT,
// menu or other link does. The ratio is computed per page and printed.
import { describe, expect, it } from 'vitest';
import { REAL_PAGES, type RealPage, realHtml } from '../fixtures/explorer/real/pages';
import { score } from '../fixtures/explorer/score';

const measure = (page: RealPage) => score(realHtml(page.file), page);

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

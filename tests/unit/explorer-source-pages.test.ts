// @vitest-environment happy-dom
// Detection on explorer pages built from the explorers' own source (Blockscout's app and its
// server-rendered UI): every ERC-20 token link gets a control, and no NFT, menu or other link does.
import { describe, expect, it } from 'vitest';
import { score } from '../fixtures/explorer/score';
import { SOURCE_PAGES, type SourcePage, sourceHtml } from '../fixtures/explorer/source/pages';

describe('explorer pages built from source', () => {
  it.each(Object.entries(SOURCE_PAGES))(
    '%s: every ERC-20 link, and nothing else',
    async (name, page: SourcePage) => {
      const result = await score(sourceHtml(page.file), page);
      expect(result.erc20).toHaveLength(page.erc20Count);
      expect(result.refused.length).toBeGreaterThanOrEqual(page.refusedCount);
      console.info(
        `${name}: ${result.hit}/${result.erc20.length} ERC-20 links, ` +
          `${result.refusedWithControl} of ${result.refused.length} NFT/menu links, ${result.wrong.length} other token links with a control`,
      );
      expect(result.hit).toBe(result.erc20.length);
      expect(result.refusedWithControl).toBe(0);
      expect(result.wrong.map((record) => record.element.getAttribute('href'))).toEqual([]);
      expect(result.title).toBe(page.titleControl ?? false);
      expect(result.wrongChain.map((record) => record.element.getAttribute('href'))).toEqual([]);
    },
  );
});

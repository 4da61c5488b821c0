// @vitest-environment happy-dom
// Page-wide NFT evidence: which links show an address as an NFT, on the page's own host only.
import { describe, expect, it } from 'vitest';
import { TOKEN_LINKS } from '@/lib/explorer/classify';
import { pageInfo } from '@/lib/explorer/detect';
import { collectNftEvidence, linksUnder, NFT_LINKS, nftAddressOf } from '@/lib/explorer/nft-evidence';

const COLLECTION = '0xed5af388653567af2f388e6224dc7c4b3241c544';
const HOLDER = '0x4675c7e5baafbffbca748158becba61ef3b0a263';
const page = pageInfo(`https://etherscan.io/tx/0x${'ab'.repeat(32)}`, 1);

describe('nftAddressOf', () => {
  it.each([
    `/nft/${COLLECTION}/1234`,
    `/nft/${COLLECTION.toUpperCase().replace('0X', '0x')}/1234/`,
    `/token/${COLLECTION}?a=1234`,
    `https://etherscan.io/token/${COLLECTION}?a=0`,
    `/token/${COLLECTION}/instance/7`,
    `/token/${COLLECTION}?tokenid=9`,
  ])('%s shows an NFT', (href) => {
    expect(nftAddressOf(href, page)).toBe(COLLECTION);
  });

  it.each([
    `/token/${COLLECTION}`,
    `/token/${COLLECTION}?a=${HOLDER}`,
    `/token/${COLLECTION}?a=12ab`,
    `/address/${COLLECTION}`,
    `/nft/${COLLECTION}`,
    `/nft/0x1234/1`,
    // Another host's NFT is that host's business: each explorer (and frame) is judged by its own page.
    `https://bscscan.com/nft/${COLLECTION}/1`,
    `https://etherscan.io.evil.com/nft/${COLLECTION}/1`,
    'javascript:void(0)',
    null,
  ])('%s does not', (href) => {
    expect(nftAddressOf(href, page)).toBeUndefined();
  });
});

describe('collectNftEvidence', () => {
  it('learns from NFT links, token links with a token id, and the page URL; says when it learned something', () => {
    const doc = document.implementation.createHTMLDocument('t');
    doc.body.innerHTML = `<p><a href="/token/${COLLECTION}">Azuki</a> <a href="/token/${COLLECTION}?a=${HOLDER}">h</a></p>`;
    const nfts = new Set<string>();
    const learn = (root: ParentNode, at = page) =>
      collectNftEvidence(at, nfts, linksUnder(root, NFT_LINKS), linksUnder(root, TOKEN_LINKS));
    // A collection link and a holder link show nothing.
    expect(learn(doc)).toBe(false);
    doc.body.insertAdjacentHTML('beforeend', `<a href="/token/${COLLECTION}?a=42">42</a>`);
    expect(learn(doc)).toBe(true);
    expect(nfts).toEqual(new Set([COLLECTION]));
    expect(learn(doc)).toBe(false);
    const other = `0x${'12'.repeat(20)}`;
    const added = doc.createElement('a');
    added.setAttribute('href', `/nft/${other}/3`);
    expect(learn(added)).toBe(true);
    expect(nfts.has(other)).toBe(true);
    const item = pageInfo(`https://etherscan.io/nft/${HOLDER}/3`, 1);
    expect(learn(document.implementation.createHTMLDocument('t'), item)).toBe(true);
    expect(nfts.has(HOLDER)).toBe(true);
  });
});

// @vitest-environment happy-dom
// Page-wide NFT evidence: which links show an address as an NFT, on the page's own host only.
import { describe, expect, it } from 'vitest';
import { pageInfo } from '@/lib/explorer/detect';
import { collectNftEvidence, NFT_EVIDENCE_LINKS, nftAddressOf } from '@/lib/explorer/nft-evidence';

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

  it('the selector keeps holder links (a=0x…) out, natively', () => {
    const doc = document.implementation.createHTMLDocument('t');
    doc.body.innerHTML = `<a href="/token/${COLLECTION}?a=${HOLDER}">h</a><a href="/token/${COLLECTION}?a=5">5</a>`;
    expect([...doc.querySelectorAll(NFT_EVIDENCE_LINKS)].map((a) => a.textContent)).toEqual(['5']);
  });
});

describe('collectNftEvidence', () => {
  it('learns from links under the root and from the page URL itself; says when it learned something', () => {
    const doc = document.implementation.createHTMLDocument('t');
    doc.body.innerHTML = `<p><a href="/token/${COLLECTION}">Azuki</a> <a href="/token/${COLLECTION}?a=42">42</a></p>`;
    const nfts = new Set<string>();
    expect(collectNftEvidence(doc, page, nfts)).toBe(true);
    expect(nfts).toEqual(new Set([COLLECTION]));
    expect(collectNftEvidence(doc, page, nfts)).toBe(false);
    const item = pageInfo(`https://etherscan.io/nft/${HOLDER}/3`, 1);
    const empty = document.implementation.createHTMLDocument('t');
    expect(collectNftEvidence(empty, item, nfts)).toBe(true);
    expect(nfts.has(HOLDER)).toBe(true);
  });
});

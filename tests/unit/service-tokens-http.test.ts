// Token list HTTP: which Accept-Encoding headers get brotli or gzip, which If-None-Match get a 304,
// and brotli made once, off the request path, then served to every client that accepts it.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { TokenListResponseSchema } from '../../lib/api/schema';
import { createServiceApp } from '../../service/app';
import { acceptsEncoding, CodingChoices, matchesEtag } from '../../service/tokens';
import { fakeReader } from '../support/fake-chain-reader';
import { ethereumManifest } from '../support/service-manifest';

const brotliCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:zlib', async (importOriginal) => {
  const zlib = await importOriginal<typeof import('node:zlib')>();
  const brotliCompress = (...args: Parameters<typeof zlib.brotliCompress>) => {
    brotliCalls.count += 1;
    return zlib.brotliCompress(...args);
  };
  return { ...zlib, brotliCompress, default: { ...zlib, brotliCompress } };
});

describe('token list negotiation', () => {
  it('a coding only when the client accepts it', () => {
    expect(acceptsEncoding('gzip, deflate, br, zstd', 'gzip')).toBe(true);
    expect(acceptsEncoding('gzip, deflate, br, zstd', 'br')).toBe(true);
    expect(acceptsEncoding('br;q=1.0, gzip;q=0.8', 'gzip')).toBe(true);
    expect(acceptsEncoding('*', 'gzip')).toBe(true);
    expect(acceptsEncoding('*', 'br')).toBe(true);
    expect(acceptsEncoding('gzip;q=0', 'gzip')).toBe(false);
    expect(acceptsEncoding('br;q=0, gzip', 'br')).toBe(false);
    expect(acceptsEncoding('br, deflate', 'gzip')).toBe(false);
    expect(acceptsEncoding('gzip, deflate', 'br')).toBe(false);
    expect(acceptsEncoding(undefined, 'gzip')).toBe(false);
    expect(acceptsEncoding('', 'br')).toBe(false);
  });

  it('a coding chosen once per Accept-Encoding text, and a bounded memory of them', () => {
    const choices = new CodingChoices(3);
    expect(choices.choose('gzip, deflate, br, zstd')).toBe('br');
    expect(choices.choose('gzip, br;q=0')).toBe('gzip');
    expect(choices.choose('deflate')).toBe('identity');
    expect(choices.choose(undefined)).toBe('identity');
    expect(choices.size).toBe(3);
    for (let i = 0; i < 10; i++) expect(choices.choose(`gzip;q=0.${i}`)).toBe(i === 0 ? 'identity' : 'gzip');
    expect(choices.size).toBeLessThanOrEqual(3);
    expect(choices.choose('gzip, deflate, br, zstd')).toBe('br');
  });

  it('304 only for the same ETag (weak form or *)', () => {
    const etag = '"abc"';
    expect(matchesEtag('"abc"', etag)).toBe(true);
    expect(matchesEtag('"x", W/"abc"', etag)).toBe(true);
    expect(matchesEtag('*', etag)).toBe(true);
    expect(matchesEtag('"abd"', etag)).toBe(false);
    expect(matchesEtag(undefined, etag)).toBe(false);
  });
});

describe('token list: brotli', () => {
  it('gzip until brotli is ready, then brotli to a browser: one compression, the same list, smaller', {
    timeout: 60_000,
  }, async () => {
    const app = createServiceApp({
      manifest: ethereumManifest(),
      readers: { ethereum: fakeReader({ head: 1n }) },
    });
    const list = (headers: Record<string, string>) => app.request('/v1/tokens/ethereum/full', { headers });
    const browser = { 'Accept-Encoding': 'gzip, deflate, br, zstd' };
    const first = await list(browser);
    expect(first.headers.get('content-encoding')).toBe('gzip');
    const gzip = Buffer.from(await first.arrayBuffer());
    // Requests while it compresses still get gzip, and start nothing more.
    expect((await list(browser)).headers.get('content-encoding')).toBe('gzip');
    // It is ready within seconds (quality 11 of ~430 kB); ask until then, as browsers would.
    let br = await list(browser);
    for (let i = 0; i < 1500 && br.headers.get('content-encoding') !== 'br'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      br = await list(browser);
    }
    expect(brotliCalls.count).toBe(1);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding, Origin');
    expect(br.headers.get('etag')).toBe(first.headers.get('etag'));
    const brotli = Buffer.from(await br.arrayBuffer());
    const plain = brotliDecompressSync(brotli).toString('utf8');
    expect(plain).toBe(gunzipSync(gzip).toString('utf8'));
    expect(TokenListResponseSchema.parse(JSON.parse(plain)).map((token) => token.symbol)).toEqual([
      'ETH',
      'WETH',
      'USDC',
    ]);
    // A client that refuses brotli gets gzip, and one that accepts nothing the JSON itself.
    expect((await list({ 'Accept-Encoding': 'gzip, br;q=0' })).headers.get('content-encoding')).toBe('gzip');
    const identity = await list({});
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(await identity.text()).toBe(plain);
    expect(brotli.byteLength).toBeLessThan(gzip.byteLength);
    expect(brotliCalls.count).toBe(1);
  });
});

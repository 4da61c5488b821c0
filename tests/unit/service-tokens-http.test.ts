// Token list HTTP helpers: which Accept-Encoding headers get gzip, which If-None-Match get a 304.
import { describe, expect, it } from 'vitest';
import { acceptsGzip, matchesEtag } from '../../service/tokens';

describe('token list negotiation', () => {
  it('gzip only when the client accepts it', () => {
    expect(acceptsGzip('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
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

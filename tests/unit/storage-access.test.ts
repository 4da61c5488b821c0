import { describe, expect, it } from 'vitest';
import { restrictToTrustedContexts } from '@/lib/background/storage-access';

describe('restrictToTrustedContexts', () => {
  it('asks the area for trusted contexts only where the browser has setAccessLevel', async () => {
    const asked: unknown[] = [];
    const area = {
      setAccessLevel(this: unknown, options: unknown) {
        asked.push([this === area, options]);
        return Promise.resolve();
      },
    };
    expect(await restrictToTrustedContexts(area)).toBe('trusted-only');
    expect(asked).toEqual([[true, { accessLevel: 'TRUSTED_CONTEXTS' }]]);
  });

  it('says so where it is missing (Firefox) or refused (an area that does not support it)', async () => {
    expect(await restrictToTrustedContexts({})).toBe('unsupported');
    expect(await restrictToTrustedContexts(undefined)).toBe('unsupported');
    const refusing = { setAccessLevel: () => Promise.reject(new Error('only for session')) };
    expect(await restrictToTrustedContexts(refusing)).toBe('refused');
  });
});

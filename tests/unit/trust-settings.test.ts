import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SettingsSchema } from '@/lib/settings/settings';

const ok = (patch: object) => SettingsSchema.safeParse({ ...DEFAULT_SETTINGS, ...patch }).success;

describe('service and RPC URLs', () => {
  it('a remote service or RPC must be https', () => {
    expect(ok({ serviceBaseUrl: 'http://swap.example.com' })).toBe(false);
    expect(ok({ rpcOverrides: { '1': 'http://rpc.example.com' } })).toBe(false);
    expect(ok({ rpcOverrides: { '1': 'http://localhost@evil.com:8545' } })).toBe(false);
    expect(
      ok({ serviceBaseUrl: 'https://swap.example.com', rpcOverrides: { '1': 'https://rpc.example.com' } }),
    ).toBe(true);
  });

  it('plain http only to this machine (the devnet)', () => {
    expect(
      ok({ serviceBaseUrl: 'http://127.0.0.1:8787', rpcOverrides: { '1': 'http://localhost:8545' } }),
    ).toBe(true);
  });

  it('"Only sign swap calls Swaplane can read" is optional (absent = on) and boolean', () => {
    expect(ok({ onlyReadableCalldata: false })).toBe(true);
    expect(ok({ onlyReadableCalldata: 'no' })).toBe(false);
    expect(DEFAULT_SETTINGS.onlyReadableCalldata).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import {
  checkOneClickAmount,
  checkOneClickAmounts,
  DEFAULT_ONE_CLICK_AMOUNT,
} from '@/lib/settings/one-click';
import { DEFAULT_SETTINGS, SettingsSchema } from '@/lib/settings/settings';

describe('one-click quote amount', () => {
  it('defaults to 0.1 of the native coin', () => {
    expect(DEFAULT_ONE_CLICK_AMOUNT).toBe('0.1');
    expect(DEFAULT_SETTINGS.oneClickAmount).toBe('0.1');
    expect(checkOneClickAmount(DEFAULT_ONE_CLICK_AMOUNT)).toEqual({
      ok: true,
      value: 10n ** 17n,
      text: '0.1',
    });
  });

  it('parses exactly with lib/amounts and keeps the canonical text', () => {
    expect(checkOneClickAmount(' .50 ')).toEqual({ ok: true, value: 5n * 10n ** 17n, text: '0.5' });
    expect(checkOneClickAmount('002')).toEqual({ ok: true, value: 2n * 10n ** 18n, text: '2' });
    expect(checkOneClickAmount('0.000000000000000001')).toEqual({
      ok: true,
      value: 1n,
      text: '0.000000000000000001',
    });
    expect(checkOneClickAmount('123456789.123456789123456789')).toMatchObject({
      ok: true,
      value: 123456789123456789123456789n,
    });
  });

  it.each([
    ['', /Enter an amount/],
    ['0', /above 0/],
    ['0.000', /above 0/],
    ['-1', /negative/],
    ['1e17', /Scientific/],
    ['1,5', /Commas/],
    ['0.1.2', /one decimal point/],
    ['0.0000000000000000001', /at most 18 decimal/],
    ['9'.repeat(80), /too large/],
  ])('refuses %j', (input, message) => {
    const check = checkOneClickAmount(input);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(message);
  });

  it('follows the coin decimals it is spent in', () => {
    expect(checkOneClickAmount('0.1', 0).ok).toBe(false);
    expect(checkOneClickAmount('0.1', 1)).toEqual({ ok: true, value: 1n, text: '0.1' });
  });

  it('settings accept only the canonical form of a valid amount', () => {
    const parse = (oneClickAmount: string) =>
      SettingsSchema.safeParse({ ...DEFAULT_SETTINGS, oneClickAmount }).success;
    expect(parse('0.25')).toBe(true);
    expect(parse('1')).toBe(true);
    for (const bad of ['0.250', '.25', ' 1', '0', 'abc', '1e3']) expect(parse(bad), bad).toBe(false);
  });
});

describe('per-chain one-click amounts', () => {
  it('keeps canonical amounts, drops blanks, and names the chain of a bad one', () => {
    expect(checkOneClickAmounts({ '137': ' 1000 ', '1': '', '56': '.50' })).toEqual({
      ok: true,
      value: { '137': '1000', '56': '0.5' },
    });
    expect(checkOneClickAmounts({ '137': '0' })).toMatchObject({ ok: false, chainId: '137' });
    expect(checkOneClickAmounts({ '43114': 'ten' })).toMatchObject({ ok: false, chainId: '43114' });
  });
});

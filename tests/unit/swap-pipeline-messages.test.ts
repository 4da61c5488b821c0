import { describe, expect, it } from 'vitest';
import { SwapFailureCodeSchema } from '@/lib/state/pipeline-state';
import { swapFailureMessage } from '@/lib/swap/pipeline-messages';

describe('swapFailureMessage', () => {
  it('every failure code has a title, a detail that ends saying what was sent, and an action', () => {
    for (const code of SwapFailureCodeSchema.options) {
      const nothing = swapFailureMessage(code, { anythingSent: false });
      expect(nothing.title.length, code).toBeGreaterThan(3);
      expect(nothing.action.length, code).toBeGreaterThan(3);
      expect(nothing.detail.endsWith('Nothing was sent.'), code).toBe(true);
      expect(
        swapFailureMessage(code, { anythingSent: true }).detail.endsWith('The transaction was sent.'),
      ).toBe(true);
      expect(
        swapFailureMessage(code, { anythingSent: true, approvalSent: true }).detail.endsWith(
          'Your token approval was sent; the swap itself was not.',
        ),
      ).toBe(true);
    }
  });

  it('names the gas coin and the revert reason where they matter', () => {
    expect(
      swapFailureMessage('INSUFFICIENT_GAS_FUNDS', { anythingSent: false, nativeSymbol: 'ETH' }),
    ).toEqual({
      title: 'Not enough ETH for gas',
      detail: 'Your ETH balance cannot cover the network fee (and the amount sent). Nothing was sent.',
      action: 'Add ETH or lower the amount.',
    });
    expect(swapFailureMessage('INSUFFICIENT_GAS_FUNDS', { anythingSent: false }).title).toBe(
      'Not enough network coin for gas',
    );
    const revert = { kind: 'custom', name: 'InsufficientOutput', text: 'the price moved' } as never;
    expect(swapFailureMessage('SIMULATION_REVERTED', { anythingSent: false, revert }).detail).toBe(
      'A simulation of the swap reverted: the price moved. Nothing was sent.',
    );
    expect(swapFailureMessage('APPROVAL_FAILED', { anythingSent: true }).detail).toBe(
      'The approval transaction did not go through. The transaction was sent.',
    );
  });
});

// The token safety probe: the code the extension simulates is the committed artifact's, and the
// numbers it returns read as clean, tax or blocked sell. (Against the devnet:
// tests/integration/token-safety.test.ts.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { interpretProbe } from '@/lib/safety/check';
import { SAFETY_PROBE_CODE } from '@/lib/safety/probe-code';

describe('safety probe', () => {
  it('is the runtime code of contracts/SafetyProbe.sol as compiled', () => {
    const artifact = JSON.parse(readFileSync('service/contracts/artifacts/SafetyProbe.json', 'utf8'));
    expect(SAFETY_PROBE_CODE).toBe(artifact.deployedBytecode);
    // The packaged copy the worker reads when a check runs (lib/background/handlers/safety.ts).
    expect(readFileSync('public/safety-probe.hex', 'utf8').trim()).toBe(artifact.deployedBytecode);
  });

  it('reads the probe result', () => {
    const base = {
      buyExpected: 1000n,
      buyReceived: 1000n,
      sellOk: true,
      sellSent: 1000n,
      sellArrived: 1000n,
    };
    expect(interpretProbe(base)).toEqual({ verdict: 'clean', buyTaxBps: 0, sellTaxBps: 0 });
    expect(interpretProbe({ ...base, buyReceived: 950n, sellSent: 950n, sellArrived: 903n })).toEqual({
      verdict: 'tax',
      buyTaxBps: 500,
      sellTaxBps: 495,
    });
    expect(interpretProbe({ ...base, sellOk: false })).toEqual({ verdict: 'sell-blocked', buyTaxBps: 0 });
    // Rounding dust is not a tax.
    expect(interpretProbe({ ...base, buyExpected: 1_000_000n, buyReceived: 999_990n }).verdict).toBe('clean');
  });
});

// Fees per gas as people type and read them: gwei (10^9 wei), decimal, at most 9 decimals.
const GWEI = 1_000_000_000n;

/** A decimal gwei amount as typed in Settings ("120", "0.5"). */
export const GWEI_TEXT = /^(0|[1-9][0-9]{0,6})(\.[0-9]{1,9})?$/;

export function gweiToWei(text: string): bigint {
  if (!GWEI_TEXT.test(text)) throw new Error(`not a gwei amount: ${text}`);
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * GWEI + BigInt(fraction.padEnd(9, '0'));
}

export function weiToGweiText(wei: bigint): string {
  const whole = wei / GWEI;
  const fraction = (wei % GWEI).toString().padStart(9, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

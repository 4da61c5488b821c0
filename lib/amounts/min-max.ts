// Math.min and Math.max take numbers; amounts, gas and fees are bigints.

/** The smaller of two bigints. */
export function bigMin(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** The larger of two bigints. */
export function bigMax(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

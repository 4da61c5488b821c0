// Decimal strings <-> bigint smallest units. Amounts are never `number` (DESIGN.md section 3).
export * from './format';
export * from './parse';

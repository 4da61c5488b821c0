// Decimal strings <-> bigint smallest units. Amounts are never `number` (docs/API.md).
export * from './format';
export * from './parse';

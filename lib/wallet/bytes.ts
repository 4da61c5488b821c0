// Byte helpers for the wallet modules. atob/btoa exist in Node 20 and in an MV3 service worker;
// Buffer does not exist in the worker, so it is not used.

/** Canonical base64 (standard alphabet, padded): what the vault writes and the only form it reads. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Decodes strict, canonical base64; undefined for anything else (no throw, so callers choose the error). */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!BASE64.test(text)) return undefined;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  // Reject non-canonical encodings (unused bits set in the last character): one vault, one spelling.
  if (bytesToBase64(bytes) !== text) return undefined;
  return bytes;
}

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

/** A uniform integer in [0, maxExclusive) from the CSPRNG, by rejection sampling (no modulo bias). */
export function randomInt(maxExclusive: number): number {
  if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > 2 ** 32) {
    throw new RangeError('randomInt: maxExclusive must be an integer in [1, 2^32]');
  }
  const limit = 2 ** 32 - (2 ** 32 % maxExclusive);
  const word = new Uint32Array(1);
  for (;;) {
    globalThis.crypto.getRandomValues(word);
    const value = word[0] as number;
    if (value < limit) return value % maxExclusive;
  }
}

/** Best-effort wipe of a buffer we own. JS strings and copies made by libraries cannot be wiped. */
export function wipe(bytes: Uint8Array | null | undefined): void {
  bytes?.fill(0);
}

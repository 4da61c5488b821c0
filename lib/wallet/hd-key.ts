// BIP-32 private-key derivation: the master node of a BIP-39 seed, then children along a path.
//
// viem's HDKey (@scure/bip32) does this too, but brings what Swaplane never uses into the service
// worker: extended-key (xpub/xprv) serialisation with Base58Check (all of @scure/base), RIPEMD-160
// for fingerprints and a JavaScript SHA-512 (~5 kB gzip together). Here the HMAC-SHA512 is
// WebCrypto's and the arithmetic is the curve's. tests/unit/wallet-hd-key.test.ts holds it to the
// BIP-32 test vectors 1-4, to HDKey on random seeds and paths, and to the spec's invalid-key rule.
// No extended key is ever parsed or written, so BIP-32's vector 5 (invalid xprv/xpub) has no input here.
import { secp256k1 } from '@noble/curves/secp256k1';
import { wipe } from './bytes';

/** A private node: its 32-byte key and chain code. Wipe both (wipeNode) when done. */
export interface HdNode {
  privateKey: Uint8Array<ArrayBuffer>;
  chainCode: Uint8Array<ArrayBuffer>;
}

export const HARDENED_OFFSET = 0x80000000;
const MAX_INDEX = 0xffffffff;
/** A serialised BIP-32 key keeps its depth in one byte: no node is deeper. */
export const MAX_PATH_DEPTH = 255;
const CURVE_ORDER = secp256k1.CURVE.n;

async function hmacSha512(
  key: Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  const hmacKey = await globalThis.crypto.subtle.importKey(
    'raw',
    key,
    { name: 'HMAC', hash: 'SHA-512' },
    false,
    ['sign'],
  );
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', hmacKey, data));
}

function toBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

/** ser256: always 32 bytes, leading zeros kept (BIP-32 vectors 3 and 4 hold keys that start with 00). */
function to32Bytes(value: bigint): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(32);
  for (let i = 31, rest = value; i >= 0; i--, rest >>= 8n) bytes[i] = Number(rest & 0xffn);
  return bytes;
}

/**
 * I = IL || IR: IL (+ the parent key, mod n) is the key, IR the chain code. Undefined when BIP-32
 * calls the result invalid: IL >= n, or a key of 0 (each less likely than 1 in 2^127).
 */
function nodeOf(i: Uint8Array<ArrayBuffer>, parentKey: bigint): HdNode | undefined {
  const tweak = toBigInt(i.subarray(0, 32));
  const key = (tweak + parentKey) % CURVE_ORDER;
  const chainCode = i.slice(32);
  wipe(i);
  if (tweak >= CURVE_ORDER || key === 0n) {
    wipe(chainCode);
    return undefined;
  }
  return { privateKey: to32Bytes(key), chainCode };
}

/** The master node of a seed (16 to 64 bytes): HMAC-SHA512(key "Bitcoin seed", seed). */
export async function masterNode(seed: Uint8Array<ArrayBuffer>): Promise<HdNode> {
  if (seed.length < 16 || seed.length > 64) throw new RangeError('a BIP-32 seed is 16 to 64 bytes');
  const node = nodeOf(await hmacSha512(new TextEncoder().encode('Bitcoin seed'), seed), 0n);
  // BIP-32: "the master key is invalid" (no retry is defined): this seed cannot be used.
  if (!node) throw new Error('BIP-32: this seed derives an invalid master key');
  return node;
}

async function childAt(parent: HdNode, index: number): Promise<HdNode | undefined> {
  const data = new Uint8Array(37);
  if (index >= HARDENED_OFFSET) data.set(parent.privateKey, 1);
  else data.set(secp256k1.getPublicKey(parent.privateKey, true));
  new DataView(data.buffer).setUint32(33, index);
  const i = await hmacSha512(parent.chainCode, data);
  wipe(data);
  return nodeOf(i, toBigInt(parent.privateKey));
}

/**
 * Child `index` (>= HARDENED_OFFSET: hardened, from the private key; below: from the public key).
 * Where BIP-32 calls the child invalid, it says to "proceed with the next value for i": so does
 * this, staying within the hardened or normal range asked for (a normal index never turns hardened).
 */
export async function childNode(parent: HdNode, index: number): Promise<HdNode> {
  if (!Number.isInteger(index) || index < 0 || index > MAX_INDEX)
    throw new RangeError('a BIP-32 index is a uint32');
  const last = index >= HARDENED_OFFSET ? MAX_INDEX : HARDENED_OFFSET - 1;
  for (let candidate = index; candidate <= last; candidate++) {
    const child = await childAt(parent, candidate);
    if (child) return child;
  }
  throw new Error('BIP-32: no valid child key from this index to the end of its range');
}

/** One step of a path: a decimal index without leading zeros, below 2^31, then ', h or H if hardened. */
const STEP = /^(0|[1-9]\d{0,9})(['hH]?)$/;

/** The indices of a path such as m/44'/60'/0'/0 (' h H mark a hardened step); throws on anything else. */
export function parsePath(path: string): number[] {
  const steps = path.split('/');
  if (steps.shift() !== 'm') throw new Error(`a derivation path starts with m: ${path}`);
  if (steps.length > MAX_PATH_DEPTH) throw new Error(`a derivation path has at most ${MAX_PATH_DEPTH} steps`);
  return steps.map((step) => {
    const match = STEP.exec(step);
    const index = Number(match?.[1]);
    if (!match || !(index < HARDENED_OFFSET)) throw new Error(`not a derivation step: ${step}`);
    return index + (match[2] ? HARDENED_OFFSET : 0);
  });
}

/** The node at `path` from a master node, e.g. m/44'/60'/0'/0. Intermediate nodes are wiped. */
export async function derivePath(master: HdNode, path: string): Promise<HdNode> {
  const indices = parsePath(path);
  let node = master;
  try {
    for (const index of indices) {
      const child = await childNode(node, index);
      if (node !== master) wipeNode(node);
      node = child;
    }
  } catch (error) {
    if (node !== master) wipeNode(node);
    throw error;
  }
  return node === master
    ? { privateKey: master.privateKey.slice(), chainCode: master.chainCode.slice() }
    : node;
}

/** Best effort: JavaScript cannot promise no copy of a key remains, but these bytes are zeroed. */
export function wipeNode(node: HdNode): void {
  wipe(node.privateKey);
  wipe(node.chainCode);
}

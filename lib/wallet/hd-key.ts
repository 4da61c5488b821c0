// BIP-32 private-key derivation: the master node of a BIP-39 seed, then children along a path.
//
// viem's HDKey (@scure/bip32) does this too, but brings what Swaplane never uses into the service
// worker: extended-key (xpub/xprv) serialisation with Base58Check (all of @scure/base), RIPEMD-160
// for fingerprints and a JavaScript SHA-512 (~5 kB gzip together). Here the HMAC-SHA512 is
// WebCrypto's and the arithmetic is the curve's. tests/unit/wallet-hd-key.test.ts holds it to the
// BIP-32 test vectors and to HDKey on random seeds and paths.
import { secp256k1 } from '@noble/curves/secp256k1';
import { wipe } from './bytes';

/** A private node: its 32-byte key and chain code. Wipe both (wipeNode) when done. */
export interface HdNode {
  privateKey: Uint8Array<ArrayBuffer>;
  chainCode: Uint8Array<ArrayBuffer>;
}

export const HARDENED_OFFSET = 0x80000000;
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

function to32Bytes(value: bigint): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(32);
  for (let i = 31, rest = value; i >= 0; i--, rest >>= 8n) bytes[i] = Number(rest & 0xffn);
  return bytes;
}

/** I = IL || IR: IL (+ the parent key) is the key, IR the chain code. BIP-32 rejects IL >= n and a zero key. */
function nodeOf(i: Uint8Array<ArrayBuffer>, parentKey: bigint): HdNode {
  const tweak = toBigInt(i.subarray(0, 32));
  const key = (tweak + parentKey) % CURVE_ORDER;
  const chainCode = i.slice(32);
  wipe(i);
  if (tweak >= CURVE_ORDER || key === 0n) throw new Error('BIP-32: this index derives an invalid key');
  return { privateKey: to32Bytes(key), chainCode };
}

/** The master node of a seed (16 to 64 bytes): HMAC-SHA512(key "Bitcoin seed", seed). */
export async function masterNode(seed: Uint8Array<ArrayBuffer>): Promise<HdNode> {
  if (seed.length < 16 || seed.length > 64) throw new RangeError('a BIP-32 seed is 16 to 64 bytes');
  return nodeOf(await hmacSha512(new TextEncoder().encode('Bitcoin seed'), seed), 0n);
}

/** Child `index` (>= HARDENED_OFFSET: hardened, from the private key; below: from the public key). */
export async function childNode(parent: HdNode, index: number): Promise<HdNode> {
  if (!Number.isInteger(index) || index < 0 || index > 0xffffffff)
    throw new RangeError('a BIP-32 index is a uint32');
  const data = new Uint8Array(37);
  if (index >= HARDENED_OFFSET) data.set(parent.privateKey, 1);
  else data.set(secp256k1.getPublicKey(parent.privateKey, true));
  new DataView(data.buffer).setUint32(33, index);
  const i = await hmacSha512(parent.chainCode, data);
  wipe(data);
  return nodeOf(i, toBigInt(parent.privateKey));
}

/** The node at `path` from a master node, e.g. m/44'/60'/0'/0 (' or h marks a hardened step). */
export async function derivePath(master: HdNode, path: string): Promise<HdNode> {
  const steps = path.split('/');
  if (steps.shift() !== 'm') throw new Error(`a derivation path starts with m: ${path}`);
  let node = master;
  for (const step of steps) {
    const match = /^(\d+)(['h]?)$/.exec(step);
    const index = match ? Number(match[1]) + (match[2] ? HARDENED_OFFSET : 0) : Number.NaN;
    if (!match || !(Number(match[1]) < HARDENED_OFFSET)) throw new Error(`not a derivation step: ${step}`);
    const child = await childNode(node, index);
    if (node !== master) wipeNode(node);
    node = child;
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

// Who signed: the address behind an ECDSA signature over a hash or an EIP-191 message.
//
// viem's recoverAddress / recoverMessageAddress do the same, but load @noble/curves with a dynamic
// import(). The service worker is one file, so that import wrapped the curve, the hashes and ~80 of
// viem's modules in lazy initialisers and kept the curve's whole namespace (Schnorr, hash-to-curve):
// 3.2 kB gzip of the background. Here the curve is imported statically (viem's signing already
// bundles it) and the steps are viem's own; tests/unit/rpc-recover-signer.test.ts holds both equal.
import { secp256k1 } from '@noble/curves/secp256k1';
import { type Address, type Hex, hashMessage, hexToBigInt, isHex } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';

/** 65 bytes r || s || v, or the parts as a transaction carries them (r and s without leading zeros). */
export type RecoverableSignature = Hex | { r: Hex; s: Hex; yParity: number };

/** 0/1, or 27/28 as older signers write v. Anything else is not a recovery bit. */
function recoveryBit(v: number): 0 | 1 {
  if (v === 0 || v === 27) return 0;
  if (v === 1 || v === 28) return 1;
  throw new Error('invalid yParity or v value');
}

/** The checksummed address whose key signed `hash` (32 bytes). Throws on a signature that recovers none. */
export function recoverAddress(hash: Hex, signature: RecoverableSignature): Address {
  if (!isHex(hash) || hash.length !== 66) throw new Error('the hash must be 32 bytes of hex');
  let parts: InstanceType<typeof secp256k1.Signature>;
  if (typeof signature === 'string') {
    if (!isHex(signature) || signature.length !== 132) throw new Error('invalid signature length');
    const v = Number.parseInt(signature.slice(130), 16);
    parts = secp256k1.Signature.fromCompact(signature.slice(2, 130)).addRecoveryBit(recoveryBit(v));
  } else {
    parts = new secp256k1.Signature(hexToBigInt(signature.r), hexToBigInt(signature.s)).addRecoveryBit(
      recoveryBit(signature.yParity),
    );
  }
  return publicKeyToAddress(`0x${parts.recoverPublicKey(hash.slice(2)).toHex(false)}`);
}

/** The signer of an EIP-191 personal message (`personal_sign`), given as its raw bytes in hex. */
export function recoverMessageAddress(messageHex: Hex, signature: Hex): Address {
  return recoverAddress(hashMessage({ raw: messageHex }), signature);
}

import fc from 'fast-check';
import { bytesToHex, type Hex, hexToBytes } from 'viem';
import { HDKey } from 'viem/accounts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  childNode,
  derivePath,
  HARDENED_OFFSET,
  MAX_PATH_DEPTH,
  masterNode,
  parsePath,
  wipeNode,
} from '@/lib/wallet/hd-key';

const hex = (bytes: Uint8Array) => bytesToHex(bytes).slice(2);
const seedOf = (text: string) => hexToBytes(`0x${text}` as Hex) as Uint8Array<ArrayBuffer>;

// BIP-32's published test vectors 1-4 (private key and chain code of each node; vectors 3 and 4 keep
// leading zeros: the master of 3 and m/0H of 4 start with 00). Vector 4's nodes are its xprv strings
// decoded (Base58Check, so a mistyped digit cannot pass). Vector 5 is invalid extended keys: no input here.
const VECTORS: { seed: string; nodes: [path: string, key: string, chainCode: string][] }[] = [
  {
    seed: '000102030405060708090a0b0c0d0e0f',
    nodes: [
      [
        'm',
        'e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35',
        '873dff81c02f525623fd1fe5167eac3a55a049de3d314bb42ee227ffed37d508',
      ],
      [
        "m/0'",
        'edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea',
        '47fdacbd0f1097043b78c63c20c34ef4ed9a111d980047ad16282c7ae6236141',
      ],
      [
        "m/0'/1",
        '3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368',
        '2a7857631386ba23dacac34180dd1983734e444fdbf774041578e9b6adb37c19',
      ],
      [
        "m/0'/1/2'",
        'cbce0d719ecf7431d88e6a89fa1483e02e35092af60c042b1df2ff59fa424dca',
        '04466b9cc8e161e966409ca52986c584f07e9dc81f735db683c3ff6ec7b1503f',
      ],
      [
        "m/0'/1/2'/2",
        '0f479245fb19a38a1954c5c7c0ebab2f9bdfd96a17563ef28a6a4b1a2a764ef4',
        'cfb71883f01676f587d023cc53a35bc7f88f724b1f8c2892ac1275ac822a3edd',
      ],
      [
        "m/0'/1/2'/2/1000000000",
        '471b76e389e528d6de6d816857e012c5455051cad6660850e58372a6c3e6e7c8',
        'c783e67b921d2beb8f6b389cc646d7263b4145701dadd2161548a8b078e65e9e',
      ],
    ],
  },
  {
    seed: 'fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542',
    nodes: [
      [
        'm',
        '4b03d6fc340455b363f51020ad3ecca4f0850280cf436c70c727923f6db46c3e',
        '60499f801b896d83179a4374aeb7822aaeaceaa0db1f85ee3e904c4defbd9689',
      ],
      [
        'm/0',
        'abe74a98f6c7eabee0428f53798f0ab8aa1bd37873999041703c742f15ac7e1e',
        'f0909affaa7ee7abe5dd4e100598d4dc53cd709d5a5c2cac40e7412f232f7c9c',
      ],
      [
        "m/0/2147483647'",
        '877c779ad9687164e9c2f4f0f4ff0340814392330693ce95a58fe18fd52e6e93',
        'be17a268474a6bb9c61e1d720cf6215e2a88c5406c4aee7b38547f585c9a37d9',
      ],
      [
        "m/0/2147483647'/1",
        '704addf544a06e5ee4bea37098463c23613da32020d604506da8c0518e1da4b7',
        'f366f48f1ea9f2d1d3fe958c95ca84ea18e4c4ddb9366c336c927eb246fb38cb',
      ],
      [
        "m/0/2147483647'/1/2147483646'",
        'f1c7c871a54a804afe328b4c83a1c33b8e5ff48f5087273f04efa83b247d6a2d',
        '637807030d55d01f9a0cb3a7839515d796bd07706386a6eddf06cc29a65a0e29',
      ],
      [
        "m/0/2147483647'/1/2147483646'/2",
        'bb7d39bdb83ecf58f2fd82b6d918341cbef428661ef01ab97c28a4842125ac23',
        '9452b549be8cea3ecb7a84bec10dcfd94afe4d129ebfd3b3cb58eedf394ed271',
      ],
    ],
  },
  {
    seed: '4b381541583be4423346c643850da4b320e46a87ae3d2a4e6da11eba819cd4acba45d239319ac14f863b8d5ab5a0d0c64d2e8a1e7d1457df2e5a3c51c73235be',
    nodes: [
      [
        'm',
        '00ddb80b067e0d4993197fe10f2657a844a384589847602d56f0c629c81aae32',
        '01d28a3e53cffa419ec122c968b3259e16b65076495494d97cae10bbfec3c36f',
      ],
      [
        "m/0'",
        '491f7a2eebc7b57028e0d3faa0acda02e75c33b03c48fb288c41e2ea44e1daef',
        'e5fea12a97b927fc9dc3d2cb0d1ea1cf50aa5a1fdc1f933e8906bb38df3377bd',
      ],
    ],
  },
  {
    seed: '3ddd5602285899a946114506157c7997e5444528f3003f6134712147db19b678',
    nodes: [
      [
        'm',
        '12c0d59c7aa3a10973dbd3f478b65f2516627e3fe61e00c345be9a477ad2e215',
        'd0c8a1f6edf2500798c3e0b54f1b56e45f6d03e6076abd36e5e2f54101e44ce6',
      ],
      [
        'm/0H',
        '00d948e9261e41362a688b916f297121ba6bfb2274a3575ac0e456551dfd7f7e',
        'cdc0f06456a14876c898790e0b3b1a41c531170aec69da44ff7b7265bfe7743b',
      ],
      [
        'm/0H/1H',
        '3a2086edd7d9df86c3487a5905a1712a9aa664bce8cc268141e07549eaa8661d',
        'a48ee6674c5264a237703fd383bccd9fad4d9378ac98ab05e6e7029b06360c0d',
      ],
    ],
  },
];

// Vector 4 as published: the xprv of m, m/0H and m/0H/1H.
const VECTOR_4_XPRV = [
  'xprv9s21ZrQH143K48vGoLGRPxgo2JNkJ3J3fqkirQC2zVdk5Dgd5w14S7fRDyHH4dWNHUgkvsvNDCkvAwcSHNAQwhwgNMgZhLtQC63zxwhQmRv',
  'xprv9vB7xEWwNp9kh1wQRfCCQMnZUEG21LpbR9NPCNN1dwhiZkjjeGRnaALmPXCX7SgjFTiCTT6bXes17boXtjq3xLpcDjzEuGLQBM5ohqkao9G',
  'xprv9xJocDuwtYCMNAo3Zw76WENQeAS6WGXQ55RCy7tDJ8oALr4FWkuVoHJeHVAcAqiZLE7Je3vZJHxspZdFHfnBEjHqU5hG1Jaj32dVoS6XLT1',
];

const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** 64 bytes whose left half is `il`: what the next HMAC-SHA512 answers, to reach BIP-32's invalid cases. */
function forcedHmac(il: bigint): ArrayBuffer {
  const bytes = new Uint8Array(64).fill(7);
  bytes.set(hexToBytes(`0x${il.toString(16).padStart(64, '0')}`), 0);
  return bytes.buffer;
}

/** The next HMAC-SHA512 results are the forced ones; then WebCrypto answers again. */
function forceNextHmacs(...results: ArrayBuffer[]) {
  const spy = vi.spyOn(globalThis.crypto.subtle, 'sign');
  spy.mockClear(); // counts start here, even when the spy was already set
  for (const result of results) spy.mockImplementationOnce(async () => result);
  return spy;
}

describe('BIP-32 derivation (lib/wallet/hd-key.ts)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('derives the published test vectors', async () => {
    for (const { seed, nodes } of VECTORS) {
      const master = await masterNode(seedOf(seed));
      for (const [path, key, chainCode] of nodes) {
        const node = await derivePath(master, path);
        expect({ path, key: hex(node.privateKey), chainCode: hex(node.chainCode) }).toEqual({
          path,
          key,
          chainCode,
        });
      }
    }
  });

  it('derives what viem’s HDKey derives, for random seeds and paths', async () => {
    const step = fc.tuple(fc.nat({ max: HARDENED_OFFSET - 1 }), fc.boolean());
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 16, maxLength: 64 }),
        fc.array(step, { maxLength: 5 }),
        async (seed, steps) => {
          const path = ['m', ...steps.map(([index, hardened]) => `${index}${hardened ? "'" : ''}`)].join('/');
          const expected = HDKey.fromMasterSeed(seed).derive(path);
          const node = await derivePath(await masterNode(new Uint8Array(seed)), path);
          expect(hex(node.privateKey)).toBe(hex(expected.privateKey as Uint8Array));
          expect(hex(node.chainCode)).toBe(hex(expected.chainCode as Uint8Array));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('derives vector 4 exactly as its published xprv strings say (leading zero kept)', async () => {
    const master = await masterNode(seedOf(VECTORS[3]?.seed as string));
    for (const [depth, path] of ['m', 'm/0H', 'm/0H/1H'].entries()) {
      const published = HDKey.fromExtendedKey(VECTOR_4_XPRV[depth] as string);
      const node = await derivePath(master, path);
      expect(node.privateKey).toHaveLength(32);
      expect(hex(node.privateKey)).toBe(hex(published.privateKey as Uint8Array));
      expect(hex(node.chainCode)).toBe(hex(published.chainCode as Uint8Array));
    }
  });

  it('hands out children one at a time and zeroes a node when told', async () => {
    const master = await masterNode(seedOf(VECTORS[0]?.seed as string));
    const child = await childNode(master, HARDENED_OFFSET);
    expect(hex(child.privateKey)).toBe('edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea');
    wipeNode(child);
    expect(child.privateKey.every((byte) => byte === 0)).toBe(true);
    expect(child.chainCode.every((byte) => byte === 0)).toBe(true);
    // derivePath copies the master rather than handing it back, so wiping a result never wipes the master.
    const same = await derivePath(master, 'm');
    wipeNode(same);
    expect(hex(master.privateKey)).toBe('e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35');
  });

  it('refuses bad seeds, indices and paths with a clear error', async () => {
    const master = await masterNode(seedOf(VECTORS[0]?.seed as string));
    await expect(masterNode(new Uint8Array(15))).rejects.toThrow('a BIP-32 seed is 16 to 64 bytes');
    await expect(masterNode(new Uint8Array(65))).rejects.toThrow('a BIP-32 seed is 16 to 64 bytes');
    await expect(childNode(master, -1)).rejects.toThrow('a BIP-32 index is a uint32');
    await expect(childNode(master, 2 ** 32)).rejects.toThrow('a BIP-32 index is a uint32');
    await expect(childNode(master, 1.5)).rejects.toThrow('a BIP-32 index is a uint32');
    await expect(derivePath(master, "44'/60'")).rejects.toThrow('a derivation path starts with m');
    await expect(derivePath(master, 'm/x')).rejects.toThrow('not a derivation step: x');
    await expect(derivePath(master, 'm/2147483648')).rejects.toThrow('not a derivation step: 2147483648');
    await expect(derivePath(master, 'm/1//2')).rejects.toThrow('not a derivation step: ');
  });

  it("parses paths strictly: one spelling per index, hardened as ' h or H, no sign, space or overflow", () => {
    const H = HARDENED_OFFSET;
    expect(parsePath('m')).toEqual([]);
    expect(parsePath("m/44'/60'/0'/0/0")).toEqual([44 + H, 60 + H, H, 0, 0]);
    expect(parsePath('m/44h/60H/0h/0/7')).toEqual([44 + H, 60 + H, H, 0, 7]);
    expect(parsePath("m/2147483647'/2147483647")).toEqual([0xffffffff, 0x7fffffff]);
    for (const [path, step] of [
      ['m/01', '01'],
      ['m/00', '00'],
      ["m/007'", "007'"],
      ['m/-1', '-1'],
      ['m/+1', '+1'],
      ['m/ 1', ' 1'],
      ['m/1 ', '1 '],
      ['m/1\n', '1\n'],
      ['m/1e3', '1e3'],
      ['m/0x10', '0x10'],
      ["m/1''", "1''"],
      ['m/1hh', '1hh'],
      ["m/'", "'"],
      ['m/2147483648', '2147483648'],
      ["m/2147483648'", "2147483648'"],
      ['m/4294967296', '4294967296'],
      ['m/99999999999999999999', '99999999999999999999'],
      ['m/\u0661', '\u0661'], // ARABIC-INDIC DIGIT ONE is not a decimal digit here
      ['m/', ''],
    ]) {
      expect(() => parsePath(path as string), path).toThrow(`not a derivation step: ${step}`);
    }
    for (const path of ['M/0', ' m/0', 'm /0', '/0', '', "m'/0"]) {
      expect(() => parsePath(path), path).toThrow('a derivation path starts with m');
    }
    expect(parsePath(`m${'/0'.repeat(MAX_PATH_DEPTH)}`)).toHaveLength(MAX_PATH_DEPTH);
    expect(() => parsePath(`m${'/0'.repeat(MAX_PATH_DEPTH + 1)}`)).toThrow('at most 255 steps');
  });

  it('skips to the next index when IL >= n, as BIP-32 says (normal and hardened children)', async () => {
    const master = await masterNode(seedOf(VECTORS[0]?.seed as string));
    for (const index of [0, 5, HARDENED_OFFSET, HARDENED_OFFSET + 44]) {
      const next = await childNode(master, index + 1);
      for (const il of [CURVE_ORDER, 2n ** 256n - 1n]) {
        const spy = forceNextHmacs(forcedHmac(il));
        const child = await childNode(master, index);
        expect(spy).toHaveBeenCalledTimes(2); // the forced result, then index + 1 from WebCrypto
        expect({ key: hex(child.privateKey), chainCode: hex(child.chainCode) }).toEqual({
          key: hex(next.privateKey),
          chainCode: hex(next.chainCode),
        });
        spy.mockRestore();
      }
    }
  });

  it('skips to the next index when the child key would be 0, and accepts IL = n - 1', async () => {
    const master = await masterNode(seedOf(VECTORS[0]?.seed as string));
    const parentKey = BigInt(`0x${hex(master.privateKey)}`);
    const next = await childNode(master, 1);
    forceNextHmacs(forcedHmac(CURVE_ORDER - parentKey));
    expect(hex((await childNode(master, 0)).privateKey)).toBe(hex(next.privateKey));
    // IL = n - 1 is valid: the key is parentKey - 1, the chain code IR, nothing skipped.
    const spy = forceNextHmacs(forcedHmac(CURVE_ORDER - 1n));
    const edge = await childNode(master, 0);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(hex(edge.privateKey)).toBe((parentKey - 1n).toString(16).padStart(64, '0'));
    expect(hex(edge.chainCode)).toBe('07'.repeat(32));
  });

  it('never lets a skip leave the range asked for, and refuses an invalid master key', async () => {
    const master = await masterNode(seedOf(VECTORS[0]?.seed as string));
    forceNextHmacs(forcedHmac(CURVE_ORDER));
    await expect(childNode(master, HARDENED_OFFSET - 1)).rejects.toThrow('no valid child key');
    forceNextHmacs(forcedHmac(CURVE_ORDER));
    await expect(childNode(master, 0xffffffff)).rejects.toThrow('no valid child key');
    // A failed step inside a path fails the whole path (no silent shorter path).
    forceNextHmacs(forcedHmac(0n), forcedHmac(CURVE_ORDER));
    await expect(derivePath(master, "m/0'/2147483647")).rejects.toThrow('no valid child key');
    for (const il of [0n, CURVE_ORDER, CURVE_ORDER + 1n]) {
      forceNextHmacs(forcedHmac(il));
      await expect(masterNode(seedOf(VECTORS[0]?.seed as string))).rejects.toThrow(
        'this seed derives an invalid master key',
      );
    }
  });
});
